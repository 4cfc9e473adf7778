"""The symbolic derivation of Var[q·k] = d_k: each step's result, checked against
independent computations (sympy.stats, Monte Carlo, direct expansion)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps import derivation as dv


@pytest.fixture(scope="module")
def d():
    return dv.derivation()


def test_result_is_d_k(d):
    assert sp.simplify(d.result - dv.d_k) == 0
    assert d["var_dot"].result == dv.d_k


def test_general_form_matches_the_textbook_formula(d):
    expected = dv.d_k * ((dv.sigma_q**2 + dv.mu_q**2) * (dv.sigma_k**2 + dv.mu_k**2) - dv.mu_q**2 * dv.mu_k**2)
    assert sp.expand(d.general - expected) == 0


def test_product_steps(d):
    assert d["mean_product"].result == dv.mu_q * dv.mu_k
    assert (
        sp.expand(
            d["var_product"].result
            - (dv.sigma_q**2 * dv.sigma_k**2 + dv.sigma_q**2 * dv.mu_k**2 + dv.mu_q**2 * dv.sigma_k**2)
        )
        == 0
    )
    assert d["covariance"].result == 0
    assert d["mean_product_standard"].result == 0 and d["var_product_standard"].result == 1
    assert d["mean_dot_standard"].result == 0


def test_strategies(d):
    assert d["var_none"].result == dv.d_k
    assert sp.simplify(d["var_d_k"].result - 1 / dv.d_k) == 0
    assert d["var_sqrt_d_k"].result == 1


@pytest.mark.parametrize("dim", [1, 3])
def test_every_chain_is_a_true_equation(d, dim):
    """At a concrete d_k every link of every chain, evaluated from scratch (sums written
    out, definitions, independence, moments), gives the step's result."""

    def evaluate(e):
        e = e.subs(dv.d_k, dim).doit()
        return sp.simplify(dv.by_moments(dv.by_independence(dv.by_definition(e))))

    for step in d.steps:
        want = step.result.subs(dv.d_k, dim)
        evaluated = [evaluate(e).subs(dv.STANDARD if step.standard else {}) for e in step.chain]
        assert {sp.simplify(v - want) for v in evaluated} == {0}, step.name


def test_every_step_renders_as_latex(d):
    for step in d.steps:
        tex = step.latex()
        assert tex.count("=") >= 1 and "\\left[" in tex, step.name
        assert tex.count("\\left") == tex.count("\\right"), step.name
    assert "{q}_{i} {k}_{i}" in d["mean_product"].latex(), "products read q before k"
    assert d["var_product"].latex().startswith("\\begin{aligned}")
    assert d["var_d_k"].latex(aligned=False).endswith("\\frac{1}{d_{k}}")


def test_expectation_engine_against_sympy_stats():
    """The four rules give the same E and Var as sympy.stats on normals with symbolic parameters."""
    from sympy import stats

    qn, kn = stats.Normal("qn", dv.mu_q, dv.sigma_q), stats.Normal("kn", dv.mu_k, dv.sigma_k)
    want = stats.variance(qn * kn)
    got = dv.expectation((dv.q[dv.i] * dv.k[dv.i]) ** 2) - dv.expectation(dv.q[dv.i] * dv.k[dv.i]) ** 2
    assert sp.simplify(got - want) == 0


@pytest.mark.parametrize("dim,distribution", [(1, "normal"), (2, "normal"), (3, "rademacher"), (4, "rademacher")])
def test_sympy_stats_agrees_for_small_d_k(dim, distribution):
    assert dv.sympy_stats_variance(dim, distribution) == dim


def test_moment_beyond_the_second_is_refused():
    with pytest.raises(ValueError, match="no moment"):
        dv.by_moments(dv.E(dv.q[dv.i] ** 3))


@settings(max_examples=25, deadline=None)
@given(
    dim=st.integers(1, 32),
    mu_q=st.floats(-2, 2),
    mu_k=st.floats(-2, 2),
    sigma_q=st.floats(0.1, 3),
    sigma_k=st.floats(0.1, 3),
)
def test_general_formula_against_direct_expansion(dim, mu_q, mu_k, sigma_q, sigma_k):
    """Var of a sum of dim independent products, computed by hand from the moments."""
    mq2, mk2 = sigma_q**2 + mu_q**2, sigma_k**2 + mu_k**2
    direct = dim * (mq2 * mk2 - (mu_q * mu_k) ** 2)
    got = dv.variance_of_dot_product(dim, mu_q=mu_q, mu_k=mu_k, sigma_q=sigma_q, sigma_k=sigma_k)
    assert got == pytest.approx(direct, rel=1e-9, abs=1e-9)


def test_general_formula_against_monte_carlo_with_nonzero_means():
    """Not only the standard case: means 0.5 / −1, deviations 2 / 0.5 on uniform components."""
    rng = np.random.default_rng(7)
    dim, n = 16, 200_000
    mu_q, mu_k, sigma_q, sigma_k = 0.5, -1.0, 2.0, 0.5
    half = np.sqrt(3)  # uniform on [−√3, √3] has variance 1
    qs = mu_q + sigma_q * rng.uniform(-half, half, size=(n, dim))
    ks = mu_k + sigma_k * rng.uniform(-half, half, size=(n, dim))
    dots = (qs * ks).sum(axis=1)
    theory = dv.variance_of_dot_product(dim, mu_q=mu_q, mu_k=mu_k, sigma_q=sigma_q, sigma_k=sigma_k)
    c = dots - dots.mean()
    stderr = np.sqrt((np.mean(c**4) - np.mean(c**2) ** 2) / n)
    assert abs(dots.var() - theory) < 5 * stderr
    assert abs(dots.mean() - dim * mu_q * mu_k) < 5 * dots.std() / np.sqrt(n)


@pytest.mark.parametrize(
    "call,exc,words",
    [
        (lambda: dv.variance_of_dot_product(0), ValueError, ["dim", "0"]),
        (lambda: dv.variance_of_dot_product(2.5), TypeError, ["dim", "2.5"]),
        (lambda: dv.variance_of_dot_product(4, sigma_q=-1), ValueError, ["sigma_q", "-1"]),
        (lambda: dv.variance_of_dot_product(4, mu_q="0"), TypeError, ["mu_q", "'0'"]),
        (lambda: dv.variance_of_dot_product(4, mu_k=float("nan")), TypeError, ["mu_k", "nan"]),
        (lambda: dv.sympy_stats_variance(5), ValueError, ["dim", "at most 4", "5"]),
        (lambda: dv.sympy_stats_variance(2, "uniform"), ValueError, ["distribution", "'uniform'", "normal"]),
    ],
)
def test_bad_input(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value)


def test_unknown_step_name(d):
    with pytest.raises(KeyError, match="var_dot"):
        d["nope"]
