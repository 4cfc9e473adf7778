"""Build the teacher's slides: one reveal.js deck per chapter, plus the whole course.

    .venv/bin/python -m scripts.build_slides            # every chapter in _toc.yml
    .venv/bin/python -m scripts.build_slides 03_scaling # just these decks (no course deck)
    .venv/bin/python -m scripts.build_slides path/to/any.ipynb
    .venv/bin/python -m scripts.build_slides --lang zh_CN   # the Chinese decks, into _build/slides/zh_CN/

The decks are made from the same notebooks as the book (one source): the cells'
`metadata.slideshow.slide_type` cut them into slides, `notes` cells become the
speaker notes (press `s`) and `slide-only` cells the slide text written for the
deck (the chapters tag both `remove-cell` to keep them out of the book, which the
slides ignore for them), cells tagged
`hide-input`/`remove-input` show their output only, other `remove-cell` cells
are dropped. The executed notebooks come from
the book's jupyter-cache (`_build/.jupyter_cache`), so the slides show exactly
the book's numbers; a notebook the cache does not match is executed here.

The MyST the book understands but nbconvert does not (glue roles, dropdowns,
admonitions, `{doc}` links, labels) is turned into plain Markdown/HTML first, by
scripts/myst_convert.py (shared with the learner edition). Each job has its module
in scripts/slides/ (see its __init__); this script runs them in order.

Every edition has its decks. `--lang zh_CN` builds the Chinese ones into
`_build/slides/zh_CN/` from the same executed notebooks, translated before they are
converted by scripts/translate_notebook.py with the book's catalogues and the speaker
notes' (locale/zh_CN/LC_MESSAGES/notes/); a message with no translation stops the build.
They load the English decks' `vendor/`. Build the English decks first.

Output, all offline (every asset under the slides' own `vendor/` folder):

    _build/slides/index.html            the list of decks and handouts
    _build/slides/NN_name.html          one deck per chapter
    _build/slides/course.html           every chapter in order
    _build/slides/lesson.html           the 90-minute lesson, written as slides (lesson/lesson.md)
    _build/slides/vendor/               reveal.js 4, MathJax 2, require.js, jQuery, widget manager, anywidget
    _build/slides/zh_CN/                the same decks (and index.html, pdf/) in Chinese

and the same tree under `_build/html/slides/` when the book is built, so the
published site carries the decks its chapter pages link to. The PDF handouts
are printed by scripts/build_handouts.py.

Running it again rebuilds only the decks whose inputs changed: the notebook
file, its executed outputs (the jupyter-cache record), the template and CSS,
this script, the vendored assets' lock file, the set of decks (links point at
them). Each deck's input hash is kept in `_build/slides/.inputs.json`; the
course deck is rebuilt when any chapter's is. `--force` rebuilds them all.
Copies (vendor/, the book's slides/) only copy files that differ.
"""

from __future__ import annotations

import argparse
import copy
import functools
import hashlib
import json
import sys
import time
from pathlib import Path

# nbformat (and nbconvert) cost seconds to import: they are imported where a deck is
# actually built, so a run with nothing to rebuild stays quick.
from scripts import build_paths
from scripts.slides import COURSE, COURSE_TITLE, LANGUAGES, TITLE, _, book_index, folder, language, lesson  # noqa: F401  (TITLE, LANGUAGES: for build_handouts)
from scripts.slides.assets import copy_vendor, sync  # noqa: F401  (sync: for build_handouts)
from scripts.slides.chapters import chapters, documents, title_of, titles_and_labels
from scripts.slides.execution import cache_fingerprint, cache_record, executed
from scripts.slides.export import export, exporter
from scripts.slides.notebook import course_notebook, for_slides
from scripts.slides.sheets import SHEETS, exercises_of, write_sheets
from scripts.slides.site import publish, published_site, standalone, standalone_book, write_if_changed, write_index
from scripts.slides.stamps import (
    deck_digest,
    quick_digest,
    read_stamps,
    tooling_digest,
    write_stamps,
)
from scripts.translate_notebook import translated

