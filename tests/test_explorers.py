"""The explorers: their states hold the core's numbers, and in the built page
(offline, no kernel) every control moves by keyboard and mouse, the drawing
changes, and the numbers on screen are the core's numbers for that setting.

Expected values are computed here straight from the core (`saturation`,
`with_temperature`, `trace_attention`, `sentence_trace`), not from the
explorers' own data module, so a wrong state cannot agree with itself.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
import traitlets

from attention_steps import explorers, trace_attention
from attention_steps.explorers import (
    DkExplorer,
    data,
    dk_explorer,
    heads_explorer,
    sentence_explorer,
    temperature_explorer,
    training_explorer,
    who_attends_explorer,
)
from attention_steps.explorers.data import palette
from attention_steps.explorers.fallback import (
    dk_figure,
    heads_figure,
    sentence_figure,
    temperature_figure,
    training_figure,
    who_attends_figure,
)
from attention_steps.heads import small_layer
from attention_steps.learned_attention import attention_maps
from attention_steps.learning_studies import CHAPTER_MODELS, train_referent_model
from attention_steps.referents import (
    ANIMAL_POSITION,
    IT_POSITION,
    PLACE_POSITION,
    PRONOUNS,
    SOURCE,
    SOURCE_TWIN,
    referents_corpus,
    sentence_words,
)
from attention_steps.scaling import (
    divisor,
    entropy,
    gradient_size,
    histogram,
    raw_gradient_size,
    saturation,
    score_samples,
    with_temperature,
)
from attention_steps.sentence import sentence_trace
from attention_steps.tiny_model import forward
from conftest import HTML, SETTLED, TIMEOUT_MS, assert_raises_naming

ROUNDING = 0.5e-6 + 1e-12  # the states keep 6 decimals (a tie rounds either way)
SIGNIFICANT = 0.5e-5 + 1e-12  # gradient sizes keep 6 significant figures: relative error ≤ 5e-6


@pytest.fixture(scope="module")
def dk():
    return data.dk_states()


# ----------------------------------------------------------------------------- states = core
@pytest.mark.parametrize("d_k", [1, 16, 1024])
@pytest.mark.parametrize("strategy", ["none", "d_k", "sqrt_d_k"])
def test_dk_states_are_saturation(dk, d_k, strategy):
    i = dk["d_k"].index(d_k)
    state, sat = dk["states"][strategy][i], saturation(d_k, strategy)
    np.testing.assert_allclose(state["weights"], sat.weights, atol=ROUNDING, rtol=0)
    np.testing.assert_allclose(state["scores"], sat.scaled_scores, atol=ROUNDING, rtol=0)
    for key, value in [
        ("max_weight", sat.max_weight),
        ("entropy", sat.entropy),
        ("mean_max_weight", sat.mean_max_weight),
        ("mean_entropy", sat.mean_entropy),
    ]:
        assert state[key] == pytest.approx(value, abs=ROUNDING), key
    # gradient sizes are with respect to the RAW scores q·k: ‖J(a)‖ / c, the chain factor 1/c included
    c = divisor(d_k, strategy)
    assert state["gradient"] == pytest.approx(
        float(np.linalg.norm(np.diag(sat.weights) - np.outer(sat.weights, sat.weights))) / c, rel=SIGNIFICANT
    )
    assert state["median_gradient"] == pytest.approx(float(np.median(sat.gradients)), rel=SIGNIFICANT)
    scaled = score_samples(d_k) / divisor(d_k, strategy)
    assert state["std"] == pytest.approx(scaled.std(), abs=ROUNDING)
    counts, _ = np.histogram(scaled, bins=data.BINS, range=(-data.SCALED_LIMIT, data.SCALED_LIMIT))
    np.testing.assert_allclose(state["hist"]["fractions"], counts / scaled.size, atol=ROUNDING)
    assert state["hist"]["below"] == pytest.approx(np.mean(scaled < -data.SCALED_LIMIT), abs=ROUNDING)


def test_dk_covers_every_power_of_two(dk):
    assert dk["d_k"] == [2**i for i in range(11)]
    assert {s["key"] for s in dk["strategies"]} == {"none", "d_k", "sqrt_d_k"}
    assert all(len(v) == len(dk["d_k"]) for v in dk["states"].values())


def test_dk_raw_histogram_is_of_the_raw_scores(dk):
    i = dk["d_k"].index(256)
    raw = score_samples(256)
    assert dk["raw"][i]["limit"] == pytest.approx(4 * math.sqrt(256))
    assert dk["raw"][i]["std"] == pytest.approx(raw.std(), abs=ROUNDING)
    mass = sum(dk["raw"][i]["fractions"]) + dk["raw"][i]["below"] + dk["raw"][i]["above"]
    assert mass == pytest.approx(1, abs=1e-4)


def test_the_saturation_story_is_in_the_states(dk):
    """No scaling saturates, ÷d_k flattens towards uniform, ÷√d_k stays put."""
    last = {s: v[-1]["mean_max_weight"] for s, v in dk["states"].items()}
    assert last["none"] > 0.9
    assert last["d_k"] < 1.2 / dk["n_keys"]
    assert 0.25 < last["sqrt_d_k"] < 0.5


def test_score_samples_are_what_saturation_draws():
    np.testing.assert_array_equal(
        score_samples(32, n_keys=5, n_queries=7, seed=3)[0],
        saturation(32, "none", n_keys=5, n_queries=7, seed=3).raw_scores,
    )


def test_histogram_counts_everything_once():
    values = np.array([-5.0, -1.0, 0.0, 0.5, 1.0, 3.0])
    hist = histogram(values, limit=1.0, bins=2)
    assert hist.below == pytest.approx(1 / 6) and hist.above == pytest.approx(1 / 6)
    np.testing.assert_allclose(hist.fractions, [1 / 6, 3 / 6])  # [-1, 0) and [0, 1]
    np.testing.assert_allclose(hist.edges, [-1, 0, 1])
    with pytest.raises(ValueError, match="limit"):
        histogram(values, limit=0)


def test_temperature_states_are_with_temperature():
    scores = saturation(64, "sqrt_d_k").scaled_scores
    w = temperature_explorer(figure=False)
    assert w.data["temperatures"][w.temperature_index] == 1.0
    for T, state in zip(w.data["temperatures"], w.data["states"]):
        a = with_temperature(scores, T)
        np.testing.assert_allclose(state["weights"], a, atol=ROUNDING, rtol=0)
        assert state["entropy"] == pytest.approx(entropy(a), abs=ROUNDING)
        assert state["gradient"] == pytest.approx(gradient_size(a) / T, rel=SIGNIFICANT)  # ‖∂a/∂s‖ = ‖J‖ / T
    temps = w.data["temperatures"]
    assert temps == sorted(temps) and temps[0] <= 0.05 and temps[-1] >= 20
    with pytest.raises(ValueError, match="labels"):
        data.temperature_states([1.0, 2.0], ["a"])


def test_heads_states_are_trace_attention():
    w = heads_explorer(figure=False)
    layer = small_layer(d_model=16, num_heads=1)
    assert w.data["head_counts"] == [1, 2, 4, 8, 16] and w.data["d_model"] == 16
    for state in w.data["states"]:
        t = trace_attention(layer.X, layer.W_Q, layer.W_K, layer.W_V, num_heads=state["h"])
        assert state["d_k"] == 16 // state["h"] == t.d_k
        np.testing.assert_allclose(state["maps"], t.A, atol=0.5e-4, rtol=0)


def test_who_attends_states_are_the_sentence_trace():
    w = who_attends_explorer(figure=False)
    tokens, t = sentence_trace()
    assert w.data["tokens"] == tokens and tokens[w.token] == "it"
    np.testing.assert_allclose(w.data["A"], t.A, atol=0.5e-4, rtol=0)
    assert tokens[int(np.argmax(w.weights[0]))] == "animal"  # the coreference head: it → animal


def test_widgets_refuse_positions_they_do_not_have():
    with pytest.raises(ValueError, match="d_k must be one of"):
        dk_explorer(d_k=3, figure=False)
    with pytest.raises(ValueError, match="strategy"):
        dk_explorer(strategy="sqrt", figure=False)
    with pytest.raises(ValueError, match="token"):
        who_attends_explorer(token="dog", figure=False)
    w = DkExplorer(data={"d_k": [1, 2], "states": {}}, d_k_index=1)
    with pytest.raises(traitlets.TraitError, match="d_k_index"):
        w.d_k_index = 2
    with pytest.raises(traitlets.TraitError, match="strategy"):
        w.strategy = "half"


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: heads_explorer(4, d_model=12, figure=False),
            ValueError,
            ["d_model must be a multiple of 16", "[1, 2, 4, 8, 16]", "got d_model=12", "8 and 16 do not divide"],
        ),
        (lambda: heads_explorer(4, d_model=24, figure=False), ValueError, ["d_model=24", "16 does not divide"]),
        (
            lambda: heads_explorer(4, layer=small_layer(d_model=8), figure=False),
            ValueError,
            ["layer.X", "multiple of 16 columns", "(6, 8)"],
        ),
        (lambda: heads_explorer(3, figure=False), ValueError, ["h must be one of", "[1, 2, 4, 8, 16]", "got 3"]),
        (lambda: heads_explorer("4", figure=False), TypeError, ["h must be a number of heads", "got '4' (str)"]),
        (
            lambda: temperature_explorer("3 1 0", figure=False),
            TypeError,
            ["scores must be numbers (a list or an array)", "the string '3 1 0'"],
        ),
        (lambda: temperature_explorer([[1, 2], [3, 4]], figure=False), ValueError, ["scores", "1 dimension", "(2, 2)"]),
        (
            lambda: temperature_explorer(temperature="1", figure=False),
            TypeError,
            ["temperature must be a number", "'1'"],
        ),
    ],
)
def test_explorers_name_a_bad_argument_and_what_is_allowed(call, error, words):
    assert_raises_naming(call, error, words)


def test_heads_explorer_refuses_a_bad_d_model_before_computing(monkeypatch):
    """heads_explorer(4, d_model=12) complained about num_heads=8 from deep inside the states."""

    def computed(*args, **kwargs):
        raise AssertionError("the states were computed before the arguments were checked")

    monkeypatch.setattr(data, "heads_states", computed)
    monkeypatch.setattr(explorers._heads, "small_layer", computed)
    assert_raises_naming(lambda: heads_explorer(4, d_model=12, figure=False), ValueError, ["d_model=12"])


def test_widget_state_follows_its_controls(dk):
    w = dk_explorer(d_k=256, strategy="sqrt_d_k", figure=False)
    assert (w.d_k, w.strategy) == (256, "sqrt_d_k")
    assert w.state["max_weight"] == pytest.approx(saturation(256, "sqrt_d_k").max_weight, abs=ROUNDING)
    assert "export default" in w._esm and "function barsSvg" in w._esm


def test_fallback_figures_describe_their_numbers(dk):
    import matplotlib.pyplot as plt

    _, alt = dk_figure(dk, dk["d_k"].index(64), "none")
    assert f"{saturation(64, 'none').max_weight:.2f}" in alt and "1024" in alt
    w = temperature_explorer(figure=False)
    assert "T = 1" in temperature_figure(w.data, w.temperature_index)[1]
    w = heads_explorer(figure=False)
    assert "d_k = 4" in heads_figure(w.data, w.h_index)[1]
    w = who_attends_explorer(figure=False)
    assert "attends most to animal" in who_attends_figure(w.data, w.token)[1]
    plt.close("all")


# ----------------------------------------------------------------------------- chapter 13's explorers
# What chapter 13 calls: its pointing model of seed 0 watched at every step, the slider's stops, and
# the two-layer model of seed 0 (book/13_learning_to_attend.ipynb).
WATCH_STEPS = [*range(31), *range(40, 201, 10)]


@pytest.fixture(scope="module")
def pointing():
    return train_referent_model(**CHAPTER_MODELS["pointing"], seed=0, checkpoints=201)


@pytest.fixture(scope="module")
def two_layers():
    return train_referent_model(**CHAPTER_MODELS["two layers"], seed=0)


def _pair_rows(trained):
    """(2, n) "it"'s weights in the last layer for the tired and the wide sentence, by trace_attention."""
    corpus = trained.corpus.all
    pair = corpus.subset([corpus.index(*SOURCE), corpus.index(*SOURCE_TWIN)])
    return np.stack([attention_maps(trained, tokens)[-1, 0, IT_POSITION] for tokens in pair.tokens])


