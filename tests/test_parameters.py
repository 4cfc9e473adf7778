"""Parameter counts of an attention layer, against matrices that really exist."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_steps import multi_head_attention
from attention_steps.heads import small_layer
from attention_steps.parameters import count_entries, parameter_count


def test_original_transformer_layer_has_four_d_model_squared_weights():
    c = parameter_count(512, 8)
    assert (c.d_k, c.d_v) == (64, 64)
    assert c.weights == 4 * 512 * 512 == 1_048_576
    assert c.biases == 0 and c.total == c.weights
    assert c.per_head * 8 == c.weights


def test_biases_add_one_per_output_column():
    c = parameter_count(512, 8, bias=True)
    assert c.biases == 4 * 512
    assert c.total == 4 * 512 * 512 + 4 * 512


@given(d=st.integers(1, 64), h=st.integers(1, 16))
def test_head_count_does_not_change_the_size_when_it_divides_d_model(d, h):
    d_model = d * h
    assert parameter_count(d_model, h).weights == parameter_count(d_model, 1).weights == 4 * d_model**2


@given(d_model=st.integers(1, 40), h=st.integers(1, 5), d_k=st.integers(1, 9), d_v=st.integers(1, 9))
def test_count_matches_the_entries_of_actual_matrices(d_model, h, d_k, d_v):
    rng = np.random.default_rng(0)
    W_Q, W_K = rng.standard_normal((d_model, h * d_k)), rng.standard_normal((d_model, h * d_k))
    W_V, W_O = rng.standard_normal((d_model, h * d_v)), rng.standard_normal((h * d_v, d_model))
    c = parameter_count(d_model, h, d_k=d_k, d_v=d_v, bias=True)
    assert c.weights == count_entries(W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O)
    assert c.biases == h * d_k * 2 + h * d_v + d_model  # b_Q, b_K, b_V, b_O


def test_count_of_a_layer_that_runs():
    layer = small_layer()
    Y, _ = multi_head_attention(layer.X, *layer.weights, num_heads=layer.num_heads)
    assert Y.shape == layer.X.shape
    assert count_entries(W_Q=layer.W_Q, W_K=layer.W_K, W_V=layer.W_V, W_O=layer.W_O) == parameter_count(8, 4).weights


def test_table_rows_add_up():
    rows = parameter_count(512, 8, bias=True).as_rows()
    assert rows[-1][0] == "total"
    assert sum(n for _, _, n in rows[:-1]) == rows[-1][2]
    assert rows[0][1] == "512 × 512"


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(d_model=512, num_heads=7), ValueError, "num_heads=7 does not divide d_model=512"),
        (dict(d_model=0, num_heads=1), ValueError, "d_model"),
        (dict(d_model=512.0, num_heads=8), TypeError, "d_model"),
        (dict(d_model=512, num_heads=True), TypeError, "num_heads"),
        (dict(d_model=512, num_heads=8, d_k=0), ValueError, "d_k"),
        (dict(d_model=512, num_heads=8, bias="yes"), TypeError, "bias"),
    ],
)
def test_bad_input_is_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        parameter_count(**kwargs)


def test_count_entries_needs_arrays():
    with pytest.raises(ValueError, match="at least one"):
        count_entries()
    with pytest.raises(TypeError, match="W_O"):
        count_entries(W_O="not a matrix")
