"""Chapter 4 (softmax): check-yourself exercises."""

from __future__ import annotations

import numpy as np

from .. import softmax
from ..examples import i_love, new_scaled, new_scores
from ..i18n import N_
from ..scaling import softmax_jacobian
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example the exercises read: check("4.1", my_a, ex=ex)
# Exercise 4.2: scores so negative that every exp underflows to 0, and the naive formula gives 0 / 0.
SMALL_SCORES = (-1000.0, -1001.0, -1003.0)
# Exercise 4.3: the weights a at which the Jacobian is taken.
JACOBIAN_A = (0.7, 0.2, 0.1)

register(
    Exercise(
        id="4.1",
        name="a_new",
        weights=True,
        expected=lambda ex: softmax(new_scaled(ex)),
        inputs=EX,
        mistakes=(
            Mistake(
                N_("take the softmax of the raw scores q_new Kᵀ, without dividing by √d_k"),
                lambda ex: softmax(new_scores(ex)),
            ),
            Mistake(
                N_("divide the scores by d_k instead of √d_k"), lambda ex: softmax(new_scaled(ex, ex.W_Q.shape[1]))
            ),
            Mistake(
                N_("divide the scaled scores by their sum without exponentiating them"),
                lambda ex: new_scaled(ex) / new_scaled(ex).sum(),
            ),
            Mistake(N_("exponentiate without dividing by the sum"), lambda ex: np.exp(new_scaled(ex))),
        ),
        hint=N_("Start from s_new of exercise 3.1: exponentiate each of its entries, then divide each by their sum."),
    )
)

register(
    Exercise(
        id="4.2",
        name="softmax(s)",
        weights=True,
        expected=lambda: softmax(np.array(SMALL_SCORES)),
        mistakes=(
            Mistake(
                N_("subtract the maximum but forget to divide by the sum"),
                lambda: np.exp(np.array(SMALL_SCORES) - max(SMALL_SCORES)),
            ),
        ),
        hint=N_(
            "Subtract the largest score from every score first (softmax does not change), then exponentiate and normalise."
        ),
    )
)

register(
    Exercise(
        id="4.3",
        name="J",
        expected=lambda: softmax_jacobian(np.array(JACOBIAN_A)),
        mistakes=(
            Mistake(
                N_("compute aaᵀ − diag(a): every sign is flipped"), lambda: -softmax_jacobian(np.array(JACOBIAN_A))
            ),
            Mistake(
                N_("keep only the diagonal a_j(1 − a_j) and forget the off-diagonal −a_i a_j"),
                lambda: np.diag(np.array(JACOBIAN_A) * (1 - np.array(JACOBIAN_A))),
            ),
            Mistake(
                N_("use diag(a) − a without the outer product: a row of a is subtracted, not aaᵀ"),
                lambda: np.diag(JACOBIAN_A) - np.array(JACOBIAN_A)[None, :],
            ),
        ),
        hint=N_("J = diag(a) − aaᵀ: diagonal entries a_j(1 − a_j), off-diagonal entries −a_i a_j."),
    )
)