@pytest.mark.parametrize("step", [1, 11, 25, 60])
def test_training_states_are_the_model_at_that_step(pointing, step):
    """A run of `step` steps is the first `step` steps of the chapter's run (same seed, same batches):
    its last layer's weights from "it" are the explorer's state at that step."""
    w = training_explorer(pointing, steps=WATCH_STEPS, figure=False)
    state = w.data["states"][w.data["steps"].index(step)]
    short = train_referent_model(**CHAPTER_MODELS["pointing"], seed=0, steps=step)
    rows = _pair_rows(short)
    np.testing.assert_allclose(state["weights"], rows, atol=0.5e-4 + 1e-12, rtol=0)
    assert state["answer"] == rows.argmax(axis=1).tolist()
    np.testing.assert_allclose(w.data["loss"][:step], short.run.history["loss"], rtol=SIGNIFICANT)


def test_training_explorer_shows_it_learning_to_point(pointing):
    """What the chapter's prose and notes say the slider shows: before training "it" points at the same
    word in both sentences, not a noun; later at the two nouns, the same one; at the end each at its referent."""
    w = training_explorer(pointing, steps=WATCH_STEPS, figure=False)
    d = w.data
    assert d["steps"] == WATCH_STEPS and (w.step, d["total_steps"]) == (200, 200)
    assert d["sentences"] == [sentence_words(*SOURCE), sentence_words(*SOURCE_TWIN)]
    assert d["referents"] == [ANIMAL_POSITION, PLACE_POSITION]
    answers = [s["answer"] for s in d["states"]]
    assert answers[0][0] == answers[0][1] and answers[0][0] not in (ANIMAL_POSITION, PLACE_POSITION)
    nouns = {ANIMAL_POSITION, PLACE_POSITION}
    same_noun = [i for i, a in enumerate(answers) if a[0] == a[1] and a[0] in nouns]
    right = [i for i, a in enumerate(answers) if a == d["referents"]]
    assert same_noun and right and same_noun[0] < right[0] and all(a == d["referents"] for a in answers[right[0] :])
    np.testing.assert_allclose(d["states"][-1]["weights"], _pair_rows(pointing), atol=0.5e-4 + 1e-12, rtol=0)
    # every checkpoint of the run, by default; the slider starts at the last
    assert training_explorer(pointing, figure=False).data["steps"] == list(range(201))
    assert training_explorer(pointing, step=0, steps=WATCH_STEPS, figure=False).step_index == 0


