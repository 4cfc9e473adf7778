"""Chapter 11's remedies that change the model: the KV cache with MQA/GQA, sparse
(strided) attention and linear attention; and the measured claims of the chapter."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps import causal_mask, multi_head_attention, scaled_dot_product_attention
from attention_steps.costs import attention_bytes, format_bytes
from attention_steps.figures.longcontext import mask_pattern, weights_side_by_side
from attention_steps.kv_cache import (
    SEVEN_B,
    ModelShape,
    grouped_query_attention,
    kv_cache_bytes,
    kv_cache_markdown,
    kv_cache_table,
)
from attention_steps.longcontext import _naive_Z, peak_bytes, random_qkv
from attention_steps.sparse_linear import (
    default_stride,
    elu_plus_one,
    linear_attention,
    linear_attention_weights,
    multiply_adds,
    sparse_attention,
    sparse_markdown,
    strided_count,
    strided_mask,
)
from conftest import ROOT


# ----------------------------------------------------------------------------- KV cache
def test_kv_cache_formula_by_hand():
    # 2 (K and V) × 32 layers × 8 heads × 128 × 4096 tokens × 2 bytes
    assert kv_cache_bytes(4096, layers=32, kv_heads=8, d_k=128) == 2 * 32 * 8 * 128 * 4096 * 2 == 2**29
    assert kv_cache_bytes(1, layers=1, kv_heads=1, d_k=1, bytes_per_entry="FP32") == 8


def test_kv_cache_equals_the_bytes_of_the_cached_arrays():
    rng = np.random.default_rng(0)
    n, d_model, h, g, d_k = 7, 8, 4, 2, 2
    X = rng.normal(size=(n, d_model))
    W_Q, W_O = rng.normal(size=(d_model, h * d_k)), rng.normal(size=(h * d_k, d_model))
    W_K, W_V = rng.normal(size=(d_model, g * d_k)), rng.normal(size=(d_model, g * d_k))
    out = grouped_query_attention(X, W_Q, W_K, W_V, W_O, h, g)
    assert out.K.shape == out.V.shape == (g, n, d_k) and out.num_kv_heads == g
    assert out.K.nbytes + out.V.nbytes == kv_cache_bytes(n, layers=1, kv_heads=g, d_k=d_k, bytes_per_entry=8)


def test_seven_b_table():
    rows = kv_cache_table(SEVEN_B, 128000)
    assert [r.scheme for r in rows] == ["MHA", "GQA-8", "MQA"]
    assert [r.kv_heads for r in rows] == [32, 8, 1] and [r.group_size for r in rows] == [1, 4, 32]
    assert [r.bytes_text for r in rows] == ["62.5 GiB", "15.6 GiB", "1.95 GiB"]
    assert rows[0].bytes_per_token == 2**19  # 0.5 MiB a token
    assert [r.share_of_mha for r in rows] == [1.0, 0.25, 1 / 32]
    md = kv_cache_markdown(rows)
    assert "| MQA | 1 | 16 KiB | 1.95 GiB | 3.1% |" in md
    # Chapter 11 compares it with the n × n matrices of all 1,024 heads.
    assert format_bytes(attention_bytes(128000) * 32 * 32) == "30.5 TiB"
    assert SEVEN_B.d_model == 4096


def test_cache_shrinks_by_the_group_size_but_the_scores_do_not():
    rng = np.random.default_rng(1)
    n, d_model, h, d_k = 6, 8, 4, 2
    X = rng.normal(size=(n, d_model))
    W_Q, W_K, W_V, W_O = (rng.normal(size=(d_model, h * d_k)) for _ in range(4))
    for g in (4, 2, 1):
        out = grouped_query_attention(X, W_Q, W_K[:, : g * d_k], W_V[:, : g * d_k], W_O.T, h, g)
        assert out.A.shape == (h, n, n)
        np.testing.assert_allclose(out.A.sum(axis=-1), 1.0)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([(4, 4), (4, 2), (4, 1), (6, 3), (6, 2)]), st.integers(1, 6), st.integers(0, 10**6))
def test_gqa_is_mha_with_each_kv_head_repeated(heads, n, seed):
    h, g = heads
    rng = np.random.default_rng(seed)
    d_k, d_model = 2, 5
    X = rng.normal(size=(n, d_model))
    W_Q, W_O = rng.normal(size=(d_model, h * d_k)), rng.normal(size=(h * d_k, 3))
    W_K, W_V = rng.normal(size=(d_model, g * d_k)), rng.normal(size=(d_model, g * d_k))
    out = grouped_query_attention(X, W_Q, W_K, W_V, W_O, h, g)
    # Repeat each key/value head's columns h/g times: ordinary multi-head attention gives the same.
    group = h // g
    cols = [c for r in range(h) for c in range((r // group) * d_k, (r // group + 1) * d_k)]
    from attention_steps import trace_attention

    t = trace_attention(X, W_Q, W_K[:, cols], W_V[:, cols], W_O, num_heads=h)
    np.testing.assert_allclose(out.Y, t.Y, atol=1e-12)
    np.testing.assert_allclose(out.A, t.A, atol=1e-12)
    # Query head r (1-based) uses key/value head ⌈r / group⌉, as chapter 11 says.
    for r in range(1, h + 1):
        np.testing.assert_allclose(t.head(r - 1).K, out.K[math.ceil(r / group) - 1])


def test_gqa_with_all_heads_is_multi_head_attention():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 8))
    W = [rng.normal(size=(8, 8)) for _ in range(4)]
    out = grouped_query_attention(X, *W, num_heads=4, num_kv_heads=4)
    Y, A = multi_head_attention(X, *W, num_heads=4)
    np.testing.assert_allclose(out.Y, Y)
    np.testing.assert_allclose(out.A, A)


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"num_heads": 4, "num_kv_heads": 3}, ValueError, "num_kv_heads=3 must divide num_heads=4"),
        ({"W_K": np.ones((8, 6))}, ValueError, r"W_K must have num_kv_heads·d_k = 2·2 = 4 columns"),
        ({"W_O": np.ones((6, 8))}, ValueError, "W_O must have num_heads·d_v"),
        ({"X": np.ones((5, 7))}, ValueError, "W_Q must have d_model=7 rows"),
        ({"num_kv_heads": 0}, ValueError, "num_kv_heads must be a positive integer"),
    ],
)
def test_gqa_bad_input_names_the_argument(kwargs, error, words):
    args = dict(
        X=np.ones((5, 8)),
        W_Q=np.ones((8, 8)),
        W_K=np.ones((8, 4)),
        W_V=np.ones((8, 4)),
        W_O=np.ones((8, 8)),
        num_heads=4,
        num_kv_heads=2,
    )
    args.update(kwargs)
    with pytest.raises(error, match=words):
        grouped_query_attention(**args)


def test_kv_cache_bad_input():
    with pytest.raises(ValueError, match="kv_heads=3 must divide the model's 32 query heads"):
        kv_cache_table(SEVEN_B, 10, kv_heads=[3])
    with pytest.raises(TypeError, match="model must be a ModelShape"):
        kv_cache_table("7B", 10)
    with pytest.raises(ValueError, match="layers must be a positive integer"):
        ModelShape("bad", layers=0, heads=1, d_k=1)
    with pytest.raises(TypeError, match="n must be a positive integer"):
        kv_cache_bytes(1.5, layers=1, kv_heads=1, d_k=1)


# ----------------------------------------------------------------------------- sparse
@pytest.mark.parametrize("n", [1, 2, 5, 16, 64, 100, 257])
def test_strided_count_equals_the_mask(n):
    for stride in sorted({1, min(2, n), default_stride(n), n}):
        mask = strided_mask(n, stride)
        assert int(mask.sum()) == strided_count(n, stride)
        assert not np.triu(mask, k=1).any()  # causal: never a later key
        assert mask.diagonal().all()


def test_strided_pattern_by_hand():
    mask = strided_mask(6, 2)  # 0-based: i − j < 2 or (i − j) even, j ≤ i
    assert np.flatnonzero(mask[5]).tolist() == [1, 3, 4, 5]
    assert np.flatnonzero(mask[4]).tolist() == [0, 2, 3, 4]


def test_chapter_11_sparse_numbers():
    assert default_stride(64) == 8 and strided_count(64) == 708
    assert causal_mask(64).sum() == 2080
    md = sparse_markdown([1024, 16384, 128000])
    assert "| 128,000 | 357 | 68.5M | 1.50 | 0.42% |" in md


@pytest.mark.parametrize("n", [64, 1024, 16384, 128000])
def test_strided_pattern_is_about_one_and_a_half_n_root_n(n):
    ratio = strided_count(n) / (n * math.sqrt(n))
    assert 1.3 < ratio < 1.55


@pytest.mark.parametrize("n", [9, 30, 64])
def test_every_earlier_key_is_at_most_two_steps_away(n):
    mask = strided_mask(n).astype(int)
    two_steps = (mask @ mask) > 0  # i → p → j with both steps in the pattern
    assert np.array_equal(two_steps | mask.astype(bool), causal_mask(n))


@pytest.mark.parametrize("n, stride", [(1, None), (7, 2), (64, None), (100, 13), (50, 50)])
def test_sparse_attention_equals_the_masked_core(n, stride):
    Q, K, V = random_qkv(n, d=8, seed=n)
    mask = strided_mask(n, stride)
    Z, _ = scaled_dot_product_attention(Q, K, V, mask=mask)
    np.testing.assert_allclose(sparse_attention(Q, K, V, stride), Z, atol=1e-12)


def test_sparse_bad_input():
    Q = np.ones((4, 2))
    with pytest.raises(ValueError, match="stride must be at most n = 4"):
        sparse_attention(Q, Q, Q, stride=5)
    with pytest.raises(ValueError, match="the rows of Q and K"):
        sparse_attention(Q, np.ones((5, 2)), np.ones((5, 2)))
    with pytest.raises(ValueError, match="the columns of Q and K"):
        sparse_attention(Q, np.ones((4, 3)), Q)


# ----------------------------------------------------------------------------- linear
def test_feature_map_is_positive_and_continuous():
    x = np.array([-50.0, -1.0, 0.0, 1e-12, 2.0])
    phi = elu_plus_one(x)
    assert (phi > 0).all()
    np.testing.assert_allclose(phi, [np.exp(-50.0), np.exp(-1.0), 1.0, 1.0 + 1e-12, 3.0])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6))
def test_linear_attention_is_its_weights_times_v(n_q, n_k, d_k, d_v, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(n_q, d_k)), rng.normal(size=(n_k, d_k)), rng.normal(size=(n_k, d_v))
    W = linear_attention_weights(Q, K)
    assert (W > 0).all()
    np.testing.assert_allclose(W.sum(axis=1), 1.0)
    np.testing.assert_allclose(linear_attention(Q, K, V), W @ V, atol=1e-10)


def test_linear_attention_is_not_softmax_attention():
    Q, K, V = random_qkv(6, d=4, seed=3)
    Z_soft, A_soft = scaled_dot_product_attention(Q, K, V)
    A_lin = linear_attention_weights(Q, K)
    assert np.abs(A_soft - A_lin).max() > 0.1
    assert np.abs(Z_soft - linear_attention(Q, K, V)).max() > 0.1
    assert A_lin.max(axis=1).mean() < A_soft.max(axis=1).mean()  # "flatter", as the chapter says


def _counted(a_rows, inner, b_cols):
    return sum(1 for _ in range(a_rows) for _ in range(b_cols) for _ in range(inner))


@pytest.mark.parametrize("n, d_k, d_v", [(1, 1, 1), (5, 3, 2), (4, 2, 4)])
def test_multiply_adds_match_a_naive_loop(n, d_k, d_v):
    ops = multiply_adds(n, d_k, d_v)
    assert ops["softmax"] == _counted(n, d_k, n) + _counted(n, n, d_v)
    # φ(K)ᵀV, φ(Q)·(φ(K)ᵀV), φ(Q)·Σφ(k)
    assert ops["linear"] == _counted(d_k, n, d_v) + _counted(n, d_k, d_v) + _counted(n, d_k, 1)


def test_linear_attention_wins_once_n_exceeds_d():
    d = 64
    assert multiply_adds(d + 1, d)["linear"] < multiply_adds(d + 1, d)["softmax"]
    assert multiply_adds(d // 2, d)["linear"] > multiply_adds(d // 2, d)["softmax"]
    ops = multiply_adds(4096, 64)
    assert ops == {"softmax": 2 * 4096**2 * 64, "linear": 2 * 4096 * 64 * 64 + 4096 * 64}


def test_linear_attention_memory_has_no_n_squared_term():
    peaks = {n: peak_bytes(linear_attention, *random_qkv(n, d=64, seed=0)) for n in (1024, 2048)}
    assert peaks[2048] / peaks[1024] < 2.2  # linear in n, where the naive computation's quadruples
    assert peaks[2048] < attention_bytes(2048, 8) / 4  # well under one n × n matrix


def test_linear_bad_input():
    with pytest.raises(ValueError, match="the columns of Q and K"):
        linear_attention(np.ones((3, 2)), np.ones((3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="the number of rows .n_k. of K and V"):
        linear_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((4, 2)))


# ----------------------------------------------------------------------------- figures
def test_figures_draw_and_refuse_bad_input():
    import matplotlib.pyplot as plt

    fig = mask_pattern(strided_mask(64))
    assert fig.axes[0].get_xlabel() == "key j"
    plt.close(fig)
    fig = weights_side_by_side(np.eye(3), np.full((3, 3), 1 / 3), left="a", right="b")
    assert len(fig.axes) == 2
    plt.close(fig)
    with pytest.raises(TypeError, match="2-D boolean"):
        mask_pattern(np.ones((3, 3)))
    with pytest.raises(ValueError, match="same shape"):
        weights_side_by_side(np.eye(2), np.eye(3), left="a", right="b")


# ----------------------------------------------------------------------------- measured claims
def test_naive_core_peaks_at_five_n_by_n_matrices():
    # Chapter 11 measures the formula stage by stage (`_naive_Z`, as trace_attention computes it):
    # at its peak it holds QKᵀ, S, S − max, exp(·) and A.
    n = 1024
    Q, K, V = random_qkv(n, d=64, seed=0)
    matrices = peak_bytes(_naive_Z, Q, K, V) / attention_bytes(n, 8)
    assert 4.8 < matrices < 5.3


def test_scaled_dot_product_attention_holds_one_n_by_n_matrix():
    # In place: QKᵀ becomes S, then A, in the same matrix; Z (n × d) comes on top.
    n = 1024
    Q, K, V = random_qkv(n, d=64, seed=0)
    matrices = peak_bytes(scaled_dot_product_attention, Q, K, V) / attention_bytes(n, 8)
    assert 1.0 <= matrices < 1.2
    assert np.array_equal(scaled_dot_product_attention(Q, K, V)[0], _naive_Z(Q, K, V))


def test_naive_peak_quadruples_when_n_doubles():
    Q, K, V = random_qkv(512, d=64, seed=0)
    Q2, K2, V2 = random_qkv(1024, d=64, seed=0)
    growth = peak_bytes(_naive_Z, Q2, K2, V2) / peak_bytes(_naive_Z, Q, K, V)
    assert 3.8 < growth < 4.2


def test_bench_script_runs_up_to_the_n_chapter_11_names():
    script = (ROOT / "scripts" / "bench_long_context.py").read_text()
    default = re.search(r'"--ns".*default=\[([^\]]*)\]', script)
    assert default and max(int(x) for x in default.group(1).split(",")) == 8192
    notebook = (ROOT / "book" / "11_long_context.ipynb").read_text()
    assert "BENCH_N = 8192" in notebook
