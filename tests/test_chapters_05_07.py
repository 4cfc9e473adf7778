"""Chapters 5–7: their checkers explain right and wrong answers, and the built
chapter 5 page shows the seed example's output Z as the core computes it."""

from __future__ import annotations

import html
import re

import numpy as np

from attention import trace_attention
from attention.examples import i_love
from attention.exercises import solution
from attention.mixing import latex_matrix
from conftest import built_page

# The generic checker tests (every exercise) are in test_exercises.py.


def test_seed_solution_is_the_articles_output():
    np.testing.assert_array_equal(np.round(solution("5.1"), 2), [[0.64, 0.36, 0.64], [0.36, 0.64, 0.36]])


def _text(page: str) -> str:
    """The page's text without tags, whitespace runs collapsed (the source wraps lines)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _page(name: str) -> str:
    return html.unescape(built_page(name))


def test_chapter_5_page_shows_the_seed_output():
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    page = _page("05_weighted_sum")
    assert latex_matrix(t.head(0).Z) in page  # the glued matrix, formatted as the page formats it
    text = _text(page)
    for token, row in zip(ex.tokens, t.head(0).Z):
        assert ", ".join(f"{z:.2f}" for z in row) in text, f"row {token} of Z {row} not on the page"
    assert f"{t.A[0][0, 0]:.0%} of its own value" in text
    assert f"{t.A[0][0, 1]:.0%} of the value of" in text


def test_chapter_6_page_shows_the_head_width_and_the_bug():
    from attention.heads import head_width

    text = _text(_page("06_multi_head"))
    assert f"= {head_width(512, 8)} dimensions" in text
    assert "explorer: heads" in _page("06_multi_head")


def test_chapter_7_page_shows_the_parameter_count():
    from attention.parameters import parameter_count

    text = _text(_page("07_output_projection"))
    assert f"{parameter_count(512, 8).weights:,} weights in all" in text
