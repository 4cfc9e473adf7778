#!/usr/bin/env bash
# Install everything, then build the book into _build/html (warnings are errors)
# and the slides made from the same notebooks into _build/slides (copied into the book).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
.venv/bin/jupyter-book build . -W -n --keep-going --quiet
# The teacher's slides from the same executed notebooks, then their PDF handouts
# (printed by Chromium, which scripts/test.sh installs).
.venv/bin/python scripts/build_slides.py
if [ -x /usr/bin/chromium ]; then
  .venv/bin/python scripts/build_handouts.py
else
  echo "build: no /usr/bin/chromium, so no PDF handouts (apt-get install chromium, then scripts/build_handouts.py)"
fi
echo
echo "The book is in _build/html/. Open _build/html/index.html in a browser,"
echo "or serve it: .venv/bin/python -m http.server -d _build/html 8000 -b 127.0.0.1"
echo "The slides are in _build/slides/ (and _build/html/slides/): open _build/slides/index.html."
