"""Chapter 9 (causal masking): the built page shows the masked weights the core
computes, with positions counted from 1."""

from __future__ import annotations

import pytest

from attention_steps import causal_mask, trace_attention
from attention_steps.masks import masked_softmax
from attention_steps.sentence import NUM_HEADS, embed, tokenize, weights
from reader import page

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def test_chapter_9_page_shows_the_masked_weights():
    text = page("09_causal_masking").text
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
    assert (
        f"is {(512 * 511) // 2:,}" in text
    )  # exercise 9.3's solution: n(n − 1)/2 for n = 512, grouped like every count
