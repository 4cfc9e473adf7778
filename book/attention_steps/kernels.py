"""The arithmetic of attention without input checks: the core's inner functions.

Every public function of the package checks its arguments once, at the entry (a
clear error naming the argument), then computes with these. They take arrays that
are already checked (finite, real, of matching shapes) and never check again, so
one `multi_head_attention` call validates each argument once instead of at every
stage. Call the public functions (`attention_steps.core`, `multihead`, `masks`)
unless you have checked the inputs yourself. Each returns float32 when every input
is float32, float64 otherwise, as the public functions do.
"""

from __future__ import annotations

import numpy as np

from ._validate import float_dtype


def project(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """X (..., n, d_in) @ W (d_in, d_out)."""
    dtype = float_dtype(X, W)
    return X.astype(dtype, copy=False) @ W.astype(dtype, copy=False)


def raw_scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """QKᵀ: Q (..., n_q, d_k) @ K (..., n_k, d_k)ᵀ."""
    dtype = float_dtype(Q, K)
    return Q.astype(dtype, copy=False) @ np.swapaxes(K.astype(dtype, copy=False), -1, -2)


def divide_by_sqrt(QK_T: np.ndarray, d_k: float) -> np.ndarray:
    """QKᵀ / √d_k."""
    return (QK_T / np.sqrt(d_k)).astype(float_dtype(QK_T), copy=False)


def row_softmax(S: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along `axis`, shifted by each row's maximum so exp never overflows.

    At its peak it holds S, S − max, exp(·) and the result: chapter 11 counts these
    matrices (with QKᵀ, five n × n), so keep the steps as they are.
    """
    S = S.astype(float_dtype(S), copy=False)
    shifted = S - S.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def fill_masked(S: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """S with −∞ where `keep` (broadcast to S's shape) is False."""
    dtype = float_dtype(S)
    return np.where(keep, S.astype(dtype, copy=False), dtype.type(-np.inf))


def masked_row_softmax(S_masked: np.ndarray) -> np.ndarray:
    """Row softmax of scores that are −∞ where masked (`fill_masked`): exact zeros there.

    Every row must keep at least one key (as `as_mask` ensures), so its maximum stays finite.
    """
    A = np.exp(S_masked - S_masked.max(axis=-1, keepdims=True))
    A /= A.sum(axis=-1, keepdims=True)
    return A


def mix(A: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Z = A V: A (..., n_q, n_k) @ V (..., n_k, d_v)."""
    dtype = float_dtype(A, V)
    return A.astype(dtype, copy=False) @ V.astype(dtype, copy=False)


def attend(Q: np.ndarray, K: np.ndarray, V: np.ndarray, keep: np.ndarray | None = None):
    """One head (or a stack of heads): (QKᵀ, S, A, Z) with S = QKᵀ / √d_k, A = softmax(S)
    (S is −∞ and A is 0 where `keep` is False) and Z = A V."""
    dtype = float_dtype(Q, K, V)
    Q, K, V = (x.astype(dtype, copy=False) for x in (Q, K, V))
    QK_T = raw_scores(Q, K)
    S = divide_by_sqrt(QK_T, float(Q.shape[-1]))
    if keep is None:
        A = row_softmax(S)
    else:
        S = fill_masked(S, keep)
        A = masked_row_softmax(S)
    return QK_T, S, A, mix(A, V)


def split_columns(M: np.ndarray, num_heads: int) -> np.ndarray:
    """(n, h·d) -> (h, n, d): head r (code index r − 1) gets its block of d columns."""
    return M.reshape(M.shape[0], num_heads, M.shape[1] // num_heads).transpose(1, 0, 2)


def join_columns(Z_heads: np.ndarray) -> np.ndarray:
    """(h, n, d) -> (n, h·d): the heads side by side, in head order."""
    h, n, d = Z_heads.shape
    return Z_heads.transpose(1, 0, 2).reshape(n, h * d)


def scores_shape(Q: np.ndarray, K: np.ndarray) -> tuple[int, ...]:
    """The shape of QKᵀ: the broadcast batch axes, then (n_q, n_k)."""
    return (*np.broadcast_shapes(Q.shape[:-2], K.shape[:-2]), Q.shape[-2], K.shape[-2])
