#!/usr/bin/env bash
# Install everything, then build the book into _build/html (warnings are errors)
# and the slides made from the same notebooks into _build/slides (copied into the book).
# Running it again redoes only what changed: Sphinx re-reads the changed pages and
# the execution cache re-runs only changed notebooks (scripts/notebook_deps.py adds the
# notebooks whose imported core modules changed); a slide deck is rebuilt only when its
# executed notebook, the template/CSS or the build script changed, a PDF handout only
# when its deck or the printing script changed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$EPOCHREALTIME; lap=$start; timings=""
step() {  # step NAME: how long since the last step (printed at the end; scripts/bench_long_context.py reads it)
  timings+="$1 $(awk -v a="$lap" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s, "; lap=$EPOCHREALTIME
}
bash scripts/setup.sh
step setup
.venv/bin/python -m scripts.notebook_deps
if .venv/bin/python -m scripts.book_fingerprint check; then
  echo "build: nothing the book reads changed since the last build (scripts/book_fingerprint.py); Sphinx skipped"
  step "book (skipped)"
else
  rm -f _build/.book-inputs.sha256
  if ! .venv/bin/jupyter-book build . -W -n --keep-going --quiet; then
    # Sphinx would take a page that failed (a cell error, a warning) as up to date next
    # time and pass: make the next build read every page again (executions that
    # succeeded still come from the cache, so that costs seconds).
    rm -rf _build/.doctrees
    echo "build: the book did not build; see the messages above" >&2
    exit 1
  fi
  .venv/bin/python -m scripts.notebook_deps --record
  .venv/bin/python -m scripts.book_fingerprint record
  step book
fi
# The other editions (the Chinese one), from the English build's execution cache: nothing runs
# twice. ATTENTION_LANGS lists the editions (default "en zh_CN"); English is always built,
# since the others read its cache. ATTENTION_LANGS=en builds English only.
for lang in ${ATTENTION_LANGS:-en zh_CN}; do
  [ "$lang" = en ] && continue
  .venv/bin/python -m scripts.build_lang html "$lang" || exit 1
  step "book $lang"
done
# The teacher's slides from the same executed notebooks, then their PDF handouts
# (printed by the browser scripts/browser.py finds), in every edition's language: the
# English decks first (the others load their vendor/ folder), each language's from the
# same executions, translated by scripts/translate_notebook.py.
langs=en  # English first, then the other editions, each once
for lang in ${ATTENTION_LANGS:-en zh_CN}; do [ "$lang" = en ] || langs+=" $lang"; done
for lang in $langs; do
  .venv/bin/python -m scripts.build_slides --lang "$lang"
  step "slides $lang"
done
for lang in $langs; do
  .venv/bin/python -m scripts.build_handouts --lang "$lang"
  step "handouts $lang"
done
# The learner's notebooks (plain Jupyter, MyST resolved) from the same executed notebooks, into
# _build/learner/ (pushed to the learner branch by the Pages workflow) and the book's download buttons,
# in every edition's language (English first): another language's into _build/learner/<lang>/ and
# _build/html/<lang>/, translated by scripts/translate_notebook.py, as the decks are.
for lang in $langs; do
  .venv/bin/python -m scripts.build_learner --lang "$lang"
  step "learner $lang"
done
echo
echo "The book is in _build/html/ (the Chinese edition in _build/html/zh_CN/). Open _build/html/index.html in a browser,"
echo "or serve it: .venv/bin/python -m http.server -d _build/html 8000 -b 127.0.0.1"
echo "The slides are in _build/slides/ (and _build/html/slides/): open _build/slides/index.html (Chinese: _build/slides/zh_CN/)."
echo "The learner's notebooks are in _build/learner/book/ (and _build/html/learner/); Chinese: _build/learner/zh_CN/book/."
lap=$start; step total
echo "build: ${timings%, }"