def test_sentence_states_are_the_models_reading(pointing, two_layers):
    w = sentence_explorer({"two layers": two_layers, "pointing": pointing}, figure=False)
    d = w.data
    assert (w.animal, w.place, w.adjective, w.model) == (*SOURCE, "two layers")
    corpus = referents_corpus()
    held = {tuple(s) for s in corpus.held_out.words}
    assert sum(d["held_out"]) == len(corpus.held_out) and len(d["held_out"]) == len(corpus.all)
    for animal, place, adjective in [SOURCE, SOURCE_TWIN, ("dog", "bridge", "wide"), ("cow", "park", "sleepy")]:
        w.animal, w.place, w.adjective = animal, place, adjective
        words = sentence_words(animal, place, adjective)
        k = w.sentence
        assert d["held_out"][k] == (tuple(words) in held)
        tokens = corpus.all.tokens[corpus.all.index(animal, place, adjective)]
        for name, trained in (("two layers", two_layers), ("pointing", pointing)):
            w.model = name
            m = next(m for m in d["models"] if m["name"] == name)
            maps = attention_maps(trained, tokens)
            rows = [maps[r["layer"] - 1, r["head"] - 1, IT_POSITION] for r in m["rows"]]
            np.testing.assert_allclose(w.state["A_it"], rows, atol=0.5e-3 + 1e-12, rtol=0)
            answer = int(forward(trained.model, trained.params, tokens[None]).answer[0])
            assert w.state["answer"] == answer
            referent = (
                ANIMAL_POSITION
                if adjective in ("tired", "scared", "weak", "sleepy", "hungry", "lazy")
                else PLACE_POSITION
            )
            assert d["referents"][k] == referent
            if name == "pointing":
                assert m["answers"] == "pointer" and w.state["expected"] == referent
                assert [r["pointing"] for r in m["rows"]] == [False, False, True]
            else:
                assert m["answers"] == "pronoun"
                assert PRONOUNS[w.state["expected"]] == (
                    "il" if words[referent] in ("animal", "dog", "bridge", "park") else "elle"
                )
                assert len(m["rows"]) == 4 and not any(r["pointing"] for r in m["rows"])
    assert ("animal", "street") in {tuple(p) for p in d["noun_pairs"]}
    assert ("animal", "tired") in {tuple(p) for p in d["referent_adjectives"]}


