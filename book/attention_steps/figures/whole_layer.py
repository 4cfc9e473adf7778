"""Chapter 8's figures (the whole layer on one sentence): the sentence's X, each head's map, one
head's output for 'it', and the memory of the n × n matrix against n.

Each `show_` function is one line of the chapter: it draws its figure from the numbers the
core computed and says what it shows (the alt text, in the current language), through
`figures.show_figure`."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..costs import attention_bytes
from ..examples import feature_labels
from ..i18n import _
from ..sentence import COLUMNS, VALUE_FEATURES
from . import show_figure
from .plotting import attention_map, growth_plot, heatmap


def show_embedding(X, tokens: Sequence[str]) -> None:
    """The sentence's X: a row per token, a column per feature (`sentence.COLUMNS`), with a colour bar."""

    def draw():
        fig, ax = plt.subplots(figsize=(5.2, 4.2))
        heatmap(X, "X", row_labels=tokens, col_labels=feature_labels(COLUMNS), ax=ax, colorbar=True)
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "Heatmap of X, {n} tokens by {cols} columns. 'animal' is bright in the noun and "
            "animate columns, 'street' in noun and place, 'it' in pronoun; the two position columns change smoothly "
            "down the rows; the three 'other' columns are noise."
        ).format(n=X.shape[0], cols=X.shape[1]),
    )


def show_coreference_head(A1, tokens: Sequence[str], i_it: int, j_animal: int, j_street: int) -> None:
    """Head 1's weights A⁽¹⁾, the cell from 'it' (row i_it) to 'animal' (column j_animal) outlined."""
    n = len(tokens)
    show_figure(
        lambda: attention_map(
            A1,
            tokens,
            title=_("head 1 (coreference): A⁽¹⁾, {n} × {n}").format(n=n),
            highlight=(i_it, j_animal),
        ),
        alt=lambda: _(
            "Attention map of head 1, queries as rows and keys as columns, both labelled by the {n} tokens. "
            "The row of 'it' is dark except for a bright cell at 'animal' (weight {animal}, outlined) "
            "and a dimmer one at 'street' ({street}); every other row is nearly flat."
        ).format(n=n, animal=f"{A1[i_it, j_animal]:.2f}", street=f"{A1[i_it, j_street]:.2f}"),
    )


def show_previous_token_head(A2, tokens: Sequence[str]) -> None:
    """Head 2's weights A⁽²⁾: each token on the one before it."""
    n = len(tokens)
    show_figure(
        lambda: attention_map(A2, tokens, title=_("head 2 (previous token): A⁽²⁾, {n} × {n}").format(n=n)),
        alt=lambda: _(
            "Attention map of head 2: a bright diagonal just below the main diagonal, each token attending to the token "
            "before it with weight about {weight}; the first token attends to itself."
        ).format(weight=f"{np.mean([A2[i, i - 1] for i in range(1, n)]):.2f}"),
    )


def show_broad_head(A3, tokens: Sequence[str]) -> None:
    """Head 3's weights A⁽³⁾, nearly even, without the weights written in."""
    n = len(tokens)
    show_figure(
        lambda: attention_map(A3, tokens, title=_("head 3 (broad): A⁽³⁾, {n} × {n}").format(n=n), annotate=False),
        alt=lambda: _(
            "Attention map of head 3: an almost even dark blue, every weight between {low} and {high}, close to 1/n = {uniform}."
        ).format(low=f"{A3.min():.2f}", high=f"{A3.max():.2f}", uniform=f"{1 / n:.2f}"),
    )


def show_head_output(z_it, token: str) -> None:
    """Head 1's output for one token (`z_it`, one number per value feature, `sentence.VALUE_FEATURES[0]`)."""
    show_figure(
        lambda: heatmap(
            np.atleast_2d(z_it),
            _("z for 'it', head 1"),
            row_labels=[token],
            col_labels=feature_labels(VALUE_FEATURES[0]),
        ),
        alt=lambda: _(
            "One row of four numbers, the output of head 1 for 'it': noun {noun}, animate {animate}, "
            "place {place}, adjective {adjective}."
        ).format(noun=f"{z_it[0]:.2f}", animate=f"{z_it[1]:.2f}", place=f"{z_it[2]:.2f}", adjective=f"{z_it[3]:.2f}"),
    )


def show_matrix_memory(lengths, rows) -> None:
    """The memory of one n × n attention matrix against n (`lengths`), in FP16 and FP32, the FP16 points
    labelled with `rows` (`costs.memory_table(lengths, bytes_per_entry="FP16")`)."""
    ns = np.array(lengths)
    memory = {precision: [attention_bytes(n, precision) / 2**20 for n in ns] for precision in ("FP16", "FP32")}
    show_figure(
        lambda: growth_plot(
            ns,
            memory,
            xlabel=_("sequence length n (tokens)"),
            ylabel=_("memory of A (MiB)"),
            title=_("The n × n matrix grows with n²"),
            point_labels=[r.bytes_text for r in rows],
        ),
        alt=lambda: _(
            "Log–log plot of the memory of one n × n attention matrix against n, a straight line of slope 2 "
            "for FP16 and a parallel one twice as high for FP32; the FP16 points are labelled "
            "{labels} at n = {lengths}."
        ).format(labels=", ".join(r.bytes_text for r in rows), lengths=", ".join(r.n_text for r in rows)),
    )


__all__ = [
    "show_broad_head",
    "show_coreference_head",
    "show_embedding",
    "show_head_output",
    "show_matrix_memory",
    "show_previous_token_head",
]
