"""Explorers: widgets a reader moves to watch attention change.

    dk_explorer()            chapter 3: d_k and the three scaling strategies, softmax saturation
    temperature_explorer()   chapter 4: softmax(s / T) as the temperature T moves
    heads_explorer()         chapter 6: h heads share d_model; each head's map and its d_k
    who_attends_explorer()   chapter 8: pick a token, see its weights over the sentence per head
    training_explorer(t)     chapter 13: slide through training, watch the loss fall and "it" learn to point
    sentence_explorer(ms)    chapter 13: build a sentence, see every layer's and head's weights from "it"

How they work everywhere (the static book with no kernel and no network,
JupyterLab / Notebook / VS Code, the slides): Python computes, with the core,
every state each control can reach (`data.py`) and hands them all to an
anywidget (`widgets.py`) whose small JavaScript front end (`js/`) only draws the
state for the current position. The book saves the widget's state in the page,
so the controls keep working after the kernel is gone.

Each function first shows a static figure of the default setting (`fallback.py`,
shown by `figures.show_figure` (the book draws it in every language), so each edition of the book prints
its own) and then returns the widget, which the cell displays after it. The figure is
what print and readers without JavaScript get; when the explorer's front end
runs, its stylesheet hides the figure on screen (and hides the explorer in
print), so an ordinary reader sees only the explorer.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import heads as _heads
from .. import i18n
from .._validate import as_matrix, positive_int
from ..figures import show_figure
from ..scaling import STRATEGIES, saturation
from ..sentence import HEAD_NAMES, sentence_trace
from . import data, fallback
from .widgets import (
    DkExplorer,
    HeadsExplorer,
    SentenceExplorer,
    TemperatureExplorer,
    TrainingExplorer,
    WhoAttendsExplorer,
)

__all__ = [
    "dk_explorer",
    "temperature_explorer",
    "heads_explorer",
    "who_attends_explorer",
    "training_explorer",
    "sentence_explorer",
    "DkExplorer",
    "TemperatureExplorer",
    "HeadsExplorer",
    "WhoAttendsExplorer",
    "TrainingExplorer",
    "SentenceExplorer",
    "data",
]


def _position(values, value, name: str) -> int:
    """Index of `value` among a control's positions, or an error listing them."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a number, one of the explorer's positions {list(values)}, "
            f"got {value!r} ({type(value).__name__})"
        )
    for i, v in enumerate(values):
        if np.isclose(v, value):
            return i
    raise ValueError(f"{name} must be one of the explorer's positions {list(values)}, got {value!r}")


def _show(draw) -> None:
    """Show the static figure `draw()` returns as (fig, alt) (figures.show_figure)."""
    alts: dict[str, str] = {}

    def build():
        fig, alts[i18n.current()] = draw()
        return fig

    show_figure(build, alt=lambda: alts[i18n.current()])


