"""Chapter 6 (multi-head): the head width, the heads counted from 1, the √d_model bug
quoted at the paper's size, and the speaker notes' numbers, against the core."""

from __future__ import annotations

import pytest

from attention_steps.exercises import solution
from attention_steps.heads import head_width, scaling_bug_at_size, small_layer
from reader import notes, page, source

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def test_chapter_6_page_shows_the_head_width_and_the_bug():
    assert f"= {head_width(512, 8)} dimensions" in page("06_multi_head").text
    assert "explorer: heads" in source("06_multi_head")


def test_chapter_6_speaker_notes_quote_the_core():
    from attention_steps.explorers import heads_explorer
    from attention_steps.explorers.data import HEAD_COUNTS
    from attention_steps.notation import ORIGINAL_TRANSFORMER, layer_shapes

    text = notes("06_multi_head")
    explorer = heads_explorer(figure=False)
    counts, d_model = explorer.data["head_counts"], explorer.data["d_model"]
    explorer.close()
    assert list(counts) == list(HEAD_COUNTS)
    assert f"Drag *h* from {min(counts)} to {max(counts)}" in text
    assert f"At d_k = {d_model // max(counts)} a head's score" in text
    d, d_k = layer_shapes(ORIGINAL_TRANSFORMER, n=1)["W_Q⁽ʳ⁾"]  # one head's W_Q, in the source articles' sizes
    assert f"The source articles' {d} x {d_k} W_Q is one head's" in text
    # the old notes counted heads and columns from 0 ("head 1 gets columns 0-1") and typed the toy's sizes
    assert "columns 0-1" not in text and "(6, 8) -> (4, 6, 2)" not in text


def test_chapter_6_page_counts_heads_from_one_and_quotes_the_bug_at_paper_size():
    text = page("06_multi_head").text
    layer = small_layer()
    assert f"Side by side, the {layer.num_heads} maps" in text
    assert 'For the query "animal" (row 2)' in text.replace("“", '"').replace("”", '"')
    assert "head 1 owns columns 0:d_k" in text  # code indices said to be code
    big = scaling_bug_at_size(512, 8)
    # the old text said the effect was "larger" at this size; the drop in the largest weight is about
    # the same as in the toy layer, so the page now quotes the numbers instead
    assert "the effect is larger" not in text
    ratio = big.score_std_bug / big.score_std
    assert f"falls from {big.score_std:.2f} to {big.score_std_bug:.2f} ({ratio:.3f} of it" in text
    assert f"from {big.right.mean_max_weight[0]:.2f} to {big.bug.mean_max_weight[0]:.2f}" in text


def test_bert_and_the_original_transformer_have_the_same_head_width():
    assert head_width(768, 12) == head_width(512, 8) == solution("6.1")  # the solution's "the same head width"
