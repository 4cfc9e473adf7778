"""The page listing the decks (index.html, from the template beside this file) and the decks' copy in the built book.

A deck links to other pages of the book only where the book is beside it: in the
copy published inside the book (`_build/html/slides/`). The standalone folder
(`_build/slides/`, what a teacher copies to a laptop) shows those links' text alone,
so nothing in it points at a page that is not there.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from string import Template

from . import COURSE_TITLE, HERE, TITLE
from .assets import sync
from .notebook import BOOK_LINK
from .stamps import STAMPS

# A link to a book page as the exporter wrote it, and as each folder shows it.
_TO_BOOK = re.compile(r'<a href="' + re.escape(BOOK_LINK) + r'([^"]*)"')
_MARKED = re.compile(r'<a data-book="([^"]*)"')


def write_if_changed(path: Path, text: str) -> None:
    """Write only a new content: an unchanged file keeps its time, so copies of it are skipped."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def standalone(deck_html: str) -> str:
    """A deck for the standalone folder: its links to book pages become text (`<a data-book="page.html">`)."""
    return _TO_BOOK.sub(r'<a data-book="\1"', deck_html)


def published(deck_html: str) -> str:
    """A standalone deck as published inside the book: the book's pages are linked again."""
    return _MARKED.sub(lambda m: f'<a href="{BOOK_LINK}{m.group(1)}" data-book="{m.group(1)}"', deck_html)


def write_index(folder: Path, decks: list[tuple[str, str]], book_prefix: str | None) -> None:
    """folder/index.html listing the decks (and their PDF handouts, once printed).

    It links back to the book at `book_prefix` (relative to folder) only if the book is there."""
    rows = []
    for stem, title in decks:
        pdf = folder / "pdf" / f"{stem}.pdf"
        handout = f' · <a href="pdf/{stem}.pdf">PDF handout</a>' if pdf.exists() else ""
        rows.append(f'<li><a href="{stem}.html">{html.escape(title)}</a>{handout}</li>')
    book_there = book_prefix is not None and (folder / book_prefix / "index.html").exists()
    back = f'<p><a href="{book_prefix}index.html">← Back to the book</a></p>' if book_there else ""
    page = Template((HERE / "index.html").read_text()).substitute(title=TITLE, rows="\n".join(rows), back=back)
    write_if_changed(folder / "index.html", page)


def publish(out: Path, site: Path) -> None:
    """Copy the decks in `out` into the built book at `site` (if built), whose chapter pages link to them."""
    if not (site / "index.html").exists():
        return
    dest = site / "slides"
    decks = [stem for stem, _ in json.loads((out / "decks.json").read_text())]

    # Not published: the stamps, the index (the book's own is written below), and what only the
    # course handout is made from (its title page deck, pdf/parts/).
    def private(rel: Path) -> bool:
        return (
            rel.name == STAMPS
            or rel in (Path("index.html"), Path(f"{COURSE_TITLE}.html"))
            or rel.parts[:2] == ("pdf", "parts")
        )

    deck_files = {Path(f"{stem}.html") for stem in decks}
    files = [
        f
        for f in out.rglob("*")
        if f.is_file() and not private(f.relative_to(out)) and f.relative_to(out) not in deck_files
    ]
    keep = (dest / "index.html", *(dest / rel for rel in deck_files))
    copied = sync([(f, dest / f.relative_to(out)) for f in files], dest, keep=keep)
    dest.mkdir(parents=True, exist_ok=True)
    for rel in deck_files:
        if (out / rel).exists():
            write_if_changed(dest / rel, published((out / rel).read_text()))
    write_index(dest, json.loads((out / "decks.json").read_text()), book_prefix="../")
    print(f"build_slides: {copied} files and {len(deck_files)} decks copied into {dest}/")
