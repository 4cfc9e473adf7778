"""The notation module: the layer's sizes and shapes, the notation table with its
conventions, and the LaTeX matrix writer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps.notation import ORIGINAL_TRANSFORMER, LayerConfig, bmatrix, layer_shapes, notation_table


def test_original_transformer_sizes():
    cfg = ORIGINAL_TRANSFORMER
    assert (cfg.d_model, cfg.num_heads, cfg.d_k, cfg.d_v) == (512, 8, 64, 64)


def test_layer_shapes_of_the_original_transformer():
    shapes = layer_shapes(ORIGINAL_TRANSFORMER, n=11)
    assert shapes["X"] == (11, 512)
    # no superscript: the whole layer, all 8 heads side by side
    assert shapes["W_Q"] == shapes["W_K"] == shapes["W_V"] == shapes["W_O"] == (512, 512)
    assert shapes["Q"] == shapes["K"] == shapes["V"] == shapes["Z_cat"] == shapes["Y"] == (11, 512)
    assert shapes["A"] == (8, 11, 11)
    # ⁽ʳ⁾: one head's
    assert shapes["W_Q⁽ʳ⁾"] == shapes["W_K⁽ʳ⁾"] == shapes["W_V⁽ʳ⁾"] == (512, 64)
    assert shapes["Q⁽ʳ⁾"] == shapes["K⁽ʳ⁾"] == shapes["V⁽ʳ⁾"] == shapes["Z⁽ʳ⁾"] == (11, 64)
    assert shapes["QKᵀ⁽ʳ⁾"] == shapes["S⁽ʳ⁾"] == shapes["A⁽ʳ⁾"] == (11, 11)
    assert shapes["W_O⁽ʳ⁾"] == (64, 512)
    assert "Z" not in shapes  # one head's Z⁽ʳ⁾ or all heads' Z_cat, never an ambiguous Z


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), d_k=st.integers(1, 5), h=st.integers(1, 4))
def test_layer_shapes_follow_the_formulas(n, d_k, h):
    cfg = LayerConfig(d_model=d_k * h, num_heads=h)
    s = layer_shapes(cfg, n)
    assert s["Q⁽ʳ⁾"] == (n, d_k) and s["QKᵀ⁽ʳ⁾"] == (n, n) and s["Q"] == (n, h * d_k)
    assert s["Z_cat"] == (n, h * d_k) and s["W_O"] == (h * d_k, d_k * h)


def test_every_symbol_has_a_row_in_the_table():
    table = notation_table(ORIGINAL_TRANSFORMER, n=11, conventions=False)
    rows = table.splitlines()[2:]
    assert len(rows) == 18
    assert any(r.startswith("| $W^O$") and r.endswith("= 512\u00a0×\u00a0512 |") for r in rows)
    # the whole layer's W_Q and head r's W_Q⁽ʳ⁾ have a row each, with their own shapes
    assert any(r.startswith("| $W_Q, W_K, W_V$") and r.endswith("= 512\u00a0×\u00a0512 |") for r in rows)
    assert any(r.startswith("| $W_Q^{(r)}") and r.endswith("= 512\u00a0×\u00a064 |") for r in rows)
    assert not any(r.startswith("| $Z$") for r in rows)


def test_the_conventions_are_stated_under_the_table():
    text = notation_table(ORIGINAL_TRANSFORMER, n=11)
    assert text.startswith(notation_table(ORIGINAL_TRANSFORMER, n=11, conventions=False))
    for phrase in (
        "without a superscript is the whole layer",
        "counts from 1",
        "Python counts from 0",
        "`t.head(r - 1)`",
        "`t.A[r - 1][i - 1, j - 1]`",
        '`t["Z⁽¹⁾"]`',
    ):
        assert phrase in text, phrase


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"d_model": 10, "num_heads": 3}, ValueError),
        ({"d_model": 0, "num_heads": 1}, ValueError),
        ({"d_model": 8.0, "num_heads": 2}, TypeError),
    ],
)
def test_layer_config_rejects_bad_sizes(kwargs, error):
    with pytest.raises(error, match="d_model|num_heads"):
        LayerConfig(**kwargs)


def test_bmatrix():
    assert bmatrix([[2, 0], [-0.0, 3]]) == r"\begin{bmatrix} 2 & 0 \\ 0 & 3 \end{bmatrix}"
    assert bmatrix([0.6412, 1], "{:.2f}") == r"\begin{bmatrix} 0.64 & 1.00 \end{bmatrix}"
    with pytest.raises(ValueError, match="M"):
        bmatrix(np.zeros((2, 2, 2)))
