"""attention.scaling: the statistics behind the scaling and softmax chapters and the explorers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention import softmax
from attention.scaling import (
    STRATEGIES,
    divisor,
    dot_product_variance_estimate,
    dot_product_variance_mc,
    entropy,
    gradient_size,
    saturation,
    score_samples,
    softmax_jacobian,
    strategy_sweep,
    with_temperature,
)

rows = arrays(np.float64, st.integers(2, 8), elements=st.floats(-20, 20))


# ----------------------------------------------------------------------------- entropy
def test_entropy_extremes():
    assert entropy(np.eye(4)[1]) == 0.0
    assert entropy(np.full(5, 0.2)) == pytest.approx(np.log(5))


@given(rows)
def test_entropy_between_0_and_ln_n(s):
    a = softmax(s)
    h = entropy(a)
    assert -1e-12 <= h <= np.log(len(s)) + 1e-12


def test_entropy_row_by_row():
    A = np.array([[1.0, 0.0], [0.5, 0.5]])
    np.testing.assert_allclose(entropy(A), [0.0, np.log(2)])


# ----------------------------------------------------------------------------- Jacobian
@settings(max_examples=50)
@given(rows)
def test_jacobian_against_finite_differences(s):
    a = softmax(s)
    h = 1e-6
    numeric = np.column_stack([(softmax(s + h * e) - softmax(s - h * e)) / (2 * h) for e in np.eye(len(s))])
    np.testing.assert_allclose(softmax_jacobian(a), numeric, atol=1e-6)


@given(rows)
def test_jacobian_rows_sum_to_zero_and_symmetric(s):
    """Adding a constant to every score changes nothing: J·1 = 0."""
    J = softmax_jacobian(softmax(s))
    np.testing.assert_allclose(J.sum(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(J, J.T)


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
    assert a.gradient_size == pytest.approx(gradient_size(a.weights))


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
    assert 0.2 < by_sqrt.mean_max_weight < 0.6 and by_sqrt.mean_gradient_size > none.mean_gradient_size * 3
    # ÷√d_k: nothing changes with d_k (the statistics of the scaled scores do not depend on it)
    assert saturation(16, "sqrt_d_k").mean_max_weight == pytest.approx(by_sqrt.mean_max_weight, abs=0.03)


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
        (lambda: with_temperature([1.0, 2.0], 0), ValueError, ["temperature", "0"]),
        (lambda: with_temperature(["a", "b"], 1), TypeError, ["scores", "real numbers"]),
        (lambda: strategy_sweep([4, -1]), ValueError, ["d_k", "-1"]),
    ],
)  # fmt: skip
def test_bad_input(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), (w, str(info.value))