OUT = build_paths.SLIDES  # the decks; the tests swap these two for a temporary folder
SITE = build_paths.SITE  # the built book, whose slides/ is a copy of OUT


def in_language(nb, lang: str, stem: str):
    """The executed notebook in `lang` (scripts/translate_notebook.py); stops on an untranslated message."""
    return translated(nb, lang, stem, "build_slides")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "only",
        nargs="*",
        help="chapter stems (03_scaling) or notebook paths to build (default: every chapter and the course)",
    )
    parser.add_argument("--force", action="store_true", help="rebuild the decks even if their inputs did not change")
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="the decks' language; default en")
    args = parser.parse_args(argv)
    with language(args.lang):
        return build_decks(args)


def build_decks(args) -> int:
    start = time.perf_counter()
    lang = args.lang
    out = OUT / folder(lang)
    paths = chapters()
    if not paths:
        sys.exit("build_slides: no chapter notebooks in _toc.yml")
    extra = [Path(a).resolve() for a in args.only if a.endswith(".ipynb")]  # any notebook, by path
    missing = [a for a in args.only if not a.endswith(".ipynb") and a not in {p.stem for p in paths} | {lesson.NAME}]
    if missing or not all(p.exists() for p in extra):
        sys.exit(f"build_slides: no such chapter or notebook: {missing or [str(p) for p in extra if not p.exists()]}")
    decks = {p.stem for p in paths + extra}
    todo = [p for p in paths if not args.only or p.stem in args.only] + extra  # the lesson is built after them
    out.mkdir(parents=True, exist_ok=True)
    copy_vendor(OUT / "vendor")  # every language's decks load these
    tooling, stamps = tooling_digest(lang), read_stamps(out)
    prepared: dict[str, object] = {}
    exp = None

    @functools.cache
    def links():
        """(titles, labels) of the book's documents and of the extra notebooks; the titles in this
        language (as their page's catalogue translates the heading), the labels are every language's."""
        docs = documents() | {p.stem: json.loads(p.read_text()) for p in extra}
        titles, labels = titles_and_labels(docs)
        if lang != "en":
            from scripts.translate_notebook import catalogue

            titles = {stem: catalogue(lang, "book", stem).get(title, title) for stem, title in titles.items()}
        return titles, labels

    def ready(path: Path):
        """The notebook executed and made ready for nbconvert (once)."""
        if path.stem not in prepared:
            t0 = time.perf_counter()
            nb, origin = executed(path)
            nb = in_language(nb, lang, path.stem)
            prepared[f"{path.stem}:exercises"] = exercises_of(nb, path.stem, *links())  # for the sheets
            prepared[path.stem] = for_slides(nb, path.stem, decks, *links(), lang=lang)
            prepared[f"{path.stem}:why"] = f"{origin}, {time.perf_counter() - t0:.1f} s"
        return prepared[path.stem]

    def build(name: str, nb, title: str, stamp: dict | None) -> None:
        nonlocal exp
        exp = exp or exporter(lang)
        (out / f"{name}.html").write_text(standalone(export(exp, nb, title, lang), lang))
        if stamp is None:
            stamps.pop(name, None)
        else:
            stamps[name] = stamp
        write_stamps(out, stamps)

    fingerprint = cache_fingerprint()
    digests, rebuilt = {}, []
    for path in todo:
        old, exists = stamps.get(path.stem), (out / f"{path.stem}.html").exists()
        old = old if isinstance(old, dict) else {}
        quick = quick_digest(path, tooling, decks, fingerprint)
        if not args.force and exists and old.get("quick") == quick:
            digests[path.stem] = old["inputs"]  # same file, same cache: same execution
            continue
        digests[path.stem] = digest = deck_digest(path, tooling, decks, cache_record(path))
        stamp = None if digest is None else {"inputs": digest, "quick": quick}
        if not args.force and exists and digest is not None and old.get("inputs") == digest:
            stamps[path.stem] = stamp  # the cache changed, not this notebook's execution
            write_stamps(out, stamps)
            continue
        t0 = time.perf_counter()
        nb = ready(path)
        build(path.stem, nb, title_of(nb), stamp)
        rebuilt.append(path.stem)
        print(f"build_slides: {path.stem}.html ({prepared[path.stem + ':why']}, {time.perf_counter() - t0:.1f} s)")
    if not args.only:
        parts = [digests[p.stem] for p in paths]
        digest = None if None in parts else hashlib.sha256("\0".join([tooling, *parts]).encode()).hexdigest()
        old = stamps.get(COURSE) if isinstance(stamps.get(COURSE), dict) else {}
        if (
            args.force
            or digest is None
            or old.get("inputs") != digest
            or not all((out / f"{name}.html").exists() for name in (COURSE, COURSE_TITLE, *SHEETS))
        ):
            course = course_notebook([(p.stem, ready(p)) for p in paths], lang)
            title_only = copy.deepcopy(course)  # the course handout's first page, before the chapters' handouts
            title_only.cells = title_only.cells[:2]  # the title slide and its notes
            title_only.metadata.pop("widgets", None)
            content = [(c.cell_type, c.source, c.metadata) for c in title_only.cells]  # not the cells' random ids
            title_digest = hashlib.sha256(f"{tooling}\0{json.dumps(content, sort_keys=True)}".encode()).hexdigest()
            old = stamps.get(COURSE_TITLE) if isinstance(stamps.get(COURSE_TITLE), dict) else {}
            if args.force or old.get("inputs") != title_digest or not (out / f"{COURSE_TITLE}.html").exists():
                build(COURSE_TITLE, title_only, course.metadata["title"], {"inputs": title_digest})
            build(COURSE, course, course.metadata["title"], None if digest is None else {"inputs": digest})
            rebuilt.append(COURSE)
            print(f"build_slides: {COURSE}.html ({len(paths)} chapters)")
            site = published_site()
            book = f"{site}{folder(lang) + '/' if folder(lang) else ''}book/" if site else None
            write_sheets(out, [(title_of(ready(p)), prepared[f"{p.stem}:exercises"]) for p in paths], lang, book)
            print(f"build_slides: {', '.join(f'{kind}.html' for kind in SHEETS)} (every chapter's exercises)")
    if not args.only or lesson.NAME in args.only:
        stamp = lesson.digest(tooling, fingerprint, lang)
        if (
            args.force
            or stamps.get(lesson.NAME, {}).get("inputs") != stamp
            or not (out / f"{lesson.NAME}.html").exists()
        ):
            t0 = time.perf_counter()
            exp = exp or exporter(lang)
            lesson.build(exp, out, lang)
            stamps[lesson.NAME] = {"inputs": stamp}
            write_stamps(out, stamps)
            rebuilt.append(lesson.NAME)
            print(
                f"build_slides: {lesson.NAME}.html ({lesson.SOURCE.relative_to(build_paths.ROOT)}, {time.perf_counter() - t0:.1f} s)"
            )
    names = links()[0]  # the chapters' titles in this language
    listed = [(p.stem, names.get(p.stem) or title_of(json.loads(p.read_text()))) for p in paths + extra]
    listed = [(stem, title) for stem, title in listed if (out / f"{stem}.html").exists()]
    if (out / f"{COURSE}.html").exists():
        listed.append((COURSE, _("The whole course ({n} chapters in one deck)").format(n=len(listed))))
    if (out / f"{lesson.NAME}.html").exists():  # the lesson leads: what a teacher teaches from
        listed.insert(0, (lesson.NAME, lesson.title(lang)))
    write_if_changed(out / "decks.json", json.dumps(listed, indent=1, ensure_ascii=False))
    write_index(out, listed, book_prefix=standalone_book(lang), lang=lang)
    publish(out, SITE, lang)
    kept = len(todo) + (0 if args.only else 1) + (1 if not args.only or lesson.NAME in args.only else 0) - len(rebuilt)
    print(
        f"build_slides: {len(rebuilt)} decks rebuilt, {kept} unchanged, in {out}/ in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