def test_the_sentence_builders_page_state_is_small(pointing, two_layers):
    """Every sentence, both models: the chapter's page stays light (tests/pages/test_13_learning_to_attend.py
    weighs the built page)."""
    w = sentence_explorer({"two layers": two_layers, "pointing": pointing}, figure=False)
    assert len(json.dumps({k: v for k, v in w.data.items() if k != "i18n"})) < 450_000


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda p, t: training_explorer(t, figure=False),
            ValueError,
            ["trained must be a pointing model", "'pronoun'"],
        ),
        (lambda p, t: training_explorer("model", figure=False), TypeError, ["trained must be a trained model", "str"]),
        (
            lambda p, t: training_explorer(p, step=35, steps=WATCH_STEPS, figure=False),
            ValueError,
            ["step must be one of", "got 35"],
        ),
        (
            lambda p, t: training_explorer(p, steps=[0, 300], figure=False),
            ValueError,
            ["steps must be", "[300] not among them"],
        ),
        (
            lambda p, t: training_explorer(p, steps=[20, 10], figure=False),
            ValueError,
            ["steps must be increasing", "[20, 10]"],
        ),
        (
            lambda p, t: sentence_explorer({"pointing": p}, "cat", figure=False),
            ValueError,
            ["animal must be one of", "'cat'"],
        ),
        (
            lambda p, t: sentence_explorer({"pointing": p}, place="sea", figure=False),
            ValueError,
            ["place must be one of", "'sea'"],
        ),
        (
            lambda p, t: sentence_explorer({"pointing": p}, adjective="red", figure=False),
            ValueError,
            ["adjective", "'red'"],
        ),
        (
            lambda p, t: sentence_explorer({"pointing": p}, model="two", figure=False),
            ValueError,
            ["model must be one of", "['pointing']", "'two'"],
        ),
        (lambda p, t: sentence_explorer(p, figure=False), TypeError, ["models must be a dict", "Trained"]),
        (lambda p, t: sentence_explorer({}, figure=False), TypeError, ["models must be a dict", "(empty)"]),
        (
            lambda p, t: sentence_explorer({"x": 3}, figure=False),
            TypeError,
            ["models['x'] must be a trained model", "int"],
        ),
    ],
)
def test_chapter_13_explorers_name_a_bad_argument(pointing, two_layers, call, error, words):
    assert_raises_naming(lambda: call(pointing, two_layers), error, words)


