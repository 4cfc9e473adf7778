"""Build the teacher's slides: one reveal.js deck per chapter, plus the whole course.

    .venv/bin/python scripts/build_slides.py            # every chapter in _toc.yml
    .venv/bin/python scripts/build_slides.py 03_scaling # just these decks (no course deck)
    .venv/bin/python scripts/build_slides.py path/to/any.ipynb

The decks are made from the same notebooks as the book (one source): the cells'
`metadata.slideshow.slide_type` cut them into slides, `notes` cells become the
speaker notes (press `s`; the chapters tag them `remove-cell` to keep them out
of the book, which the slides ignore for notes), cells tagged
`hide-input`/`remove-input` show their output only, other `remove-cell` cells
are dropped. The executed notebooks come from
the book's jupyter-cache (`_build/.jupyter_cache`), so the slides show exactly
the book's numbers; a notebook the cache does not match is executed here.

The MyST the book understands but nbconvert does not (glue roles, dropdowns,
admonitions, `{doc}` links, labels) is turned into plain Markdown/HTML first, by
scripts/myst_convert.py (shared with the learner edition).

Output, all offline (every asset under the deck's own `vendor/` folder):

    _build/slides/index.html            the list of decks and handouts
    _build/slides/NN_name.html          one deck per chapter
    _build/slides/course.html           every chapter in order
    _build/slides/vendor/               reveal.js 4, MathJax 2, require.js, jQuery, widget manager, anywidget

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
import html
import json
import os
import shutil
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from myst_convert import MystConverter, admonition_div, details, embed_image, glue_outputs, is_glue_record  # noqa: E402

# nbformat (and nbconvert) cost seconds to import: they are imported where a deck is
# actually built, so a run with nothing to rebuild stays quick.

ROOT = Path(__file__).resolve().parent.parent
# SLIDES_OUT and BOOK_HTML (as in tests/conftest.py) point a build elsewhere, e.g. a helper's /tmp copy.
OUT = Path(os.environ.get("SLIDES_OUT", ROOT / "_build" / "slides"))
SITE = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))  # the built book; its slides/ is a copy of OUT
CACHE = SITE.parent / ".jupyter_cache"  # the book's executed notebooks (myst-nb + jupyter-cache)
VENDOR = ROOT / "_build" / "vendor" / "slides"  # filled by scripts/vendor_assets.py
HERE = Path(__file__).resolve().parent / "slides"  # our template and CSS
WIDGETS_CONFIG = ROOT / "book" / "assets" / "widgets-config.js"  # the book's require.js map, reused
COURSE = "course"
COURSE_TITLE = "course-title"  # the course deck's title slide alone: the first page of the course handout
TITLE = "Attention, Step by Step"
STAMPS = ".inputs.json"  # in OUT: deck name -> hash of what it was built from

# Slide size: 16:9, as classroom projectors are. Reveal scales it to the screen.
REVEAL = {"theme": "white", "transition": "fade", "number": "c/t", "width": "1280", "height": "720"}


# --------------------------------------------------------------------------- chapters
def chapters(toc: Path = ROOT / "_toc.yml") -> list[Path]:
    """The chapter notebooks in _toc.yml, in order (entries not yet written are skipped)."""

    def files(node):
        if isinstance(node, dict):
            if "file" in node:
                yield node["file"]
            for value in node.values():
                yield from files(value)
        elif isinstance(node, list):
            for item in node:
                yield from files(item)

    found = [ROOT / f"{f}.ipynb" for f in files(yaml.safe_load(toc.read_text()))]
    return [p for p in found if p.exists()]


def title_of(nb) -> str:
    """The notebook's first `# ` heading (its chapter title)."""
    for cell in nb["cells"]:  # an nbformat notebook or the notebook's plain JSON
        if cell["cell_type"] == "markdown":
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            for line in source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "Untitled"


# --------------------------------------------------------------------------- execution
@functools.lru_cache(maxsize=1)
def book_cache():
    """The book's jupyter-cache, or None before the first book build."""
    if not (CACHE / "global.db").exists():
        return None
    from jupyter_cache import get_cache

    return get_cache(CACHE)


def cache_record(path: Path) -> str | None:
    """Which cached execution the book used for this notebook (None if the cache has none)."""
    import nbformat

    cache = book_cache()
    if cache is None:
        return None
    try:
        record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
    except KeyError:
        return None
    return f"{record.pk}:{record.hashkey}:{record.created.isoformat()}"


