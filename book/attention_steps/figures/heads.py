"""Chapters 6–7's figures (heads): every head's map, sharpness per head, the heads' blocks
of a matrix and the heads' additive parts of the output. The `show_` functions are chapter 6's
figures, one line each (chapter 7's are in `figures.output_projection`): each draws its figure and
says what it shows (the alt text, in the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..heads import head_width
from ..i18n import _
from ..palette import CYCLE, OKABE_ITO, SEQUENTIAL
from . import show_figure
from .plotting import heatmap, stacked_bars


def heads_heatmaps(
    A,
    tokens: Sequence[str],
    *,
    name: str = "A",
    ncols: int | None = None,
    fmt: str | None = None,
    titles: Sequence[str] | None = None,
):
    """Every head's attention map A⁽ʳ⁾ side by side on one 0…1 colour scale.

    A (h, n_q, n_k); rows are queries, columns keys, both labelled by `tokens`.
    `ncols` defaults to one row of up to 4 maps (wide, for a 16:9 slide; on a phone the book's
    "Enlarge figure" button shows it at full size); a map right of another in its row leaves out
    the row labels, which are those of the map on its left. Returns the Figure.
    `fmt` (e.g. "{:.2f}") writes every weight; by default the weights are written large enough
    for a projector, with one decimal and no leading zero (.8), 1 for a full weight, and
    weights below 0.05 left blank (a footnote says so).
    """
    A = np.asarray(A, dtype=float)
    if A.ndim == 2:
        A = A[None]
    h, n_q, n_k = A.shape
    ncols = ncols or min(h, 4)
    nrows = -(-h // ncols)
    side = min(6.4 / ncols, 0.45 * n_k + 0.9)
    fig, axes = plt.subplots(nrows, ncols, figsize=(side * ncols, side * nrows + 0.3), squeeze=False)
    blanks, annotate = False, n_q * n_k <= 64
    for r, ax in enumerate(axes.flat):
        if r >= h:
            ax.axis("off")
            continue
        heatmap(
            A[r],
            f"{name}⁽{r + 1}⁾",
            row_labels=tokens,
            col_labels=tokens,
            ax=ax,
            fmt=fmt or "{:.1f}",
            vmin=0.0,
            vmax=1.0,
            cmap=SEQUENTIAL,
            annotate=annotate,
            label=None if fmt else weight_label,
            fontsize=(10 if n_k > 4 else 12) if fmt is None else (7 if n_k > 4 else 9),
        )
        blanks |= annotate and fmt is None and bool((A[r] < 0.05).any())
        ax.tick_params(labelsize=9)
        if r % ncols:  # the same rows as the map on its left
            ax.tick_params(labelleft=False)
        ax.title.set_fontsize(11)
        if titles is not None:
            ax.set_title(titles[r], fontsize=11)
    if blanks and any(ax.texts for ax in axes.flat):
        fig.text(0.5, 0.0, _("blank cell: weight < 0.05"), ha="center", va="top", fontsize=9)  # below the tick labels
    return fig


def weight_label(w: float) -> str:
    """A weight in 0…1 as a projector reads it: '' below 0.05, '1' from 0.95, else '.8'."""
    if w < 0.05:
        return ""
    return "1" if w >= 0.95 else f"{w:.1f}".lstrip("0")


def grouped_bars(
    values: dict,
    group_labels: Sequence[str],
    *,
    ylabel: str = "",
    title: str = "",
    ax=None,
    reference: tuple[float, str] | None = None,
    fmt: str = "{:.2f}",
    legend: bool = True,
):
    """Bars of several series side by side for each group, e.g. {"÷ √d_k": [...], "÷ √d_model": [...]}
    per head; `reference` = (y, label) draws a dashed line (a uniform distribution, say). Returns the Figure."""
    if ax is None:
        ax = plt.subplots(figsize=(min(1.0 + 0.9 * len(group_labels), 6.4), 2.8))[
            1
        ]  # (not `_, ax`: _ is the translation)
    width = 0.8 / len(values)
    x = np.arange(len(group_labels))
    for k, (label, ys) in enumerate(values.items()):
        bars = ax.bar(x + (k - (len(values) - 1) / 2) * width, ys, width, label=label, color=CYCLE[k])
        for bar, y in zip(bars, ys):
            ax.text(bar.get_x() + bar.get_width() / 2, y, fmt.format(y), ha="center", va="bottom", fontsize=7)
    if reference is not None:
        ax.axhline(reference[0], color="black", linestyle="--", linewidth=0.9)
        ax.text(-0.5, reference[0], reference[1], ha="left", va="bottom", fontsize=8)
    ax.set_xticks(x, labels=group_labels)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(frameon=False, fontsize=8, loc="upper left")
    return ax.figure


def sharpness_bars(series: dict, n_keys: int, group_labels: Sequence[str], *, group_name: str | None = None):
    """Two panels, mean largest weight and mean entropy per group, for each series
    {label: object with .mean_max_weight and .mean_entropy}; dashed lines mark the
    uniform distribution over n_keys keys. Returns the Figure."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 3.0))
    grouped_bars(
        {k: s.mean_max_weight for k, s in series.items()},
        group_labels,
        ax=left,
        legend=False,
        ylabel=_("mean largest weight"),
        reference=(1 / n_keys, _("uniform")),
    )
    grouped_bars(
        {k: s.mean_entropy for k, s in series.items()},
        group_labels,
        ax=right,
        legend=False,
        ylabel=_("mean entropy (nats)"),
        reference=(float(np.log(n_keys)), _("uniform")),
    )
    for ax in (left, right):
        ax.set_xlabel(group_name or _("head"))
        ax.margins(y=0.15)
    fig.legend(*left.get_legend_handles_labels(), loc="outside lower center", ncol=len(series), frameon=False)
    return fig


