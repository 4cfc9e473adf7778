"""The backward pass: the gradient of a loss through every stage of attention (chapter 12).

For a number L (the loss) computed from an array M, dM = ∂L/∂M has M's shape: entry by
entry, how fast L moves when that entry moves. Each stage's backward is named after its
forward and takes the forward's inputs (what it reuses) and the gradient of the forward's
output; it returns the gradients of the forward's inputs, one matrix product each:

    projection_backward(X, W, dOut)        Out = X W              dX = dOut Wᵀ,  dW = Xᵀ dOut
    scores_backward(Q, K, dQK_T)           QKᵀ                    dQ = d(QKᵀ) K, dK = d(QKᵀ)ᵀ Q
    scale_backward(dS, d_k)                S = QKᵀ / √d_k         d(QKᵀ) = dS / √d_k
    softmax_backward(A, dA, mask=None)     A = softmax(S)         dS = A ⊙ (dA − rowsum(dA ⊙ A))
    weighted_sum_backward(A, V, dZ)        Z = A V                dA = dZ Vᵀ,    dV = Aᵀ dZ
    split_heads_backward(dM_heads)         (n, h·d) -> (h, n, d)  dM = concat_heads(dM_heads)
    concat_heads_backward(dZ_cat, h)       (h, n, d) -> (n, h·d)  dZ_heads = split_heads(dZ_cat, h)
    output_projection_backward(Z_cat, W_O, dY)   Y = Z_cat W_O    dZ_cat = dY W_Oᵀ, dW_O = Z_catᵀ dY

and the whole computation, the stages' backwards in the reverse order of the forward:

    scaled_dot_product_attention_backward(Q, K, V, dZ, mask=None) -> (dQ, dK, dV)
    multi_head_attention_backward(X, W_Q, W_K, W_V, W_O, num_heads, dY, mask=None, X_kv=None) -> dict

Row-vector convention, as in the forward (q_i = x_i W_Q); float32 in (every input, the
gradient too) gives float32 out, float64 otherwise. `gradcheck.gradient_check` checks any of
them against central finite differences.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_float, as_floats, as_matrix, positive_int, positive_number
from ._validate_backward import (
    as_gradient,
    check_attention_backward,
    check_projection_backward,
    check_scores_backward,
    check_softmax_backward,
    check_weighted_sum_backward,
)
from .core import attend
from .multihead import check_layer, join_columns, split_columns


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`grad` summed back to `shape`: an input the forward broadcast (a W shared by every batch
    entry, a K shared by every batch of queries) was used once per copy, so its gradient is the
    sum of the copies' gradients. Chapter 12."""
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))  # axes broadcasting added in front
    stretched = tuple(axis for axis, size in enumerate(shape) if size == 1 and grad.shape[axis] != 1)
    return grad.sum(axis=stretched, keepdims=True)  # axes of size 1 it stretched


def T(M: np.ndarray) -> np.ndarray:
    """Mᵀ of the last two axes (the batch axes, if any, stay in front)."""
    return np.swapaxes(M, -1, -2)


# ----------------------------------------------------------------------------- stages
def projection_backward(X, W, dOut, *, names: tuple[str, str, str] = ("X", "W", "dOut")):
    """(dX, dW) for Out = X W: dX = dOut Wᵀ (..., n, d_in), dW = Xᵀ dOut (d_in, d_out). Chapter 12.

    X (..., n, d_in), W (d_in, d_out), dOut (..., n, d_out) the gradient of X W. Token i's
    row of dX is dout_i Wᵀ; dW sums x_iᵀ dout_i over every token (and batch entry), since
    every token used the same W. `names` label the three arguments in errors.
    """
    X, W, dOut = check_projection_backward(X, W, dOut, names)
    dX = dOut @ W.T
    dW = unbroadcast(T(X) @ dOut, W.shape)
    return dX, dW


def scores_backward(Q, K, dQK_T):
    """(dQ, dK) for QKᵀ: dQ = d(QKᵀ) K (..., n_q, d_k), dK = d(QKᵀ)ᵀ Q (..., n_k, d_k). Chapter 12.

    Q (..., n_q, d_k), K (..., n_k, d_k), dQK_T (..., n_q, n_k) the gradient of QKᵀ. Entry
    (i, j) is q_i · k_j, so q_i collects Σ_j d(QKᵀ)_ij k_j and k_j collects Σ_i d(QKᵀ)_ij q_i.
    """
    Q, K, dQK_T = check_scores_backward(Q, K, dQK_T)
    dQ = unbroadcast(dQK_T @ K, Q.shape)
    dK = unbroadcast(T(dQK_T) @ Q, K.shape)
    return dQ, dK


