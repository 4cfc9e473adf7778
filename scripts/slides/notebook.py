"""An executed notebook made ready for nbconvert's slides, and the course notebook of every chapter.

The cells' `metadata.slideshow.slide_type` cut a notebook into slides; `notes`
cells are the speaker notes and `slide-only` cells the slide text written for the
deck (the chapters tag both `remove-cell` to keep them out of the book, which the
slides ignore for them; the page's own prose that such a slide replaces is `skip`);
cells tagged `hide-input`/`remove-input` show their output only (`slide-output-only`: on the
deck only, the page and the learner's notebook keep the code); other `remove-cell` cells are dropped. The MyST nbconvert does not understand is resolved by
scripts/myst_convert.py: links to another chapter go to its deck, links to any
other page of the book to that page (see `slides.book_link`). The words this module adds
("(continued)", the course's title slide) are said in the current language (`slides._`).
"""

from __future__ import annotations

import copy
import re

from scripts.build_paths import ROOT
from scripts.myst_convert import (
    MystConverter,
    admonition_div,
    embed_image,
    glue_outputs,
    is_glue_record,
)
from scripts.translate_notebook import is_deck_words

from . import TITLE, _, book_link, language
from .chapters import title_of

REMOVE_CELL = {"remove-cell"}
REMOVE_INPUT = {"hide-input", "remove-input", "hide-cell", "slide-output-only"}  # the last: on the deck only
REMOVE_OUTPUT = {"remove-output"}


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def for_slides(
    nb,
    name: str,
    decks: set[str],
    titles: dict[str, str] | None = None,
    labels: dict[str, tuple[str, str]] | None = None,
    lang: str = "en",
):
    """A copy of an executed notebook ready for nbconvert: MyST resolved, stderr and glue records gone,
    every slide titled, no slide opening with the previous question's solution.

    decks: the notebooks that have a deck; titles: stem -> title (the text of a `{doc}` link);
    labels: where each `{ref}` label is (see myst_convert.labels_of); lang: the deck's language
    (the notebook is already in it: scripts/translate_notebook.py), for its links and added words."""
    nb = copy.deepcopy(nb)
    book = book_link(lang)

    def link(stem: str, anchor: str) -> str:  # another chapter: its deck; any other page: the book's
        return f"{stem}.html" if stem in decks else f"{book}{stem}.html" + (f"#{anchor}" if anchor else "")

    myst = MystConverter(
        glue_outputs(nb),
        name=name,
        link=link,
        titles=titles,
        labels=labels or {},
        dropdown=solution_marker,
        admonition=admonition_div,
        image=embed_image(ROOT / "book"),
    )
    for cell in nb.cells:
        if is_deck_words(cell):
            # Notes and slide-only text are tagged remove-cell to keep them out of the book; the slides need them.
            cell.metadata["tags"] = [t for t in cell.metadata.get("tags", []) if t not in REMOVE_CELL]
        if cell.cell_type == "markdown":
            cell.source = myst.convert(cell.source)
        elif cell.cell_type == "code":
            cell.outputs = [
                o
                for o in cell.outputs
                if not (o.output_type == "stream" and o.get("name") == "stderr") and not is_glue_record(o)
            ]
    with language(lang):
        drop_unanswered_checks(nb)
        solutions_on_their_own_slide(nb)
        title_every_slide(nb)
    figures_beside_text(nb)
    return nb


def shown(cell) -> bool:
    """On a slide (not skipped, not removed, not a note)."""
    return slide_type(cell) not in ("skip", "notes") and not (REMOVE_CELL & set(cell.metadata.get("tags", [])))


def opens_slide(nb, cell) -> bool:
    first = next((c for c in nb.cells if shown(c)), None)
    return cell is first or slide_type(cell) in ("slide", "subslide")


# A dropdown (in the chapters, always an exercise's solution) is a slide of its own in a deck, after its
# exercise: as a closed <details> it was a click that pushed the slide's content below the frame (03's
# "Solution 3.1" to 990 px in a 720 px slide), and a handout printed it closed. The converter marks it;
# solutions_on_their_own_slide cuts the cells there.
SOLUTION = re.compile(r"<!-- solution-slide: (.*?) -->\n(.*?)\n<!-- /solution-slide -->", re.S)


def solution_marker(title: str, body: str) -> str:
    """A dropdown for the slides: marked, to become a slide of its own (solutions_on_their_own_slide)."""
    import html

    return f"\n<!-- solution-slide: {html.escape(title)} -->\n{body}\n<!-- /solution-slide -->\n"


SOLUTION_LINES = 14  # lines of 24 px text a solution's slide holds under its title (1280 × 720)
LINE_CHARS = 80  # characters of a line of text (a CJK character takes two)
_BLOCK = re.compile(r"\$\$.*?\$\$|```.*?```|(?:[^\n]|\n(?!\s*\n))+", re.S)


