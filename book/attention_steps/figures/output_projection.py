"""Chapter 7's figures (the output projection): W_O's blocks, one per head, and an output row as
the sum of the heads' parts.

Each `show_` function is one line of the chapter: it draws its figure from the numbers the
core computed and says what it shows (the alt text, in the current language), through
`figures.show_figure`."""

from __future__ import annotations

import numpy as np

from ..i18n import _
from . import show_figure
from .heads import head_bands, stacked_parts


def show_output_blocks(W_O, h: int, d_v: int) -> None:
    """W_O (h·d_v, d_model) cut into its h blocks of d_v rows, one per head."""
    show_figure(
        lambda: head_bands(W_O, "W_O", h, axis=0),
        alt=lambda: _(
            "Heatmap of W_O, {rows} by {cols}, split by white lines into {h} blocks "
            "of {d_v} rows: block r multiplies head r's columns of Z_cat."
        ).format(rows=W_O.shape[0], cols=W_O.shape[1], h=h, d_v=d_v),
    )


def show_head_parts(parts, token: str, y) -> None:
    """One token's output row y (d_model,) as stacked bars of the heads' parts (`parts`: (h, d_model),
    Z⁽ʳ⁾ W_O⁽ʳ⁾ for that token, `heads.head_contributions`)."""
    h, d_model = parts.shape
    show_figure(
        lambda: stacked_parts(
            parts,
            [_("head {r}").format(r=r + 1) for r in range(h)],
            total_label=f"y ({token})",
            xlabel=_("column of y"),
        ),
        alt=lambda: _(
            "Stacked bars over the {d_model} output columns for the token {token}: each column is the sum of "
            "{h} head contributions; the sums are {sums}."
        ).format(d_model=d_model, token=token, h=h, sums=np.round(y, 2).tolist()),
    )


__all__ = ["show_head_parts", "show_output_blocks"]
