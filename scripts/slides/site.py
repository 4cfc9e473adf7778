"""The page listing the decks (index.html, from the template beside this file) and the decks' copy in the built book.

A deck links to other pages of the book only where the book is beside it: in the
copy published inside the book (`_build/html/slides/`). The standalone folder
(`_build/slides/`, what a teacher copies to a laptop) shows those links' text alone,
so nothing in it points at a page that is not there.

Each language's decks have their index, in that language, linking to the other languages'.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from string import Template

from scripts.build_paths import ROOT

from . import COURSE_TITLE, HERE, LANGUAGES, TITLE, _, book_index, book_link, folder, language, up
from .assets import palette_css, sync
from .paper import SUFFIX as PAPER_SUFFIX
from .sheets import SUFFIX as SHEET_SUFFIX
from .stamps import STAMPS

CONFIG = ROOT / "_config.yml"  # Jupyter Book's: where the published book is (html.baseurl)

_MARKED = re.compile(r'<a data-book="([^"]*)"')  # a link to a book page in the standalone folder
# The language's own name, as the book's language switch shows it (book/_ext/i18n_edition.py)
NAMES = {"en": "English", "zh_CN": "中文"}


def write_if_changed(path: Path, text: str) -> None:
    """Write only a new content: an unchanged file keeps its time, so copies of it are skipped."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def standalone(deck_html: str, lang: str = "en") -> str:
    """A deck for the standalone folder: its links to book pages become text (`<a data-book="page.html">`)."""
    return re.sub(r'<a href="' + re.escape(book_link(lang)) + r'([^"]*)"', r'<a data-book="\1"', deck_html)


def published(deck_html: str, lang: str = "en") -> str:
    """A standalone deck as published inside the book: the book's pages are linked again."""
    book = book_link(lang)
    return _MARKED.sub(lambda m: f'<a href="{book}{m.group(1)}" data-book="{m.group(1)}"', deck_html)


def write_index(folder_: Path, decks: list[tuple[str, str]], book_prefix: str | None, lang: str = "en") -> None:
    """folder_/index.html listing the decks of `lang` (and their PDF handouts, once printed), in `lang`.

    It links back to the book at `book_prefix` (an address, or a path relative to folder_ followed only
    if the book is there: see `standalone_book`),
    and to the other languages' indexes that exist."""
    with language(lang):
        rows = []
        for stem, title in decks:
            pdf = folder_ / "pdf" / f"{stem}.pdf"
            handout = f' · <a class="handout" href="pdf/{stem}.pdf">{_("PDF handout")}</a>' if pdf.exists() else ""
            papers = [
                f'<a class="paper" href="pdf/{stem}{suffix}.pdf" '
                f'aria-label="{html.escape(_("{paper} paper, three slides a page").format(paper=paper))}">{paper}</a>'
                for paper, suffix in PAPER_SUFFIX.items()
                if (folder_ / "pdf" / f"{stem}{suffix}.pdf").exists()
            ]
            if papers:
                handout += " · " + " · ".join(papers)
            rows.append(f'<li><a href="{stem}.html">{html.escape(title)}</a>{handout}</li>')
        sheets = []
        for kind, name in (("exercises", _("Exercise sheet")), ("answers", _("Answer key"))):
            papers = [
                f'<a href="pdf/{kind}{suffix}.pdf">{paper}</a>'
                for paper, suffix in SHEET_SUFFIX.items()
                if (folder_ / "pdf" / f"{kind}{suffix}.pdf").exists()
            ]
            if (folder_ / f"{kind}.html").exists():
                sheets.append(
                    f'<a href="{kind}.html">{html.escape(name)}</a>'
                    + (f" (PDF: {' · '.join(papers)})" if papers else "")
                )
        if sheets:
            rows.insert(0, f'<li class="sheets">{_("For the class:")} {" · ".join(sheets)}</li>')
        online = book_prefix is not None and book_prefix.startswith(("https://", "http://"))
        book_there = online or (book_prefix is not None and (folder_ / book_prefix / "index.html").exists())
        back = f'<p><a href="{book_prefix}index.html">{_("← Back to the book")}</a></p>' if book_there else ""
        root = folder_.parent if folder(lang) else folder_  # the English decks' folder
        others = [
            f'<a href="{up(lang)}{folder(other) + "/" if folder(other) else ""}index.html" '
            f'hreflang="{other.replace("_", "-")}" lang="{other.replace("_", "-")}">{NAMES[other]}</a>'
            for other in LANGUAGES
            if other != lang and (root / folder(other) / "index.html").exists()
        ]
        switch = f'<p class="languages">{" · ".join(others)}</p>' if others else ""
        page = Template((HERE / "index.html").read_text()).substitute(
            lang=lang.replace("_", "-"),
            title=html.escape(_("{title}: slides").format(title=_(TITLE))),
            intro=_(
                "One deck per chapter, made from the same notebooks as the book. They work with no network. "
                "Press <kbd>s</kbd> for the speaker view with the notes, <kbd>f</kbd> for full screen, "
                "<kbd>Esc</kbd> for the overview, <kbd>d</kbd> for a dark theme."
            )
            + ("" if lang.startswith("zh") else " ")  # Chinese sentences follow each other with no space
            + _(
                "Each deck's PDF handout has a slide a page; A4 and Letter have three slides a page, "
                "with lines beside each for notes."
            ),
            colours=palette_css(),
            rows="\n".join(rows),
            back=back,
            switch=switch,
        )
    write_if_changed(folder_ / "index.html", page)


