"""Chapter 4's symmetry section: when QKᵀ is symmetric, when softmax(S) is, and
the counterexamples it shows, each checked by the core and by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_steps import projection, scale, scores, softmax, trace_attention
from attention_steps.examples import i_love, unequal_lengths
from attention_steps.symmetry import asymmetry, bilinear_form, row_totals, two_token_gaps

finite = st.floats(-6, 6, allow_nan=False, allow_infinity=False)


def test_i_love_gaps_are_equal_so_A_is_symmetric():
    ex = i_love()
    QK_T = scores(projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K))
    assert two_token_gaps(QK_T) == (1.0, 1.0)  # 2 − 1 and 3 − 2
    assert asymmetry(QK_T) == 1.0  # the scores are not symmetric
    assert asymmetry(softmax(scale(QK_T, 3))) < 1e-15  # the weights are


@settings(max_examples=100)
@given(S=arrays(float, (2, 2), elements=finite))
def test_two_tokens_A_symmetric_exactly_when_the_gaps_agree(S):
    A = softmax(S)
    g1, g2 = two_token_gaps(S)
    # a_12 = 1 / (1 + e^{g1}), a_21 = 1 / (1 + e^{g2}) (independent of the core's softmax)
    assert A[0, 1] == pytest.approx(1 / (1 + np.exp(g1)))
    assert A[1, 0] == pytest.approx(1 / (1 + np.exp(g2)))
    if abs(g1 - g2) > 1e-6:
        assert asymmetry(A) > 0
    S_equal = S.copy()
    S_equal[1, 0] = S[1, 1] - g1  # make the gaps agree, scores otherwise arbitrary
    assert asymmetry(softmax(S_equal)) < 1e-12


def test_symmetric_scores_asymmetric_weights():
    ex = unequal_lengths()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    np.testing.assert_array_equal(ex.W_Q, ex.W_K)
    QK_T = t.QK_T[0]
    np.testing.assert_allclose(QK_T, [[1.0, 2.0], [2.0, 4.01]])  # by hand: q_1 = [1, 0], q_2 = [2, 0.1]
    assert asymmetry(QK_T) == 0
    A = t.A[0]
    assert A[0, 1] > 0.6 and A[1, 0] < 0.25  # softmax([1, 2]/√2)[1] vs softmax([2, 4.01]/√2)[0]
    assert asymmetry(A) > 0.4


@settings(max_examples=60)
@given(M=arrays(float, (3, 3), elements=finite))
def test_symmetric_S_gives_a_ratio_of_row_totals(M):
    S = (M + M.T) / 2
    A = softmax(S)
    T = row_totals(S)
    for i in range(3):
        for j in range(3):
            assert A[i, j] / A[j, i] == pytest.approx(T[j] / T[i], rel=1e-9)


@settings(max_examples=40)
@given(X=arrays(float, (3, 4), elements=finite), W=arrays(float, (4, 2), elements=finite), c=st.floats(0.5, 3))
def test_a_symmetric_bilinear_form_gives_symmetric_scores_even_with_W_K_not_W_Q(X, W, c):
    W_Q, W_K = W, c * W  # W_K ≠ W_Q (unless W = 0), but W_Q W_Kᵀ = c W Wᵀ is symmetric
    assert asymmetry(bilinear_form(W_Q, W_K)) == pytest.approx(0, abs=1e-9)
    QK_T = scores(projection(X, W_Q), projection(X, W_K))
    assert asymmetry(QK_T) <= 1e-9 * max(1.0, np.abs(QK_T).max())


def test_i_love_bilinear_form_is_not_symmetric():
    ex = i_love()
    M = bilinear_form(ex.W_Q, ex.W_K)
    np.testing.assert_array_equal(M, ex.W_Q @ ex.W_K.T)
    assert asymmetry(M) > 0


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: asymmetry(np.ones((2, 3))), "square"),
        (lambda: two_token_gaps(np.ones((3, 3))), "2 × 2"),
        (lambda: bilinear_form(np.ones((4, 2)), np.ones((4, 3))), "W_Q and W_K"),
        (lambda: row_totals(np.ones(3)), "S must have 2"),
    ],
)
def test_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()
