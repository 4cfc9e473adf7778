"""Chapter 12's studies (backward_studies.py, and jacobian_derivation.py): sympy's softmax Jacobian is diag(a) − aaᵀ, the
descent check sees a right gradient lower the loss as predicted and a wrong one not, the
divisor backward is the real one at c = √d_k, the weight-gradient sweep behaves as chapter 12
says, and the memory count is what the backward reads."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from attention_steps import gradient_check, scaled_dot_product_attention, scaled_dot_product_attention_backward
from attention_steps.backward_studies import (
    attention_backward_with_divisor,
    attention_with_divisor,
    descent,
    kept_for_backward,
    weight_gradients,
)
from attention_steps.jacobian_derivation import softmax_jacobian_derivation


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sympys_jacobian_is_diag_a_minus_aat_and_its_rows_sum_to_zero(n):
    d = softmax_jacobian_derivation(n)
    assert d.matches and d.vjp_matches
    assert d.row_sums == sp.zeros(n, 1)
    # and at numbers: J from sympy equals the core's chapter-4 Jacobian
    from attention_steps.softmax_gradients import softmax_jacobian

    s = np.linspace(-1.0, 1.0, n)
    a = np.exp(s) / np.exp(s).sum()
    J = np.array(d.jacobian.subs(dict(zip(d.s, s))).evalf(), dtype=float)
    np.testing.assert_allclose(J, softmax_jacobian(a), atol=1e-12)


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    Q, K, V = (rng.normal(size=(3, 4)) for _ in range(3))
    G = rng.normal(size=(3, 4))

    def loss(Q, K, V):
        return float(np.sum(G * scaled_dot_product_attention(Q, K, V)[0]))

    return Q, K, V, G, loss


def test_descent_follows_the_prediction_for_the_right_gradient():
    Q, K, V, G, loss = _problem()
    dQ, dK, dV = scaled_dot_product_attention_backward(Q, K, V, G)
    walk = descent(loss, {"Q": Q, "K": K, "V": V}, {"Q": dQ, "K": dK, "V": dV}, [1e-4, 1e-3, 1e-2])
    assert walk.decreases
    gap = walk.relative_gap()
    assert gap[0] < 1e-3 and gap[0] < gap[1] < gap[2]  # shrinks with t: only the curvature is left


def test_descent_shows_a_wrong_gradient():
    Q, K, V, G, loss = _problem()
    dQ, dK, dV = scaled_dot_product_attention_backward(Q, K, V, G)
    walk = descent(loss, {"Q": Q, "K": K, "V": V}, {"Q": dQ * np.sqrt(4), "K": dK, "V": dV}, [1e-4])
    assert walk.relative_gap()[0] > 0.01  # the forgotten 1/√d_k: the drop is not t‖g‖²


def test_descent_rejects_bad_input():
    Q, K, V, G, loss = _problem()
    with pytest.raises(KeyError, match="not one of the inputs"):
        descent(loss, {"Q": Q, "K": K, "V": V}, {"W": Q}, [0.1])
    with pytest.raises(ValueError, match="shape"):
        descent(loss, {"Q": Q, "K": K, "V": V}, {"Q": Q[:2]}, [0.1])
    with pytest.raises(ValueError, match="step"):
        descent(loss, {"Q": Q, "K": K, "V": V}, {"Q": Q}, [-1.0])


def test_the_divisor_backward_is_the_real_backward_at_sqrt_d_k_and_checks_at_any_c():
    Q, K, V, G, _ = _problem(1)
    for ours, real in zip(
        attention_backward_with_divisor(Q, K, V, G, 2.0), scaled_dot_product_attention_backward(Q, K, V, G)
    ):
        np.testing.assert_allclose(ours, real, atol=1e-14)
    for c in (1.0, 4.0):
        grads = dict(zip("QKV", attention_backward_with_divisor(Q, K, V, G, c)))
        f = lambda Q, K, V, c=c: float(np.sum(G * attention_with_divisor(Q, K, V, c)[0]))  # noqa: E731
        assert gradient_check(f, {"Q": Q, "K": K, "V": V}, grads)


def test_weight_gradients_match_a_projection_backward_and_follow_the_chapter():
    small = weight_gradients(4, "sqrt_d_k", n_layers=3, seed=2)
    assert small.W_Q.shape == (3,) and (small.W_Q > 0).all()
    # the chapter's order at d_k = 64: ÷ d_k smallest, no scaling largest (by the median)
    at = {s: weight_gradients(64, s, n_layers=60) for s in ("none", "d_k", "sqrt_d_k")}
    assert at["d_k"].median() < at["sqrt_d_k"].median() < at["none"].median()
    wide = {d: weight_gradients(d, "sqrt_d_k", n_layers=60).median() for d in (16, 256)}
    assert 0.8 < wide[256] / wide[16] < 1.25  # level under ÷ √d_k
    # without scaling the raw scores' gradient shrinks as the softmax saturates, yet what reaches W_Q
    # grows over the chapter's range: the keys it is multiplied by grow like √d_k
    none = {d: weight_gradients(d, "none", n_layers=60) for d in (1, 1024)}
    assert none[1024].median("scores") < 0.3 * none[1].median("scores")
    assert none[1024].median() > 2 * none[1].median()
    with pytest.raises(ValueError, match="which must be 'W_Q', 'W_K' or 'scores'"):
        small.median("W_V")


def test_kept_for_backward_counts_what_the_rules_read():
    k = kept_for_backward(4096, 768, 12)
    assert k.weights == 12 * 4096**2 and k.statistics == 2 * 12 * 4096
    assert k.stored == 4096 * 768 * 5 + 12 * 4096**2
    assert k.tiled == k.stored - k.weights + k.statistics
    assert 0.9 < k.weights_share < 1
    # in bytes: FP16 numbers, and the tiled forward's row statistics in FP32
    assert k.stored_bytes() == 2 * k.stored and k.stored_bytes(4) == 4 * k.stored
    assert k.tiled_bytes() == 2 * (k.tiled - k.statistics) + 4 * k.statistics
    assert k.tiled_bytes(2, 2) == 2 * k.tiled
    with pytest.raises(ValueError, match="statistics_bytes"):
        k.tiled_bytes(2, 0)
    with pytest.raises(ValueError, match="divide"):
        kept_for_backward(8, 10, 3)
