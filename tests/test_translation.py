"""Chapter 10's translation example, "I love cats" → "我 爱 猫": teacher forcing.

The decoder reads the target shifted right behind a start token, so the query
that predicts a word sits at the position *before* it. The source articles (and
an earlier version of the book) let 猫's own query find "cats"; these tests fail
on that story.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import causal_mask, trace_attention
from attention_steps.examples import END, START, shift_right, translation
from attention_steps.exercises import check, solution

T = translation()


def _cross():
    return trace_attention(T.X_tgt, T.W_Q, T.W_K, T.W_V, X_kv=T.X_src).head(0)


def test_decoder_inputs_are_the_targets_shifted_right():
    assert T.targets == ("我", "爱", "猫", END)
    assert T.inputs == shift_right(T.targets) == (START, "我", "爱", "猫")
    assert len(T.inputs) == len(T.targets) == T.X_tgt.shape[0]
    # Position t reads target t − 1 (the start token at t = 0): never the token it must predict.
    for t in range(1, len(T.targets)):
        assert T.inputs[t] == T.targets[t - 1]
    assert all(T.inputs[t] != T.targets[t] for t in range(len(T.targets)))


def test_the_query_that_predicts_mao_is_at_ai():
    row = T.position_predicting("猫")
    assert T.inputs[row] == "爱" and T.inputs_pinyin[row] == "ài"
    assert T.prediction_labels[row] == "ài → māo"
    A = _cross().A
    assert T.source[int(A[row].argmax())] == "cats"
    assert A[row, T.source.index("cats")] > 0.75


def test_mao_own_query_does_not_find_cats():
    # The old story: the row of 猫 itself looks for "cats". It must not: it predicts the end token.
    A = _cross().A
    own = T.inputs.index("猫")
    assert T.targets[own] == END
    assert A[own, T.source.index("cats")] < 0.5
    np.testing.assert_allclose(A[own], 1 / len(T.source))  # a zero query: uniform


def test_every_position_finds_the_source_word_of_the_next_target():
    A = _cross().A
    translates = {"我": "I", "爱": "love", "猫": "cats"}
    for row, target in enumerate(T.targets):
        if target in translates:
            assert T.source[int(A[row].argmax())] == translates[target], (row, target)


def test_shapes_in_the_chapter():
    # Chapter 10 prints and comments these shapes.
    assert T.X_src.shape == (3, 4) and T.X_tgt.shape == (4, 4)
    assert T.W_Q.shape == T.W_K.shape == T.W_V.shape == T.enc_W_Q.shape == (4, 4)
    head = _cross()
    assert head.A.shape == (4, 3) and head.Z.shape == (4, 4)


def test_only_the_start_token_has_the_start_column():
    start = T.features.index("start")
    assert [bool(x) for x in T.X_tgt[:, start]] == [tok == START for tok in T.inputs]
    assert not T.X_src[:, start].any()


def test_exercise_10_2_is_the_row_at_ai_and_the_row_of_mao_is_wrong():
    head = _cross()
    # 10.2 and 10.3 read the source reversed: the weights reverse, z does not change
    np.testing.assert_allclose(solution("10.2"), head.A[T.position_predicting("猫")][::-1])
    np.testing.assert_allclose(solution("10.3"), head.Z[T.position_predicting("猫")])
    wrong = check("10.2", head.A[T.inputs.index("猫")][::-1])
    assert not wrong.ok and "爱" in str(wrong)


def test_causal_mask_is_what_keeps_the_decoder_honest():
    # In the decoder's self-attention (chapter 9), position t sees inputs 0 … t only.
    keep = causal_mask(len(T.inputs))
    row = T.position_predicting("猫")
    seen = [tok for tok, k in zip(T.inputs, keep[row]) if k]
    assert seen == [START, "我", "爱"] and "猫" not in seen


@pytest.mark.parametrize(
    "targets, start, error, words",
    [
        ("我爱猫", START, TypeError, "split it first"),
        ((), START, ValueError, "at least one token"),
        (("我", 3), START, TypeError, "strings"),
        (("我",), None, TypeError, "start must be a string"),
    ],
)
def test_shift_right_bad_input(targets, start, error, words):
    with pytest.raises(error, match=words):
        shift_right(targets, start)


def test_position_predicting_unknown_token():
    with pytest.raises(ValueError, match="one of the targets"):
        T.position_predicting("狗")
