"""Chapter 2 (scores): check-yourself exercises on the source article's "I love" example."""

from __future__ import annotations

import numpy as np

from ..core import projection, scores
from ..examples import YOU, i_love
from ..i18n import N_
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example the exercises read: check("2.1", my_s, ex=ex)


def _three_tokens(ex):
    """X for "I love you": the source article's two rows and YOU, shape (3, 4)."""
    return np.vstack([ex.X, YOU])


def _q_you(ex):
    return projection(YOU[None, :], ex.W_Q)


register(
    Exercise(
        id="2.1",
        name="scores_you",
        expected=lambda ex: scores(_q_you(ex), projection(ex.X, ex.W_K))[0],
        inputs=EX,
        mistakes=(
            Mistake(
                N_('use the queries of "I" and "love" instead of their keys (q_you Qᵀ)'),
                lambda ex: scores(_q_you(ex), projection(ex.X, ex.W_Q))[0],
            ),
            Mistake(
                N_('use the key of "you" with the queries (k_you Qᵀ), the other way round'),
                lambda ex: scores(projection(YOU[None, :], ex.W_K), projection(ex.X, ex.W_Q))[0],
            ),
            Mistake(N_("use x_you Xᵀ, the raw embeddings without W_Q and W_K"), lambda ex: YOU @ ex.X.T),
        ),
        hint=(
            N_(
                "The new token's query q_you (exercise 1.2) meets every key: its scores are q_you · k_I and "
                "q_you · k_love, one number per key, i.e. q_you Kᵀ. Multiply entry by entry and add."
            )
        ),
    )
)

register(
    Exercise(
        id="2.2",
        name="QQᵀ",
        expected=lambda ex: scores(projection(ex.X, ex.W_Q), projection(ex.X, ex.W_Q)),
        inputs=EX,
        mistakes=(
            Mistake(
                N_("compute Q Kᵀ with the book's W_K: the exercise sets W_K = W_Q"),
                lambda ex: scores(projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K)),
            ),
            Mistake(
                N_("compute Qᵀ Q (3 × 3) instead of Q Qᵀ (2 × 2)"),
                lambda ex: projection(ex.X, ex.W_Q).T @ projection(ex.X, ex.W_Q),
            ),
        ),
        hint=(
            N_(
                "If W_K were W_Q, every key would equal its token's query, so the scores become Q Qᵀ: "
                "entry (i, j) is q_i · q_j. Notice what happens to entries (1, 2) and (2, 1), i.e. [0, 1] and [1, 0] in code."
            )
        ),
    )
)


def _QK3(ex):
    X3 = _three_tokens(ex)
    return scores(projection(X3, ex.W_Q), projection(X3, ex.W_K))


register(
    Exercise(
        id="2.3",
        name="QKᵀ",
        expected=_QK3,
        inputs=EX,
        mistakes=(
            Mistake(
                N_("compute K Qᵀ: row i should hold token i's query against every key (Q Kᵀ)"), lambda ex: _QK3(ex).T
            ),
        ),
        hint=(
            N_(
                'Add "you" as a third row of X, so Q and K get a third row each and QKᵀ becomes 3 × 3. '
                "Entry (i, j) is q_i · k_j; the top-left 2 × 2 block is the source article's matrix, unchanged."
            )
        ),
    )
)
