"""Chapter 2 (scores): the source article's scores and their asymmetry on the built
page, exercise 2.2's and 2.3's solution claims, and the speaker notes' numbers."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import projection, scores, trace_attention
from attention_steps.examples import YOU, i_love, unequal_lengths
from reader import notes, page, tex

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

EX = i_love()
ARTICLE_Q = np.array([[2, 0, 1], [0, 2, 1]])  # as the second source article prints it
ARTICLE_K = np.array([[1, 1, 0], [0, 1, 1]])


def test_chapter_2_shows_the_source_articles_scores():
    t = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)
    QK_T = t.head(0).QK_T
    np.testing.assert_array_equal(QK_T, ARTICLE_Q @ ARTICLE_K.T)
    section = page("02_scores").section("the-i-love-scores")
    assert tex(QK_T) in section.math
    assert tex(t.Q) in section.math and tex(t.K.T) in section.math
    assert section.glued[:2] == [str(t.Q[0].astype(int).tolist()), str(t.K[0].astype(int).tolist())]
    assert section.glued[2:] == [f"{v:.0f}" for v in QK_T.ravel()]  # row by row


def test_chapter_2_shows_the_asymmetry():
    QK_T = scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K))
    M = EX.W_Q @ EX.W_K.T
    section = page("02_scores").section("the-scores-are-not-symmetric")
    assert section.glued == [f"{QK_T[0, 1]:.0f}", f"{QK_T[1, 0]:.0f}", f"{M[0, 1]:.0f}", f"{M[1, 0]:.0f}"]
    assert QK_T[0, 1] != QK_T[1, 0] and M[0, 1] != M[1, 0]
    assert tex(M) in section.math


def test_exercise_2_2_diagonal_needs_equal_lengths():
    # The old solution said the largest score of each row is on the diagonal whenever
    # W_K = W_Q. False: with q_1 = [1, 0], q_2 = [2, 0.1], token 1 prefers token 2.
    q = np.array([[1.0, 0.0], [2.0, 0.1]])
    by_hand = q @ q.T
    np.testing.assert_allclose(by_hand, [[1.0, 2.0], [2.0, 4.01]])
    c = unequal_lengths()
    QQ_T = scores(projection(c.X, c.W_Q), projection(c.X, c.W_K))
    np.testing.assert_allclose(QQ_T, by_hand)
    assert np.argmax(QQ_T[0]) != 0  # row 1's largest score is not its own
    # For "I love" the two queries have equal lengths, so there the diagonal does win
    Q = projection(EX.X, EX.W_Q)
    assert (Q * Q).sum(axis=1).tolist() == [5.0, 5.0]
    assert all(np.argmax(row) == i for i, row in enumerate(scores(Q, Q)))
    section = page("02_scores").section("check-yourself")
    glued = section.glued
    assert glued[glued.index("[1, 0]") :][:4] == ["[1, 0]", "[2, 0.1]", "2", "1"], glued
    assert "5" in glued  # the two squared lengths
    assert tex(QQ_T) in section.math
    assert "each token matches itself best" not in section.text
    # equal lengths guarantee the diagonal; they are not the only way to get it ("only because" was wrong):
    q = np.array([[1.0, 0.0], [0.0, 2.0]])  # unequal lengths, diagonal still largest in each row
    assert all(np.argmax(row) == i for i, row in enumerate(q @ q.T))
    assert "only because" not in section.text and "guarantee it" in section.text


def test_chapter_2_says_the_verb_picture_is_idealised():
    text = page("02_scores").section("the-dot-product-measures-agreement").text
    assert "In the idealised picture" in text and "rarely this clean" in text


def test_exercise_2_3_solution_claims():
    X3 = np.vstack([EX.X, YOU])
    QK3 = scores(projection(X3, EX.W_Q), projection(X3, EX.W_K))
    np.testing.assert_array_equal(QK3[:, 0], QK3[:, 2])  # "you" is scored exactly as "I"
    np.testing.assert_array_equal(QK3[:2, :2], scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K)))


def test_chapter_2_shows_the_dot_products_of_directions():
    a = np.array([1, 0])
    section = page("02_scores").section("the-dot-product-measures-agreement")
    assert section.glued == [str(a @ b) for b in ([1, 0], [0, 1], [-1, 0])]


def test_numbers_in_chapter_2_notes():
    text = notes("02_scores")
    a = np.array([1, 0])
    assert f"{a @ [1, 0]}, {a @ [0, 1]}, −{-(a @ [-1, 0])}: aligned, unrelated, opposed" in text
    K = projection(EX.X, EX.W_K)
    assert f"Kᵀ is {K.T.shape[0]} × {K.T.shape[1]}" in text
