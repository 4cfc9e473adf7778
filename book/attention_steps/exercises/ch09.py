"""Chapter 9 (causal masking): check-yourself exercises on the mask, the
masked weights and the "I love" example read left to right."""

from __future__ import annotations

import numpy as np

from ..examples import i_love
from ..masks import causal_mask, masked_softmax
from ..multihead import trace_attention
from .checking import Exercise, register

# The scores of exercise 9.1 (the chapter prints them): three tokens.
EX1_S = np.array([[1.0, 2.0, 0.0], [0.5, 1.5, 3.0], [2.0, 0.0, 1.0]])
# Exercise 9.3 asks how many weights the causal mask sets to zero for this many tokens.
ZEROS_N = 512


def _i_love_causal_Z():
    ex = i_love()
    n = len(ex.tokens)
    return trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, mask=causal_mask(n)).head(0).Z


register(
    Exercise(
        id="9.1",
        name="A",
        expected=lambda: masked_softmax(EX1_S, causal_mask(3)),
        hint=(
            "Token i keeps only the scores of keys 1 … i. Token 1 (row A[0] in code) has one score, so "
            "its weight is 1; token 2 (A[1]) is the softmax of its first two scores; the entries above "
            "the diagonal are exactly 0."
        ),
    )
)

register(
    Exercise(
        id="9.2",
        name="Z",
        expected=_i_love_causal_Z,
        hint=(
            "\"I\" may only attend to itself, so z for \"I\" is v for \"I\". \"love\" sees both tokens, "
            "as it did without the mask, so its row of A and of Z does not change."
        ),
    )
)

register(
    Exercise(
        id="9.3",
        name="the number of zero weights",
        expected=lambda: int((~causal_mask(ZEROS_N)).sum()),
        atol=0.5,
        hint="The mask keeps the diagonal and everything below it: n(n + 1)/2 of the n² entries. The rest are zeros.",
    )
)
