"""The teacher's slides: every deck opened in Chromium with the network blocked but for 127.0.0.1.

These tests check the decks the build produced: `scripts/build.sh` (which
scripts/test.sh runs first) builds the book, then every deck with
scripts/build_slides.py and every PDF handout with scripts/build_handouts.py.
Point them at another build with SLIDES_OUT (and BOOK_HTML for the book).

For each deck: no request leaves 127.0.0.1, no page or console error, no
missing file; as many slides as the notebook's slide metadata asks for; math
typeset by MathJax with no raw TeX left; speaker notes on every main slide;
nothing shown on an empty slide; no slide too tall for the frame; the
explorers drawn and responding. Then the
speaker view (the reveal.js notes plugin) opens offline and shows the notes, the
PDF handouts have a page per slide or more, and every chapter page of the book
links to a deck that exists.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_accessibility import AXE, RUN_AXE

from attention_steps.palette import OKABE_ITO, rgb
from conftest import HTML, ROOT, SETTLED, TIMEOUT_MS
from scripts import build_paths

SLIDES = build_paths.SLIDES


def _chapters() -> list[Path]:
    """The chapter notebooks listed in _toc.yml (read independently of the build script)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]
    return [ROOT / f"{f}.ipynb" for f in files if (ROOT / f"{f}.ipynb").exists()]


CHAPTERS = _chapters()
LANGS = ["", "zh_CN/"]  # the English decks' folder, the Chinese decks': "03_scaling", "zh_CN/03_scaling"
DECKS = [lang + name for lang in LANGS for name in [p.stem for p in CHAPTERS] + ["course"]]
CHAPTER_DECKS = [lang + p.stem for lang in LANGS for p in CHAPTERS]


def _slide_type(cell) -> str:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type", "-")


DROPDOWN = re.compile(r"^:::\{dropdown\}.*?^:::[ \t]*$", re.M | re.S)
# An exercise's solution; the page's other dropdowns fold deeper material, in cells the deck skips.
SOLUTION = re.compile(r"^:::\{dropdown\} Solution\b.*?^:::[ \t]*$", re.M | re.S)


def _on_slides(cell) -> bool:
    """Shown in the deck: not skipped, not a note, and not kept off it by `remove-cell` (unless it is
    `slide-only` slide text, written for the deck)."""
    return _slide_type(cell) not in ("skip", "notes") and (
        "remove-cell" not in (tags := cell.get("metadata", {}).get("tags", [])) or "slide-only" in tags
    )


def expected_slides(path: Path) -> int:
    """Slides (reveal's leaf sections) the notebook's metadata asks for: the first shown cell
    opens one, then every `slide` or `subslide` cell; `skip`, `notes` and `remove-cell` cells show nothing
    (but a `slide-only` one: slide text written for the deck, kept off the book's page).
    A dropdown (an exercise's solution) is a slide of its own, unless it opens a cell that opens
    a slide; what follows it on its slide (the rest of its cell, or the next cells up to a new slide)
    goes on one more."""
    cells = json.loads(path.read_text())["cells"]
    shown = [c for c in cells if _on_slides(c)]
    if not shown:
        return 0
    count = 1 + sum(_slide_type(c) in ("slide", "subslide") for c in shown[1:])
    for i, c in enumerate(shown):
        source = "".join(c["source"]) if c["cell_type"] == "markdown" else ""
        found = list(DROPDOWN.finditer(source))
        for k, m in enumerate(found):
            before = source[found[k - 1].end() if k else 0 : m.start()].strip()
            opens = i == 0 or _slide_type(c) in ("slide", "subslide")
            count += 0 if (k == 0 and not before and opens) else 1
        if found:
            after = source[found[-1].end() :].strip()
            nxt = shown[i + 1] if i + 1 < len(shown) else None
            count += 1 if after or (nxt is not None and _slide_type(nxt) not in ("slide", "subslide")) else 0
    return count


def continued_solutions(stem: str, lang: str = "en") -> int:
    """The solutions too long for one slide, which the build continues on a second (scripts/slides/notebook.py's
    solution_parts measures them in the deck's language: their glued numbers are written in only then)."""
    return sum(
        "continued" in c.metadata.get("tags", []) for slide in _slides_of(stem, lang) for part in slide for c in part
    )


def expected(deck: str) -> int:
    """Slides of a deck: the notebook's metadata (a translated deck has the English one's), and the solutions
    continued on a second slide in the deck's language."""
    lang, _, stem = deck.rpartition("/")
    if stem == "course":  # a title slide, then every chapter
        return 1 + sum(expected(f"{lang}/{p.stem}" if lang else p.stem) for p in CHAPTERS)
    return expected_slides(ROOT / "book" / f"{stem}.ipynb") + continued_solutions(stem, lang.rstrip("/") or "en")


# reveal.js has laid the deck out (waited for with page.wait_for_function), then MathJax's queue is empty.
IS_READY = "window.Reveal && Reveal.isReady && Reveal.isReady()"
READY = """async () => {
  if (window.MathJax && MathJax.Hub) await new Promise(r => MathJax.Hub.Queue(r));
  return !!(window.Reveal && Reveal.isReady());
}"""

# Leaf slides (what the audience sees one at a time) and, per main slide, whether it has notes.
STRUCTURE = """() => {
  const main = Reveal.getHorizontalSlides();
  const leaves = main.flatMap(h => { const v = [...h.querySelectorAll(':scope > section')]; return v.length ? v : [h]; });
  const visible = s => {
    const c = s.cloneNode(true);
    c.querySelectorAll('aside.notes, script').forEach(e => e.remove());
    return c.textContent.trim().length > 0 || c.querySelector('img, svg, canvas, .jupyter-widgets, .MathJax_CHTML');
  };
  return {
    total: Reveal.getTotalSlides(),
    leaves: leaves.length,
    empty: leaves.map((s, i) => visible(s) ? null : i + 1).filter(x => x !== null),
    without_notes: main.map((h, i) => [...h.querySelectorAll('aside.notes')].some(a => a.textContent.trim()) ? null : i + 1)
                       .filter(x => x !== null),
  };
}"""

# TeX left in the visible text: everything but code, scripts and the speaker notes
# (the notes plugin shows notes as written; a teacher reads $d_k$ fine).
RAW_TEX = """() => {
  const c = document.querySelector('.reveal .slides').cloneNode(true);
  c.querySelectorAll('script, pre, code, aside.notes, .MathJax_CHTML, .mjx-chtml, .MJX_Assistive_MathML').forEach(e => e.remove());
  const text = c.textContent;
  const found = ['$$', '\\\\frac', '\\\\begin{', '\\\\(', '\\\\[', '\\\\top', '\\\\sqrt'].filter(d => text.includes(d));
  const inline = text.match(/\\$[^$\\s][^$]{0,80}\\$/g) || [];
  return found.concat(inline.slice(0, 5));
}"""

