"""Chapter 13 (learning to attend): check-yourself exercises on the strongest-key share of a head
(the question an attention map seems to answer) and on Adam's first step."""

from __future__ import annotations

import numpy as np

from ..i18n import N_
from ..optim import SGD, Adam
from .checking import Exercise, Mistake, register

# Exercise 13.1: the weights "it" gives the 11 words in five sentences (rows sum to 1), and where each
# sentence's referent is (code index 1, the animal, or 5, the place).
EX1_A_IT = np.array(
    [
        [0.02, 0.40, 0.02, 0.02, 0.02, 0.30, 0.02, 0.10, 0.02, 0.02, 0.06],
        [0.05, 0.10, 0.05, 0.05, 0.05, 0.35, 0.05, 0.05, 0.05, 0.05, 0.15],
        [0.02, 0.20, 0.02, 0.02, 0.02, 0.30, 0.02, 0.34, 0.02, 0.02, 0.02],
        [0.03, 0.05, 0.03, 0.03, 0.03, 0.45, 0.03, 0.03, 0.03, 0.03, 0.26],
        [0.01, 0.60, 0.01, 0.01, 0.01, 0.10, 0.01, 0.10, 0.01, 0.01, 0.13],
    ]
)
EX1_REFERENT = np.array([1, 1, 5, 5, 5])
# Exercise 13.2: one weight vector and its first gradient; Adam's learning rate.
EX2_THETA = np.array([0.5, -0.2, 0.1])
EX2_G = np.array([2.0, -0.001, 30.0])
EX2_LR = 0.01


def _share(A_it, referent, *, axis=-1):
    return float((np.asarray(A_it).argmax(axis=axis) == np.asarray(referent)).mean())


register(
    Exercise(
        id="13.1",
        name=N_("the share of sentences whose strongest key is the referent"),
        expected=lambda: _share(EX1_A_IT, EX1_REFERENT),
        mistakes=(
            Mistake(
                N_("count the sentences whose referent gets more than half of the weight, not the largest weight"),
                lambda: float((EX1_A_IT[np.arange(len(EX1_REFERENT)), EX1_REFERENT] > 0.5).mean()),
            ),
            Mistake(
                N_(
                    "compare the referent with the other noun only: another word (“it”, the adjective) can be the strongest key"
                ),
                lambda: float((EX1_A_IT[np.arange(5), EX1_REFERENT] > EX1_A_IT[np.arange(5), 6 - EX1_REFERENT]).mean()),
            ),
            Mistake(
                N_("give the share as a fraction between 0 and 1, not as a percentage (divide by 100)"),
                lambda: 100 * _share(EX1_A_IT, EX1_REFERENT),
            ),
        ),
        hint=N_(
            "For each sentence take the key with the largest weight (argmax over the row), compare it with the "
            "referent's position, then average the five comparisons."
        ),
    )
)


def _adam_step(*, bias_correction=True):
    if bias_correction:
        return Adam(lr=EX2_LR).step({"w": EX2_THETA}, {"w": EX2_G})["w"]
    m, r = 0.1 * EX2_G, 0.001 * EX2_G**2  # (1 − β₁) g and (1 − β₂) g², not divided by 1 − βᵗ
    return EX2_THETA - EX2_LR * m / (np.sqrt(r) + 1e-8)


register(
    Exercise(
        id="13.2",
        name=N_("θ after Adam's first step"),
        expected=_adam_step,
        atol=1e-4,
        mistakes=(
            Mistake(
                N_("leave out the bias correction: m and r start at 0, so the first step divides by 1 − β₁ and 1 − β₂"),
                lambda: _adam_step(bias_correction=False),
            ),
            Mistake(
                N_("take a plain gradient step, θ − lr · g: Adam divides each entry by its gradient's size"),
                lambda: SGD(lr=EX2_LR).step({"w": EX2_THETA}, {"w": EX2_G})["w"],
            ),
        ),
        hint=N_(
            "At step 1, m̂ = g and r̂ = g², so each entry moves by lr · g / (|g| + ε): about lr, against the sign "
            "of its gradient, whatever the gradient's size."
        ),
    )
)
