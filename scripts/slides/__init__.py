"""The teacher's slides, one job per module (scripts/build_slides.py runs them in order):

    chapters    which notebooks have a deck, and their titles
    execution   the executed notebooks, from the book's jupyter-cache
    notebook    an executed notebook made ready for nbconvert (MyST resolved by
                scripts/myst_convert.py), and the course notebook of every chapter
    export      nbconvert's reveal.js exporter with our template (template/, slides.css)
    assets      the vendored browser assets each deck folder carries
    site        the index page of the decks (index.html) and the copy inside the built book
    stamps      what each deck was built from, so an unchanged deck is not rebuilt

Where the build writes is read from the environment in scripts/build_paths.py.

Every edition of the book has its decks: the English ones in the slides folder
itself, another language's in a folder of its own named after it (`zh_CN/`), made from the
same executed notebooks translated by scripts/translate_notebook.py. They share one vendor/
folder. The words the scripts add (the course's title slide, "(continued)", the index page)
come from the production's catalogue (locale/<lang>/chrome.po, scripts/chrome.py) through `_`.
"""

from pathlib import Path

from scripts.chrome import LANGUAGES, N_, _, language  # noqa: F401

HERE = Path(__file__).resolve().parent  # the template, the CSS and the index page live beside the code

TITLE = N_("Attention, Step by Step")
COURSE = "course"
COURSE_TITLE = "course-title"  # the course deck's title slide alone: the first page of the course handout


def folder(lang: str) -> str:
    """Where a language's decks are, under the slides folder: "" for English, else the language."""
    if lang not in LANGUAGES:
        raise ValueError(f"slides: language must be one of {LANGUAGES}, got {lang!r}")
    return "" if lang == "en" else lang


def up(lang: str) -> str:
    """From a language's decks back to the slides folder ("" or "../"): where vendor/ is."""
    return "../" if folder(lang) else ""


def book_index(lang: str) -> str:
    """The book in `lang` seen from that language's decks published inside the book
    (_build/html/slides/[zh_CN/]). The standalone folder links the published book or nothing
    (slides.site.standalone_book)."""
    return f"../../{folder(lang)}/" if folder(lang) else "../"


def book_link(lang: str) -> str:
    """A page of the book in `lang`, seen from that language's decks when they are published inside
    the book (the standalone folder shows such links as text: slides.site.standalone)."""
    return book_index(lang) + "book/"
