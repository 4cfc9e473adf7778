"""Chapter 9 (causal masking): check-yourself exercises on the mask, the
masked weights and the "I love" example read left to right."""

from __future__ import annotations

import numpy as np

from ..core import softmax
from ..examples import i_love
from ..i18n import N_
from ..masks import causal_mask, masked_softmax
from ..multihead import trace_attention
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example 9.2 reads: check("9.2", my_Z, ex=ex)

# The scores of exercise 9.1 (the chapter prints them): three tokens.
EX1_S = np.array([[1.0, 2.0, 0.0], [0.5, 1.5, 3.0], [2.0, 0.0, 1.0]])
# Exercise 9.3 asks how many weights the causal mask sets to zero for this many tokens.
ZEROS_N = 512


def _after_softmax(S):
    """The mistake: softmax over the whole row, then zero the masked weights (rows no longer sum to 1)."""
    return np.where(causal_mask(S.shape[0]), softmax(S), 0.0)


def _down_columns(S):
    """The mistake: the masked softmax normalised over each column (the queries) instead of each row."""
    keep = causal_mask(S.shape[0])
    e = np.where(keep, np.exp(S - S.max()), 0.0)
    return e / e.sum(axis=0, keepdims=True)


register(
    Exercise(
        id="9.1",
        name="A",
        weights=True,
        expected=lambda: masked_softmax(EX1_S, causal_mask(3)),
        mistakes=(
            Mistake(
                N_(
                    "mask after the softmax: zeroing weights afterwards leaves rows that no longer sum to 1; "
                    "set the masked scores to −∞ before the softmax"
                ),
                lambda: _after_softmax(EX1_S),
            ),
            Mistake(
                N_("keep the upper triangle: token i may see keys 1 … i, the diagonal and below"),
                lambda: masked_softmax(EX1_S, causal_mask(3).T),
            ),
            Mistake(N_("forget the mask"), lambda: softmax(EX1_S)),
            Mistake(N_("take the softmax down each column instead of along each row"), lambda: _down_columns(EX1_S)),
        ),
        hint=(
            N_(
                "Token i keeps only the scores of keys 1 … i. Token 1 (row A[0] in code) has one score; "
                "token 2 (A[1]) is the softmax of its first two scores; the entries above the diagonal are exactly 0."
            )
        ),
    )
)


def _causal_Z(ex, mask="causal"):
    n = ex.X.shape[0]
    masks = {"causal": causal_mask(n), "none": None, "upper": causal_mask(n).T}
    return trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V, mask=masks[mask]).head(0).Z


register(
    Exercise(
        id="9.2",
        name="Z",
        expected=_causal_Z,
        inputs=EX,
        mistakes=(
            Mistake(N_("forget the mask: this is chapter 5's Z"), lambda ex: _causal_Z(ex, "none")),
            Mistake(
                N_("mask the lower triangle: the first token may see only itself, the last sees everything"),
                lambda ex: _causal_Z(ex, "upper"),
            ),
        ),
        hint=(
            N_(
                '"I" may only attend to itself, so its weights are [1, 0]. "love" sees both tokens, '
                "as it did without the mask. Then Z = A V with V = X W_V."
            )
        ),
    )
)

register(
    Exercise(
        id="9.3",
        name=N_("the number of zero weights"),
        whole=True,
        expected=lambda: int((~causal_mask(ZEROS_N)).sum()),
        atol=0.5,
        mistakes=(
            Mistake(
                N_("count the weights the mask keeps (the diagonal and below), not the zeros"),
                lambda: ZEROS_N * (ZEROS_N + 1) // 2,
            ),
            Mistake(
                N_("forget to halve: the strict upper triangle is half of the n² − n off-diagonal entries"),
                lambda: ZEROS_N * (ZEROS_N - 1),
            ),
            Mistake(N_("count all n² entries"), lambda: ZEROS_N**2),
            Mistake(
                N_("take half of n²: the diagonal is kept, so the zeros are fewer than half"), lambda: ZEROS_N**2 // 2
            ),
        ),
        hint=N_(
            "The mask keeps the diagonal and everything below it; the zeros are the entries strictly above the diagonal."
        ),
    )
)