def test_chapter_13_widgets_refuse_what_they_do_not_hold(pointing, two_layers):
    w = sentence_explorer({"two layers": two_layers, "pointing": pointing}, figure=False)
    with pytest.raises(traitlets.TraitError, match="animal must be one of"):
        w.animal = "cat"
    with pytest.raises(traitlets.TraitError, match="model must be one of"):
        w.model = "three layers"
    t = training_explorer(pointing, steps=WATCH_STEPS, figure=False)
    with pytest.raises(traitlets.TraitError, match="step_index"):
        t.step_index = len(WATCH_STEPS)
    assert "function barsSvg" in t._esm and "attention-explorer: training" in t._esm
    assert "attention-explorer: sentence" in w._esm


def test_chapter_13_fallback_figures_describe_their_numbers(pointing, two_layers):
    import matplotlib.pyplot as plt

    t = training_explorer(pointing, steps=WATCH_STEPS, figure=False)
    _, alt = training_figure(t.data, t.step_index)
    assert "step 200" in alt and "“animal” (1.00), right" in alt and "“street” (1.00), right" in alt
    w = sentence_explorer({"two layers": two_layers, "pointing": pointing}, figure=False)
    _, alt = sentence_figure(w.data, "pointing", w.sentence)
    assert "the animal didn't cross the street because it was too tired” (held out)" in alt
    assert "layer 2, pointing: its answer: most on “animal”" in alt and "answers “animal”, right" in alt
    _, alt = sentence_figure(w.data, "two layers", w.sentence)
    assert "It answers “il”, right." in alt
    plt.close("all")


# ----------------------------------------------------------------------------- in the built page
def explorer_page(kind: str):
    """The built page that holds explorer `kind` (its ES module is saved in the page)."""
    marker = f"// attention-explorer: {kind} "
    for path in sorted(HTML.rglob("*.html")):
        if not path.relative_to(HTML).parts[0].startswith("_") and marker in path.read_text(errors="ignore"):
            return str(path.relative_to(HTML))
    return None


def open_explorer(site, offline_page, kind, width=1280):
    page_path = explorer_page(kind)
    if page_path is None:
        pytest.skip(f"no built page holds the {kind} explorer (build the book first)")
    p = offline_page(viewport={"width": width, "height": 900})
    p.page.goto(f"{site}/{page_path}", wait_until="load")
    root = p.page.locator(f".ase-explorer[data-explorer='{kind}']").first
    root.wait_for(timeout=TIMEOUT_MS)
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    return p, root


def shown(root) -> dict:
    """The numbers on screen: {data-key: (data-value, visible text)}."""
    return root.evaluate(
        "r => Object.fromEntries([...r.querySelectorAll('.ase-numbers dd')].map(d => [d.dataset.key, [d.dataset.value, d.textContent]]))"
    )


PALETTE = palette()


def drawing(root) -> str:
    """The drawings on screen (an explorer may keep other states' drawings in the page, hidden
    or laid out but invisible)."""
    return root.evaluate(
        "r => [...r.querySelectorAll('svg')].filter(s => s.getClientRects().length"
        " && getComputedStyle(s).visibility !== 'hidden').map(s => s.innerHTML).join('|')"
    )


def assert_number(numbers, key, expected, digits=3):
    value, text = numbers[key]
    assert float(value) == pytest.approx(expected, abs=ROUNDING), key
    assert f"{float(value):.{digits}f}" in text.replace("−", "-"), (key, text)


def assert_gradient(numbers, key, expected):
    """A gradient size on screen: 3 decimals from 0.001 up, e-notation below (never a bare 0.000)."""
    value, text = numbers[key]
    assert float(value) == pytest.approx(expected, rel=SIGNIFICANT, abs=1e-300), key
    text = text.replace("−", "-")
    if expected >= 0.001 or expected == 0:  # exactly 0 when a weight is exactly 1 in floating point
        assert text == f"{float(value):.3f}", (key, text)
    else:
        assert "e" in text and float(text) == pytest.approx(expected, rel=0.05), (key, text)


def assert_accessible(root):
    """Every control has a label; the numbers are announced."""
    unlabelled = root.evaluate(
        "r => [...r.querySelectorAll('input')].filter(i => !(i.labels && i.labels.length && i.labels[0].textContent.trim())).length"
    )
    assert unlabelled == 0
    assert root.locator(".ase-numbers[aria-live='polite']").count() == 1


def click_range_at(root, fraction):
    """Click the slider's track at `fraction` of its width, as a mouse would."""
    box = root.locator("input[type=range]").bounding_box()
    root.page.mouse.click(box["x"] + 8 + fraction * (box["width"] - 16), box["y"] + box["height"] / 2)


