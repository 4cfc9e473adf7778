"""Showing a figure: the one call a notebook makes, `show_figure(build, alt)`.

The teaching layer's figure modules beside this one (`figures.scaling`, `figures.masks`, ...) draw a
matplotlib Figure from numbers the core computed; this module puts it on screen:

- ``show_figure(build, alt)`` calls ``build()`` (it returns the Figure) and shows it with
  its alt text, drawn sharp (twice its displayed width, `png.sharp_png`) at the width it is
  displayed at. ``alt`` is the text a screen reader reads, or a function giving it, so that
  it can be said in the current language from the same numbers. An empty alt text is an error.
- ``show(fig, alt)`` shows a Figure already drawn.
- Chinese labels need a CJK font: ``use_cjk_font()`` (run by plotting.use_book_style and
  book_style, not on import) adds Noto Sans CJK SC (Debian's fonts-noto-cjk) to
  ``font.family`` after the book's font: matplotlib draws each glyph the first font lacks
  with the next, so Latin text keeps its font and no Chinese glyph is a box; and
  ``cjk_mathtext(fig)`` gives labels that mix maths and Chinese the CJK font first.

In a learner's notebook a figure is drawn once, in the notebook's language. The book
draws each figure in every language from its one execution: its notebooks import
book/editions.py, which hands ``show_figure`` a drawing function of its own
(``draw_with``), so that this package knows nothing of the book's editions.
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from .png import sharp_png

CJK_FONT = "Noto Sans CJK SC"


# ----------------------------------------------------------------------------- fonts
def _cjk_font_files() -> list[str]:
    """Noto Sans CJK's files (regular and bold), from Debian's path or fontconfig."""
    folder = Path("/usr/share/fonts/opentype/noto")
    if not (folder / "NotoSansCJK-Regular.ttc").exists() and shutil.which("fc-match"):
        out = subprocess.run(
            ["fc-match", "-f", "%{file}", f"{CJK_FONT}:lang=zh-cn"], capture_output=True, text=True, check=False
        )
        if out.returncode != 0 or "CJK" not in out.stdout:
            return []
        folder = Path(out.stdout.strip()).parent
    return [str(p) for p in sorted(folder.glob("NotoSansCJK-*.tt[cf]"))]


def use_cjk_font() -> bool:
    """Let matplotlib draw Chinese: Noto Sans CJK SC as a fallback font. False if none is installed."""
    import matplotlib
    from matplotlib import font_manager

    known = {getattr(f, "fname", "") for f in font_manager.fontManager.ttflist}
    for path in _cjk_font_files():
        if path not in known:
            font_manager.fontManager.addfont(path)  # a .ttc adds every face, SC among them
    if not any(f.name == CJK_FONT for f in font_manager.fontManager.ttflist):
        return False
    # Matplotlib falls back font by font along font.family (a generic family such as
    # "sans-serif" counts as one font): the CJK font after the book's, for the glyphs it lacks.
    family = matplotlib.rcParams["font.family"]
    family = [family] if isinstance(family, str) else list(family)
    if CJK_FONT not in family:
        matplotlib.rcParams["font.family"] = [*family, CJK_FONT]
    return True


# ----------------------------------------------------------------------------- labels mixing maths and Chinese
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def cjk_mathtext(fig) -> None:
    """Let a label that mixes maths and Chinese ("$d_k$ = 4（标准差 2.0）") draw its Chinese.

    Matplotlib draws such a label with mathtext, which takes the words outside $…$ from
    the label's first font only (no fallback along font.family): the book's font, which
    has no Chinese, so every Chinese glyph would be a box. Those labels get the CJK font
    first (it has Latin letters and digits too); the maths keeps mathtext's fonts, and
    every other label its own font."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        s = text.get_text()
        if "$" in s and _CJK.search(s):
            text.set_fontfamily([CJK_FONT])


# ----------------------------------------------------------------------------- showing
def drawn(build: Callable[[], object], alt: Callable[[], str] | str) -> tuple[str, int, str]:
    """`build()` drawn in the current language: (the PNG in base64, its displayed width, the alt text).

    `build` makes a matplotlib Figure from numbers already computed (call the core outside
    it); the figure is closed once drawn, so Jupyter does not draw it a second time."""
    import matplotlib.pyplot as plt

    fig = build()
    cjk_mathtext(fig)
    try:
        png, width = sharp_png(fig)
    finally:
        plt.close(fig)
    text = alt() if callable(alt) else alt
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"alt text must describe the figure for readers who cannot see it; got {text!r}")
    return base64.b64encode(png).decode("ascii"), width, text


def bundle(png: str, width: int, alt: str) -> tuple[dict, dict]:
    """A drawn figure (see `drawn`) as display data and metadata: the picture, its alt text and width."""
    return {"image/png": png, "text/plain": f"<Figure: {alt[:60]}>"}, {"image/png": {"alt": alt, "width": width}}


def display_figure(build: Callable[[], object], alt: Callable[[], str] | str) -> None:
    """Display `build()` once, in the current language, with its alt text and displayed width."""
    from IPython.display import display

    use_cjk_font()
    data, metadata = bundle(*drawn(build, alt))
    display(data, raw=True, metadata=metadata)


_draw: list[Callable[[Callable[[], object], Callable[[], str] | str], None]] = [display_figure]


def draw_with(draw: Callable[[Callable[[], object], Callable[[], str] | str], None]) -> None:
    """Let `draw(build, alt)` show every figure from now on (book/editions.py draws each in every language)."""
    _draw[:] = [draw]


def show_figure(build: Callable[[], object], alt: Callable[[], str] | str) -> None:
    """Show the figure `build()` makes, with its alt text (a string, or a function giving it in the current language)."""
    _draw[0](build, alt)


def show(fig, alt: str) -> None:
    """Show a Figure already drawn, with alt text (read by screen readers, shown if the image fails), and
    close it: one language, the one it was drawn in (`show_figure` draws a figure in whichever the book asks)."""
    display_figure(lambda: fig, alt)
