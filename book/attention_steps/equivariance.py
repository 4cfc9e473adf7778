"""Permutation equivariance (chapter 8): reorder the tokens and the outputs reorder alike.

Self-attention has no notion of order; `permutation_equivariance` runs one layer on X and on
X with its rows reordered and measures how far the results are from each other, reordered.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import positive_int
from .multihead import check_layer


def as_permutation(perm, n: int, name: str = "perm") -> np.ndarray:
    """`perm` as an int array that reorders n rows: each of 0 … n − 1 exactly once (code indices). Chapter 8."""
    n = positive_int("n", n)
    arr = np.asarray(perm)
    if arr.dtype == bool or arr.dtype.kind not in "iu" or arr.ndim != 1:
        raise TypeError(f"{name} must be a 1-D array of whole numbers (row indices), got {perm!r}")
    if arr.shape != (n,) or not np.array_equal(np.sort(arr), np.arange(n)):
        raise ValueError(
            f"{name} must list each row index 0 … {n - 1} exactly once (a reordering of the {n} tokens), got {arr.tolist()}"
        )
    return arr.astype(int)


@dataclass(frozen=True)
class Equivariance:
    """One layer run on X and on its rows reordered, X[perm], and how far apart the results are. Chapter 8.

    perm (n,): row k of the reordered input is row perm[k] of X (code indices).
    Y, Y_perm (n, d_out): the layer's output on X and on X[perm] (Z_cat without W_O).
    gap: the largest |Y_perm − Y[perm]|, 0 up to rounding when the layer is
    permutation equivariant. A_gap: the same for the weights, A(X[perm]) against
    A(X) with rows and columns reordered, in every head.
    """

    perm: np.ndarray
    Y: np.ndarray
    Y_perm: np.ndarray
    gap: float
    A_gap: float


def permutation_equivariance(
    X, W_Q, W_K, W_V, W_O=None, num_heads: int = 1, *, perm=None, mask=None, seed: int = 0
) -> Equivariance:
    """Shuffle the tokens (the rows of X) and compare: does the output shuffle the same way? Chapter 8.

    Self-attention has no notion of order: for any reordering P of the rows,
    Attention(P X) = P Attention(X), because P X W = P (X W), the scores become
    P QKᵀ Pᵀ (rows and columns reordered alike), a row-wise softmax does not care
    in which order a row's entries come, and P A Pᵀ P V = P A V. X (n, d_model);
    weights as for `trace_attention`; `perm` (n,) a reordering of 0 … n − 1
    (seeded random if None). A `mask` is tied to the positions, not to the
    tokens, so it is applied as it is to both runs (a causal mask breaks the
    equivariance: that is what it is for).
    """
    layer = check_layer(X, W_Q, W_K, W_V, W_O, num_heads, mask)
    n = layer.X.shape[0]
    perm = np.random.default_rng(seed).permutation(n) if perm is None else as_permutation(perm, n)
    t, t_perm = layer.run(), layer.run(layer.X[perm])
    Y, Y_perm = (t.Z_cat, t_perm.Z_cat) if W_O is None else (t.Y, t_perm.Y)
    return Equivariance(
        perm=perm,
        Y=Y,
        Y_perm=Y_perm,
        gap=float(np.abs(Y_perm - Y[perm]).max()),
        A_gap=float(np.abs(t_perm.A - t.A[:, perm][:, :, perm]).max()),
    )


__all__ = ["Equivariance", "as_permutation", "permutation_equivariance"]
