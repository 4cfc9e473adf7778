"""An executed notebook made ready for nbconvert's slides, and the course notebook of every chapter.

The cells' `metadata.slideshow.slide_type` cut a notebook into slides; `notes`
cells are the speaker notes (the chapters tag them `remove-cell` to keep them
out of the book, which the slides ignore for notes); cells tagged
`hide-input`/`remove-input` show their output only; other `remove-cell` cells
are dropped. The MyST nbconvert does not understand is resolved by
scripts/myst_convert.py: links to another chapter go to its deck, links to any
other page of the book to that page (see `BOOK_LINK`).
"""

from __future__ import annotations

import copy

from build_paths import ROOT
from myst_convert import (
    MystConverter,
    admonition_div,
    details,
    embed_image,
    glue_outputs,
    is_glue_record,
)

from . import TITLE
from .chapters import title_of

REMOVE_CELL = {"remove-cell"}
REMOVE_INPUT = {"hide-input", "remove-input", "hide-cell"}
REMOVE_OUTPUT = {"remove-output"}
BOOK_LINK = "../book/"  # a page of the book, seen from the decks' folder when it is published inside the book


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def for_slides(nb, name: str, decks: set[str]):
    """A copy of an executed notebook ready for nbconvert: MyST resolved, stderr and glue records gone."""
    nb = copy.deepcopy(nb)

    def link(stem: str, anchor: str) -> str:  # another chapter: its deck; any other page: the book's
        return f"{stem}.html" if stem in decks else f"{BOOK_LINK}{stem}.html" + (f"#{anchor}" if anchor else "")

    myst = MystConverter(glue_outputs(nb), name=name, link=link, dropdown=details, admonition=admonition_div,
                         image=embed_image(ROOT / "book"))  # fmt: skip
    for cell in nb.cells:
        if slide_type(cell) == "notes":
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
    shown = [c for c in nb.cells if slide_type(c) != "skip" and not (REMOVE_CELL & set(c.metadata.get("tags", [])))]
    slides, parts = [], None  # slides -> parts -> [cells]
    for cell in shown:
        if parts is None or (slide_type(cell) == "slide" and any(slide_type(c) != "notes" for p in parts for c in p)):
            parts = [[]]
            slides.append(parts)
        elif slide_type(cell) == "subslide":
            parts.append([])
        parts[-1].append(cell)
    for parts in slides:
        notes = [[c for c in part if slide_type(c) == "notes"] for part in parts]
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
        first = next((c for c in cells if slide_type(c) not in ("skip", "notes")
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
