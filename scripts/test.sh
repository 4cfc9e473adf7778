#!/usr/bin/env bash
# Install everything, build the book, lint and format-check with ruff, then run the whole test suite: unit and
# property tests, the build's executions, and the built pages, decks and handouts checked
# in Chromium with the network blocked (build.sh installs everything, Chromium
# included). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/build.sh
# Lint and format-check the whole repository (pyproject.toml holds ruff's settings).
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# The build ran every notebook in a fresh kernel (tests/test_executions.py reads the proof from its cache).
.venv/bin/python -m pytest -n 2 --dist worksteal tests "$@"
