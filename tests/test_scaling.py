"""attention_steps.scaling: the statistics behind the scaling and softmax chapters and the explorers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_steps import softmax
from attention_steps.scaling import (
    STRATEGIES,
    divisor,
    dot_product_variance_estimate,
    dot_product_variance_mc,
    entropy,
    gradient_size,
    query_jacobian,
    raw_gradient_size,
    raw_score_jacobian,
    saturation,
    score_samples,
    settles_below,
    softmax_jacobian,
    strategy_sweep,
    with_temperature,
)

rows = arrays(np.float64, st.integers(2, 8), elements=st.floats(-20, 20))
# deadline=None throughout: a loaded machine must not fail a test that is not about speed


# ----------------------------------------------------------------------------- entropy
def test_entropy_extremes():
    assert entropy(np.eye(4)[1]) == 0.0
    assert entropy(np.full(5, 0.2)) == pytest.approx(np.log(5))


@settings(deadline=None)
@given(rows)
def test_entropy_between_0_and_ln_n(s):
    a = softmax(s)
    h = entropy(a)
    assert -1e-12 <= h <= np.log(len(s)) + 1e-12


def test_entropy_row_by_row():
    A = np.array([[1.0, 0.0], [0.5, 0.5]])
    np.testing.assert_allclose(entropy(A), [0.0, np.log(2)])


# ----------------------------------------------------------------------------- Jacobian
@settings(max_examples=50, deadline=None)
@given(rows)
def test_jacobian_against_finite_differences(s):
    a = softmax(s)
    h = 1e-6
    numeric = np.column_stack([(softmax(s + h * e) - softmax(s - h * e)) / (2 * h) for e in np.eye(len(s))])
    np.testing.assert_allclose(softmax_jacobian(a), numeric, atol=1e-6)


@settings(deadline=None)
@given(rows)
def test_jacobian_rows_sum_to_zero_and_symmetric(s):
    """Adding a constant to every score changes nothing: J·1 = 0."""
    J = softmax_jacobian(softmax(s))
    np.testing.assert_allclose(J.sum(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(J, J.T)


def numeric_jacobian(f, x, h=1e-6):
    """Central finite differences of f at x, one column per component of x."""
    return np.column_stack([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def draws(d_k, n_keys, seed, query=0, n_queries=1):
    """Query `query`'s vector q (d_k,) and keys K (n_keys, d_k) out of n_queries, drawn
    exactly as `score_samples` promises (component by component, q then k), written
    out here so the test does not reuse the core's generator."""
    rng = np.random.default_rng(seed)
    q, K = np.zeros(d_k), np.zeros((n_keys, d_k))
    for c in range(d_k):
        q[c] = rng.standard_normal((n_queries, 1))[query, 0]
        K[:, c] = rng.standard_normal((n_queries, n_keys))[query]
    return q, K


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("d_k", [4, 16, 64, 256])
@pytest.mark.parametrize("strategy", ["none", "d_k", "sqrt_d_k"])
def test_raw_score_jacobian_against_finite_differences(strategy, d_k, seed):
    """∂softmax(s / c)/∂s by central differences in the RAW scores s = q·k_j equals
    J(a)/c. Dropping the chain factor 1/c (the book's old measure) fails: the
    second assertion shows the two differ whenever c > 1."""
    q, K = draws(d_k, 8, seed)
    s = K @ q  # raw scores
    c = divisor(d_k, strategy)
    numeric = numeric_jacobian(lambda x: softmax(x / c), s)
    a = softmax(s / c)
    np.testing.assert_allclose(raw_score_jacobian(a, c), numeric, rtol=1e-5, atol=1e-9)
    assert raw_gradient_size(a, c) == pytest.approx(np.linalg.norm(numeric), rel=1e-5, abs=1e-9)
    if c > 1 and np.linalg.norm(numeric) > 1e-6:
        assert not np.allclose(softmax_jacobian(a), numeric, rtol=1e-3, atol=1e-6)  # the old measure is off by c