MATH = """() => ({
  typeset: document.querySelectorAll('.reveal .slides .MathJax_CHTML, .reveal .slides .mjx-chtml').length,
  errors: [...document.querySelectorAll('.reveal .mjx-merror, .reveal .MathJax_Error')].map(e => e.textContent.slice(0, 60)),
})"""

# Every widget view the deck holds, rendered by the widget manager into its output area
# (waited for with page.wait_for_function until all are drawn, then counted).
WIDGETS = """() => {
  const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')];
  const drawn = views.filter(s => { const a = s.parentElement.querySelector('.widget-subarea');
                                    return a && a.textContent.trim() + a.querySelectorAll('svg, canvas, img, input').length; });
  return {views: views.length, drawn: drawn.length};
}"""
ALL_WIDGETS_DRAWN = f"(() => {{ const w = ({WIDGETS})(); return w.drawn === w.views; }})()"

# Move every range slider of every explorer to its far end: the drawing must change
# (waiting for the change, for at most `bound` ms: no fixed pause).
SLIDERS_REDRAW = """async (bound) => {
  const areas = [...document.querySelectorAll('.reveal .widget-subarea')].filter(a => a.querySelector('input[type=range]'));
  const stuck = [];
  for (const [i, a] of areas.entries()) {
    const r = a.querySelector('input[type=range]');
    const before = a.innerHTML.replace(/value="[^"]*"/g, '');
    r.value = (r.value === r.max) ? r.min : r.max;
    r.dispatchEvent(new Event('input', {bubbles: true}));
    r.dispatchEvent(new Event('change', {bubbles: true}));
    const same = () => a.innerHTML.replace(/value="[^"]*"/g, '') === before;
    const t0 = performance.now();
    while (same() && performance.now() - t0 < bound) await new Promise(res => setTimeout(res, 20));
    if (same()) stuck.push(i + 1);
  }
  return {sliders: areas.length, stuck};
}"""


# Show every slide in turn at 1280 × 720 (as a teacher steps through them) and measure what the
# back row sees: the smallest text on screen (HTML text: computed size × the scale it is drawn at,
# measured as its box's screen width over its layout width, so reveal's scale and any zoom count;
# SVG text: size × its screen transform), the slide's own zoom (`data-fit`), and its title.
# Math is measured at the size of its main line: MathJax sets sub- and superscripts at 70 %.
# `shot(k)` (a Python callback, optional) takes a screenshot of slide k.
WALK = """async () => {
  Reveal.configure({transition: 'none'});
  const out = [];
  const scaleOf = el => { for (let e = el; e; e = e.parentElement) {
      if (e.offsetWidth > 0) return e.getBoundingClientRect().width / e.offsetWidth; } return 1; };
  const hidden = el => { for (let e = el; e && e.tagName !== 'SECTION'; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return true;
      if (e.tagName === 'DETAILS' && !e.open && e.firstElementChild && e.firstElementChild.tagName === 'SUMMARY'
          && !e.firstElementChild.contains(el)) return true;
    } return false; };
  for (let k = 0; k < Reveal.getTotalSlides(); k++) {
    if (k) Reveal.next();
    while (Reveal.availableFragments().next) Reveal.nextFragment();
    const s = Reveal.getCurrentSlide();
    if (window.MathJax && MathJax.Hub) await new Promise(r => MathJax.Hub.Queue(['Rerender', MathJax.Hub, s], r));
    fitSlide(s);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    let smallest = {px: 1e9, text: ''};
    const walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest('aside.notes, script, style, .MJX_Assistive_MathML') || hidden(el)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      let px;
      if (el instanceof SVGElement) {
        const m = el.getScreenCTM();
        px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
      } else {
        const math = el.closest('.mjx-chtml');
        const sized = math ? math : el;  // math: the size of its main line
        px = parseFloat(getComputedStyle(sized).fontSize) * scaleOf(sized);
      }
      if (px < smallest.px) smallest = {px: Math.round(px * 10) / 10, text: text.slice(0, 40)};
    }
    // The title: a heading that is the first thing on the slide.
    const first = [...s.querySelectorAll('.jp-Cell')].find(c => !hidden(c) && (c.textContent.trim() || c.querySelector('img, svg')));
    const md = first && first.querySelector('.jp-RenderedMarkdown, .jp-RenderedHTMLCommon');
    const top = md && md.firstElementChild;
    const heading = top && /^H[1-3]$/.test(top.tagName) ? top : null;
    const body = [...s.querySelectorAll(':scope > .jp-Cell')].filter(c => !c.querySelector('.celltag_slide-title') && !hidden(c));
    const boxes = body.map(c => c.getBoundingClientRect()).filter(r => r.height > 0);
    const z = Reveal.getScale() * (parseFloat(s.style.zoom) || 1);
    const used = boxes.length ? (Math.max(...boxes.map(r => r.bottom)) - Math.min(...boxes.map(r => r.top))) / z : 0;
    const rich = !!s.querySelector('img, svg, table, pre, .jupyter-widgets, .MJXc-display, ul, ol, .celltag_solution');
    out.push({
      used: Math.round(used), rich,
      slide: k + 1,
      fit: parseFloat(s.getAttribute('data-fit') || '1'),
      scale: Reveal.getScale(),
      scrolls: s.style.overflowY === 'auto',
      smallest,
      title: heading ? heading.textContent.replace('¶', '').trim() : null,
      titleStyle: heading ? [getComputedStyle(heading).fontSize, getComputedStyle(heading).color] : null,
      text: s.textContent.replace(/\\s+/g, ' ').trim().slice(0, 80),
    });
    if (window.shot) await window.shot(k + 1);
  }
  return out;
}"""

# From the back of a room: at 1280 × 720 no text below 18 px, no slide shrunk below 0.85.
SMALLEST_PX, SMALLEST_FIT = 18, 0.85
TITLE_STYLE = (
    "40px",
    "rgb({}, {}, {})".format(*rgb(OKABE_ITO["blue"])),
)  # slides.css: every title one size, one colour
STUB_PX = 150  # a slide whose content under its title is shorter than this, with no figure, table,
# list, code or display math, is a stub: merge it into its neighbour (a solution is a slide of its own)


