"""The book's build tooling: the book's other editions, the slides, the handouts and the learner's
notebooks, made from the book's executed notebooks, and the checks and benchmarks of that build.

Every script is a module of this package, run from the repository's root:

    .venv/bin/python -m scripts.build_slides --lang zh_CN
    .venv/bin/python -m scripts.notebook_deps --list

and imports the others through it (``from scripts.build_paths import ROOT``). The scripts use the
core, ``attention_steps``, from ``book/``, the folder the notebooks import it from (the book's venv
does not install it): importing this package puts ``book/`` first on the import path, once, here.
"""

import sys
from pathlib import Path

BOOK = str(Path(__file__).resolve().parent.parent / "book")
if BOOK not in sys.path:
    sys.path.insert(0, BOOK)
