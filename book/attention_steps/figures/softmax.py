"""Chapter 4's figures (softmax): S turned into A, the exponential against dividing by the sum,
temperature, and saturation as the scores grow.

Each `show_` function is one line of the chapter: it draws its figure (with `figures.scaling`'s
drawing functions) from the numbers the core computed and says what it shows (the alt text, in the
current language), through `figures.show_figure`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..i18n import _
from . import show_figure
from .plotting import matrix_equation
from .scaling import exp_vs_linear, saturation_curve, temperature_bars


def _keys(n: int) -> list[str]:
    """k₁ … kₙ (n ≤ 9): the keys of a made-up row of scores."""
    return [f"k{chr(0x2080 + j)}" for j in range(1, n + 1)]


def show_softmax_rows(S, A, tokens: Sequence[str]) -> None:
    """softmax applied to each row of S gives A, written out as matrices."""
    show_figure(
        lambda: matrix_equation([("S", S, tokens, tokens), "softmax", "→", ("A", A, tokens, tokens)]),
        alt=lambda: _("Softmax applied to each row of S = {s} gives A = {a}; each row of A sums to 1.").format(
            s=np.round(S, 2).tolist(), a=np.round(A, 2).tolist()
        ),
    )


def show_exp_vs_linear(scores, linear, soft) -> None:
    """One row of positive scores turned into weights by dividing by the sum (`linear`) and by softmax (`soft`)."""
    show_figure(
        lambda: exp_vs_linear(scores, _keys(len(scores)), linear, soft),
        alt=lambda: _(
            "For scores 1, 2, 3, dividing by the sum gives weights {linear}, softmax gives "
            "{soft}: the exponential gives the best key a much larger share."
        ).format(linear=np.round(linear, 2).tolist(), soft=np.round(soft, 2).tolist()),
    )


def show_temperatures(by_T: dict[float, np.ndarray]) -> None:
    """Softmax of one row of scores at several temperatures (`by_T`: {T: weights}, `with_temperature`)."""
    n_keys = len(next(iter(by_T.values())))
    show_figure(
        lambda: temperature_bars(by_T, _keys(n_keys)),
        alt=lambda: _("Softmax of the scores 2, 1, 0.5, -1 at five temperatures: {each}.").format(
            each=_("; ").join(
                _("T = {T}: largest weight {w}").format(T=f"{T:g}", w=f"{w.max():.2f}") for T, w in by_T.items()
            )
        ),
    )


def show_saturation(factors, max_weight, gradient) -> None:
    """The largest weight and the gradient's size as the scores are multiplied by each factor λ."""
    show_figure(
        lambda: saturation_curve(factors, max_weight, gradient),
        alt=lambda: _(
            "As the scale factor λ on the scores grows from {c_first} to {c_last}, the largest weight rises from "
            "{w_first} to {w_last} and the gradient size falls from {g_first} to {g_last}."
        ).format(
            c_first=f"{factors[0]:g}",
            c_last=f"{factors[-1]:g}",
            w_first=f"{max_weight[0]:.2f}",
            w_last=f"{max_weight[-1]:.4f}",
            g_first=f"{gradient[0]:.3f}",
            g_last=f"{gradient[-1]:.1e}",
        ),
    )


__all__ = ["show_exp_vs_linear", "show_saturation", "show_softmax_rows", "show_temperatures"]
