"""Chapter 11 (long context): the built page shows the online-softmax walk-through the
core computes, the text's claims about MQA/GQA and kernel approximations hold, and every
number in the speaker notes is checked against the core."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_steps.exercises.ch11 import EX_B, EX_N, EX_SCORES
from attention_steps.tiled import online_softmax_steps
from reader import code, note_lines, page, unchecked_note_lines

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def test_chapter_11_page_shows_the_walk_through():
    text = page("11_long_context").text
    s = np.array([1.0, 3.0, 2.0, 5.0, 0.0, 4.0])
    steps = online_softmax_steps(s, np.arange(1.0, 7.0)[:, None], 2)
    for step in steps:
        assert f"{step.l:.4f}" in text and f"{float(step.acc[0]):.4f}" in text
    assert f"shrinks by {steps[1].rescale:.4f}" in text
    # Exercise 11.3's solution: (n/b)² is both the ratio of sizes and the number of tiles.
    assert f"{(8192 // 256) ** 2:,}. That is also the number of tiles" in text
    assert "The number of tiles is the same" not in text  # the same as what? (old, ambiguous wording)


def test_chapter_11_does_not_say_mqa_gqa_save_more_work():
    # MQA and GQA leave the O(n² d) work unchanged (the source articles' table says "不变"):
    # they do not "save more" than tiling, they save something else, the KV cache.
    text = page("11_long_context").text
    assert "save more" not in text
    assert "change the model to save what tiling cannot" in text  # the introduction
    assert "The others save what tiling cannot" in text  # the table of remedies


def test_chapter_11_explains_the_source_articles_word_approximation():
    text = page("11_long_context").text
    assert "用核函数近似" in text and "does not approximate softmax at all" in text
    # The claim behind it: positive random features (Performer) give e^{q·k} on average,
    # while elu + 1 features give a different number.
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=4) * 0.5, rng.normal(size=4) * 0.5
    W = rng.normal(size=(200_000, 4))
    phi = lambda x: np.exp(W @ x - x @ x / 2)  # noqa: E731
    estimate = np.mean(phi(q) * phi(k))
    assert abs(estimate / np.exp(q @ k) - 1) < 0.05
    elu1 = lambda x: np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))  # noqa: E731
    assert abs(elu1(q) @ elu1(k) / np.exp(q @ k) - 1) > 0.05


def test_exp_of_a_dot_product_is_not_a_finite_sum_of_products():
    # "e^{q·k} is not a finite sum of products of a part for i and a part for j": such a sum
    # with M terms gives score matrices of rank ≤ M, but e^{q_i k_j} on n distinct points has rank n.
    for n in (3, 5, 8):  # small n: the exact rank is n, and float64 still resolves it
        x = np.linspace(-2.0, 2.0, n)
        assert np.linalg.matrix_rank(np.exp(np.outer(x, x))) == n
        phi = np.stack([x + 1.5, np.ones(n)], axis=1)  # any finite feature map: rank ≤ its width
        assert np.linalg.matrix_rank(phi @ phi.T) <= 2


# ---------------------------------------------------------------- speaker notes
# Notes cannot glue, so every number in them is checked here against the core,
# and a note line with a digit that no test knows about fails.
def _e(x: float, m: float) -> str:
    return "e^{0}" if x == m else f"e^{{{x:g}−{m:g}}}".replace("−-", "−−")


def _walk_through_scores() -> np.ndarray:
    found = re.search(r"s = np\.array\(\[([^\]]*)\]\)", code("11_long_context"))
    return np.array([float(x) for x in found.group(1).split(",")])


def _checked_note_lines() -> set[str]:
    s = _walk_through_scores()
    steps = online_softmax_steps(s, np.arange(1.0, len(s) + 1)[:, None], 2)
    first, second, third = steps
    assert second.m > first.m and third.m == second.m and third.rescale == 1  # what the notes say
    assert all(step.rescale <= 1 for step in steps)
    block1 = " + ".join(_e(x, first.m) for x in first.scores)
    ex = online_softmax_steps(EX_SCORES, np.ones((len(EX_SCORES), 1)), 2)
    ex1 = " + ".join(_e(x, ex[0].m) for x in EX_SCORES[:2])
    ex2 = " + ".join(_e(x, ex[1].m) for x in EX_SCORES[2:])
    assert ex[1].m > ex[0].m
    return {
        f"- Block 1: m from −∞ to {first.m:g}; ℓ = {block1}.",
        f"- Block 2: a new max {second.m:g}, so the old ℓ and acc shrink by {_e(first.m, second.m)}.",
        "- Block 3: max unchanged, rescale 1.",
        f"- 11.1 by hand: {ex1}, then rescale by {_e(ex[0].m, ex[1].m)} and add {ex2}.",
        f"- 11.3: (n/b)² = {(EX_N // EX_B) ** 2}.",
        "- Block sizes from 1 to larger than n, some dividing n and some not.",  # test_chapter_11_block_sizes_note
    }


def test_chapter_11_note_numbers_match_the_core():
    lines = _checked_note_lines()
    notes = note_lines("11_long_context")
    for line in lines:
        assert line in notes, f"expected the note line {line!r}"
    unchecked = unchecked_note_lines("11_long_context", lines)
    assert not unchecked, f"note lines with numbers no test checks: {unchecked}"


def test_chapter_11_block_sizes_note():
    # "Block sizes from 1 to larger than n, some dividing n and some not."
    source = code("11_long_context")
    n = int(re.search(r"^n = (\d+)$", source, flags=re.M).group(1))
    sizes = [
        int(x) if x.strip() != "n" else n
        for x in re.search(r"for block_size in \(([^)]*)\)", source).group(1).split(",")
    ]
    assert min(sizes) == 1 and max(sizes) > n
    assert any(n % b == 0 for b in sizes) and any(n % b for b in sizes if b < n)