def scale_backward(dS, d_k) -> np.ndarray:
    """dQK_T = dS / √d_k for S = QKᵀ / √d_k, same shape as dS. Chapter 12.

    Dividing by the number √d_k scales every gradient that passes back by the same 1/√d_k.
    """
    (dS,) = as_floats(("dS",), (dS,))
    d_k = positive_number("d_k", d_k)
    return (dS / np.sqrt(d_k)).astype(dS.dtype, copy=False)  # float32 stays float32


def softmax_backward(A, dA, mask=None) -> np.ndarray:
    """dS for A = softmax(S) row by row: dS = A ⊙ (dA − rowsum(dA ⊙ A)), same shape as A. Chapter 12.

    A (..., n_k) the weights softmax returned (the forward's output is all it needs), dA of
    its shape the gradient of A. Row by row this is the vector–Jacobian product dA_i J(a_i)
    with J(a) = diag(a) − a aᵀ (chapter 4, `softmax_gradients.softmax_jacobian`), computed
    without making any n_k × n_k matrix. Each row of dS sums to 0: adding a number to a whole
    row of S leaves A unchanged. `mask` (boolean, True = may attend, broadcastable to A's
    shape) is the forward's: a masked score was −∞, a constant, so its gradient is exactly 0.0.
    """
    A, dA, keep = check_softmax_backward(A, dA, mask)
    dS = A * (dA - (dA * A).sum(axis=-1, keepdims=True))
    if keep is not None:
        dS = np.where(keep, dS, dS.dtype.type(0))  # A is 0 there already; this makes it +0.0 exactly
    return dS


def weighted_sum_backward(A, V, dZ):
    """(dA, dV) for Z = A V: dA = dZ Vᵀ (..., n_q, n_k), dV = Aᵀ dZ (..., n_k, d_v). Chapter 12.

    A (..., n_q, n_k), V (..., n_k, d_v), dZ (..., n_q, d_v) the gradient of Z. Weight a_ij
    gets dz_i · v_j; value v_j gets Σ_i a_ij dz_i, from every query that mixed it in.
    """
    A, V, dZ = check_weighted_sum_backward(A, V, dZ)
    dA = unbroadcast(dZ @ T(V), A.shape)
    dV = unbroadcast(T(A) @ dZ, V.shape)
    return dA, dV


def split_heads_backward(dM_heads) -> np.ndarray:
    """dM (n, h·d) for M_heads = split_heads(M, h) (h, n, d): the heads' gradients put back side by side. Chapter 12.

    Splitting only moves entries, so its backward moves the gradients back: it is concat_heads.
    """
    return join_columns(as_matrix("dM_heads", dM_heads, ndim=3))


def concat_heads_backward(dZ_cat, num_heads) -> np.ndarray:
    """dZ_heads (h, n, d) for Z_cat = concat_heads(Z_heads) (n, h·d): head r's block of columns. Chapter 12.

    Concatenating only moves entries, so its backward moves the gradients back: it is split_heads.
    """
    dZ_cat = as_matrix("dZ_cat", dZ_cat, ndim=2)
    h = positive_int("num_heads", num_heads)
    if dZ_cat.shape[1] % h:
        raise ValueError(f"num_heads={h} does not divide the {dZ_cat.shape[1]} columns of dZ_cat {dZ_cat.shape}")
    return split_columns(dZ_cat, h)


def output_projection_backward(Z_cat, W_O, dY):
    """(dZ_cat, dW_O) for Y = Z_cat W_O: dZ_cat = dY W_Oᵀ (n, h·d_v), dW_O = Z_catᵀ dY (h·d_v, d_out). Chapter 12.

    The output projection is a projection (`projection_backward`), named as chapter 7 names it.
    """
    return projection_backward(Z_cat, W_O, dY, names=("Z_cat", "W_O", "dY"))


# ----------------------------------------------------------------------------- one head
def scaled_dot_product_attention_backward(Q, K, V, dZ, mask=None):
    """(dQ, dK, dV) for (Z, A) = scaled_dot_product_attention(Q, K, V, mask). Chapter 12.

    Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v), dZ (..., n_q, d_v) the gradient
    of Z, `mask` as in the forward (True = may attend). Runs the forward once for its weights
    A, then `attend_backward`. dQ, dK, dV have the shapes of Q, K, V.
    """
    Q, K, V, dZ, keep = check_attention_backward(Q, K, V, dZ, mask)
    _, A = attend(Q, K, V, keep)  # the forward: its A is all the backward reuses
    return attend_backward(Q, K, V, A, dZ, keep)