def open_deck(offline_page, slides_url, deck, **options):
    p = offline_page(viewport={"width": 1280, "height": 720}, **options)
    p.page.goto(f"{slides_url}/{deck}.html", wait_until="load")
    p.page.wait_for_function(IS_READY, timeout=TIMEOUT_MS)
    assert p.page.evaluate(READY), f"{deck}: reveal.js never became ready"
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    return p


@pytest.mark.book
@pytest.mark.parametrize("lang", LANGS)
def test_every_chapter_has_a_deck_and_the_index_lists_them(lang):
    assert CHAPTERS, "no chapter notebooks in _toc.yml"
    folder = SLIDES / lang
    index = (folder / "index.html").read_text() if (folder / "index.html").exists() else ""
    for deck in [p.stem for p in CHAPTERS] + ["course"]:
        assert (folder / f"{deck}.html").exists(), f"no deck {deck}.html in {folder}"
        assert f'href="{deck}.html"' in index, f"{lang}index.html does not list {deck}"
        assert f'href="pdf/{deck}.pdf"' in index, f"{lang}index.html does not list the handout of {deck}"


@pytest.mark.book
def test_the_slides_index_is_in_both_languages_each_linking_to_the_other():
    from bs4 import BeautifulSoup

    for lang, tag, other in (("", "en", "zh_CN/index.html"), ("zh_CN/", "zh-CN", "../index.html")):
        for folder in (SLIDES / lang, HTML / "slides" / lang):
            soup = BeautifulSoup((folder / "index.html").read_text(encoding="utf-8"), "html.parser")
            assert soup.html["lang"] == tag, f"{folder}/index.html: lang={soup.html.get('lang')}"
            assert soup.find("a", href=other), f"{folder}/index.html does not link to the other language's {other}"
            assert (folder / other).exists()
    zh = (SLIDES / "zh_CN" / "index.html").read_text(encoding="utf-8")
    assert "幻灯片" in zh and "PDF 讲义" in zh, "the Chinese index is not in Chinese"


# Any rule of the deck's style sheets that depends on the reader's colour scheme: while there is none,
# the deck looks the same in light and dark, and one audit covers both.
SCHEME_RULES = """() => {
  const found = [];
  const walk = (rules, where) => { for (const r of rules) {
    if (r.media && /prefers-color-scheme/.test(r.media.mediaText)) found.push(`${where}: @media ${r.media.mediaText}`);
    if (r.cssRules) walk(r.cssRules, where);
  } };
  for (const sheet of document.styleSheets) {
    let rules; try { rules = sheet.cssRules; } catch (e) { found.push(`unreadable sheet ${sheet.href}`); continue; }
    walk(rules, sheet.href || 'inline');
  }
  return found;
}"""


# reveal.js's print layout (`?print-pdf`, what the handouts print) lays every slide out at once, one
# page each, its fragments shown; the presenting view hides all slides but the current one, and axe
# skips what is hidden. So one axe run over the print layout audits every slide.
# A page of that layout clips what runs past its bottom (the handouts fit each slide to its page
# first), and axe skips what is clipped: UNCLIP grows every page to hold its whole slide.
PRINT_LAYOUT = "document.querySelectorAll('.reveal .pdf-page').length > 0"
UNCLIP = """() => {
  for (const page of document.querySelectorAll('.reveal .pdf-page')) {
    const slide = page.querySelector(':scope > section');
    const need = slide.offsetTop + slide.scrollHeight;
    if (need > page.clientHeight) page.style.height = `${need}px`;
  }
}"""


def open_print_layout(offline_page, slides_url, deck, **options):
    p = offline_page(viewport={"width": 1280, "height": 720}, **options)
    p.page.goto(f"{slides_url}/{deck}.html?print-pdf", wait_until="load")
    p.page.wait_for_function(PRINT_LAYOUT, timeout=TIMEOUT_MS)
    p.page.wait_for_function(ALL_WIDGETS_DRAWN, timeout=TIMEOUT_MS)
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    p.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return p


