"""The teacher's paper: the exercise sheet and the answer key (scripts/slides/sheets.py), and every
chapter's handout three slides a page on A4 and Letter (scripts/slides/paper.py), all printed by
scripts/build_handouts.py.

A teacher hands out `pdf/exercises.pdf` (every exercise, room to answer, no solution) and keeps
`pdf/answers.pdf` (every exercise, its worked solution and what the checker accepts), in both
languages, on A4 and on US Letter. The built PDFs are read back with pdftotext and pypdf.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import nbformat
import pytest

from conftest import ROOT
from scripts.build_paths import SLIDES

POPPLER = shutil.which("pdftotext") is not None
PAPERS = {"": (595, 842), "-letter": (612, 792)}  # suffix -> the page's size in points (A4, Letter)
LANGS = {"": "en", "zh_CN/": "zh_CN"}


def book_exercises() -> list[str]:
    """Every exercise id the chapters check, in the book's order."""
    ids = []
    for path in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                ids += re.findall(r"""check\(\s*["'](\d+\.\d+)["']""", "".join(cell["source"]))
    return ids


# -- the logic, on a notebook made here (unit tier)


def _notebook():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    return nbformat.v4.new_notebook(
        cells=[
            md("## Check yourself\n\n**Exercise 9.1.** Compute $x$."),
            md("- a note for the teacher", metadata={"slideshow": {"slide_type": "notes"}}),
            md("### Exercise 9.1\n\n- $x$?", metadata={"tags": ["remove-cell", "slide-only"]}),  # the deck's words
            code('check("9.1", my_x)'),
            md(":::{dropdown} Solution 9.1\n$x = 2$.\n:::\n\n**Exercise 9.2.** And $y$?"),
            code("print(EX2_Y)", outputs=[nbformat.v4.new_output("stream", name="stdout", text="[1 2]\n")]),
            code(
                "glue('x', 1)",
                metadata={"tags": ["remove-cell"]},
                outputs=[nbformat.v4.new_output("stream", name="stdout", text="plumbing\n")],
            ),  # fmt: skip
            code('check("9.2", my_y)'),
            md(":::{dropdown} Solution 9.2\n$y = 3$.\n:::"),
        ]
    )


@pytest.mark.unit
def test_an_exercise_is_the_text_before_its_checker_and_the_solution_after_it():
    from scripts.slides.sheets import exercises_of

    found = exercises_of(_notebook(), "09_test")
    assert [e.id for e in found] == ["9.1", "9.2"]
    assert found[0].text == "**Exercise 9.1.** Compute $x$."  # the page's: no heading, no note, no slide text
    assert found[1].text == "**Exercise 9.2.** And $y$?"  # the previous solution folded in its cell left out
    assert found[0].solution.strip() == "$x = 2$." and found[1].solution.strip() == "$y = 3$."
    assert (found[0].data, found[1].data) == ("", "[1 2]")  # what a shown cell prints: the data paper needs


@pytest.mark.unit
def test_the_accepted_answer_is_written_as_a_teacher_writes_it():
    from scripts.slides.sheets import _shown

    assert _shown(2359296.0, whole=True) == "2,359,296"
    assert _shown([[1.0, 0.0], [0.26894, 0.73106]], whole=False) == "[[1, 0], [0.2689, 0.7311]]"
    assert _shown((12, 128, 64), whole=True) == "(12, 128, 64)"
    assert _shown(0.1353352832, whole=False) == "0.135335"


@pytest.mark.unit
def test_a_sheet_of_another_kind_is_refused_by_name():
    from scripts.slides.sheets import sheet

    with pytest.raises(ValueError, match=r"kind must be one of \('exercises', 'answers'\), got 'solutions'"):
        sheet("solutions", [], "en", None)


# -- the built PDFs (book tier)


def _pdf(lang: str, kind: str, suffix: str):
    path = SLIDES / lang / "pdf" / f"{kind}{suffix}.pdf"
    if not path.exists():
        pytest.skip(f"{path.relative_to(SLIDES)} is not built: run `bash scripts/build.sh`")
    return path


def _on_paper(reader, suffix: str) -> bool:
    """Every page the paper's size, to a point (Chromium rounds A4's 595.3 × 841.9 pt up)."""
    w, h = PAPERS[suffix]
    return all(abs(float(p.mediabox.width) - w) < 1.5 and abs(float(p.mediabox.height) - h) < 1.5 for p in reader.pages)


def _text(path) -> str:
    return " ".join(
        subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout.split()
    )


@pytest.mark.book
@pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (scripts/setup.sh installs it)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("suffix", PAPERS)
def test_the_exercise_sheet_has_every_exercise_and_no_answer(lang, suffix):
    from pypdf import PdfReader

    path = _pdf(lang, "exercises", suffix)
    reader = PdfReader(path)
    assert _on_paper(reader, suffix), f"{path.name}: pages not {PAPERS[suffix]} pt"
    text = _text(path)
    word = {"": "Exercise", "zh_CN/": "练习"}[lang]
    missing = [i for i in book_exercises() if f"{word} {i}" not in text]
    assert missing == [], f"{path.name} lacks exercises {missing}"
    for answer in ("The checker accepts", "检查器接受", "Solution ", "Not answered yet", "尚未作答"):
        assert answer not in text, f"{path.name} gives away {answer!r}"
    assert re.search(r"(page|第) ?1", text), f"{path.name}: no page number in the footer"


