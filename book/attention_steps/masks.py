"""Masks: which keys each query may attend to.

A mask is a boolean array broadcastable to the scores' shape (..., n_q, n_k),
True where query i may attend to key j. The core's `mask=` argument, and
`tiled_attention`'s, take exactly this. Tokens count from 1 in the text (x_1 … x_n)
and from 0 in code: the row of token i is mask[i - 1].

    causal_mask(4)                    the lower triangle: token i sees tokens 1 … i
    random_mask(3, 5, seed=0)         a seeded mask with at least one True per row (for tests)
    masked_scores(S, mask)            S with −∞ where the mask is False: what softmax sees
    masked_softmax(S, mask)           A: exact zeros where the mask is False, rows summing to 1
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validate import as_floats, as_mask, positive_int


def causal_mask(n_q, n_k=None) -> np.ndarray:
    """(n_q, n_k) boolean, True where j ≤ i: each token sees itself and the tokens before it, never after. Chapter 9.

    The same in either count (j ≤ i for tokens 1 … n, or for code indices 0 … n − 1):
    token i keeps keys 1 … i, so row i − 1 of the array has its first i entries True.
    n_k defaults to n_q. With n_k > n_q the queries are taken as the *last*
    n_q positions of the keys' sequence (as when new tokens are appended to a
    cached prefix), so the query at code index i sees keys 0 … i + n_k − n_q.
    """
    n_q = positive_int("n_q", n_q)
    n_k = n_q if n_k is None else positive_int("n_k", n_k)
    if n_k < n_q:
        raise ValueError(
            f"a causal mask needs n_k >= n_q (each query must see at least itself), got n_q={n_q}, n_k={n_k}"
        )
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)


def random_mask(n_q, n_k, keep=0.5, seed=0) -> np.ndarray:
    """(n_q, n_k) boolean with about a share `keep` of True, seeded; every row keeps at least one key. Chapter 9."""
    n_q, n_k = positive_int("n_q", n_q), positive_int("n_k", n_k)
    if isinstance(keep, bool) or not isinstance(keep, numbers.Real) or not 0 <= keep <= 1:
        raise ValueError(f"keep must be a share between 0 and 1, got {keep!r}")
    rng = np.random.default_rng(seed)
    mask = rng.random((n_q, n_k)) < keep
    mask[np.arange(n_q), rng.integers(0, n_k, n_q)] = True  # no row left empty
    return mask


def masked_scores(S, mask) -> np.ndarray:
    """S (..., n_q, n_k) with −∞ where `mask` is False: the scores softmax turns into A. Chapter 9.

    exp(−∞) = 0, so a masked key gets weight exactly 0 and the rest of the row
    still sums to 1.
    """
    (S,) = as_floats(("S",), (S,), min_ndim=2)
    return np.where(as_mask(mask, S.shape), S, S.dtype.type(-np.inf))


def masked_softmax(S, mask) -> np.ndarray:
    """softmax of `masked_scores(S, mask)` row by row: A (..., n_q, n_k) with exact zeros where masked. Chapter 9.

    Row i is the softmax of only the scores its mask keeps, as if the masked
    keys were not there. The same A as `scaled_dot_product_attention` returns
    with `mask=`.
    """
    (S,) = as_floats(("S",), (S,), min_ndim=2)
    A = np.where(as_mask(mask, S.shape), S, S.dtype.type(-np.inf))  # masked: exp(−∞) = 0
    A = np.exp(A - A.max(axis=-1, keepdims=True))
    A /= A.sum(axis=-1, keepdims=True)
    return A


__all__ = ["causal_mask", "random_mask", "masked_scores", "masked_softmax"]
