"""The backward pass (chapter 12) checked three ways: against central finite differences
(to 1e-7 in float64, with masks and cross-attention), by the properties a gradient must have
(masked scores get exactly 0, softmax's rows sum to 0, float32 stays float32), and against
the forward (a small step along −gradient lowers the loss). And the gradient check itself:
it must catch a wrong gradient and name the worst entry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import reference
from attention_steps import (
    causal_mask,
    concat_heads,
    concat_heads_backward,
    gradient_check,
    multi_head_attention,
    multi_head_attention_backward,
    numerical_gradient,
    output_projection_backward,
    projection,
    projection_backward,
    scale,
    scale_backward,
    scaled_dot_product_attention,
    scaled_dot_product_attention_backward,
    scores,
    scores_backward,
    softmax,
    softmax_backward,
    split_heads,
    split_heads_backward,
    weighted_sum,
    weighted_sum_backward,
)
from attention_steps.masks import masked_softmax, random_mask
from attention_steps.softmax_gradients import softmax_jacobian

pytestmark = pytest.mark.unit
TOL = 1e-7  # the bar: every gradient within 1e-7 of central differences, in float64
BOOK = Path(__file__).resolve().parent.parent / "book"


def layer_problem(seed, n=5, n_kv=None, d_model=8, mask=None):
    """X, X_kv (None for self-attention), the four weights, dY, the mask ("causal", "random" or None)."""
    rng = np.random.default_rng(seed)
    cross = n_kv is not None
    n_kv = n_kv if cross else n
    X, X_kv = rng.normal(size=(n, d_model)), rng.normal(size=(n_kv, d_model)) if cross else None
    W = [rng.normal(size=(d_model, d_model)) / np.sqrt(d_model) for _ in range(4)]
    dY = rng.normal(size=(n, d_model))
    masks = {
        None: lambda: None,
        "causal": lambda: causal_mask(n, n_kv),
        "random": lambda: random_mask(n, n_kv, seed=seed),
    }
    return X, X_kv, W, dY, masks[mask]()


def check_layer(seed, h, n=5, n_kv=None, d_model=8, mask=None):
    """gradient_check of multi_head_attention_backward, the loss being Σ Y ⊙ dY (so that ∂L/∂Y = dY)."""
    X, X_kv, (W_Q, W_K, W_V, W_O), dY, m = layer_problem(seed, n, n_kv, d_model, mask)
    inputs = dict(X=X, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O, **({} if X_kv is None else {"X_kv": X_kv}))

    def loss(X, W_Q, W_K, W_V, W_O, X_kv=None):
        return np.sum(multi_head_attention(X, W_Q, W_K, W_V, W_O, h, mask=m, X_kv=X_kv)[0] * dY)

    grads = multi_head_attention_backward(X, W_Q, W_K, W_V, W_O, h, dY, mask=m, X_kv=X_kv)
    assert list(grads) == list(inputs) and all(grads[k].shape == inputs[k].shape for k in inputs)
    return gradient_check(loss, inputs, grads)


# ---------------------------------------------------------------- the whole layer against finite differences
@pytest.mark.parametrize("mask", [None, "causal", "random"])
@pytest.mark.parametrize("n_kv", [None, 7], ids=["self", "cross"])
@pytest.mark.parametrize("h", [1, 2, 4])
def test_multi_head_backward_matches_finite_differences(h, n_kv, mask):
    report = check_layer(seed=h, h=h, n_kv=n_kv, mask=mask)
    assert report.ok, report
    assert report.worst.error < TOL


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**32 - 1),
    h=st.sampled_from([1, 2, 3]),
    d_k=st.integers(1, 3),
    n=st.integers(1, 5),
    n_kv=st.none() | st.integers(1, 6),
    mask=st.sampled_from([None, "causal", "random"]),
)
def test_multi_head_backward_matches_finite_differences_on_random_shapes(seed, h, d_k, n, n_kv, mask):
    if mask == "causal" and n_kv is not None and n_kv < n:
        n_kv = n  # a causal mask needs n_kv >= n
    report = check_layer(seed, h, n=n, n_kv=n_kv, d_model=h * d_k, mask=mask)
    assert report.ok, report


def test_cross_attention_on_X_itself_splits_the_self_attention_gradient_of_X():
    # X_kv=X: the same layer, but "X" is now the queries' share and "X_kv" the keys' and values'
    X, _, W, dY, m = layer_problem(2, mask="causal")
    self_grads = multi_head_attention_backward(X, *W, 2, dY, mask=m)
    cross_grads = multi_head_attention_backward(X, *W, 2, dY, mask=m, X_kv=X)
    np.testing.assert_allclose(cross_grads["X"] + cross_grads["X_kv"], self_grads["X"], rtol=1e-12, atol=1e-14)
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        np.testing.assert_allclose(cross_grads[name], self_grads[name], rtol=1e-12, atol=1e-14)


def test_a_mask_per_head_matches_finite_differences():
    X, _, (W_Q, W_K, W_V, W_O), dY, _ = layer_problem(4)
    per_head = np.stack([causal_mask(5), random_mask(5, 5, seed=1)])  # (h, n, n): head 2 masks its own way

    def loss(X, W_Q, W_K, W_V, W_O):
        return np.sum(multi_head_attention(X, W_Q, W_K, W_V, W_O, 2, mask=per_head)[0] * dY)

    grads = multi_head_attention_backward(X, W_Q, W_K, W_V, W_O, 2, dY, mask=per_head)
    report = gradient_check(loss, dict(X=X, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O), grads)
    assert report.ok, report


def sdpa_problem(seed, shapes, mask=None):
    rng = np.random.default_rng(seed)
    Q, K, V = (rng.normal(size=s) for s in shapes)
    Z, _ = scaled_dot_product_attention(Q, K, V, mask=mask)
    return Q, K, V, rng.normal(size=Z.shape)


@pytest.mark.parametrize(
    "shapes",
    [
        [(4, 3), (6, 3), (6, 2)],  # n_q != n_k
        [(5, 4), (5, 4), (5, 5)],
        [(2, 1, 3, 2), (3, 4, 2), (1, 4, 3)],  # batch axes that broadcast: K and V shared, V by every batch
    ],
    ids=["n_q<n_k", "square", "batch"],
)
@pytest.mark.parametrize("mask", [None, "causal", "random"])
def test_scaled_dot_product_attention_backward_matches_finite_differences(shapes, mask):
    n_q, n_k = shapes[0][-2], shapes[1][-2]
    m = {None: None, "causal": causal_mask(n_q, n_k), "random": random_mask(n_q, n_k, seed=3)}[mask]
    Q, K, V, dZ = sdpa_problem(0, shapes, m)

    def loss(Q, K, V):
        return np.sum(scaled_dot_product_attention(Q, K, V, mask=m)[0] * dZ)

    dQ, dK, dV = scaled_dot_product_attention_backward(Q, K, V, dZ, mask=m)
    assert (dQ.shape, dK.shape, dV.shape) == (Q.shape, K.shape, V.shape)
    report = gradient_check(loss, dict(Q=Q, K=K, V=V), dict(Q=dQ, K=dK, V=dV))
    assert report.ok, report


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mask", [None, "causal", "random"])
def test_one_head_backward_matches_the_loop_reference(seed, mask):
    # tests/reference.py: the chain rule's per-token sums, in loops over plain lists
    m = {None: None, "causal": causal_mask(4, 6), "random": random_mask(4, 6, seed=seed)}[mask]
    Q, K, V, dZ = sdpa_problem(seed, [(4, 3), (6, 3), (6, 2)], m)
    mine = scaled_dot_product_attention_backward(Q, K, V, dZ, mask=m)
    loops = reference.attention_rows_backward(
        Q.tolist(), K.tolist(), V.tolist(), dZ.tolist(), None if m is None else m.tolist()
    )
    for got, expected in zip(mine, loops, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)


# ---------------------------------------------------------------- each stage against finite differences
rng = np.random.default_rng(12)
X3, W4x5 = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 5))  # X with a batch axis: W shared by both
Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
S = rng.normal(size=(3, 5))
MASK = random_mask(3, 5, seed=4)


def dot_with(G):
    """The loss Σ out ⊙ G of an output `out`, whose gradient is G."""
    return lambda out: np.sum(out * G)


STAGES = {
    # name: (forward as a function of named inputs, the inputs, backward(inputs, dOut) -> dict of gradients)
    "projection": (
        lambda X, W: projection(X, W),
        dict(X=X3, W=W4x5),
        lambda i, d: dict(zip(("X", "W"), projection_backward(i["X"], i["W"], d), strict=True)),
    ),
    "output projection": (
        lambda Z_cat, W_O: projection(Z_cat, W_O),
        dict(Z_cat=X3[0], W_O=W4x5),
        lambda i, d: dict(zip(("Z_cat", "W_O"), output_projection_backward(i["Z_cat"], i["W_O"], d), strict=True)),
    ),
    "scores": (
        lambda Q, K: scores(Q, K),
        dict(Q=Q, K=K),
        lambda i, d: dict(zip(("Q", "K"), scores_backward(i["Q"], i["K"], d), strict=True)),
    ),
    "scale": (lambda QK_T: scale(QK_T, 4), dict(QK_T=S), lambda i, d: dict(QK_T=scale_backward(d, 4))),
    "softmax": (lambda S: softmax(S), dict(S=S), lambda i, d: dict(S=softmax_backward(softmax(i["S"]), d))),
    "masked softmax": (
        lambda S: masked_softmax(S, MASK),
        dict(S=S),
        lambda i, d: dict(S=softmax_backward(masked_softmax(i["S"], MASK), d, MASK)),
    ),
    "weighted sum": (
        lambda A, V: weighted_sum(A, V),
        dict(A=softmax(S), V=V),
        lambda i, d: dict(zip(("A", "V"), weighted_sum_backward(i["A"], i["V"], d), strict=True)),
    ),
    "split heads": (lambda M: split_heads(M, 2), dict(M=S[:, :4]), lambda i, d: dict(M=split_heads_backward(d))),
    "concat heads": (
        lambda Z_heads: concat_heads(Z_heads),
        dict(Z_heads=rng.normal(size=(3, 2, 2))),
        lambda i, d: dict(Z_heads=concat_heads_backward(d, 3)),
    ),
}


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_backward_matches_finite_differences(stage):
    forward, inputs, backward = STAGES[stage]
    G = np.random.default_rng(5).normal(size=forward(**inputs).shape)  # dOut: the loss is Σ out ⊙ G
    grads = backward(inputs, G)
    assert {k: g.shape for k, g in grads.items()} == {k: x.shape for k, x in inputs.items()}
    report = gradient_check(lambda **i: dot_with(G)(forward(**i)), inputs, grads)
    assert report.ok, report


def test_the_whole_backward_is_the_stages_backwards_in_reverse():
    # what the chapter shows: the one-head backward, written out from the stages
    dZ = np.random.default_rng(6).normal(size=(3, 2))
    A = softmax(scale(scores(Q, K), 4))
    dA, dV = weighted_sum_backward(A, V, dZ)
    dQ, dK = scores_backward(Q, K, scale_backward(softmax_backward(A, dA), 4))
    for mine, whole in zip((dQ, dK, dV), scaled_dot_product_attention_backward(Q, K, V, dZ), strict=True):
        np.testing.assert_allclose(mine, whole, rtol=1e-12, atol=1e-14)


def test_softmax_backward_is_chapter_4s_jacobian_without_making_it():
    A = softmax(S)
    dA = np.random.default_rng(7).normal(size=S.shape)
    by_jacobian = np.stack([dA[i] @ softmax_jacobian(A[i]) for i in range(len(A))])  # J(a) = diag(a) − aaᵀ
    np.testing.assert_allclose(softmax_backward(A, dA), by_jacobian, atol=1e-14)


# ---------------------------------------------------------------- properties
finite = st.floats(-20, 20, allow_nan=False, allow_infinity=False, width=64)


@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 6)), elements=finite), st.integers(0, 99))
def test_softmax_backward_rows_sum_to_zero(S, seed):
    dA = np.random.default_rng(seed).normal(size=S.shape)
    dS = softmax_backward(softmax(S), dA)
    np.testing.assert_allclose(dS.sum(axis=-1), 0.0, atol=1e-12 * (1 + np.abs(dA).max()))


@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_dV_column_sums_are_dZs(n_q, n_k, d_v, seed):
    """Chapter 12: 1ᵀ dV = 1ᵀ Aᵀ dZ = (A 1)ᵀ dZ = 1ᵀ dZ, since each row of A sums to 1 (columns, not each row)."""
    rng = np.random.default_rng(seed)
    A = softmax(rng.normal(size=(n_q, n_k)))
    dZ = rng.normal(size=(n_q, d_v))
    _, dV = weighted_sum_backward(A, rng.normal(size=(n_k, d_v)), dZ)
    np.testing.assert_allclose(dV.sum(axis=0), dZ.sum(axis=0), atol=1e-12)


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_masked_scores_get_exactly_zero_gradient(n_q, n_k, seed):
    rng = np.random.default_rng(seed)
    S, dA, mask = rng.normal(size=(n_q, n_k)), rng.normal(size=(n_q, n_k)), random_mask(n_q, n_k, seed=seed)
    A = masked_softmax(S, mask)
    dS = softmax_backward(A, dA, mask)
    assert np.all(dS[~mask] == 0.0) and not np.signbit(dS[~mask]).any()  # +0.0, not merely small
    np.testing.assert_allclose(dS.sum(axis=-1), 0.0, atol=1e-12)  # the kept entries still sum to 0
    assert np.all(softmax_backward(A, dA)[~mask] == 0.0)  # A is 0 there: exact without the mask too


def test_under_a_causal_mask_later_tokens_get_nothing_from_the_first_query():
    # Only z_1 enters the loss, and token 1 sees only itself: k_j and v_j for j > 1 get exactly 0.
    Q5, K5, V5 = (np.random.default_rng(8).normal(size=(5, 3)) for _ in range(3))
    dZ = np.zeros((5, 3))
    dZ[0] = 1.0
    dQ, dK, dV = scaled_dot_product_attention_backward(Q5, K5, V5, dZ, mask=causal_mask(5))
    assert np.all(dK[1:] == 0) and np.all(dV[1:] == 0) and np.all(dQ[1:] == 0)
    assert np.any(dV[0] != 0)


@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 4]), st.sampled_from([None, "causal", "random"]))
def test_a_small_step_along_minus_the_gradient_lowers_the_loss(seed, h, mask):
    X, X_kv, W, _, m = layer_problem(seed, n_kv=6 if seed % 2 else None, mask=mask)  # odd seeds: cross-attention
    target = np.random.default_rng(seed + 1).normal(size=X.shape)
    params = dict(X=X, W_Q=W[0], W_K=W[1], W_V=W[2], W_O=W[3], **({} if X_kv is None else {"X_kv": X_kv}))

    def loss(p):
        Y, _ = multi_head_attention(p["X"], p["W_Q"], p["W_K"], p["W_V"], p["W_O"], h, mask=m, X_kv=p.get("X_kv"))
        return 0.5 * np.sum((Y - target) ** 2), Y - target  # L = ½‖Y − T‖², so dY = Y − T

    L, dY = loss(params)
    g = multi_head_attention_backward(*(params[k] for k in ("X", "W_Q", "W_K", "W_V", "W_O")), h, dY, m, X_kv)
    squared = sum(np.sum(g[k] ** 2) for k in params)
    step = 1e-4
    L_after, _ = loss({k: params[k] - step * g[k] for k in params})
    assert L_after < L
    # to first order the loss falls by step · ‖g‖²: the gradient is the steepest direction, to scale
    assert (L - L_after) / (step * squared) == pytest.approx(1.0, abs=0.05)


# ---------------------------------------------------------------- dtypes
def test_float32_in_float32_out():
    f = np.float32
    X, _, W, dY, _ = layer_problem(0)
    grads = multi_head_attention_backward(X.astype(f), *(w.astype(f) for w in W), 2, dY.astype(f))
    assert all(g.dtype == f for g in grads.values())
    np.testing.assert_allclose(grads["W_Q"], multi_head_attention_backward(X, *W, 2, dY)["W_Q"], atol=1e-4)
    Q32, K32, V32, dZ32 = (a.astype(f) for a in sdpa_problem(0, [(3, 2), (4, 2), (4, 3)]))
    assert {g.dtype for g in scaled_dot_product_attention_backward(Q32, K32, V32, dZ32, causal_mask(3, 4))} == {
        np.dtype(f)
    }
    S32 = S.astype(f)
    A32 = softmax(S32)
    singles = [
        *projection_backward(X3.astype(f), W4x5.astype(f), np.ones((2, 3, 5), f)),
        *scores_backward(Q.astype(f), K.astype(f), S32),
        scale_backward(S32, 4),
        softmax_backward(A32, S32),
        softmax_backward(masked_softmax(S32, MASK), S32, MASK),
        *weighted_sum_backward(A32, V.astype(f), np.ones((3, 2), f)),
        split_heads_backward(np.ones((2, 3, 2), f)),
        concat_heads_backward(np.ones((3, 4), f), 2),
    ]
    assert all(g.dtype == f for g in singles)


def test_a_float64_gradient_or_integers_give_float64():
    f = np.float32
    X, _, W, dY, _ = layer_problem(0)
    grads = multi_head_attention_backward(X.astype(f), *(w.astype(f) for w in W), 2, dY)  # dY float64
    assert all(g.dtype == np.float64 for g in grads.values())
    as_float32 = [w.astype(f).astype(np.float64) for w in (X, *W)]  # the same numbers, in float64
    np.testing.assert_allclose(grads["X"], multi_head_attention_backward(*as_float32, 2, dY)["X"], rtol=1e-12)
    dX, dW = projection_backward(np.ones((2, 3), int), np.ones((3, 2), f), np.ones((2, 2), f))
    assert dX.dtype == dW.dtype == np.float64
    assert scale_backward(np.ones((2, 2), int), 4).dtype == np.float64


# ---------------------------------------------------------------- the gradient check itself
def scores_loss_and_grads(d_k=4):
    """A loss of Q and K alone, Σ S ⊙ G with S = QKᵀ / √d_k, and its right gradients."""
    rng = np.random.default_rng(9)
    Qs, Ks, G = rng.normal(size=(4, d_k)), rng.normal(size=(4, d_k)), rng.normal(size=(4, 4))

    def loss(Q, K):
        return np.sum(scale(scores(Q, K), d_k) * G)

    dQ, dK = scores_backward(Qs, Ks, scale_backward(G, d_k))
    return loss, dict(Q=Qs, K=Ks), dict(Q=dQ, K=dK)


def test_gradient_check_passes_a_right_gradient_and_says_so():
    loss, inputs, grads = scores_loss_and_grads()
    report = gradient_check(loss, inputs, grads)
    assert report and report.ok and report.worst.error < TOL
    text = str(report)
    assert text.startswith("gradient check passed") and "Q[" in text and "K[" in text and "1e-07" in text
    assert repr(report) == text  # a notebook shows the report, not the arrays
    np.testing.assert_allclose(report.numerical["Q"], grads["Q"], atol=1e-8)


def test_gradient_check_catches_a_transposed_gradient_and_names_the_worst_entry():
    loss, inputs, grads = scores_loss_and_grads()
    wrong = dict(grads, K=grads["K"].T)  # square, so the shape cannot give it away
    report = gradient_check(loss, inputs, wrong)
    assert not report and not report.ok
    expected_error = np.abs(wrong["K"] - grads["K"]) / np.maximum(1, np.abs(grads["K"]))
    worst = np.unravel_index(np.argmax(expected_error), expected_error.shape)
    assert (report.worst.name, report.worst.index) == ("K", tuple(int(i) for i in worst))
    assert report.worst.error == pytest.approx(expected_error[worst], rel=1e-6)
    assert report.worst_of["Q"].error < TOL  # dQ was right, and the report says so
    text = str(report)
    assert text.startswith(f"gradient check FAILED: K[{worst[0]}, {worst[1]}] is off by") and "BAD K[" in text


def test_gradient_check_reports_in_the_current_language(monkeypatch):
    """The report's words go through attention_steps.i18n: Chinese under set_language("zh_CN"), and a
    notebook's output carries the other language in its metadata, for the book's other edition."""
    import re

    from attention_steps import i18n

    monkeypatch.setattr(i18n, "_current", [])  # set_language below changes this kernel's language only here
    loss, inputs, grads = scores_loss_and_grads()
    report = gradient_check(loss, inputs, dict(grads, K=grads["K"].T))
    english = str(report)
    i18n.set_language("zh_CN")
    chinese = str(report)
    assert chinese.startswith(f"梯度检验未通过：{entry_of(report.worst)} 相差") and "出错 K[" in chinese
    assert "每个梯度中误差最大的元素" in chinese and "解析梯度" in chinese and "有限差分" in chinese
    assert re.findall(r"[A-Za-z]{2,}", chinese) == ["eps"], chinese  # no English word left but the argument's name
    assert str(gradient_check(loss, inputs, grads)).startswith("梯度检验通过：")
    data, metadata = report._repr_mimebundle_()
    assert data == {"text/plain": chinese}
    assert metadata[i18n.METADATA_KEY]["text/plain"] == {"en": english}
    i18n.set_language("en")
    assert str(report) == english and english.startswith("gradient check FAILED")


def entry_of(e) -> str:
    return f"{e.name}[{', '.join(map(str, e.index))}]"


def test_gradient_check_catches_a_forgotten_one_over_sqrt_d_k():
    loss, inputs, grads = scores_loss_and_grads(d_k=4)
    forgot = {name: g * 2 for name, g in grads.items()}  # √4 = 2: the scale's backward left out
    report = gradient_check(loss, inputs, forgot)
    assert not report.ok and report.worst.error > 0.1
    assert report.worst.analytic == pytest.approx(2 * report.worst.numerical, rel=1e-6)


def test_gradient_check_refuses_what_it_cannot_compare():
    loss, inputs, grads = scores_loss_and_grads()
    with pytest.raises(ValueError, match=r"grads\['Q'\] must have the shape of inputs\['Q'\] \(4, 4\); got \(3, 4\)"):
        gradient_check(loss, inputs, dict(grads, Q=grads["Q"][:3]))
    with pytest.raises(KeyError, match="'V', which is not one of the inputs"):
        gradient_check(loss, inputs, dict(grads, V=grads["Q"]))
    with pytest.raises(TypeError, match="one real number"):
        gradient_check(lambda Q, K: scores(Q, K), inputs, grads)
    with pytest.raises(ValueError, match="eps"):
        gradient_check(loss, inputs, grads, eps=0)
    with pytest.raises(ValueError, match="empty"):
        gradient_check(loss, inputs, {})


def test_numerical_gradient_of_a_known_function():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(numerical_gradient(lambda x: np.sum(x**3), x), 3 * x**2, atol=1e-6)
    np.testing.assert_array_equal(x, np.arange(6.0).reshape(2, 3))  # x is not changed
    assert numerical_gradient(lambda x: float(x.sum()), np.ones(3, np.float32)).dtype == np.float64


# ---------------------------------------------------------------- errors and imports
def test_a_wrong_dY_names_both_shapes():
    X, _, W, _, _ = layer_problem(0, n=5, d_model=12)
    with pytest.raises(ValueError) as info:
        multi_head_attention_backward(X, *W, 3, np.ones((5, 11)))
    assert str(info.value) == "dY must have Y's shape (n, d_model) = (5, 12); got (5, 11)"


def test_importing_the_package_loads_numpy_but_no_plotting_or_notebook_library():
    code = "import sys, attention_steps; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", code], cwd=BOOK, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(done.stdout.split())
    assert "numpy" in loaded and "attention_steps" in loaded
    assert not loaded & {"matplotlib", "IPython", "ipywidgets", "anywidget", "sympy", "babel"}, loaded
