"""The heads module (chapters 6–7: head width, splitting and concatenating, the √d_model
scaling bug, each head's share of the output), against an independent reference and the
properties it promises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from attention_steps import concat_heads, scale, scores, softmax, split_heads, trace_attention
from attention_steps.heads import (
    head_contributions,
    head_width,
    output_blocks,
    scaling_bug_at_size,
    sharpness,
    small_layer,
    weights_with_sqrt_d_model_bug,
)


def test_paper_head_width():
    assert head_width(512, 8) == 64
    with pytest.raises(ValueError, match="num_heads=3 must divide d_model=512"):
        head_width(512, 3)


def test_bug_equals_scaling_each_head_by_sqrt_d_model_in_the_reference():
    layer = small_layer()
    A_bug = weights_with_sqrt_d_model_bug(layer.X, layer.W_Q, layer.W_K, layer.num_heads)
    Q, K = layer.X @ layer.W_Q, layer.X @ layer.W_K
    d_k = head_width(layer.d_model, layer.num_heads)
    for r in range(layer.num_heads):
        cols = slice(r * d_k, (r + 1) * d_k)
        # the reference scales by √(its query width): stretch the queries by √(d_k / d_model) to imitate the bug
        _, A_ref = reference.attention_rows(
            (Q[:, cols] * np.sqrt(d_k / layer.d_model)).tolist(), K[:, cols].tolist(), np.eye(len(Q)).tolist()
        )
        np.testing.assert_allclose(A_bug[r], A_ref, atol=1e-12)


def test_bug_is_flatter_than_the_correct_weights():
    layer = small_layer()
    right = sharpness(trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads).A)
    bug = sharpness(weights_with_sqrt_d_model_bug(layer.X, layer.W_Q, layer.W_K, layer.num_heads))
    assert np.all(bug.mean_entropy > right.mean_entropy)
    assert np.all(bug.mean_max_weight < right.mean_max_weight)


def test_one_head_has_no_bug():
    layer = small_layer(num_heads=1)
    np.testing.assert_allclose(
        weights_with_sqrt_d_model_bug(layer.X, layer.W_Q, layer.W_K, 1),
        trace_attention(layer.X, *layer.weights, num_heads=1).A,
    )


def test_bug_at_paper_size_shrinks_scores_by_sqrt_h():
    b = scaling_bug_at_size(512, 8)
    assert b.d_k == 64
    assert b.score_std == pytest.approx(1.0, abs=0.05)
    assert b.score_std / b.score_std_bug == pytest.approx(np.sqrt(8), rel=1e-9)
    assert b.bug.mean_max_weight[0] < b.right.mean_max_weight[0]


def test_bug_shrinks_the_score_spread_by_exactly_one_over_sqrt_h():
    for h in (2, 4, 8, 16):
        big = scaling_bug_at_size(512, h)
        assert big.score_std_bug / big.score_std == pytest.approx(1 / np.sqrt(h), rel=1e-12)


def test_sharpness_extremes():
    uniform, onehot = np.full((1, 2, 4), 0.25), np.tile(np.eye(4)[:2], (1, 1, 1))
    assert sharpness(uniform).mean_entropy[0] == pytest.approx(np.log(4))
    assert sharpness(uniform).mean_max_weight[0] == pytest.approx(0.25)
    assert sharpness(onehot).mean_entropy[0] == 0 and sharpness(onehot).mean_max_weight[0] == 1


@settings(max_examples=40)
@given(h=st.sampled_from([1, 2, 4, 8]), seed=st.integers(0, 10_000))
def test_concat_then_W_O_is_the_sum_of_head_shares(h, seed):
    layer = small_layer(d_model=8, num_heads=h, seed=seed)
    t = trace_attention(layer.X, *layer.weights, num_heads=h)
    shares = head_contributions(t.Z_heads, layer.W_O)
    np.testing.assert_allclose(shares.sum(axis=0), t.Y, atol=1e-12)
    blocks = output_blocks(layer.W_O, h)
    np.testing.assert_array_equal(np.concatenate(blocks, axis=0), layer.W_O)
    np.testing.assert_allclose(concat_heads(t.Z_heads), t.Z_cat)


def test_split_then_stage_functions_match_trace():
    layer = small_layer()
    h = layer.num_heads
    Q, K = split_heads(layer.X @ layer.W_Q, h), split_heads(layer.X @ layer.W_K, h)
    A = softmax(scale(scores(Q, K), head_width(layer.d_model, h)))
    np.testing.assert_allclose(A, trace_attention(layer.X, *layer.weights, num_heads=h).A)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: output_blocks(np.ones((6, 4)), 4), ValueError, "num_heads=4 must divide the 6 rows"),
        (lambda: head_contributions(np.ones((2, 3, 2)), np.ones((5, 4))), ValueError, "W_O"),
        (lambda: small_layer(d_model=8, num_heads=3), ValueError, "num_heads=3"),
        (lambda: small_layer(gain=0), ValueError, "gain"),
        (lambda: sharpness(np.ones(3)), ValueError, "A"),
        (
            lambda: weights_with_sqrt_d_model_bug(np.ones((2, 6)), np.ones((6, 6)), np.ones((6, 6)), 4),
            ValueError,
            "num_heads=4",
        ),
    ],
)
def test_heads_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_head_figures_number_columns_and_rows_from_one_like_the_text():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from attention_steps.figures.heads import head_bands, stacked_parts

    layer = small_layer()
    Q = layer.X @ layer.W_Q
    fig = head_bands(Q, "Q", layer.num_heads, row_labels=layer.tokens)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == [str(c) for c in range(1, Q.shape[1] + 1)]  # used to be 0 … d_model − 1
    fig_rows = head_bands(layer.W_O, "W_O", layer.num_heads, axis=0)
    assert [t.get_text() for t in fig_rows.axes[0].get_yticklabels()][0] == "1"
    fig_parts = stacked_parts(np.ones((2, 3)), ["head 1", "head 2"])
    assert [t.get_text() for t in fig_parts.axes[0].get_xticklabels()] == ["1", "2", "3"]
    plt.close("all")


def test_split_heads_gives_head_r_the_columns_its_docstrings_name():
    # the docstrings said "head r gets columns [r·d, (r+1)·d)", 0-based r, against the book's
    # convention (head r = 1 … h is code index r − 1)
    from attention_steps import multi_head_attention

    M = np.arange(6 * 12, dtype=float).reshape(6, 12)
    h, d = 3, 4
    parts = split_heads(M, h)
    for r in range(1, h + 1):
        assert np.array_equal(parts[r - 1], M[:, (r - 1) * d : r * d])
    for fn in (split_heads, multi_head_attention):
        assert "(r−1)·d" in fn.__doc__ and "[r·d" not in fn.__doc__, fn.__name__
