"""Figures drawn sharp and laid out for a 16:9 slide.

- Every figure PNG is drawn at PIXEL_RATIO (2) times the width it is displayed at: the picture
  has twice the pixels of the width the page, the deck and the handout give it (on the book's
  pages, English and Chinese, the <img>'s style width; in the decks, the --w the slides' CSS
  caps it at).
- Chapter 6's four head maps and chapter 9's maps without and with the mask lie side by side
  (a 16:9 slide's shape, not a stack), and on their slides at 1280 × 720 their smallest
  labels are >= 18 px on screen: the smallest font size the figure code sets (points) ×
  figure.dpi / 72 × the scale the slide shows the figure at (measured in Chromium).
"""

from __future__ import annotations

import base64
import re
import struct

import matplotlib
import numpy as np
import pytest
from bs4 import BeautifulSoup

from attention_steps.figures.plotting import BOOK_STYLE, PIXEL_RATIO, book_style
from attention_steps.figures.png import sharp_png
from conftest import HTML, TIMEOUT_MS

# the English book and the Chinese edition (its figures drawn in Chinese, each with its own width)
PAGES = sorted(HTML.glob("book/*.html")) + sorted(HTML.glob("zh_CN/book/*.html"))
SMALLEST_PX = 18  # as tests/test_slides.py: text on a 1280 × 720 slide, from the back of a room


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


# ----------------------------------------------------------------------------- drawing
def test_a_figure_is_drawn_at_twice_its_displayed_width_even_when_tight_bounds_are_odd():
    import matplotlib.pyplot as plt

    with book_style():
        for width in (3.0, 3.01, 4.37):  # tight bounding boxes of odd and even pixel widths
            fig, ax = plt.subplots(figsize=(width, 2.0))
            ax.plot([0, 1], [0, 1])
            png, shown = sharp_png(fig)
            plt.close(fig)
            w, h = _png_size(png)
            assert w == PIXEL_RATIO * shown and h % PIXEL_RATIO == 0, (width, w, h, shown)
            assert abs(shown - width * BOOK_STYLE["figure.dpi"]) < 0.2 * width * BOOK_STYLE["figure.dpi"]


def test_show_puts_the_displayed_width_and_the_alt_text_in_the_metadata(monkeypatch):
    import IPython.display
    import matplotlib.pyplot as plt

    from attention_steps.figures import show

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda data, **kw: shown.append((data, kw)))
    with book_style():
        fig, ax = plt.subplots(figsize=(4.0, 2.0))
        show(fig, alt="a line")
    ((data, kw),) = shown
    meta = kw["metadata"]["image/png"]
    w, _ = _png_size(base64.b64decode(data["image/png"]))
    assert kw["raw"] and meta["alt"] == "a line" and w == PIXEL_RATIO * meta["width"], meta
    assert not plt.fignum_exists(fig.number), "show() leaves the figure open: Jupyter would draw it again"


def _smallest_font_pt(fig) -> float:
    """The smallest font size (points) of any visible, non-empty text the figure draws."""
    fig.canvas.draw()
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes)


def ch6_heads():
    """Chapter 6's head maps as the chapter draws them (its sentence, one map per head)."""
    from attention_steps.figures.heads import heads_heatmaps

    A = np.random.default_rng(0).dirichlet(np.full(6, 0.3), size=(4, 6))  # some weights < 0.05: the footnote
    return heads_heatmaps(A, ["The", "animal", "didn't", "cross", "the", "street"])


def ch9_maps():
    """Chapter 9's head 3 without and with the causal mask, as the chapter draws them."""
    from attention_steps.figures.masks import attention_maps_side_by_side
    from attention_steps.sentence import tokenize

    tokens = tokenize()
    n = len(tokens)
    causal = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    return attention_maps_side_by_side({"no mask": np.full((n, n), 1 / n), "causal mask": causal}, tokens)


def test_the_tall_figures_lie_side_by_side():
    with book_style():
        for draw in (ch6_heads, ch9_maps):
            fig = draw()
            maps = [ax for ax in fig.axes if ax.images]
            tops = {round(ax.get_position().y0, 3) for ax in maps}
            width, height = fig.get_size_inches()
            assert len(tops) == 1 and width > 1.6 * height, (draw.__name__, len(maps), tops, width, height)
            import matplotlib.pyplot as plt

            plt.close(fig)


