"""Chapter 10 (cross-attention): the built page shows the cross-attention weights the
core computes, defines teacher forcing by the correct targets, and its speaker notes
state no number a test does not check."""

from __future__ import annotations

import pytest

from attention_steps import trace_attention
from attention_steps.examples import translation
from reader import page, unchecked_note_lines

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def test_chapter_10_page_shows_the_cross_attention_weights():
    text = page("10_cross_attention").text
    t = translation()
    head = trace_attention(t.X_tgt, t.W_Q, t.W_K, t.W_V, X_kv=t.X_src).head(0)
    A = head.A
    row = t.position_predicting("猫")  # 爱's position: teacher forcing
    assert t.inputs[row] == "爱"
    assert f"weight {A[row, 2]:.2f} on “cats”" in text or f'weight {A[row, 2]:.2f} on "cats"' in text
    assert f"comes from position {row + 1}, where the decoder reads 爱" in text
    assert f"{A[-1, 0]:.2f} on each source word" in text
    assert f"is {A.shape[0]} × {A.shape[1]}" in text
    assert f"{head.Z[row, 2]:.2f} in the animal column" in text
    # The old story, 猫's own query finding "cats", is gone.
    assert "When the decoder is at 猫" not in text and "its query finds" not in text


def test_chapter_10_defines_teacher_forcing_by_the_correct_targets():
    # Teacher forcing is feeding the correct previous tokens instead of the model's own guesses;
    # the shift to the right is how that is arranged. The old text named only the shift, and
    # "reads the token before and must predict the next one" left unclear which one.
    text = page("10_cross_attention").text
    assert "not its own guesses (teacher forcing)" in text
    assert "reads the token before and must predict the next one" not in text
    t = translation()
    for pos in range(1, len(t.inputs)):  # "position t reads target t − 1", 1-based
        assert t.inputs[pos] == t.targets[pos - 1]


def test_chapter_10_notes_state_no_unchecked_numbers():
    assert not unchecked_note_lines("10_cross_attention", set())
