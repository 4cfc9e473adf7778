"""The computation of self-attention, one small function per stage.

Row-vector convention throughout: each token is a row, so q_i = x_i W_Q.
Shapes use n (tokens), n_q / n_k (queries / keys when they differ),
d_model, d_k, d_v and h (heads); "..." is any number of leading batch axes.
"""

from __future__ import annotations

import numpy as np

from . import kernels
from ._validate import as_mask, as_matrix, check_batch, float_dtype, positive_number, same_size


# ----------------------------------------------------------------------------- stages
def projection(X, W, *, names: tuple[str, str] = ("X", "W")) -> np.ndarray:
    """Project tokens: X (..., n, d_in) @ W (d_in, d_out) -> (..., n, d_out).

    Stage 1: Q = X W_Q, K = X W_K, V = X W_V. `names` label the arguments in errors.
    Each public function checks its arguments here, once, and computes with `kernels`.
    """
    name_X, name_W = names
    X, W = as_matrix(name_X, X, min_ndim=2), as_matrix(name_W, W, ndim=2)
    same_size(f"the columns of {name_X} (d_in) and the rows of {name_W}", name_X, X.shape[-1], name_W, W.shape[0])
    return kernels.project(X, W)


def scores(Q, K) -> np.ndarray:
    """Raw scores: Q (..., n_q, d_k) @ K (..., n_k, d_k)ᵀ -> QKᵀ (..., n_q, n_k).

    Entry (i, j) is q_i · k_j: how well query i agrees with key j.
    """
    Q, K = as_matrix("Q", Q, min_ndim=2), as_matrix("K", K, min_ndim=2)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[-1], "K", K.shape[-1])
    check_batch("Q", Q, "K", K)
    return kernels.raw_scores(Q, K)


def scale(QK_T, d_k) -> np.ndarray:
    """Scaled scores: S = QKᵀ / √d_k, same shape as QKᵀ.

    Dividing by √d_k brings the variance of q·k back from d_k to 1 (chapter 3).
    """
    QK_T = as_matrix("QK_T", QK_T)
    return kernels.divide_by_sqrt(QK_T, positive_number("d_k", d_k))


def softmax(S, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along `axis` (rows by default); same shape as S.

    Subtracting each row's maximum changes nothing mathematically (softmax is
    shift invariant) but keeps every exponent <= 0, so exp never overflows,
    however large the scores.
    """
    return kernels.row_softmax(as_matrix("S", S), axis)


def softmax_naive(S, axis: int = -1) -> np.ndarray:
    """Textbook softmax exp(S) / Σ exp(S), kept only to show how it overflows.

    Large scores give inf / inf = NaN; use `softmax` for real work.
    """
    S = as_matrix("S", S)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(S.astype(float_dtype(S), copy=False))
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

    Row i of Z is Σ_j a_ij v_j, a convex combination of the rows of V.
    """
    A, V = as_matrix("A", A, min_ndim=2), as_matrix("V", V, min_ndim=2)
    same_size("the columns of A (n_k) and the rows of V", "A", A.shape[-1], "V", V.shape[-2])
    check_batch("A", A, "V", V)
    return kernels.mix(A, V)


# ----------------------------------------------------------------------------- one head
def scaled_dot_product_attention(Q, K, V, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """softmax(QKᵀ / √d_k) V, returning (Z, A).

    Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); leading batch axes
    broadcast. `mask` is boolean, broadcastable to (..., n_q, n_k), True where the
    query may attend to the key. Returns Z (..., n_q, d_v) and A (..., n_q, n_k).
    """
    Q, K, V = checked_qkv(Q, K, V)
    keep = None if mask is None else as_mask(mask, kernels.scores_shape(Q, K))
    _, _, A, Z = kernels.attend(Q, K, V, keep)
    return Z, A


def checked_qkv(Q, K, V) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K, V as arrays, or the error naming the one that does not fit (for the functions taking all three)."""
    Q, K, V = (as_matrix(name, x, min_ndim=2) for name, x in (("Q", Q), ("K", K), ("V", V)))
    same_size("the number of rows (n_k) of K and V", "K", K.shape[-2], "V", V.shape[-2])
    check_batch("K", K, "V", V)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[-1], "K", K.shape[-1])
    check_batch("Q", Q, "K", K)
    return Q, K, V


__all__ = [
    "projection",
    "scores",
    "scale",
    "softmax",
    "softmax_naive",
    "numerical_jacobian",
    "weighted_sum",
    "scaled_dot_product_attention",
    "checked_qkv",
]
