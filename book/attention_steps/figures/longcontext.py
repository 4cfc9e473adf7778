"""Chapter 11's figures for the attention that changes the model: a sparse pattern, and
softmax weights beside linear attention's."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from .._validate import as_matrix
from ..i18n import _
from ..palette import FIGURE, OKABE_ITO
from .plotting import heatmap


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


__all__ = ["mask_pattern", "tile_diagram", "weights_side_by_side"]
