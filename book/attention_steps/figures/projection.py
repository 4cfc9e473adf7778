"""The introduction's and chapters 1–2's figures (projection, scores): the pipeline from X
to Y, and dot products as arrows, and the figures of the introduction and chapter 1 (chapter 2's
are in `figures.scores`).

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapters
call, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from ..i18n import _
from ..palette import FIGURE, OKABE_ITO
from . import show_figure
from .plotting import heatmap, matrix_equation

# The seven stages as boxes: key -> (x, y, label, default shape, stage number). Inside the
# dashed frame every symbol is head r's, so it carries (r) (the book's notation convention).
PIPELINE_BOXES = {
    "X": (5.0, 16.0, r"$X$", r"$n \times d_{\mathrm{model}}$", 0),
    "Q": (1.75, 13.6, r"$Q^{(r)} = XW_Q^{(r)}$", r"$n \times d_k$", 1),
    "K": (5.0, 13.6, r"$K^{(r)} = XW_K^{(r)}$", r"$n \times d_k$", 1),
    "V": (8.25, 13.6, r"$V^{(r)} = XW_V^{(r)}$", r"$n \times d_v$", 1),
    "QK": (3.4, 11.5, r"$Q^{(r)}K^{(r)\top}$", r"$n \times n$", 2),
    "S": (3.4, 9.4, r"$S^{(r)} = Q^{(r)}K^{(r)\top} / \sqrt{d_k}$", r"$n \times n$", 3),
    "A": (3.4, 7.3, r"$A^{(r)} = \mathrm{softmax}(S^{(r)})$", r"$n \times n$, rows sum to 1", 4),
    "Z": (5.6, 5.2, r"$Z^{(r)} = A^{(r)}V^{(r)}$", r"$n \times d_v$", 5),
    "Zcat": (5.6, 3.1, r"$Z_{\mathrm{cat}} = [Z^{(1)} \cdots Z^{(h)}]$", r"$n \times h d_v$", 6),
    "Y": (5.6, 1.0, r"$Y = Z_{\mathrm{cat}} W^O$", r"$n \times d_{\mathrm{model}}$", 7),
}
PIPELINE_WIDTH = {
    "X": 4.2,
    "Q": 3.0,
    "K": 3.0,
    "V": 3.0,
    "QK": 5.4,
    "S": 5.4,
    "A": 5.4,
    "Z": 6.0,
    "Zcat": 7.6,
    "Y": 6.0,
}
PIPELINE_EDGES = [
    ("X", "Q"),
    ("X", "K"),
    ("X", "V"),
    ("Q", "QK"),
    ("K", "QK"),
    ("QK", "S"),
    ("S", "A"),
    ("A", "Z"),
    ("V", "Z"),
    ("Z", "Zcat"),
    ("Zcat", "Y"),
]
PIPELINE_STAGES = (
    "projection",
    "scores",
    "scaling",
    "softmax",
    "weighted sum",
    "multi-head concat",
    "output projection",
)


def pipeline_diagram(*, highlight: int | None = None, shapes: dict[str, str] | None = None):
    """Self-attention from X to Y as boxes and arrows, top to bottom, each box
    with its formula, its shape and its stage number (1 … 7, the chapters).

    `highlight` (a stage number) draws that stage's boxes in vermillion and
    greys the rest ("you are here"). `shapes` overrides the shape text of boxes
    keyed "X", "Q", "K", "V", "QK", "S", "A", "Z", "Zcat", "Y". Tall and narrow
    so it reads on a phone. Returns the Figure.
    """
    if highlight is not None and highlight not in range(1, 8):
        raise ValueError(f"highlight must be a stage number 1 … 7 or None, got {highlight!r}")
    unknown = set(shapes or {}) - set(PIPELINE_BOXES)
    if unknown:
        raise ValueError(f"shapes has unknown box(es) {sorted(unknown)}; boxes are {list(PIPELINE_BOXES)}")
    defaults = {key: spec[3] for key, spec in PIPELINE_BOXES.items()}
    defaults["A"] = _("{shape}, rows sum to 1").format(shape=r"$n \times n$")  # words: translated
    shapes = defaults | dict(shapes or {})
    fig, ax = plt.subplots(figsize=(4.6, 7.8))
    ax.set_xlim(-0.4, 10.4)
    ax.set_ylim(0.0, 17.0)
    ax.axis("off")
    # One head's stages (1–5) sit inside a dashed frame: the part repeated h times.
    ax.add_patch(
        matplotlib.patches.FancyBboxPatch(
            (-0.1, 4.35),
            10.2,
            10.15,
            boxstyle="round,pad=0.05,rounding_size=0.3",
            fill=False,
            linestyle=(0, (4, 3)),
            edgecolor=FIGURE["frame"],
            linewidth=1.0,
        )
    )
    ax.text(
        10.25,
        9.4,
        _("one head r; repeated for r = 1 … h"),
        rotation=90,
        ha="left",
        va="center",
        fontsize=9.5,
        color=FIGURE["note"],
    )
    for a, b in PIPELINE_EDGES:
        xa, ya = PIPELINE_BOXES[a][:2]
        xb, yb = PIPELINE_BOXES[b][:2]
        if b == "Z":  # arrive straight from above, beside each other
            xb = xa
        elif a in ("Q", "K"):
            xb = xb + (-0.9 if a == "Q" else 0.9)
        ax.annotate(
            "",
            xy=(xb, yb + 0.62),
            xytext=(xa, ya - 0.62),
            arrowprops={"arrowstyle": "-|>", "color": FIGURE["arrow"], "linewidth": 1.3, "shrinkA": 0, "shrinkB": 0},
        )
    for key, (x, y, label, _shape, stage) in PIPELINE_BOXES.items():
        on = highlight is None or stage == highlight
        edge = OKABE_ITO["vermillion"] if highlight is not None and on else OKABE_ITO["blue"]
        width = PIPELINE_WIDTH[key]
        ax.add_patch(
            matplotlib.patches.FancyBboxPatch(
                (x - width / 2, y - 0.6),
                width,
                1.2,
                boxstyle="round,pad=0.02,rounding_size=0.25",
                facecolor="white" if on else FIGURE["off"],
                edgecolor=edge if on else FIGURE["off-edge"],
                linewidth=2.4 if highlight is not None and on else 1.4,
            )
        )
        ink = "black" if on else FIGURE["off-ink"]
        ax.text(x, y + 0.2, label, ha="center", va="center", fontsize=11 if key in ("Q", "K", "V") else 12.5, color=ink)
        ax.text(
            x,
            y - 0.33,
            shapes[key],
            ha="center",
            va="center",
            fontsize=10,
            color=FIGURE["note"] if on else FIGURE["off-note"],
        )
        if stage and (key not in ("K", "V")):
            cx = x - width / 2 - 0.05
            ax.text(
                cx,
                y + 0.55,
                str(stage),
                ha="center",
                va="center",
                fontsize=9,
                color="white",
                fontweight="bold",
                bbox={
                    "boxstyle": "circle,pad=0.25",
                    "facecolor": edge if on else FIGURE["off-edge"],
                    "edgecolor": "none",
                },
            )
    return fig


def dot_product_panels(a, others: Sequence, *, names: Sequence[str] | None = None):
    """One small panel per vector b in `others`: arrows a and b from the origin,
    titled with a · b. For 2-D vectors (the source articles' [1, 0] against [1, 0], [0, 1],
    [-1, 0]). Returns the Figure."""
    a = np.asarray(a, dtype=float)
    others = [np.asarray(b, dtype=float) for b in others]
    if a.shape != (2,) or any(b.shape != (2,) for b in others):
        raise ValueError(f"dot_product_panels draws 2-D vectors, got a {a.shape} and {[b.shape for b in others]}")
    names = list(names) if names is not None else ["b"] * len(others)
    fig, axes = plt.subplots(1, len(others), figsize=(min(1.7 * len(others), 6.4), 2.2))
    limit = 1.45 * max(np.abs(np.concatenate([a, *others])).max(), 1.0)
    for ax, b, name in zip(np.atleast_1d(axes), others, names):
        ax.set_xlim(-limit, limit)
        ax.set_ylim(-limit, limit)
        ax.set_aspect("equal")
        ax.axhline(0, color=FIGURE["axis"], linewidth=0.8, zorder=0)
        ax.axvline(0, color=FIGURE["axis"], linewidth=0.8, zorder=0)
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        for vec, colour, offset in ((a, OKABE_ITO["blue"], 0.0), (b, OKABE_ITO["vermillion"], 0.06)):
            ax.annotate(
                "",
                xy=vec + offset,
                xytext=(offset, offset),
                arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 2.2, "shrinkA": 0, "shrinkB": 0},
            )
        ax.text(*(a + [0, -0.22 * limit]), "a", color=OKABE_ITO["blue"], ha="center", va="center", fontsize=12)
        ax.text(
            *(b + [0.12 * limit * (b[1] != 0), 0.2 * limit * (b[1] == 0)]),
            "b",
            color=OKABE_ITO["vermillion"],
            ha="center",
            va="center",
            fontsize=12,
        )
        ax.set_title(f"{name}\na · b = {float(a @ b):g}".replace("= -", "= −"), fontsize=12)
    return fig


# ----------------------------------------------------------------------------- the chapters' figures
def show_query_projection(X, W_Q, Q, tokens: Sequence[str]) -> None:
    """Chapter 1: X · W_Q = Q written out as matrices, the rows labelled by the tokens."""
    terms = [("X", X, tokens, None), "·", ("W_Q", W_Q), "=", ("Q", Q, tokens, None)]
    show_figure(
        lambda: matrix_equation(terms, fmt="{:.0f}", size=(5.6, 2.1)),
        alt=lambda: _(
            "X (2 × 4, rows I and love) times W_Q (4 × 3) equals Q (2 × 3); the rows of Q are {q_i} for I and {q_love} for love."
        ).format(q_i=Q[0].astype(int).tolist(), q_love=Q[1].astype(int).tolist()),
    )


def show_key_projection(X, W_K, K, tokens: Sequence[str]) -> None:
    """Chapter 1: X · W_K = K written out as matrices."""
    terms = [("X", X, tokens, None), "·", ("W_K", W_K), "=", ("K", K, tokens, None)]
    show_figure(
        lambda: matrix_equation(terms, fmt="{:.0f}", size=(5.6, 2.1)),
        alt=lambda: _(
            "X (2 × 4) times W_K (4 × 3) equals K (2 × 3); the rows of K are {k_i} for I and {k_love} for love."
        ).format(k_i=K[0].astype(int).tolist(), k_love=K[1].astype(int).tolist()),
    )


def show_scores_without_and_with_projections(XX_T, QK_T, tokens: Sequence[str]) -> None:
    """Chapter 1: the scores X Xᵀ (no projections, symmetric) beside Q Kᵀ (with W_Q and W_K)."""

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(6.2, 2.6))
        for ax, M, name in zip(axes, (XX_T, QK_T), (_("XXᵀ, no projections"), _("QKᵀ, with W_Q, W_K"))):
            heatmap(M, name, row_labels=tokens, col_labels=tokens, ax=ax, fmt="{:.0f}", vmin=0, vmax=3)
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "Two 2 × 2 score heatmaps for I and love. Without projections, X X transpose is {xx}: symmetric, "
            "zero between the two tokens. With projections, Q K transpose is {qk}: not symmetric, and love scores I highly."
        ).format(xx=XX_T.astype(int).tolist(), qk=QK_T.astype(int).tolist()),
    )


def show_pipeline() -> None:
    """The introduction's map of the seven stages, from X to Y (`pipeline_diagram`)."""
    show_figure(
        pipeline_diagram,
        alt=lambda: _(
            "Flow diagram of self-attention from top to bottom, inside a dashed frame for one head r: X is projected "
            "into Q^(r) = X W_Q^(r), K^(r) = X W_K^(r) and V^(r) = X W_V^(r) (stage 1); Q^(r) and K^(r) give the scores "
            "Q^(r) K^(r) transpose (stage 2), divided by the square root of d_k (stage 3), turned into weights A^(r) by "
            "softmax (stage 4), which mix V^(r) into Z^(r) = A^(r) V^(r) (stage 5); stages 1 to 5 form one head, "
            "repeated for r = 1 to h; the heads are concatenated into Z_cat (stage 6) and multiplied by W^O "
            "to give Y (stage 7). Each box shows its shape, for example n × d_model for X and n × n for the scores."
        ),
    )


def show_weights(A, tokens: Sequence[str]) -> None:
    """The introduction's 2 × 2 attention matrix A for 'I love', on a 0…1 scale."""
    show_figure(
        lambda: heatmap(A, "A", row_labels=tokens, col_labels=tokens, vmin=0, vmax=1),
        alt=lambda: _(
            "Heatmap of the 2 × 2 attention matrix A for the tokens I and love: rows {row_i} and {row_love}."
        ).format(row_i=A[0].round(2).tolist(), row_love=A[1].round(2).tolist()),
    )
