"""Chapter 3 (scaling by √d_k): check-yourself exercises."""

from __future__ import annotations

import numpy as np

from .. import projection, scale, scores
from ..derivation import variance_of_dot_product
from ..examples import i_love
from ..scaling import divisor
from .checking import Exercise, register


def _seed_S() -> np.ndarray:
    ex = i_love()
    Q, K = projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K)
    return scale(scores(Q, K), Q.shape[-1])


register(
    Exercise(
        id="3.1",
        name="S",
        expected=_seed_S,
        hint="S = QKᵀ / √d_k: divide every entry of QKᵀ by the square root of d_k (the number of columns of Q).",
    )
)

register(
    Exercise(
        id="3.2",
        name="Var[q·k]",
        expected=lambda: variance_of_dot_product(64, sigma_q=2, sigma_k=2),
        hint="Use the general result d_k((σ_q² + μ_q²)(σ_k² + μ_k²) − μ_q²μ_k²) with μ = 0 and σ = 2.",
        atol=0.5,
    )
)

register(
    Exercise(
        id="3.3",
        name="the standard deviation of q·k / d_k",
        expected=lambda: float(np.sqrt(variance_of_dot_product(64)) / divisor(64, "d_k")),
        hint="Dividing by c divides the standard deviation by c; the raw standard deviation is √d_k.",
        atol=0.001,
    )
)
