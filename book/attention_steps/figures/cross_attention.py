"""Chapter 10's figures (cross-attention): what the decoder takes from the source.

Each `show_` function is one line of the chapter: it draws its figure from the numbers the
core computed and says what it shows (the alt text, in the current language), through
`figures.show_figure`."""

from __future__ import annotations

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