def audit_deck(p, offline_page, slides_url, deck: str, **options) -> None:
    """axe on the deck as it opens in `p` (the first slide and the page's own parts: controls,
    progress bar), then on every slide at once in its print layout, opened with `options`."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: scripts/vendor_assets.py copies it from node_modules/axe-core")
    p.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    violations = p.page.evaluate(RUN_AXE)
    assert violations == [], f"{deck}:\n" + "\n".join(violations)
    if deck.endswith("course"):  # the course deck repeats the chapters' slides
        return
    printed = open_print_layout(offline_page, slides_url, deck, **options)
    printed.page.evaluate(UNCLIP)
    violations = printed.page.evaluate(RUN_AXE)
    assert violations == [], f"{deck}, print layout:\n" + "\n".join(violations)
    assert printed.problems == [] and printed.foreign == [], (printed.problems, printed.foreign)


# A paragraph in a pale colour (the code boxes' background, --ase-slide-code) appended to every slide of the print
# layout: the audit must find each one.
CANARIES = """() => {
  const sections = [...document.querySelectorAll('.reveal .pdf-page > section')];
  sections.forEach((s, i) => { const p = document.createElement('p'); p.className = `canary-${i}`;
    p.textContent = 'canary'; p.style.color = 'var(--ase-slide-code)'; s.appendChild(p); });
}"""
FOUND_CANARIES = """async () => {
  const sections = document.querySelectorAll('.reveal .pdf-page > section');
  const result = await axe.run(document, {runOnly: ['color-contrast']});
  const found = new Set(result.violations.flatMap(v => v.nodes.map(n => n.target.join(' ')))
    .flatMap(t => (t.match(/canary-\\d+/g) || [])));
  return {slides: sections.length, found: found.size};
}"""


def test_one_audit_of_the_print_layout_sees_every_slide(slides_url, offline_page):
    """What makes one audit per deck enough: every slide is in the print layout, and axe audits each
    (a low-contrast line put on every slide is found on every slide)."""
    deck = "03_scaling"  # the deck with the most slides and explorers
    printed = open_print_layout(offline_page, slides_url, deck)
    printed.page.evaluate(CANARIES)  # at the end of each slide: below the page's bottom on the longest ones
    printed.page.evaluate(UNCLIP)
    seen = printed.page.evaluate(FOUND_CANARIES)
    assert seen["slides"] >= expected(deck), f"{deck}: {seen['slides']} slides in the print layout"
    assert seen["found"] == seen["slides"], f"axe saw {seen['found']} of {seen['slides']} slides"


@pytest.mark.parametrize("deck", DECKS)
def test_deck_in_the_room(slides_url, offline_page, deck):
    """One visit of a deck at 1280 × 720 serves every check of it: offline and complete (no request
    leaves 127.0.0.1, every slide the notebook asks for, notes on every main slide, maths typeset, the
    explorers drawn and redrawing), readable from the back of the room (every slide titled, no text
    below 18 px, none shrunk below 0.85 or scrolling, no stub), and accessible (axe on every slide,
    in the reader's light scheme, and in dark too as soon as a style sheet depends on the scheme)."""
    p = open_deck(offline_page, slides_url, deck)
    try:
        p.page.wait_for_function(ALL_WIDGETS_DRAWN, timeout=TIMEOUT_MS)
    except PlaywrightTimeout:
        pass  # the assertion below says how many are missing
    widgets = p.page.evaluate(WIDGETS)
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)  # the explorers' fonts and images too
    assert p.foreign == [], f"{deck} asked other hosts for: {p.foreign}"
    assert p.problems == [], f"{deck}: {p.problems}"

    shape = p.page.evaluate(STRUCTURE)
    assert shape["total"] == shape["leaves"] == expected(deck), (
        f"{deck}: {shape['total']} slides, but the notebook's slide metadata asks for {expected(deck)}"
    )
    assert shape["empty"] == [], f"{deck}: slides {shape['empty']} show nothing (a hidden cell opened them?)"
    assert shape["without_notes"] == [], f"{deck}: main slides {shape['without_notes']} have no speaker notes"

    math = p.page.evaluate(MATH)
    assert math["typeset"] > 0, f"{deck}: no math typeset by MathJax"
    assert math["errors"] == [], f"{deck}: MathJax could not typeset {math['errors']}"
    assert p.page.evaluate(RAW_TEX) == [], f"{deck} shows unrendered TeX"
    assert widgets["drawn"] == widgets["views"], f"{deck}: {widgets['views'] - widgets['drawn']} explorers not drawn"

    audit_deck(p, offline_page, slides_url, deck)
    if not deck.endswith("course"):  # the course deck repeats the chapters' slides
        slides = p.page.evaluate(WALK)
        assert len(slides) == expected(deck)
        small = [(s["slide"], s["smallest"]) for s in slides if s["smallest"]["px"] < SMALLEST_PX]
        assert small == [], f"{deck}: text below {SMALLEST_PX} px on screen at 1280 × 720 (slide, size, text)"
        shrunk = [(s["slide"], s["fit"]) for s in slides if s["fit"] < SMALLEST_FIT or s["scrolls"]]
        assert shrunk == [], f"{deck}: slides shrunk below {SMALLEST_FIT} or scrolling: split or lay them out"
        untitled = [s["slide"] for s in slides if not s["title"]]
        assert untitled == [], f"{deck}: slides {untitled} open with no title"
        styles = {tuple(s["titleStyle"]) for s in slides}
        assert styles == {TITLE_STYLE}, f"{deck}: titles in {styles}, not one size and colour"
        stubs = [(s["slide"], s["text"]) for s in slides if s["used"] < STUB_PX and not s["rich"]]
        assert stubs == [], f"{deck}: near-empty slides (merge them into a neighbour): {stubs}"

    if widgets["views"]:
        redraw = p.page.evaluate(SLIDERS_REDRAW, TIMEOUT_MS)
        assert redraw["stuck"] == [], f"{deck}: explorers {redraw['stuck']} did not redraw when their slider moved"
    assert p.problems == [], f"{deck} after using its explorers: {p.problems}"

    if p.page.evaluate(SCHEME_RULES):  # the deck changes with the reader's scheme: audit it in dark too
        dark = open_deck(offline_page, slides_url, deck, color_scheme="dark")
        dark.page.wait_for_function(ALL_WIDGETS_DRAWN, timeout=TIMEOUT_MS)
        audit_deck(dark, offline_page, slides_url, deck, color_scheme="dark")
        assert dark.problems == [] and dark.foreign == [], (dark.problems, dark.foreign)


def test_the_decks_look_the_same_in_light_and_dark_until_a_style_sheet_says_otherwise(slides_url, offline_page):
    """The check test_deck_in_the_room relies on to audit a deck once: it sees a scheme rule."""
    p = open_deck(offline_page, slides_url, CHAPTER_DECKS[0])
    assert p.page.evaluate(SCHEME_RULES) == [], "a deck style sheet depends on the scheme (the dark audit runs)"
    p.page.add_style_tag(content="@media (prefers-color-scheme: dark) { .reveal { color: white; } }")
    assert p.page.evaluate(SCHEME_RULES), "SCHEME_RULES does not see a prefers-color-scheme rule"


def test_speaker_view_opens_offline_with_the_notes(slides_url, offline_page):
    deck = DECKS[0]
    p = open_deck(offline_page, slides_url, deck)
    popups = []
    p.context.on("page", lambda page: page.on("pageerror", lambda e: popups.append(f"speaker view: {e}")))
    with p.context.expect_page(timeout=TIMEOUT_MS) as info:
        p.page.keyboard.press("s")
    view = info.value
    # The notes plugin writes the speaker view into an about:blank popup with
    # document.write and never closes the document, so whether the popup ever
    # reports "load" is a race (lost on a busy machine, where the test flaked).
    # Wait for what it shows instead: the notes, then both slide previews loaded.
    view.wait_for_function(
        "document.querySelector('.speaker-controls-notes') && document.querySelector('.speaker-controls-notes').innerText.trim().length > 5",
        timeout=TIMEOUT_MS,
    )
    notes = view.evaluate("document.querySelector('.speaker-controls-notes').innerText")
    first = p.page.evaluate("Reveal.getCurrentSlide().querySelector('aside.notes').textContent.trim()")
    assert first.split()[0] in notes, f"speaker view shows {notes[:80]!r}, not the slide's notes {first[:80]!r}"
    view.wait_for_function(
        "document.querySelectorAll('#current-slide iframe, #upcoming-slide iframe').length === 2", timeout=TIMEOUT_MS
    )
    frames = [f for f in view.frames if f.url.startswith("http")]
    assert len(frames) == 2 and all(f.url.startswith(slides_url) for f in frames), (
        f"speaker view frames: {[f.url for f in frames]}"
    )
    for frame in frames:  # the current and the upcoming slide: the deck itself, in iframes that load normally
        frame.wait_for_load_state("load", timeout=TIMEOUT_MS)
        frame.wait_for_function(IS_READY, timeout=TIMEOUT_MS)
    assert p.foreign == [] and p.problems == [] and popups == [], (p.foreign, p.problems, popups)


