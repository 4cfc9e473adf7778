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
    temperature_explorer,
    who_attends_explorer,
)
from attention_steps.explorers.data import palette
from attention_steps.explorers.fallback import dk_figure, heads_figure, temperature_figure, who_attends_figure
from attention_steps.heads import small_layer
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


@pytest.mark.parametrize("kind", ["dk", "temperature", "heads", "who-attends"])
def test_explorer_fits_a_phone_and_prints_its_figure(site, offline_page, kind):
    """At 375 px nothing overflows sideways; in print the explorer gives way to the static figure."""
    p, root = open_explorer(site, offline_page, kind, width=375)
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 375
    assert root.evaluate("r => r.scrollWidth <= r.clientWidth + 1")
    output = root.locator("xpath=ancestor::div[contains(@class, 'cell_output')]")
    assert not output.locator("img").first.is_visible()  # on screen: the explorer, not the figure
    p.page.emulate_media(media="print")
    assert output.locator("img").first.is_visible() and not root.is_visible()