def drive_slider(root, check, keys, click):
    """The slider answers the keyboard and the mouse: check() returns `expected` after each
    (key, expected) of `keys` is pressed on the focused slider, the drawing has changed after
    them, and check() returns `expected` after a click at (fraction, expected) = `click`."""
    before = drawing(root)
    root.locator("input[type=range]").focus()
    for key, expected in keys:
        root.page.keyboard.press(key)
        assert check() == expected, key
    assert drawing(root) != before
    fraction, expected = click
    click_range_at(root, fraction)
    assert check() == expected


def test_dk_explorer_in_the_page(site, offline_page):
    p, root = open_explorer(site, offline_page, "dk")
    assert_accessible(root)

    def check():
        d_k, strategy = int(root.get_attribute("data-d-k")), root.get_attribute("data-strategy")
        sat, numbers = saturation(d_k, strategy), shown(root)
        assert numbers["d_k"][0] == str(d_k)
        assert_number(numbers, "max_weight", sat.max_weight)
        assert_number(numbers, "entropy", sat.entropy)
        assert_gradient(numbers, "gradient", raw_gradient_size(sat.weights, divisor(d_k, strategy)))
        assert_number(numbers, "mean_max_weight", sat.mean_max_weight)
        assert_gradient(numbers, "median_gradient", sat.median_gradient)
        return d_k, strategy

    assert check() == (64, "none")
    keys = [("ArrowRight", 128), ("ArrowLeft", 64), ("ArrowLeft", 32), ("End", 1024), ("Home", 1)]
    drive_slider(root, lambda: check()[0], keys, (0.8, 256))  # 0.8 of the way along 11 positions: d_k = 256
    before = drawing(root)
    root.locator(".ase-choice", has_text="÷ √d_k").click()  # the mouse, on the switch
    assert check() == (256, "sqrt_d_k")
    assert drawing(root) != before
    p.page.keyboard.press("ArrowLeft")  # arrow keys move within the radio group
    assert check()[1] == "d_k"
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_temperature_explorer_in_the_page(site, offline_page):
    p, root = open_explorer(site, offline_page, "temperature")
    assert_accessible(root)
    scores = json.loads(root.get_attribute("data-scores"))  # the input the chapter chose

    def check():
        T, numbers = float(root.get_attribute("data-temperature")), shown(root)
        a = with_temperature(scores, T)
        assert_number(numbers, "max_weight", a.max())
        assert_number(numbers, "entropy", float(entropy(a)))
        assert_number(numbers, "gradient", gradient_size(a) / T)  # ‖∂a/∂s‖ = ‖J‖ / T
        return T

    assert check() == 1.0
    keys = [("ArrowRight", 1.5), ("Home", 0.05), ("ArrowRight", 0.07), ("End", 20.0)]
    drive_slider(root, check, keys, (0.25, 0.2))  # 0.25 of 17 positions: T = 0.2
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_heads_explorer_in_the_page(site, offline_page):
    p, root = open_explorer(site, offline_page, "heads")
    assert_accessible(root)
    layer = small_layer(d_model=16, num_heads=1)

    def check():
        h, numbers = int(root.get_attribute("data-h")), shown(root)
        t = trace_attention(layer.X, layer.W_Q, layer.W_K, layer.W_V, num_heads=h)
        assert numbers["h"][0] == str(h) and numbers["d_k"][0] == str(t.d_k)
        # the maps on screen: one per head (the other numbers of heads wait hidden)
        maps = root.evaluate("""r => [...r.querySelectorAll('.ase-heads.ase-current .ase-head')].map(f => ({
          label: f.querySelector('svg').getAttribute('aria-label'),
          cells: [...f.querySelectorAll('path.ase-cells')].map(p => ({fill: p.getAttribute('fill'), d: p.getAttribute('d')})),
          numbers: [...f.querySelectorAll('text.ase-cell')].map(t => [Number(t.getAttribute('x')), Number(t.getAttribute('y')), t.textContent])}))""")
        assert len(maps) == h
        # the other numbers of heads are laid out in the same place, invisible (and so out of the accessibility tree)
        visible = root.evaluate("""r => [...r.querySelectorAll('.ase-heads')]
            .filter(g => getComputedStyle(g).visibility !== 'hidden').map(g => Number(g.dataset.h))""")
        assert visible == [h]
        # every cell is drawn once, in the palette's colour of the core's weight (rounded as sent)
        n = len(layer.tokens)
        for r, m in enumerate(maps):
            cells = {}
            for band in m["cells"]:
                for x, y, size in re.findall(r"M([\d.]+) ([\d.]+)h([\d.]+)", band["d"]):
                    cells[(float(x), float(y))] = (band["fill"], float(size))
            assert len(cells) == n * n, (r, len(cells))
            xs, ys = sorted({x for x, _ in cells}), sorted({y for _, y in cells})
            size = next(iter(cells.values()))[1]
            for (x, y), (fill, _) in cells.items():
                q, k = round((y - ys[0]) / size), round((x - xs[0]) / size)
                w = t.A[r, q, k]
                allowed = {PALETTE[min(63, math.floor(v * 63 + 0.5))] for v in (w - 0.5e-4, w, w + 0.5e-4)}
                assert fill in allowed, (h, r, q, k, w, fill)
            # the numbers written on the cells (up to 4 heads): the weight, 2 decimals, on its cell
            if h <= 4:
                assert len(m["numbers"]) == n * n
                for x, y, text in m["numbers"]:
                    q, k = round((y - size / 2 - 3.5 - ys[0]) / size), round((x - size / 2 - xs[0]) / size)
                    assert float(text.replace("−", "-")) == pytest.approx(t.A[r, q, k], abs=0.005 + 0.5e-4 + 1e-9)
            else:
                assert m["numbers"] == []
            # the screen reader's description: each token's largest weight
            assert m["label"].startswith(f"Head {r + 1} of {h}: ")
            for q in range(n):
                assert f"{t.A[r, q].max():.2f}" in m["label"]
        return h

    assert check() == 4
    drive_slider(root, check, [("ArrowRight", 8), ("End", 16), ("Home", 1), ("ArrowRight", 2)], (1.0, 16))
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_who_attends_explorer_in_the_page(site, offline_page):
    p, root = open_explorer(site, offline_page, "who-attends")
    tokens, t = sentence_trace()

    def check():
        q, numbers = root.get_attribute("data-token"), shown(root)
        i = (
            tokens.index(q)
            if tokens.count(q) == 1
            else int(root.locator("[aria-pressed=true]").get_attribute("data-index"))
        )
        for r in range(t.num_heads):
            row = t.head(r).A[i]
            j = int(np.argmax(row))
            assert float(numbers[f"head{r + 1}"][0]) == pytest.approx(row[j], abs=0.5e-4)
            assert f"“{tokens[j]}” {row[j]:.2f}" == numbers[f"head{r + 1}"][1]
        return i

    assert tokens[check()] == "it"
    assert shown(root)["head1"][1].startswith("“animal”")
    before = drawing(root)
    root.get_by_role("button", name="animal", exact=True).click()  # the mouse
    assert tokens[check()] == "animal"
    assert drawing(root) != before
    p.page.keyboard.press("ArrowRight")  # keyboard: focus stays on the chosen token
    assert tokens[check()] == "didn't"
    p.page.keyboard.press("End")
    assert check() == len(tokens) - 1
    p.page.keyboard.press("Home")
    assert check() == 0
    assert (
        root.evaluate("r => r.contains(document.activeElement) && document.activeElement.getAttribute('aria-pressed')")
        == "true"
    )
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_training_explorer_in_the_page(site, offline_page, pointing):
    """Chapter 13's training slider: at each step, the loss drawn so far and where "it" points in the
    tired and the wide sentence are the run's (the chapter's pointing model of seed 0, watched at every step)."""
    p, root = open_explorer(site, offline_page, "training")
    assert_accessible(root)
    snaps = dict(zip(pointing.run.checkpoints, pointing.run.snapshots))
    loss = pointing.run.history["loss"]
    words = [sentence_words(*SOURCE), sentence_words(*SOURCE_TWIN)]

    def check():
        step, numbers = int(root.get_attribute("data-step")), shown(root)
        rows, answers = np.asarray(snaps[step]["A_it"])[:, -1, 0], snaps[step]["answer"]
        assert numbers["step"][0] == str(step) and numbers["step"][1] == f"{step} of 200"
        if step:
            assert float(numbers["loss"][0]) == pytest.approx(loss[step - 1], rel=SIGNIFICANT)
        else:
            assert numbers["loss"] == ["", "none yet"]
        for r in range(2):
            j = int(answers[r])
            verdict = "right" if j == (ANIMAL_POSITION, PLACE_POSITION)[r] else "wrong"
            assert numbers[f"answer{r + 1}"] == [str(j), f"“{words[r][j]}” {rows[r, j]:.2f}, {verdict}"]
        # the curve so far: one point per step taken (none drawn before the first)
        curve = root.locator("path.ase-loss")
        assert curve.get_attribute("d").count("L") == max(step, 1) - 1
        assert curve.get_attribute("stroke-opacity") == ("1" if step else "0")
        # the bars: each sentence's drawing names every word's weight
        labels = root.evaluate(
            "r => [...r.querySelectorAll('.ase-panel .ase-drawing svg')].slice(1).map(s => s.getAttribute('aria-label'))"
        )
        assert len(labels) == 2
        for r, label in enumerate(labels):
            assert label.startswith(
                f"Step {step}, “… too {words[r][-1]}”: “it” points to “{words[r][int(answers[r])]}”"
            )
        return step

    assert check() == 200
    keys = [("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("End", 200), ("ArrowLeft", 190)]
    stops = WATCH_STEPS
    drive_slider(root, check, keys, (36 / (len(stops) - 1), stops[36]))
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


def test_sentence_explorer_in_the_page(site, offline_page, pointing, two_layers):
    """Chapter 13's sentence builder: for the sentence chosen, every layer's and head's weights from "it"
    drawn, the answer, and the held-out marks are the core's, with the mouse and with the keyboard."""
    p, root = open_explorer(site, offline_page, "sentence")
    assert_accessible(root)
    unlabelled = root.evaluate(
        "r => [...r.querySelectorAll('select')].filter(s => !s.labels[0].textContent.trim()).length"
    )
    assert unlabelled == 0 and root.locator("select").count() == 3
    corpus = referents_corpus()
    held = {tuple(s) for s in corpus.held_out.words}
    models = {"two layers": two_layers, "pointing": pointing}
    slots = {"animal": 1, "place": 5, "adjective": 10}

    def check():
        words, name = root.get_attribute("data-sentence").split(" "), root.get_attribute("data-model")
        trained, chosen = models[name], tuple(root.get_attribute("data-sentence").split(" ")[i] for i in (1, 5, 10))
        one = corpus.all.subset([corpus.all.index(*chosen)])
        assert words == one.words[0]
        assert root.get_attribute("data-held-out") == str(tuple(words) in held).lower()
        answer = int(forward(trained.model, trained.params, one.tokens).answer[0])
        expected = int(trained.targets(one)[0])
        said = (lambda v: words[v]) if trained.model.pointing else (lambda v: PRONOUNS[v])
        numbers = shown(root)
        assert numbers["answer"][0] == said(answer) and numbers["expected"][0] == said(expected)
        assert numbers["right"] == [str(answer == expected).lower(), "right" if answer == expected else "wrong"]
        assert numbers["referent"][0] == one.referent[0]
        # one drawing per layer and head (a pointing layer has one), each naming every word's weight
        labels = root.evaluate(
            "r => [...r.querySelectorAll('.ase-panels .ase-drawing svg')].map(s => s.getAttribute('aria-label'))"
        )
        maps = attention_maps(trained, one.tokens[0])
        rows = [
            (layer, head)
            for layer in range(maps.shape[0])
            for head in range(maps.shape[1])
            if not (trained.model.pointing and layer == maps.shape[0] - 1 and head > 0)
        ]
        assert len(labels) == len(rows)
        for label, (layer, head) in zip(labels, rows):
            for word, w in zip(words, maps[layer, head, IT_POSITION]):
                allowed = {f"{word} {v:.2f}" for v in (w - 0.5e-3, w, w + 0.5e-3)}  # sent with 3 decimals
                assert any(a.replace("-", "−") in label for a in allowed), (layer, head, word, w, label)
        # an option is marked "(held out)" when, with the other two choices, it makes a held-out sentence
        marked = root.evaluate(
            "r => Object.fromEntries([...r.querySelectorAll('select')].map(s => [s.dataset.control,"
            " [...s.options].filter(o => o.textContent.endsWith(' (held out)')).map(o => o.value)]))"
        )
        for slot, i in slots.items():
            options = root.evaluate(
                f"r => [...r.querySelector('select[data-control={slot}]').options].map(o => o.value)"
            )
            expected_marks = [o for o in options if tuple(words[:i] + [o] + words[i + 1 :]) in held]
            assert marked[slot] == expected_marks, slot
        return chosen, name

    assert check() == (SOURCE, "two layers") and root.get_attribute("data-held-out") == "true"
    assert "the animal is never “tired” in training" in root.locator(".ase-status").text_content()
    before = drawing(root)
    root.locator("select[data-control=adjective]").select_option("wide")  # the mouse, on a select
    assert check() == (SOURCE_TWIN, "two layers")
    assert drawing(root) != before
    before = drawing(root)
    root.locator(".ase-choice", has_text="pointing").click()
    assert check() == (SOURCE_TWIN, "pointing")
    assert drawing(root) != before
    root.locator("select[data-control=place]").focus()  # the keyboard: the arrows move a closed select
    p.page.keyboard.press("ArrowDown")
    assert check() == (("animal", "road", "wide"), "pointing")
    root.locator("select[data-control=animal]").select_option("cow")
    root.locator("select[data-control=adjective]").select_option("sleepy")
    assert check()[0] == ("cow", "road", "sleepy")
    assert p.foreign == [] and p.problems == [], (p.foreign, p.problems)


@pytest.mark.parametrize("kind", ["dk", "temperature", "heads", "who-attends", "training", "sentence"])
def test_explorer_fits_a_phone_and_prints_its_figure(site, offline_page, kind):
    """At 375 px nothing overflows sideways; in print the explorer gives way to the static figure."""
    p, root = open_explorer(site, offline_page, kind, width=375)
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert root.evaluate("r => r.scrollWidth <= r.clientWidth + 1")
    output = root.locator("xpath=ancestor::div[contains(@class, 'cell_output')]")
    assert not output.locator("img").first.is_visible()  # on screen: the explorer, not the figure
    p.page.emulate_media(media="print")
    assert output.locator("img").first.is_visible() and not root.is_visible()
