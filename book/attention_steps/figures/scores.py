"""Chapter 2's figures (scores): dot products as arrows, QKᵀ written out, and QKᵀ beside its transpose.

Each `show_` function is one line of the chapter: it draws its figure from the numbers the
core computed and says what it shows (the alt text, in the current language), through
`figures.show_figure`."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..i18n import _
from . import show_figure
from .plotting import heatmap, matrix_equation
from .projection import dot_product_panels


def show_dot_products(a, others: dict) -> None:
    """a = [1, 0] against b in the same direction, at a right angle and the other way
    (`others`: {"same direction": b, "orthogonal": b, "opposite": b})."""
    show_figure(
        lambda: dot_product_panels(
            a,
            list(others.values()),
            names=[_("same direction"), _("orthogonal"), _("opposite")],
        ),
        alt=lambda: _(
            "Three panels, each with the vector a = [1, 0] pointing right and a second vector b: "
            "b = [1, 0] in the same direction gives a · b = {same}, "
            "b = [0, 1] at a right angle gives {right}, "
            "b = [-1, 0] pointing the other way gives {opposite}."
        ).format(
            same=a @ np.array([1, 0]),
            right=a @ np.array([0, 1]),
            opposite=a @ np.array([-1, 0]),
        ),
    )


def show_score_matrix(Q, K, QK_T, tokens: Sequence[str]) -> None:
    """Q · Kᵀ = QKᵀ written out as matrices, rows the query tokens and columns the key tokens."""
    terms = [
        ("Q", Q, tokens, None),
        "·",
        ("Kᵀ", K.T, None, tokens),
        "=",
        ("QKᵀ", QK_T, tokens, tokens),
    ]
    show_figure(
        lambda: matrix_equation(terms, fmt="{:.0f}", size=(5.6, 2.1)),
        alt=lambda: _(
            "Q (2 × 3, rows I and love) times K transpose (3 × 2, columns I and love) equals the "
            "2 × 2 score matrix QKᵀ with rows {row_i} for I and {row_love} for love."
        ).format(row_i=QK_T[0].astype(int).tolist(), row_love=QK_T[1].astype(int).tolist()),
    )


def show_scores_and_transpose(QK_T, tokens: Sequence[str]) -> None:
    """QKᵀ beside its transpose: the off-diagonal entries trade places."""

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(5.6, 2.5))
        for ax, matrix, title in zip(axes, (QK_T, QK_T.T), ("QKᵀ", "(QKᵀ)ᵀ")):
            heatmap(matrix, title, row_labels=tokens, col_labels=tokens, ax=ax, fmt="{:.0f}", vmin=0, vmax=3)
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "QKᵀ = {qk} beside its transpose {qk_t}: the off-diagonal entries trade places, so the matrix is not symmetric."
        ).format(qk=QK_T.astype(int).tolist(), qk_t=QK_T.T.astype(int).tolist()),
    )


__all__ = ["show_dot_products", "show_score_matrix", "show_scores_and_transpose"]
