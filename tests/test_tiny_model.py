"""Chapter 13's core, fast parts: the corpus and its held-out split, the tiny model's gradient
(against central differences, to 1e-7 in float64), the batched layer against the book's own
multi_head_attention and its backward, the optimisers' formulas, the training loop's determinism
and progress reports, and the errors bad input gets."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import numpy as np
import pytest

from attention_steps import (
    SGD,
    Adam,
    ProgressLine,
    TinyModel,
    gradient_check,
    init_params,
    loss_and_gradients,
    multi_head_attention,
    multi_head_attention_backward,
    referents_corpus,
    sentence_words,
    softmax_backward,
    train,
)
from attention_steps.batched_layer import layer_backward, layer_forward
from attention_steps.referents import (
    ANIMAL_ADJECTIVES,
    IT_POSITION,
    NOUNS,
    PLACE_ADJECTIVES,
    SOURCE,
    SOURCE_TWIN,
    VOCABULARY,
)
from attention_steps.tiny_model import forward

pytestmark = pytest.mark.unit
TOL = 1e-7
BOOK = Path(__file__).resolve().parent.parent / "book"
CHAPTER_13 = ("referents", "tiny_model", "batched_layer", "_validate_model", "optim", "training",
              "learning_studies", "learned_attention", "scaling_training")  # fmt: skip


# ----------------------------------------------------------------------------- the corpus
def test_the_corpus_is_the_source_sentence_with_its_three_slots_filled():
    c = referents_corpus()
    assert len(c.all) == 8 * 8 * 12 and len(c.train) + len(c.held_out) == len(c.all)
    assert " ".join(sentence_words(*SOURCE)) == "the animal didn't cross the street because it was too tired"
    assert len(ANIMAL_ADJECTIVES) >= 6 and len(PLACE_ADJECTIVES) >= 6 and len(NOUNS) >= 16
    tr = c.train
    assert tr.tokens.shape == (len(tr), 11) and (tr.tokens[:, IT_POSITION] == VOCABULARY.index("it")).all()
    tired, wide = c.all.subset([c.all.index(*SOURCE), c.all.index(*SOURCE_TWIN)]).referent
    assert (tired, wide) == ("animal", "street")
    # il / elle: l'animal is masculine, la rue feminine
    assert c.all.subset([c.all.index(*SOURCE), c.all.index(*SOURCE_TWIN)]).targets("pronoun").tolist() == [0, 1]


def test_held_out_combinations_are_never_trained_on_and_every_word_is():
    c = referents_corpus()
    train = set(zip(c.train.animals, c.train.places, c.train.adjectives))
    held = set(zip(c.held_out.animals, c.held_out.places, c.held_out.adjectives))
    assert not train & held and SOURCE in held and SOURCE_TWIN in held
    assert not {(a, p) for a, p, _ in train} & c.held_out_noun_pairs
    assert not set(zip(c.train.referent, c.train.adjectives)) & c.held_out_referent_adjectives
    assert ("animal", "street") in c.held_out_noun_pairs and ("animal", "tired") in c.held_out_referent_adjectives
    assert set(VOCABULARY) == {w for s in c.train.words for w in s}  # every word is trained on
    assert referents_corpus(0).held_out.words == referents_corpus(0).held_out.words  # seeded


def test_bad_corpus_requests_are_named():
    with pytest.raises(ValueError, match="adjective must be one of"):
        sentence_words("animal", "street", "purple")
    with pytest.raises(ValueError, match="animal must be one of"):
        sentence_words("street", "street", "tired")
    with pytest.raises(ValueError, match="target must be one of"):
        referents_corpus().train.targets("colour")
    with pytest.raises(ValueError, match="noun_pairs_per_animal must be < 8"):
        referents_corpus(noun_pairs_per_animal=8)


# ----------------------------------------------------------------------------- the gradient
def tiny(pointing=False, strategy="sqrt_d_k", layers=2, heads=2, seed=1):
    model = TinyModel(7, 5, 4, heads, layers, None if pointing else 3, 3, strategy, pointing)
    rng = np.random.default_rng(seed)
    tokens = rng.integers(0, 7, size=(3, 5))
    targets = rng.integers(0, 5 if pointing else 3, size=3)
    return model, init_params(model, seed), tokens, targets


@pytest.mark.parametrize(
    "pointing, strategy, layers", [(False, "sqrt_d_k", 2), (False, "none", 1), (False, "d_k", 2), (True, "sqrt_d_k", 2)]
)
def test_the_whole_models_gradient_agrees_with_central_differences(pointing, strategy, layers):
    model, params, tokens, targets = tiny(pointing, strategy, layers)
    loss, grads, _ = loss_and_gradients(model, params, tokens, targets)
    assert list(grads) == list(params) and all(grads[k].shape == params[k].shape for k in params)

    def f(**p):
        return loss_and_gradients(model, p, tokens, targets)[0]

    report = gradient_check(f, params, grads, tol=TOL)
    assert report.ok, str(report)


def test_an_ablated_models_gradient_agrees_too():
    model, params, tokens, targets = tiny()
    ablate = np.zeros((2, 2, 5), dtype=bool)
    ablate[0, 1] = True
    ablate[1, 0, 3] = True
    _, grads, _ = loss_and_gradients(model, params, tokens, targets, ablate)
    report = gradient_check(lambda **p: loss_and_gradients(model, p, tokens, targets, ablate)[0], params, grads)
    assert report.ok, str(report)


def test_the_pointing_loss_gradient_is_chapter_12s_softmax_backward():
    model, params, tokens, targets = tiny(pointing=True)
    fw = forward(model, params, tokens)
    a = fw.pointer  # (B, n) the weights from "it"
    dA = np.zeros_like(a)
    dA[np.arange(3), targets] = -1 / a[np.arange(3), targets] / 3  # ∂(mean −log a_target)/∂a
    direct = a.copy()
    direct[np.arange(3), targets] -= 1
    np.testing.assert_allclose(softmax_backward(a, dA), direct / 3, atol=1e-12)


# ----------------------------------------------------------------------------- the book's layer
def test_the_batched_layer_is_multi_head_attention_sentence_by_sentence():
    rng = np.random.default_rng(0)
    B, n, d, h = 3, 5, 8, 2
    X = rng.normal(size=(B, n, d))
    W = [rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(4)]
    dY = rng.normal(size=(B, n, d))
    Y, cache = layer_forward(X, *W, h, 1.0)
    dX, grads = layer_backward(cache, *W, h, 1.0, dY=dY)
    summed = {k: 0.0 for k in ("W_Q", "W_K", "W_V", "W_O")}
    for b in range(B):
        Y_b, A_b = multi_head_attention(X[b], *W, h)
        np.testing.assert_allclose(Y[b], Y_b, atol=1e-12)
        np.testing.assert_allclose(cache.A[b], A_b, atol=1e-12)
        g = multi_head_attention_backward(X[b], *W, h, dY[b])
        np.testing.assert_allclose(dX[b], g["X"], atol=1e-12)
        summed = {k: summed[k] + g[k] for k in summed}
    for k in summed:  # every sentence used the same weights: their gradients add up
        np.testing.assert_allclose(grads[k], summed[k], atol=1e-12)


def test_a_query_factor_divides_the_scores_by_c():
    rng = np.random.default_rng(1)
    X, W = rng.normal(size=(1, 4, 6)), [rng.normal(size=(6, 6)) for _ in range(4)]

    def heads(M):  # (4, 6) -> (2, 4, 3)
        return M.reshape(4, 2, 3).transpose(1, 0, 2)

    for strategy, c in (("sqrt_d_k", np.sqrt(3)), ("d_k", 3.0), ("none", 1.0)):
        model = TinyModel(5, 4, 6, 2, 1, 2, 0, strategy)
        _, cache = layer_forward(X, *W, 2, model.query_factor)
        S = heads(X[0] @ W[0]) @ heads(X[0] @ W[1]).transpose(0, 2, 1) / c
        A = np.exp(S - S.max(-1, keepdims=True))
        np.testing.assert_allclose(cache.A[0], A / A.sum(-1, keepdims=True), atol=1e-12)


# ----------------------------------------------------------------------------- optimisers and the loop
def test_sgd_and_adam_take_the_steps_their_formulas_say():
    p, g = {"w": np.array([1.0, -2.0])}, {"w": np.array([0.5, -4.0])}
    np.testing.assert_allclose(SGD(lr=0.1).step(p, g)["w"], [0.95, -1.6])
    sgd = SGD(lr=0.1, momentum=0.5)
    p2 = sgd.step(sgd.step(p, g), g)  # v = g, then 0.5 g + g
    np.testing.assert_allclose(p2["w"], p["w"] - 0.1 * g["w"] - 0.1 * 1.5 * g["w"])
    adam = Adam(lr=0.01)
    np.testing.assert_allclose(adam.step(p, g)["w"], p["w"] - 0.01 * np.sign(g["w"]), atol=1e-8)  # step 1: lr·sign(g)
    assert p["w"].tolist() == [1.0, -2.0]  # the input is not changed


def test_optimisers_name_bad_input():
    with pytest.raises(ValueError, match="lr must be a finite number > 0"):
        Adam(lr=0)
    with pytest.raises(ValueError, match="momentum must be in"):
        SGD(momentum=1.0)
    with pytest.raises(KeyError, match="missing \\['b'\\]"):
        Adam().step({"w": np.zeros(2), "b": np.zeros(1)}, {"w": np.zeros(2)})
    with pytest.raises(ValueError, match="grads\\['w'\\] must have params\\['w'\\]'s shape \\(2,\\)"):
        SGD().step({"w": np.zeros(2)}, {"w": np.zeros(3)})
    with pytest.raises(ValueError, match="not finite"):
        SGD().step({"w": np.zeros(2)}, {"w": np.array([np.inf, 0])})


def test_training_is_deterministic_and_reports_its_progress_by_steps():
    model, _, _, _ = tiny()
    rng = np.random.default_rng(2)
    tokens, targets = rng.integers(0, 7, size=(20, 5)), rng.integers(0, 3, size=20)
    calls = []
    runs = [
        train(model, tokens, targets, steps=10, batch_size=8, seed=3, progress=lambda *a: calls.append(a[:2]),
              progress_every=4, checkpoints=3, watch=lambda p: p["W_Q1"].copy())
        for _ in range(2)
    ]  # fmt: skip
    np.testing.assert_array_equal(runs[0].history["loss"], runs[1].history["loss"])
    assert calls[:3] == [(4, 10), (8, 10), (10, 10)] and runs[0].checkpoints == [0, 5, 10]
    assert runs[0].history["max_weight"].shape == (10, 2) and np.all(runs[0].history["grad_norm"] > 0)
    out = io.StringIO()
    train(model, tokens, targets, steps=4, progress=ProgressLine(out), progress_every=2)
    assert out.getvalue().count("\r") == 2 and "step 4/4" in out.getvalue() and out.getvalue().endswith("\n")
    line, out = ProgressLine(io.StringIO()), None
    line.write("about 10 s left")
    line.write("about 0 s left", last=True)  # shorter: padded over the longer one, no "leftt"
    assert line.stream.getvalue() == "\rabout 10 s left\rabout 0 s left \n"


def test_a_diverging_run_stops_and_keeps_finite_parameters():
    model, _, _, _ = tiny(strategy="none")
    rng = np.random.default_rng(0)
    tokens, targets = rng.integers(0, 7, size=(20, 5)), rng.integers(0, 3, size=20)
    run = train(model, tokens, targets, steps=50, lr=1e300, optimiser="sgd")
    assert run.diverged and all(np.isfinite(p).all() for p in run.params.values())


# ----------------------------------------------------------------------------- errors
def test_bad_model_input_is_named_with_its_shape():
    model, params, tokens, targets = tiny()
    with pytest.raises(ValueError, match="tokens must have shape \\(B, n_tokens\\) = \\(B, 5\\); got \\(3, 4\\)"):
        forward(model, params, tokens[:, :4])
    with pytest.raises(ValueError, match="tokens must be ids 0 … 6"):
        forward(model, params, tokens + 7)
    with pytest.raises(KeyError, match="missing \\['W_O2'\\]"):
        forward(model, {k: v for k, v in params.items() if k != "W_O2"}, tokens)
    with pytest.raises(ValueError, match="params\\['E'\\] must have shape \\(7, 4\\)"):
        forward(model, {**params, "E": params["E"][:3]}, tokens)
    with pytest.raises(ValueError, match="targets must be 3 class ids"):
        loss_and_gradients(model, params, tokens, targets[:2])
    with pytest.raises(ValueError, match="ablate must be a bool array of shape \\(layers, heads, tokens\\)"):
        forward(model, params, tokens, ablate=np.zeros((2, 2, 4), bool))
    with pytest.raises(ValueError, match="strategy must be one of"):
        TinyModel(7, 5, 4, 2, 2, 3, 3, "sqrt_d_model")
    with pytest.raises(ValueError, match="num_heads=3 must divide d_model=4"):
        TinyModel(7, 5, 4, 3, 2, 3, 3)
    with pytest.raises(ValueError, match="a pointing model has n_classes=None"):
        TinyModel(7, 5, 4, 2, 2, 3, 3, pointing=True)
    with pytest.raises(ValueError, match="optimiser must be one of"):
        train(model, tokens, targets, optimiser="lion")


def test_chapter_13s_modules_import_no_build_tooling():
    banned = ("editions", "scripts", "sphinx", "myst_nb")
    for name in CHAPTER_13:
        tree = ast.parse((BOOK / "attention_steps" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(n.split(".")[0] in banned for n in names), (name, names)
