"""Chapter 13's figures (figures/learning.py): each draws what its docstring says from small made-up
numbers, refuses data of the wrong shape naming it, and says in its alt text, in both languages,
the numbers it was drawn from."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from attention_steps import figures
from attention_steps.figures import learning
from attention_steps.i18n import language
from attention_steps.referents import SOURCE, SOURCE_TWIN, TEMPLATE, sentence_words


@pytest.fixture
def shown(monkeypatch):
    """What show_figure was asked to draw: [(Figure, {lang: alt text})]."""
    out = []

    def draw(build, alt):
        alts = {}
        for lang in ("en", "zh_CN"):
            with language(lang):
                alts[lang] = alt() if callable(alt) else alt
        out.append((build(), alts))

    monkeypatch.setattr(figures, "_draw", [draw])
    yield out
    plt.close("all")


def _curves(d_k_values=(16, 64)):
    step = [1, 50, 100, 150]

    def one(a, b):
        return {"step": step, "loss_median": [0.7, 0.3, 0.1, b], "loss_min": [0.6, 0.2, 0.05, b / 2],
                "loss_max": [0.8, 0.4, 0.2, b * 2], "max_weight_median": [a, a + 0.1, a + 0.2, a + 0.3],
                "grad_norm_median": [1, 1, 1, 1], "lr": 0.003}  # fmt: skip

    return {d: {"none": one(0.6, 0.4), "d_k": one(0.1, 0.05), "sqrt_d_k": one(0.3, 0.001)} for d in d_k_values}


def test_the_loss_curves_draw_one_line_and_band_per_model_and_say_the_last_losses(shown):
    losses = {"two layers": np.array([[0.7, 0.1, 0.001], [0.8, 0.2, 0.003]]), "pointing": np.full((2, 3), 0.5)}
    learning.show_loss_curves(losses)
    fig, alt = shown[0]
    ax = fig.axes[0]
    assert len(ax.get_lines()) == 2 and ax.get_yscale() == "log"
    assert "two layers 0.002" in alt["en"] and "pointing 0.5" in alt["en"]
    assert "0.002" in alt["zh_CN"] and alt["zh_CN"] != alt["en"]


def test_the_token_ablation_is_a_layer_by_word_map_naming_each_layers_weakest_word(shown):
    M = np.ones((2, len(TEMPLATE)))
    M[0, 7], M[1, 7], M[0, 1] = 0.62, 0.74, 0.84
    learning.show_token_ablation(M, TEMPLATE)
    fig, alt = shown[0]
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == list(TEMPLATE)
    assert "layer 1: lowest at “it”, 62%" in alt["en"] and "layer 2: lowest at “it”, 74%" in alt["en"]
    assert "62%" in alt["zh_CN"] and "74%" in alt["zh_CN"]
    with pytest.raises(ValueError, match="layer_at_token must be"):
        learning.token_ablation(np.ones((2, 5)), TEMPLATE)


def test_the_pair_of_it_rows_marks_each_referent_and_says_its_weight(shown):
    words = [sentence_words(*SOURCE), sentence_words(*SOURCE_TWIN)]
    rows = np.full((2, 11), 0.01)
    rows[0, 1], rows[1, 5] = 0.9, 0.9
    learning.show_it_weights_pair(rows, words, [1, 5])
    fig, alt = shown[0]
    bars = fig.axes[0].patches
    assert len(bars) == 2 * 11 and bars[0].get_facecolor() != bars[11].get_facecolor()  # a colour per sentence
    assert bars[1].get_height() == 0.9 and bars[11 + 5].get_height() == 0.9
    assert "“tired” it puts 0.90 on “animal”" in alt["en"] and "“wide” it puts 0.90 on “street”" in alt["en"]
    with pytest.raises(ValueError, match="rows must be"):
        learning.it_weights_pair(rows[:1], words, [1, 5])


def test_the_divisors_curves_have_a_panel_per_d_k_and_a_line_per_divisor(shown):
    learning.show_scaling_loss_curves(_curves())
    learning.show_saturation_curves(_curves())
    (loss_fig, loss_alt), (sat_fig, sat_alt) = shown
    assert len(loss_fig.axes) == 2 and len(sat_fig.axes) == 2
    assert all(len(ax.get_lines()) == 3 for ax in loss_fig.axes + sat_fig.axes)
    assert "at d_k = 64" in loss_alt["en"] and "√d_k 0.001" in loss_alt["en"]
    assert "no scaling from 0.60 to 0.90" in sat_alt["en"] and "√d_k from 0.30 to 0.60" in sat_alt["en"]
    assert "0.60" in sat_alt["zh_CN"] and sat_alt["zh_CN"] != sat_alt["en"]


def test_bad_losses_are_refused_naming_the_shape():
    with pytest.raises(ValueError, match=r"loss must be \(seeds, steps\)"):
        learning.loss_curves({"two layers": np.ones(5)})
    with pytest.raises(ValueError, match="at least one model"):
        learning.loss_curves({})
