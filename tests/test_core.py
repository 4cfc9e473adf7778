"""The core against the source article's worked example, an independent
reference, and the properties attention must have."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import reference
from attention_steps import (
    multi_head_attention,
    permutation_equivariance,
    projection,
    scale,
    scaled_dot_product_attention,
    scores,
    softmax,
    softmax_naive,
    trace_attention,
    weighted_sum,
)
from attention_steps.core import numerical_jacobian
from attention_steps.examples import i_love

# ---------------------------------------------------------------- the source article's "I love" example
SEED = {  # as printed in the source article ("Transformer 原理（二）", named in the intro), with the number of decimals it prints
    "Q": ([[2, 0, 1], [0, 2, 1]], 0),
    "K": ([[1, 1, 0], [0, 1, 1]], 0),
    "V": ([[1, 0, 1], [0, 1, 0]], 0),
    "QKᵀ": ([[2, 1], [2, 3]], 0),
    "S": ([[1.15, 0.58], [1.15, 1.73]], 2),
    "A": ([[0.64, 0.36], [0.36, 0.64]], 2),
    "Z⁽¹⁾": ([[0.64, 0.36, 0.64], [0.36, 0.64, 0.36]], 2),
}


@pytest.mark.parametrize("name", SEED)
def test_seed_example_matches_the_article(name):
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    printed, decimals = SEED[name]
    got = t[name][0] if name in ("QKᵀ", "S", "A") else t[name]  # one head
    np.testing.assert_array_equal(np.round(got, decimals), printed)


def test_seed_stages_one_by_one():
    ex = i_love()
    Q, K, V = (projection(ex.X, W) for W in (ex.W_Q, ex.W_K, ex.W_V))
    S = scale(scores(Q, K), d_k=3)
    A = softmax(S)
    np.testing.assert_allclose(weighted_sum(A, V), trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V).head(0).Z)
    # the article's softmax by hand: e^1.15 / (e^1.15 + e^0.58)
    assert A[0, 0] == pytest.approx(np.exp(2 / np.sqrt(3)) / (np.exp(2 / np.sqrt(3)) + np.exp(1 / np.sqrt(3))))


def test_seed_scores_are_not_symmetric():
    ex = i_love()
    S = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V).QK_T[0]
    assert S[0, 1] != S[1, 0]  # W_Q ≠ W_K: "I" → "love" is 1, "love" → "I" is 2


def test_seed_weights_are_symmetric_although_the_scores_are_not():
    # The source articles infer "W_Q ≠ W_K, so A is not symmetric"; their own example
    # has W_Q ≠ W_K and asymmetric scores, yet A is symmetric (to rounding): each row's
    # weights depend only on that row's gap, and both gaps are 1 (2 − 1 = 3 − 2).
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    assert not np.array_equal(ex.W_Q, ex.W_K)
    assert t.QK_T[0][0, 1] != t.QK_T[0][1, 0]
    assert abs(t.A[0][0, 1] - t.A[0][1, 0]) < 1e-15


# ---------------------------------------------------------------- finite differences
@settings(max_examples=40, deadline=None)
@given(s=arrays(np.float64, st.integers(1, 6), elements=st.floats(-5, 5, allow_nan=False, allow_infinity=False)))
def test_softmax_jacobian_is_diag_a_minus_a_a_transpose(s):
    # chapter 4: ∂a_i/∂s_j = a_i (δ_ij − a_j), checked against central differences of the core's softmax
    a = softmax(s)
    np.testing.assert_allclose(numerical_jacobian(softmax, s), np.diag(a) - np.outer(a, a), atol=1e-8)


def test_numerical_jacobian_of_a_linear_map_is_the_matrix():
    M = np.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
    np.testing.assert_allclose(numerical_jacobian(lambda x: M @ x, np.ones(3)), M, atol=1e-9)
    with pytest.raises(ValueError, match="step"):
        numerical_jacobian(softmax, np.ones(2), step=0)
    with pytest.raises(ValueError, match="s must have 1 dimension"):
        numerical_jacobian(softmax, np.ones((2, 2)))


# ---------------------------------------------------------------- against the loop reference
def random_problem(seed, n=5, n_kv=None, d_model=8, h=2):
    rng = np.random.default_rng(seed)
    n_kv = n if n_kv is None else n_kv
    X, X_kv = rng.normal(size=(n, d_model)), rng.normal(size=(n_kv, d_model))
    W = [rng.normal(size=(d_model, d_model)) / np.sqrt(d_model) for _ in range(4)]
    return X, X_kv, W


@pytest.mark.parametrize("seed", range(5))
def test_single_head_matches_reference(seed):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(4, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
    Z, A = scaled_dot_product_attention(Q, K, V)
    Z_ref, A_ref = reference.attention_rows(Q.tolist(), K.tolist(), V.tolist())
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(A, A_ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("h", [1, 2, 4, 8])
def test_multi_head_matches_reference(seed, h):
    X, _, (W_Q, W_K, W_V, W_O) = random_problem(seed, h=h)
    Y, A = multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads=h)
    Y_ref, A_ref = reference.multi_head(X.tolist(), W_Q.tolist(), W_K.tolist(), W_V.tolist(), W_O.tolist(), h)
    np.testing.assert_allclose(Y, Y_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(A, A_ref, rtol=1e-10, atol=1e-12)


def test_cross_attention_matches_reference():
    X, X_kv, (W_Q, W_K, W_V, W_O) = random_problem(7, n=3, n_kv=6)
    Y, A = multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads=2, X_kv=X_kv)
    Y_ref, A_ref = reference.multi_head(
        X.tolist(), W_Q.tolist(), W_K.tolist(), W_V.tolist(), W_O.tolist(), 2, X_kv.tolist()
    )
    assert Y.shape == (3, 8) and A.shape == (2, 3, 6)
    np.testing.assert_allclose(Y, Y_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(A, A_ref, rtol=1e-10, atol=1e-12)


def test_masked_attention_matches_reference():
    rng = np.random.default_rng(3)
    Q, K, V = rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    mask = rng.random((5, 5)) > 0.4
    mask[:, 0] = True
    Z, A = scaled_dot_product_attention(Q, K, V, mask=mask)
    Z_ref, A_ref = reference.attention_rows(Q.tolist(), K.tolist(), V.tolist(), mask.tolist())
    np.testing.assert_allclose(Z, Z_ref, atol=1e-12)
    np.testing.assert_allclose(A, A_ref, atol=1e-12)
    assert np.all(A[~mask] == 0)


# ---------------------------------------------------------------- properties
finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False, width=64)


def matrices(rows, cols):
    return arrays(np.float64, (rows, cols), elements=finite)


@st.composite
def qkv(draw):
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 6)) for _ in range(4))
    return draw(matrices(n_q, d_k)), draw(matrices(n_k, d_k)), draw(matrices(n_k, d_v))


@given(qkv())
def test_rows_of_A_are_positive_and_sum_to_one(problem):
    _, A = scaled_dot_product_attention(*problem)
    assert np.all(A >= 0)
    np.testing.assert_allclose(A.sum(axis=-1), 1.0, rtol=1e-12)


@given(matrices(3, 5), st.floats(-1e3, 1e3, allow_nan=False))
def test_softmax_is_shift_invariant(S, c):
    np.testing.assert_allclose(softmax(S + c), softmax(S), atol=1e-12)


@given(qkv(), st.randoms(use_true_random=False))
def test_self_attention_is_permutation_equivariant(problem, rnd):
    Q, K, V = problem
    n = min(len(Q), len(K))
    Q, K, V = Q[:n], K[:n], V[:n]
    perm = np.array(rnd.sample(range(n), n))
    Z, A = scaled_dot_product_attention(Q, K, V)
    Z_p, A_p = scaled_dot_product_attention(Q[perm], K[perm], V[perm])
    np.testing.assert_allclose(Z_p, Z[perm], atol=1e-9)
    np.testing.assert_allclose(A_p, A[perm][:, perm], atol=1e-12)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1))
def test_one_head_then_W_O_equals_multi_head_with_one_head(seed):
    X, _, (W_Q, W_K, W_V, W_O) = random_problem(seed)
    Z, _ = scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V)
    Y, _ = multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads=1)
    np.testing.assert_allclose(Y, Z @ W_O, atol=1e-12)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 4, 8]))
def test_concat_then_W_O_equals_sum_over_row_blocks(seed, h):
    X, _, W = random_problem(seed, h=h)
    t = trace_attention(X, *W, num_heads=h)
    d_v = t.d_v
    blocks = sum(t.head(r).Z @ t.W_O[r * d_v : (r + 1) * d_v] for r in range(h))
    np.testing.assert_allclose(t.Y, blocks, atol=1e-12)


def test_full_causal_mask_makes_token_zero_attend_only_to_itself():
    X, _, W = random_problem(1, n=6)
    causal = np.tril(np.ones((6, 6), dtype=bool))
    _, A = multi_head_attention(X, *W, num_heads=2, mask=causal)
    np.testing.assert_array_equal(A[:, 0, 0], 1.0)
    np.testing.assert_array_equal(A[:, 0, 1:], 0.0)
    assert np.all(A[:, ~causal] == 0)


def test_each_head_scales_by_its_own_sqrt_d_k():
    X, _, W = random_problem(2, d_model=8, h=4)
    t = trace_attention(X, *W, num_heads=4)
    head = t.head(1)
    np.testing.assert_allclose(head.S, head.Q @ head.K.T / np.sqrt(2))  # d_k = 8 / 4, not d_model
    np.testing.assert_allclose(head.Q, (X @ W[0])[:, 2:4])  # columns [r·d_k, (r+1)·d_k)


# ---------------------------------------------------------------- numerics and dtypes
@pytest.mark.parametrize("big", [1e4, 1e8, 1e12])  # big - 1 must still be representable
def test_softmax_stays_finite_and_exact_for_huge_scores(big):
    A = softmax(np.array([[big, big - 1.0, 0.0]]))
    assert np.all(np.isfinite(A))
    np.testing.assert_allclose(A[0, :2], [1 / (1 + np.exp(-1)), np.exp(-1) / (1 + np.exp(-1))], rtol=1e-12)
    assert np.isnan(softmax_naive(np.array([[1e4, 0.0]]))).any()  # what the stable form avoids


def test_float32_in_float32_out_and_float64_by_default():
    X, _, W = random_problem(0)
    Y32, A32 = multi_head_attention(X.astype(np.float32), *(w.astype(np.float32) for w in W), num_heads=2)
    assert Y32.dtype == A32.dtype == np.float32
    Y, A = multi_head_attention(X.round().astype(int), *W, num_heads=2)
    assert Y.dtype == A.dtype == np.float64
    np.testing.assert_allclose(Y32, multi_head_attention(X, *W, num_heads=2)[0], rtol=1e-4, atol=1e-5)


def test_batch_axes_broadcast():
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(2, 3, 4, 5)), rng.normal(size=(3, 6, 5)), rng.normal(size=(3, 6, 2))
    Z, A = scaled_dot_product_attention(Q, K, V)
    assert Z.shape == (2, 3, 4, 2) and A.shape == (2, 3, 4, 6)
    np.testing.assert_allclose(Z[1, 2], scaled_dot_product_attention(Q[1, 2], K[2], V[2])[0])


def test_trace_names_read_every_intermediate():
    X, _, W = random_problem(0, h=2)
    t = trace_attention(X, *W, num_heads=2)
    for name in t.names():
        assert isinstance(t[name], np.ndarray), name
    np.testing.assert_array_equal(t["Z⁽²⁾"], t.Z_heads[1])
    np.testing.assert_array_equal(t["Z_cat"][:, 4:], t.Z_heads[1])
    with pytest.raises(KeyError, match="known names"):
        t["W"]


def test_head_numbers_in_names_count_from_one_like_the_text():
    X, _, W = random_problem(0, h=2)
    t = trace_attention(X, *W, num_heads=2)
    # Z⁽¹⁾ is the first head (code index 0), in both spellings, for every per-head symbol
    np.testing.assert_array_equal(t["Z⁽¹⁾"], t.Z_heads[0])
    np.testing.assert_array_equal(t["Z^(1)"], t.head(0).Z)
    np.testing.assert_array_equal(t["A⁽²⁾"], t.A[1])
    np.testing.assert_array_equal(t["QKᵀ⁽²⁾"], t.QK_T[1])
    np.testing.assert_array_equal(t["W_Q⁽²⁾"], t.W_Q[:, 4:8])  # head 2 owns code columns 4 … 7
    np.testing.assert_array_equal(t["W^O⁽²⁾"], t.W_O[4:8])  # and the same rows of W^O
    # there is no head 0 (it used to be read as index −1, the last head) and no head h + 1
    for name in ("Z⁽⁰⁾", "A^(0)", "Z⁽³⁾"):
        with pytest.raises(KeyError, match="count from 1"):
            t[name]
    # the Head record knows both numbers
    assert (t.head(0).index, t.head(0).r) == (0, 1)
    assert (t.head(-1).index, t.head(-1).r) == (1, 2)
    with pytest.raises(IndexError, match="r - 1"):
        t.head(2)


def test_trace_has_no_ambiguous_Z_and_one_name_for_the_number_of_heads():
    X, _, W = random_problem(0, h=2)
    t = trace_attention(X, *W, num_heads=2)
    # Z meant Z_cat while the notation says Z is one head's output: gone, by attribute and by name
    assert not hasattr(t, "Z")
    with pytest.raises(KeyError, match="Z_cat"):
        t["Z"]
    assert not hasattr(t, "h") and t.num_heads == 2  # num_heads, as in trace_attention(num_heads=…)
    np.testing.assert_array_equal(t.head(1).Z, t.Z_heads[1])


def test_one_head_output_is_Z_cat():
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    np.testing.assert_array_equal(t.head(0).Z, t.Z_cat)  # h = 1: Z = Z⁽¹⁾ = Z_cat


# ---------------------------------------------------------------- permutation equivariance
@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 4]))
def test_reordering_the_tokens_reorders_the_outputs(seed, h):
    X, _, W = random_problem(seed, n=6, h=h)
    check = permutation_equivariance(X, *W, num_heads=h, seed=seed)
    assert sorted(check.perm.tolist()) == list(range(6))
    assert check.gap < 1e-12 and check.A_gap < 1e-12
    # the same thing written out: layer(X[perm]) is layer(X) with its rows reordered
    Y, _ = multi_head_attention(X, *W, num_heads=h)
    Y_perm, _ = multi_head_attention(X[check.perm], *W, num_heads=h)
    np.testing.assert_allclose(Y_perm, Y[check.perm], atol=1e-12)


def test_a_causal_mask_breaks_the_equivariance():
    X, _, W = random_problem(3, n=6, h=2)
    perm = [5, 4, 3, 2, 1, 0]
    assert permutation_equivariance(X, *W, num_heads=2, perm=perm).gap < 1e-12
    assert permutation_equivariance(X, *W, num_heads=2, perm=perm, mask=np.tri(6, dtype=bool)).gap > 0.1


@pytest.mark.parametrize(
    "perm, error, words",
    [
        ([0, 1, 1, 2, 3], ValueError, "exactly once"),
        ([0, 1, 2], ValueError, "exactly once"),
        ([0.0, 1.0, 2.0, 3.0, 4.0], TypeError, "whole numbers"),
    ],
)
def test_a_bad_permutation_is_named(perm, error, words):
    X, _, W = random_problem(0)
    with pytest.raises(error, match=f"perm.*{words}"):
        permutation_equivariance(X, *W, num_heads=2, perm=perm)
