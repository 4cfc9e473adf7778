"""The book's figures: matrices as labelled heatmaps with their shapes.

Colour-blind-safe throughout: the sequential map is cividis, the diverging map
is PuOr, and categorical colours are the Okabe–Ito palette. Every function
returns the matplotlib Figure so a chapter can `glue` it or let it display.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

# Okabe–Ito: distinguishable under every common colour-vision deficiency.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
}
CYCLE = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "black")]
SEQUENTIAL = "cividis"  # weights, probabilities: 0 … 1
DIVERGING = "PuOr_r"  # signed values: scores, projections


def use_book_style() -> None:
    """Matplotlib defaults for every figure in the book (readable on a phone and a projector)."""
    plt.rcParams.update(
        {
            "figure.dpi": 110,
            "savefig.dpi": 110,
            "figure.figsize": (6.4, 3.6),
            "font.size": 11,
            "axes.titlesize": 12,
            "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.constrained_layout.use": True,
        }
    )


use_book_style()


def shape_label(name: str, M: np.ndarray) -> str:
    """'Q  (2 × 3)': a matrix's name with its shape."""
    return f"{name}  ({' × '.join(str(s) for s in np.shape(M))})"


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
):
    """Draw matrix M (rows × cols) as a heatmap titled with its name and shape.

    Entries are written in the cells when the matrix is small (annotate=None
    decides by size). Signed matrices get the diverging map centred on 0,
    non-negative ones the sequential map. Returns the Figure.
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
    ax.set_title(shape_label(name, M))
    ax.set_xticks(range(M.shape[1]), labels=col_labels if col_labels is not None else range(M.shape[1]))
    ax.set_yticks(range(M.shape[0]), labels=row_labels if row_labels is not None else range(M.shape[0]))
    if col_labels is not None and max(len(str(c)) for c in col_labels) > 4:
        ax.tick_params(axis="x", labelrotation=45)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    if annotate is None:
        annotate = M.size <= 64
    if annotate:
        norm = image.norm
        for (i, j), value in np.ndenumerate(M):
            shade = image.cmap(norm(value))
            light = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] > 0.55
            ax.text(j, i, fmt.format(value), ha="center", va="center", color="black" if light else "white", fontsize=10)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return ax.figure


def matrix_equation(terms: Sequence, *, fmt: str = "{:.2f}", height: float = 2.6):
    """Draw e.g. X · W_Q = Q side by side.

    `terms` mixes (name, M) or (name, M, row_labels, col_labels) tuples with
    operator strings such as "·", "=", "÷ √3". Returns the Figure.
    """
    # An operator gets a narrow column; a matrix one as wide as its columns.
    ratios = [
        0.35 + 0.08 * len(t) if isinstance(t, str) else 0.6 + 0.55 * np.atleast_2d(t[1]).shape[1] for t in terms
    ]
    fig, axes = plt.subplots(1, len(terms), figsize=(min(sum(ratios), 10.0), height), width_ratios=ratios)
    for ax, term in zip(np.atleast_1d(axes), terms):
        if isinstance(term, str):
            ax.axis("off")
            ax.text(0.5, 0.5, term, ha="center", va="center", fontsize=16)
            continue
        name, M, *labels = term
        rows, cols = (labels + [None, None])[:2]
        heatmap(M, name, row_labels=rows, col_labels=cols, ax=ax, fmt=fmt, annotate=True)
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
    ax.set_ylabel("weight")
    if title:
        ax.set_title(title)
    for i, w in enumerate(weights):
        ax.text(i, w + 0.02, f"{w:.2f}", ha="center", fontsize=9)
    return ax.figure


def show(fig, alt: str) -> None:
    """Display `fig` with alt text (read by screen readers, shown if the image fails) and close it.

    The alt text travels in the output's metadata, which myst-nb turns into the
    <img alt="..."> of the built page; closing the figure stops Jupyter from
    drawing it a second time.
    """
    from IPython.display import display

    if not alt or not alt.strip():
        raise ValueError("alt text must describe the figure for readers who cannot see it")
    display(fig, metadata={"image/png": {"alt": alt}})
    plt.close(fig)
