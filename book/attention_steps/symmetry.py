"""When are the scores QKᵀ symmetric, and when are the weights A = softmax(S)?

Chapter 4 uses these to explain why the "I love" example's A is exactly
symmetric although its QKᵀ is not, and why the source articles' inference
"W_Q ≠ W_K, so A is not symmetric" does not hold in either direction:

- q_i · k_j = x_i M x_jᵀ with M = W_Q W_Kᵀ, so QKᵀ = X M Xᵀ is symmetric when
  M is (for instance W_K = W_Q, or W_K = 2 W_Q), whatever X;
- a_ij = e^{s_ij} / T_i with T_i = Σ_t e^{s_it}, so softmax works row by row
  and a symmetric S gives a_ij / a_ji = T_j / T_i: a symmetric A only when the
  row totals agree; for two tokens, a_12 = a_21 exactly when
  s_11 − s_12 = s_22 − s_21 (`two_token_gaps`), however asymmetric S is.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_matrix, same_size


def _square(name: str, M) -> np.ndarray:
    M = as_matrix(name, M, ndim=2)
    same_size(f"the rows and columns of {name} (a square matrix)", "rows", M.shape[0], "columns", M.shape[1])
    return M.astype(float, copy=False)


def asymmetry(M) -> float:
    """Largest |m_ij − m_ji| of a square matrix M (n, n): 0 exactly when M is symmetric. Chapters 2 and 4."""
    M = _square("M", M)
    return float(np.abs(M - M.T).max())


def bilinear_form(W_Q, W_K) -> np.ndarray:
    """M = W_Q W_Kᵀ (d_model, d_model), so that q_i · k_j = x_i M x_jᵀ and QKᵀ = X M Xᵀ. Chapter 4.

    W_Q, W_K (d_model, d_k). If M is symmetric, QKᵀ is symmetric for every X.
    """
    W_Q, W_K = as_matrix("W_Q", W_Q, ndim=2), as_matrix("W_K", W_K, ndim=2)
    same_size("the shapes of W_Q and W_K (d_model × d_k)", "W_Q", W_Q.shape, "W_K", W_K.shape)
    return W_Q.astype(float) @ W_K.astype(float).T


def two_token_gaps(S) -> tuple[float, float]:
    """For a 2 × 2 score matrix S: (s_11 − s_12, s_22 − s_21), each token's lead of itself over the other. Chapter 4.

    With a = softmax(S) row by row, a_12 = 1 / (1 + e^{s_11 − s_12}) and
    a_21 = 1 / (1 + e^{s_22 − s_21}), so A is symmetric exactly when the two gaps
    are equal (in 2 × 2, a_11 = 1 − a_12 and a_22 = 1 − a_21 follow).
    """
    S = _square("S", S)
    if S.shape != (2, 2):
        raise ValueError(f"S must be a 2 × 2 score matrix (two tokens), got shape {S.shape}")
    return float(S[0, 0] - S[0, 1]), float(S[1, 1] - S[1, 0])


def row_totals(S) -> np.ndarray:
    """T_i = Σ_t e^{s_it} for every row of S (n, n): softmax's denominators, shape (n,). Chapter 4.

    For a symmetric S, a_ij / a_ji = T_j / T_i, so A is symmetric only when
    every row has the same total.
    """
    S = _square("S", S)
    return np.exp(S).sum(axis=1)


__all__ = ["asymmetry", "bilinear_form", "two_token_gaps", "row_totals"]
