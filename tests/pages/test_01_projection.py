"""Chapter 1 (projection): the source article's numbers on the built page where the
chapter says they are, and the numbers in the speaker notes."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import projection, scale, scores, softmax
from attention_steps.examples import i_love
from attention_steps.notation import ORIGINAL_TRANSFORMER
from reader import notes, page, prose, tex

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

EX = i_love()
ARTICLE_Q = np.array([[2, 0, 1], [0, 2, 1]])  # as the second source article prints it


def test_chapter_1_shows_the_source_articles_projection():
    Q = projection(EX.X, EX.W_Q)
    K = projection(EX.X, EX.W_K)
    section = page("01_projection").section("the-source-article-s-example-i-love")
    assert section.glued[:5] == [
        str(EX.X.shape[0]),
        str(EX.X.shape[1]),
        str(EX.X[0].astype(int).tolist()),
        str(EX.X[1].astype(int).tolist()),
        str(EX.W_Q.shape[1]),
    ]
    for M in (EX.X, EX.W_Q, Q):
        assert tex(M) in section.math
    np.testing.assert_array_equal(Q, ARTICLE_Q)
    # the per-token view: q_I is the first row of Q, the sum of rows 1 and 3 of W_Q (counted from 1)
    rows = page("01_projection").section("one-row-at-a-time")
    assert tex(Q[0]) in rows.math
    assert rows.glued == ["1 and 3", "1 and 3", "W_Q[0], W_Q[2]"]
    np.testing.assert_array_equal(EX.W_Q[0] + EX.W_Q[2], Q[0])
    # the honest note: our W_K gives the article's K
    note = page("01_projection").section("keys-and-values-an-honest-note").math
    assert tex(EX.W_K) in note and tex(K) in note and tex(EX.W_V) in note


def test_chapter_1_shows_the_original_transformer_sizes():
    section = page("01_projection").section("all-tokens-at-once")
    cfg = ORIGINAL_TRANSFORMER
    assert section.glued == [str(v) for v in (cfg.d_model, cfg.num_heads, cfg.d_k, 10, cfg.d_model, cfg.d_k)]


def test_chapter_1_shows_what_breaks_without_projections():
    section = page("01_projection").section("why-three-different-matrices")
    XX_T = scores(EX.X, EX.X)
    QK_T = scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K))
    A_plain = softmax(XX_T)
    A_scaled = softmax(scale(XX_T, EX.X.shape[1]))  # chapter 3's scaling, d_k = width of X = 4
    assert section.glued == [
        f"{XX_T[0, 1]:.0f}",
        f"{100 * A_plain[0, 1]:.0f}",
        f"{QK_T[1, 0]:.0f}",
        f"{QK_T[1, 0]:.0f}",
        f"{QK_T[0, 1]:.0f}",
        f"{XX_T[0, 0]:.0f}",
        f"{100 * A_plain[0, 0]:.0f}",
        "2",
        "4",
        f"{100 * A_scaled[0, 0]:.0f}",
    ]
    rows = " \\\\ ".join(" & ".join(f"{v:.2f}" for v in row) for row in A_plain)
    assert "".join(rf"\begin{{bmatrix}} {rows} \end{{bmatrix}}".split()) in section.math


def test_chapter_1_scaling_changes_the_self_weight():
    # The chapter once said chapter 3's scaling "changes nothing here". By hand, with
    # Q = K = X: scores [[2, 0], [0, 2]], divided by √4 = 2 → softmax([1, 0]).
    by_hand_plain = np.exp(2) / (np.exp(2) + 1)
    by_hand_scaled = np.exp(1) / (np.exp(1) + 1)
    assert round(100 * by_hand_plain) == 88 and round(100 * by_hand_scaled) == 73
    assert softmax(scale(scores(EX.X, EX.X), 4))[0, 0] == pytest.approx(by_hand_scaled)
    assert "changes nothing" not in page("01_projection").section("why-three-different-matrices").text


def test_numbers_in_chapter_1_notes():
    text = notes("01_projection")
    Q = projection(EX.X, EX.W_Q)
    shape = lambda M: " × ".join(map(str, M.shape))  # noqa: E731
    assert f"X is {shape(EX.X)}, W_Q is {shape(EX.W_Q)}, Q is {shape(Q)}" in text
    # the note once said "thousands of different tokens" would pin W_K down: d_model independent rows do
    assert f"two rows of X cannot pin down a {shape(EX.W_K)} matrix" in text and "thousands" not in text
    assert np.linalg.matrix_rank(EX.X) == EX.X.shape[0] < EX.X.shape[1]  # two tokens, rank 2 < d_model = 4
    X_full = np.eye(EX.X.shape[1])  # d_model independent tokens: K = X W_K gives back W_K itself
    np.testing.assert_array_equal(np.linalg.solve(X_full, X_full @ EX.W_K), EX.W_K)


def test_exercise_1_3_names_one_heads_matrices_with_r():
    # A bare W_Q is the whole layer; one head of a multi-head model has W_Q^(r).
    text = next(cell for cell in prose("01_projection") if "**Exercise 1.3.**" in cell)
    assert "$W_Q^{(r)}$" in text and "$W_V^{(r)}$" in text and "$W_Q$, $W_K$" not in text
