"""The book on a phone (375 px wide), in Chromium with every other host blocked.

On a phone, chapter 3's histogram legend and four-panel figure and chapter 6's head
maps were unreadable, and chapter 6's concat equation ran off the right edge. So:

- no element of any page reaches past the right edge of the screen, unless it sits in a box
  that scrolls sideways inside the screen (wide display maths, tables, matrices); display
  maths that scrolls is marked (a shadow at its edge) and takes keyboard focus;
- every figure drawn narrower than its picture has an "Enlarge figure" button; the button (by
  keyboard: Enter, then Escape; by touch: a tap on the figure, then Close) opens a dialog
  showing the picture with its smallest labels at 11 px or more, and focus comes back to
  the button.

Every wait is for a condition, with an explicit bound (TIMEOUT_MS).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import BOOK, HTML, MATH_DONE, TIMEOUT_MS

PHONE = {"width": 375, "height": 740}
PAGES = sorted(f"book/{p.name}" for p in (HTML / "book").glob("*.html")) if (HTML / "book").exists() else []
# The Chinese edition's twins (its header holds a longer switch, "English"; its lines break differently)
ZH_PAGES = (
    sorted(f"zh_CN/book/{p.name}" for p in (HTML / "zh_CN" / "book").glob("*.html"))
    if (HTML / "zh_CN").exists()
    else []
)

# Every element past the screen's right edge that is not inside a box scrolling sideways
# within the screen; and every display formula wider than its box that is not marked as
# scrolling or cannot take focus.
OVERFLOW = """() => {
  const W = document.documentElement.clientWidth, out = [];
  const inScroller = e => {
    for (let a = e.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return a.getBoundingClientRect().right <= W + 1;
    }
    return false;
  };
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    if (e.closest('mjx-assistive-mml')) continue;  // MathJax's copy for screen readers, clipped to nothing
    if (r.width > 0 && r.height > 0 && r.right > W + 1 && cs.visibility !== 'hidden' && !inScroller(e))
      out.push(`${e.tagName.toLowerCase()}.${e.className.toString().split(' ').join('.')} reaches ${Math.round(r.right)} px`);
  }
  const maths = [...document.querySelectorAll('mjx-container[display="true"], mjx-container.math-scrolls-inline')]
    .filter(m => m.scrollWidth > m.clientWidth + 1 && !(m.classList.contains('math-scrolls') && m.tabIndex === 0))
    .map(m => `a wide formula that is not marked as scrolling: ${m.textContent.slice(0, 40)}`);
  return {width: W, scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 8).concat(maths)};
}"""

FIGURES = """() => [...document.querySelectorAll('.bd-content .cell_output img, .bd-content figure img')]
  .filter(img => !img.closest('.ase-explorer') && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0)
  .map(img => {
    const b = img.nextElementSibling;
    // drawn: the width the page gives the figure (its style's; the picture has twice its pixels)
    return {alt: img.alt.slice(0, 50), shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
            drawn: parseFloat(img.style.width) || img.naturalWidth,
            button: !!(b && b.classList.contains('figure-zoom-button') && !b.hidden && b.getBoundingClientRect().height >= 44)};
  })"""


def settled_figures(page) -> list[dict]:
    """The figures once every button agrees with its figure's size. The page's ResizeObserver
    updates a button after layout settles (fonts, MathJax, the scrollbar): wait for that
    condition itself, with a generous bound, and return what is there either way so a real
    mismatch fails the assertion with the figures in its message."""
    agreed = f"() => ({FIGURES})().every(f => f.button === (f.shown < f.drawn - 1))"
    try:
        page.wait_for_function(agreed, timeout=TIMEOUT_MS)
    except PlaywrightTimeout:
        pass
    return page.evaluate(FIGURES)


def smallest_label_px() -> float:
    """The smallest text the book's figures draw, in pixels of their pictures: the smallest
    font size set in the figure code (points) at the figures' resolution (matplotlib's savefig.dpi,
    PIXEL_RATIO times the figure.dpi they are displayed at)."""
    import matplotlib

    from attention_steps.figures.plotting import use_book_style

    use_book_style()

    sizes = []
    for path in (BOOK / "attention_steps").rglob("*.py"):
        sizes += [float(v) for v in re.findall(r"(?:fontsize|labelsize)\s*=\s*(\d+(?:\.\d+)?)", path.read_text())]
    return min(sizes) * float(matplotlib.rcParams["savefig.dpi"]) / 72


def open_phone(offline_page, site, path, scheme="light", touch=False):
    p = offline_page(viewport=PHONE, color_scheme=scheme, is_mobile=touch, has_touch=touch)
    p.page.goto(f"{site}/{path}", wait_until="load", timeout=TIMEOUT_MS)
    p.page.wait_for_function(MATH_DONE, timeout=TIMEOUT_MS)
    if p.page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count():
        p.page.locator(".ase-explorer").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    # every figure loaded, and book.js has decided which need a button
    p.page.wait_for_function(
        """() => [...document.querySelectorAll('.bd-content .cell_output img')]
        .every(i => i.complete && i.dataset.zoom)""",
        timeout=TIMEOUT_MS,
    )
    return p


@pytest.mark.parametrize("path", PAGES + ZH_PAGES or ["(book not built)"])
def test_nothing_runs_off_a_phone_screen_and_every_shrunk_figure_enlarges(site, offline_page, path):
    """One visit at 375 px: nothing past the right edge, and (on the English pages; the Chinese twins
    show the same figures at the same sizes) every figure shrunk to fit has an enlarge button."""
    p = open_phone(offline_page, site, path)
    result = p.page.evaluate(OVERFLOW)
    assert result["scrollWidth"] <= result["width"], f"{path} scrolls sideways: {result}"
    assert result["out"] == [], f"{path} at 375 px: " + "; ".join(result["out"])
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)
    if path in PAGES:
        figures = settled_figures(p.page)
        missing = [f for f in figures if f["shown"] < f["drawn"] - 1 and not f["button"]]
        assert missing == [], f"{path}: figures shrunk on a phone with no enlarge button: {missing}"
        # a picture not shown (an explorer's still picture, hidden while the explorer runs) has no button:
        # one was a stray Tab stop between the skip link and the explorer
        stray = p.page.evaluate("""() => [...document.querySelectorAll('.figure-zoom-button:not([hidden])')]
            .filter(b => !(b.previousElementSibling && b.previousElementSibling.getBoundingClientRect().width > 0)).length""")
        assert stray == 0, f"{path}: {stray} enlarge buttons for pictures that are not shown"


def test_the_concat_equation_fits_a_phone(site, offline_page):
    """Chapter 6's Z_cat = Concat(...) and z_{i,cat} = [...] on two lines: no scrolling needed."""
    p = open_phone(offline_page, site, "book/06_multi_head.html")
    wide = p.page.evaluate("""() => [...document.querySelectorAll('mjx-container[display="true"]')]
        .filter(m => /Concat/.test(m.textContent) || m.querySelector('[data-semantic-speech*="Concat"]') || /Concat/.test(m.innerHTML))
        .map(m => [m.scrollWidth, m.clientWidth])""")
    assert wide, "chapter 6 has no Concat equation"
    assert all(s <= c + 1 for s, c in wide), f"the concat equation is wider than a phone's column: {wide}"


