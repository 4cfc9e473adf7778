"""The exercise sheet and the answer key: every chapter's "Check yourself" exercises, for a class on paper.

    exercises.html   each exercise with room to answer, no solutions
    answers.html     each exercise, its worked solution, and the answer the checker accepts

They are written beside the decks (`_build/slides/[lang/]`) from the same executed, translated notebooks,
and printed to `pdf/exercises.pdf` and `pdf/answers.pdf` (A4) and `pdf/exercises-letter.pdf` and
`pdf/answers-letter.pdf` (US Letter) by scripts/build_handouts.py.

An exercise is found by its checker: a code cell calling `check("N.M", ...)`. Its text is the page's last
markdown before that cell (not the deck's own slide text or notes; without the cell's headings and any
solution folded in it), its solution the next `{dropdown}` after it, and the accepted answer is the exercise's own expected value
and tolerance (`attention_steps.exercises`), computed on the book's example.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from scripts.myst_convert import MystConverter, admonition_div, embed_image, glue_outputs
from scripts.translate_notebook import is_deck_words

from . import HERE, TITLE, _, language, up
from .assets import palette_css

CHECK = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")
_DROPDOWN = re.compile(r"<!-- sheet-solution -->(.*?)<!-- /sheet-solution -->", re.S)
_BOOK_LINK = re.compile(r'<a href="ase-book:([^"#]*)(#[^"]*)?">(.*?)</a>', re.S)
SHEETS = ("exercises", "answers")
SUFFIX = {"A4": "", "Letter": "-letter"}  # paper -> the PDF's name: pdf/exercises.pdf, pdf/exercises-letter.pdf


@dataclass(frozen=True)
class SheetExercise:
    id: str
    text: str  # Markdown, MyST resolved
    solution: str  # Markdown, MyST resolved ("" when the chapter has none)
    data: str = ""  # what the exercise's shown cells print (its numbers, which paper has no cell to run for)


def _solution(title: str, body: str) -> str:
    return f"\n<!-- sheet-solution -->{body}<!-- /sheet-solution -->\n"


def exercises_of(nb, name: str, titles=None, labels=None) -> list[SheetExercise]:
    """The exercises of one executed notebook (already in the sheet's language), in order."""
    myst = MystConverter(
        glue_outputs(nb),
        name=name,
        link=lambda stem, anchor: f"ase-book:{stem}.html" + (f"#{anchor}" if anchor else ""),
        titles=titles,
        labels=labels or {},
        dropdown=_solution,
        admonition=admonition_div,
        image=embed_image(HERE.parents[1] / "book"),
    )
    cells = nb.cells
    found = []
    for i, cell in enumerate(cells):
        match = CHECK.search(cell.source) if cell.cell_type == "code" else None
        if not match:
            continue
        start = next(
            (j for j in range(i - 1, -1, -1) if cells[j].cell_type == "markdown" and not is_deck_words(cells[j])),
            None,
        )
        before = None if start is None else cells[start]
        after = next(
            (c for c in cells[i + 1 :] if c.cell_type == "markdown" and c.source.lstrip().startswith(":::{dropdown}")),
            None,
        )
        if before is None:
            raise ValueError(f"{name}: the checker of exercise {match.group(1)} has no exercise text before it")
        text = _DROPDOWN.sub("", myst.convert(before.source))
        text = "\n".join(line for line in text.split("\n") if not line.startswith("#")).strip()
        solution = ""
        if after is not None:
            solution = "\n\n".join(m.strip() for m in _DROPDOWN.findall(myst.convert(after.source)))
        found.append(SheetExercise(match.group(1), text, solution, _printed(cells[start + 1 : i])))
    return found


def _printed(cells) -> str:
    """The text the shown code cells among `cells` print: an exercise's data, on paper."""
    hidden = {"remove-cell", "remove-output"}
    return "".join(
        output.get("text", "")
        for cell in cells
        if cell.cell_type == "code" and not hidden & set(cell.metadata.get("tags", []))
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == "stdout"
    ).strip("\n")


def _shown(value, whole: bool) -> str:
    """A number, or nested lists of them, as a teacher writes them: whole numbers with thousands
    separators, others to 4 significant digits (a single number to 6)."""
    import numpy as np

    array = np.asarray(value, dtype=float)

    def one(v: float, digits: int) -> str:
        return f"{round(v):,}" if whole else f"{v:,.{digits}g}"

    def nested(a) -> str:
        return "[" + ", ".join(nested(r) if r.ndim else one(float(r), 4) for r in a) + "]"

    if isinstance(value, tuple):  # a shape
        return "(" + ", ".join(one(float(v), 6) for v in value) + ")"
    return one(float(array), 6) if array.ndim == 0 else nested(array)


def accepted(exercise_id: str) -> str:
    """What the checker accepts for an exercise, in words: the book's answer and its tolerance."""
    from attention_steps.exercises import registry, solution

    exercise = registry()[exercise_id]
    value = solution(exercise_id)
    shown = _shown(value, exercise.whole)
    if exercise.whole:
        return _("The checker accepts {answer}, in whole numbers.").format(answer=shown)
    if isinstance(value, tuple) or getattr(value, "ndim", 0) or isinstance(value, list):
        return _("The checker accepts {answer}, each entry to within {atol}.").format(
            answer=shown, atol=f"{exercise.atol:g}"
        )
    return _("The checker accepts {answer}, to within {atol}.").format(answer=shown, atol=f"{exercise.atol:g}")


def _html(markdown: str, book: str | None) -> str:
    """Markdown (maths left for MathJax) as HTML; a link to a page of the book goes to the published
    book (`book`, ending in "/") or, with none, is its text alone."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    out = markdown2html_mistune(markdown)

    def link(m: re.Match) -> str:
        if not book:
            return m.group(3)
        return f'<a href="{book}{m.group(1)}{m.group(2) or ""}">{m.group(3)}</a>'

    return _BOOK_LINK.sub(link, out)


def sheet(kind: str, chapters: list[tuple[str, list[SheetExercise]]], lang: str, book: str | None) -> str:
    """The HTML of the exercise sheet (`kind` "exercises") or the answer key ("answers") in `lang`."""
    if kind not in SHEETS:
        raise ValueError(f"sheets: kind must be one of {SHEETS}, got {kind!r}")
    with language(lang):
        title = _("Exercises") if kind == "exercises" else _("Answers")
        parts = []
        for chapter, items in chapters:
            if not items:
                continue
            blocks = []
            for ex in items:
                body = _html(ex.text, book)
                if ex.data:
                    body += f'<pre class="data">{html.escape(ex.data)}</pre>'
                if kind == "exercises":
                    body += f'<div class="answer" aria-label="{html.escape(_("Your answer"))}"></div>'
                else:
                    body += f'<div class="solution">{_html(ex.solution, book)}</div>' if ex.solution else ""
                    body += f'<p class="accepted">{html.escape(accepted(ex.id))}</p>'
                blocks.append(f'<section class="exercise" id="ex-{ex.id}">{body}</section>')
            note = html.escape(_("The examples are the chapter's own: its slides and its page show them."))
            parts.append(
                f'<section class="chapter"><h2>{html.escape(chapter)}</h2>\n<p class="note">{note}</p>\n'
                + "\n".join(blocks)
                + "</section>"
            )
        page = Template((HERE / "sheet.html").read_text()).substitute(
            lang=lang.replace("_", "-"),
            title=html.escape(f"{_(TITLE)}: {title}"),
            heading=html.escape(title),
            book=html.escape(_(TITLE)),
            intro=html.escape(
                _("Every chapter's exercises, with room to answer.")
                if kind == "exercises"
                else _("Every chapter's exercises with their worked solutions, and what the book's checker accepts.")
            ),
            colours=palette_css(),
            mathjax=f"{up(lang)}vendor/mathjax2/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
            body="\n".join(parts),
        )
    return page


def write_sheets(out: Path, chapters: list[tuple[str, list[SheetExercise]]], lang: str, book: str | None) -> None:
    """out/exercises.html and out/answers.html, rewritten only when they change (an unchanged file keeps
    its time, so its copy in the book is skipped)."""
    for kind in SHEETS:
        path, text = out / f"{kind}.html", sheet(kind, chapters, lang, book)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
