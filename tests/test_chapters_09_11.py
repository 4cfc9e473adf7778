"""Chapters 9–11: their checkers explain right and wrong answers, and the built
pages show the numbers the core computes (skipped when the pages are not built)."""

from __future__ import annotations

import html
import json
import re

import numpy as np

from attention_steps import causal_mask, trace_attention
from attention_steps.examples import translation
from attention_steps.exercises import check, solution
from attention_steps.exercises.ch11 import EX_SCORES
from attention_steps.masks import masked_softmax
from attention_steps.sentence import NUM_HEADS, embed, tokenize, weights
from attention_steps.tiled import online_softmax_steps
from conftest import BOOK, built_page

# The generic checker tests (every exercise) are in test_exercises.py; these are
# the chapters' common mistakes.


def test_9_1_forgetting_the_mask_is_caught_on_the_upper_triangle():
    from attention_steps import softmax
    from attention_steps.exercises.ch09 import EX1_S

    feedback = check("9.1", softmax(EX1_S))  # the plain softmax, no mask
    assert not feedback.ok
    assert "forget the mask" in str(feedback) and "expected" not in str(feedback)
    assert "mask after the softmax" in str(check("9.1", np.where(causal_mask(3), softmax(EX1_S), 0)))


def test_9_2_first_row_is_the_first_value():
    Z = solution("9.2")
    np.testing.assert_array_equal(Z[0], [1.0, 0.0, 1.0])  # v for "I" in the seed's example
    np.testing.assert_allclose(np.round(Z[1], 2), [0.36, 0.64, 0.36])  # "love", as without the mask


def test_10_1_transposed_shape_is_caught():
    feedback = check("10.1", (8, 12, 7))
    assert not feedback.ok and "swap rows and columns" in str(feedback)


def test_11_1_forgetting_to_rescale_is_caught():
    # Adding the new block's terms without shrinking the old ℓ by exp(2 − 4).
    m = EX_SCORES.max()
    no_rescale = np.exp(EX_SCORES[:2] - EX_SCORES[:2].max()).sum() + np.exp(EX_SCORES[2:] - m).sum()
    feedback = check("11.1", [m, no_rescale])
    assert not feedback.ok and "without rescaling the old ℓ" in str(feedback)


def test_an_empty_mask_row_is_named_by_index_and_by_token_number():
    import pytest

    from attention_steps import scaled_dot_product_attention

    bad = causal_mask(3)
    bad[1] = False
    with pytest.raises(ValueError, match=r"query at index 1 \(token 2 counting from 1\)"):
        scaled_dot_product_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), mask=bad)


def test_a_large_negative_score_gives_the_same_weights_as_minus_infinity():
    # chapter 9: "real implementations often use a very large negative number instead; the weight is
    # then 0 to every digit a float can hold"
    from attention_steps import softmax

    S = np.array([[0.3, 2.0, -1.0], [1.5, 0.2, 0.7], [2.0, 0.0, 1.0]])
    keep = causal_mask(3)
    for dtype in (np.float32, np.float64):
        big_negative = softmax(np.where(keep, S, -1e9).astype(dtype))
        assert np.all(big_negative[~keep] == 0)
        np.testing.assert_array_equal(big_negative, masked_softmax(S.astype(dtype), keep))


