"""The 90-minute lesson (lesson/lesson.md, built by scripts/slides/lesson.py into _build/slides/lesson.html
and zh_CN/lesson.html): a deck written as slides, with a plan a teacher can keep to.

The source's own rules (unit): at most 50 slides, each with its seconds and notes, about 90 minutes in
all, a goal on each part's first slide, two exercises each followed by its solution, every number
computed, every message translated. The built decks (book): the same, read from their HTML, the index
leading with the lesson. In Chromium (browser, other hosts blocked): every slide fits 1280 × 720
unshrunk, readable from the back, no stub, and a presenter's keys step through it.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from test_slides import MATH, RAW_TEX, SMALLEST_PX, STRUCTURE, WALK, open_deck

from conftest import HTML
from scripts import build_paths
from scripts.slides import lesson

SLIDES = build_paths.SLIDES
LANGS = ["", "zh_CN/"]
MAX_SLIDES = 50
MINUTES = (80, 95)
FIT = 0.9  # no slide shrunk below this
QUARTER = 720 / 4  # a slide whose content is shorter than this (and has no figure, list or table) is a stub
PLUMBING = ("show_figure", "glue", "Markdown(", "lambda", "_(", "heatmap(")

# What a box that scrolls or clips hides: on each slide, every element (not the notes) whose content is
# wider or taller than the box it is drawn in, when that box scrolls or clips (a wide table in its
# `overflow-x: auto` wrapper shows its first columns and cuts the rest, on screen and in the handout).
# The slide's own section is left to WALK's `scrolls`. A few pixels are not a cut: a title's cell overflows
# its box by its heading's margin (3 px); a cut column or line of text is tens of pixels.
CLIPPED = """async () => {
  const CUT = 8;
  Reveal.configure({transition: 'none'});
  const out = [];
  const slides = Reveal.getSlides();
  for (let k = 0; k < slides.length; k++) {
    Reveal.slide(...Object.values(Reveal.getIndices(slides[k])));
    while (Reveal.availableFragments().next) Reveal.nextFragment();
    const s = Reveal.getCurrentSlide();
    if (window.MathJax && MathJax.Hub) await new Promise(r => MathJax.Hub.Queue(['Rerender', MathJax.Hub, s], r));
    fitSlide(s);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const el of s.querySelectorAll('*')) {
      if (el.closest('aside.notes, script, style, .MJX_Assistive_MathML') || !el.offsetParent) continue;
      const st = getComputedStyle(el);
      const clips = v => /auto|scroll|hidden|clip/.test(v);
      const clipsX = clips(st.overflowX), clipsY = clips(st.overflowY);
      const wide = el.scrollWidth - el.clientWidth, tall = el.scrollHeight - el.clientHeight;
      if ((clipsX && wide > CUT) || (clipsY && tall > CUT)) {
        const kind = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '';
        const text = el.textContent.replace(/\\s+/g, ' ').trim().slice(0, 40);
        out.push({slide: k + 1, box: el.tagName.toLowerCase() + kind, hidden: [wide, tall], text});
      }
    }
  }
  return out;
}"""


# --------------------------------------------------------------------------------------- the source
@pytest.mark.unit
def test_the_lesson_plan_fits_ninety_minutes():
    slides = lesson.slides()
    assert 0 < len(slides) <= MAX_SLIDES, f"{len(slides)} slides"
    minutes = sum(s.timing for s in slides) / 60
    assert MINUTES[0] <= minutes <= MINUTES[1], f"the lesson's slides add up to {minutes:.1f} min"
    assert all(s.timing > 0 and s.notes.strip() for s in slides)


@pytest.mark.unit
def test_each_part_opens_with_its_goal_and_each_exercise_is_followed_by_its_solution():
    slides = lesson.slides()
    parts = [s for s in slides if "part" in s.kinds]
    assert len(parts) >= 7, "the seven stages and the whole layer need their parts"
    assert all(s.pieces and any(kind == "goal" for kind, _p in s.pieces[:2]) for s in parts), [
        s.line for s in parts if not any(kind == "goal" for kind, _p in s.pieces[:2])
    ]
    assert all(kind != "goal" for s in slides if "part" not in s.kinds for kind, _p in s.pieces)
    exercises = [i for i, s in enumerate(slides) if "exercise" in s.kinds]
    assert len(exercises) == 2
    assert all("solution" in slides[i + 1].kinds for i in exercises)
    assert sum("solution" in s.kinds for s in slides) == 2


@pytest.mark.unit
def test_every_number_is_computed_and_every_figure_is_a_chapter_execution():
    text = lesson.SOURCE.read_text(encoding="utf-8")
    values = lesson.numbers()
    for slide in lesson.slides():
        for kind, piece in slide.pieces:
            if kind == "figure":
                chapter, _cell = piece
                assert (build_paths.ROOT / "book" / f"{chapter}.ipynb").exists(), piece
            else:
                lesson.filled(str(piece), values)  # raises on a name numbers() does not compute
        lesson.filled(slide.notes, values)
    assert not any(word in text for word in PLUMBING if word != "_(")


@pytest.mark.unit
def test_the_numbers_are_the_cores():
    import numpy as np

    from attention_steps.core import projection, scores
    from attention_steps.examples import i_love

    ex = i_love()
    Q, K = projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K)
    values = lesson.numbers()
    assert values["score_love_I"] == lesson._num(scores(Q, K)[1, 0])
    assert values["sqrt_d_k"] == f"{np.sqrt(ex.d_k):.2f}"


@pytest.mark.unit
def test_every_word_of_the_lesson_has_a_chinese_translation():
    table = lesson.catalogue("zh_CN")
    missing = [m for m in lesson.messages(lesson.slides()) if m not in table]
    assert missing == [], f"translate these in {lesson.catalogue_path('zh_CN')}: {missing[:5]}"
    lesson.translated(lesson.slides(), "zh_CN")  # and the cut finds each in place


@pytest.mark.unit
def test_a_slide_without_notes_or_with_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="no speaker notes"):
        lesson.parse("<!-- slide: 60 -->\n## A\n\ntext\n")
    with pytest.raises(ValueError, match="unknown slide kind"):
        lesson.parse("<!-- slide: 60, quiz -->\n## A\n<!-- notes -->\nsay it\n")


# ---------------------------------------------------------------------------------- the built decks
def _deck(lang: str) -> BeautifulSoup:
    return BeautifulSoup((SLIDES / lang / "lesson.html").read_text(encoding="utf-8"), "html.parser")


def _leaves(soup):
    return [s for s in soup.select(".reveal .slides section") if not s.find("section")]


@pytest.mark.book
@pytest.mark.parametrize("lang", LANGS)
def test_the_built_lesson_has_its_timings_notes_goals_and_solutions(lang):
    soup = _deck(lang)
    leaves = _leaves(soup)
    assert 0 < len(leaves) <= MAX_SLIDES
    timings = [s.get("data-timing") for s in leaves]
    assert all(t and t.isdigit() for t in timings), f"slides without data-timing: {timings}"
    minutes = sum(int(t) for t in timings) / 60
    assert MINUTES[0] <= minutes <= MINUTES[1], f"{lang}lesson.html: {minutes:.1f} min"
    assert all(s.select_one("aside.notes") and s.select_one("aside.notes").get_text(strip=True) for s in leaves)
    kinds = [set(s.get("data-lesson", "").split()) for s in leaves]
    parts = [s for s, k in zip(leaves, kinds) if "part" in k]
    assert len(parts) >= 7 and all(s.select_one(".lesson-goal") for s in parts)
    exercises = [i for i, k in enumerate(kinds) if "exercise" in k]
    assert len(exercises) == 2 and all("solution" in kinds[i + 1] for i in exercises)
    # The speaker view shows the notes as written: maths in them is text, not TeX.
    notes = " ".join(a.get_text() for a in soup.select("aside.notes"))
    assert "$" not in notes and "\\" not in notes and "glue" not in notes


@pytest.mark.book
@pytest.mark.parametrize("lang", LANGS)
def test_no_plumbing_code_and_nothing_from_another_host_in_the_lesson(lang):
    soup = _deck(lang)
    for s in _leaves(soup):
        shown = [e.get_text() for e in s.select(".jp-InputArea, pre, code") if not e.find_parent("aside")]
        found = [w for w in PLUMBING for text in shown if w in text]
        assert found == [], f"{lang}lesson.html shows {found}"
    foreign = [
        e.get(a)
        for e in soup.find_all(["script", "link", "img", "iframe", "source"])
        for a in ("src", "href")
        if (e.get(a) or "").startswith(("http:", "https:", "//"))
    ]
    assert foreign == [], f"{lang}lesson.html loads {foreign}"


@pytest.mark.book
def test_the_slides_index_leads_with_the_lesson_in_both_languages():
    for lang in LANGS:
        for folder in (SLIDES / lang, HTML / "slides" / lang):
            soup = BeautifulSoup((folder / "index.html").read_text(encoding="utf-8"), "html.parser")
            first = soup.select_one("li:not(.sheets) > a")
            assert first is not None and first["href"] == "lesson.html", f"{folder}/index.html: {first}"
            assert (folder / "lesson.html").exists()
            assert soup.find("a", href="course.html"), "the whole course stays for reference"


# ------------------------------------------------------------------------------------ in the room
@pytest.mark.parametrize("lang", LANGS)
def test_the_lesson_in_the_room(slides_url, offline_page, lang):
    """Every slide at 1280 × 720: none shrunk below 0.9 or scrolling, nothing cut off inside a box that
    scrolls or clips, no text below 18 px, a title on each, none a quarter full; maths typeset; offline;
    the explorers drawn."""
    deck = f"{lang}lesson"
    p = open_deck(offline_page, slides_url, deck)
    shape = p.page.evaluate(STRUCTURE)
    assert shape["total"] == shape["leaves"] == len(lesson.slides())
    assert shape["empty"] == [] and shape["without_notes"] == []
    math = p.page.evaluate(MATH)
    assert math["typeset"] > 0 and math["errors"] == [], math
    assert p.page.evaluate(RAW_TEX) == []
    slides = p.page.evaluate(WALK)
    assert len(slides) == shape["total"]
    shrunk = [(s["slide"], s["fit"]) for s in slides if s["fit"] < FIT or s["scrolls"]]
    assert shrunk == [], f"{deck}: slides shrunk below {FIT} or scrolling"
    clipped = p.page.evaluate(CLIPPED)
    assert clipped == [], f"{deck}: content cut off inside a box that scrolls or clips: {clipped}"
    small = [(s["slide"], s["smallest"]) for s in slides if s["smallest"]["px"] < SMALLEST_PX]
    assert small == [], f"{deck}: text below {SMALLEST_PX} px"
    assert [s["slide"] for s in slides if not s["title"]] == []
    stubs = [(s["slide"], s["text"]) for s in slides if s["used"] < QUARTER and not s["rich"]]
    assert stubs == [], f"{deck}: slides less than a quarter full: {stubs}"
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_a_presenter_steps_through_the_lesson_with_the_usual_keys(slides_url, offline_page):
    p = open_deck(offline_page, slides_url, "lesson")
    page = p.page
    index = "Reveal.getIndices().h"
    for key, expected in (("PageDown", 1), ("ArrowRight", 2), ("Space", 3), ("PageUp", 2)):
        page.keyboard.press(key)
        page.wait_for_function(f"{index} === {expected}")
    page.keyboard.press("Escape")
    page.wait_for_function("Reveal.isOverview()")
    page.keyboard.press("Escape")
    page.wait_for_function("!Reveal.isOverview()")
    # On an explorer's slide, after a click on its slider, PageDown still goes to the next slide.
    explorer = page.evaluate(
        "Reveal.getHorizontalSlides().findIndex(s => s.querySelector('script[type=\"application/vnd.jupyter.widget-view+json\"]'))"
    )
    assert explorer > 0, "the lesson has no explorer"
    page.evaluate(f"Reveal.slide({explorer})")
    slider = page.locator(".reveal .slides section.present input[type=range]").first
    slider.wait_for()
    slider.click()
    page.keyboard.press("PageDown")
    page.wait_for_function(f"{index} === {explorer + 1}")
    assert p.problems == [] and p.foreign == [], (p.problems, p.foreign)
