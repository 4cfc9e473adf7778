"""A "Slides" link under the title of every chapter page, to the chapter's reveal.js deck.

The decks and their PDF handouts are built from the same notebooks by
scripts/build_slides.py and scripts/build_handouts.py into `slides/` beside the
book's pages (`_build/html/slides/NN_name.html`, `.../pdf/NN_name.pdf`);
scripts/build.sh runs them right after the book. The root page links to the
list of every deck.
"""

from __future__ import annotations

import html
import re
from pathlib import PurePosixPath

_H1_END = re.compile(r"</h1>")


def _link(app, pagename: str) -> str | None:
    """The HTML to put under the page's title, or None for pages without a deck."""
    up = "../" * pagename.count("/")
    if pagename == app.config.root_doc:
        return (
            '<p class="slides-link"><i class="fa-solid fa-person-chalkboard" aria-hidden="true"></i> '
            f'Teaching from this book? <a href="{up}slides/index.html">Every chapter as slides</a>, '
            "with speaker notes and PDF handouts.</p>"
        )
    if pagename not in app.env.all_docs or not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return None
    deck = html.escape(PurePosixPath(pagename).name)
    return (
        '<p class="slides-link"><i class="fa-solid fa-person-chalkboard" aria-hidden="true"></i> '
        f'Teach this chapter: <a href="{up}slides/{deck}.html">slides</a> · '
        f'<a href="{up}slides/pdf/{deck}.pdf">PDF handout</a></p>'
    )


def _add_slides_link(app, pagename, templatename, context, doctree):
    body = context.get("body")
    link = _link(app, pagename) if body else None
    if link and _H1_END.search(body):
        context["body"] = _H1_END.sub("</h1>\n" + link, body, count=1)


def setup(app):
    app.connect("html-page-context", _add_slides_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
