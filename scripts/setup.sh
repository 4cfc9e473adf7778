#!/usr/bin/env bash
# Install everything the book needs: Debian's Chromium (it prints the PDF
# handouts and runs the browser tests), a virtual environment in .venv from
# requirements.txt, the browser assets from package-lock.json, and their copies
# under _build/vendor. Safe to run again: it only redoes what
# changed. Sourced by build.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "setup: Python 3.10 or newer is needed; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
  exit 1
fi
command -v npm >/dev/null || { echo "setup: npm (Node.js) is needed for the browser assets" >&2; exit 1; }

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Reinstall only when requirements.txt changed since the last install.
if ! cmp -s requirements.txt .venv/.requirements.installed; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt
  cp requirements.txt .venv/.requirements.installed
fi
if ! cmp -s package-lock.json node_modules/.package-lock.installed 2>/dev/null; then
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  cp package-lock.json node_modules/.package-lock.installed
fi
.venv/bin/python scripts/vendor_assets.py
