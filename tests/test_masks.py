"""Masks: an empty mask row is reported by its index and its token number, and a
large negative score gives the masked softmax's weights exactly (chapter 9's claim)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import causal_mask, scaled_dot_product_attention, softmax
from attention_steps.masks import masked_softmax


def test_an_empty_mask_row_is_named_by_index_and_by_token_number():
    bad = causal_mask(3)
    bad[1] = False
    with pytest.raises(ValueError, match=r"query at index 1 \(token 2 counting from 1\)"):
        scaled_dot_product_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), mask=bad)


def test_a_large_negative_score_gives_the_same_weights_as_minus_infinity():
    # chapter 9: "real implementations often use a very large negative number instead; the weight is
    # then 0 to every digit a float can hold"
    S = np.array([[0.3, 2.0, -1.0], [1.5, 0.2, 0.7], [2.0, 0.0, 1.0]])
    keep = causal_mask(3)
    for dtype in (np.float32, np.float64):
        big_negative = softmax(np.where(keep, S, -1e9).astype(dtype))
        assert np.all(big_negative[~keep] == 0)
        np.testing.assert_array_equal(big_negative, masked_softmax(S.astype(dtype), keep))