def _lines(block: str) -> float:
    """About how many lines of the slide a block of a solution takes: a formula a line per row of its
    matrices and alignments (`\\\\`), code a line per line, text its length over LINE_CHARS."""
    if block.startswith("$$"):
        return 1 + 0.8 * block.count("\\\\")
    if block.startswith("```"):
        return block.count("\n")
    text = re.sub(r"\$[^$]*\$", "xxxx", block)
    return 1 + len(text + re.sub(r"[^\u3400-\u9fff]", "", text)) // LINE_CHARS


def solution_parts(body: str) -> list[str]:
    """A solution's body as the slides it takes: one, or two when it is longer than a slide holds
    (SOLUTION_LINES), cut between two blocks where the two halves come out most even, never after a
    block that ends with a colon (it introduces the next)."""
    blocks = [m.group(0).strip() for m in _BLOCK.finditer(body) if m.group(0).strip()]
    cost = [_lines(b) for b in blocks]
    if sum(cost) <= SOLUTION_LINES or len(blocks) < 2:
        return [body.strip()]
    cuts = [k for k in range(1, len(blocks)) if not blocks[k - 1].rstrip().endswith((":", "："))]
    if not cuts:
        return [body.strip()]
    k = min(cuts, key=lambda k: max(sum(cost[:k]), sum(cost[k:])))
    return ["\n\n".join(blocks[:k]), "\n\n".join(blocks[k:])]


def solutions_on_their_own_slide(nb) -> None:
    """Each marked solution becomes a slide (a `subslide`, tagged `solution`) titled with its dropdown's
    title, right after its exercise; what followed it on the same slide (the rest of its cell, the cells
    up to the next slide) goes on a new slide after it, which continues the section's title.

    The notes that follow a solution in the notebook are the solution slide's; the exercise's own notes
    come before the solution cell (tests/test_slides.py checks that every part has its notes)."""
    import nbformat

    i = 0
    while i < len(nb.cells):
        cell = nb.cells[i]
        found = SOLUTION.search(cell.source) if cell.cell_type == "markdown" and shown(cell) else None
        if not found:
            i += 1
            continue
        before, after = cell.source[: found.start()].strip(), cell.source[found.end() :].strip()
        import html

        title = html.unescape(found.group(1))
        cells = []
        for n, part in enumerate(solution_parts(found.group(2))):
            heading = title if not n else _("{section} (continued)").format(section=title)
            solution = nbformat.v4.new_markdown_cell(f"## {heading}\n\n{part}")
            solution.id = f"{cell.get('id', 'cell')}"[:50] + f"-sol{i}-{n}"
            solution.metadata["slideshow"] = {"slide_type": "subslide"}
            solution.metadata["tags"] = ["solution"] + (["continued"] if n else [])
            cells.append(solution)
        solution = cells[0]
        if before:
            cell.source = before
            cells.insert(0, cell)
        else:  # the cell was the solution: the solution slide opens where the cell did, or after its slide
            solution.metadata["slideshow"]["slide_type"] = "subslide" if slide_type(cell) != "slide" else "slide"
        if after:
            rest = copy.deepcopy(cell)
            rest.source = after
            rest.id = f"{cell.get('id', 'cell')}"[:52] + f"-aft{i}"
            rest.metadata["slideshow"] = {"slide_type": "subslide"}
            cells.append(rest)
        else:  # the cells after it, up to the next slide, on a slide of their own after the solution
            j = i + 1
            while j < len(nb.cells) and not (shown(nb.cells[j]) or slide_type(nb.cells[j]) == "notes"):
                j += 1
            notes = []
            while j < len(nb.cells) and slide_type(nb.cells[j]) == "notes":
                notes.append(nb.cells[j])  # written for the exercise's slide, which showed the solution
                j += 1
            for note in notes:
                nb.cells.remove(note)
            cells[:0] = notes
            j -= len(notes)
            k = j
            while k < len(nb.cells) and not shown(nb.cells[k]):
                k += 1
            if k < len(nb.cells) and slide_type(nb.cells[k]) not in ("slide", "subslide"):
                nb.cells[k].metadata.setdefault("slideshow", {})["slide_type"] = "subslide"
        nb.cells[i : i + 1] = cells
        i += len(cells) if not after else len(cells) - 1  # the rest may hold another solution


def drop_unanswered_checks(nb) -> None:
    """An exercise's check cell, unanswered as the book runs it, prints "Not answered yet: replace the …"
    (the checker's words, in the deck's language): on a slide, and printed on a handout, that is noise.
    The output goes; the cell's code (the exercise's blank) stays."""
    from attention_steps.i18n import _ as core

    said = re.escape(core("Not answered yet: replace the ... with {name}.")).replace(re.escape("{name}"), ".+")
    unanswered = re.compile(rf"\A\s*{said}\s*\Z", re.S)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [
                o
                for o in cell.outputs
                if not (
                    "exercise-feedback" in str(o.get("data", {}).get("text/html", ""))
                    and unanswered.match(str(o.get("data", {}).get("text/plain", "")))
                )
            ]


HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$", re.M)


def title_every_slide(nb) -> None:
    """Every slide opens with a title cell (tagged `slide-title`, styled one way by slides.css).

    A slide that opens with a heading has it cut into a cell of its own; a slide that does not
    gets the title of the section it continues, "(continued)" (the book's headings: one source; the
    words in the current language)."""
    import nbformat

    section, i = None, 0
    while i < len(nb.cells):
        cell = nb.cells[i]
        if shown(cell) and opens_slide(nb, cell):
            source = cell.source.lstrip() if cell.cell_type == "markdown" else ""
            first, _newline, rest = source.partition("\n")
            heading = HEADING.match(first)
            if heading or section is not None:
                title = nbformat.v4.new_markdown_cell(
                    first if heading else "## " + _("{section} (continued)").format(section=section)
                )
                title.id = f"{cell.get('id', 'cell')}"[:56] + "-title"
                title.metadata["slideshow"] = {"slide_type": slide_type(cell)}
                title.metadata["tags"] = ["slide-title"]
                cell.metadata.setdefault("slideshow", {})["slide_type"] = "-"
                nb.cells.insert(i, title)
                i += 1  # back at `cell`
                if heading:
                    if "solution" not in cell.metadata.get("tags", []):  # a solution's title is not a section
                        section = heading.group(2)
                    if not rest.strip():
                        del nb.cells[i]  # the heading was all the cell held
                        continue
                    cell.source = rest.lstrip("\n")
        if shown(cell) and cell.cell_type == "markdown" and "solution" not in cell.metadata.get("tags", []):
            for _level, text in HEADING.findall(cell.source):
                section = text
        i += 1


def png_size(data: str) -> tuple[int, int] | None:
    """(width, height) of a base64 PNG, from its header."""
    import base64
    import struct

    head = base64.b64decode(data[:44])
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


TALL = 0.7  # height / width from which a figure goes beside its text on a 16:9 slide


def figures_beside_text(nb) -> None:
    """Tag `tall-figure` the cell of a tall figure (its code hidden) that shares its slide with text (slides.css
    then puts it in a column beside the text instead of shrinking the slide to fit both)."""
    slides, current = [], None
    for cell in nb.cells:
        if not shown(cell):
            continue
        if current is None or opens_slide(nb, cell):
            current = []
            slides.append(current)
        current.append(cell)
    for cells in slides:
        figures = [
            c
            for c in cells
            if c.cell_type == "code"
            and REMOVE_INPUT & set(c.metadata.get("tags", []))
            and any(
                (size := png_size(o.get("data", {}).get("image/png", ""))) and size[1] >= TALL * size[0]
                for o in c.get("outputs", [])
                if "image/png" in o.get("data", {})
            )
        ]
        text = [c for c in cells if c.cell_type == "markdown" and "slide-title" not in c.metadata.get("tags", [])]
        if len(figures) == 1 and text:
            figures[0].metadata["tags"] = [*figures[0].metadata.get("tags", []), "tall-figure"]


def course_notebook(books: list[tuple[str, object]], lang: str = "en"):
    """Every chapter in one notebook, with a title slide (in `lang`); widget states merged."""
    import nbformat

    titles = [title_of(nb) for _stem, nb in books]
    items = "\n".join(f"- [{t}]({stem}.html)" for (stem, _nb), t in zip(books, titles))
    with language(lang):
        title = nbformat.v4.new_markdown_cell(
            f"# {_(TITLE)}\n\n{_('The whole course, one chapter after another.')}\n\n{items}"
        )
        notes = nbformat.v4.new_markdown_cell(
            _(
                "The whole course in one deck. Each chapter starts a new slide; "
                "press `Esc` for the overview, `s` for this speaker view."
            )
        )
        course_title = _("{title}: the whole course").format(title=_(TITLE))
    title.metadata["slideshow"] = {"slide_type": "slide"}
    notes.metadata["slideshow"] = {"slide_type": "notes"}
    course = nbformat.v4.new_notebook(cells=[title, notes])
    course.metadata["kernelspec"] = books[0][1].metadata.get("kernelspec", {})
    course.metadata["title"] = course_title
    states = {}
    for _stem, nb in books:
        cells = copy.deepcopy(nb.cells)
        first = next(
            (
                c
                for c in cells
                if slide_type(c) not in ("skip", "notes") and not REMOVE_CELL & set(c.metadata.get("tags", []))
            ),
            None,
        )
        if first is not None:
            first.metadata.setdefault("slideshow", {})["slide_type"] = "slide"
        course.cells.extend(cells)
        states.update(
            nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        )
    if states:
        course.metadata["widgets"] = {
            "application/vnd.jupyter.widget-state+json": {"version_major": 2, "version_minor": 0, "state": states}
        }
    return course
