"""Chapter 9's figures (masks): a matrix with its masked cells greyed out, and which
output rows move when a word changes.

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapter
calls, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from ..i18n import _
from ..palette import CYCLE, DIVERGING, FIGURE, SEQUENTIAL
from . import show_figure
from .plotting import heatmap, label_matrix_axes, write_in_cell


def masked_heatmap(
    M,
    keep,
    name: str,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    masked_text: str = "−∞",
    fmt: str = "{:.2f}",
    ax=None,
    vmin: float | None = None,
    vmax: float | None = None,
):
    """Matrix M (rows × cols) with the cells where `keep` is False greyed out and
    labelled `masked_text` ("−∞" for masked scores, "0" for their weights).

    The kept cells are coloured as `heatmap` would colour them (diverging for
    signed values, sequential otherwise) and written in when the matrix is
    small. Returns the Figure.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    keep = np.broadcast_to(np.asarray(keep, dtype=bool), M.shape)
    if ax is None:
        rows, cols = M.shape
        ax = plt.subplots(figsize=(min(1.0 + 0.6 * cols, 6.4), min(0.9 + 0.45 * rows, 6.4)))[
            1
        ]  # (not `_, ax`: _ is the translation)
    shown = np.ma.masked_array(np.where(keep, M, 0.0), mask=~keep)
    kept = M[keep]
    signed = kept.size and kept.min() < 0
    cmap = matplotlib.colormaps[DIVERGING if signed else SEQUENTIAL].with_extremes(bad=FIGURE["masked"])
    if signed and vmin is None and vmax is None:
        bound = float(np.abs(kept).max()) or 1.0
        vmin, vmax = -bound, bound
    image = ax.imshow(shown, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    label_matrix_axes(ax, M, name, row_labels, col_labels)
    if M.size <= 81:
        for (i, j), value in np.ndenumerate(M):
            if not keep[i, j]:
                ax.text(j, i, masked_text, ha="center", va="center", color=FIGURE["note"], fontsize=10)
                continue
            write_in_cell(ax, image, i, j, value, fmt.format(value))
    return ax.figure


def change_bars(series: dict, labels: Sequence[str], *, xlabel: str = "", title: str = ""):
    """Horizontal bars, one row per label (token), one bar per series: e.g. how much each
    output row moved under two settings. Labels read down the side, so long token lists
    stay legible on a phone; a bar of exactly 0 is marked with a small "0". Returns the Figure."""
    labels = list(labels)
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.36 * len(labels)))
    height = 0.8 / len(series)
    y = np.arange(len(labels))
    for k, (name, values) in enumerate(series.items()):
        values = np.asarray(values, dtype=float)
        offset = (k - (len(series) - 1) / 2) * height
        ax.barh(y + offset, values, height, label=name, color=CYCLE[k])
        for yi, value in zip(y + offset, values):
            if value == 0:
                ax.text(0, yi, " 0", va="center", ha="left", fontsize=9, fontweight="bold", color=CYCLE[k])
    ax.set_yticks(y, labels=labels)
    ax.invert_yaxis()  # first token on top, as in the text
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=len(series), frameon=False, fontsize=9)
    return fig


def attention_maps_side_by_side(maps: dict, tokens: Sequence[str], *, side: float = 3.0, labelsize: float = 10):
    """Attention maps {title: A (n, n)} over the same tokens side by side (a 16:9 slide's shape),
    each `side` inches square, on one 0…1 colour scale and without weights written in; the maps
    right of the first leave out the row labels (the same queries). Returns the Figure."""
    from .plotting import attention_map

    fig, axes = plt.subplots(1, len(maps), figsize=(side * len(maps) + 0.4, side), squeeze=False)
    for k, (ax, (title, A)) in enumerate(zip(axes.flat, maps.items())):
        attention_map(A, tokens, title=title, ax=ax, annotate=False)
        ax.tick_params(labelsize=labelsize)
        plt.setp(ax.get_xticklabels(), ha="right", rotation_mode="anchor")  # long words end at their column
        if k:
            ax.tick_params(labelleft=False)
            ax.set_ylabel("")
    return fig


