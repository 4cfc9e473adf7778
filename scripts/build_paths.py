"""Where the build puts the book and the slides: the environment is read here and nowhere else.

    BOOK_HTML   the built book (default _build/html); its jupyter-cache is beside it
    SLIDES_OUT  the slide decks and handouts (default _build/slides)

Point them elsewhere to build or test a copy (a helper's /tmp build, say). The
scripts and the slide tests import these names instead of reading the variables.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))  # the built book; its slides/ is a copy of SLIDES
SLIDES = Path(os.environ.get("SLIDES_OUT", ROOT / "_build" / "slides"))
CACHE = SITE.parent / ".jupyter_cache"  # the book's executed notebooks (myst-nb + jupyter-cache)
VENDOR = ROOT / "_build" / "vendor"  # filled by scripts/vendor_assets.py