def _pdf_pages(path: Path) -> int:
    """Pages in a PDF (its page tree, as pypdf reads it)."""
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


@pytest.mark.book
@pytest.mark.parametrize("deck", DECKS)
def test_handout_has_a_page_per_slide(deck):
    folder, _, stem = deck.rpartition("/")
    pdf = SLIDES / folder / "pdf" / f"{stem}.pdf"
    assert pdf.exists(), f"no handout {pdf}: run python -m scripts.build_handouts"
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert _pdf_pages(pdf) >= expected(deck), f"{deck}.pdf has {_pdf_pages(pdf)} pages for {expected(deck)} slides"


@pytest.mark.book
@pytest.mark.parametrize("lang", LANGS)
def test_the_book_carries_the_decks_its_chapters_link_to(lang):
    """Every chapter page links to its deck and handout in the page's language, and the built site has both."""
    pages = [HTML / lang / "book" / f"{p.stem}.html" for p in CHAPTERS]
    if not all(page.exists() for page in pages):
        pytest.skip(f"the whole book is not built in {HTML / lang}")
    up = "../" * lang.count("/")  # a translated edition's pages are one folder further from the slides
    for page in pages:
        links = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("p.slides-link")
        assert links, f"{page.name} has no link to its slides"
        targets = [a["href"] for a in links.find_all("a", href=True)]
        assert f"{up}../slides/{lang}{page.stem}.html" in targets, f"{lang}{page.name} links to {targets}"
        for target in targets:
            assert (page.parent / target).resolve().exists(), f"{page.name} links to {target}, which is missing"


# --------------------------------------------------------------------------- structure, from the notebooks
@functools.cache
def _slides_of(stem: str, lang: str = "en"):
    """The chapter as its deck is made (scripts/slides/notebook.py), cut into slides -> parts -> cells."""
    from scripts import build_slides
    from scripts.slides.notebook import shown, slide_type

    nb, _ = build_slides.executed(ROOT / "book" / f"{stem}.ipynb")
    nb = build_slides.in_language(nb, lang, stem)
    decks = {p.stem for p in CHAPTERS}
    nb = build_slides.for_slides(nb, stem, decks, *build_slides.titles_and_labels(build_slides.documents()), lang=lang)
    slides, parts = [], None
    for cell in nb.cells:
        if not shown(cell) and slide_type(cell) != "notes":
            continue
        if parts is None or (slide_type(cell) == "slide" and any(slide_type(c) != "notes" for p in parts for c in p)):
            parts = [[]]
            slides.append(parts)
        elif slide_type(cell) == "subslide":
            parts.append([])
        parts[-1].append(cell)
    return slides


def _is_solution(part) -> bool:
    return any("solution" in c.metadata.get("tags", []) for c in part)


@pytest.mark.parametrize("stem", [p.stem for p in CHAPTERS])
def test_each_part_of_a_split_slide_has_its_own_notes_and_each_solution_is_a_slide_of_its_own(stem):
    """Every part of a slide has notes of its own, but a solution's slide (the exercise's notes say how to
    set it, the solution is on the slide); a solution is never a dropdown, always a slide of its own with
    its title and nothing else (once: 03's "Solution 3.1" opened below the frame; 01, 02 and 08 had
    their solutions skipped)."""
    from scripts.slides.notebook import slide_type

    solutions = 0
    for k, parts in enumerate(_slides_of(stem), 1):
        notes = ["\n".join(c.source for c in part if slide_type(c) == "notes") for part in parts]
        assert all(n for n, part in zip(notes, parts) if not _is_solution(part)), (
            f"{stem} slide {k}: a part has no notes"
        )
        assert len(set(n for n in notes if n)) == len([n for n in notes if n]), f"{stem} slide {k}: parts repeat notes"
        for j, part in enumerate(parts, 1):
            body = [c for c in part if slide_type(c) != "notes" and "slide-title" not in c.metadata.get("tags", [])]
            assert not any("<details>" in c.source for c in body), f"{stem} slide {k} part {j}: a dropdown"
            if _is_solution(part):
                solutions += 1
                assert len(body) == 1 and "solution" in body[0].metadata.get("tags", []), (
                    f"{stem} slide {k} part {j}: a solution shares its slide with {[c.source[:40] for c in body]}"
                )
                title = next(c.source for c in part if "slide-title" in c.metadata.get("tags", []))
                assert re.match(r"## Solution \d+\.\d+( \(continued\))?$", title), (
                    f"{stem} slide {k} part {j} is titled {title!r}"
                )
                solutions -= "(continued)" in title
    written = len(
        SOLUTION.findall(
            "\n".join("".join(c["source"]) for c in json.loads((ROOT / "book" / f"{stem}.ipynb").read_text())["cells"])
        )
    )
    assert solutions == written, f"{stem}: {written} solutions in the chapter, {solutions} on slides"


@pytest.mark.book
def test_decks_link_only_to_what_is_there_and_other_chapters_by_title():
    """Every relative link of every deck, in the standalone folder and in the book's copy, exists;
    a link to another chapter shows its title, not its file name."""
    stems = {p.stem for p in CHAPTERS} | {"intro"}
    for folder in (SLIDES, HTML / "slides"):
        if not folder.exists():
            continue
        for deck in DECKS:
            path = folder / f"{deck}.html"
            anchors = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").find_all("a")
            hrefs = [urlsplit(a["href"]) for a in anchors if a.has_attr("href")]
            for target in {h.path for h in hrefs if not h.scheme and not h.netloc and h.path}:
                assert (path.parent / target).exists(), (
                    f"{folder.name}/{deck}.html links to {target}, which is not there"
                )
            texts = [a.get_text() for a in anchors]
            assert not stems & set(texts), f"{deck}: link text is a file name: {stems & set(texts)}"
    # A link to a page with no deck (the intro, the glossary, the appendix) stays a link to the book's page.
    no_deck = re.compile(r"\{doc\}`(?:[^`]*<)?(intro|glossary|sources)>?`")
    for path in CHAPTERS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        on_slides = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown" and _on_slides(c))
        if no_deck.search(on_slides):
            assert "data-book=" in (SLIDES / f"{path.stem}.html").read_text(), f"{path.stem}: the book link became text"