def attend_backward(Q, K, V, A, dZ, keep=None):
    """(dQ, dK, dV) from the forward's weights A: the four stages of one head backwards. Chapter 12."""
    dA, dV = weighted_sum_backward(A, V, dZ)  # Z = A V
    dS = softmax_backward(A, dA, keep)  # A = softmax(S), row by row; masked: exactly 0
    dQK_T = scale_backward(dS, Q.shape[-1])  # S = QKᵀ / √d_k
    dQ, dK = scores_backward(Q, K, dQK_T)  # QKᵀ
    return dQ, dK, dV


# ----------------------------------------------------------------------------- the layer
def multi_head_attention_backward(X, W_Q, W_K, W_V, W_O, num_heads, dY, mask=None, X_kv=None) -> dict:
    """The gradients of every input of multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv). Chapter 12.

    Arguments as in the forward, and dY (n, d_model) the gradient of Y. Returns a dict of
    arrays shaped like the inputs: "X", "W_Q", "W_K", "W_V", "W_O", and "X_kv" when X_kv is
    given (cross-attention: then "X" is the gradient through the queries only, "X_kv" through
    the keys and values). In self-attention X makes Q, K and V, so "X" gathers all three.
    """
    layer, dY = check_layer_backward(X, W_Q, W_K, W_V, W_O, num_heads, dY, mask, X_kv)
    t = layer.run()  # the forward, once: every intermediate the backward reuses
    h, W_O = t.num_heads, t.W_O.astype(dY.dtype, copy=False)
    dZ_cat, dW_O = output_projection_backward(t.Z_cat, W_O, dY)  # Y = Z_cat W_O
    dZ_heads = concat_heads_backward(dZ_cat, h)  # Z_cat = Concat(Z⁽¹⁾, …, Z⁽ʰ⁾)
    Q, K, V = (split_columns(M, h) for M in (t.Q, t.K, t.V))  # Q⁽ʳ⁾, K⁽ʳ⁾, V⁽ʳ⁾ stacked by head
    dQ_heads, dK_heads, dV_heads = attend_backward(Q, K, V, t.A, dZ_heads, layer.keep)  # every head at once
    dQ, dK, dV = (split_heads_backward(d) for d in (dQ_heads, dK_heads, dV_heads))  # split_heads(Q, h)
    dX, dW_Q = projection_backward(t.X, t.W_Q, dQ)  # Q = X W_Q
    dX_kv_from_K, dW_K = projection_backward(t.X_kv, t.W_K, dK)  # K = X_kv W_K
    dX_kv_from_V, dW_V = projection_backward(t.X_kv, t.W_V, dV)  # V = X_kv W_V
    grads = {"X": dX, "W_Q": dW_Q, "W_K": dW_K, "W_V": dW_V, "W_O": dW_O}
    if X_kv is None:  # self-attention: X_kv is X, which made Q, K and V
        grads["X"] = dX + dX_kv_from_K + dX_kv_from_V
    else:
        grads["X_kv"] = dX_kv_from_K + dX_kv_from_V
    return grads


def check_layer_backward(X, W_Q, W_K, W_V, W_O, num_heads, dY, mask, X_kv):
    """`multihead.check_layer` as multi_head_attention checks (square weights), then dY against Y's shape
    (n, d_model); returns (LayerInputs, dY), float32 only when dY is float32 too. Chapter 12."""
    dY = as_matrix("dY", dY)
    if dY.dtype != np.float32:  # a float64 gradient makes the whole backward float64
        X = as_float("X", X, np.dtype(np.float64), ndim=2)
    layer = check_layer(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv, square=True)
    dY = as_gradient("dY", dY, layer.X.shape, "(n, d_model)")
    return layer, dY.astype(layer.X.dtype, copy=False)


__all__ = [
    "projection_backward",
    "scores_backward",
    "scale_backward",
    "softmax_backward",
    "weighted_sum_backward",
    "split_heads_backward",
    "concat_heads_backward",
    "output_projection_backward",
    "scaled_dot_product_attention_backward",
    "multi_head_attention_backward",
    "attend_backward",
    "unbroadcast",
]
