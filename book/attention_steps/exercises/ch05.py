"""Chapter 5 exercises: the weighted sum Z = A V."""

from __future__ import annotations

import numpy as np

from .. import trace_attention, weighted_sum
from ..examples import i_love
from .checking import Exercise, register

# 5.2 and 5.3 use three tokens with these value rows (n_k = 3, d_v = 2) and weights.
V_THREE = np.array([[2.0, 0.0], [0.0, 4.0], [1.0, 1.0]])
A_ROW = np.array([0.5, 0.25, 0.25])
# 5.3: the value that column 2 of z_I should take (column 2 is z_I[1] in code).
TARGET = 0.5


def _i_love_trace():
    ex = i_love()
    return trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)


def _weight_for_target() -> float:
    """5.3: the weight a on "love" with column 2 of (1 − a) v_I + a v_love equal to TARGET."""
    V = _i_love_trace().V
    low, high = V[0, 1], V[1, 1]  # column 2 (index 1) of v_I and of v_love
    return float((TARGET - low) / (high - low))


register(Exercise(
    id="5.1", name="Z",
    expected=lambda: _i_love_trace().head(0).Z,
    hint="Z = A V: row i of Z is a_i1 v_1 + a_i2 v_2; use the A and V of the 'I love' example.",
))  # fmt: skip

register(Exercise(
    id="5.2", name="z",
    expected=lambda: weighted_sum(A_ROW[None, :], V_THREE)[0],
    hint="z = 0.5·v_1 + 0.25·v_2 + 0.25·v_3, column by column.",
))  # fmt: skip

register(Exercise(
    id="5.3", name="a_love",
    expected=_weight_for_target,
    hint="z_I = (1 − a)·v_I + a·v_love; its column 2 is just a, because v_I has 0 there and v_love has 1.",
))  # fmt: skip