def executed(path: Path, timeout: int = 600):
    """(notebook with outputs, where they came from): the book's cache if it matches, else a fresh run."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    if (CACHE / "global.db").exists():
        from jupyter_cache import get_cache

        try:
            # cell_meta=(): keep today's cell metadata (slide types, tags), take only the outputs.
            _, merged = get_cache(CACHE).merge_match_into_notebook(nb, cell_meta=())
            return merged, "book cache"
        except KeyError:
            pass
    from nbclient import NotebookClient

    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )  # fmt: skip
    client.execute()
    return nb, "executed"


# --------------------------------------------------------------------------- notebook -> deck
REMOVE_CELL = {"remove-cell"}
REMOVE_INPUT = {"hide-input", "remove-input", "hide-cell"}
REMOVE_OUTPUT = {"remove-output"}


def for_slides(nb, name: str, decks: set[str]):
    """A copy of an executed notebook ready for nbconvert: MyST resolved, stderr and glue records gone."""
    nb = copy.deepcopy(nb)

    def link(stem: str, anchor: str) -> str:  # another chapter: its deck; any other page: the book's
        return f"{stem}.html" if stem in decks else f"../book/{stem}.html" + (f"#{anchor}" if anchor else "")

    myst = MystConverter(glue_outputs(nb), name=name, link=link, dropdown=details, admonition=admonition_div,
                         image=embed_image(ROOT / "book"))  # fmt: skip
    for cell in nb.cells:
        if cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
            # Notes are tagged remove-cell to keep them out of the book; the slides need them.
            cell.metadata["tags"] = [t for t in cell.metadata.get("tags", []) if t not in REMOVE_CELL]
        if cell.cell_type == "markdown":
            cell.source = myst.convert(cell.source)
        elif cell.cell_type == "code":
            cell.outputs = [
                o for o in cell.outputs
                if not (o.output_type == "stream" and o.get("name") == "stderr")
                and not is_glue_record(o)
            ]  # fmt: skip
    return share_notes(nb)


def share_notes(nb):
    """Give every subslide without notes the notes of its slide's nearest part that has some.

    A slide split into subslides usually keeps its notes at the end; the speaker
    view should show them on every part, not only the last.
    """
    kind = lambda c: c.metadata.get("slideshow", {}).get("slide_type", "-")  # noqa: E731
    shown = [c for c in nb.cells if kind(c) != "skip" and not (REMOVE_CELL & set(c.metadata.get("tags", [])))]
    slides, parts = [], None  # slides -> parts -> [cells]
    for cell in shown:
        if parts is None or (kind(cell) == "slide" and any(kind(c) != "notes" for p in parts for c in p)):
            parts = [[]]
            slides.append(parts)
        elif kind(cell) == "subslide":
            parts.append([])
        parts[-1].append(cell)
    for parts in slides:
        notes = [[c for c in part if kind(c) == "notes"] for part in parts]
        for i, part in enumerate(parts):
            if part and not notes[i]:
                near = sorted((j for j in range(len(parts)) if notes[j]), key=lambda j: (abs(j - i), j < i))
                if near:
                    at = next(k for k, c in enumerate(nb.cells) if c is part[-1]) + 1
                    copies = [copy.deepcopy(c) for c in notes[near[0]]]
                    for n, c in enumerate(copies):
                        c.id = f"{c.get('id', 'notes')}-part{i}-{n}"[:64]  # cell ids must stay unique
                    nb.cells[at:at] = copies
    return nb


def exporter():
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    c = Config()
    c.SlidesExporter.extra_template_basedirs = [str(HERE)]
    c.SlidesExporter.template_name = "template"
    c.SlidesExporter.reveal_url_prefix = "vendor/reveal.js"
    c.SlidesExporter.reveal_theme = REVEAL["theme"]
    c.SlidesExporter.reveal_transition = REVEAL["transition"]
    c.SlidesExporter.reveal_number = REVEAL["number"]
    c.SlidesExporter.reveal_width = REVEAL["width"]
    c.SlidesExporter.reveal_height = REVEAL["height"]
    c.SlidesExporter.mathjax_url = "vendor/mathjax2/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    c.SlidesExporter.jquery_url = "vendor/jquery.min.js"
    c.SlidesExporter.require_js_url = "vendor/require.js"
    c.SlidesExporter.widget_renderer_url = "vendor/html-manager/embed-amd.js"
    c.SlidesExporter.exclude_input_prompt = True
    c.SlidesExporter.exclude_output_prompt = True
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = REMOVE_CELL
    c.TagRemovePreprocessor.remove_input_tags = REMOVE_INPUT
    c.TagRemovePreprocessor.remove_all_outputs_tags = REMOVE_OUTPUT
    return SlidesExporter(config=c)


def course_notebook(books: list[tuple[str, object]]):
    """Every chapter in one notebook, with a title slide; widget states merged."""
    import nbformat

    titles = [title_of(nb) for _, nb in books]
    items = "\n".join(f"- [{t}]({stem}.html)" for (stem, _), t in zip(books, titles))
    title = nbformat.v4.new_markdown_cell(f"# {TITLE}\n\nThe whole course, one chapter after another.\n\n{items}")
    title.metadata["slideshow"] = {"slide_type": "slide"}
    notes = nbformat.v4.new_markdown_cell(
        "The whole course in one deck. Each chapter starts a new slide; "
        "press `Esc` for the overview, `s` for this speaker view."
    )
    notes.metadata["slideshow"] = {"slide_type": "notes"}
    course = nbformat.v4.new_notebook(cells=[title, notes])
    course.metadata["kernelspec"] = books[0][1].metadata.get("kernelspec", {})
    course.metadata["title"] = f"{TITLE}: the whole course"
    states = {}
    for _, nb in books:
        cells = copy.deepcopy(nb.cells)
        first = next((c for c in cells if c.metadata.get("slideshow", {}).get("slide_type") not in ("skip", "notes")
                      and not REMOVE_CELL & set(c.metadata.get("tags", []))), None)  # fmt: skip
        if first is not None:
            first.metadata.setdefault("slideshow", {})["slide_type"] = "slide"
        course.cells.extend(cells)
        states.update(nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {}))
    if states:
        course.metadata["widgets"] = {
            "application/vnd.jupyter.widget-state+json": {"version_major": 2, "version_minor": 0, "state": states}
        }
    return course


def export(exp, nb, title: str) -> str:
    nb.metadata["title"] = title
    body, _ = exp.from_notebook_node(nb, resources={"metadata": {"name": title}})
    return body


# --------------------------------------------------------------------------- assets
# What a deck loads, and nothing else: MathJax 2's CommonHTML output with the TeX fonts,
# reveal.js's script, white theme and notes plugin, the widget manager, anywidget.
VENDOR_FILES = [
    "require.js", "jquery.min.js", "anywidget", "html-manager",
    "mathjax2/MathJax.js", "mathjax2/config/TeX-AMS_CHTML-full.js", "mathjax2/config/Safe.js", "mathjax2/extensions", "mathjax2/jax/input/TeX",
    "mathjax2/jax/element", "mathjax2/jax/output/CommonHTML", "mathjax2/fonts/HTML-CSS/TeX/woff",
    "mathjax2/localization/en", "mathjax2/LICENSE",
    "reveal.js/LICENSE", "reveal.js/dist/reveal.js", "reveal.js/dist/reveal.css", "reveal.js/dist/theme/white.css",
    "reveal.js/dist/theme/fonts/source-sans-pro", "reveal.js/plugin/notes",
]  # fmt: skip


def sync(pairs: list[tuple[Path, Path]], dest: Path, keep: tuple[Path, ...] = ()) -> int:
    """Make `dest` hold exactly the (source file, target) pairs and `keep`: copy what differs, delete the rest.

    Files are compared by size and modification time (copy2 keeps the source's). Returns files copied."""
    wanted, copied = {}, 0
    for src, target in pairs:
        if src.is_dir():
            for f in src.rglob("*"):
                if f.is_file():
                    wanted[target / f.relative_to(src)] = f
        else:
            wanted[target] = src
    for target, src in wanted.items():
        a = src.stat()
        try:
            b = target.stat()
            same = (a.st_size, a.st_mtime_ns) == (b.st_size, b.st_mtime_ns)
        except FileNotFoundError:
            same = False
        if not same:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
            copied += 1
    if dest.exists():
        for f in sorted(dest.rglob("*"), reverse=True):
            if f.is_file() and f not in wanted and f not in keep:
                f.unlink()
            elif f.is_dir() and not any(f.iterdir()):
                f.rmdir()
    return copied


def copy_vendor(dest: Path) -> None:
    if not VENDOR.exists():
        sys.exit(f"build_slides: {VENDOR.relative_to(ROOT)} is missing; run scripts/setup.sh (or vendor_assets.py)")
    pairs = [(VENDOR / rel, dest / rel) for rel in VENDOR_FILES]
    pairs += [(WIDGETS_CONFIG, dest / "widgets-config.js"), (HERE / "slides.css", dest / "slides.css")]
    sync(pairs, dest)


# --------------------------------------------------------------------------- index
def write_if_changed(path: Path, text: str) -> None:
    """Write only a new content: an unchanged file keeps its time, so copies of it are skipped."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def write_index(folder: Path, decks: list[tuple[str, str]], book_prefix: str | None) -> None:
    """index.html listing the decks (and their PDF handouts, once printed)."""
    rows = []
    for stem, title in decks:
        pdf = folder / "pdf" / f"{stem}.pdf"
        handout = f' · <a href="pdf/{stem}.pdf">PDF handout</a>' if pdf.exists() else ""
        rows.append(f'<li><a href="{stem}.html">{html.escape(title)}</a>{handout}</li>')
    back = f'<p><a href="{book_prefix}index.html">← Back to the book</a></p>' if book_prefix is not None else ""
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{TITLE}: slides</title>
<style>
  body {{ font: 18px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
  li {{ margin: 0.4rem 0; }}
  kbd {{ border: 1px solid #999; border-radius: 3px; padding: 0 0.3em; font-size: 0.9em; }}
</style>
</head>
<body>
<h1>{TITLE}: slides</h1>
<p>One deck per chapter, made from the same notebooks as the book. They work with no network.
Press <kbd>s</kbd> for the speaker view with the notes, <kbd>f</kbd> for full screen,
<kbd>Esc</kbd> for the overview.</p>
<ul>
{chr(10).join(rows)}
</ul>
{back}
</body>
</html>
"""
    write_if_changed(folder / "index.html", page)


def publish() -> None:
    """Copy the decks into the built book, whose chapter pages link to them."""
    if (SITE / "index.html").exists():
        site = SITE / "slides"
        # Not published: the stamps, the index (the book's own is written below), and what only the
        # course handout is made from (its title page deck, pdf/parts/).
        private = lambda rel: rel.name == STAMPS or rel in (Path("index.html"), Path(f"{COURSE_TITLE}.html")) or rel.parts[:2] == ("pdf", "parts")  # noqa: E731
        files = [f for f in OUT.rglob("*") if f.is_file() and not private(f.relative_to(OUT))]
        # the book's own index.html of the decks (links back to the book) is written just below
        copied = sync([(f, site / f.relative_to(OUT)) for f in files], site, keep=(site / "index.html",))
        write_index(site, json.loads((OUT / "decks.json").read_text()), book_prefix="../")
        print(f"build_slides: {copied} files copied into {site}/")


# --------------------------------------------------------------------------- what a deck is built from
def tooling_digest() -> str:
    """This script, the template and CSS, the require.js map, the vendored assets' lock, nbconvert's version."""
    from importlib.metadata import version

    h = hashlib.sha256(version("nbconvert").encode())
    for path in [Path(__file__), WIDGETS_CONFIG, ROOT / "package-lock.json", ROOT / "scripts" / "vendor_assets.py",
                 *sorted(f for f in HERE.rglob("*") if f.is_file())]:  # fmt: skip
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def deck_digest(path: Path, tooling: str, decks: set[str]) -> str | None:
    """Hash of everything the deck of `path` is made from; None if unknown (not executed by the book)."""
    record = cache_record(path)
    if record is None:
        return None
    h = hashlib.sha256(f"{tooling}\0{sorted(decks)}\0{record}\0".encode())
    h.update(path.read_bytes())
    return h.hexdigest()


def cache_fingerprint() -> str:
    """Every execution the book's cache holds (id, code hash, when), read with sqlite3 alone.

    While it and a notebook's file are unchanged, so is the notebook's cached execution:
    the quick check that spares a run with nothing to rebuild from importing nbformat."""
    import sqlite3

    db = CACHE / "global.db"
    if not db.exists():
        return "no cache"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT pk, hashkey, created FROM nbcache ORDER BY pk").fetchall()
    finally:
        con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def quick_digest(path: Path, tooling: str, decks: set[str], fingerprint: str) -> str:
    return hashlib.sha256(f"{tooling}\0{sorted(decks)}\0{fingerprint}\0".encode() + path.read_bytes()).hexdigest()


def read_stamps(folder: Path) -> dict[str, dict]:
    try:
        return json.loads((folder / STAMPS).read_text())
    except (OSError, ValueError):
        return {}


def write_stamps(folder: Path, stamps: dict[str, dict]) -> None:
    (folder / STAMPS).write_text(json.dumps(stamps, indent=1, sort_keys=True))


# --------------------------------------------------------------------------- main
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "only", nargs="*", help="chapter stems (03_scaling) or notebook paths to build (default: every chapter and the course)"
    )
    parser.add_argument("--force", action="store_true", help="rebuild the decks even if their inputs did not change")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    paths = chapters()
    if not paths:
        sys.exit("build_slides: no chapter notebooks in _toc.yml")
    extra = [Path(a).resolve() for a in args.only if a.endswith(".ipynb")]  # any notebook, by path
    missing = [a for a in args.only if not a.endswith(".ipynb") and a not in {p.stem for p in paths}]
    if missing or not all(p.exists() for p in extra):
        sys.exit(f"build_slides: no such chapter or notebook: {missing or [str(p) for p in extra if not p.exists()]}")
    decks = {p.stem for p in paths + extra}
    todo = [p for p in paths if not args.only or p.stem in args.only] + extra
    OUT.mkdir(parents=True, exist_ok=True)
    copy_vendor(OUT / "vendor")
    tooling, stamps = tooling_digest(), read_stamps(OUT)
    prepared: dict[str, object] = {}
    exp = None

    def ready(path: Path):
        """The notebook executed and made ready for nbconvert (once)."""
        if path.stem not in prepared:
            t0 = time.perf_counter()
            nb, origin = executed(path)
            prepared[path.stem] = for_slides(nb, path.stem, decks)
            prepared[f"{path.stem}:why"] = f"{origin}, {time.perf_counter() - t0:.1f} s"
        return prepared[path.stem]

    def build(name: str, nb, title: str, stamp: dict | None) -> None:
        nonlocal exp
        exp = exp or exporter()
        (OUT / f"{name}.html").write_text(export(exp, nb, title))
        if stamp is None:
            stamps.pop(name, None)
        else:
            stamps[name] = stamp
        write_stamps(OUT, stamps)

    fingerprint = cache_fingerprint()
    digests, rebuilt = {}, []
    for path in todo:
        old, exists = stamps.get(path.stem), (OUT / f"{path.stem}.html").exists()
        old = old if isinstance(old, dict) else {}
        quick = quick_digest(path, tooling, decks, fingerprint)
        if not args.force and exists and old.get("quick") == quick:
            digests[path.stem] = old["inputs"]  # same file, same cache: same execution
            continue
        digests[path.stem] = digest = deck_digest(path, tooling, decks)
        stamp = None if digest is None else {"inputs": digest, "quick": quick}
        if not args.force and exists and digest is not None and old.get("inputs") == digest:
            stamps[path.stem] = stamp  # the cache changed, not this notebook's execution
            write_stamps(OUT, stamps)
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
        if (args.force or digest is None or old.get("inputs") != digest
                or not all((OUT / f"{name}.html").exists() for name in (COURSE, COURSE_TITLE))):  # fmt: skip
            course = course_notebook([(p.stem, ready(p)) for p in paths])
            title_only = copy.deepcopy(course)  # the course handout's first page, before the chapters' handouts
            title_only.cells = title_only.cells[:2]  # the title slide and its notes
            title_only.metadata.pop("widgets", None)
            content = [(c.cell_type, c.source, c.metadata) for c in title_only.cells]  # not the cells' random ids
            title_digest = hashlib.sha256(f"{tooling}\0{json.dumps(content, sort_keys=True)}".encode()).hexdigest()
            old = stamps.get(COURSE_TITLE) if isinstance(stamps.get(COURSE_TITLE), dict) else {}
            if args.force or old.get("inputs") != title_digest or not (OUT / f"{COURSE_TITLE}.html").exists():
                build(COURSE_TITLE, title_only, course.metadata["title"], {"inputs": title_digest})
            build(COURSE, course, course.metadata["title"], None if digest is None else {"inputs": digest})
            rebuilt.append(COURSE)
            print(f"build_slides: {COURSE}.html ({len(paths)} chapters)")
    listed = [(p.stem, title_of(json.loads(p.read_text()))) for p in paths + extra if (OUT / f"{p.stem}.html").exists()]
    if (OUT / f"{COURSE}.html").exists():
        listed.append((COURSE, f"The whole course ({len(listed)} chapters in one deck)"))
    write_if_changed(OUT / "decks.json", json.dumps(listed, indent=1))
    write_index(OUT, listed, book_prefix="../html/")
    publish()
    kept = len(todo) + (0 if args.only else 1) - len(rebuilt)
    print(f"build_slides: {len(rebuilt)} decks rebuilt, {kept} unchanged, in {OUT}/ in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