def dk_explorer(
    d_k: int = 64, strategy: str = "none", *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0, figure: bool = True
) -> DkExplorer:
    """Slide d_k from 1 to 1024 under each scaling strategy and watch softmax saturate.

    Every state comes from `scaling.saturation(d_k, strategy, n_keys, n_queries, seed)`
    and `scaling.score_samples`. Starts at (d_k, strategy).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, got {strategy!r}")
    states = data.dk_states(n_keys=n_keys, n_queries=n_queries, seed=seed)
    index = _position(states["d_k"], d_k, "d_k")
    if figure:
        _show(lambda: fallback.dk_figure(states, index, strategy))
    return DkExplorer(data=states, d_k_index=index, strategy=strategy)


def temperature_explorer(
    scores=None, labels=None, *, temperature: float = 1.0, figure: bool = True
) -> TemperatureExplorer:
    """Slide the temperature T and watch softmax(scores / T) sharpen (T < 1) or flatten (T > 1).

    `scores` (n,) default to the example query of the d_k explorer at d_k = 64
    with ÷√d_k (`saturation(64, "sqrt_d_k").scaled_scores`), keys labelled k₁ … k₈.
    """
    if scores is None:
        scores = saturation(64, "sqrt_d_k").scaled_scores
    scores = as_matrix("scores", scores, ndim=1).astype(float)
    if labels is None:
        labels = [f"k{data._sub(j + 1)}" for j in range(scores.size)]
    states = data.temperature_states(scores, labels)
    index = _position(states["temperatures"], temperature, "temperature")
    if figure:
        _show(lambda: fallback.temperature_figure(states, index))
    return TemperatureExplorer(data=states, temperature_index=index)


def heads_explorer(h: int = 4, *, d_model: int = 16, layer=None, figure: bool = True) -> HeadsExplorer:
    """Split the same d_model = 16 weights into h ∈ {1, 2, 4, 8, 16} heads; see each head's map and d_k.

    `layer` defaults to chapter 6's seeded `heads.small_layer(d_model)` on six
    words; any object with tokens, X, W_Q, W_K, W_V works. Every head count splits d_model evenly,
    so d_model (the columns of `layer.X` when a layer is given) must be a multiple of 16.
    """
    counts = list(data.HEAD_COUNTS)
    if isinstance(h, bool) or not isinstance(h, numbers.Real):
        raise TypeError(f"h must be a number of heads, one of {counts}, got {h!r} ({type(h).__name__})")
    if h not in counts:
        raise ValueError(f"h must be one of the explorer's head counts {counts}, got {h!r}")
    width = positive_int("d_model", d_model) if layer is None else int(np.shape(layer.X)[-1])
    if width % max(counts):
        wrong = [str(c) for c in counts if width % c]
        wrong = f"{' and '.join(wrong)} {'does' if len(wrong) == 1 else 'do'}"
        raise ValueError(
            (
                f"d_model must be a multiple of {max(counts)}, so that each of the explorer's head counts {counts} "
                f"divides it; got d_model={width}, which {wrong} not divide"
            )
            if layer is None
            else (
                f"layer.X must have a multiple of {max(counts)} columns (its d_model), so that each of the explorer's "
                f"head counts {counts} divides them; got shape {np.shape(layer.X)}, which {wrong} not divide"
            )
        )
    layer = _heads.small_layer(d_model=d_model, num_heads=1) if layer is None else layer
    states = data.heads_states(layer.tokens, layer.X, layer.W_Q, layer.W_K, layer.W_V)
    index = _position(states["head_counts"], h, "h")
    if figure:
        _show(lambda: fallback.heads_figure(states, index))
    return HeadsExplorer(data=states, h_index=index)


def who_attends_explorer(token: str = "it", *, text: str | None = None, figure: bool = True) -> WhoAttendsExplorer:
    """Choose a word of the sentence and see whom it attends to in each head.

    Uses chapter 8's hand-built three-head layer, `sentence.sentence_trace(text)`.
    """
    tokens, trace = sentence_trace() if text is None else sentence_trace(text)
    if token not in tokens:
        raise ValueError(f"token must be one of the sentence's tokens {tokens}, got {token!r}")
    states = data.who_attends_states(tokens, trace, head_names=HEAD_NAMES)
    index = tokens.index(token)
    if figure:
        _show(lambda: fallback.who_attends_figure(states, index))
    return WhoAttendsExplorer(data=states, token=index)


def training_explorer(trained, step: int | None = None, *, steps=None, figure: bool = True) -> TrainingExplorer:
    """Slide through chapter 13's training of a pointing model: the loss so far, and the weights "it"
    gives every word of the source sentence ("… too tired") and its twin ("… too wide") at that step.

    `trained` a pointing model (`learning_studies.train_referent_model(pointing=True)`); its
    `run.snapshots` are the states, at `steps` (default every checkpoint of the run; train with
    `checkpoints=` more for a finer slider). Starts at `step` (a checkpoint; default the last).
    """
    states = data.training_states(trained, steps=steps)
    index = len(states["steps"]) - 1 if step is None else _position(states["steps"], step, "step")
    if figure:
        _show(lambda: fallback.training_figure(states, index))
    return TrainingExplorer(data=states, step_index=index)


def sentence_explorer(
    models: dict,
    animal: str = "animal",
    place: str = "street",
    adjective: str = "tired",
    *,
    model: str | None = None,
    figure: bool = True,
) -> SentenceExplorer:
    """Build "The ANIMAL didn't cross the PLACE because it was too ADJECTIVE" and see, in chapter 13's
    trained models, the weights "it" gives every word in every layer and head, and the model's answer.

    `models` {name: trained model} (`learning_studies.train_referent_model`, one corpus), e.g. the
    chapter's two-layer model and its pointing model; every sentence of the corpus is computed
    (`data.sentence_states`), the held-out ones marked. Starts at (animal, place, adjective) with
    `model` (a name of `models`; default the first).
    """
    from ..referents import ANIMAL_ADJECTIVES, ANIMALS, PLACE_ADJECTIVES, PLACES

    for name, word, allowed in (
        ("animal", animal, [w for w, _ in ANIMALS]),
        ("place", place, [w for w, _ in PLACES]),
        ("adjective", adjective, list(ANIMAL_ADJECTIVES + PLACE_ADJECTIVES)),
    ):
        if word not in allowed:
            raise ValueError(f"{name} must be one of the corpus's words {allowed}, got {word!r}")
    if isinstance(models, dict) and model is not None and model not in models:
        raise ValueError(f"model must be one of the names of models {list(models)}, got {model!r}")
    states = data.sentence_states(models)
    model = states["models"][0]["name"] if model is None else model
    w = SentenceExplorer(data=states, animal=animal, place=place, adjective=adjective, model=model)
    if figure:
        _show(lambda: fallback.sentence_figure(states, model, w.sentence))
    return w
