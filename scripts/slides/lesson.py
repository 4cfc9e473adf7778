"""The 90-minute lesson: lesson/lesson.md, a deck written as slides, made into `lesson.html`.

The chapter decks are the chapters' notebooks cut into slides; the lesson is authored for the
room, in one Markdown file (lesson/lesson.md; its first comment says how it is written). This
module reads it, translates it (locale/<lang>/LC_MESSAGES/lesson.po, cut into messages as the
speaker notes are: scripts/translate_notebook.py), fills in its numbers (computed here with the
core, after translation, so a catalogue never holds a number), takes its figures and explorers
from the chapters' executed notebooks (the book's own executions, scripts/slides/execution.py,
in the deck's language), and exports it with the chapter decks' exporter, template and assets.
Each slide's `data-timing` (seconds) is the lesson's own, so the speaker view's pacing timer
follows the lesson's plan.

    .venv/bin/python -m scripts.slides.lesson pot   # the message template, _build/gettext/lesson.pot
"""

from __future__ import annotations

import copy
import hashlib
import html
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scripts.build_paths import ROOT

from . import _, language

SOURCE = ROOT / "lesson" / "lesson.md"
CSS = Path(__file__).with_name("lesson.css")  # the lesson's own rules, after the decks' slides.css
NAME = "lesson"
LOCALE = ROOT / "locale"
KINDS = {"part", "exercise", "solution"}  # what a slide's header may say besides its seconds

_HEADER = re.compile(r"^<!-- slide: (\d+)((?:, *\w+)*) -->$")
_FIGURE = re.compile(r"^<!-- figure: (\w+) ([\w-]+) -->$")
_GOAL = "Goal: "
_NOTES = "<!-- notes -->"
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
_NUMBER = re.compile(r"\{\{ *(\w+) *\}\}")


@dataclass
class Slide:
    """One slide of the lesson: its seconds, kinds (part, exercise, solution), its pieces in order
    (("text", markdown), ("goal", text) or ("figure", (chapter, cell id))) and its speaker notes."""

    timing: int
    kinds: set[str]
    pieces: list[tuple[str, object]] = field(default_factory=list)
    notes: str = ""
    line: int = 0


def parse(text: str) -> list[Slide]:
    """The slides of the lesson's source (see lesson/lesson.md's first comment)."""
    slides: list[Slide] = []
    body: list[str] = []
    in_notes = False

    def close():
        if not slides:
            return
        chunk = "\n".join(body).strip()
        if in_notes:
            slides[-1].notes = chunk
        elif chunk:
            slides[-1].pieces.append(("text", chunk))

    for number, line in enumerate(text.split("\n"), 1):
        header, figure = _HEADER.match(line.strip()), _FIGURE.match(line.strip())
        if header:
            close()
            body, in_notes = [], False
            kinds = {k.strip() for k in header.group(2).split(",") if k.strip()}
            if kinds - KINDS:
                raise ValueError(
                    f"lesson: line {number}: unknown slide kind {sorted(kinds - KINDS)}, not in {sorted(KINDS)}"
                )
            slides.append(Slide(int(header.group(1)), kinds, line=number))
        elif not slides:
            continue
        elif line.strip() == _NOTES:
            close()
            body, in_notes = [], True
        elif figure and not in_notes:
            close()
            body = []
            slides[-1].pieces.append(("figure", figure.groups()))
        elif line.startswith(_GOAL) and not in_notes:
            close()
            body = []
            slides[-1].pieces.append(("goal", line[len(_GOAL) :].strip()))
        else:
            body.append(line)
    close()
    for slide in slides:
        if not slide.notes:
            raise ValueError(f"lesson: the slide at line {slide.line} has no speaker notes ({_NOTES})")
    return slides


def slides() -> list[Slide]:
    return parse(SOURCE.read_text(encoding="utf-8"))


# --- the words: one catalogue, cut as the speaker notes are ---------------------------------------

LABELS = ("Goal",)  # words the builder adds on a slide


