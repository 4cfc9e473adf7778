"""Chapter 2 (scores): check-yourself exercises on the source article's "I love" example."""

from __future__ import annotations

import numpy as np

from ..core import projection, scores
from ..examples import i_love
from .ch01 import YOU
from .checking import Exercise, register


def _keys():
    ex = i_love()
    return projection(ex.X, ex.W_K)


def _three_tokens():
    """X for "I love you": the source article's two rows and YOU, shape (3, 4)."""
    return np.vstack([i_love().X, YOU])


def _queries():
    ex = i_love()
    return projection(ex.X, ex.W_Q)


register(
    Exercise(
        id="2.1",
        name="scores_you",
        expected=lambda: scores(projection(YOU[None, :], i_love().W_Q), _keys())[0],
        hint=(
            "The new token's query q_you (exercise 1.2) meets every key: its scores are q_you · k_I and "
            "q_you · k_love, one number per key, i.e. q_you Kᵀ. Multiply entry by entry and add."
        ),
    )
)

register(
    Exercise(
        id="2.2",
        name="QQᵀ",
        expected=lambda: scores(_queries(), _queries()),
        hint=(
            "If W_K were W_Q, every key would equal its token's query, so the scores become Q Qᵀ: "
            "entry (i, j) is q_i · q_j. Notice what happens to entries (1, 2) and (2, 1), i.e. [0, 1] and [1, 0] in code."
        ),
    )
)

register(
    Exercise(
        id="2.3",
        name="QKᵀ",
        expected=lambda: scores(*(projection(_three_tokens(), W) for W in (i_love().W_Q, i_love().W_K))),
        hint=(
            "Add \"you\" as a third row of X, so Q and K get a third row each and QKᵀ becomes 3 × 3. "
            "Entry (i, j) is q_i · k_j; the top-left 2 × 2 block is the source article's matrix, unchanged."
        ),
    )
)
