"""The one way the page tests read the book: a built page (or one of its sections) as
its text, its glued values and its glued maths, and a chapter notebook's speaker notes
and prose. Every test under tests/pages/ reads through here, so a change in how
Sphinx or myst-nb writes a page is fixed in one place.

- `page(name)` / `.section(id)`: a built page `_build/html/book/<name>.html` (skipped when
  it is not built) and its `<section id=...>` (nested sections included).
- `.text`: the visible text (scripts and styles dropped, entities decoded, tags removed
  without a space so a glued value reads as part of its sentence, whitespace runs, the
  no-break space included, collapsed to one space).
- `.glued`: the `{glue:text}` values, in reading order; `.maths`: the `{glue:math}` blocks'
  TeX; `.math`: all of them joined with every space removed (to find a matrix in them).
- `.html`: the HTML with entities decoded; `.table_rows()`: every row's cells as text.
- `notes(name)`, `note_lines(name)`, `prose(name)`, `code(name)`: the notebook's speaker-notes
  cells (they cannot glue, so the tests check their numbers), its other markdown cells and its
  code, read from `book/<name>.ipynb`.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache

import pytest
from bs4 import BeautifulSoup

from conftest import BOOK, HTML
from scripts.translate_notebook import is_deck_words, is_notes  # the deck's own words are not on the page


def squeeze(text: str) -> str:
    """`text` with every whitespace character removed."""
    return re.sub(r"\s+", "", text)


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class Part:
    """A built page or one of its sections."""

    def __init__(self, tag):
        self.tag = tag

    @property
    def html(self) -> str:
        return html.unescape(str(self.tag))

    @property
    def text(self) -> str:
        return _collapse(self.tag.get_text())  # BeautifulSoup leaves out scripts, styles and comments

    @property
    def glued(self) -> list[str]:
        return [span.get_text() for span in self.tag.select("span.pasted-text")]

    @property
    def maths(self) -> list[str]:
        return [block.get_text() for block in self.tag.select(".pasted-math")]

    @property
    def math(self) -> str:
        return squeeze("".join(self.maths))

    def section(self, section_id: str) -> Part:
        found = self.tag.find("section", id=section_id)
        assert found is not None, f"no section #{section_id}"
        return Part(found)

    def table_rows(self) -> list[list[str]]:
        """Every <tr> as its cells' text."""
        return [[cell.get_text().strip() for cell in tr.find_all(["td", "th"])] for tr in self.tag.find_all("tr")]


@cache
def _source(name: str) -> str:
    path = HTML / "book" / f"{name}.html"
    if not path.exists():
        pytest.skip(f"{path} is not built")
    return path.read_text(encoding="utf-8")


@cache
def _soup(name: str) -> BeautifulSoup:
    return BeautifulSoup(_source(name), "html.parser")


def page(name: str) -> Part:
    """The built chapter page book/<name>.html; skips the test if it is not built."""
    return Part(_soup(name))


def source(name: str) -> str:
    """The built page's HTML as written, entities decoded (for what no element holds, e.g. a raw glue role)."""
    return html.unescape(_source(name))


@cache
def notebook(name: str) -> dict:
    return json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))


def _cells(name: str, kind: str) -> list[str]:
    out = []
    for cell in notebook(name)["cells"]:
        if (
            kind == "notes"
            and is_notes(cell)
            or kind == "prose"
            and cell["cell_type"] == "markdown"
            and not is_deck_words(cell)
        ):
            out.append("".join(cell["source"]))
        elif kind == "code" and cell["cell_type"] == "code":
            out.append("".join(cell["source"]))
    return out


def notes(name: str) -> str:
    """The speaker-notes cells of book/<name>.ipynb, joined by newlines."""
    return "\n".join(_cells(name, "notes"))


def note_cells(name: str) -> list[str]:
    return _cells(name, "notes")


def note_lines(name: str) -> list[str]:
    return notes(name).splitlines()


def prose(name: str) -> list[str]:
    """The markdown cells of book/<name>.ipynb on its page: not speaker notes, not a deck's slide-only text."""
    return _cells(name, "prose")


def code(name: str) -> str:
    """The code cells of book/<name>.ipynb, joined."""
    return "\n".join(_cells(name, "code"))


def tex(M) -> str:
    """A matrix as the pages write it (integers without decimals), every space removed: find it in `.math`.
    Written here, not with the core's bmatrix, so the test does not trust what it checks."""
    import numpy as np

    rows = [" & ".join(f"{v:g}" for v in row) for row in np.atleast_2d(M)]
    return squeeze(r"\begin{bmatrix}" + r"\\".join(rows) + r"\end{bmatrix}")


# Digits that are names, not amounts: chapter and exercise numbers, FP16, formulas' indices.
_NOT_AMOUNTS = re.compile(r"[Cc]hapters? \d+( to \d+)?|\b1[01]\.\d\b|FP16|_\{[^}]*\}|\^\{[^}]*\}")


def unchecked_note_lines(name: str, checked: set[str]) -> list[str]:
    """The speaker-note lines of book/<name>.ipynb that state a number and are not in `checked`
    (the lines a test has checked against the core): notes cannot glue, so each must be checked."""
    return [line for line in note_lines(name) if line not in checked and re.search(r"\d", _NOT_AMOUNTS.sub("", line))]
