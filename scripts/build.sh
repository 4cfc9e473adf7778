#!/usr/bin/env bash
# Install everything, then build the book into _build/html (warnings are errors).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
.venv/bin/jupyter-book build . -W -n --keep-going --quiet
echo
echo "The book is in _build/html/. Open _build/html/index.html in a browser,"
echo "or serve it: .venv/bin/python -m http.server -d _build/html 8000 -b 127.0.0.1"
