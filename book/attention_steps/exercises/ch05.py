"""Chapter 5 exercises: the weighted sum Z = A V."""

from __future__ import annotations

import numpy as np

from .. import projection, softmax, weighted_sum
from ..examples import i_love, new_scaled, new_scores
from ..i18n import N_
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example the exercises read: check("5.1", my_z, ex=ex)

# 5.2 and 5.3 use three tokens with these value rows (n_k = 3, d_v = 2) and weights.
V_THREE = np.array([[2.0, 0.0], [0.0, 4.0], [1.0, 1.0]])
A_ROW = np.array([0.5, 0.25, 0.25])
# 5.3: the value that column 2 of z_I should take (column 2 is z_I[1] in code).
TARGET = 0.25


def _values(ex):
    return projection(ex.X, ex.W_V)


def _weight_for_target(ex) -> float:
    """5.3: the weight a on "love" with column 2 of (1 − a) v_I + a v_love equal to TARGET."""
    V = _values(ex)
    low, high = V[0, 1], V[1, 1]  # column 2 (index 1) of v_I and of v_love
    if high == low:
        raise ValueError("column 2 of v_I and v_love are equal: no weight moves z_I there")
    return float((TARGET - low) / (high - low))


register(
    Exercise(
        id="5.1",
        name="z_new",
        expected=lambda ex: weighted_sum(softmax(new_scaled(ex))[None, :], _values(ex))[0],
        inputs=EX,
        mistakes=(
            Mistake(
                N_("mix the embeddings X instead of the values V = X W_V"), lambda ex: softmax(new_scaled(ex)) @ ex.X
            ),
            Mistake(
                N_("mix the values with the scores instead of the weights (no softmax)"),
                lambda ex: new_scaled(ex) @ _values(ex),
            ),
            Mistake(
                N_("use weights from unscaled scores (no ÷ √d_k before the softmax)"),
                lambda ex: softmax(new_scores(ex)) @ _values(ex),
            ),
            Mistake(
                N_("put each weight on the other token's value row (the weights in reverse order)"),
                lambda ex: softmax(new_scaled(ex))[::-1] @ _values(ex),
            ),
        ),
        hint=N_("z_new = a_1 v_I + a_2 v_love with the weights a of exercise 4.1 and the value rows of V (chapter 1)."),
    )
)

register(
    Exercise(
        id="5.2",
        name="z",
        expected=lambda: weighted_sum(A_ROW[None, :], V_THREE)[0],
        mistakes=(
            Mistake(N_("average the value rows without the weights"), lambda: V_THREE.mean(axis=0)),
            Mistake(N_("add the value rows without the weights"), lambda: V_THREE.sum(axis=0)),
        ),
        hint=N_("z = 0.5·v_1 + 0.25·v_2 + 0.25·v_3, column by column."),
    )
)

register(
    Exercise(
        id="5.3",
        name="a_love",
        weights=True,
        expected=_weight_for_target,
        inputs=EX,
        mistakes=(
            Mistake(
                N_('give the weight on "I" (1 − a) instead of the weight on "love"'),
                lambda ex: 1 - _weight_for_target(ex),
            ),
        ),
        hint=N_("z_I = (1 − a)·v_I + a·v_love; write out its column 2 with the numbers of V and solve for a."),
    )
)