# ----------------------------------------------------------------------------- the chapter's figures
def show_causal_mask(M, tokens: Sequence[str]) -> None:
    """The causal mask M (n, n) over `tokens` as 1s and 0s."""
    tokens = list(tokens)
    show_figure(
        lambda: heatmap(np.asarray(M).astype(int), "M", row_labels=tokens, col_labels=tokens, fmt="{:.0f}"),
        alt=lambda: _(
            "The causal mask for the {n} tokens '{tokens}': 1 on and below "
            "the diagonal, 0 above it; row i, counting from 1, has i ones."
        ).format(n=len(tokens), tokens=" ".join(tokens)),
    )


def show_masked_scores(S_masked, M, tokens: Sequence[str], name: str = "S̃⁽³⁾") -> None:
    """One head's masked scores S̃ (−∞ where M is False) over `tokens`, the masked cells greyed out."""
    tokens, S_masked, M = list(tokens), np.asarray(S_masked), np.asarray(M, dtype=bool)
    show_figure(
        lambda: masked_heatmap(S_masked, M, name, row_labels=tokens, col_labels=tokens),
        alt=lambda: _(
            "The masked scores S-tilde of the broad head for '{tokens}': the scores on and "
            "below the diagonal (between {low} and {high}), minus infinity above it."
        ).format(tokens=" ".join(tokens), low=f"{S_masked[M].min():.2f}", high=f"{S_masked[M].max():.2f}"),
    )


def show_masked_weights(A_masked, M, tokens: Sequence[str], name: str = "A⁽³⁾") -> None:
    """One head's masked weights A over `tokens`: the masked cells greyed out and marked 0."""
    tokens, A_masked = list(tokens), np.asarray(A_masked)
    show_figure(
        lambda: masked_heatmap(
            A_masked, M, name, row_labels=tokens, col_labels=tokens, masked_text="0", vmin=0, vmax=1
        ),
        alt=lambda: _(
            "The masked weights A of the broad head: row 1 is [1], row 2 splits "
            "{first} / {second}, row i spreads about evenly over its i "
            "keys; every entry above the diagonal is exactly 0."
        ).format(first=f"{A_masked[1, 0]:.2f}", second=f"{A_masked[1, 1]:.2f}"),
    )


def show_row_changes(change: dict, tokens: Sequence[str]) -> None:
    """How much each output row y_i moves when 'tired' becomes 'wide': {"no mask": …, "causal mask": …}."""
    show_figure(
        lambda: change_bars(
            {_("no mask"): change["no mask"], _("causal mask"): change["causal mask"]},
            tokens,
            xlabel=_("largest change in the row y_i"),
            title=_("tired → wide: which rows of Y move?"),
        ),
        alt=lambda: _(
            "Bars of the largest change in each output row when 'tired' becomes 'wide'. Without the mask "
            "all {n} rows change (by {low} to {high}); with the causal mask only the last row changes."
        ).format(n=len(tokens), low=f"{np.min(change['no mask']):.2f}", high=f"{np.max(change['no mask']):.2f}"),
    )


def show_head_with_and_without_mask(A_full, A_causal, tokens: Sequence[str]) -> None:
    """Head 3's weights on the sentence without and with the causal mask, side by side."""
    n = len(tokens)
    show_figure(
        lambda: attention_maps_side_by_side({_("head 3, no mask"): A_full, _("head 3, causal mask"): A_causal}, tokens),
        alt=lambda: _(
            "Head 3's weights A ({n} by {n}) on the sentence, without and with the causal mask. "
            "Without it every weight is near 1/{n} = {uniform}; with it the upper triangle is 0, "
            "the first row is 1 on 'the' and row i, counting from 1, is near 1/i."
        ).format(n=n, uniform=f"{1 / n:.2f}"),
    )
