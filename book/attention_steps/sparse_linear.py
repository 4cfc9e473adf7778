"""Two ways around the n × n matrix that change the model: sparse and linear attention.

Tiled attention (tiled.py) computes exactly softmax(QKᵀ/√d_k)V with less memory.
These two compute something else, cheaper, and a model must be trained with
them:

Sparse attention keeps only some (query, key) pairs. In the strided pattern of
the Sparse Transformer (Child et al., 2019), with stride s, query i (0-based)
sees key j ≤ i when i − j < s (the s most recent tokens, itself included) or
when i − j is a multiple of s. With s ≈ √n each row keeps about √n + i/√n keys:
about 1.5·n√n pairs in all, O(n√n) instead of n².

    strided_mask(n, stride)              (n, n) bool, True where query i sees key j
    strided_count(n, stride)             its number of True entries, without building it
    sparse_attention(Q, K, V, stride)    Z from the kept scores only, row by row
    sparse_markdown(ns)                  pairs kept against n√n and n², as a table

Linear attention (Katharopoulos et al., 2020) replaces exp(q·k/√d_k) by
φ(q)·φ(k) with a positive feature map φ (here elu(x) + 1). Then

    z_i = φ(q_i) (Σ_j φ(k_j)ᵀ v_j) / φ(q_i) · Σ_j φ(k_j),

and the sums over j are a d_k × d_v matrix and a d_k vector computed once:
O(n·d_k·d_v) work, no n × n matrix, because (φ(Q) φ(K)ᵀ) V = φ(Q) (φ(K)ᵀ V).

    elu_plus_one(x)                      φ, positive everywhere
    linear_attention(Q, K, V)            Z in O(n d²)
    linear_attention_weights(Q, K)       the n × n weights it implies (for comparison only)
    multiply_adds(n, d_k, d_v)           softmax vs linear attention's products, counted
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import as_matrix, float_dtype, positive_int, same_size
from .core import softmax
from .costs import format_count
from .i18n import _
from .tables import Table, markdown_table


# ----------------------------------------------------------------------------- sparse: strided
def default_stride(n) -> int:
    """⌊√n⌋ (at least 1): the stride that makes the strided pattern O(n√n). Chapter 11."""
    return max(1, math.isqrt(positive_int("n", n)))


def _check_stride(n: int, stride) -> int:
    stride = positive_int("stride", stride)
    if stride > n:
        raise ValueError(f"stride must be at most n = {n} (the sequence length), got {stride}")
    return stride


def strided_mask(n, stride=None) -> np.ndarray:
    """(n, n) boolean: True where query i may see key j, i.e. j ≤ i and (i − j < stride or (i − j) % stride == 0).

    stride defaults to ⌊√n⌋. Causal, like chapter 9's mask: no query sees a later key.
    """
    n = positive_int("n", n)
    stride = default_stride(n) if stride is None else _check_stride(n, stride)
    gap = np.arange(n)[:, None] - np.arange(n)[None, :]  # i − j
    return (gap >= 0) & ((gap < stride) | (gap % stride == 0))


def strided_count(n, stride=None) -> int:
    """True entries of strided_mask(n, stride), counted row by row without the n × n mask. Chapter 11.

    Row i keeps min(i + 1, stride) recent keys and i // stride earlier ones at
    multiples of the stride (the only multiple inside the window is i itself).
    """
    n = positive_int("n", n)
    stride = default_stride(n) if stride is None else _check_stride(n, stride)
    i = np.arange(n, dtype=np.int64)
    return int(np.minimum(i + 1, stride).sum() + (i // stride).sum())


def _strided_keys(i: int, stride: int) -> np.ndarray:
    """The keys query i sees, in increasing order: every stride-th before the window, then the window."""
    window_start = max(0, i - stride + 1)
    far = np.arange(i % stride, window_start, stride)
    return np.concatenate([far, np.arange(window_start, i + 1)])


def sparse_attention(Q, K, V, stride=None) -> np.ndarray:
    """softmax over the strided pattern's scores only: Q, K (n, d_k), V (n, d_v) -> Z (n, d_v). Chapter 11.

    Computes q_i · k_j / √d_k only for the pairs strided_mask keeps (strided_count
    of them) and never an n × n matrix. Equals the core's
    scaled_dot_product_attention(Q, K, V, mask=strided_mask(n, stride)).
    """
    Q, K, V = (as_matrix(name, x, ndim=2) for name, x in (("Q", Q), ("K", K), ("V", V)))
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[1], "K", K.shape[1])
    same_size("the rows of Q and K (n: sparse self-attention has one sequence)", "Q", Q.shape[0], "K", K.shape[0])
    same_size("the number of rows (n) of K and V", "K", K.shape[0], "V", V.shape[0])
    n = Q.shape[0]
    stride = default_stride(n) if stride is None else _check_stride(n, stride)
    dtype = float_dtype(Q, K, V)
    Q, K, V = (x.astype(dtype, copy=False) for x in (Q, K, V))
    Z = np.empty((n, V.shape[1]), dtype=dtype)
    scale = 1.0 / np.sqrt(Q.shape[1])
    for i in range(n):
        keys = _strided_keys(i, stride)
        a = softmax((K[keys] @ Q[i]) * scale)
        Z[i] = a @ V[keys]
    return Z


def sparse_markdown(ns) -> Table:
    """For each n (stride ⌊√n⌋): pairs the strided pattern keeps, against n√n and n², as a Markdown table
    (its headers in the current language, attention_steps.i18n). Chapter 11."""
    ns = [positive_int("n", n) for n in ns]
    if not ns:
        raise ValueError("ns must list at least one sequence length, got an empty sequence")
    rows = []
    for n in ns:
        kept = strided_count(n)
        rows.append(
            (f"{n:,}", default_stride(n), format_count(kept), f"{kept / (n * math.sqrt(n)):.2f}", f"{kept / n**2:.2%}")
        )
    return markdown_table(["n", _("stride"), _("pairs kept"), _("kept / n√n"), _("kept / n²")], rows)


# ----------------------------------------------------------------------------- linear
def elu_plus_one(x) -> np.ndarray:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, eˣ for x ≤ 0. Positive everywhere, so the weights are too. Chapter 11."""
    x = as_matrix("x", x)
    x = x.astype(float_dtype(x), copy=False)
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _phi_QK(Q, K):
    Q, K = as_matrix("Q", Q, ndim=2), as_matrix("K", K, ndim=2)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[1], "K", K.shape[1])
    return elu_plus_one(Q), elu_plus_one(K)


