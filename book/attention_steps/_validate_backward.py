"""Input checks for the backward pass (chapter 12), in the style of `_validate`.

A gradient dM has the shape of the array M it is the gradient of; each check names both
shapes when it does not ("dZ must have Z's shape (..., n_q, d_v) = (3, 2); got (3, 5)").
Results are float32 when every input, the gradient too, is float32, float64 otherwise.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    as_mask,
    as_matrix,
    check_attention,
    check_batch,
    check_projection,
    check_scores,
    check_weighted_sum,
    float_dtype,
)


def as_gradient(name: str, grad, shape: tuple[int, ...], symbols: str) -> np.ndarray:
    """`grad` (named `name`, e.g. "dZ") as an array of the forward output's shape `shape`, spelled `symbols`."""
    g, shape = as_matrix(name, grad), tuple(int(s) for s in shape)
    if g.shape != shape:
        raise ValueError(f"{name} must have {name[1:]}'s shape {symbols} = {shape}; got {g.shape}")
    return g


def one_dtype(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays cast to one float dtype: float32 if every one is float32, float64 otherwise."""
    dtype = float_dtype(*arrays)
    return tuple(a.astype(dtype, copy=False) for a in arrays)


def batch(*arrays: np.ndarray) -> tuple[int, ...]:
    """The broadcast leading (batch) axes of arrays whose batch axes were checked (`check_batch`)."""
    return np.broadcast_shapes(*(a.shape[:-2] for a in arrays))


def entry(name: str, where) -> str:
    """The entry at index `where` of the array named `name`, as "A[1, 2]" (just "A" for a 0-d index)."""
    return f"{name}[{', '.join(str(int(i)) for i in where)}]" if len(where) else name


def check_projection_backward(X, W, dOut, names: tuple[str, str, str]) -> tuple[np.ndarray, ...]:
    """`check_projection`, and dOut (..., n, d_out), the shape of X W; `names` label the three in errors."""
    X, W = check_projection(X, W, names[:2])
    return one_dtype(X, W, as_gradient(names[2], dOut, (*X.shape[:-1], W.shape[1]), "(..., n, d_out)"))


def check_scores_backward(Q, K, dQK_T) -> tuple[np.ndarray, ...]:
    """`check_scores`, and dQK_T (..., n_q, n_k), the shape of QKᵀ."""
    Q, K = check_scores(Q, K)
    shape = (*batch(Q, K), Q.shape[-2], K.shape[-2])
    return one_dtype(Q, K, as_gradient("dQK_T", dQK_T, shape, "(..., n_q, n_k)"))


def check_softmax_backward(A, dA, mask) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """A (..., n_k), softmax's output (weights >= 0, each row summing to 1, 0 where `mask` is False),
    dA of its shape, and the mask broadcast to A's shape as `keep` (None without one)."""
    A = as_matrix("A", A, min_ndim=1)
    tol = 1e-3 if A.dtype == np.float32 else 1e-6  # the rounding of a row's sum in A's own dtype, with room
    A, dA = one_dtype(A, as_gradient("dA", dA, A.shape, "(..., n_q, n_k)"))
    bad_rows = (np.abs(A.sum(axis=-1) - 1) > tol) | (A < 0).any(axis=-1)
    if bad_rows.any():
        row = tuple(np.argwhere(bad_rows)[0])
        raise ValueError(
            f"A must be softmax's output (weights >= 0, each row summing to 1), but row {entry('A', row)} sums to "
            f"{A[row].sum():.6g} and its smallest entry is {A[row].min():.6g}: pass A = softmax(S), not S"
        )
    keep = None if mask is None else as_mask(mask, A.shape)
    if keep is not None and (A[~keep] != 0).any():
        where = tuple(np.argwhere(~keep & (A != 0))[0])
        raise ValueError(
            f"A must be 0 where the mask is False (the masked softmax's weights), but {entry('A', where)} is "
            f"{A[where]:.6g}: compute A with the same mask"
        )
    return A, dA, keep


def check_weighted_sum_backward(A, V, dZ) -> tuple[np.ndarray, ...]:
    """`check_weighted_sum`, and dZ (..., n_q, d_v), the shape of A V."""
    A, V = check_weighted_sum(A, V)
    shape = (*batch(A, V), A.shape[-2], V.shape[-1])
    return one_dtype(A, V, as_gradient("dZ", dZ, shape, "(..., n_q, d_v)"))


def check_attention_backward(Q, K, V, dZ, mask) -> tuple[np.ndarray, ...]:
    """`check_attention`, and dZ (..., n_q, d_v), the shape of Z: returns Q, K, V, dZ, keep (None without a mask)."""
    Q, K, V, keep = check_attention(Q, K, V, mask)
    check_batch("Q", Q, "V", V)
    shape = (*batch(Q, K, V), Q.shape[-2], V.shape[-1])
    Q, K, V, dZ = one_dtype(Q, K, V, as_gradient("dZ", dZ, shape, "(..., n_q, d_v)"))
    return Q, K, V, dZ, keep