# --------------------------------------------------------------------------- numbers in the speaker notes
def _notes(stem: str) -> str:
    cells = json.loads((ROOT / "book" / f"{stem}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if _slide_type(c) == "notes")


# A number in a speaker note cannot be glued: each one that states a result is checked here against the
# core. Exercise and chapter numbers ("3.2", "chapter 11") and shapes are not results.
NOTE_NUMBER = re.compile(r"(?<![\w.^_{(−-])(\d+\.\d+|\d+(?:,\d{3})+|\d{2,})(?: ?%| percent)?(?![\w.)}])")
EXERCISE = re.compile(r"\b[Ee]xercises? \Z")  # "exercise 3.1's new query" in chapter 4: another chapter's exercise


def _checked_note_numbers() -> dict[str, set[str]]:
    import numpy as np

    from attention_steps.core import projection, scale, scores, softmax
    from attention_steps.examples import i_love
    from attention_steps.exercises import solution
    from attention_steps.exercises.ch11 import EX_SCORES
    from attention_steps.explorers.data import TEMPERATURES

    e = i_love()
    Q, K = projection(e.X, e.W_Q), projection(e.X, e.W_K)
    A = softmax(scale(scores(Q, K), Q.shape[-1]))
    a, b = (f"{x:.2f}" for x in A[0])
    assert (a, b) == ("0.64", "0.36"), "chapter 5's notes: the 'I' row of the I-love weights"
    pct = [f"{round(100 * x)} percent" for x in A[0]]
    f32, f16 = (np.log(float(np.finfo(t).max)) for t in (np.float32, np.float16))
    assert (f"{f32:.1f}", f"{f16:.1f}") == ("88.7", "11.1"), "chapter 4's notes: where exp overflows"
    assert (min(TEMPERATURES), max(TEMPERATURES)) == (0.05, 20.0), "chapter 4's notes: the temperature slider's range"
    assert solution("11.3") == 1024, "chapter 11's notes: exercise 11.3's number of tiles"
    assert list(EX_SCORES) == [2.0, 1.0, 4.0, 3.0], "chapter 11's notes: 11.1 by hand (e^0 + e^(1-2), max 2 then 4)"
    from attention_steps.explorers.data import heads_states
    from attention_steps.heads import head_width, small_layer

    assert head_width(512, 8) == 64, "chapter 6's notes: the source articles' 512 x 64 W_Q of one head"
    layer = small_layer(d_model=16, num_heads=1)
    assert max(heads_states(layer.tokens, layer.X, layer.W_Q, layer.W_K, layer.W_V)["head_counts"]) == 16
    return {
        "03_scaling": {"1024", "64"},  # the d_k slider's ends and the d_k of the strategy slides (glued there)
        "04_softmax": {"88.7", "11.1", "0.05", "20"},
        "05_weighted_sum": {a, b, *pct},
        "06_multi_head": {"512", "64", "16"},  # the source articles' W_Q; the heads slider's end
        "11_long_context": {"1024"},
    }


def test_every_number_in_a_speaker_note_is_checked_against_the_core():
    checked = _checked_note_numbers()
    for path in CHAPTERS:
        chapter = int(path.stem[:2])
        notes = _notes(path.stem)
        found = {m.group(0) for m in NOTE_NUMBER.finditer(notes) if not EXERCISE.search(notes[: m.start()])}
        results = {n for n in found if not re.fullmatch(rf"{chapter}\.\d|\d{{1,2}}", n) and n not in {"11"}}
        unchecked = results - checked.get(path.stem, set())
        assert unchecked == set(), f"{path.stem}: numbers in speaker notes with no check against the core: {unchecked}"


def test_the_walk_through_notes_follow_the_core():
    """Chapter 11's notes walk the online softmax over the slide's scores: maxima 3, 5, 5; rescale e^(3-5), then 1."""
    import numpy as np

    from attention_steps.tiled import online_softmax_steps

    source = json.loads((ROOT / "book" / "11_long_context.ipynb").read_text())
    code = next(
        "".join(c["source"])
        for c in source["cells"]
        if "steps = online_softmax_steps(s, v, block_size=2)" in "".join(c["source"])
    )
    s = np.array(eval(re.search(r"s = np\.array\((\[[^\]]*\])\)", code).group(1)))  # the slide's literal scores
    steps = online_softmax_steps(s, np.arange(1.0, 7.0)[:, None], block_size=2)
    assert [st.m for st in steps] == [3.0, 5.0, 5.0]
    assert steps[0].l == pytest.approx(np.exp(1 - 3) + np.exp(0))
    assert steps[1].rescale == pytest.approx(np.exp(3 - 5)) and steps[2].rescale == 1.0
    notes = _notes("11_long_context")
    assert "m from −∞ to 3; ℓ = e^{1−3} + e^{0}" in notes and "new max 5" in notes and "e^{3−5}" in notes


# --------------------------------------------------------------------------- an explorer in front of a class
# The slide of the deck's first explorer slider, shown, with the widget drawn: its (h, v).
TO_SLIDER = """() => {
  const r = document.querySelector('.reveal .slides input[type=range]');
  r.setAttribute('data-test-slider', '');
  const slide = r.closest('section');
  const i = Reveal.getIndices(slide);
  Reveal.slide(i.h, i.v);
  return i;
}"""
INDICES = "() => Reveal.getIndices()"
MOVED = "(before) => { const i = Reveal.getIndices(); return i.h !== before.h || (i.v || 0) !== (before.v || 0); }"
# Where the focus is: in the current slide, in another slide (a hidden one), or outside the slides.
FOCUS_IS = """() => {
  const a = document.activeElement, s = a && a.closest('.reveal .slides section');
  if (!s) return 'outside';
  return (s === Reveal.getCurrentSlide() || s.contains(Reveal.getCurrentSlide()) || Reveal.getCurrentSlide().contains(a))
    ? 'current' : 'other';
}"""


def _slider_slide(p):
    p.page.wait_for_function(ALL_WIDGETS_DRAWN, timeout=TIMEOUT_MS)
    p.page.wait_for_function("document.querySelector('.reveal .slides input[type=range]')", timeout=TIMEOUT_MS)
    at = p.page.evaluate(TO_SLIDER)
    p.page.wait_for_function("(at) => Reveal.getIndices().h === at.h", arg=at, timeout=TIMEOUT_MS)
    slider = p.page.locator("[data-test-slider]")
    slider.wait_for(state="visible", timeout=TIMEOUT_MS)
    return at, slider


@pytest.mark.parametrize("deck", ["03_scaling", "zh_CN/03_scaling"])
def test_a_presenter_keeps_the_deck_s_keys_after_using_an_explorer(slides_url, offline_page, deck):
    """Once: after a click on an explorer's slider, PageDown moved the slider back (03: 8 → 7) and the
    slide stayed; → and Space moved it too, Esc did nothing. In a deck those keys go to reveal.js, the
    slider moves with ↑/↓ and +/− and says so, and Tab never leaves the current slide for a hidden one."""
    from scripts.chrome import _, language  # the decks' own words

    p = open_deck(offline_page, slides_url, deck)
    for key in ("PageDown", "Space", "ArrowRight"):
        at, slider = _slider_slide(p)
        slider.click()
        value = slider.input_value()
        p.page.keyboard.press(key)
        try:
            p.page.wait_for_function(MOVED, arg=at, timeout=TIMEOUT_MS)
        except PlaywrightTimeout:
            pytest.fail(f"{deck}: {key} on a clicked slider left the slide at {p.page.evaluate(INDICES)}")
        assert slider.input_value() == value, f"{deck}: {key} moved the slider ({value} → {slider.input_value()})"

    at, slider = _slider_slide(p)
    slider.click()
    p.page.keyboard.press("Escape")
    p.page.wait_for_function("Reveal.isOverview()", timeout=TIMEOUT_MS)
    p.page.keyboard.press("Escape")
    p.page.wait_for_function("!Reveal.isOverview()", timeout=TIMEOUT_MS)

    at, slider = _slider_slide(p)
    slider.focus()
    low = int(slider.get_attribute("min"))
    p.page.evaluate(
        "(low) => { const r = document.querySelector('[data-test-slider]');"
        " r.value = low; r.dispatchEvent(new Event('input', {bubbles: true})); }",
        low,
    )
    for key, want in (("ArrowUp", low + 1), ("+", low + 2), ("-", low + 1), ("ArrowDown", low)):
        p.page.keyboard.press(key)
        assert int(slider.input_value()) == want, f"{deck}: {key} left the slider at {slider.input_value()}, not {want}"
    assert p.page.evaluate(MOVED, at) is False, f"{deck}: moving the slider changed the slide"
    with language("en" if "/" not in deck else deck.split("/")[0]):
        says = _(
            "In the slides, ↑ and ↓ (or + and −) move this slider; Page Down, Space and → go to the next slide, "
            "Esc opens the overview."
        )
    assert slider.get_attribute("aria-description") == says != "", f"{deck}: the slider does not say its keys"
    if "/" in deck:
        assert says.startswith("在幻灯片中"), "the Chinese deck's slider speaks English"

    # Tab from the slide's first control: never onto another slide's (it had taken 21 to 29+ Tabs,
    # through the hidden neighbours, to come back)
    p.page.evaluate("Reveal.getCurrentSlide().querySelector('input, button, a[href], select').focus()")
    seen = []
    for _k in range(40):
        seen.append(p.page.evaluate(FOCUS_IS))
        p.page.keyboard.press("Tab")
    assert "other" not in seen, f"{deck}: Tab reached a control of another slide ({seen})"
    focus = p.page.evaluate(
        "() => { const r = document.querySelector('[data-test-slider]'); r.focus();"
        " const s = getComputedStyle(r); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert focus[0] != "none" and focus[1] >= 2, f"{deck}: a focused slider shows no focus ring ({focus})"
    assert p.problems == [] and p.foreign == [], (p.problems, p.foreign)


# --------------------------------------------------------------------------- the speaker notes as written
def _notes_lines() -> list[tuple[str, str]]:
    """(where, text) of every speaker note, in English (the notebooks) and in Chinese (notes/*.po)."""
    from attention_steps.i18n import read_po
    from scripts.translate_notebook import is_notes, messages

    found = [(p.stem, line) for p in CHAPTERS for line in _notes(p.stem).splitlines() if line.strip()]
    for po in sorted((ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "notes").glob("*.po")):
        # the catalogue holds the deck's slide-only text too (slide text, typeset like the page's): only the notes'
        cells = json.loads((ROOT / "book" / f"{po.stem}.ipynb").read_text())["cells"]
        said = {
            m.msgid
            for c in cells
            if c["cell_type"] == "markdown" and is_notes(c)
            for m in messages("".join(c["source"]))
        }
        found += [
            (f"zh_CN/{po.name}", msgstr) for msgid, (msgstr, _fuzzy) in read_po(po).items() if msgstr and msgid in said
        ]
    return found


def test_the_notes_write_their_maths_as_text_and_speak_no_build_word():
    """Once: the speaker view read "row of is token 's output": a note's $i$ and $Z_{\\text{cat}}$ became
    MathJax output that the speaker view cannot show. The notes write maths as text (Z_cat, √d_k, Kᵀ), in
    both languages, and the decks keep MathJax off them. "glued" is the build's word, not the teacher's: a
    note says "the numbers on the slide"."""
    tex = [(w, t[:70]) for w, t in _notes_lines() if re.search(r"\$|\\[a-zA-Z]+|\\\(|\\\[", t)]
    assert tex == [], f"notes with TeX (write it as text, e.g. Z_cat, √d_k): {tex}"
    glued = [(w, t[:70]) for w, t in _notes_lines() if re.search(r"\bglu(e|ed|ing)\b", t, re.I)]
    assert glued == [], f"notes that say 'glued' (say 'the numbers on the slide'): {glued}"
    deck = (SLIDES / "06_multi_head.html").read_text(encoding="utf-8")
    assert 'ignoreClass: "tex2jax_ignore|notes"' in deck, "MathJax typesets the notes the speaker view shows"


@pytest.mark.parametrize("deck", ["06_multi_head", "zh_CN/06_multi_head"])
def test_the_speaker_view_shows_a_notes_maths_and_scrolls_long_notes(slides_url, offline_page, deck):
    """The note of 06's concatenation slide reads "row i of Z_cat is token i's output" in the speaker view;
    notes longer than their pane scroll inside it, under the timer, and each slide's start at the top."""
    p = open_deck(offline_page, slides_url, deck)
    at = p.page.evaluate(
        """() => { const a = [...document.querySelectorAll('aside.notes')].find(n => n.textContent.includes('Z_cat'));
                   const s = a.closest('section'); const i = Reveal.getIndices(s); Reveal.slide(i.h, i.v);
                   return a.textContent.trim(); }"""
    )
    with p.context.expect_page(timeout=TIMEOUT_MS) as info:
        p.page.keyboard.press("s")
    view = info.value
    notes = "document.querySelector('.speaker-controls-notes')"
    view.wait_for_function(f"{notes} && {notes}.innerText.includes('Z_cat')", timeout=TIMEOUT_MS)
    shown = " ".join(view.evaluate(f"{notes}.innerText").split())
    if "/" not in deck:
        assert "row i of Z_cat is token i's output" in shown, f"the speaker view reads {shown[:160]!r}"
    words = [w for w in re.findall(r"[\w']+", " ".join(at.split())) if len(w) > 1]
    assert all(w in shown for w in words), f"the speaker view lost words of the note: {shown[:160]!r}"

    view.set_viewport_size({"width": 1100, "height": 460})  # a small window: the longest note overflows
    view.wait_for_function("document.getElementById('deck-speaker-css')", timeout=TIMEOUT_MS)
    p.page.evaluate(
        """() => { let best = null, n = 0;
                   for (const s of document.querySelectorAll('.reveal .slides section')) {
                     if (s.querySelector('section')) continue;
                     const t = [...s.querySelectorAll('aside.notes')].map(a => a.textContent).join(' ');
                     if (t.length > n) { n = t.length; best = s; } }
                   const i = Reveal.getIndices(best); Reveal.slide(i.h, i.v); }"""
    )
    longest = p.page.evaluate(
        "Reveal.getCurrentSlide().querySelector('aside.notes').textContent.trim().split(/\\s+/)[0]"
    )
    view.wait_for_function(f"{notes}.innerText.includes({json.dumps(longest)})", timeout=TIMEOUT_MS)
    pane = view.evaluate(
        f"""() => {{ const n = {notes}, c = document.querySelector('#speaker-controls');
                    const timer = document.querySelector('.speaker-controls-time').getBoundingClientRect().top;
                    const over = n.scrollHeight > n.clientHeight + 4;
                    n.scrollTop = n.scrollHeight;
                    return {{over, scrolled: n.scrollTop > 0, overflow: getComputedStyle(n).overflowY,
                            timer_stays: document.querySelector('.speaker-controls-time').getBoundingClientRect().top === timer
                                         && c.scrollTop === 0}}; }}"""
    )
    assert pane == {"over": True, "scrolled": True, "overflow": "auto", "timer_stays": True}, pane
    p.page.evaluate("Reveal.prev()")  # the next notes start at their top
    view.wait_for_function(f"{notes}.scrollTop === 0", timeout=TIMEOUT_MS)
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_every_slide_has_a_pacing_time_and_the_speaker_view_paces(slides_url, offline_page):
    """Once: reveal's pacing timer ("time to finish current slide") needs each slide's data-timing.
    A slide takes what its notes take to say, more where the room computes an exercise."""
    p = open_deck(offline_page, slides_url, "03_scaling")
    timings = p.page.evaluate(
        """() => [...document.querySelectorAll('.reveal .slides section')].filter(s => !s.querySelector('section'))
                 .map(s => ({t: s.getAttribute('data-timing'), check: /\\bcheck\\(/.test(s.textContent),
                             notes: [...s.querySelectorAll('aside.notes')].map(a => a.textContent).join(' ').length}))"""
    )
    assert len(timings) == expected("03_scaling")
    assert all(t["t"] is not None and 30 <= int(t["t"]) <= 480 for t in timings), timings
    exercises = [int(t["t"]) for t in timings if t["check"]]
    assert exercises and min(exercises) >= 120, f"an exercise slide gets too little time: {exercises}"
    longest, shortest = max(timings, key=lambda t: t["notes"]), min(timings, key=lambda t: t["notes"])
    assert int(longest["t"]) > int(shortest["t"]) or longest["check"] != shortest["check"]
    with p.context.expect_page(timeout=TIMEOUT_MS) as info:
        p.page.keyboard.press("s")
    view = info.value
    view.wait_for_function(
        "document.querySelector('.pacing') && getComputedStyle(document.querySelector('.pacing')).display !== 'none'",
        timeout=TIMEOUT_MS,
    )
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


DARK = "document.documentElement.classList.contains('ase-dark')"
PAPER = "getComputedStyle(document.querySelector('.reveal-viewport')).backgroundColor"


@pytest.mark.parametrize("deck", ["03_scaling", "zh_CN/11_long_context"])
def test_a_dark_theme_for_rooms_where_white_glares(slides_url, offline_page, deck):
    """d switches a deck to its dark theme and back, this browser remembers it, ?theme=dark opens a
    deck in it, the handouts' print layout stays light; and axe finds every slide readable in it
    (the print layout asked for dark audits all of them at once)."""
    from attention_steps.palette import SLIDES, SLIDES_DARK, rgb

    def css(hex_colour: str) -> str:
        return "rgb({}, {}, {})".format(*rgb(hex_colour))

    p = open_deck(offline_page, slides_url, deck)
    assert not p.page.evaluate(DARK) and p.page.evaluate(PAPER) == css(SLIDES["slide-paper"])
    p.page.keyboard.press("d")
    p.page.wait_for_function(DARK, timeout=TIMEOUT_MS)
    assert p.page.evaluate(PAPER) == css(SLIDES_DARK["slide-paper"])
    again = p.page.context.new_page()  # the same browser: it remembers
    again.goto(f"{slides_url}/{deck}.html", wait_until="load")
    again.wait_for_function(IS_READY, timeout=TIMEOUT_MS)
    assert again.evaluate(DARK), "a deck opened again forgot the dark theme"
    again.goto(f"{slides_url}/{deck}.html?print-pdf", wait_until="load")
    again.wait_for_function(PRINT_LAYOUT, timeout=TIMEOUT_MS)
    assert not again.evaluate(DARK), "the handouts' print layout turned dark"
    again.close()
    p.page.keyboard.press("d")
    p.page.wait_for_function(f"!({DARK})", timeout=TIMEOUT_MS)

    q = offline_page(viewport={"width": 1280, "height": 720})
    q.page.goto(f"{slides_url}/{deck}.html?print-pdf&theme=dark", wait_until="load")
    q.page.wait_for_function(PRINT_LAYOUT, timeout=TIMEOUT_MS)
    q.page.wait_for_function(ALL_WIDGETS_DRAWN, timeout=TIMEOUT_MS)
    q.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    assert q.page.evaluate(DARK)
    q.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    q.page.evaluate(UNCLIP)
    violations = q.page.evaluate(RUN_AXE)
    assert violations == [], f"{deck} in the dark theme:\n" + "\n".join(violations)
    assert q.problems == [] and q.foreign == [], (q.problems, q.foreign)