def head_bands(
    M,
    name: str,
    num_heads: int,
    *,
    axis: int = 1,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    fmt: str = "{:.1f}",
):
    """Heatmap of M with lines between the heads' blocks: columns (axis=1, e.g. Q = X W_Q)
    or rows (axis=0, e.g. W_O), each block labelled r = 1..h. Unlabelled columns and rows
    are numbered from 1, as in the text (column c is code index c − 1). Returns the Figure."""
    M = np.asarray(M, dtype=float)
    size = M.shape[axis] // num_heads
    if row_labels is None:
        row_labels = [str(i + 1) for i in range(M.shape[0])]
    if col_labels is None:
        col_labels = [str(j + 1) for j in range(M.shape[1])]
    fig = heatmap(M, name, row_labels=row_labels, col_labels=col_labels, fmt=fmt, fontsize=8)
    ax = fig.axes[0]
    for r in range(num_heads):
        if r:
            (ax.axvline if axis == 1 else ax.axhline)(r * size - 0.5, color="white", linewidth=3)
        middle = r * size + (size - 1) / 2
        if axis == 1:
            ax.text(
                middle,
                -0.75,
                _("head {r}").format(r=r + 1),
                ha="center",
                va="bottom",
                fontsize=9,
                color=OKABE_ITO["blue"],
            )
        else:
            ax.text(
                M.shape[1] - 0.4,
                middle,
                _("head {r}").format(r=r + 1),
                ha="left",
                va="center",
                fontsize=9,
                color=OKABE_ITO["blue"],
            )
    if axis == 1:
        ax.set_title(ax.get_title(), pad=24)
    return fig


