"""Chapter 11's figures (long context): peak memory against n, the tiles of tiled attention, a
sparse pattern, and softmax weights beside linear attention's.

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapter
calls, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from .._validate import as_matrix
from ..costs import attention_bytes, format_bytes
from ..i18n import _
from ..palette import FIGURE, OKABE_ITO
from ..sparse_linear import default_stride
from . import show_figure
from .plotting import growth_plot, heatmap


def mask_pattern(mask, *, title: str = "", ax=None):
    """A boolean mask (n_q, n_k) as a picture: a dark cell where query i may attend to key j.

    Rows are queries i, columns keys j, both 1 … n (the book's 1-based indices).
    Returns the Figure.
    """
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.ndim != 2:
        raise TypeError(f"mask must be a 2-D boolean array (n_q, n_k), got dtype {mask.dtype} and shape {mask.shape}")
    if ax is None:
        ax = plt.subplots(figsize=(4.2, 4.2))[1]  # (not `_, ax`: _ is the translation)
    cmap = matplotlib.colors.ListedColormap([FIGURE["off"], OKABE_ITO["blue"]])
    n_q, n_k = mask.shape
    ax.imshow(mask, cmap=cmap, vmin=0, vmax=1, interpolation="nearest", extent=(0.5, n_k + 0.5, n_q + 0.5, 0.5))
    ax.set_xlabel(_("key j"))
    ax.set_ylabel(_("query i"))
    ticks = [1, *range(16, n_k + 1, 16)] if n_k >= 16 else list(range(1, n_k + 1))
    ax.set_xticks(ticks)
    ax.set_yticks([t for t in ticks if t <= n_q])
    for side in ax.spines.values():
        side.set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax.figure


def weights_side_by_side(A_left, A_right, *, left: str, right: str, labels=None):
    """Two weight matrices of the same shape on one colour scale (0 … the larger maximum). Returns the Figure."""
    A_left, A_right = as_matrix("A_left", A_left, ndim=2), as_matrix("A_right", A_right, ndim=2)
    if A_left.shape != A_right.shape:
        raise ValueError(f"A_left {A_left.shape} and A_right {A_right.shape} must have the same shape")
    top = float(max(A_left.max(), A_right.max()))
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.2))
    for ax, M, name in zip(axes, (A_left, A_right), (left, right)):
        heatmap(M, name, ax=ax, vmin=0, vmax=top, cmap="cividis", row_labels=labels, col_labels=labels)
    return fig


def tile_diagram(n_blocks: int = 6, current: tuple[int, int] = (2, 3)):
    """The n × n score matrix cut into n_blocks × n_blocks tiles: on the left all of it
    held at once (naive), on the right one query block's row of tiles, with the one tile
    in memory now, `current` = (query block, key block), drawn dark (tiled). Returns the Figure."""
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6))
    qi, kj = current
    for ax, tiled in zip(axes, (False, True)):
        ax.set_xlim(0, n_blocks)
        ax.set_ylim(n_blocks, 0)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        for i in range(n_blocks):
            for j in range(n_blocks):
                if not tiled:
                    colour = OKABE_ITO["vermillion"]
                elif i == qi and j == kj:
                    colour = OKABE_ITO["blue"]
                elif i == qi and j < kj:
                    colour = FIGURE["folded"]  # already folded into the running state
                elif i < qi:
                    colour = FIGURE["finished"]  # only its rows of Z remain
                else:
                    colour = "white"
                ax.add_patch(
                    matplotlib.patches.Rectangle(
                        (j, i), 1, 1, facecolor=colour, edgecolor=FIGURE["edge"], linewidth=0.8
                    )
                )
        ax.set_xlabel(_("keys j (blocks of b)"))
        ax.set_ylabel(_("queries i (blocks of b)"))
    axes[0].set_title(_("naive: all n × n scores at once"), fontsize=10)
    axes[1].set_title(_("tiled: one b × b tile at a time"), fontsize=10)
    axes[1].annotate(
        "",
        xy=(n_blocks - 0.15, qi + 0.5),
        xytext=(kj + 1.05, qi + 0.5),
        arrowprops={"arrowstyle": "->", "color": OKABE_ITO["blue"], "linewidth": 1.5},
    )
    return fig


# ----------------------------------------------------------------------------- the chapter's figures
def show_peak_memory(rows, d: int) -> None:
    """The measured peak memory of the naive and the tiled computation against n (`rows`:
    `longcontext.compare` results, one per n, for one head of width `d`), beside one n × n float64 matrix."""
    ns = [r.n for r in rows]
    peaks = {
        "naive": [r.naive.peak_bytes / 2**20 for r in rows],
        "matrix": [attention_bytes(n, 8) / 2**20 for n in ns],
        "tiled": [r.tiled.peak_bytes / 2**20 for r in rows],
    }

    def draw():
        fig = growth_plot(
            ns,
            {
                _("naive: measured peak"): peaks["naive"],
                _("one n × n float64 matrix"): peaks["matrix"],
                _("tiled: measured peak"): peaks["tiled"],
            },
            xlabel=_("sequence length n"),
            ylabel="MiB",
            title=_("peak memory of one head, d = {d}").format(d=d),
        )
        fig.axes[0].set_xticks(ns, labels=[f"{n:,}" for n in ns], minor=False)
        fig.axes[0].minorticks_off()
        return fig

    growth = rows[-1].naive.peak_bytes / rows[-2].naive.peak_bytes
    show_figure(
        draw,
        alt=lambda: _(
            "Log-log plot of peak memory against n from {n_first} to {n_last}: the naive computation's peak rises "
            "about {growth} times per doubling of n, from {naive_first} to "
            "{naive_last}, parallel to and above the size of one n × n matrix; "
            "tiled attention stays nearly flat, from {tiled_first} to {tiled_last}."
        ).format(
            n_first=ns[0],
            n_last=ns[-1],
            growth=f"{growth:.1f}",
            naive_first=format_bytes(rows[0].naive.peak_bytes),
            naive_last=format_bytes(rows[-1].naive.peak_bytes),
            tiled_first=format_bytes(rows[0].tiled.peak_bytes),
            tiled_last=format_bytes(rows[-1].tiled.peak_bytes),
        ),
    )


def show_tiles() -> None:
    """The 6 × 6 tiles of the score matrix, naive and tiled (query block 3 at its key block 4)."""
    show_figure(
        lambda: tile_diagram(n_blocks=6, current=(2, 3)),
        alt=lambda: _(
            "Two 6 by 6 grids of score tiles. Left, naive: every tile is filled, the whole n × n matrix is "
            "held at once. Right, tiled: the first two query blocks are finished (grey), the third is in "
            "progress: three tiles already folded into its running state (light blue), one tile in memory "
            "now (dark blue), and an arrow to the key blocks still to come."
        ),
    )


def show_strided_pattern(mask) -> None:
    """The strided mask (n, n) (`sparse_linear.strided_mask(n)`, stride ⌊√n⌋) as a picture."""
    mask = np.asarray(mask)
    n = mask.shape[0]
    stride = default_stride(n)
    show_figure(
        lambda: mask_pattern(mask, title=_("strided pattern, n = {n}, s = {s}").format(n=n, s=stride)),
        alt=lambda: _(
            "A {n} by {n} grid, query i down, key j across. Kept pairs are dark: a band "
            "{s} wide along the diagonal (the most recent keys) and, below it, thin lines "
            "parallel to the diagonal every {s} positions (keys a multiple of "
            "{s} back). Nothing above the diagonal. "
            "{kept} of {cells} cells are kept."
        ).format(n=n, s=stride, kept=int(mask.sum()), cells=n**2),
    )


def show_softmax_and_linear_weights(A_soft, A_lin) -> None:
    """Softmax attention's weights beside linear attention's implied weights for the same Q and K,
    the tokens counted from 1 as in the text."""
    labels = [str(i) for i in range(1, len(A_soft) + 1)]
    show_figure(
        lambda: weights_side_by_side(
            A_soft, A_lin, left=_("softmax: A"), right=_("linear: implied weights"), labels=labels
        ),
        alt=lambda: _(
            "Two {rows} by {cols} weight matrices for the same random Q and K. "
            "Left, softmax attention: row maxima from {soft_low} to "
            "{soft_high}. Right, linear attention's weights, flatter: row maxima from "
            "{lin_low} to {lin_high}."
        ).format(
            rows=A_soft.shape[0],
            cols=A_soft.shape[1],
            soft_low=f"{A_soft.max(axis=1).min():.2f}",
            soft_high=f"{A_soft.max(axis=1).max():.2f}",
            lin_low=f"{A_lin.max(axis=1).min():.2f}",
            lin_high=f"{A_lin.max(axis=1).max():.2f}",
        ),
    )


__all__ = [
    "mask_pattern",
    "show_peak_memory",
    "show_softmax_and_linear_weights",
    "show_strided_pattern",
    "show_tiles",
    "tile_diagram",
    "weights_side_by_side",
]
