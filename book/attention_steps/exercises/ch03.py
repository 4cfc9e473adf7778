"""Chapter 3 (scaling by √d_k): check-yourself exercises.

Exercises 3.1, 4.1 and 5.1 follow one new query through scaling, softmax and the weighted sum: a
fourth embedding X_NEW reading the "I love" example (both in attention_steps.examples).
"""

from __future__ import annotations

import numpy as np

from .. import projection, scale, scores
from ..derivation import variance_of_dot_product
from ..examples import X_NEW, i_love, new_scaled, new_scores
from ..i18n import N_
from .checking import Exercise, Mistake, register

EX = {"ex": i_love}  # the example the exercises read: check("3.1", my_s, ex=ex)
# Exercises 3.2 and 3.3: the width and the components' standard deviation.
VAR_D_K, VAR_SIGMA = 64, 2


register(
    Exercise(
        id="3.1",
        name="s_new",
        expected=new_scaled,
        inputs=EX,
        mistakes=(
            Mistake(N_("divide by d_k instead of √d_k"), lambda ex: new_scaled(ex, ex.W_Q.shape[1])),
            Mistake(N_("forget the scaling: these are the raw scores q_new Kᵀ"), new_scores),
            Mistake(
                N_("divide by √d_model (the width of x, 4) instead of √d_k (the width of q and k, 3)"),
                lambda ex: new_scaled(ex, np.sqrt(ex.X.shape[1])),
            ),
            Mistake(
                N_("use the keys of W_Q (q_new Qᵀ) instead of K"),
                lambda ex: scale(
                    scores(projection(X_NEW[None, :], ex.W_Q), projection(ex.X, ex.W_Q))[0], ex.W_Q.shape[1]
                ),
            ),
        ),
        hint=(
            N_(
                "First the query q_new = x_new W_Q (3 times row 3 of W_Q plus row 4), then its dot product "
                "with each key (the rows of K), then divide both scores by √d_k, where d_k is the width of q."
            )
        ),
    )
)

register(
    Exercise(
        id="3.2",
        name="Var[q·k]",
        expected=lambda: variance_of_dot_product(VAR_D_K, sigma_q=VAR_SIGMA, sigma_k=VAR_SIGMA),
        mistakes=(
            Mistake(N_("use σ where the formula has σ²"), lambda: VAR_D_K * VAR_SIGMA * VAR_SIGMA),
            Mistake(N_("forget the factor d_k"), lambda: VAR_SIGMA**4),
            Mistake(N_("use the standardised result d_k, as if σ were 1"), lambda: VAR_D_K),
            Mistake(N_("add the variances instead of multiplying them"), lambda: VAR_D_K * 2 * VAR_SIGMA**2),
        ),
        hint=N_("Use the general result d_k((σ_q² + μ_q²)(σ_k² + μ_k²) − μ_q²μ_k²) with μ = 0 and σ_q = σ_k = σ."),
        atol=0.5,
    )
)

register(
    Exercise(
        id="3.3",
        name=N_("the standard deviation of q·k / d_k"),
        expected=lambda: float(np.sqrt(variance_of_dot_product(VAR_D_K)) / VAR_D_K),
        mistakes=(
            Mistake(N_("divide by √d_k: that strategy gives 1, the question is about ÷ d_k"), lambda: 1.0),
            Mistake(N_("give the variance instead of the standard deviation"), lambda: VAR_D_K / VAR_D_K**2),
            Mistake(N_("forget to divide: that is the raw standard deviation √d_k"), lambda: np.sqrt(VAR_D_K)),
        ),
        hint=N_("Dividing by c divides the standard deviation by c; the raw standard deviation is √d_k."),
        atol=0.001,
    )
)
