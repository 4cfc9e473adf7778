"""The shared plotting base: the book's figure style, matrices as labelled heatmaps with
their shapes, bars and growth curves (attention_steps.figures shows them).

Colours come from `attention_steps.palette` (Okabe–Ito, cividis, PuOr). The style is
applied explicitly, never on import: a notebook calls `use_book_style()` once in its
setup cell; a script or test can draw inside `with book_style():`. Every function
returns the matplotlib Figure, which `figures.show_figure` shows. Each chapter's
own figures live in this folder, named after its topic (`figures.scaling`, `figures.heads`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from .. import i18n  # translated labels
from ..palette import CYCLE, DIVERGING, OKABE_ITO, SEQUENTIAL
from . import use_cjk_font
from .png import PIXEL_RATIO

FIGURE_DPI = 110

# Matplotlib settings for every figure in the book (readable on a phone and a projector).
BOOK_STYLE = {
    "figure.dpi": FIGURE_DPI,
    "savefig.dpi": FIGURE_DPI * PIXEL_RATIO,
    "figure.figsize": (6.4, 3.6),
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.constrained_layout.use": True,
}


def use_book_style() -> None:
    """Make the book's style matplotlib's defaults from now on (a notebook's setup cell calls it:
    figures are drawn when the cell's output is rendered, after any `with` block has ended)."""
    plt.rcParams.update(BOOK_STYLE)
    use_cjk_font()  # Chinese labels: a CJK fallback after the book's font
    _sharp_inline_figures()


def _sharp_inline_figures() -> None:
    """A figure a cell displays without `figures.show_figure` (e.g. as its last value) is drawn at PIXEL_RATIO
    too: IPython's "retina" format (twice figure.dpi, with the displayed width and height in the
    output's metadata). Nothing to do outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    if get_ipython() is None:
        return
    from matplotlib_inline.backend_inline import set_matplotlib_formats

    set_matplotlib_formats("retina")


@contextmanager
def book_style() -> Iterator[None]:
    """The book's style for the figures drawn (and saved) inside a `with` block only."""
    with plt.rc_context(BOOK_STYLE):
        use_cjk_font()
        yield


def shape_label(name: str, M: np.ndarray) -> str:
    """'Q  (2 × 3)': a matrix's name with its shape."""
    return f"{name}  ({' × '.join(str(s) for s in np.shape(M))})"


def label_matrix_axes(ax, M: np.ndarray, name: str, row_labels, col_labels) -> None:
    """Title a matrix plot with its name and shape, label rows and columns, drop the frame.

    Without labels, rows and columns are numbered from 1, as the book's maths
    numbers them (entry (i, j) of the figure is M[i-1, j-1] in code).
    """
    ax.set_title(shape_label(name, M))
    ax.set_xticks(range(M.shape[1]), labels=col_labels if col_labels is not None else range(1, M.shape[1] + 1))
    ax.set_yticks(range(M.shape[0]), labels=row_labels if row_labels is not None else range(1, M.shape[0] + 1))
    if col_labels is not None and max(len(str(c)) for c in col_labels) > 4:
        # slanted, each label ending at its column: long labels (and wider Chinese ones) do not collide
        plt.setp(ax.get_xticklabels(), rotation=45, ha="right", rotation_mode="anchor")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def write_in_cell(ax, image, i: int, j: int, value: float, text: str, fontsize: float = 10) -> None:
    """Write `text` in cell (i, j), black on light colours and white on dark ones."""
    shade = image.cmap(image.norm(value))
    light = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] > 0.55
    ax.text(j, i, text, ha="center", va="center", color="black" if light else "white", fontsize=fontsize)


def heatmap(
    M,
    name: str,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    ax=None,
    annotate: bool | None = None,
    fmt: str = "{:.2f}",
    cmap: str | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
    colorbar: bool = False,
    label: Callable[[float], str] | None = None,
    fontsize: float = 10,
):
    """Draw matrix M (rows × cols) as a heatmap titled with its name and shape.

    Entries are written in the cells when the matrix is small (annotate=None
    decides by size). Signed matrices get the diverging map centred on 0,
    non-negative ones the sequential map. A cell's text is `label(value)` if given, else
    `fmt.format(value)`, in `fontsize` points. Returns the Figure.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    if ax is None:
        rows, cols = M.shape
        _, ax = plt.subplots(figsize=(min(1.0 + 0.55 * cols, 8.0), min(0.9 + 0.45 * rows, 7.0)))
    signed = M.min() < 0
    if cmap is None:
        cmap = DIVERGING if signed else SEQUENTIAL
    if signed and vmin is None and vmax is None:
        bound = float(np.abs(M).max()) or 1.0
        vmin, vmax = -bound, bound
    image = ax.imshow(M, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    label_matrix_axes(ax, M, name, row_labels, col_labels)
    if annotate is None:
        annotate = M.size <= 64
    if annotate:
        for (i, j), value in np.ndenumerate(M):
            write_in_cell(ax, image, i, j, value, fmt.format(value) if label is None else label(value), fontsize)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return ax.figure


def matrix_equation(terms: Sequence, *, fmt: str = "{:.2f}", height: float = 2.6, size: tuple | None = None):
    """Draw e.g. X · W_Q = Q side by side.

    `terms` mixes (name, M) or (name, M, row_labels, col_labels) tuples with
    operator strings such as "·", "=", "÷ √3". `size` (width, height in inches)
    overrides the size computed from the terms. Returns the Figure.
    """
    # An operator gets a narrow column; a matrix one as wide as its columns.
    ratios = [0.35 + 0.08 * len(t) if isinstance(t, str) else 0.6 + 0.55 * np.atleast_2d(t[1]).shape[1] for t in terms]
    fig, axes = plt.subplots(1, len(terms), figsize=(min(sum(ratios), 10.0), height), width_ratios=ratios)
    for ax, term in zip(np.atleast_1d(axes), terms):
        if isinstance(term, str):
            ax.axis("off")
            ax.text(0.5, 0.5, term, ha="center", va="center", fontsize=16)
            continue
        name, M, *labels = term
        rows, cols = (labels + [None, None])[:2]
        heatmap(M, name, row_labels=rows, col_labels=cols, ax=ax, fmt=fmt, annotate=True)
    if size is not None:
        fig.set_size_inches(*size)
    return fig


def weight_bars(weights, labels: Sequence[str], *, title: str = "", ax=None, highlight: int | None = None):
    """One query's attention weights as bars (they sum to 1). Returns the Figure."""
    weights = np.asarray(weights, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(min(1.2 + 0.6 * len(weights), 8.0), 2.8))
    colors = [OKABE_ITO["blue"]] * len(weights)
    if highlight is not None:
        colors[highlight] = OKABE_ITO["vermillion"]
    ax.bar(range(len(weights)), weights, color=colors)
    ax.set_xticks(range(len(weights)), labels=labels, rotation=45 if max(map(len, labels)) > 4 else 0)
    ax.set_ylim(0, 1)
    ax.set_ylabel(i18n._("weight"))
    if title:
        ax.set_title(title)
    for i, w in enumerate(weights):
        ax.text(i, w + 0.02, f"{w:.2f}", ha="center", fontsize=9)
    return ax.figure


