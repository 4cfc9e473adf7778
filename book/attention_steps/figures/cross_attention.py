"""Chapter 10's figures (cross-attention): the toy embeddings and W_Q, the weights with which
the decoder reads the source (beside the encoder's self-attention), and what it takes from it.

Each `show_` function is one line of the chapter: it draws its figure from the numbers the
core computed and says what it shows (the alt text, in the current language), through
`figures.show_figure`. `t` is the translation example (`examples.translation()`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..examples import feature_labels
from ..i18n import _
from . import show_figure
from .plotting import heatmap


def show_decoder_output(Z, t) -> None:
    """The output Z (one row per decoder position, one column per meaning) of the translation
    example `t` (`examples.translation()`), on a 0…1 scale."""
    Z = np.asarray(Z)
    i_mao, animal, person = t.position_predicting("猫"), t.features.index("animal"), t.features.index("person")
    show_figure(
        lambda: heatmap(
            Z,
            "Z",
            row_labels=t.prediction_labels,
            col_labels=feature_labels(t.features),
            vmin=0,
            vmax=1,
            cmap="cividis",
        ),
        alt=lambda: _(
            "The output Z ({rows} by {cols}): the row that predicts māo (at ài's position) is "
            "{animal} animal and {person} person and affection; every row has 0 in the "
            "start column, which the values leave out."
        ).format(rows=Z.shape[0], cols=Z.shape[1], animal=f"{Z[i_mao, animal]:.2f}", person=f"{Z[i_mao, person]:.2f}"),
    )


def show_embeddings(t) -> None:
    """The toy embeddings side by side: X_src (I, love, cats) and X_tgt (what the decoder reads)."""

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(6.4, 2.9), width_ratios=[3, 4])
        features = feature_labels(t.features)
        heatmap(t.X_src, "X_src", row_labels=t.source, col_labels=features, ax=axes[0], fmt="{:.0f}")
        heatmap(t.X_tgt, "X_tgt", row_labels=t.input_labels, col_labels=features, ax=axes[1], fmt="{:.0f}")
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "The toy embeddings: X_src {src_shape} for I, love, cats and X_tgt {tgt_shape} "
            "for what the decoder reads: the start token, wǒ, ài and māo (我 爱 猫). Each word has a 1 in "
            "its meaning column (person, affection or animal), the Chinese word in the same column as "
            "its English translation; the start token has a 1 in the start column only."
        ).format(src_shape=t.X_src.shape, tgt_shape=t.X_tgt.shape),
    )


def show_query_weights(t) -> None:
    """W_Q: what each meaning the decoder reads asks for."""

    def draw():
        features = feature_labels(t.features)
        fig = heatmap(t.W_Q, "W_Q", row_labels=features, col_labels=features, fmt="{:.0f}")
        fig.axes[0].set_ylabel(_("the decoder reads"))
        fig.axes[0].set_xlabel(_("its query asks for"))
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "W_Q, {rows} by {cols}: rows are what the decoder reads, columns "
            "what its query asks for. Start asks for person, person for affection, affection for "
            "animal (each with weight {weight}); the animal row is all zeros."
        ).format(rows=t.W_Q.shape[0], cols=t.W_Q.shape[1], weight=f"{t.W_Q.max():.0f}"),
    )


def show_cross_weights(A, t) -> None:
    """The cross-attention weights A: a row per decoder position ('reads → predicts'), a column per source word."""
    show_figure(
        lambda: heatmap(A, "A", row_labels=t.prediction_labels, col_labels=t.source, vmin=0, vmax=1, cmap="cividis"),
        alt=lambda: _(
            "The cross-attention weights A, {rows} rows, one per decoder position labelled 'reads → "
            "predicts' (start → wǒ, wǒ → ài, ài → māo, māo → end), by {cols} columns (I, love, cats). "
            "The first {first} rows put {top} on the source word the next Chinese word translates "
            "(I, love, cats in turn) and {other} on each other; the last row spreads "
            "{last} on each."
        ).format(
            rows=A.shape[0],
            cols=A.shape[1],
            first=A.shape[0] - 1,
            top=f"{A.max():.2f}",
            other=f"{A[0, 1]:.2f}",
            last=f"{A[-1, 0]:.2f}",
        ),
    )


def show_self_and_cross_weights(A_self, A, t) -> None:
    """The encoder's self-attention weights over the source beside the cross-attention weights A."""

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.0), width_ratios=[1, 1])
        heatmap(
            A_self, _("self: A"), row_labels=t.source, col_labels=t.source, ax=axes[0], vmin=0, vmax=1, cmap="cividis"
        )
        heatmap(
            A,
            _("cross: A"),
            row_labels=t.prediction_labels,
            col_labels=t.source,
            ax=axes[1],
            vmin=0,
            vmax=1,
            cmap="cividis",
        )
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "Left: the encoder's self-attention weights, {rows} by {cols}: 'love' "
            "puts {on_i} on 'I' and {on_cats} on 'cats'. Right: the cross-attention "
            "weights, {cross_rows} by {cross_cols}, each decoder position on the source word it is "
            "about to translate."
        ).format(
            rows=A_self.shape[0],
            cols=A_self.shape[1],
            on_i=f"{A_self[1, 0]:.2f}",
            on_cats=f"{A_self[1, 2]:.2f}",
            cross_rows=A.shape[0],
            cross_cols=A.shape[1],
        ),
    )
