"""One palette: a strategy, a head and a token keep one colour in figures, explorers and notes."""

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from attention_steps.explorers import data  # noqa: E402
from attention_steps.explorers.fallback import dk_figure  # noqa: E402
from attention_steps.palette import OKABE_ITO, STRATEGY_STYLES, head_colour  # noqa: E402
from attention_steps.scaling import STRATEGIES  # noqa: E402
from attention_steps.sentence import sentence_trace  # noqa: E402

BOOK = Path(__file__).resolve().parent.parent / "book"
JS = BOOK / "attention_steps" / "explorers" / "js"


def test_every_strategy_has_one_style():
    assert set(STRATEGY_STYLES) == set(STRATEGIES)
    colours = [s.colour for s in STRATEGY_STYLES.values()]
    assert len(set(colours)) == len(colours), "two strategies share a colour"


def test_the_explorers_take_strategy_and_head_colours_from_the_palette():
    states = data.dk_states(n_queries=20, d_k_values=(1, 4))
    assert states["strategy_styles"] == {
        k: {"colour": s.colour_name, "dash": s.svg_dash} for k, s in STRATEGY_STYLES.items()
    }
    heads = data.who_attends_states(*sentence_trace(), head_names=["a", "b", "c"])["head_colours"]
    assert [OKABE_ITO[name] for name in heads] == [head_colour(r) for r in range(len(heads))]
    # No table of strategy or head colours of its own left in the explorers' JavaScript: they read the data.
    for name in ("dk.js", "who_attends.js"):
        text = (JS / name).read_text(encoding="utf-8")
        assert not re.search(r"(none|d_k|sqrt_d_k)\s*:\s*\{\s*colour", text), name
        assert "purple" not in text, name


def test_the_static_explorer_figure_draws_each_strategy_in_its_colour():
    states = data.dk_states(n_queries=20, d_k_values=(1, 4))
    fig, _ = dk_figure(states, 0, "d_k")
    drawn = {line.get_label(): matplotlib.colors.to_hex(line.get_color()).upper() for line in fig.axes[0].lines}
    for key, label in STRATEGIES.items():
        assert drawn[label] == STRATEGY_STYLES[key].colour.upper(), key


def test_the_chapter_3_figure_draws_each_strategy_in_its_colour():
    from attention_steps.scaling import strategy_sweep
    from attention_steps.scaling_figures import strategy_curves

    fig = strategy_curves(strategy_sweep([1, 4], n_queries=20), n_keys=8)
    drawn = {line.get_label(): matplotlib.colors.to_hex(line.get_color()).upper() for line in fig.axes[0].lines}
    for style in STRATEGY_STYLES.values():
        assert drawn[style.tex_label] == style.colour.upper()


def test_speaker_notes_name_each_strategy_by_its_palette_colour():
    # Chapter 3's notes say which colour each strategy is drawn in: the palette's colour name.
    nb = json.loads((BOOK / "03_scaling.ipynb").read_text(encoding="utf-8"))
    notes = "\n".join(
        "".join(c["source"])
        for c in nb["cells"]
        if c.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes"
    )
    said = dict(re.findall(r"(no scaling|÷ d_k|÷ √d_k|Without scaling) \(([a-z ]+)\)", notes))
    assert said, "chapter 3's notes no longer name the strategies' colours; update this test"
    names = {"÷ d_k": "d_k", "÷ √d_k": "sqrt_d_k", "Without scaling": "none", "no scaling": "none"}
    for label, colour in said.items():
        assert colour == STRATEGY_STYLES[names[label]].colour_name, (label, colour)


def test_heads_keep_their_colour():
    assert head_colour(0) == OKABE_ITO["blue"] and head_colour(1) == OKABE_ITO["orange"]