def stacked_parts(
    parts, part_labels: Sequence[str], *, total_label: str | None = None, xlabel: str | None = None, title: str = ""
):
    """Stacked bars: parts (k, d) are k additive pieces of a d-vector, stacked per column
    (positive up, negative down) in Okabe–Ito colours; a black tick marks their sum. The columns are
    numbered from 1, as in the text (column c is code index c − 1). Returns the Figure."""
    parts = np.asarray(parts, dtype=float)
    k, d = parts.shape
    fig, ax = plt.subplots(figsize=(min(6.4, 1.6 + 0.55 * d), 3.0))
    x = np.arange(d)
    stacked_bars(ax, x, parts, [CYCLE[p % len(CYCLE)] for p in range(k)], part_labels, linewidth=0.5)
    ax.scatter(
        x, parts.sum(axis=0), marker="_", s=400, color="black", linewidths=2.5, zorder=3, label=total_label or _("sum")
    )
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(x, labels=[str(c + 1) for c in x])
    ax.set_xlabel(xlabel or _("column"))
    if title:
        ax.set_title(title)
    fig.legend(loc="outside right center", frameon=False, fontsize=8)
    return fig


# ----------------------------------------------------------------------------- chapter 6's figures
def show_query_blocks(Q, h: int, tokens: Sequence[str]) -> None:
    """Q (n, d_model) cut into its h heads' blocks of d_k columns."""
    d_k = head_width(Q.shape[1], h)
    show_figure(
        lambda: head_bands(Q, "Q", h, row_labels=tokens),
        alt=lambda: _(
            "Heatmap of Q, {n} tokens by {cols} columns, split by white lines into {h} blocks of "
            "{d_k} columns, one block per head."
        ).format(n=Q.shape[0], cols=Q.shape[1], h=h, d_k=d_k),
    )


def show_head_maps(A, tokens: Sequence[str], top) -> None:
    """Every head's weights A (h, n, n); `top` is each head's (token, weight) for the query 'animal'."""
    show_figure(
        lambda: heads_heatmaps(A, tokens),
        alt=lambda: _(
            "Four {n}×{n} attention maps, one per head, rows are queries and columns keys over the tokens "
            "{tokens}. For the query animal the heads' largest weights go to {tops}."
        ).format(
            n=len(tokens),
            tokens=", ".join(tokens),
            tops=_("; ").join(
                _("head {r}: {token} {weight}").format(r=r + 1, token=tok, weight=f"{w:.2f}")
                for r, (tok, w) in enumerate(top)
            ),
        ),
    )


def show_bug_sharpness(right, bug, tokens: Sequence[str], h: int) -> None:
    """Each head's sharpness (`heads.sharpness`) scaled by √d_k (`right`) and by √d_model (`bug`)."""
    show_figure(
        lambda: sharpness_bars(
            {_(r"÷ $\sqrt{d_k}$ (right)"): right, _(r"÷ $\sqrt{d_{\mathrm{model}}}$ (bug)"): bug},
            len(tokens),
            [str(r + 1) for r in range(h)],
        ),
        alt=lambda: _(
            "Grouped bars per head: mean largest weight is lower and mean entropy higher with the bug. {heads}"
        ).format(
            heads=_("; ").join(
                _("head {r}: max {right_max} vs {bug_max}, entropy {right_entropy} vs {bug_entropy}").format(
                    r=r + 1,
                    right_max=f"{right.mean_max_weight[r]:.2f}",
                    bug_max=f"{bug.mean_max_weight[r]:.2f}",
                    right_entropy=f"{right.mean_entropy[r]:.2f}",
                    bug_entropy=f"{bug.mean_entropy[r]:.2f}",
                )
                for r in range(h)
            )
        ),
    )


def show_bug_head_map(A_right, A_bug, tokens: Sequence[str]) -> None:
    """Head 2's weights scaled right (÷ √d_k) beside the bug's (÷ √d_model)."""
    show_figure(
        lambda: heads_heatmaps(
            np.stack([A_right, A_bug]),
            tokens,
            ncols=2,
            titles=[_(r"head 2, ÷ $\sqrt{d_k}$ (right)"), _(r"head 2, ÷ $\sqrt{d_{\mathrm{model}}}$ (bug)")],
        ),
        alt=lambda: _(
            "Head 2's attention map scaled right and with the bug: the bug's map is paler and more even; "
            "its largest weight is {bug} against {right}."
        ).format(bug=f"{A_bug.max():.2f}", right=f"{A_right.max():.2f}"),
    )