@pytest.mark.book
@pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (scripts/setup.sh installs it)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("suffix", PAPERS)
def test_the_answer_key_has_every_solution_and_what_the_checker_accepts(lang, suffix):
    from pypdf import PdfReader

    from scripts.chrome import language
    from scripts.slides.sheets import accepted

    path = _pdf(lang, "answers", suffix)
    assert _on_paper(PdfReader(path), suffix), f"{path.name}: pages not {PAPERS[suffix]} pt"
    text = _text(path)
    # in the order the page draws its text (-raw), spaces left out: a CJK line wraps with no space,
    # and pdftotext's reading order slid a formula of the solution beside into a long accepted answer
    drawn = "".join(
        subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout.split()
    )
    ids = book_exercises()
    with language(LANGS[lang]):
        said = ["".join(accepted(i).split()) for i in ids]
    missing = [i for i, line in zip(ids, said) if line not in drawn]
    assert missing == [], f"{path.name}: the checker's accepted answer is missing for {missing}"
    assert "$" not in text and "{glue" not in text, f"{path.name}: raw TeX or MyST left"


def _printed_exercises() -> list[str]:
    """The exercises whose data a shown code cell prints (between the exercise's text and its checker)."""
    ids = []
    for path in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            found = re.findall(r"""check\(\s*["'](\d+\.\d+)["']""", "".join(cell["source"]))
            if cell["cell_type"] != "code" or not found:
                continue
            j = i - 1
            while (
                cells[j]["cell_type"] == "code"
                or cells[j]["metadata"].get("slideshow", {}).get("slide_type") == "notes"
            ):
                tags = set(cells[j]["metadata"].get("tags", []))
                if (
                    cells[j]["cell_type"] == "code"
                    and "print(" in "".join(cells[j]["source"])
                    and not tags & {"remove-cell", "remove-output"}
                ):
                    ids += found
                    break
                j -= 1
    return ids


@pytest.mark.book
@pytest.mark.parametrize("lang", LANGS)
def test_an_exercise_whose_data_a_cell_prints_carries_it_on_paper(lang):
    """Paper has no cell to run: what the learner's cell prints (13.1's weights, 12.2's a and g) is on the sheet."""
    from bs4 import BeautifulSoup

    path = SLIDES / lang / "exercises.html"
    if not path.exists():
        pytest.skip(f"{path.relative_to(SLIDES)} is not built: run `bash scripts/build.sh`")
    page = BeautifulSoup(path.read_text(), "html.parser")
    ids = _printed_exercises()
    assert {"9.1", "12.2", "13.1"} <= set(ids), ids
    bare = [i for i in ids if not page.select(f'section[id="ex-{i}"] pre.data')]
    assert bare == [], f"{path.name}: exercises {bare} lack the data their cell prints"
    assert "referent: [1 1 5 5 5]" in page.select_one('section[id="ex-13.1"] pre.data').text


@pytest.mark.book
def test_the_slides_index_offers_the_sheets():
    from bs4 import BeautifulSoup

    for lang in LANGS:
        index = SLIDES / lang / "index.html"
        if not (SLIDES / lang / "pdf" / "answers.pdf").exists():
            pytest.skip("the sheets are not printed: run `bash scripts/build.sh`")
        hrefs = {a["href"] for a in BeautifulSoup(index.read_text(), "html.parser").select("li.sheets a")}
        assert {"pdf/exercises.pdf", "pdf/answers-letter.pdf", "exercises.html", "answers.html"} <= hrefs, hrefs


# -- the chapters' handouts on paper


@pytest.mark.unit
def test_three_slides_fit_a_page_of_either_paper_and_another_paper_is_refused():
    from scripts.slides.paper import PAPERS, slots

    for paper, (width, height) in PAPERS.items():
        frames = slots(paper, 16 / 9)
        assert len(frames) == 3
        assert all(left + w <= width and top + h <= height - 15 for left, top, w, h in frames)
        assert all(frames[k][1] + frames[k][3] < frames[k + 1][1] for k in range(2)), "frames overlap"
    with pytest.raises(ValueError, match=r"paper must be one of \['A4', 'Letter'\], got 'A5'"):
        slots("A5", 16 / 9)


def _chapters() -> list[str]:
    return [p.stem for p in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))]


@pytest.mark.book
@pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (scripts/setup.sh installs it)")
@pytest.mark.parametrize("lang", LANGS)
def test_every_handout_comes_on_paper_three_slides_a_page_with_its_title_and_page_in_the_footer(lang):
    from pypdf import PdfReader

    decks = (
        dict(json.loads((SLIDES / lang / "decks.json").read_text())) if (SLIDES / lang / "decks.json").exists() else {}
    )
    for stem in _chapters():
        slides = SLIDES / lang / "pdf" / f"{stem}.pdf"
        if not slides.exists():
            pytest.skip(f"{slides.relative_to(SLIDES)} is not printed: run `bash scripts/build.sh`")
        count = len(PdfReader(slides).pages)
        for suffix, paper in (("-a4", ""), ("-letter", "-letter")):
            path = _pdf(lang, stem, suffix)
            reader = PdfReader(path)
            assert _on_paper(reader, paper), f"{path.name}: not {PAPERS[paper]} pt"
            assert len(reader.pages) == -(-count // 3), f"{path.name}: {len(reader.pages)} pages for {count} slides"
            last = subprocess.run(
                ["pdftotext", "-f", str(len(reader.pages)), "-l", str(len(reader.pages)), str(path), "-"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            footer = " ".join(last.split())
            assert " ".join(decks[stem].split()) in footer, f"{path.name}: the deck's title is not in the footer"
            n = len(reader.pages)
            assert f"page {n} of {n}" in footer or f"第 {n} 页，共 {n} 页" in footer, f"{path.name}: no page number"