@pytest.mark.parametrize(
    "path, alt",
    [
        ("book/12_backward.html", "The forward of one head from top"),
        ("zh_CN/book/12_backward.html", "一个头的前向计算从上到下"),
    ],
)
def test_chapter_12s_gradient_path_is_shown_full_size_on_a_phone(site, offline_page, path, alt):
    """The gradient's path was drawn 10 in wide, in a row, and a phone showed it at a third of its size, its
    rules unreadable; drawn top to bottom and narrow, it is shown at the size it was drawn."""
    p = open_phone(offline_page, site, path)
    found = [f for f in p.page.evaluate(FIGURES) if f["alt"].startswith(alt)]
    assert len(found) == 1, [f["alt"] for f in p.page.evaluate(FIGURES)]
    assert found[0]["shown"] >= found[0]["drawn"] - 1, found[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_enlarge_a_figure_by_keyboard(site, offline_page, scheme):
    p = open_phone(offline_page, site, "book/06_multi_head.html", scheme=scheme)
    page = p.page
    button = page.locator(".figure-zoom-button:not([hidden])").first
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') !== null", timeout=TIMEOUT_MS)
    shown = page.evaluate("""() => { const i = document.querySelector('dialog.figure-zoom[open] img');
        return {width: i.getBoundingClientRect().width, natural: i.naturalWidth, focus: document.activeElement.textContent,
                view: getComputedStyle(i.parentElement).overflowX}; }""")
    assert shown["width"] / shown["natural"] * smallest_label_px() >= 11, f"labels below 11 px in the dialog: {shown}"
    assert shown["focus"] == "Close" and shown["view"] == "auto", shown
    page.keyboard.press("Tab")  # the picture's box takes focus: arrow keys scroll it
    assert page.evaluate("document.activeElement.classList.contains('figure-zoom-view')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.figure-zoom-view').scrollLeft > 0", timeout=TIMEOUT_MS)
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') === null", timeout=TIMEOUT_MS)
    assert page.evaluate("document.activeElement.classList.contains('figure-zoom-button')"), (
        "focus did not come back to the button"
    )
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_enlarge_a_figure_by_touch(site, offline_page):
    p = open_phone(offline_page, site, "book/03_scaling.html", touch=True)
    page = p.page
    figure = page.locator(".bd-content .cell_output img.figure-zoomable").first
    figure.scroll_into_view_if_needed()
    figure.tap()
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') !== null", timeout=TIMEOUT_MS)
    page.locator("dialog.figure-zoom .figure-zoom-close").tap()
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') === null", timeout=TIMEOUT_MS)
    page.locator(".figure-zoom-button:not([hidden])").first.tap()
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') !== null", timeout=TIMEOUT_MS)
    page.locator("dialog.figure-zoom .figure-zoom-close").tap()
    page.wait_for_function("document.querySelector('dialog.figure-zoom[open]') === null", timeout=TIMEOUT_MS)
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_no_enlarge_button_where_the_figure_is_at_full_size(site, offline_page):
    """On a wide screen a figure that fits its column shows no button (nothing to enlarge)."""
    p = offline_page(viewport={"width": 1280, "height": 900})
    p.page.goto(f"{site}/book/06_multi_head.html", wait_until="load", timeout=TIMEOUT_MS)
    p.page.wait_for_function(
        """() => [...document.querySelectorAll('.bd-content .cell_output img')]
        .every(i => i.complete && i.dataset.zoom)""",
        timeout=TIMEOUT_MS,
    )
    figures = settled_figures(p.page)
    assert figures and all(f["button"] == (f["shown"] < f["drawn"] - 1) for f in figures), figures
