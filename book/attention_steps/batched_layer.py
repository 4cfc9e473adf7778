"""The book's attention layer for a batch of sentences at once, forward and backward (chapter 13).

`multi_head_attention` and `multi_head_attention_backward` take one sentence (n, d_model); training
runs the same layer on B sentences (B, n, d_model) at every step, so this module strings the same
stages together with a batch axis in front: the projections as one product over every token,
`core.attend_by_stage` for the heads, and chapter 12's `attend_backward`, `projection_backward` and
`output_projection_backward` backwards. For one sentence it is exactly the book's layer
(tests/test_tiny_model.py checks both directions against it).

    Y, cache = layer_forward(X, W_Q, W_K, W_V, W_O, h, factor)       X (B, n, d_model)
    dX, grads = layer_backward(cache, W_Q, W_K, W_V, W_O, h, factor, dY=dY)

`factor` multiplies the queries: √d_k / c turns the core's ÷ √d_k into a division by c (chapter 3's
three strategies).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .backward import attend_backward, output_projection_backward, projection_backward
from .core import attend_by_stage


def split(M: np.ndarray, h: int) -> np.ndarray:
    """(B, n, h·d) -> (B, h, n, d): `multihead.split_heads` for every sentence at once. Chapter 13."""
    B, n, hd = M.shape
    return M.reshape(B, n, h, hd // h).transpose(0, 2, 1, 3)


def join(M: np.ndarray) -> np.ndarray:
    """(B, h, n, d) -> (B, n, h·d): `multihead.concat_heads` for every sentence at once. Chapter 13."""
    B, h, n, d = M.shape
    return M.transpose(0, 2, 1, 3).reshape(B, n, h * d)


@dataclass
class LayerCache:
    """What one layer's backward reuses: X (B, n, d), Q, K, V (B, h, n, d_k) (Q times the query
    factor), A (B, h, n, n), Z_cat (B, n, h·d_k), `keep` (B or 1, h, n, 1) the heads' outputs kept. Chapter 13."""

    X: np.ndarray
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray | None
    A: np.ndarray
    Z_cat: np.ndarray | None = None
    keep: np.ndarray | None = None
    X_kv: np.ndarray | None = None


def layer_forward(X, W_Q, W_K, W_V, W_O, h, factor, keep=None, X_kv=None):
    """Y (B, n, d) and the cache: Y = Concat(head_1 … head_h) W_O with each head's scores ÷ c. Chapter 13.

    W_V, W_O None: only the attention (a pointing layer), Y is None; its keys come from X_kv
    (B, n, d). `keep` (h, n) zeroes heads' outputs.
    """
    B, n, d = X.shape

    def project(M, W):
        return split((M.reshape(B * n, d) @ W).reshape(B, n, -1), h)  # every token as a row: one product

    Q = project(X, W_Q) * factor
    if W_V is None:
        K = project(X_kv, W_K)
        _, _, A, _ = attend_by_stage(Q, K, K)
        return None, LayerCache(X, Q, K, None, A, X_kv=X_kv)
    K, V = project(X, W_K), project(X, W_V)
    _, _, A, Z = attend_by_stage(Q, K, V)
    if keep is not None:
        Z = Z * keep[None, :, :, None]
    Z_cat = join(Z)
    return (Z_cat.reshape(B * n, -1) @ W_O).reshape(B, n, -1), LayerCache(X, Q, K, V, A, Z_cat, keep)


def layer_backward(cache: LayerCache, W_Q, W_K, W_V, W_O, h, factor, dY=None, dS=None):
    """(dX, {"W_Q": …}) for `layer_forward`, by chapter 12's stages. Either dY (B, n, d), the
    gradient of Y, or dS (B, h, n, n), the gradient of the scaled scores (a pointing layer, whose
    dX is (dX through the queries, dX_kv through the keys))."""
    grads = {}
    if dY is not None:
        B, n, _ = dY.shape
        dZ_cat, grads["W_O"] = output_projection_backward(cache.Z_cat.reshape(B * n, -1), W_O, dY.reshape(B * n, -1))
        dZ_cat = dZ_cat.reshape(B, n, -1)  # Y = Z_cat W_O
        dZ = split(dZ_cat, h)  # Z_cat = Concat(Z⁽¹⁾ … Z⁽ʰ⁾)
        if cache.keep is not None:
            dZ = dZ * cache.keep[None, :, :, None]
        dQ, dK, dV = attend_backward(cache.Q, cache.K, cache.V, cache.A, dZ)  # the head's four stages
    else:  # S = Q Kᵀ / √d_k: scale, then scores, backwards
        dQK = dS / np.sqrt(cache.Q.shape[-1])
        dQ, dK, dV = dQK @ cache.K, np.swapaxes(dQK, -1, -2) @ cache.Q, None
    shape = cache.X.shape
    X = cache.X.reshape(-1, shape[-1])  # every sentence's tokens as rows: dW is one product Xᵀ dOut

    def rows(dM):
        return join(dM).reshape(X.shape[0], -1)

    dX, grads["W_Q"] = projection_backward(X, W_Q, rows(dQ) * factor)  # Q = (X W_Q) · √d_k / c
    if cache.X_kv is not None:  # K = X_kv W_K
        dX_kv, grads["W_K"] = projection_backward(cache.X_kv.reshape(X.shape), W_K, rows(dK))
        return (dX.reshape(shape), dX_kv.reshape(shape)), grads
    dX_k, grads["W_K"] = projection_backward(X, W_K, rows(dK))  # K = X W_K
    dX = dX + dX_k
    if dV is not None:
        dX_v, grads["W_V"] = projection_backward(X, W_V, rows(dV))  # V = X W_V
        dX = dX + dX_v
    return dX.reshape(cache.X.shape), grads


__all__ = ["layer_forward", "layer_backward", "LayerCache", "split", "join"]