def texts(lesson: list[Slide]) -> list[str]:
    """Every piece of the lesson said in words (markdown), in order."""
    found = []
    for slide in lesson:
        found += [str(p) for kind, p in slide.pieces if kind in ("text", "goal")]
        found.append(slide.notes)
    return found


def messages(lesson: list[Slide]) -> list[str]:
    """The catalogue's msgids, in order, once each."""
    from scripts.translate_notebook import has_words
    from scripts.translate_notebook import messages as cut

    seen: dict[str, None] = dict.fromkeys(LABELS)
    for text in texts(lesson):
        for m in cut(text):
            if has_words(m.msgid):
                seen.setdefault(m.msgid)
    return list(seen)


def template(folder: Path) -> Path:
    """folder/lesson.pot, the lesson's messages (scripts/build_lang.py's gettext writes it beside the book's)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalogue = Catalog(project="Attention, Step by Step: the lesson", fuzzy=False)
    for m in messages(slides()):
        catalogue.add(m, locations=[(str(SOURCE.relative_to(ROOT)), 0)])
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{NAME}.pot"
    with target.open("wb") as f:
        write_po(f, catalogue, width=100, omit_header=False)
    return target


def catalogue_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{NAME}.po"


def catalogue(lang: str) -> dict[str, str]:
    """msgid -> translation of the lesson's catalogue in `lang` (fuzzy ones are not translations yet)."""
    if lang == "en":
        return {}
    from attention_steps.i18n import read_po

    path = catalogue_path(lang)
    if not path.exists():
        return {}
    return {k: v for k, (v, fuzzy) in read_po(path).items() if v and not fuzzy}


def translated(lesson: list[Slide], lang: str) -> list[Slide]:
    """The lesson in `lang`; stops naming the messages lesson.po does not translate."""
    if lang == "en":
        return lesson
    from scripts.translate_notebook import has_words, translate_markdown

    table = catalogue(lang)
    missing: list[str] = []

    def say(text: str) -> str:
        out, lost = translate_markdown(text, table.get)
        missing.extend(lost)
        return out

    lesson = copy.deepcopy(lesson)
    for slide in lesson:
        slide.pieces = [(k, say(p) if k in ("text", "goal") else p) for k, p in slide.pieces]
        slide.notes = say(slide.notes)
    missing += [m for m in LABELS if m not in table and has_words(m)]
    if missing:
        sys.exit(
            f"build_slides: the lesson has {len(missing)} messages with no {lang} translation "
            f"(translate them in {catalogue_path(lang).relative_to(ROOT)}): "
            + "; ".join(repr(m[:70]) for m in missing[:5])
        )
    return lesson


# --- the numbers: computed with the core ----------------------------------------------------------


def _num(x: float) -> str:
    x = float(x)
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.2f}"


def _matrix(M) -> str:
    M = np.atleast_2d(M)
    return r"\begin{bmatrix}" + r" \\ ".join(" & ".join(_num(v) for v in row) for row in M) + r"\end{bmatrix}"


def _vector(v) -> str:
    return "[" + ", ".join(_num(x) for x in v) + "]"


