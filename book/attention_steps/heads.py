"""Multi-head attention taken apart: head widths, a small seeded layer, the
√d_model scaling bug, and the output projection W_O block by block.

Chapters 6 and 7 use these; the layer itself is always computed by
`trace_attention` / `multi_head_attention`. Head r of the text (r = 1 … h) is
code index r − 1 and owns the d_k columns (r−1)·d_k … r·d_k − 1 (code indices,
the slice [(r−1)·d_k, r·d_k)) of W_Q and W_K, the matching d_v columns of W_V,
and the same d_v rows of W_O, its block W^O⁽ʳ⁾.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int, same_size
from .core import projection, scale, scores, softmax
from .examples import ExampleLayer
from .multihead import split_heads
from .softmax_gradients import entropy


def head_width(d_model, num_heads) -> int:
    """d_k = d_model / h, the width of each head's queries and keys (512 / 8 = 64). Chapter 6.

    Raises ValueError when h does not divide d_model: the heads could not split
    the model's width evenly.
    """
    d_model = positive_int("d_model", d_model)
    h = positive_int("num_heads", num_heads)
    if d_model % h:
        raise ValueError(f"num_heads={h} must divide d_model={d_model} evenly (d_k = d_model / h)")
    return d_model // h


# The first six words of chapter 8's sentence, the tokens of `small_layer`.
SIX_WORDS = ("The", "animal", "didn't", "cross", "the", "street")


def small_layer(d_model: int = 8, num_heads: int = 4, *, gain: float = 2.0, seed: int = 3) -> ExampleLayer:
    """A seeded toy layer on the first six words of "The animal didn't cross the street …". Chapter 6.

    X (6, d_model) has N(0, 1) entries; W_Q, W_K, W_V, W_O have N(0, gain² / d_model)
    entries (`gain` above 1 gives heads with visible preferences). Untrained:
    the heads' patterns are random, not linguistic; they show the mechanics.
    """
    d_model = positive_int("d_model", d_model)
    head_width(d_model, num_heads)  # validates num_heads
    if not np.isfinite(gain) or gain <= 0:
        raise ValueError(f"gain must be a finite number > 0, got {gain!r}")
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((len(SIX_WORDS), d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) * gain / np.sqrt(d_model) for _ in range(4))
    return ExampleLayer(SIX_WORDS, X, W_Q, W_K, W_V, W_O, int(num_heads))


def weights_with_sqrt_d_model_bug(X, W_Q, W_K, num_heads) -> np.ndarray:
    """THE BUG, kept for teaching: each head's scores divided by √d_model instead of √d_k. Chapter 6.

    X (n, d_model), W_Q and W_K (d_model, d_model). Built from the stage
    functions exactly like the correct path except for the divisor, so the
    difference is the bug alone. Returns A_bug (h, n, n). The correct weights are
    `trace_attention(...).A`.
    """
    X = as_matrix("X", X, ndim=2)
    d_model = X.shape[1]
    h = positive_int("num_heads", num_heads)
    head_width(d_model, h)
    Q_heads = split_heads(projection(X, W_Q, names=("X", "W_Q")), h)  # (h, n, d_k)
    K_heads = split_heads(projection(X, W_K, names=("X", "W_K")), h)
    return softmax(scale(scores(Q_heads, K_heads), d_model))  # ÷ √d_model: wrong, should be √d_k


@dataclass(frozen=True)
class Sharpness:
    """How peaked each head's weights are, averaged over its queries; arrays of shape (h,). Chapter 6."""

    mean_entropy: np.ndarray  # nats; ln(n_k) means uniform, 0 means one-hot
    mean_max_weight: np.ndarray  # 1/n_k means uniform, 1 means one-hot


def sharpness(A) -> Sharpness:
    """Average entropy and largest weight per head of A (h, n_q, n_k) (or one head, (n_q, n_k)). Chapter 6."""
    A = as_matrix("A", A, min_ndim=2)
    if A.ndim == 2:
        A = A[None]
    if A.ndim != 3:
        raise ValueError(f"A must have shape (h, n_q, n_k) or (n_q, n_k), got {A.shape}")
    return Sharpness(entropy(A).mean(axis=-1), A.max(axis=-1).mean(axis=-1))


@dataclass(frozen=True)
class BugAtSize:
    """The √d_model bug on random unit-variance queries and keys at a given size. Chapter 6."""

    d_model: int
    num_heads: int
    d_k: int
    score_std: float  # std of q·k / √d_k: about 1
    score_std_bug: float  # std of q·k / √d_model: about 1 / √h
    right: Sharpness  # weights with ÷ √d_k, shape (1,)
    bug: Sharpness  # weights with ÷ √d_model, shape (1,)


def scaling_bug_at_size(
    d_model=512, num_heads=8, *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0
) -> BugAtSize:
    """One head of width d_k = d_model / h, q and k with independent N(0, 1) components
    (the assumption of chapter 3), softmax over n_keys keys, scaled right and wrong.

    The bug divides by √d_model = √h · √d_k, so its scores are √h times too small.
    """
    d_k = head_width(d_model, num_heads)
    n_keys, n_queries = positive_int("n_keys", n_keys), positive_int("n_queries", n_queries)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_queries, 1, d_k))
    K = rng.standard_normal((n_queries, n_keys, d_k))
    raw = scores(q, K)[:, 0, :]  # (n_queries, n_keys)
    right, bug = scale(raw, d_k), scale(raw, d_model)
    return BugAtSize(
        d_model=int(d_model),
        num_heads=int(num_heads),
        d_k=d_k,
        score_std=float(right.std()),
        score_std_bug=float(bug.std()),
        right=sharpness(softmax(right)),
        bug=sharpness(softmax(bug)),
    )


def output_blocks(W_O, num_heads) -> np.ndarray:
    """Split W_O (h·d_v, d_out) into its row blocks W^O⁽ʳ⁾: shape (h, d_v, d_out). Chapter 7.

    Block r (code index r − 1) holds the rows [(r−1)·d_v, r·d_v) (code indices):
    the rows that multiply head r's columns of Z_cat.
    """
    W_O = as_matrix("W_O", W_O, ndim=2)
    h = positive_int("num_heads", num_heads)
    if W_O.shape[0] % h:
        raise ValueError(f"num_heads={h} must divide the {W_O.shape[0]} rows of W_O {W_O.shape}")
    return W_O.reshape(h, W_O.shape[0] // h, W_O.shape[1])


def head_contributions(Z_heads, W_O) -> np.ndarray:
    """Each head's share of the output: Z⁽ʳ⁾ W^O⁽ʳ⁾ for r = 1..h, shape (h, n, d_out) (head r at index r − 1). Chapter 7.

    Z_heads (h, n, d_v) are the heads' outputs, W_O (h·d_v, d_out). Their sum
    over heads is Y = Concat(Z⁽¹⁾, …, Z⁽ʰ⁾) W_O.
    """
    Z_heads = as_matrix("Z_heads", Z_heads, ndim=3)
    W_O = as_matrix("W_O", W_O, ndim=2)
    h, _, d_v = Z_heads.shape
    same_size("the rows of W_O and h·d_v of Z_heads", "W_O", W_O.shape[0], "Z_heads", h * d_v)
    return Z_heads @ output_blocks(W_O, h)


__all__ = [
    "head_width",
    "small_layer",
    "weights_with_sqrt_d_model_bug",
    "Sharpness",
    "sharpness",
    "BugAtSize",
    "scaling_bug_at_size",
    "output_blocks",
    "head_contributions",
    "SIX_WORDS",
]