def linear_attention(Q, K, V) -> np.ndarray:
    """Z = φ(Q) (φ(K)ᵀ V) / (φ(Q) Σ_j φ(k_j)): Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v) -> Z (n_q, d_v). Chapter 11.

    φ(K)ᵀ V is d_k × d_v and Σ_j φ(k_j) has d_k entries: the work is
    O(n·d_k·d_v) and no n_q × n_k matrix is formed. Not causal (every query
    sees every key). Not softmax attention: a different similarity, so different numbers.
    """
    phi_Q, phi_K = _phi_QK(Q, K)
    V = as_matrix("V", V, ndim=2)
    same_size("the number of rows (n_k) of K and V", "K", phi_K.shape[0], "V", V.shape[0])
    V = V.astype(float_dtype(phi_K, V), copy=False)
    KV = phi_K.T @ V  # (d_k, d_v): Σ_j φ(k_j)ᵀ v_j
    k_sum = phi_K.sum(axis=0)  # (d_k,): Σ_j φ(k_j)
    return (phi_Q @ KV) / (phi_Q @ k_sum)[:, None]


def linear_attention_weights(Q, K) -> np.ndarray:
    """The (n_q, n_k) weights linear attention implies: φ(q_i)·φ(k_j) / Σ_j φ(q_i)·φ(k_j). Chapter 11.

    Rows are positive and sum to 1, like softmax's; linear_attention(Q, K, V)
    equals this matrix times V. Built only to compare with softmax: the point
    of linear attention is never to build it.
    """
    phi_Q, phi_K = _phi_QK(Q, K)
    W = phi_Q @ phi_K.T
    return W / W.sum(axis=1, keepdims=True)


def multiply_adds(n, d_k, d_v=None) -> dict[str, int]:
    """Multiply-adds of one head on n tokens: softmax attention against linear attention. Chapter 11.

    softmax: QKᵀ (n·n·d_k) + AV (n·n·d_v). linear: φ(K)ᵀV (n·d_k·d_v) +
    φ(Q)(φ(K)ᵀV) (n·d_k·d_v) + the normaliser φ(Q)·Σφ(k) (n·d_k).
    The elementwise work (exp, φ, the divisions) is left out of both.
    """
    n, d_k = positive_int("n", n), positive_int("d_k", d_k)
    d_v = d_k if d_v is None else positive_int("d_v", d_v)
    return {"softmax": n * n * d_k + n * n * d_v, "linear": 2 * n * d_k * d_v + n * d_k}


__all__ = [
    "default_stride",
    "strided_mask",
    "strided_count",
    "sparse_attention",
    "sparse_markdown",
    "elu_plus_one",
    "linear_attention",
    "linear_attention_weights",
    "multiply_adds",
]
