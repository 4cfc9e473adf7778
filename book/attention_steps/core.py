"""The computation of self-attention, one small function per stage.

Each function checks its arguments in one call (`_validate`, a clear error naming
the argument that does not fit, in microseconds) and then does the arithmetic of
its formula, here, in a few lines: what you read is what runs.

Row-vector convention throughout: each token is a row, so q_i = x_i W_Q.
Shapes use n (tokens), n_q / n_k (queries / keys when they differ),
d_model, d_k, d_v and h (heads); "..." is any number of leading batch axes.
Every result is float32 when every input is float32, float64 otherwise.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    as_floats,
    as_matrix,
    check_attention,
    check_projection,
    check_qkv,
    check_scores,
    check_weighted_sum,
    positive_number,
)


# ----------------------------------------------------------------------------- stages
def projection(X, W, *, names: tuple[str, str] = ("X", "W")) -> np.ndarray:
    """Project tokens: X (..., n, d_in) @ W (d_in, d_out) -> (..., n, d_out).

    Stage 1 (chapter 1): Q = X W_Q, K = X W_K, V = X W_V. `names` label the arguments in errors.
    """
    X, W = check_projection(X, W, names)
    return X @ W


def scores(Q, K) -> np.ndarray:
    """Raw scores: Q (..., n_q, d_k) @ K (..., n_k, d_k)ᵀ -> QKᵀ (..., n_q, n_k).

    Stage 2 (chapter 2): entry (i, j) is q_i · k_j, how well query i agrees with key j.
    """
    Q, K = check_scores(Q, K)
    return Q @ np.swapaxes(K, -1, -2)  # Kᵀ: swap the last two axes


def scale(QK_T, d_k) -> np.ndarray:
    """Scaled scores: S = QKᵀ / √d_k, same shape as QKᵀ.

    Stage 3 (chapter 3): dividing by √d_k brings the variance of q·k back from d_k to 1.
    """
    (QK_T,) = as_floats(("QK_T",), (QK_T,))
    d_k = positive_number("d_k", d_k)
    return (QK_T / np.sqrt(d_k)).astype(QK_T.dtype, copy=False)  # float32 scores stay float32


def softmax(S, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along `axis` (rows by default); same shape as S.

    Stage 4 (chapter 4). Subtracting each row's maximum changes nothing
    mathematically (softmax is shift invariant) but keeps every exponent <= 0,
    so exp never overflows, however large the scores. It holds S, S − max,
    exp(·) and the result at once: chapter 11 counts these matrices.
    """
    (S,) = as_floats(("S",), (S,))
    shifted = S - S.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def softmax_naive(S, axis: int = -1) -> np.ndarray:
    """Textbook softmax exp(S) / Σ exp(S), kept only to show how it overflows (chapter 4).

    Large scores give inf / inf = NaN; use `softmax` for real work.
    """
    (S,) = as_floats(("S",), (S,))
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(S)
        return e / e.sum(axis=axis, keepdims=True)


def numerical_jacobian(f, s, *, step: float = 1e-6) -> np.ndarray:
    """Central finite differences of f at the point s: J[i, j] ≈ ∂f_i / ∂s_j.

    s (n,) is a point, f maps an (n,) array to an (m,) array; returns J (m, n)
    with column j = (f(s + h e_j) − f(s − h e_j)) / (2h), h = `step`. Its error
    is of order h² plus rounding of order ε/h. Chapter 4 checks softmax's
    Jacobian diag(a) − aaᵀ against it.
    """
    s = as_matrix("s", s, ndim=1).astype(float)
    h = positive_number("step", step)
    columns = []
    for j in range(s.shape[0]):
        e = np.zeros_like(s)
        e[j] = h
        columns.append((np.asarray(f(s + e), dtype=float) - np.asarray(f(s - e), dtype=float)) / (2 * h))
    return np.stack(columns, axis=-1)


def weighted_sum(A, V) -> np.ndarray:
    """Mix the values: A (..., n_q, n_k) @ V (..., n_k, d_v) -> Z (..., n_q, d_v).

    Stage 5 (chapter 5): row i of Z is Σ_j a_ij v_j, a convex combination of the rows of V.
    """
    A, V = check_weighted_sum(A, V)
    return A @ V


# ----------------------------------------------------------------------------- one head
def scaled_dot_product_attention(Q, K, V, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """softmax(QKᵀ / √d_k) V, returning (Z, A): chapters 2 to 5 in one call (the mask: chapter 9).

    Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); leading batch axes
    broadcast. `mask` is boolean, broadcastable to (..., n_q, n_k), True where the
    query may attend to the key. Returns Z (..., n_q, d_v) and A (..., n_q, n_k).
    """
    Q, K, V, keep = check_attention(Q, K, V, mask)
    return attend(Q, K, V, keep)


def attend(Q, K, V, keep=None) -> tuple[np.ndarray, np.ndarray]:
    """(Z, A) for arrays already checked (`_validate.check_attention`); `keep` is the mask broadcast to the scores.

    Chapters 2 to 5 (the mask: chapter 9). The same stages as `scores`, `scale`, `softmax`
    and `weighted_sum`, computed in place: the one n_q × n_k matrix is QKᵀ, then S, then A.
    """
    S = Q @ np.swapaxes(K, -1, -2)  # QKᵀ
    S /= np.sqrt(Q.shape[-1])  # S = QKᵀ / √d_k
    if keep is not None:
        S[~keep] = -np.inf  # masked: exp(−∞) = 0
    S -= S.max(axis=-1, keepdims=True)  # every exponent <= 0
    A = np.exp(S, out=S)
    A /= A.sum(axis=-1, keepdims=True)  # A = softmax(S), row by row
    return A @ V, A


def attend_by_stage(Q, K, V, keep=None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(QKᵀ, S, A, Z) for arrays already checked, each stage's matrix kept (`trace_attention` shows them all).

    At its peak it holds five n_q × n_k matrices: QKᵀ, S, S − max, exp(·) and A (chapter 11 measures them).
    """
    QK_T = Q @ np.swapaxes(K, -1, -2)
    S = (QK_T / np.sqrt(Q.shape[-1])).astype(QK_T.dtype, copy=False)
    if keep is not None:
        S = np.where(keep, S, S.dtype.type(-np.inf))
    shifted = S - S.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    A = e / e.sum(axis=-1, keepdims=True)
    del shifted, e  # freed before Z is made: QKᵀ, S and A are what the trace keeps
    return QK_T, S, A, A @ V


def checked_qkv(Q, K, V) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K, V as arrays of one float dtype, or the error naming the one that does not fit (chapters 2 to 5)."""
    return check_qkv(Q, K, V)


__all__ = [
    "projection",
    "scores",
    "scale",
    "softmax",
    "softmax_naive",
    "numerical_jacobian",
    "weighted_sum",
    "scaled_dot_product_attention",
    "attend",
    "attend_by_stage",
    "checked_qkv",
]
