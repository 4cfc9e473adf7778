"""Bad input gets a ValueError or TypeError that names the argument, what it
got and what was expected: never a bare NumPy error, never NaN out."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import (
    concat_heads_backward,
    multi_head_attention,
    multi_head_attention_backward,
    output_projection_backward,
    projection,
    projection_backward,
    scale,
    scale_backward,
    scaled_dot_product_attention,
    scaled_dot_product_attention_backward,
    scores,
    scores_backward,
    softmax,
    softmax_backward,
    weighted_sum_backward,
)
from conftest import assert_raises_naming

rng = np.random.default_rng(0)
Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
X = rng.normal(size=(3, 8))
W = rng.normal(size=(8, 8))


def mha(**changes):
    args = dict(X=X, W_Q=W, W_K=W, W_V=W, W_O=W, num_heads=2)
    args.update(changes)
    return multi_head_attention(**args)


def mha_backward(**changes):
    args = dict(X=X, W_Q=W, W_K=W, W_V=W, W_O=W, num_heads=2, dY=np.ones((3, 8)))
    args.update(changes)
    return multi_head_attention_backward(**args)


A = softmax(scores(Q, K))  # (3, 5) weights

CASES = [
    # (call, exception, words the message must contain)
    (lambda: scaled_dot_product_attention(Q[0], K, V), ValueError, ["Q", "at least 2 dimension", "(4,)"]),
    (lambda: mha(X=X[0]), ValueError, ["X", "2 dimension", "(8,)"]),
    (lambda: scaled_dot_product_attention(Q, K[:, :3], V[:, :]), ValueError, ["d_k", "Q has 4", "K has 3"]),
    (lambda: scaled_dot_product_attention(Q, K, V[:4]), ValueError, ["K", "V", "5", "4", "rows"]),
    (lambda: mha(num_heads=3), ValueError, ["num_heads=3", "d_model=8"]),
    (lambda: mha(num_heads=0), ValueError, ["num_heads", "positive", "0"]),
    (lambda: mha(num_heads=2.0), TypeError, ["num_heads", "integer", "2.0"]),
    (lambda: mha(num_heads=True), TypeError, ["num_heads", "integer"]),
    (lambda: mha(W_Q=W[:, :4]), ValueError, ["W_Q", "(8, 8)", "(8, 4)"]),
    (lambda: mha(W_O=W[:6]), ValueError, ["W_O", "(8, 8)", "(6, 8)"]),
    (lambda: mha(X_kv=rng.normal(size=(4, 6))), ValueError, ["X_kv", "X", "8", "6"]),
    (
        lambda: scaled_dot_product_attention(Q, K, V, mask=np.ones((3, 4), bool)),
        ValueError,
        ["mask", "(3, 4)", "(3, 5)"],
    ),
    (lambda: scaled_dot_product_attention(Q, K, V, mask=np.ones((3, 5))), TypeError, ["mask", "boolean", "float64"]),
    (
        lambda: scaled_dot_product_attention(Q, K, V, mask=np.eye(3, 5, dtype=bool) & False),
        ValueError,
        ["mask", "query at index 0", "token 1", "no key"],
    ),
    (lambda: scaled_dot_product_attention(np.where(Q > 1, np.nan, Q), K, V), ValueError, ["Q", "finite", "nan"]),
    (lambda: scaled_dot_product_attention(Q, K, np.full((5, 2), np.inf)), ValueError, ["V", "finite", "inf"]),
    (lambda: mha(X=np.where(X > 1, -np.inf, X)), ValueError, ["X", "finite", "-inf"]),
    (lambda: softmax(np.array([[1.0, np.nan]])), ValueError, ["S", "finite", "nan"]),
    (lambda: scaled_dot_product_attention(Q.astype(str), K, V), TypeError, ["Q", "real numbers", "dtype"]),
    (lambda: scaled_dot_product_attention(Q, K.astype(complex), V), TypeError, ["K", "real numbers", "complex"]),
    (lambda: projection([[1, 2], [3]], W), TypeError, ["X", "could not convert"]),
    (lambda: projection("1 0 1", W), TypeError, ["X", "must be numbers (a list or an array)", "the string '1 0 1'"]),
    (lambda: projection(X, np.ones((8, 8), bool)), TypeError, ["W", "real numbers", "bool"]),
    (lambda: projection(X, W[:5]), ValueError, ["X", "W", "8", "5"]),
    (lambda: scale(scores(Q, K), d_k=0), ValueError, ["d_k", "> 0", "0"]),
    (lambda: scale(scores(Q, K), d_k=-4), ValueError, ["d_k", "> 0", "-4"]),
    (lambda: scale(scores(Q, K), d_k="64"), TypeError, ["d_k", "'64'"]),
    (lambda: scores(rng.normal(size=(2, 3, 4)), rng.normal(size=(3, 5, 4))), ValueError, ["batch", "(2,)", "(3,)"]),
    # the backward (chapter 12): a gradient must have the shape of what it is the gradient of
    (lambda: mha_backward(dY=np.ones((3, 7))), ValueError, ["dY must have Y's shape (n, d_model)", "(3, 8)", "(3, 7)"]),
    (lambda: mha_backward(dY=np.ones(8)), ValueError, ["dY", "(3, 8)", "(8,)"]),
    (lambda: mha_backward(dY=np.full((3, 8), np.nan)), ValueError, ["dY", "finite", "nan"]),
    (lambda: mha_backward(W_K=W[:, :4]), ValueError, ["W_K", "(8, 8)", "(8, 4)"]),
    (lambda: mha_backward(X_kv=rng.normal(size=(4, 6))), ValueError, ["X_kv", "X", "8", "6"]),
    (
        lambda: scaled_dot_product_attention_backward(Q, K, V, np.ones((3, 5))),
        ValueError,
        ["dZ must have Z's shape (..., n_q, d_v)", "(3, 2)", "(3, 5)"],
    ),
    (lambda: scaled_dot_product_attention_backward(Q, K, V[:4], np.ones((3, 2))), ValueError, ["K", "V", "5", "4"]),
    (
        lambda: scaled_dot_product_attention_backward(Q, K, V, np.ones((3, 2)), mask=np.zeros((3, 5), bool)),
        ValueError,
        ["mask", "no key"],
    ),
    (
        lambda: projection_backward(X, W, np.ones((3, 7))),
        ValueError,
        ["dOut must have Out's shape", "(3, 8)", "(3, 7)"],
    ),
    (
        lambda: output_projection_backward(X, W, np.ones((4, 8))),
        ValueError,
        ["dY must have Y's shape", "(3, 8)", "(4, 8)"],
    ),
    (lambda: scores_backward(Q, K, np.ones((5, 3))), ValueError, ["dQK_T must have QK_T's shape", "(3, 5)", "(5, 3)"]),
    (lambda: scale_backward(np.ones((3, 5)), d_k=0), ValueError, ["d_k", "> 0"]),
    (lambda: softmax_backward(A, np.ones((5, 3))), ValueError, ["dA must have A's shape", "(3, 5)", "(5, 3)"]),
    (lambda: softmax_backward(scores(Q, K), np.ones((3, 5))), ValueError, ["A must be softmax's output", "not S"]),
    (
        lambda: softmax_backward(A, np.ones((3, 5)), mask=np.eye(3, 5, dtype=bool)),
        ValueError,
        ["A must be 0 where the mask is False", "A[0, 1]"],
    ),
    (lambda: weighted_sum_backward(A, V, np.ones((3, 3))), ValueError, ["dZ must have Z's shape", "(3, 2)", "(3, 3)"]),
    (lambda: weighted_sum_backward(A, V[:4], np.ones((3, 2))), ValueError, ["A", "V", "5", "4"]),
    (lambda: concat_heads_backward(np.ones((3, 8)), 3), ValueError, ["num_heads=3", "8 columns", "dZ_cat"]),
]


@pytest.mark.parametrize("call, error, words", CASES, ids=[" ".join(c[2][:2]) for c in CASES])
def test_bad_input_gives_a_clear_error(call, error, words):
    assert_raises_naming(call, error, words)


def test_no_input_that_passes_the_checks_gives_nan():
    # Scores as large as float64 allows, a mask keeping one key per row.
    Q_big = np.full((3, 4), 1e150)
    mask = np.eye(3, 5, dtype=bool)
    Z, A = scaled_dot_product_attention(Q_big, K, V, mask=mask)
    assert np.all(np.isfinite(Z)) and np.all(np.isfinite(A))