@settings(max_examples=50, deadline=None)
@given(rows, st.floats(0.1, 40))
def test_raw_score_jacobian_any_scores_any_divisor(s, c):
    numeric = numeric_jacobian(lambda x: softmax(x / c), s)
    np.testing.assert_allclose(raw_score_jacobian(softmax(s / c), c), numeric, atol=1e-6)


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("d_k", [1, 16, 64])
@pytest.mark.parametrize("strategy", ["none", "d_k", "sqrt_d_k"])
def test_query_jacobian_against_finite_differences(strategy, d_k, seed):
    """∂softmax(K q / c)/∂q by central differences equals J(a) K / c."""
    q, K = draws(d_k, 8, seed)
    c = divisor(d_k, strategy)
    numeric = numeric_jacobian(lambda x: softmax(K @ x / c), q)
    np.testing.assert_allclose(query_jacobian(softmax(K @ q / c), K, c), numeric, rtol=1e-5, atol=1e-9)


def test_saturated_softmax_passes_almost_no_gradient():
    assert gradient_size(softmax(np.array([30.0, 0.0, 0.0]))) < 1e-10
    uniform = np.full(4, 0.25)
    assert gradient_size(uniform) == pytest.approx(np.sqrt(3) / 4)  # ‖diag(a) − aaᵀ‖_F at a = 1/n


# ----------------------------------------------------------------------------- saturation
def test_saturation_is_seeded_and_consistent():
    a, b = saturation(64, "none", seed=3), saturation(64, "none", seed=3)
    np.testing.assert_array_equal(a.raw_scores, b.raw_scores)
    np.testing.assert_allclose(a.scaled_scores, a.raw_scores / divisor(64, "none"))
    np.testing.assert_allclose(a.weights, softmax(a.scaled_scores))
    assert a.max_weight == a.weights.max()
    assert a.entropy == pytest.approx(entropy(a.weights))
    assert a.gradient == pytest.approx(raw_gradient_size(a.weights, 1.0))
    np.testing.assert_array_equal(a.gradients, b.gradients)


@pytest.mark.parametrize("d_k,strategy", [(1, "none"), (16, "d_k"), (64, "sqrt_d_k"), (64, "none")])
def test_saturation_gradients_are_the_jacobians_of_each_query(d_k, strategy):
    """Every query's recorded sizes are ‖J(a)/c‖ and ‖J(a) K / c‖ of its own draw."""
    sat = saturation(d_k, strategy, n_queries=5, seed=7)
    c = divisor(d_k, strategy)
    assert sat.divisor == c
    for i in (0, 3):
        q, K = draws(d_k, 8, seed=7, query=i, n_queries=5)
        a = softmax(K @ q / c)
        if i == 0:
            np.testing.assert_allclose(sat.raw_scores, K @ q)
            np.testing.assert_allclose(sat.weights, a)
        assert sat.gradients[i] == pytest.approx(np.linalg.norm(raw_score_jacobian(a, c)))
        assert sat.query_gradients[i] == pytest.approx(np.linalg.norm(query_jacobian(a, K, c)))
        top = np.sort(K @ q / c)
        assert sat.top_gaps[i] == pytest.approx(top[-1] - top[-2])
    assert sat.median_gradient == pytest.approx(np.median(sat.gradients))
    assert sat.mean_gradient == pytest.approx(sat.gradients.mean())
    assert sat.gradient_percentile(25) <= sat.median_gradient <= sat.gradient_percentile(75)


def test_score_samples_row_0_is_saturations_example_query():
    np.testing.assert_array_equal(score_samples(16, seed=5)[0], saturation(16, "d_k", seed=5).raw_scores)


def test_larger_d_k_extends_the_same_draw():
    """Component c is drawn the same way for every d_k: d_k = 2 is d_k = 1 plus one more term."""
    one, two = score_samples(1, n_queries=50), score_samples(2, n_queries=50)
    rng = np.random.default_rng(0)
    first = rng.standard_normal((50, 1)) * rng.standard_normal((50, 8))
    np.testing.assert_allclose(one, first)
    second = rng.standard_normal((50, 1)) * rng.standard_normal((50, 8))
    np.testing.assert_allclose(two, first + second)


@pytest.mark.parametrize("d_k", [16, 64, 256])
def test_three_strategies_variances(d_k):
    """Var of the scaled scores ≈ d_k, 1/d_k and 1 (relative 10 %: 16 000 scores, kurtosis ≤ 3.4)."""
    want = {"none": d_k, "d_k": 1 / d_k, "sqrt_d_k": 1.0}
    for strategy in STRATEGIES:
        assert saturation(d_k, strategy).score_variance == pytest.approx(want[strategy], rel=0.1), strategy


