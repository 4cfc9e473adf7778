"""Chapter 12 (backward): the built page shows the worked example's gradients, recomputed here
entry by entry with plain NumPy (not with attention_steps.backward), the claims around the
checks and the memory hold, and the speaker notes state no number a test does not check."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_steps.backward_studies import descent, kept_for_backward, weight_gradient_sweep
from attention_steps.examples import i_love
from reader import page, tex, unchecked_note_lines

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def _by_hand():
    """The worked example, L = z_11, written out entry by entry."""
    ex = i_love()
    Q, K, V = ex.X @ ex.W_Q, ex.X @ ex.W_K, ex.X @ ex.W_V
    e = np.exp(Q @ K.T / np.sqrt(3))
    A = e / e.sum(axis=1, keepdims=True)
    g = np.array([V[0, 0], V[1, 0]])  # row 1 of dZ Vᵀ: the first entries of the two values
    ga = g @ A[0]
    ds = A[0] * (g - ga)
    dP = ds / np.sqrt(3)
    dq1 = dP[0] * K[0] + dP[1] * K[1]
    dk1 = dP[0] * Q[0]
    return ex, Q, K, V, A, ga, ds, dP, dq1, dk1


def test_chapter_12_page_shows_the_worked_example():
    text = page("12_backward").text
    ex, Q, K, V, A, ga, ds, dP, dq1, dk1 = _by_hand()
    assert f"({A[0, 0]:.3f}, {A[0, 1]:.3f}), so" in text
    assert f"= {ga:.3f} and" in text and ga == pytest.approx(A[0, 0])
    assert f"{ds[0]:.3f}" in text and f"{ds[1]:.3f}" in text and ds.sum() == pytest.approx(0, abs=1e-15)
    assert f"{dP[0]:.3f}" in text and f"{dk1[0]:.3f}" in text
    maths = page("12_backward").math
    # dq_1 = dP_11 (k_1 − k_2): dP_12 = −dP_11 up to rounding (an entry may be 3e-17 instead of 0)
    np.testing.assert_allclose(dq1, dP[0] * (K[0] - K[1]), atol=1e-15)
    dV = np.array([[A[0, 0], 0, 0], [A[0, 1], 0, 0]])  # column 1 of dV: "I"'s weights
    dQ = np.stack([dq1, np.zeros(3)])
    dK = np.stack([dk1, dP[1] * Q[0]])
    for M in (dV, dQ, dK, np.stack([dq1, np.zeros(3), dq1, np.zeros(3)])):  # the last: dW_Q = Xᵀ dQ
        assert tex(np.round(M, 3) + 0.0) in maths, M
    plain = text.replace("\\(", "").replace("\\)", "")
    # "dA ... holds the first entry of each value: v_11 = 1 and v_21 = 0"; "value j gets (dV)_j1 = a_1j"
    assert (V[0, 0], V[1, 0]) == (1, 0) and "that is v_{11} = 1 and v_{21} = 0" in plain
    # dW = Xᵀ dM = Σ_i x_iᵀ dm_i: a sum over the tokens of outer products (not "the two tokens' rows added")
    assert list(ex.X[0]) == [1, 0, 1, 0] and list(ex.X[1]) == [0, 1, 0, 1]
    assert "x_1 = (1, 0, 1, 0) and x_2 = (0, 1, 0, 1)" in plain
    assert "copies dq_1 into rows 1 and 3" in plain
    assert "dW_K holds dk_1 in rows 1 and 3 and dk_2 in rows 2 and 4" in plain
    dW_K = np.outer(ex.X[0], dK[0]) + np.outer(ex.X[1], dK[1])  # Σ_i x_iᵀ dk_i
    np.testing.assert_allclose(dW_K[[0, 2]], [dK[0], dK[0]]) and np.testing.assert_allclose(
        dW_K[[1, 3]], [dK[1], dK[1]]
    )
    assert tex(np.round(dW_K, 3) + 0.0) in maths
    assert "add the two tokens' rows" not in plain  # what it once said


def test_chapter_12_checks_say_what_the_core_finds():
    text = page("12_backward").text
    assert "which sympy confirms exactly" in text
    # exactly 0, or the rounding the core leaves (3e-17 with NumPy 2.4.6): glued either way
    rowsum = re.search(
        r"the rows of dS sum to (exactly 0|\d(?:\.\d)?e-\d+) and", text.replace("\\(", "").replace("\\)", "")
    )
    assert rowsum and (rowsum[1] == "exactly 0" or float(rowsum[1]) < 1e-15)
    assert "is exactly 0." in text  # the masked score's gradient
    # the mask's argument: the masked weight is exactly 0, and softmax's backward multiplies by it
    assert "so its weight is exactly zero" in text and "whatever the gradient" in text
    # the forgotten 1/√d_k: the wrong value is √d_k times the right one
    assert f"is {np.sqrt(3):.3f} times the right one, which is" in text
    # "Larger steps fall less than the straight line: the curvature."
    ex, Q, K, V, A, *_ = _by_hand()
    from attention_steps import scaled_dot_product_attention, scaled_dot_product_attention_backward

    dZ = np.zeros((2, 3))
    dZ[0, 0] = 1.0
    grads = dict(zip("QKV", scaled_dot_product_attention_backward(Q, K, V, dZ)))
    walk = descent(
        lambda Q, K, V: scaled_dot_product_attention(Q, K, V)[0][0, 0],
        {"Q": Q, "K": K, "V": V},
        grads,
        [0.05, 0.1, 0.2, 0.4, 0.8],
    )
    assert walk.decreases and (walk.losses > walk.predicted).all()
    assert (np.diff(walk.relative_gap()) > 0).all()
    # the step moves Q, K and V (what the chapter's descent is given), and the prediction is η Σ‖dM‖²
    plain = text.replace("\\(", "").replace("\\)", "").replace("’", "'")
    assert "The step moves the head's inputs Q, K and V together" in plain
    assert walk.squared_norm == pytest.approx(sum(float((g**2).sum()) for g in grads.values()))


def test_chapter_12_memory_and_scaling_claims():
    text = page("12_backward").text
    k = kept_for_backward(4096, 768, 12)
    assert f"is {k.weights_share:.0%} of it" in text
    assert "two numbers per row and head" in text and k.statistics == 2 * 12 * 4096
    # the attention sublayer only; the tiled row statistics in FP32 (4 bytes), the arrays in FP16
    from attention_steps.costs import format_bytes

    assert "The count is the attention sublayer" in text and "in FP32, in all" in text
    assert f"in FP32, in all {format_bytes(2 * (k.tiled - k.statistics) + 4 * k.statistics)}" in text
    assert "usually still faster on GPUs" in text and "and still faster, because" not in text
    sweep = weight_gradient_sweep([16, 64, 1024])
    sqrt, dk, none = (sweep[s] for s in ("sqrt_d_k", "d_k", "none"))
    ratio = sqrt[1].median() / dk[1].median()
    # measured, and said to be measured: near the divisors' ratio 64 / √64 = 8, not equal to it (A changes too)
    assert f"(measured: {ratio:.2f} times smaller" in text and 6 < ratio < 11 and abs(ratio - 8) > 0.05
    assert "d_k/\\sqrt{d_k} =\\) 8, but not equal to it" in text
    assert "It is exact for a fixed \\(A\\)" in text  # the chain factor 1/c alone
    assert 0.8 < sqrt[2].median() / sqrt[0].median() < 1.25  # "keeps it level"
    assert dk[2].median() < dk[1].median() < dk[0].median()  # "starves it"
    assert none[1].median() > sqrt[1].median()  # "not smaller at moderate d_k"
    spread = lambda r: r.percentile(75) / r.percentile(25)  # noqa: E731
    assert spread(none[2]) > 3 * spread(sqrt[2])  # "spreads it ever wider"


def test_chapter_12_notes_state_no_unchecked_number():
    from attention_steps.exercises import check, registry
    from attention_steps.exercises.ch12 import EX1_A, EX1_DZ, EX2_A, EX2_G

    # "A is not symmetric, so A dZ gives a different answer."
    assert not np.allclose(EX1_A, EX1_A.T) and not np.allclose(EX1_A @ EX1_DZ, EX1_A.T @ EX1_DZ)
    assert not check("12.1", EX1_A @ EX1_DZ).ok
    # "forgetting it leaves a ⊙ g, the diagonal of J only."
    assert "−aaᵀ" in str(check("12.2", EX2_A * EX2_G))
    # "the checker names the forgotten division by √d_k, the transposed dS and the missing −aaᵀ term."
    named = " ".join(m.what for m in registry()["12.3"].mistakes)
    assert "1/√d_k" in named and "dSᵀ K" in named and "−aaᵀ" in named
    checked = {
        "- 12.1: the transpose is the whole exercise; A is not symmetric, so A dZ gives a different answer.",
        "- 12.2: the dot product first; forgetting it leaves a ⊙ g, the diagonal of J only.",
        "- 12.3: all four stages; the checker names the forgotten division by √d_k, the transposed dS and the missing −aaᵀ term.",
    }
    assert unchecked_note_lines("12_backward", checked) == []
