"""A "Slides" link under the title of every chapter page, to the chapter's reveal.js deck.

The decks and their PDF handouts are built from the same notebooks by
scripts/build_slides.py and scripts/build_handouts.py into `slides/` beside the
book's pages (`_build/html/slides/NN_name.html`, `.../pdf/NN_name.pdf`);
scripts/build.sh runs them right after the book. The root page links to the
list of every deck. A translated edition (the Chinese one, in `_build/html/zh_CN/`)
links to its own language's decks (`_build/html/slides/zh_CN/`).
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: scripts.chrome
from scripts.chrome import _, language  # noqa: E402  (the words, in the page's language)

_H1_END = re.compile(r"</h1>")


def _link(app, pagename: str) -> str | None:
    """The HTML to put under the page's title, or None for pages without a deck."""
    with language(app.config.language or "en"):
        return _link_here(app, pagename)


def _link_here(app, pagename: str) -> str | None:
    lang = app.config.language or "en"
    # the slides are beside the English pages; another edition's pages are one folder further down
    up = "../" * pagename.count("/") + ("" if lang == "en" else "../")
    slides = "slides/" if lang == "en" else f"slides/{lang}/"
    icon = '<p class="slides-link"><i class="fa-solid fa-person-chalkboard" aria-hidden="true"></i> '
    if pagename == app.config.root_doc:
        return (
            icon
            + _(
                'Teaching from this book? <a href="{index}">Every chapter as slides</a>, '
                "with speaker notes and PDF handouts."
            ).format(index=f"{up}{slides}index.html")
            + "</p>"
        )
    if pagename not in app.env.all_docs or not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return None
    deck = html.escape(PurePosixPath(pagename).name)
    return (
        icon
        + _('Teach this chapter: <a href="{slides}">slides</a> · <a href="{handout}">PDF handout</a>').format(
            slides=f"{up}{slides}{deck}.html", handout=f"{up}{slides}pdf/{deck}.pdf"
        )
        + "</p>"
    )


def _add_slides_link(app, pagename, templatename, context, doctree):
    body = context.get("body")
    link = _link(app, pagename) if body else None
    if link and _H1_END.search(body):
        context["body"] = _H1_END.sub("</h1>\n" + link, body, count=1)


def setup(app):
    app.connect("html-page-context", _add_slides_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
