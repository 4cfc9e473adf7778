#!/usr/bin/env bash
# Install everything, then build the book into _build/html (warnings are errors)
# and the slides made from the same notebooks into _build/slides (copied into the book).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# Sphinx and the execution cache notice changes to a notebook's own cells, not
# to the core package it imports: when book/attention/ changes, re-read and
# re-run every notebook.
core=$(find book/attention -type f \( -name '*.py' -o -name '*.js' -o -name '*.css' \) | sort | xargs cat | sha256sum)
if [ "$(cat _build/.core.sha256 2>/dev/null)" != "$core" ]; then
  rm -rf _build/.jupyter_cache _build/.doctrees
fi
.venv/bin/jupyter-book build . -W -n --keep-going --quiet
echo "$core" > _build/.core.sha256
# The teacher's slides from the same executed notebooks, then their PDF handouts
# (printed by the Chromium that setup.sh installed).
.venv/bin/python scripts/build_slides.py
.venv/bin/python scripts/build_handouts.py
echo
echo "The book is in _build/html/. Open _build/html/index.html in a browser,"
echo "or serve it: .venv/bin/python -m http.server -d _build/html 8000 -b 127.0.0.1"
echo "The slides are in _build/slides/ (and _build/html/slides/): open _build/slides/index.html."
