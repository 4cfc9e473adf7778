"""Chapter 4 (softmax): the source article's worked row, weights and Jacobian on the
built page, the numerical facts the text states (underflow, overflow, saturation), the
temperature explorer's alt text and the speaker notes."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import projection, scores, softmax, trace_attention
from attention_steps.examples import i_love
from attention_steps.notation import bmatrix
from attention_steps.scaling import softmax_jacobian
from reader import notes, page

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

EX = i_love()
_HEAD = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V).head(0)
S, A = _HEAD.S, _HEAD.A  # the source article's scaled scores and weights


def test_chapter_4_shows_the_source_articles_worked_row_and_A_where_it_says():
    section = page("04_softmax").section("the-i-love-example-by-hand")
    e = np.exp(S[0])
    for value in (*e, e.sum(), *(e / e.sum())):
        assert f"{value:.2f}" in section.glued, (value, section.glued)
    assert f"{100 * A[0, 0]:.0f}" in section.glued and f"{100 * A[0, 1]:.0f}" in section.glued  # percentages
    assert any(bmatrix(A, "{:.2f}") in m and bmatrix(S, "{:.2f}") in m for m in section.maths), section.maths


def test_chapter_4_shows_the_source_articles_jacobian():
    section = page("04_softmax").section("the-jacobian-how-the-weights-respond")
    assert any(bmatrix(softmax_jacobian(A[0]), "{:.3f}") in m for m in section.maths)
    assert f"{A[0, 0] * A[0, 1]:.3f}" in section.glued


def test_chapter_4_positivity_caveat_underflow():
    glued = page("04_softmax").section("three-properties").glued
    threshold = -(np.log(np.finfo(np.float64).smallest_subnormal) - np.log(2))
    assert f"{threshold:.0f}" == glued[0] == "745"
    assert softmax(np.array([0.0, -(threshold + 0.1)]))[1] == 0  # rounds to 0 just beyond
    assert softmax(np.array([0.0, -(threshold - 1.0)]))[1] > 0  # still positive just before


def test_chapter_4_source_article_rounding_note():
    rounded = np.round(S[0], 2)  # what the source article exponentiates: 1.15 and 0.58
    np.testing.assert_allclose(rounded, [1.15, 0.58])
    exact, by_hand = np.exp(S[0]), np.exp(rounded)
    assert np.all(np.round(exact, 2) != np.round(by_hand, 2))  # the exponentials differ in the 2nd decimal
    np.testing.assert_array_equal(np.round(exact / exact.sum(), 2), np.round(by_hand / by_hand.sum(), 2))
    glued = page("04_softmax").section("the-i-love-example-by-hand").glued
    assert f"{by_hand[0]:.2f}" in glued and f"{by_hand[1]:.2f}" in glued


def test_chapter_4_symmetry_section():
    from attention_steps.examples import unequal_lengths

    QK_T = scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K))
    section = page("04_softmax").section("symmetric-weights-from-asymmetric-scores")
    glued = section.glued
    # scores asymmetric (1 vs 2), weights equal to rounding: the source articles' inference fails here
    assert glued[:2] == [f"{QK_T[0, 1]:g}", f"{QK_T[1, 0]:g}"] == ["1", "2"]
    assert glued[2] == glued[3] == f"{A[0, 1]:.4f}" == f"{A[1, 0]:.4f}"
    assert abs(A[0, 1] - A[1, 0]) < 1e-15
    # the gaps, 2 − 1 and 3 − 2, raw and after ÷√3
    assert glued[5:10] == ["2", "1", "3", "2", "1"]
    assert glued[11] == f"{1 / np.sqrt(3):.2f}"
    # the counterexample: symmetric S, asymmetric A; computed by hand here
    q = np.array([[1.0, 0.0], [2.0, 0.1]])
    S_c = q @ q.T / np.sqrt(2)
    T = np.exp(S_c).sum(axis=1)
    a12, a21 = np.exp(S_c[0, 1]) / T[0], np.exp(S_c[1, 0]) / T[1]
    assert glued[12:] == ["2", f"{T[0]:.2f}", f"{T[1]:.2f}", f"{100 * a12:.0f}", f"{100 * a21:.0f}"]
    c = unequal_lengths()
    assert c.W_Q.tolist() == c.W_K.tolist()
    assert a12 / a21 == pytest.approx(T[1] / T[0])
    assert any("a_{12}" in m and "S_{11} - S_{12}" in m for m in section.maths)


def test_chapter_4_float16_overflow():
    from attention_steps.scaling import score_samples

    glued = page("04_softmax").section("overflow-and-the-stable-form").glued
    limits = [np.log(float(np.finfo(t).max)) for t in (np.float64, np.float32, np.float16)]
    assert glued[:4] == [f"{x:.1f}" for x in limits] + ["65,504"]
    assert glued[2] == "11.1" and glued[1] == "88.7"
    with np.errstate(over="ignore"):
        e16 = np.exp(np.array([11.0, 12.0], dtype=np.float16))
    assert np.isfinite(e16[0]) and np.isinf(e16[1])
    raw = score_samples(64)
    share = (raw > limits[2]).mean()
    # bfloat16: 8 exponent bits like float32, largest (2 - 2^-7) · 2^127 = 3.39e38; the page once
    # said the 16-bit floats of large models overflow at 11.1, true of float16 only
    bf16_max = (2 - 2.0**-7) * 2.0**127
    assert bf16_max == pytest.approx(3.3895e38, rel=1e-4)
    assert glued[4] == f"{np.log(bf16_max):.1f}" == f"{limits[1]:.1f}"
    assert glued[5:8] == ["64", f"{100 * share:.1f}", f"{raw.size:,}"]
    # independent estimate: q·k with 64 standard components has variance 64, P(q·k > 11.09) ≈ 8 %
    from math import erfc, sqrt

    assert share == pytest.approx(0.5 * erfc(limits[2] / 8 / sqrt(2)), abs=0.01)


def test_chapter_4_jacobian_derived_and_checked_by_finite_differences():
    from attention_steps.core import numerical_jacobian

    section = page("04_softmax").section("the-jacobian-how-the-weights-respond")
    assert "a_i(\\delta_{ij} - a_j)" in section.text and "\\partial D / \\partial s_j = e^{s_j}" in section.text
    # T is the temperature one section earlier; the row total once shared its letter
    assert "\\partial T" not in section.text and "{T^2}" not in section.text
    J, J_fd = softmax_jacobian(A[0]), numerical_jacobian(softmax, S[0], step=1e-6)
    assert section.glued[-2:] == ["1e-06", f"{np.abs(J - J_fd).max():.0e}"]
    assert np.abs(J - J_fd).max() < 1e-8


def test_chapter_4_saturation_with_the_chain_factor():
    glued = page("04_softmax").section("saturation-kills-the-gradient").glued
    factors = 2.0 ** np.arange(-1, 5)

    def norm_J(c):  # ‖diag(a) − aaᵀ‖ at a = softmax(c · row), by plain NumPy
        a = np.exp(c * S[0]) / np.exp(c * S[0]).sum()
        return np.linalg.norm(np.diag(a) - np.outer(a, a))

    raw = [c * norm_J(c) for c in factors]
    assert raw[2] > raw[1]  # the chain factor λ wins at first …
    assert raw[-1] < raw[1] / 100  # … saturation wins later
    best = factors[np.argmax(raw)]
    assert glued[4:] == [
        f"{best:g}",
        f"{max(raw):.2f}",
        f"{raw[1]:.2f}",
        "16",
        f"{raw[-1]:.1e}",
        f"{raw[1] / raw[-1]:,.0f}",
    ]


def test_chapter_4_row_totals_are_not_called_t():
    # T is the temperature on this page; the softmax denominators are D_i (they were T_i)
    for sid in ("symmetric-weights-from-asymmetric-scores", "when-are-scores-and-weights-symmetric"):
        text = page("04_softmax").section(sid).text
        assert "T_i" not in text and "T_j" not in text, sid
    assert "D_i" in page("04_softmax").section("symmetric-weights-from-asymmetric-scores").text


def test_temperature_note_gradient_claims():
    # the speaker note: ‖J‖ (w.r.t. s/T) never falls as T rises; ‖J‖/T (w.r.t. s) peaks at a middle T
    from attention_steps.explorers.data import TEMPERATURES
    from attention_steps.scaling import gradient_size, with_temperature

    s = np.array([2.0, 1.0, 0.5, -1.0])
    g = np.array([gradient_size(with_temperature(s, T)) for T in TEMPERATURES])
    assert np.all(np.diff(g) >= -1e-3)
    raw = g / np.array(TEMPERATURES)
    assert 0 < np.argmax(raw) < len(TEMPERATURES) - 1
    assert min(TEMPERATURES) <= 0.1 and max(TEMPERATURES) >= 10  # "T from 0.1 to 10" is on the slider


def test_temperature_explorer_alt_says_towards_ln_n():
    # at the hottest slider setting the entropy is still below ln n: it rises towards it, never to it
    from attention_steps.explorers.data import TEMPERATURES, temperature_states
    from attention_steps.explorers.fallback import temperature_figure

    s = np.array([2.0, 1.0, 0.5, -1.0])
    a = np.exp(s / max(TEMPERATURES)) / np.exp(s / max(TEMPERATURES)).sum()
    assert -(a * np.log(a)).sum() < np.log(len(s))
    fig, alt = temperature_figure(temperature_states(s, list("abcd")), 0)
    assert "rises towards ln n" in alt and "rises to ln n" not in alt


def test_temperature_gradient_note_peaks_in_the_middle_and_vanishes_cold():
    """The explorer's note: ‖∂a/∂s‖ = ‖J‖ / T is largest at a middle temperature, smaller on both
    sides, all but vanishing on the cold side (saturation) and shrinking on the hot side."""
    from attention_steps.explorers.data import TEMPERATURES, temperature_states

    assert "It is largest at a middle temperature and smaller on both sides" in notes("04_softmax")
    s = np.array([2.0, 1.0, 0.5, -1.0])  # the chapter's scores, which its explorer shows
    g = [state["gradient"] for state in temperature_states(s, list("abcd"))["states"]]
    peak = int(np.argmax(g))
    assert 0 < peak < len(g) - 1, "the peak is inside the slider's range"
    assert g[0] < 1e-3 * g[peak], "cold: saturated, the gradient all but vanishes"
    assert g[-1] < 0.1 * g[peak], "hot: flattened, the gradient shrinks"
    assert min(TEMPERATURES) < TEMPERATURES[peak] < max(TEMPERATURES)


def test_numbers_in_chapter_4_notes():
    text = notes("04_softmax")
    f32, f16 = (np.log(float(np.finfo(t).max)) for t in (np.float32, np.float16))
    assert f"float32 overflows above about {f32:.1f}, float16 above about {f16:.1f}" in text
    assert "∂T/∂s_j" not in text and "∂D/∂s_j" in text  # T is the temperature, D the row total
    assert "unit variance, under chapter 3's assumptions" in text
    assert "mirror image" not in text  # A is symmetric by coincidence of equal gaps, explained on the page
