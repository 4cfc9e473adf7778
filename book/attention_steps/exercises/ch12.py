"""Chapter 12 (backward): check-yourself exercises on the weighted sum's gradient, softmax's
vector–Jacobian product and the gradient reaching the queries of the "I love" example."""

from __future__ import annotations

import numpy as np

from ..backward import scaled_dot_product_attention_backward, softmax_backward, weighted_sum_backward
from ..core import scaled_dot_product_attention
from ..examples import i_love
from ..i18n import N_
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example 12.3 reads: check("12.3", my_dQ, ex=ex)

# Exercise 12.1: weights A (3 × 3, rows sum to 1, not symmetric), values V (3 × 2) and the gradient dZ of Z = A V.
EX1_A = np.array([[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.25, 0.25, 0.5]])
EX1_V = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
EX1_DZ = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]])
# Exercise 12.2: one row of weights a and the gradient g = ∂L/∂a arriving at it.
EX2_A = np.array([0.5, 0.3, 0.2])
EX2_G = np.array([1.0, 2.0, -1.0])
# Exercise 12.3: the loss is z for "love", column 2 (Z[1, 1] in code), so dZ is 1 there and 0 elsewhere.
EX3_DZ = np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


register(
    Exercise(
        id="12.1",
        name="dV",
        expected=lambda: weighted_sum_backward(EX1_A, EX1_V, EX1_DZ)[1],
        mistakes=(
            Mistake(
                N_("compute A dZ instead of Aᵀ dZ: a transposed gradient (value j collects column j of A)"),
                lambda: EX1_A @ EX1_DZ,
            ),
            Mistake(
                N_(
                    "sum over the wrong axis: along each row of A (which sums to 1 and leaves dZ unchanged) "
                    "instead of down column j"
                ),
                lambda: EX1_A.sum(axis=1, keepdims=True) * EX1_DZ,
            ),
        ),
        hint=N_("Z = A V, so dV = Aᵀ dZ: row j of dV is Σ_i a_ij dz_i, every query i that mixed in value j."),
    )
)


def _vjp(a, g, *, minus_aaT=True, axis=-1):
    a, g = np.atleast_2d(a), np.atleast_2d(g)
    if not minus_aaT:
        return (a * g)[0]  # the diagonal of J only: diag(a) g
    return (a * (g - (g * a).sum(axis=axis, keepdims=True)))[0]


register(
    Exercise(
        id="12.2",
        name="ds",
        expected=lambda: softmax_backward(EX2_A, EX2_G),
        mistakes=(
            Mistake(
                N_("forget the −aaᵀ term of the Jacobian: a ⊙ g is only diag(a) g"),
                lambda: _vjp(EX2_A, EX2_G, minus_aaT=False),
            ),
            Mistake(
                N_("sum over the wrong axis: g·a is one number for the row, Σ_t g_t a_t"),
                lambda: EX2_A * (EX2_G - EX2_G * EX2_A),
            ),
            Mistake(N_("flip the sign: J = diag(a) − aaᵀ, not aaᵀ − diag(a)"), lambda: -softmax_backward(EX2_A, EX2_G)),
        ),
        hint=N_("ds = a ⊙ (g − (g·a)): first the one number g·a = Σ_t g_t a_t, then ds_j = a_j (g_j − g·a)."),
    )
)


def _dQ(ex, *, scale=True, transpose=False, minus_aaT=True):
    Q, K, V = ex.X @ ex.W_Q, ex.X @ ex.W_K, ex.X @ ex.W_V
    if scale and not transpose and minus_aaT:
        return scaled_dot_product_attention_backward(Q, K, V, EX3_DZ)[0]
    _, A = scaled_dot_product_attention(Q, K, V)
    dA = EX3_DZ @ V.T
    dS = A * (dA - (dA * A).sum(axis=-1, keepdims=True)) if minus_aaT else A * dA
    dQK = dS / np.sqrt(Q.shape[1]) if scale else dS
    return (dQK.T if transpose else dQK) @ K


register(
    Exercise(
        id="12.3",
        name="dQ",
        expected=_dQ,
        inputs=EX,
        mistakes=(
            Mistake(N_("forget the 1/√d_k of the scale: d(QKᵀ) = dS / √d_k"), lambda ex: _dQ(ex, scale=False)),
            Mistake(
                N_("use dSᵀ K: a transposed gradient (that product belongs to dK, with Q)"),
                lambda ex: _dQ(ex, transpose=True),
            ),
            Mistake(N_("forget the −aaᵀ term of the softmax Jacobian"), lambda ex: _dQ(ex, minus_aaT=False)),
        ),
        hint=N_(
            "Backwards through the four stages: dA = dZ Vᵀ, dS = A ⊙ (dA − rowsum(dA ⊙ A)), d(QKᵀ) = dS / √d_k, "
            'dQ = d(QKᵀ) K. Only the row of "love" is not zero.'
        ),
    )
)
