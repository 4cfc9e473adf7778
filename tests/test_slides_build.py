"""The slide build's modules (scripts/slides/, scripts/build_paths.py), each on small made-up inputs.

The decks themselves, opened in a browser, are tested in test_slides.py; the
incremental rebuild in test_infra_build.py.
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from conftest import ROOT
from scripts.slides import COURSE_TITLE, HERE, TITLE
from scripts.slides.chapters import chapters, title_of
from scripts.slides.notebook import course_notebook, for_slides, slide_type
from scripts.slides.site import publish, published, standalone, write_index
from scripts.slides.stamps import (
    deck_digest,
    quick_digest,
    read_stamps,
    tooling_digest,
    tooling_files,
    write_stamps,
)

SCRIPTS = ROOT / "scripts"


def cell(kind: str, source: str, slide: str = "-", tags=()):
    c = nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
    c.metadata["slideshow"] = {"slide_type": slide}
    if tags:
        c.metadata["tags"] = list(tags)
    return c


# --------------------------------------------------------------------------- build_paths
def test_the_environment_is_read_in_one_place():
    """SLIDES_OUT and BOOK_HTML are read by scripts/build_paths.py alone among the slide scripts and their tests."""
    mine = [
        SCRIPTS / "build_slides.py",
        SCRIPTS / "build_handouts.py",
        SCRIPTS / "myst_convert.py",
        *sorted((SCRIPTS / "slides").glob("*.py")),
        ROOT / "tests" / "test_slides.py",
    ]
    readers = [p.name for p in mine if p.exists() and re.search(r"environ.*(SLIDES_OUT|BOOK_HTML)", p.read_text())]
    assert readers == []
    assert "SLIDES_OUT" in (SCRIPTS / "build_paths.py").read_text()


# --------------------------------------------------------------------------- chapters
def test_chapters_follow_the_toc_and_skip_the_root_and_unwritten_entries(tmp_path):
    (tmp_path / "book").mkdir()
    for stem in ("intro", "02_b", "01_a"):
        nbformat.write(nbformat.v4.new_notebook(), tmp_path / "book" / f"{stem}.ipynb")
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "root: book/intro\nparts:\n  - chapters:\n    - file: book/02_b\n    - file: book/01_a\n    - file: book/99_later\n"
    )
    assert [p.stem for p in chapters(toc)] == ["02_b", "01_a"]


def test_title_is_the_first_level_one_heading():
    nb = nbformat.v4.new_notebook(cells=[cell("markdown", "## Not this"), cell("markdown", "intro\n# Scaling \n")])
    assert title_of(nb) == "Scaling"
    assert title_of(json.loads(nbformat.writes(nb))) == "Scaling"  # the plain JSON too
    assert title_of(nbformat.v4.new_notebook()) == "Untitled"


# --------------------------------------------------------------------------- notebook
def test_for_slides_keeps_notes_drops_stderr_and_glue_records_and_links_decks_or_book():
    code = cell("code", "glue('x', 1)")
    code.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="shown\n"),
        nbformat.v4.new_output("display_data", data={"text/plain": "1"}, metadata={"scrapbook": {"name": "x"}}),
    ]
    nb = nbformat.v4.new_notebook(
        cells=[
            cell("markdown", "# A\n\nx = {glue:text}`x:.1f`, see {doc}`02_b` and {doc}`the intro <intro>`.", "slide"),
            code,
            cell("markdown", "Say x.", "notes", tags=["remove-cell"]),
            cell("markdown", "- x in one line", "subslide", tags=["remove-cell", "slide-only"]),
        ]
    )
    out = for_slides(nb, "01_a", {"01_a", "02_b"})
    assert out.cells[0].source == "# A" and out.cells[0].metadata["tags"] == ["slide-title"]
    assert out.cells[1].source == "x = 1.0, see [02_b](02_b.html) and [the intro](../book/intro.html)."
    assert [o.get("text") for o in out.cells[2].outputs] == ["shown\n"]
    assert out.cells[3].metadata["tags"] == []  # a note stays (the exporter drops remove-cell cells)
    shown = [c for c in out.cells if c.source == "- x in one line"]
    assert [c.metadata["tags"] for c in shown] == [["slide-only"]], "the deck's own slide text stays on the deck"
    assert nb.cells[1].outputs[0].name == "stderr", "the executed notebook itself is not changed"


def test_the_course_notebook_opens_each_chapter_on_a_new_slide_with_a_title_slide():
    a = nbformat.v4.new_notebook(cells=[cell("markdown", "# A", "-"), cell("markdown", "more", "subslide")])
    b = nbformat.v4.new_notebook(cells=[cell("markdown", "x", "skip"), cell("markdown", "# B", "fragment")])
    b.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"w1": {"model": 1}}}}
    course = course_notebook([("01_a", a), ("02_b", b)])
    assert course.cells[0].source.startswith(f"# {TITLE}") and "[B](02_b.html)" in course.cells[0].source
    assert slide_type(course.cells[1]) == "notes"
    assert [slide_type(c) for c in course.cells[2:]] == ["slide", "subslide", "skip", "slide"]
    assert course.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"] == {"w1": {"model": 1}}
    assert slide_type(a.cells[0]) == "-", "the chapters themselves are not changed"


# --------------------------------------------------------------------------- site
DECK = '<p>See the <a href="../book/intro.html#intro-notation">notation</a> and <a href="02_b.html">chapter 2</a>.</p>'


def test_standalone_decks_link_no_book_page_and_the_published_copy_links_them_again():
    alone = standalone(DECK)
    assert '<a data-book="intro.html#intro-notation">notation</a>' in alone
    assert "../book/" not in alone and '<a href="02_b.html">' in alone
    assert published(alone) == DECK.replace(
        '#intro-notation"', '#intro-notation" data-book="intro.html#intro-notation"'
    )


def test_the_index_links_back_to_the_book_only_if_the_book_is_there(tmp_path):
    slides = tmp_path / "slides"
    (slides / "pdf").mkdir(parents=True)
    (slides / "pdf" / "01_a.pdf").write_bytes(b"%PDF-")
    decks = [("01_a", "Chapter <A>"), ("02_b", "B")]
    write_index(slides, decks, book_prefix="../html/")
    page = (slides / "index.html").read_text()
    assert '<a href="01_a.html">Chapter &lt;A&gt;</a> · <a class="handout" href="pdf/01_a.pdf">PDF handout</a>' in page
    assert '<a href="02_b.html">B</a></li>' in page
    assert "Back to the book" not in page and "$" not in page
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").write_text("book")
    write_index(slides, decks, book_prefix="../html/")
    assert '<a href="../html/index.html">← Back to the book</a>' in (slides / "index.html").read_text()
    (tmp_path / "html" / "index.html").unlink()  # a copied folder: the published book, when there is one
    write_index(slides, decks, book_prefix="https://example.org/attention/")
    assert (
        '<a href="https://example.org/attention/index.html">← Back to the book</a>'
        in (slides / "index.html").read_text()
    )


def test_the_standalone_index_links_the_published_book_or_nothing(monkeypatch):
    """A copied slides folder (a USB stick) has no _build/html/ beside it: its index links the published
    book (html.baseurl) or has no link back, never a path into the build."""
    from scripts.slides import site

    monkeypatch.setattr(site, "published_site", lambda: None)
    assert site.standalone_book("en") is None and site.standalone_book("zh_CN") is None
    monkeypatch.setattr(site, "published_site", lambda: "https://example.org/a/")
    assert site.standalone_book("en") == "https://example.org/a/"
    assert site.standalone_book("zh_CN") == "https://example.org/a/zh_CN/"


def test_publish_copies_decks_with_book_links_and_leaves_private_files_out(tmp_path):
    out, site = tmp_path / "slides", tmp_path / "html"
    (out / "vendor").mkdir(parents=True)
    (out / "vendor" / "slides.css").write_text("css")
    (out / "01_a.html").write_text(standalone(DECK))
    (out / f"{COURSE_TITLE}.html").write_text("title page")
    (out / "decks.json").write_text(json.dumps([["01_a", "A"]]))
    write_stamps(out, {"01_a": {"inputs": "x"}})
    publish(out, site)
    assert not (site / "slides").exists(), "no book built: nothing published"
    site.mkdir()
    (site / "index.html").write_text("book")
    publish(out, site)
    assert (site / "slides" / "01_a.html").read_text() == published(standalone(DECK))
    assert (site / "slides" / "vendor" / "slides.css").read_text() == "css"
    assert not (site / "slides" / f"{COURSE_TITLE}.html").exists() and read_stamps(site / "slides") == {}
    assert "Back to the book" in (site / "slides" / "index.html").read_text()


# --------------------------------------------------------------------------- stamps
def test_digests_change_with_what_the_deck_is_made_from(tmp_path):
    nb = tmp_path / "01_a.ipynb"
    nb.write_text("one")
    tooling = tooling_digest()
    first = deck_digest(nb, tooling, {"01_a"}, "1:abc")
    assert deck_digest(nb, tooling, {"01_a"}, None) is None, "not executed by the book: unknown"
    assert first == deck_digest(nb, tooling, {"01_a"}, "1:abc")
    assert first != deck_digest(nb, tooling, {"01_a"}, "2:abc")  # executed again
    assert first != deck_digest(nb, tooling, {"01_a", "02_b"}, "1:abc")  # a new deck to link to
    assert first != deck_digest(nb, "other tooling", {"01_a"}, "1:abc")
    quick = quick_digest(nb, tooling, {"01_a"}, "cache 1")
    assert quick != quick_digest(nb, tooling, {"01_a"}, "cache 2")
    nb.write_text("two")
    assert first != deck_digest(nb, tooling, {"01_a"}, "1:abc") and quick != quick_digest(
        nb, tooling, {"01_a"}, "cache 1"
    )


def test_the_tooling_digest_covers_every_slide_module_and_template_file():
    files = set(tooling_files())
    for path in [
        SCRIPTS / "build_slides.py",
        SCRIPTS / "myst_convert.py",
        SCRIPTS / "build_paths.py",
        *HERE.glob("*.py"),
        HERE / "slides.css",
        HERE / "index.html",
        *(HERE / "template").iterdir(),
    ]:
        assert path in files, f"{path.name} is not in the tooling digest"
    assert not [p for p in files if "__pycache__" in p.parts]
    assert tooling_digest() == tooling_digest()


def test_stamps_round_trip_and_a_broken_file_reads_as_none(tmp_path):
    write_stamps(tmp_path, {"a": {"inputs": "1"}})
    assert read_stamps(tmp_path) == {"a": {"inputs": "1"}}
    (tmp_path / ".inputs.json").write_text("{not json")
    assert read_stamps(tmp_path) == {}


@pytest.mark.parametrize("name", ["build_slides", "build_handouts"])
def test_build_handouts_still_finds_what_it_imports_from_build_slides(name):
    import importlib

    module = importlib.import_module(f"scripts.{name}")
    for attr in (
        "COURSE",
        "COURSE_TITLE",
        "OUT",
        "SITE",
        "TITLE",
        "read_stamps",
        "sync",
        "write_index",
        "write_stamps",
    ):
        assert hasattr(module, attr), f"{name} has no {attr}"


# --------------------------------------------------------------------------- slide structure
def _structure(nb):
    return [(slide_type(c), c.metadata.get("tags", []), c.source) for c in nb.cells]


def test_every_slide_gets_a_title_cell_and_untitled_ones_continue_their_section():
    nb = nbformat.v4.new_notebook(
        cells=[
            cell("markdown", "# Chapter\n\nIntro text.", "slide"),
            cell("markdown", "More intro.", "subslide"),
            cell("markdown", "## Section", "slide"),
            cell("code", "x = 1", "subslide"),
            cell("markdown", "Say it.", "notes", tags=["remove-cell"]),
        ]
    )
    out = for_slides(nb, "01_a", {"01_a"})
    shown = [(t, tags, src) for t, tags, src in _structure(out) if t != "notes"]
    assert shown == [
        ("slide", ["slide-title"], "# Chapter"),
        ("-", [], "Intro text."),
        ("subslide", ["slide-title"], "## Chapter (continued)"),
        ("-", [], "More intro."),
        ("slide", ["slide-title"], "## Section"),  # the heading was the whole cell: no empty cell left
        ("subslide", ["slide-title"], "## Section (continued)"),
        ("-", [], "x = 1"),
    ]


def test_a_solution_is_a_slide_of_its_own_after_its_exercise_and_the_build_invents_no_notes():
    """Once: a solution was a dropdown (closed, it pushed its slide below the frame when opened, and a
    handout printed it closed). Now it is a slide after its exercise, titled with the dropdown's title;
    what followed it continues the section on a new slide. The exercise's notes, written after the solution,
    stay with the exercise; the build adds none."""
    nb = nbformat.v4.new_notebook(
        cells=[
            cell("markdown", "## Check yourself\n\n**1.1** Why?", "slide"),
            cell("code", "check('1.1', ...)"),
            cell("markdown", ":::{dropdown} Solution 1.1\nBecause.\n:::", "-"),
            cell("markdown", "Notes for the question.", "notes", tags=["remove-cell"]),
            cell("code", "print(1)"),
            cell("markdown", ":::{dropdown} Solution 1.2\nSo.\n:::\n\n**1.3** And?", "subslide"),
        ]
    )
    out = for_slides(nb, "01_a", {"01_a"})
    assert not [c for c in out.cells if "<details>" in c.source or ":::" in c.source]
    assert _structure(out) == [
        ("slide", ["slide-title"], "## Check yourself"),
        ("-", [], "**1.1** Why?"),
        ("-", [], "check('1.1', ...)"),
        ("notes", [], "Notes for the question."),
        ("subslide", ["slide-title"], "## Solution 1.1"),
        ("-", ["solution"], "Because."),
        ("subslide", ["slide-title"], "## Check yourself (continued)"),
        ("-", [], "print(1)"),
        ("subslide", ["slide-title"], "## Solution 1.2"),
        ("-", ["solution"], "So."),
        ("subslide", ["slide-title"], "## Check yourself (continued)"),
        ("-", [], "**1.3** And?"),
    ]


def test_an_unanswered_check_prints_nothing_on_a_slide():
    """Once: every handout printed the checker's "Not answered yet: replace the ... with s_new." under
    each exercise (the book runs the exercises unanswered). The output goes, in each language; a real
    answer's feedback, and the cell's code, stay."""
    from attention_steps.exercises.checking import Feedback

    def checked(lines):
        c = cell("code", "check('1.1', my_x)")
        data, _meta = Feedback(False, lines)._repr_mimebundle_(), None
        c.outputs = [nbformat.v4.new_output("display_data", data=data)]
        return c

    from attention_steps.i18n import _, language

    for lang in ("en", "zh_CN"):
        with language(lang):
            unanswered = _("Not answered yet: replace the ... with {name}.").format(name="s_new")
        nb = nbformat.v4.new_notebook(cells=[checked((unanswered,)), checked(("Not quite: x[0] is too big.",))])
        out = for_slides(nb, "01_a", {"01_a"}, lang=lang)
        assert [len(c.outputs) for c in out.cells if c.cell_type == "code"] == [0, 1], lang
        assert out.cells[0].source == "check('1.1', my_x)"


def test_a_tall_figure_beside_text_is_tagged_for_the_two_column_layout():
    import base64
    import struct

    def png(w, h):
        return base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + struct.pack(">II", w, h) + b"\0" * 8).decode()

    tall, wide = cell("code", "tall()", tags=["hide-input"]), cell("code", "wide()", tags=["hide-input"])
    tall.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png(600, 700)})]
    wide.outputs = [nbformat.v4.new_output("display_data", data={"image/png": png(900, 300)})]
    nb = nbformat.v4.new_notebook(
        cells=[
            cell("markdown", "## A\n\ntext", "slide"),
            tall,
            cell("markdown", "## B\n\ntext", "slide"),
            wide,
            cell("markdown", "## C", "slide"),
            copy_of(tall),
        ]
    )
    out = for_slides(nb, "01_a", {"01_a"})
    tagged = [c.source for c in out.cells if "tall-figure" in c.metadata.get("tags", [])]
    assert tagged == ["tall()"], "only a tall figure that shares its slide with text"
    tall.metadata["tags"] = []  # its code shown: the code needs the width, the figure stays below it
    assert not [c for c in for_slides(nb, "01_a", {"01_a"}).cells if "tall-figure" in c.metadata.get("tags", [])]


def copy_of(c):
    import copy

    c = copy.deepcopy(c)
    c.id = c.id[:60] + "-cp"
    return c


def test_a_solution_too_long_for_a_slide_continues_on_a_second_never_after_its_colon():
    from scripts.slides.notebook import SOLUTION_LINES, solution_parts

    short = "One line.\n\n$$\nx = 1\n$$"
    assert solution_parts(short) == [short]
    para = "word " * 90  # about six lines
    formula = "$$\n\\begin{bmatrix} 1 \\\\ 2 \\\\ 3 \\end{bmatrix}\n$$"
    long = f"{formula}\n\n{para}Take this:\n\n{formula}\n\n{para.strip()}"
    first, second = solution_parts(long)  # the most even cut is after 'Take this:', which introduces a formula
    assert first == f"{formula}\n\n{para}Take this:\n\n{formula}" and second == para.strip()
    assert SOLUTION_LINES >= 12
    nb = nbformat.v4.new_notebook(
        cells=[
            cell("markdown", "## Check yourself\n\n**1.1** Why?", "slide"),
            cell("markdown", f":::{{dropdown}} Solution 1.1\n{long}\n:::"),
            cell("markdown", "Say why.", "notes", tags=["remove-cell"]),
        ]
    )
    titles = [c.source for c in for_slides(nb, "01_a", {"01_a"}).cells if "slide-title" in c.metadata.get("tags", [])]
    assert titles == ["## Check yourself", "## Solution 1.1", "## Solution 1.1 (continued)"]