# ----------------------------------------------------------------------------- the built book
@pytest.mark.book
def test_every_figure_png_in_the_book_is_twice_its_displayed_width():
    assert PAGES, "the build made no chapter page"
    checked, wrong = 0, []
    for page in PAGES:
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for img in soup.select(".cell_output img"):
            src = img.get("src", "")
            if not src.endswith(".png"):
                continue
            data = (page.parent / src).read_bytes()
            w, _ = _png_size(data)
            style = re.search(r"width:\s*([\d.]+)px", img.get("style", ""))
            checked += 1
            if img.find_parent("a"):  # Sphinx links a sized image to its PNG: the enlarge button would follow it
                wrong.append((str(page.relative_to(HTML)), img.get("alt", "")[:40], "inside a link to the picture", ""))
            if not style or w != PIXEL_RATIO * float(style.group(1)):
                wrong.append((str(page.relative_to(HTML)), img.get("alt", "")[:40], w, style and style.group(1)))
    assert checked > 20, f"only {checked} figures found in {HTML / 'book'}"
    assert wrong == [], (
        f"figures not drawn at {PIXEL_RATIO}× their displayed width (page, alt, pixels, CSS px): {wrong}"
    )


# ----------------------------------------------------------------------------- the slides
from test_slides import IS_READY, SLIDES  # noqa: E402  (slides_url is a conftest fixture)

# Show the slide holding the figure whose alt text starts with `alt`, fitted as a teacher sees it,
# and measure the figure: its width on screen and the width it is drawn for (--w).
SHOW_FIGURE = """async (alt) => {
  Reveal.configure({transition: 'none'});
  const img = [...document.querySelectorAll('.reveal .slides img')].find(i => i.alt.startsWith(alt));
  if (!img) return null;
  const slide = img.closest('section');
  Reveal.slide(...Object.values(Reveal.getIndices(slide)));
  if (window.MathJax && MathJax.Hub) await new Promise(r => MathJax.Hub.Queue(['Rerender', MathJax.Hub, slide], r));
  fitSlide(slide);
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const box = img.getBoundingClientRect();
  return {screen: box.width, height: box.height, drawn: parseFloat(getComputedStyle(img).getPropertyValue('--w')),
          natural: img.naturalWidth, fit: parseFloat(slide.getAttribute('data-fit') || '1'),
          inside: box.top >= 0 && box.bottom <= window.innerHeight + 1 && box.left >= 0 && box.right <= window.innerWidth + 1};
}"""

TALL = [  # deck, the figure's alt text begins with, how the figure code draws it
    ("06_multi_head", "Four 6×6 attention maps, one per head", ch6_heads),
    ("09_causal_masking", "Head 3's weights A", ch9_maps),
]


@pytest.mark.parametrize("deck, alt, draw", TALL, ids=[t[0] for t in TALL])
def test_the_tall_figures_labels_are_readable_on_their_slides(slides_url, offline_page, deck, alt, draw):
    if not (SLIDES / f"{deck}.html").exists():
        pytest.skip("slides not built")
    with book_style():
        fig = draw()
        smallest_pt = _smallest_font_pt(fig)
        import matplotlib.pyplot as plt

        plt.close(fig)
    p = offline_page(viewport={"width": 1280, "height": 720})
    p.page.goto(f"{slides_url}/{deck}.html", wait_until="load", timeout=TIMEOUT_MS)
    p.page.wait_for_function(IS_READY, timeout=TIMEOUT_MS)
    shown = p.page.evaluate(SHOW_FIGURE, alt)
    assert shown, f"{deck}: no figure whose alt text starts {alt!r}"
    assert shown["natural"] == PIXEL_RATIO * shown["drawn"], shown
    scale = shown["screen"] / shown["drawn"]
    px = smallest_pt * BOOK_STYLE["figure.dpi"] / 72 * scale
    assert shown["inside"], f"{deck}: the figure is not inside the 1280 × 720 frame: {shown}"
    assert px >= SMALLEST_PX, (
        f"{deck}: the figure's smallest labels ({smallest_pt} pt) are {px:.1f} px on screen at a scale of "
        f"{scale:.2f} (below {SMALLEST_PX} px): {shown}"
    )
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)