def attention_map(
    A,
    tokens: Sequence[str],
    *,
    key_tokens: Sequence[str] | None = None,
    title: str = "",
    highlight: tuple[int, int] | None = None,
    threshold: float = 0.15,
    annotate: bool = True,
    ax=None,
):
    """One head's weights A (n, n_k) as a heatmap on a fixed 0…1 scale, rows
    (queries) labelled by `tokens`, columns (keys) by `key_tokens` (the same
    tokens unless given, as in cross-attention).

    For a sentence-sized n only weights ≥ `threshold` are written in the cells
    (so the pattern reads at a glance); `highlight` = (i, j) outlines cell
    (i, j), e.g. ("it", "animal"), and writes every weight of row i. `annotate=False`
    writes no weight at all (the highlighted row's included). Returns the Figure.
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2:
        raise ValueError(f"attention_map draws one head's A (n, n_k), got shape {A.shape}")
    n_q, n_k = A.shape
    if ax is None:
        # Small cells on a narrow figure: the labels stay legible when a phone shrinks it.
        _, ax = plt.subplots(figsize=(min(6.4, 1.5 + 0.32 * n_k), min(6.4, 1.4 + 0.3 * n_q)))
    heatmap(
        A,
        "A",
        row_labels=list(tokens),
        col_labels=list(tokens if key_tokens is None else key_tokens),
        ax=ax,
        annotate=False,
        cmap=SEQUENTIAL,
        vmin=0.0,
        vmax=1.0,
    )
    ax.set_title(title or shape_label("A", A))
    ax.set_xlabel(i18n._("key j (attended to)"))
    ax.set_ylabel(i18n._("query i (attending)"))
    ax.tick_params(labelsize=9)
    row = None if highlight is None else highlight[0]
    for (i, j), value in np.ndenumerate(A):
        if annotate and (value >= threshold or i == row):
            ax.text(
                j, i, f"{value:.2f}", ha="center", va="center", fontsize=7.5, color="black" if value > 0.55 else "white"
            )
    if highlight is not None:
        i, j = highlight
        ax.add_patch(
            matplotlib.patches.Rectangle(
                (j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=OKABE_ITO["vermillion"], linewidth=2.4
            )
        )
    return ax.figure


def growth_plot(
    x,
    series: dict,
    *,
    xlabel: str = "",
    ylabel: str = "",
    title: str = "",
    logy: bool = True,
    point_labels: Sequence[str] | None = None,
    ax=None,
):
    """Curves y(x) on log–log axes (or log x only), e.g. memory of the n × n matrix
    against n; the first series' points can carry text labels. Returns the Figure."""
    x = np.asarray(x, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 3.2))
    for k, (label, y) in enumerate(series.items()):
        ax.plot(x, np.asarray(y, dtype=float), marker="o", color=CYCLE[k], label=label)
        if k == 0 and point_labels is not None:
            for xi, yi, text in zip(x, y, point_labels):
                ax.annotate(
                    text,
                    (xi, yi),
                    textcoords="offset points",
                    xytext=(4, -6),
                    ha="left",
                    va="top",
                    fontsize=9,
                    color=CYCLE[0],
                )
    ax.set_xscale("log")
    ax.margins(x=0.15, y=0.15)  # room for the first and last points' labels
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=9)
    return ax.figure


def stacked_bars(ax, x, pieces, colours: Sequence[str], labels: Sequence[str], *, linewidth: float = 0.6) -> None:
    """Stack the additive pieces (k, d) of a d-vector as bars at positions x, positive pieces
    upwards and negative ones downwards from 0, piece p in colours[p] labelled labels[p]."""
    up, down = np.zeros(len(x)), np.zeros(len(x))
    for piece, colour, label in zip(np.asarray(pieces, dtype=float), colours, labels):
        base = np.where(piece >= 0, up, down)
        ax.bar(x, piece, bottom=base, width=0.7, color=colour, label=label, edgecolor="white", linewidth=linewidth)
        up, down = up + np.clip(piece, 0, None), down + np.clip(piece, None, 0)