def numbers() -> dict[str, str]:
    """Every number the lesson's slides and notes show, by the name its source writes {{ name }}."""
    from attention_steps.core import scale, softmax
    from attention_steps.examples import BERT_D_MODEL, BERT_H, LARGE_SCORES, i_love
    from attention_steps.heads import small_layer
    from attention_steps.sentence import D_K, D_MODEL, NUM_HEADS, sentence_layer

    ex = i_love()
    t = ex.trace()
    d_k = ex.d_k
    QK_T, S = t.QK_T[0], t.S[0]  # the one head's
    raw, scaled = QK_T[0], S[0]  # the query "I"'s scores, before and after ÷√d_k
    layer, sentence = small_layer(), sentence_layer()
    q_love, k_i = t.Q[1], t.K[0]
    n = {
        "X": _matrix(ex.X),
        "W_Q": _matrix(ex.W_Q),
        "Q": _matrix(t.Q),
        "K": _matrix(t.K),
        "V": _matrix(t.V),
        "QK_T": _matrix(QK_T),
        "S": _matrix(S),
        "A": _matrix(t.A[0]),
        "Z": _matrix(t.Z_cat),
        "d_k": _num(d_k),
        "sqrt_d_k": _num(np.sqrt(d_k)),
        "q_love": _vector(q_love),
        "k_I": _vector(k_i),
        "score_love_I": _num(q_love @ k_i),
        "score_love_I_sum": " + ".join(f"{_num(a)}·{_num(b)}" for a, b in zip(q_love, k_i)),
        "raw_I": _vector(raw),
        "scaled_I": _vector(scaled),
        "softmax_raw_I": _vector(softmax(raw)),
        "softmax_scaled_I": _vector(softmax(scaled)),
        "top_raw_I": _num(softmax(raw).max()),
        "top_scaled_I": _num(softmax(scaled).max()),
        "top_512": _num(softmax(raw * np.sqrt(512 / d_k)).max()),  # the same scores' spread at d_k = 512
        "std_512": f"{np.sqrt(512):.1f}",
        "large": _vector(LARGE_SCORES),
        "large_softmax": _vector(softmax(np.array(LARGE_SCORES))),
        "large_shifted": _vector(np.array(LARGE_SCORES) - max(LARGE_SCORES)),
        "small_d_model": _num(layer.d_model),
        "small_h": _num(layer.num_heads),
        "small_d_k": _num(layer.d_k),
        "small_n": _num(len(layer.tokens)),
        "sentence_n": _num(len(sentence.tokens)),
        "sentence_d_model": _num(D_MODEL),
        "sentence_h": _num(NUM_HEADS),
        "sentence_d_k": _num(D_K),
        "bert_d_model": _num(BERT_D_MODEL),
        "bert_h": _num(BERT_H),
        "bert_d_k": _num(BERT_D_MODEL // BERT_H),
        "bert_weights": f"{4 * BERT_D_MODEL**2:,}",
        "bert_sqrt": _num(np.sqrt(BERT_D_MODEL // BERT_H)),
    }
    assert np.allclose(scale(QK_T, d_k), S)
    return n


def filled(text: str, values: dict[str, str]) -> str:
    def one(m):
        if m.group(1) not in values:
            raise KeyError(f"lesson: no number named {m.group(1)!r} (scripts/slides/lesson.py numbers())")
        return values[m.group(1)]

    return _NUMBER.sub(one, text)


# --- the deck --------------------------------------------------------------------------------------


def chapter_outputs(lesson: list[Slide], lang: str) -> tuple[dict, dict]:
    """((chapter, cell id) -> that executed cell, in `lang`; the explorers' widget state), from the
    book's executions."""
    from scripts.slides.execution import executed
    from scripts.translate_notebook import translated as in_language

    wanted = {p for s in lesson for k, p in s.pieces if k == "figure"}
    cells, states = {}, {}
    for stem in sorted({c for c, _id in wanted}):
        path = ROOT / "book" / f"{stem}.ipynb"
        nb = in_language(executed(path)[0], lang, stem, "build_slides")
        by_id = {c.get("id"): c for c in nb.cells}
        for chapter, cell_id in wanted:
            if chapter == stem:
                if cell_id not in by_id or not by_id[cell_id].get("outputs"):
                    raise KeyError(f"lesson: {stem} has no executed cell {cell_id!r} with outputs")
                cells[(chapter, cell_id)] = by_id[cell_id]
        states.update(
            nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        )
    return cells, states


def notebook(lesson: list[Slide], lang: str):
    """The lesson as a notebook for the chapter decks' exporter: a markdown cell per piece, the chapters'
    output cells for figures and explorers (input removed), a notes cell per slide."""
    import nbformat

    values = numbers()
    cells, states = chapter_outputs(lesson, lang)
    table = catalogue(lang)
    nb = nbformat.v4.new_notebook()
    for slide in lesson:
        first = True
        for kind, piece in slide.pieces:
            if kind == "figure":
                cell = copy.deepcopy(cells[tuple(piece)])
                cell.metadata = {"tags": ["remove-input"]}
                cell.outputs = [o for o in cell.outputs if o.get("output_type") != "stream"]
            elif kind == "goal":
                label = table.get("Goal", "Goal")
                sep = "：" if lang.startswith("zh") else ": "
                text = html.escape(filled(str(piece), values), quote=False)
                cell = nbformat.v4.new_markdown_cell(f'<p class="lesson-goal"><strong>{label}</strong>{sep}{text}</p>')
            else:
                cell = nbformat.v4.new_markdown_cell(filled(_COMMENT.sub("", str(piece)), values))
            cell.metadata.setdefault("slideshow", {})["slide_type"] = "slide" if first else "-"
            first = False
            nb.cells.append(cell)
        notes = nbformat.v4.new_markdown_cell(filled(slide.notes, values))
        notes.metadata["slideshow"] = {"slide_type": "notes"}
        nb.cells.append(notes)
    if states:
        nb.metadata["widgets"] = {
            "application/vnd.jupyter.widget-state+json": {"version_major": 2, "version_minor": 0, "state": states}
        }
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


WHOLE_FORMULAS = (
    '<script type="text/x-mathjax-config">MathJax.Hub.Config({CommonHTML: {linebreaks: {automatic: false}}});</script>'
)
_SLIDE = re.compile(r"<section>(\s*)<section>")


def timed(deck_html: str, lesson: list[Slide]) -> str:
    """Each slide's section with its seconds (data-timing) and kind (data-lesson: part, exercise, solution)."""
    found = _SLIDE.findall(deck_html)
    if len(found) != len(lesson):
        raise ValueError(f"lesson: the deck has {len(found)} slides, the source {len(lesson)}")
    it = iter(lesson)

    def one(m):
        s = next(it)
        kind = f' data-lesson="{" ".join(sorted(s.kinds))}"' if s.kinds else ""
        return f'<section>{m.group(1)}<section data-timing="{s.timing}"{kind}>'

    return _SLIDE.sub(one, deck_html)


def title(lang: str) -> str:
    from . import TITLE

    with language(lang):
        return _("{title}: the 90-minute lesson").format(title=_(TITLE))


def digest(tooling: str, fingerprint: str, lang: str) -> str:
    """What the lesson is made from: its source, its catalogue, this module, the decks' tooling and the
    book's executions (its figures are theirs)."""
    parts = [tooling, fingerprint, SOURCE.read_text(encoding="utf-8"), Path(__file__).read_text(), CSS.read_text()]
    po = catalogue_path(lang)
    parts.append(po.read_text(encoding="utf-8") if lang != "en" and po.exists() else "")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def build(exp, out: Path, lang: str) -> Path:
    """out/lesson.html in `lang`, with the chapter decks' exporter `exp`."""
    from .export import export
    from .site import standalone

    lesson = translated(slides(), lang)
    nb = notebook(lesson, lang)
    deck = timed(export(exp, nb, title(lang), lang), lesson)
    # The lesson's formulas are short and written for their slide: MathJax keeps each whole, as on the
    # Chinese decks (its automatic line breaking cut a formula in a table cell into one symbol a line).
    if "linebreaks: {automatic: false}" not in deck:
        deck = deck.replace("</head>", f"{WHOLE_FORMULAS}\n</head>", 1)
    deck = deck.replace("</head>", f"<style>\n{CSS.read_text(encoding='utf-8')}</style>\n</head>", 1)
    target = out / f"{NAME}.html"
    target.write_text(standalone(deck, lang))
    return target


if __name__ == "__main__":
    if sys.argv[1:] == ["pot"]:
        print(template(ROOT / "_build" / "gettext"))
    else:
        sys.exit(__doc__)
