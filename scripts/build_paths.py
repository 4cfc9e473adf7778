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


def toc_pages(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The book's pages as `toc` (Jupyter Book's _toc.yml) lists them, in order: its root first,
    then every `file` entry of its parts, chapters and sections ("book/intro", "book/01_projection",
    …: paths from the toc's folder, without suffix). Read with PyYAML, the format's own reader."""
    import yaml

    data = yaml.safe_load(toc.read_text(encoding="utf-8")) or {}

    def files(node) -> list[str]:
        if isinstance(node, dict):
            return ([node["file"]] if "file" in node else []) + [f for v in node.values() for f in files(v)]
        if isinstance(node, list):
            return [f for item in node for f in files(item)]
        return []

    return ([data["root"]] if "root" in data else []) + files(data)
