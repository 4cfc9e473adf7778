"""Chapter 8 (the whole layer): its built page shows the numbers the core computes
(the memory table, the stage costs, "it" → "animal", word order), and the claims of its
exercises' solutions hold."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_steps import permutation_equivariance, trace_attention
from attention_steps.costs import ARTICLE_LENGTHS, memory_table, stage_costs
from attention_steps.exercises import ch08
from attention_steps.sentence import (
    HEAD_NAMES,
    NUM_HEADS,
    embed,
    sentence_trace,
    tokenize,
    weights,
)
from attention_steps.word_order import shuffled_words_change, without_position
from reader import page, source

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def page_text() -> str:
    return page("08_whole_layer").text


def test_page_shows_the_memory_table_computed_by_costs():
    rows = page("08_whole_layer").table_rows()
    for row in memory_table(ARTICLE_LENGTHS, bytes_per_entry="FP16"):
        assert [row.n_text, row.entries_text, row.bytes_text] in rows, (
            f"no table row {row.n_text} | {row.entries_text} | {row.bytes_text} on the page"
        )


def test_page_shows_the_stage_costs():
    rows = page("08_whole_layer").table_rows()
    counts = {r[0]: r[-1] for r in rows if r}
    from attention_steps.costs import format_count

    for stage in stage_costs(4096, 512):
        expected = format_count(stage.count) + ("" if stage.kind == "multiply-adds" else " (elementwise)")
        assert counts.get(stage.stage) == expected, f"{stage.stage}: page shows {counts.get(stage.stage)!r}"


def test_page_quotes_the_computed_weights_and_memory():
    text = page_text()
    tokens, t = sentence_trace()
    A1 = t.head(HEAD_NAMES.index("coreference")).A
    it, animal = tokens.index("it"), tokens.index("animal")
    assert f"{A1[it, animal]:.2f} on “animal”" in text
    rows = memory_table()
    assert f"{rows[-1].bytes / rows[0].bytes:,.0f} times the memory" in text
    assert f"{rows[-1].bytes / 2**30:.1f} GiB" in text
    assert f"from {rows[0].bytes / 2**20:.1f} MiB" in text


def test_page_numbers_tokens_from_one_and_says_when_an_index_is_pythons():
    text = page_text().replace("“", '"').replace("”", '"')
    tokens = tokenize()
    it, animal = tokens.index("it"), tokens.index("animal")
    # the old page said "numbered from 0: "it" is token 7": the maths counts from 1
    assert f'"it" is token {it + 1} and "animal" token {animal + 1}' in text
    assert f'tokens.index("it") is {it}' in text
    assert "numbered from 0" not in text


def test_page_shows_that_attention_alone_ignores_word_order():
    text = page_text()
    tokens = tokenize()
    X, w = embed(tokens), weights()
    check = permutation_equivariance(X, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS, seed=0)
    assert check.gap < 1e-12
    assert f"to within {check.gap:.0e}" in text
    assert f"changes by up to {shuffled_words_change(X, check.perm):.2f}" in text
    assert f"by more than {shuffled_words_change(without_position(X), check.perm):.0e}" in text
    # head 2 reads only positions: without them it puts 1/n on every token
    t = trace_attention(without_position(X), w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    error = float(np.abs(t.head(1).A - 1 / len(tokens)).max())
    assert error < 1e-15
    said = "exactly" if error == 0 else f"to within {error:.0e}"
    plain = re.sub(r"\s+([,.])", r"\1", text.replace("\\(", "").replace("\\)", ""))  # glued values sit in tags
    assert f"the same weight on every token: 1/n = {1 / len(tokens):.3f}, {said}" in plain


def test_page_says_doubling_the_length_is_not_yet_four_times_the_work():
    text = page_text()
    total = lambda n: sum(s.count for s in stage_costs(n, 512))  # noqa: E731
    ratio = total(8192) / total(4096)
    assert 3 < ratio < 4
    assert f"multiplies the work by {ratio:.1f}" in text
    assert "double the length, four times the work" not in text


def test_cross_attention_query_comes_from_the_word_before():
    text = page_text().replace("“", '"').replace("”", '"')
    # the query that predicts "chats" sits at the position before it ("les"), not at "chats"
    assert 'from the last word it has written ("les")' in text
    assert 'the word it is writing ("chats") sends a query' not in text


def test_exercise_8_1_share_of_animal_is_most_of_z_it():
    tokens, t = sentence_trace()
    head = t.head(0)
    z = head.A[tokens.index("it")] @ head.V
    # The terms of all tokens add up to z: projected onto z, their shares add up to 100%.
    terms = head.A[tokens.index("it")][:, None] * head.V
    shares = terms @ z / (z @ z)
    assert shares.sum() == pytest.approx(1)
    ratio = shares[tokens.index("animal")]
    assert ratio > 0.5 and ratio == shares.max()  # "most of what 'it' takes in comes from 'animal'"
    text = page_text()
    assert f"it makes up {ratio:.0%} of it (the other tokens" in text


def test_exercise_8_2_solution_shows_its_numbers_not_a_raw_glue_role():
    # the solution glued n inside $…$, where MyST does not expand roles: the page showed
    # "{glue:text}`ch8_ex2_n:,`^2" instead of 8,192²
    assert "{glue:" not in source("08_whole_layer")
    assert f"{ch08.MEMORY_N:,}² × 4 bytes" in page_text().replace(" ²", "²")  # the glued value sits in a tag


def test_heads_do_the_same_multiply_adds_but_h_times_the_softmax():
    # "h heads of width d/h do the same total" is true of the products, not of the softmax
    tokens, t = sentence_trace()
    n, h, d = len(tokens), t.num_heads, t.X.shape[1]
    per_head_products = sum(
        Q.shape[0] * Q.shape[1] * K.shape[0] for Q, K in ((t.head(r).Q, t.head(r).K) for r in range(h))
    )
    assert per_head_products == n * n * d  # QKᵀ over all heads: n²·d, as for one wide head
    assert t.S.size == h * n * n  # the softmax runs over h·n² entries, not n²
    text = page_text()
    assert "only the elementwise softmax, n^2 per head, becomes h n^2" in text.replace("\\(", "").replace(
        "\\)", ""
    ).replace(" ,", ",")


def test_stacked_scores_are_the_heads_not_the_whole_layer_product():
    # with the notation's whole-layer Q and K, Q Kᵀ is n × n: the SUM of the heads' scores.
    # The page must not call that product h × n × n.
    tokens, t = sentence_trace()
    whole = t.Q @ t.K.T
    assert whole.shape == (len(tokens), len(tokens))
    assert np.allclose(whole, t.QK_T.sum(axis=0))
    text = page_text().replace("\\(", "").replace("\\)", "")
    assert "QK^\\top , S and A are h \\times n \\times n" not in text
    assert "the sum of the heads' scores" in text.replace("’", "'")


def test_permutation_argument_is_written_per_head():
    text = page_text().replace("\\(", "").replace("\\)", "")
    assert "PA^{(r)}P^\\top" in text and "becomes PY" in text
