"""Chapter 4 (softmax): check-yourself exercises."""

from __future__ import annotations

import numpy as np

from .. import projection, scale, scores, softmax
from ..examples import i_love
from ..scaling import softmax_jacobian
from .checking import Exercise, register

LARGE_SCORES = (1000.0, 999.0, 998.0)  # exercise 4.2: exp(1000) overflows float64


def _i_love_A() -> np.ndarray:
    ex = i_love()
    Q, K = projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K)
    return softmax(scale(scores(Q, K), Q.shape[-1]))


register(
    Exercise(
        id="4.1",
        name="the second row of A",
        expected=lambda: _i_love_A()[1],
        hint="Exponentiate each entry of the second row of S, then divide each by their sum.",
    )
)

register(
    Exercise(
        id="4.2",
        name="softmax([1000, 999, 998])",
        expected=lambda: softmax(np.array(LARGE_SCORES)),
        hint=f"Subtract the largest score first: the result equals softmax({[s - max(LARGE_SCORES) for s in LARGE_SCORES]}).",
    )
)

register(
    Exercise(
        id="4.3",
        name="the Jacobian J",
        expected=lambda: softmax_jacobian(_i_love_A()[0]),
        hint="J = diag(a) − aaᵀ with a = the first row of A: diagonal a_j(1 − a_j), off-diagonal −a_i a_j.",
    )
)
