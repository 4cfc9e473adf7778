"""Online softmax and tiled attention: the same numbers as the plain core, block
by block, and memory that grows like n·d rather than n²."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from attention_steps import causal_mask, scaled_dot_product_attention, softmax, tiled_attention, weighted_sum
from attention_steps.masks import masked_scores, masked_softmax, random_mask
from attention_steps.tiled import (
    SoftmaxState,
    finish,
    online_softmax,
    online_softmax_steps,
    online_weighted_sum,
    start,
    update,
)
from conftest import assert_raises_naming

TOL = 1e-12
SEEDS = st.integers(0, 2**16)


def qkv(n_q, n_k, d_k, d_v, seed=0, scale=1.0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return tuple((scale * rng.normal(size=shape)).astype(dtype) for shape in ((n_q, d_k), (n_k, d_k), (n_k, d_v)))


# ---------------------------------------------------------------- online softmax
@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 4),
    n=st.integers(1, 40),
    block=st.integers(1, 50),
    spread=st.sampled_from([0.1, 1.0, 30.0, 300.0]),
    seed=st.integers(0, 2**16),
)
def test_online_softmax_equals_softmax(rows, n, block, spread, seed):
    S = spread * np.random.default_rng(seed).normal(size=(rows, n))
    A = online_softmax(S, block)
    np.testing.assert_allclose(A, softmax(S), rtol=0, atol=TOL)
    np.testing.assert_allclose(A.sum(axis=-1), 1.0, atol=TOL)


def test_online_softmax_survives_scores_that_overflow_exp():
    # exp(1000) is inf: the running max keeps every exponent <= 0, as softmax does.
    S = np.array([[1000.0, 999.0, 0.0, 1001.0, -1000.0]])
    np.testing.assert_allclose(online_softmax(S, 2), softmax(S), atol=TOL)


@settings(max_examples=60, deadline=None)
@given(n_q=st.integers(1, 5), n_k=st.integers(1, 30), d_v=st.integers(1, 4), block=st.integers(1, 35), seed=SEEDS)
def test_online_weighted_sum_equals_softmax_then_weighted_sum(n_q, n_k, d_v, block, seed):
    rng = np.random.default_rng(seed)
    S, V = 5 * rng.normal(size=(n_q, n_k)), rng.normal(size=(n_k, d_v))
    np.testing.assert_allclose(online_weighted_sum(S, V, block), weighted_sum(softmax(S), V), rtol=0, atol=TOL)


def test_update_by_hand_on_two_blocks():
    # s = [1, 3 | 2], v = [10, 20 | 30]: after block 1, m = 3, ℓ = e⁻² + 1;
    # block 2 brings no new max, so nothing is rescaled and ℓ grows by e⁻¹.
    s, v = np.array([1.0, 3.0, 2.0]), np.array([[10.0], [20.0], [30.0]])
    one = update(start(1, 1), s[None, :2], v[:2])
    assert one.m[0] == 3.0
    assert one.l[0] == pytest.approx(np.exp(-2) + 1)
    assert one.acc[0, 0] == pytest.approx(10 * np.exp(-2) + 20)
    two = update(one, s[None, 2:], v[2:])
    assert two.m[0] == 3.0 and two.l[0] == pytest.approx(np.exp(-2) + 1 + np.exp(-1))
    weights = np.exp(s - 3) / np.exp(s - 3).sum()
    assert finish(two)[0, 0] == pytest.approx(weights @ v[:, 0])


def test_a_new_maximum_rescales_what_was_kept():
    # The second block's max (5) beats the first's (1): ℓ and acc shrink by exp(1 − 5).
    s, v = np.array([1.0, 5.0]), np.array([[2.0], [4.0]])
    steps = online_softmax_steps(s, v, 1)
    assert [st.m for st in steps] == [1.0, 5.0]
    assert steps[1].rescale == pytest.approx(np.exp(-4))
    assert steps[1].l == pytest.approx(np.exp(-4) * 1 + 1)
    np.testing.assert_allclose(steps[-1].output, weighted_sum(softmax(s[None]), v)[0], atol=TOL)


@pytest.mark.parametrize("block", [1, 2, 3, 6, 10])
def test_walk_through_steps_end_at_softmax(block):
    rng = np.random.default_rng(block)
    s, V = 3 * rng.normal(size=6), rng.normal(size=(6, 2))
    steps = online_softmax_steps(s, V, block)
    assert len(steps) == -(-6 // block)
    assert steps[-1].m == s.max()
    assert steps[-1].l == pytest.approx(np.exp(s - s.max()).sum())
    np.testing.assert_allclose(steps[-1].output, weighted_sum(softmax(s[None]), V)[0], atol=TOL)
    assert [x.keys.start for x in steps] == list(range(0, 6, block))


def test_a_fully_masked_block_changes_nothing_and_does_not_make_nan():
    state = update(start(2, 1), np.array([[-np.inf, -np.inf], [0.0, -np.inf]]), np.ones((2, 1)))
    assert np.isneginf(state.m[0]) and state.l[0] == 0 and state.acc[0, 0] == 0
    assert not np.isnan(state.m).any() and not np.isnan(state.l).any()
    state = update(state, np.array([[2.0], [-np.inf]]), np.array([[3.0]]))
    np.testing.assert_allclose(finish(state), [[3.0], [1.0]])


# ---------------------------------------------------------------- tiled attention = the core
def naive_Z(Q, K, V, mask=None):
    return scaled_dot_product_attention(Q, K, V, mask=mask)[0]


@pytest.mark.parametrize("n", [1, 6, 13, 64])
@pytest.mark.parametrize("block", ["1", "7", "n", "n+5", "3n"])
def test_block_sizes_including_ones_that_do_not_divide_n(n, block):
    b = {"1": 1, "7": 7, "n": n, "n+5": n + 5, "3n": 3 * n}[block]
    Q, K, V = qkv(n, n, 8, 5, seed=n)
    np.testing.assert_allclose(tiled_attention(Q, K, V, b), naive_Z(Q, K, V), rtol=0, atol=TOL)


@settings(max_examples=60, deadline=None)
@given(
    n_q=st.integers(1, 20),
    n_k=st.integers(1, 20),
    d_k=st.integers(1, 6),
    d_v=st.integers(1, 6),
    block=st.integers(1, 25),
    scale=st.sampled_from([0.1, 1.0, 10.0]),
    seed=SEEDS,
)
def test_tiled_equals_the_core_on_random_shapes(n_q, n_k, d_k, d_v, block, scale, seed):
    Q, K, V = qkv(n_q, n_k, d_k, d_v, seed, scale)
    np.testing.assert_allclose(tiled_attention(Q, K, V, block), naive_Z(Q, K, V), rtol=0, atol=TOL)


def test_tiled_equals_the_loop_reference():
    Q, K, V = qkv(5, 9, 3, 2, seed=3)
    Z_ref, _ = reference.attention_rows(Q.tolist(), K.tolist(), V.tolist())
    np.testing.assert_allclose(tiled_attention(Q, K, V, 4), Z_ref, rtol=0, atol=TOL)


@pytest.mark.parametrize("block", [1, 3, 7, 16, 40])
def test_causal_mask(block):
    n = 16
    Q, K, V = qkv(n, n, 4, 3, seed=block)
    mask = causal_mask(n)
    Z = tiled_attention(Q, K, V, block, mask=mask)
    np.testing.assert_allclose(Z, naive_Z(Q, K, V, mask), rtol=0, atol=TOL)
    # Query 0 sees only key 0: its output is v_0 exactly.
    np.testing.assert_allclose(Z[0], V[0], atol=TOL)


@settings(max_examples=40, deadline=None)
@given(n_q=st.integers(1, 15), n_k=st.integers(1, 15), keep=st.floats(0.0, 1.0), block=st.integers(1, 16), seed=SEEDS)
def test_random_masks_with_no_empty_row(n_q, n_k, keep, block, seed):
    Q, K, V = qkv(n_q, n_k, 3, 2, seed)
    mask = random_mask(n_q, n_k, keep, seed)
    assert mask.any(axis=-1).all()
    Z = tiled_attention(Q, K, V, block, mask=mask)
    np.testing.assert_allclose(Z, naive_Z(Q, K, V, mask), rtol=0, atol=TOL)
    Z_ref, _ = reference.attention_rows(Q.tolist(), K.tolist(), V.tolist(), mask.tolist())
    np.testing.assert_allclose(Z, Z_ref, rtol=0, atol=TOL)


def test_a_broadcast_key_mask_leaves_masked_keys_out():
    # A (1, n_k) padding mask: the last two keys are padding. Changing their
    # values must not change the output.
    Q, K, V = qkv(6, 8, 4, 3, seed=1)
    keep = np.array([[True] * 6 + [False] * 2])
    Z = tiled_attention(Q, K, V, 3, mask=keep)
    V2 = V.copy()
    V2[6:] += 100.0
    np.testing.assert_allclose(tiled_attention(Q, K, V2, 3, mask=keep), Z, atol=TOL)
    np.testing.assert_allclose(Z, naive_Z(Q, K, V, keep), atol=TOL)


def test_batch_axes_broadcast_like_the_core():
    rng = np.random.default_rng(7)
    Q, K, V = rng.normal(size=(2, 3, 5, 4)), rng.normal(size=(3, 9, 4)), rng.normal(size=(1, 9, 2))
    mask = causal_mask(5, 9)
    Z = tiled_attention(Q, K, V, 4, mask=mask)
    assert Z.shape == (2, 3, 5, 2)
    np.testing.assert_allclose(Z, naive_Z(Q, K, V, mask), rtol=0, atol=TOL)


@pytest.mark.parametrize("block", [1, 7, 50])
def test_float32_in_float32_out(block):
    Q, K, V = qkv(20, 20, 8, 4, seed=2, dtype=np.float32)
    Z = tiled_attention(Q, K, V, block, mask=causal_mask(20))
    assert Z.dtype == np.float32
    np.testing.assert_allclose(Z, naive_Z(Q, K, V, causal_mask(20)), rtol=0, atol=1e-5)
    assert online_softmax(Q, block).dtype == np.float32
    assert online_weighted_sum(Q @ K.T, V, block).dtype == np.float32


def test_integer_inputs_are_promoted():
    Q = np.array([[1, 0], [0, 1]])
    Z = tiled_attention(Q, Q, Q, 1)
    np.testing.assert_allclose(Z, naive_Z(Q.astype(float), Q.astype(float), Q.astype(float)), atol=TOL)


def test_causal_mask_shape_and_entries():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    # Two new queries at the end of a 4-token sequence see 3 and 4 keys.
    assert causal_mask(2, 4).sum(axis=1).tolist() == [3, 4]
    assert np.array_equal(masked_scores(np.zeros((2, 2)), causal_mask(2)), [[0, -np.inf], [0, 0]])


@settings(max_examples=30, deadline=None)
@given(n_q=st.integers(1, 8), n_k=st.integers(1, 8), keep=st.floats(0.0, 1.0), seed=SEEDS)
def test_masked_softmax_is_the_cores_A(n_q, n_k, keep, seed):
    Q, K, V = qkv(n_q, n_k, 3, 2, seed)
    mask = random_mask(n_q, n_k, keep, seed)
    _, A = scaled_dot_product_attention(Q, K, V, mask=mask)
    A_here = masked_softmax(Q @ K.T / np.sqrt(3), mask)
    np.testing.assert_allclose(A_here, A, rtol=0, atol=TOL)
    assert np.all(A_here[~mask] == 0.0)
    _, A_ref = reference.attention_rows(Q.tolist(), K.tolist(), V.tolist(), mask.tolist())
    np.testing.assert_allclose(A_here, A_ref, rtol=0, atol=TOL)


# ---------------------------------------------------------------- memory: n·d, not n²
def peak_bytes(fn, *args, **kwargs):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_tiled_never_holds_the_n_by_n_matrix():
    # n = 1024, d = 64, block = 64: the n × n float64 matrix is 8 MiB. Tiled
    # attention holds Z (n·d·8 = 0.5 MiB), per-input checks (n·d bytes each)
    # and a few 64 × 64 tiles (32 KiB each): by construction far below a
    # quarter of n². The core's scaled_dot_product_attention holds one n × n array (in place), plus Z.
    n, d, block = 1024, 64, 64
    Q, K, V = qkv(n, n, d, d, seed=0)
    n_squared = n * n * 8
    tiled = peak_bytes(tiled_attention, Q, K, V, block)
    naive = peak_bytes(scaled_dot_product_attention, Q, K, V)
    assert tiled < 0.25 * n_squared, f"tiled peak {tiled / 2**20:.1f} MiB"
    assert naive > n_squared, f"naive peak {naive / 2**20:.1f} MiB: the measurement sees no n × n matrix?"


def test_tiled_memory_grows_linearly_in_n():
    # Doubling n doubles Z and the inputs' checks (n·d), not n²: the peak at
    # 2n stays well under 4 × the peak at n. Also with a causal mask (a view).
    d, block = 32, 32
    peaks = []
    for n in (512, 1024):
        Q, K, V = qkv(n, n, d, d, seed=n)
        peaks.append(peak_bytes(tiled_attention, Q, K, V, block, mask=causal_mask(n)))
    assert peaks[1] < 2.6 * peaks[0], [p / 2**10 for p in peaks]


# ---------------------------------------------------------------- bad input
Qg, Kg, Vg = qkv(4, 6, 3, 2, seed=9)

BAD = [
    (lambda: tiled_attention(Qg, Kg, Vg, 0), ValueError, ["block_size", "positive", "0"]),
    (lambda: tiled_attention(Qg, Kg, Vg, -3), ValueError, ["block_size", "-3"]),
    (lambda: tiled_attention(Qg, Kg, Vg, 2.0), TypeError, ["block_size", "integer", "2.0"]),
    (lambda: tiled_attention(Qg, Kg, Vg, True), TypeError, ["block_size", "integer"]),
    (lambda: tiled_attention(Qg, Kg, Vg, None), TypeError, ["block_size", "None"]),
    (lambda: tiled_attention(Qg[0], Kg, Vg, 2), ValueError, ["Q", "at least 2 dimension", "(3,)"]),
    (lambda: tiled_attention(Qg, Kg[:, :2], Vg, 2), ValueError, ["d_k", "Q has 3", "K has 2"]),
    (lambda: tiled_attention(Qg, Kg, Vg[:5], 2), ValueError, ["K", "V", "6", "5", "rows"]),
    (lambda: tiled_attention(Qg, Kg, np.full((6, 2), np.nan), 2), ValueError, ["V", "finite", "nan"]),
    (lambda: tiled_attention(Qg, Kg.astype(complex), Vg, 2), TypeError, ["K", "real", "complex"]),
    (lambda: tiled_attention(Qg, Kg, Vg, 2, mask=np.ones((4, 6))), TypeError, ["mask", "boolean", "float64"]),
    (lambda: tiled_attention(Qg, Kg, Vg, 2, mask=np.ones((4, 5), bool)), ValueError, ["mask", "(4, 5)", "(4, 6)"]),
    (
        lambda: tiled_attention(Qg, Kg, Vg, 2, mask=np.eye(4, 6, dtype=bool) & False),
        ValueError,
        ["mask", "query at index 0", "token 1", "no key"],
    ),
    (
        lambda: tiled_attention(np.ones((2, 4, 3)), np.ones((3, 6, 3)), np.ones((6, 2)), 2),
        ValueError,
        ["batch", "(2,)", "(3,)"],
    ),
    (lambda: online_softmax(np.ones((2, 3)), 0), ValueError, ["block_size"]),
    (lambda: online_softmax([[1.0, np.inf]], 1), ValueError, ["S", "finite", "inf"]),
    (lambda: online_weighted_sum(np.ones((2, 3)), np.ones((4, 2)), 2), ValueError, ["S", "V", "3", "4"]),
    (lambda: online_softmax_steps(np.ones((2, 3)), np.ones((3, 1)), 1), ValueError, ["s", "1 dimension"]),
    (lambda: update("state", np.ones((1, 2)), np.ones((2, 1))), TypeError, ["state", "SoftmaxState", "str"]),
    (lambda: update(start(1, 1), np.array([[np.nan]]), np.ones((1, 1))), ValueError, ["S_block", "NaN"]),
    (lambda: update(start(2, 1), np.ones((1, 2)), np.ones((2, 1))), ValueError, ["state", "S_block", "2", "1"]),
    (lambda: update(start(1, 3), np.ones((1, 2)), np.ones((2, 1))), ValueError, ["d_v", "V_block", "3", "1"]),
    (lambda: finish(start(1, 1)), ValueError, ["no score", "ℓ = 0"]),
    (lambda: start(0, 1), ValueError, ["n_q", "0"]),
    (lambda: causal_mask(3, 2), ValueError, ["n_k >= n_q", "n_q=3", "n_k=2"]),
    (lambda: random_mask(2, 2, keep=1.5), ValueError, ["keep", "1.5"]),
]


@pytest.mark.parametrize("call, error, words", BAD)
def test_bad_input_names_the_argument(call, error, words):
    assert_raises_naming(call, error, words)


def test_state_is_a_plain_record():
    state = start(2, 3, batch=(4,), dtype=np.float32)
    assert isinstance(state, SoftmaxState)
    assert state.m.shape == (4, 2) and state.acc.shape == (4, 2, 3) and state.acc.dtype == np.float32


# ---------------------------------------------------------------- the measuring helpers (no timing asserted)
def test_compare_measures_both_and_agrees():
    from attention_steps.longcontext import compare, comparison_markdown

    row = compare(256, d=16, block_size=32, repeat=1)
    assert row.max_difference < TOL
    assert row.naive.peak_bytes > 256 * 256 * 8  # at least one n × n float64 matrix
    assert row.tiled.peak_bytes < row.naive.peak_bytes
    assert 0 < row.peak_ratio < 1 and row.naive.seconds > 0 and row.tiled.seconds > 0
    table = comparison_markdown([row])
    assert table.count("\n") == 2 and "| 256 |" in table and f"{row.peak_ratio:.2%}" in table
