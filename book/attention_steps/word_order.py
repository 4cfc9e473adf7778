"""What position does in chapter 8's sentence: the same words in another order.

Self-attention alone has no notion of order: reorder the tokens and the outputs reorder alike
(`equivariance`). The sentence's embeddings (`sentence.embed`) carry two position columns, so the
hand-built layer does notice a shuffle; with those columns set to 0 it does not.

    from attention_steps.word_order import reorder_words, shuffled_words_change, without_position
"""

from __future__ import annotations

import numpy as np

from .equivariance import as_permutation
from .multihead import trace_attention
from .sentence import COLUMNS, D_MODEL, NUM_HEADS, POSITION, weights


def reorder_words(X, perm) -> np.ndarray:
    """The same words in another order, each position keeping its own positional encoding. Chapter 8.

    X (n, 12) as `embed` builds it; perm (n,) a reordering of the code indices
    0 … n − 1. Row k of the result has the word columns (features and "other") of
    row perm[k] of X and the position columns of row k: every word keeps its own
    word vector and takes the positional encoding of the place it moves to.
    Compare `X[perm]`, which moves the position columns along with the words.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != D_MODEL:
        raise ValueError(f"X must have shape (n, {D_MODEL}) as embed builds it, got {X.shape}")
    perm = as_permutation(perm, X.shape[0])
    out = X[perm].copy()
    position = [COLUMNS.index(name) for name in POSITION]
    out[:, position] = X[:, position]
    return out


def without_position(X) -> np.ndarray:
    """X (n, 12) with its two positional columns set to 0: the words alone, no trace of their order. Chapter 8."""
    X = np.array(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != D_MODEL:
        raise ValueError(f"X must have shape (n, {D_MODEL}) as embed builds it, got {X.shape}")
    X[:, [COLUMNS.index(name) for name in POSITION]] = 0.0
    return X


def shuffled_words_change(X, perm, seed: int = 0) -> float:
    """How far the layer's output for any word moves when the words are put in the order `perm`. Chapter 8.

    X (n, 12) as `embed` builds it; perm (n,) a reordering of the code indices.
    Runs the hand-built layer on X and on `reorder_words(X, perm)` (the words
    move, the positions stay) and returns the largest |change| of any word's row
    of Y. With the position columns it is large; on `without_position(X)` it is 0
    up to rounding, because attention alone has no notion of order.
    """
    w = weights(seed)
    perm = as_permutation(perm, np.shape(X)[0])

    def run(M):
        return trace_attention(M, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS).Y

    return float(np.abs(run(reorder_words(X, perm)) - run(np.asarray(X, dtype=float))[perm]).max())
