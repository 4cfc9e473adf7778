"""The core checks each argument once per public call, then computes unchecked.

One `multi_head_attention` call used to run the array check 29 times (X alone 5 times).
Here every check (`as_matrix` by argument name, `as_mask` as "mask") is counted while one
public function runs; no argument may be checked more than once. The unchecked functions
(`core.attend`, `core.attend_by_stage`, `multihead.split_columns`, `join_columns`) give what
the public ones give.
"""

from collections import Counter

import numpy as np
import pytest

from attention_steps import _validate, core, equivariance, kv_cache, masks, multihead
from attention_steps.masks import causal_mask

MODULES = (_validate, core, multihead, masks, equivariance, kv_cache)


@pytest.fixture
def checks(monkeypatch):
    """A Counter of checks by argument name, filled while the test calls the core."""
    seen = Counter()

    def counting(original, label):
        def counted(*args, **kwargs):
            seen[label(args)] += 1
            return original(*args, **kwargs)

        return counted

    wrappers = {
        "as_matrix": counting(_validate.as_matrix, lambda args: args[0]),
        "as_mask": counting(_validate.as_mask, lambda args: "mask"),
    }
    for module in MODULES:
        for name, wrapper in wrappers.items():
            if hasattr(module, name):
                monkeypatch.setattr(module, name, wrapper)
    return seen


def layer(d_model=8, n=5, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d_model)), *(rng.normal(size=(d_model, d_model)) for _ in range(4))


CALLS = {
    "multi_head_attention": lambda: multihead.multi_head_attention(*layer(), 2, mask=causal_mask(5)),
    "trace_attention": lambda: multihead.trace_attention(*layer(), num_heads=4, mask=causal_mask(5)),
    "trace_attention cross": lambda: multihead.trace_attention(*layer(n=3), num_heads=2, X_kv=layer(n=6)[0]),
    "scaled_dot_product_attention": lambda: core.scaled_dot_product_attention(
        *layer(d_model=4)[1:4], mask=causal_mask(4)
    ),
    "masked_softmax": lambda: masks.masked_softmax(layer()[1], causal_mask(8)),
    "permutation_equivariance": lambda: equivariance.permutation_equivariance(*layer(), num_heads=2),
    "grouped_query_attention": lambda: kv_cache.grouped_query_attention(
        layer()[0],
        layer()[1],
        layer()[2][:, :4],
        layer()[3][:, :4],
        layer()[4],
        num_heads=4,
        num_kv_heads=2,
        mask=causal_mask(5),
    ),
}


@pytest.mark.parametrize("call", CALLS, ids=list(CALLS))
def test_each_argument_is_checked_once_per_public_call(checks, call):
    CALLS[call]()
    assert checks, "no check was counted: the test no longer sees the core's checks"
    twice = {name: count for name, count in checks.items() if count > 1}
    assert not twice, f"{call} checked these arguments more than once: {twice}"


def test_unchecked_functions_compute_what_the_public_functions_do():
    X, W_Q, W_K, W_V, W_O = layer()
    keep = causal_mask(5)
    t = multihead.trace_attention(X, W_Q, W_K, W_V, W_O, num_heads=2, mask=keep)
    Q, K, V = (multihead.split_columns(X @ W, 2) for W in (W_Q, W_K, W_V))
    QK_T, S, A, Z = core.attend_by_stage(Q, K, V, keep)
    assert np.array_equal(A, t.A) and np.array_equal(Z, t.Z_heads) and np.array_equal(S, t.S)
    assert np.array_equal(multihead.join_columns(Z) @ W_O, t.Y)
    assert np.isneginf(S[:, 0, 1:]).all() and (A[:, 0, 1:] == 0).all()
    Z_in_place, A_in_place = core.attend(Q, K, V, np.broadcast_to(keep, (2, 5, 5)))
    assert np.array_equal(Z_in_place, Z) and np.array_equal(A_in_place, A)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("masked", [False, True], ids=["unmasked", "causal"])
def test_attention_in_place_gives_the_stage_by_stage_numbers_bit_for_bit(dtype, masked):
    rng = np.random.default_rng(3)
    Q, K, V = (rng.normal(size=(2, 6, 3)).astype(dtype) for _ in range(3))  # √3 is not exact
    mask = causal_mask(6) if masked else None
    Z, A = core.scaled_dot_product_attention(Q, K, V, mask=mask)
    S = core.scale(core.scores(Q, K), 3)
    A_by_stage = masks.masked_softmax(S, mask) if masked else core.softmax(S)
    assert Z.dtype == A.dtype == dtype
    assert np.array_equal(A, A_by_stage) and np.array_equal(Z, core.weighted_sum(A_by_stage, V))


def test_a_non_finite_entry_is_found_however_large_the_finite_ones():
    big = np.full((4, 3), 1e308)  # the sum overflows, yet every entry is finite
    assert core.softmax(big).shape == (4, 3)
    big[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"S\[2, 1\] is nan"):
        core.softmax(big)
