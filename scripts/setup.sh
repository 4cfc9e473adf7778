#!/usr/bin/env bash
# Install everything the book needs: a virtual environment in .venv from
# requirements.txt, the browser assets from package-lock.json and their copies
# under _build/vendor, and a Chrome or Chromium (it prints the PDF handouts and
# runs the browser tests). Safe to run again: it only redoes what changed.
# Run by build.sh and test.sh.
#
# The browser is whatever scripts/browser.py finds: $ATTENTION_BROWSER first,
# then chromium / google-chrome on PATH, the usual paths, Playwright's own.
# Only when it finds none does this install one: Debian's `chromium` package on
# Debian; elsewhere (Ubuntu, whose `chromium` package is only a wrapper for the
# snap, and other systems) Playwright's Chromium build. If that cannot be done
# it stops and says how to point the build at a browser.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "setup: Python 3.10 or newer is needed; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
  exit 1
fi
command -v npm >/dev/null || { echo "setup: npm (Node.js) is needed for the browser assets" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Install only when what is installed does not satisfy requirements.txt.
if ! .venv/bin/python -m scripts.check_requirements >/dev/null 2>&1; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt
  # jupyterlab-rise 0.43 brought jupyterlab-mathjax3, a JupyterLab 3 extension that
  # JupyterLab 4 lists as incompatible; 0.42 (pinned) does not need it.
  if .venv/bin/python -m pip show --quiet jupyterlab-mathjax3 >/dev/null 2>&1; then
    .venv/bin/python -m pip uninstall --quiet --yes jupyterlab-mathjax3
  fi
  .venv/bin/python -m scripts.check_requirements
fi
# Every kernel from .venv reads this (it drops ipykernel's "running over TCP" notice).
mkdir -p .venv/etc/ipython
if ! cmp -s scripts/ipython_kernel_config.py .venv/etc/ipython/ipython_kernel_config.py; then
  cp scripts/ipython_kernel_config.py .venv/etc/ipython/ipython_kernel_config.py
fi
if ! cmp -s package-lock.json node_modules/.package-lock.installed 2>/dev/null; then
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  cp package-lock.json node_modules/.package-lock.installed
fi
.venv/bin/python -m scripts.vendor_assets

# A browser.
if ! .venv/bin/python -m scripts.browser >/dev/null 2>&1; then
  if [ -n "${ATTENTION_BROWSER:-}" ]; then
    .venv/bin/python -m scripts.browser || true  # says what is wrong with the setting
    exit 1
  fi
  . /etc/os-release 2>/dev/null || true
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if command -v apt-get >/dev/null && { [ "${ID:-}" = debian ] || [[ " ${ID_LIKE:-} " == *" debian "* && " ${ID_LIKE:-} " != *" ubuntu "* ]]; }; then
    echo "setup: no Chrome or Chromium found; installing Debian's chromium"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: no Chrome or Chromium found; installing Playwright's Chromium build"
    deps=""; command -v apt-get >/dev/null && deps="--with-deps"
    .venv/bin/python -m playwright install $deps chromium || true
  fi
  if ! .venv/bin/python -m scripts.browser; then
    cat >&2 <<'EOF'
setup: still no browser. Install Google Chrome or Chromium, or point the build at one:
  export ATTENTION_BROWSER=/path/to/chrome   # a Chrome or Chromium binary
then run this again.
EOF
    exit 1
  fi
fi

# A CJK font: without one, Chromium draws the Chinese of chapter 10 (我 爱 猫) as
# empty boxes in the pages, the screenshots and the PDF handouts.
if command -v fc-list >/dev/null && [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  if command -v apt-get >/dev/null; then
    echo "setup: no CJK font found; installing fonts-noto-cjk"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
  else
    echo "setup: warning: no CJK font found; install Noto Sans CJK so Chinese is not drawn as boxes" >&2
  fi
fi

# poppler-utils (pdftotext, pdfimages, pdffonts, pdftoppm): tests/test_handouts.py reads the
# PDF handouts' text, figures and fonts with them, and they render handout pages to look at.
if ! command -v pdftotext >/dev/null || ! command -v pdfimages >/dev/null || ! command -v pdffonts >/dev/null; then
  if command -v apt-get >/dev/null; then
    echo "setup: installing poppler-utils (the handout tests read the PDFs with it)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
  else
    echo "setup: warning: no pdftotext/pdfimages; install poppler-utils to run tests/test_handouts.py" >&2
  fi
fi