# ---------------------------------------------------------------- the built pages
def _text(name: str) -> str:
    page = html.unescape(built_page(name))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_chapter_9_page_shows_the_masked_weights():
    text = _text("09_causal_masking")
    tokens = tokenize()
    n = len(tokens)
    kept = n * (n + 1) // 2
    assert f"that is {kept} of {n * n}" in text
    w = weights()
    X = embed(tokens)
    causal = trace_attention(X, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS, mask=causal_mask(n))
    full = trace_attention(X, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    i, j = tokens.index("it"), tokens.index("animal")
    assert f"{full.head(0).A[i, j]:.2f} without the mask and {causal.head(0).A[i, j]:.2f} with it" in text
    # positions count from 1, as in the maths (the old page said "it" (position 7))
    assert f"(position {i + 1}) still finds" in text and f"(position {j + 1})" in text
    plain = text.replace("\\(", "").replace("\\)", "")  # inline maths as the page writes it, \(i\)
    assert "Row i keeps i keys (tokens 1 to i)" in plain
    assert "keeps i + 1 keys" not in plain
    prefix = tokens[:5]
    layer = trace_attention(embed(prefix), w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    A = masked_softmax(layer.head(2).S, causal_mask(5))
    assert f"{A[1, 0]:.2f} / {A[1, 1]:.2f}" in text
    assert f"Without the mask {n} rows change; with it 1," in text
    assert f"is {(512 * 511) // 2:,}" in text  # exercise 9.3's solution: n(n − 1)/2 for n = 512, grouped like every count


def test_chapter_10_page_shows_the_cross_attention_weights():
    text = _text("10_cross_attention")
    t = translation()
    head = trace_attention(t.X_tgt, t.W_Q, t.W_K, t.W_V, X_kv=t.X_src).head(0)
    A = head.A
    row = t.position_predicting("猫")  # 爱's position: teacher forcing
    assert t.inputs[row] == "爱"
    assert f"weight {A[row, 2]:.2f} on “cats”" in text or f"weight {A[row, 2]:.2f} on \"cats\"" in text
    assert f"comes from position {row + 1}, where the decoder reads 爱" in text
    assert f"{A[-1, 0]:.2f} on each source word" in text
    assert f"is {A.shape[0]} × {A.shape[1]}" in text
    assert f"{head.Z[row, 2]:.2f} in the animal column" in text
    # The old story, 猫's own query finding "cats", is gone.
    assert "When the decoder is at 猫" not in text and "its query finds" not in text


def test_chapter_11_page_shows_the_walk_through():
    text = _text("11_long_context")
    s = np.array([1.0, 3.0, 2.0, 5.0, 0.0, 4.0])
    steps = online_softmax_steps(s, np.arange(1.0, 7.0)[:, None], 2)
    for step in steps:
        assert f"{step.l:.4f}" in text and f"{float(step.acc[0]):.4f}" in text
    assert f"shrinks by {steps[1].rescale:.4f}" in text
    # Exercise 11.3's solution: (n/b)² is both the ratio of sizes and the number of tiles.
    assert f"{(8192 // 256) ** 2:,}. That is also the number of tiles" in text
    assert "The number of tiles is the same" not in text  # the same as what? (old, ambiguous wording)


def test_chapter_10_defines_teacher_forcing_by_the_correct_targets():
    # Teacher forcing is feeding the correct previous tokens instead of the model's own guesses;
    # the shift to the right is how that is arranged. The old text named only the shift, and
    # "reads the token before and must predict the next one" left unclear which one.
    text = _text("10_cross_attention")
    assert "not its own guesses (teacher forcing)" in text
    assert "reads the token before and must predict the next one" not in text
    t = translation()
    for pos in range(1, len(t.inputs)):  # "position t reads target t − 1", 1-based
        assert t.inputs[pos] == t.targets[pos - 1]


def test_chapter_11_does_not_say_mqa_gqa_save_more_work():
    # MQA and GQA leave the O(n² d) work unchanged (the source articles' table says "不变"):
    # they do not "save more" than tiling, they save something else, the KV cache.
    text = _text("11_long_context")
    assert "save more" not in text
    assert "change the model to save what tiling cannot" in text  # the introduction
    assert "The others save what tiling cannot" in text  # the table of remedies


def test_chapter_11_explains_the_source_articles_word_approximation():
    text = _text("11_long_context")
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


# ---------------------------------------------------------------- speaker notes, chapters 10–11
# Notes cannot glue, so every number in them is checked here against the core,
# and a note line with a digit that no test knows about fails.
def _notes(name: str) -> list[str]:
    nb = json.loads((BOOK / f"{name}.ipynb").read_text())
    return [
        line
        for cell in nb["cells"]
        if cell["metadata"].get("slideshow", {}).get("slide_type") == "notes"
        for line in "".join(cell["source"]).splitlines()
    ]


def _e(x: float, m: float) -> str:
    return "e^{0}" if x == m else f"e^{{{x:g}−{m:g}}}".replace("−-", "−−")


def _walk_through_scores() -> np.ndarray:
    source = (BOOK / "11_long_context.ipynb").read_text()
    found = re.search(r"s = np\.array\(\[([^\]]*)\]\)", source)
    return np.array([float(x) for x in found.group(1).split(",")])


def _checked_note_lines() -> dict[str, set[str]]:
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
    from attention_steps.exercises.ch11 import EX_B, EX_N

    return {
        "11_long_context": {
            f"- Block 1: m from −∞ to {first.m:g}; ℓ = {block1}.",
            f"- Block 2: a new max {second.m:g}, so the old ℓ and acc shrink by {_e(first.m, second.m)}.",
            "- Block 3: max unchanged, rescale 1.",
            "- Rescale factor ≤ 1, equal to 1 when the max does not move.",
            f"- 11.1 by hand: {ex1}, then rescale by {_e(ex[0].m, ex[1].m)} and add {ex2}.",
            f"- 11.3: (n/b)² = {(EX_N // EX_B) ** 2}.",
            "- Block sizes from 1 to larger than n, some dividing n and some not.",  # test_chapter_11_block_sizes_note
        },
        "10_cross_attention": set(),
    }


# Digits that are names, not amounts: chapter and exercise numbers, FP16, formulas' indices.
_NOT_AMOUNTS = re.compile(r"[Cc]hapters? \d+( to \d+)?|\b1[01]\.\d\b|FP16|_\{[^}]*\}|\^\{[^}]*\}")


def test_chapters_10_11_note_numbers_match_the_core():
    for name, lines in _checked_note_lines().items():
        notes = _notes(name)
        for line in lines:
            assert line in notes, f"{name}: expected the note line {line!r}"
        unchecked = [x for x in notes if x not in lines and re.search(r"\d", _NOT_AMOUNTS.sub("", x))]
        assert not unchecked, f"{name}: note lines with numbers no test checks: {unchecked}"


def test_chapter_11_block_sizes_note():
    # "Block sizes from 1 to larger than n, some dividing n and some not."
    source = (BOOK / "11_long_context.ipynb").read_text()
    n = int(re.search(r"\bn = (\d+)\\n", source).group(1))
    sizes = [int(x) if x.strip() != "n" else n for x in re.search(r"for block_size in \(([^)]*)\)", source).group(1).split(",")]
    assert min(sizes) == 1 and max(sizes) > n
    assert any(n % b == 0 for b in sizes) and any(n % b for b in sizes if b < n)