def test_no_scaling_saturates_and_d_k_flattens():
    n = 8
    none, by_d, by_sqrt = (saturation(512, s, n_keys=n) for s in ("none", "d_k", "sqrt_d_k"))
    assert none.mean_max_weight > 0.9 and none.mean_entropy < 0.2
    assert by_d.mean_entropy > 0.99 * np.log(n) and by_d.mean_max_weight < 1.1 / n + 0.01
    assert 0.2 < by_sqrt.mean_max_weight < 0.6 and by_sqrt.median_gradient > none.median_gradient * 3
    # ÷√d_k: the weights' statistics approach a limit as d_k grows (the scaled scores become Gaussian)
    assert saturation(16, "sqrt_d_k").mean_max_weight == pytest.approx(by_sqrt.mean_max_weight, abs=0.03)


# ----------------------------------------------------------------------------- the gradient story (chapter 3)
SEEDS = [0, 1, 2, 3, 4]


@pytest.mark.parametrize("seed", SEEDS)
def test_at_d_k_64_no_scaling_is_not_the_smaller_gradient(seed):
    """The book once said no scaling passes back a gradient 2.3× smaller than ÷√d_k at d_k = 64
    and that ÷d_k gives a safe gradient. With respect to the raw scores (what trains W_Q, W_K)
    no scaling is larger, by mean and by median, and ÷d_k is by far the smallest."""
    none, by_d, by_sqrt = (saturation(64, s, n_queries=1000, seed=seed) for s in ("none", "d_k", "sqrt_d_k"))
    assert none.mean_gradient > 2 * by_sqrt.mean_gradient
    assert none.median_gradient > by_sqrt.median_gradient
    assert by_d.mean_gradient < by_sqrt.mean_gradient / 5 and by_d.gradient_percentile(90) < none.median_gradient
    # the unscaled spread is wide: a quarter of its queries get less than a tenth of what
    # ÷√d_k gives nearly every query (its 5th percentile is within a factor 2 of its median)
    assert none.gradient_percentile(25) < by_sqrt.gradient_percentile(25) / 10
    assert by_sqrt.gradient_percentile(5) > by_sqrt.median_gradient / 2
    # and the mean is carried by near-ties: the queries whose two largest scores differ by < 1
    share_queries, share_gradient = none.near_tie_share(1.0)
    assert share_gradient > 2 * share_queries


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d_k", [256, 1024])
def test_as_d_k_grows_no_scaling_saturates_the_typical_query(seed, d_k):
    none, by_sqrt = (saturation(d_k, s, n_queries=1000, seed=seed) for s in ("none", "sqrt_d_k"))
    assert none.median_gradient < by_sqrt.median_gradient / 5
    assert none.median_query_gradient < by_sqrt.median_query_gradient / 5