def publish(out: Path, site: Path, lang: str = "en") -> None:
    """Copy the decks of `lang` in `out` into the built book at `site` (if built), whose chapter pages
    link to them: the English decks into site/slides/, another language's into site/slides/<lang>/."""
    if not (site / "index.html").exists():
        return
    dest = site / "slides" / folder(lang)
    decks = [stem for stem, _title in json.loads((out / "decks.json").read_text())]
    others = {folder(o) for o in LANGUAGES if folder(o) and o != lang}  # other languages' folders: theirs

    # Not published: the stamps, the index (the book's own is written below), and what only the
    # course handout is made from (its title page deck, pdf/parts/).
    def private(rel: Path) -> bool:
        return (
            rel.name == STAMPS
            or rel in (Path("index.html"), Path(f"{COURSE_TITLE}.html"))
            or rel.parts[:2] == ("pdf", "parts")
            or rel.parts[0] in others
        )

    deck_files = {Path(f"{stem}.html") for stem in decks}
    files = [
        f
        for f in out.rglob("*")
        if f.is_file() and not private(f.relative_to(out)) and f.relative_to(out) not in deck_files
    ]
    keep = (dest / "index.html", *(dest / rel for rel in deck_files))
    keep += tuple(f for name in others for f in (dest / name).rglob("*"))
    copied = sync([(f, dest / f.relative_to(out)) for f in files], dest, keep=keep)
    dest.mkdir(parents=True, exist_ok=True)
    for rel in deck_files:
        if (out / rel).exists():
            write_if_changed(dest / rel, published((out / rel).read_text(), lang))
    listed = json.loads((out / "decks.json").read_text())
    write_index(dest, listed, book_prefix=book_index(lang), lang=lang)
    print(f"build_slides: {copied} files and {len(deck_files)} decks copied into {dest}/")


def published_site(config: Path = CONFIG) -> str | None:
    """The published book's address (`html.baseurl` in Jupyter Book's _config.yml, ending in "/"), or None
    when none is configured: where a handout's links to the book go."""
    import yaml

    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    base = ((data.get("html") or {}).get("baseurl") or "").strip()
    if not base:
        return None
    if not base.startswith(("https://", "http://")):
        raise ValueError(f"{config.name}: html.baseurl must be an http(s) address, got {base!r}")
    return base.rstrip("/") + "/"


def standalone_book(lang: str) -> str | None:
    """Where the standalone slides folder's index links back to the book: the published book (its
    address in _config.yml), else nowhere. A path to the build's own _build/html/ was a 404 once the
    folder was copied to a USB stick, as the README suggests doing."""
    site = published_site()
    return f"{site}{folder(lang) + '/' if folder(lang) else ''}" if site else None
