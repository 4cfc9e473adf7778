"""attention: the tiny NumPy core behind *Attention, Step by Step*.

One function per stage of self-attention, named after the math:

    projection(X, W)          Q = X W_Q, K = X W_K, V = X W_V
    scores(Q, K)              QKᵀ
    scale(QK_T, d_k)          S = QKᵀ / √d_k
    softmax(S)                A, row by row, numerically stable
    weighted_sum(A, V)        Z = A V

and the whole computation:

    scaled_dot_product_attention(Q, K, V, mask=None) -> (Z, A)
    multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None, X_kv=None) -> (Y, A)
    trace_attention(...) -> Trace   every intermediate, by its name in the text (Z⁽¹⁾ is head 1)
    permutation_equivariance(X, ...) reorder the tokens, see the outputs reorder alike (chapter 8)
    tiled_attention(Q, K, V, block_size, mask=None) -> Z   the same Z, block by block (chapter 11)
    causal_mask(n)            the decoder's mask: token i sees tokens 1 … i (chapter 9)
"""

from .core import projection, scale, scaled_dot_product_attention, scores, softmax, softmax_naive, weighted_sum
from .equivariance import Equivariance, permutation_equivariance
from .masks import causal_mask
from .multihead import Head, Trace, concat_heads, multi_head_attention, split_heads, trace_attention
from .tiled import tiled_attention

__all__ = [
    # one function per stage, and one head (core)
    "projection",
    "scores",
    "scale",
    "softmax",
    "softmax_naive",
    "weighted_sum",
    "scaled_dot_product_attention",
    # the whole layer (multihead, equivariance, masks, tiled)
    "multi_head_attention",
    "trace_attention",
    "split_heads",
    "concat_heads",
    "Trace",
    "Head",
    "permutation_equivariance",
    "Equivariance",
    "causal_mask",
    "tiled_attention",
]