def test_settles_below():
    sweep = strategy_sweep([2**i for i in range(11)], n_queries=1000)
    cross = settles_below(sweep, "none", "sqrt_d_k")
    assert 64 < cross <= 256  # chapter 3: no scaling's median is above ÷√d_k's at 64, below from here on
    by_dk = {s: {r.d_k: r for r in runs} for s, runs in sweep.items()}
    assert all(
        by_dk["none"][d].median_gradient < by_dk["sqrt_d_k"][d].median_gradient for d in by_dk["none"] if d >= cross
    )
    assert by_dk["none"][cross // 2].median_gradient >= by_dk["sqrt_d_k"][cross // 2].median_gradient
    assert settles_below(sweep, "sqrt_d_k", "none") is None  # at d_k = 1 all three are equal: never strictly below
    assert 256 <= settles_below(sweep, "none", "d_k") <= 1024  # only once unscaled softmax saturates
    with pytest.raises(ValueError, match="'half'"):
        settles_below(sweep, "none", "half")


def test_divide_by_sqrt_d_k_keeps_the_gradient_reaching_q_the_same():
    """÷√d_k: the raw-score gradient shrinks like 1/√d_k, the keys' length √d_k gives it back,
    so ‖∂a/∂q‖ has the same median at every d_k from 16 on; ÷d_k's keeps shrinking."""
    runs = {d: saturation(d, "sqrt_d_k", n_queries=1000) for d in (16, 64, 256, 1024)}
    medians = [r.median_query_gradient for r in runs.values()]
    assert max(medians) < 1.05 * min(medians)
    scaled = [r.median_gradient * np.sqrt(d) for d, r in runs.items()]
    assert max(scaled) < 1.05 * min(scaled)
    by_d = [saturation(d, "d_k", n_queries=1000).median_query_gradient for d in (16, 1024)]
    assert by_d[1] < by_d[0] / 5


def test_strategy_sweep():
    sweep = strategy_sweep([1, 4], n_queries=100)
    assert set(sweep) == set(STRATEGIES)
    assert [r.d_k for r in sweep["none"]] == [1, 4]
    assert sweep["d_k"][1].score_variance == pytest.approx(saturation(4, "d_k", n_queries=100).score_variance)


# ----------------------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize("d_k", [1, 3, 64, 512])
def test_monte_carlo_variance_within_its_standard_error(d_k):
    e = dot_product_variance_estimate(d_k, n_samples=40_000, seed=d_k)
    assert abs(e.z) < 4, e
    # the standard error itself is right: √((κ − 1)/n)·d_k with kurtosis κ = 3 + 6/d_k
    assert e.stderr == pytest.approx(d_k * np.sqrt((2 + 6 / d_k) / 40_000), rel=0.15)
    assert dot_product_variance_mc(d_k, n_samples=40_000, seed=d_k) == e.estimate


# ----------------------------------------------------------------------------- temperature
def test_temperature():
    s = np.array([2.0, 1.0, 0.0])
    np.testing.assert_allclose(with_temperature(s, 1), softmax(s))
    assert with_temperature(s, 0.1).max() > with_temperature(s, 1).max() > with_temperature(s, 10).max()
    assert entropy(with_temperature(s, 1000)) == pytest.approx(np.log(3), abs=1e-4)


def test_divisor():
    assert divisor(64, "none") == 1 and divisor(64, "d_k") == 64 and divisor(64, "sqrt_d_k") == 8


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call,exc,words",
    [
        (lambda: divisor(64, "sqrt"), ValueError, ["strategy", "'sqrt'", "sqrt_d_k"]),
        (lambda: divisor(0, "none"), ValueError, ["d_k", "0"]),
        (lambda: saturation(0), ValueError, ["d_k", "0"]),
        (lambda: saturation(8.0), TypeError, ["d_k", "8.0"]),
        (lambda: saturation(8, n_keys=0), ValueError, ["n_keys", "0"]),
        (lambda: saturation(8, "half"), ValueError, ["strategy", "'half'"]),
        (lambda: dot_product_variance_estimate(4, n_samples=1), ValueError, ["n_samples", "at least 2", "1"]),
        (lambda: dot_product_variance_mc(4, n_samples=0), ValueError, ["n_samples", "0"]),
        (lambda: entropy([0.5, -0.1, 0.6]), ValueError, ["A", "probabilities", "A[1]", "-0.1"]),
        (lambda: entropy([0.5, np.nan]), ValueError, ["A", "finite", "nan"]),
        (lambda: softmax_jacobian(np.eye(2)), ValueError, ["a", "1 dimension", "(2, 2)"]),
        (lambda: raw_score_jacobian([0.5, 0.5], 0), ValueError, ["c", "0"]),
        (lambda: query_jacobian([0.5, 0.5], np.ones((3, 4)), 1), ValueError, ["K", "2 weights", "(3, 4)"]),
        (lambda: saturation(8, n_queries=5).gradient_percentile(101), ValueError, ["p", "101"]),
        (lambda: saturation(8, n_queries=5).near_tie_share(0), ValueError, ["gap", "0"]),
        (lambda: with_temperature([1.0, 2.0], 0), ValueError, ["temperature", "0"]),
        (lambda: with_temperature(["a", "b"], 1), TypeError, ["scores", "real numbers"]),
        (lambda: strategy_sweep([4, -1]), ValueError, ["d_k", "-1"]),
    ],
)
def test_bad_input(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), (w, str(info.value))
