"""Chapters 3 (scaling) and 4 (softmax): their exercise checkers, and the seed
example's numbers on the built pages where the text says they are."""

from __future__ import annotations

import numpy as np
import pytest

from attention import projection, scale, scores, softmax
from attention.examples import i_love
from attention.exercises import check, solution
from attention.notation import bmatrix
from attention.scaling import softmax_jacobian
from conftest import built_page


def seed_S_A():
    ex = i_love()
    Q, K = projection(ex.X, ex.W_Q), projection(ex.X, ex.W_K)
    S = scale(scores(Q, K), Q.shape[-1])
    return S, softmax(S)


S, A = seed_S_A()


# ----------------------------------------------------------------------------- checkers
def test_expected_answers_are_the_seeds_numbers():
    np.testing.assert_allclose(solution("3.1"), [[1.15, 0.58], [1.15, 1.73]], atol=0.005)  # the seed's S
    np.testing.assert_allclose(solution("4.1"), [0.36, 0.64], atol=0.005)  # the seed's second row of A
    assert solution("3.2") == pytest.approx(64 * 4 * 4)
    assert solution("3.3") == pytest.approx(1 / 8)
    np.testing.assert_allclose(solution("4.2"), np.exp([0, -1, -2]) / np.exp([0, -1, -2]).sum())
    a = A[0]
    np.testing.assert_allclose(solution("4.3"), [[a[0] * a[1], -a[0] * a[1]], [-a[0] * a[1], a[0] * a[1]]])


@pytest.mark.parametrize("ex", ["3.1", "3.2", "3.3", "4.1", "4.2", "4.3"])
def test_right_answer_passes_and_unanswered_says_so(ex):
    assert check(ex, solution(ex)).ok
    assert check(ex, np.round(np.asarray(solution(ex), dtype=float), 4)).ok  # typed to 4 decimals
    feedback = check(ex, ...)
    assert not feedback.ok and "Not answered" in str(feedback)


@pytest.mark.parametrize(
    "ex,wrong,names",
    [
        ("3.1", [[1.15, 0.58], [1.15, 3.0]], ["S[1, 1]", "3", "1.732"]),  # forgot to scale one entry
        ("3.1", [[2, 1], [2, 3]], ["4 of 4", "S[0, 0]", "Hint"]),  # did not scale at all
        ("3.2", 64, ["Var[q·k]", "1024"]),  # used the standard result
        ("3.3", 1 / np.sqrt(8), ["standard deviation", "0.125"]),
        ("4.1", [0.64, 0.36], ["second row of A[0]", "0.3595", "second row of A[1]"]),  # row 1 instead of row 2
        ("4.2", [1.0, 0.0, 0.0], ["softmax([1000, 999, 998])[0]", "0.6652", "[0.0, -1.0, -2.0]"]),
        ("4.3", np.diag(A[0]), ["J[0, 0]", "J[0, 1]"]),  # forgot − aaᵀ
    ],
)  # fmt: skip
def test_wrong_answer_names_the_entry(ex, wrong, names):
    feedback = check(ex, wrong)
    assert not feedback.ok
    for name in names:
        assert name in str(feedback), (name, str(feedback))


def test_wrong_shape_is_reported():
    feedback = check("4.3", [0.23, -0.23])
    assert not feedback.ok and "shape (2,)" in str(feedback) and "(2, 2)" in str(feedback)


# ----------------------------------------------------------------------------- built pages
def page(name: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(built_page(name), "html.parser")


def section(soup, section_id: str):
    found = soup.find("section", id=section_id)
    assert found is not None, f"no section #{section_id}"
    glued = [s.get_text() for s in found.select("span.pasted-text")]
    maths = [m.get_text() for m in found.select(".pasted-math")]
    return glued, maths


def test_chapter_3_shows_the_seed_S_where_it_says():
    glued, maths = section(page("03_scaling"), "the-i-love-example-scaled")
    assert f"{np.sqrt(3):.3f}" in glued  # √d_k
    for value in S.ravel():
        assert f"{value:.2f}" in glued
    assert any(bmatrix(S, "{:.2f}") in m for m in maths), maths
    glued, maths = section(page("03_scaling"), "check-yourself")
    assert any(bmatrix(S, "{:.4f}") in m for m in maths), "solution 3.1 shows S to 4 decimals"


def test_chapter_3_derivation_is_on_the_page():
    soup = page("03_scaling")
    _, maths = section(soup, "the-sum-of-d-k-terms")
    assert any("\\operatorname{Var}" in m and "\\sum_{i=1}^{d_{k}}" in m for m in maths)
    _, maths = section(soup, "standardised-components-mu-0-sigma-1")
    assert any(m.strip().endswith("= d_{k}\\end{split}\\]") or "= d_{k}" in m for m in maths)


def test_chapter_4_shows_the_seed_worked_row_and_A_where_it_says():
    glued, maths = section(page("04_softmax"), "the-i-love-example-by-hand")
    e = np.exp(S[0])
    for value in (*e, e.sum(), *(e / e.sum())):
        assert f"{value:.2f}" in glued, (value, glued)
    assert f"{100 * A[0, 0]:.0f}" in glued and f"{100 * A[0, 1]:.0f}" in glued  # percentages
    assert any(bmatrix(A, "{:.2f}") in m and bmatrix(S, "{:.2f}") in m for m in maths), maths


def test_chapter_4_shows_the_seed_jacobian():
    glued, maths = section(page("04_softmax"), "the-jacobian-how-the-weights-respond")
    assert any(bmatrix(softmax_jacobian(A[0]), "{:.3f}") in m for m in maths)
    assert f"{A[0, 0] * A[0, 1]:.3f}" in glued
