"""Every state an explorer can show, computed here by the NumPy core.

The widgets' front ends only draw: for each position of each control they look
up a state built below. Numbers are rounded to what is drawn or printed
(`DIGITS` decimals; gradient sizes, which can be as small as 1e-18, to `DIGITS`
significant figures), which keeps a page's saved widget state small; the tests
compare these states, and the numbers on screen, with the core.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib import colormaps

from .._validate import as_matrix, positive_int
from ..multihead import trace_attention
from ..palette import SEQUENTIAL, head_colour_names, strategy_styles_for_js
from ..scaling import (
    STRATEGIES,
    divisor,
    entropy,
    histogram,
    raw_gradient_size,
    score_samples,
    strategy_sweep,
    with_temperature,
)

DIGITS = 6  # decimals kept for every number handed to a front end
D_K_VALUES = tuple(2**i for i in range(11))  # 1, 2, 4, …, 1024: every power of two
# Temperatures on a roughly logarithmic 1–1.5–2–3–5–7 ladder, 1 in the middle.
TEMPERATURES = (0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0)
HEAD_COUNTS = (1, 2, 4, 8, 16)
SCALED_LIMIT = 8.0  # the scaled-score histogram's window, [-8, 8]: where softmax does its work
BINS = 32


def rounded(x, digits: int = DIGITS):
    """Numbers (or nested arrays of them) as plain Python floats/lists rounded to `digits` decimals."""
    return np.round(np.asarray(x, dtype=float), digits).tolist()


def significant(x, digits: int = DIGITS) -> float:
    """One number rounded to `digits` significant figures, for numbers that span many
    orders of magnitude (a saturated softmax's gradient can be 1e-18)."""
    x = float(x)
    return 0.0 if x == 0 else float(f"{x:.{digits - 1}e}")


def palette(n: int = 64) -> list[str]:
    """The book's sequential colour map (cividis) as n hex colours, for weights 0 … 1."""
    cmap = colormaps[SEQUENTIAL]
    return ["#{:02x}{:02x}{:02x}".format(*(int(round(255 * c)) for c in cmap(i / (n - 1))[:3])) for i in range(n)]


def weight_numbers(a, c: float = 1.0) -> dict[str, float]:
    """The numbers that matter for one query's weights a = softmax(q·k / c): largest weight,
    entropy, and the gradient size ‖∂a/∂(q·k)‖_F = ‖J(a)‖_F / c with respect to the scores q·k
    *before* the divisor c (`raw_gradient_size`)."""
    a = as_matrix("a", a, ndim=1)
    return {
        "max_weight": rounded(a.max()),
        "entropy": rounded(entropy(a)),
        "gradient": significant(raw_gradient_size(a, c)),
    }


# ----------------------------------------------------------------------------- d_k
def dk_states(*, n_keys: int = 8, n_queries: int = 2000, seed: int = 0, d_k_values=D_K_VALUES) -> dict:
    """Every (d_k, strategy) state of the d_k explorer, from `strategy_sweep` and `score_samples`.

    Returns a dict (JSON-ready): `d_k` (the slider's values), `strategies`
    (key, label), `raw[i]` (histogram of the raw scores q·k at d_k[i] on a window
    of ±4√d_k), and `states[strategy][i]` with the scaled-score histogram on
    [-8, 8], the example query's scores and weights, its three numbers, the
    averages over all n_queries queries and the median gradient size. Gradient
    sizes are with respect to the raw scores q·k (‖J(a)‖ / c, `raw_gradient_size`).
    """
    d_k_values = [positive_int("d_k", d) for d in d_k_values]
    raw, states = [], {s: [] for s in STRATEGIES}
    sweep = strategy_sweep(d_k_values, n_keys=n_keys, n_queries=n_queries, seed=seed)
    for i, d_k in enumerate(d_k_values):
        samples = score_samples(d_k, n_keys=n_keys, n_queries=n_queries, seed=seed)
        h = histogram(samples, limit=4 * math.sqrt(d_k), bins=BINS)
        raw.append(_hist(h) | {"std": rounded(samples.std())})
        for strategy in STRATEGIES:
            sat = sweep[strategy][i]
            scaled = samples / divisor(d_k, strategy)
            states[strategy].append(
                {
                    "hist": _hist(histogram(scaled, limit=SCALED_LIMIT, bins=BINS)),
                    "std": rounded(scaled.std()),
                    "scores": rounded(sat.scaled_scores),
                    "weights": rounded(sat.weights),
                    **weight_numbers(sat.weights, sat.divisor),
                    "mean_max_weight": rounded(sat.mean_max_weight),
                    "mean_entropy": rounded(sat.mean_entropy),
                    "median_gradient": significant(sat.median_gradient),
                }
            )
    return {
        "d_k": d_k_values,
        # the names in English: the front end (t() in dk.js) and the static figure (_()) translate them
        "strategies": [{"key": k, "label": v} for k, v in STRATEGIES.items()],
        "n_keys": n_keys,
        "n_queries": n_queries,
        "ln_n": rounded(math.log(n_keys)),
        "keys": [f"k{_sub(j + 1)}" for j in range(n_keys)],
        "raw": raw,
        "states": states,
        "strategy_styles": strategy_styles_for_js(),
    }


def _hist(h) -> dict:
    return {
        "limit": rounded(h.limit),
        "fractions": rounded(h.fractions),
        "below": rounded(h.below),
        "above": rounded(h.above),
    }


def _sub(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


# ----------------------------------------------------------------------------- temperature
def temperature_states(scores, labels, *, temperatures=TEMPERATURES) -> dict:
    """softmax(scores / T) and its numbers for every T on the slider (`with_temperature`);
    the gradient size is ‖∂a/∂s‖ with respect to the given scores s, ‖J(a)‖ / T."""
    scores = as_matrix("scores", scores, ndim=1)
    labels = [str(x) for x in labels]
    if len(labels) != scores.size:
        raise ValueError(f"labels must name each of the {scores.size} scores, got {len(labels)} labels")
    states = []
    for T in temperatures:
        a = with_temperature(scores, T)
        states.append({"weights": rounded(a), **weight_numbers(a, T)})
    return {
        "temperatures": [float(T) for T in temperatures],
        "scores": rounded(scores),
        "labels": labels,
        "ln_n": rounded(math.log(scores.size)),
        "states": states,
    }


# ----------------------------------------------------------------------------- heads
def heads_states(tokens, X, W_Q, W_K, W_V, *, head_counts=HEAD_COUNTS, digits: int = 4) -> dict:
    """Each head's attention map A⁽ʳ⁾ (n × n) for every h in `head_counts`, by `trace_attention`.

    X (n, d_model); W_Q, W_K, W_V (d_model, d_model): the same weights split into
    h heads of d_k = d_model / h columns each.
    """
    tokens = [str(t) for t in tokens]
    states = []
    for h in head_counts:
        t = trace_attention(X, W_Q, W_K, W_V, num_heads=h)
        states.append(
            {
                "h": h,
                "d_k": t.d_k,
                "maps": rounded(t.A, digits),
            }
        )
    return {
        "tokens": tokens,
        "d_model": int(np.shape(X)[1]),
        "head_counts": list(head_counts),
        "states": states,
        "palette": palette(),
    }


# ----------------------------------------------------------------------------- who attends to whom
def who_attends_states(tokens, trace, *, head_names=None, digits: int = 4) -> dict:
    """Every head's weights A⁽ʳ⁾ (h, n, n) of a `Trace`, for the token picker.

    `head_names` (h,) are the heads' roles ("coreference", ...), kept in English: the
    front end shows "head 1: coreference" in the page's language (t() in who_attends.js
    translates the role, which attention_steps/locale/*/explorers.po must hold); without
    them the heads are numbered ("head 1"), `head_names` is then a list of None.
    """
    tokens = [str(t) for t in tokens]
    if len(tokens) != trace.A.shape[1]:
        raise ValueError(f"tokens must name each of the {trace.A.shape[1]} query rows, got {len(tokens)}")
    names = [None] * trace.num_heads
    if head_names is not None:
        if len(head_names) != trace.num_heads:
            raise ValueError(f"head_names must name each of the {trace.num_heads} heads, got {len(head_names)}")
        names = [str(name) for name in head_names]
    return {
        "tokens": tokens,
        "head_names": names,
        "h": trace.num_heads,
        "d_k": trace.d_k,
        "A": rounded(trace.A, digits),
        "palette": palette(),
        "head_colours": head_colour_names(trace.num_heads),
    }


# ----------------------------------------------------------------------------- chapter 13: training
def _trained(name: str, trained):
    """A `learning_studies.Trained`, or an error naming the argument and what it got."""
    if not all(hasattr(trained, a) for a in ("model", "run", "corpus", "params", "targets")):
        raise TypeError(
            f"{name} must be a trained model of chapter 13 (learning_studies.train_referent_model), "
            f"got {type(trained).__name__}"
        )
    return trained


def training_states(trained, *, steps=None, digits: int = 4) -> dict:
    """The pointing model's training, checkpoint by checkpoint, for the training explorer. Chapter 13.

    `trained` a pointing model (`train_referent_model(pointing=True)`), whose `run.snapshots`
    (`watch_source_pair`) hold "it"'s attention row in every layer for the source sentence ("… too
    tired") and its twin ("… too wide"); `steps` the checkpoints the slider stops at (default all
    of `run.checkpoints`; each must be one of them). Returns (JSON-ready) `steps`, `total_steps`,
    `loss[k]` the batch loss of step k + 1 (6 significant figures), `sentences` (the two
    sentences' words), `referents` (where each one's referent is, the right answer) and
    `states[i]`: "weights" (2, n) the last (pointing) layer's weights from "it" at `steps[i]`,
    `digits` decimals, and "answer" (2,) where it points (its strongest key).
    """
    from ..referents import IT_POSITION, SOURCE, SOURCE_TWIN, sentence_words

    trained = _trained("trained", trained)
    if not trained.model.pointing:
        raise ValueError(
            "trained must be a pointing model (train_referent_model(pointing=True)), whose last layer's "
            f"weights from “it” are its answer; got a model answering {trained.target!r}"
        )
    run = trained.run
    if not run.snapshots:
        raise ValueError(
            "trained has no snapshots: train it with checkpoints ≥ 2 (train_referent_model(checkpoints=…))"
        )
    available = [int(s) for s in run.checkpoints]
    chosen = available if steps is None else [int(s) for s in steps]
    missing = [s for s in chosen if s not in available]
    if not chosen or missing or chosen != sorted(set(chosen)):
        raise ValueError(
            f"steps must be increasing checkpoints of the run, among {available}; got {list(steps)}"
            + (f" ({missing} not among them)" if missing else "")
        )
    referents = trained.targets(
        trained.corpus.all.subset([trained.corpus.all.index(*s) for s in (SOURCE, SOURCE_TWIN)])
    )
    states = []
    for s in chosen:
        snap = run.snapshots[available.index(s)]
        rows = np.asarray(snap["A_it"])[:, -1, 0]  # (2, n): the pointing layer's one head
        states.append({"step": s, "weights": rounded(rows, digits), "answer": [int(a) for a in snap["answer"]]})
    return {
        "steps": chosen,
        "total_steps": int(len(run.history["loss"])),
        "loss": [significant(x) for x in run.history["loss"]],
        "sentences": [sentence_words(*SOURCE), sentence_words(*SOURCE_TWIN)],
        "tokens": sorted(set(sentence_words(*SOURCE) + sentence_words(*SOURCE_TWIN))),
        "it": IT_POSITION,
        "referents": [int(r) for r in referents],
        "states": states,
    }


# ----------------------------------------------------------------------------- chapter 13: the sentence builder
def sentence_states(models: dict, *, digits: int = 3) -> dict:
    """Every sentence of chapter 13's corpus as each model reads it, for the sentence builder. Chapter 13.

    `models` {name: a `Trained`} (names in English, as `CHAPTER_MODELS` has them: the front end
    translates them), all trained on the same corpus. Every (animal, place, adjective) of
    `corpus.all` is a state: sentence k is `k = (animal · n_places + place) · n_adjectives +
    adjective` in the orders of `animals`, `places`, `adjectives`. Returns (JSON-ready) those
    lists, `kinds` ("animal" or "place", the noun each adjective fits), `words` (the template, a slot
    as "{animal}"), `held_out` (0/1 per sentence), `referents` (code index of the noun "it" stands for),
    `noun_pairs` and `referent_adjectives` (what held a sentence out), `tokens` (the vocabulary),
    `labels` (the readout's answers, il and elle) and `models`: per model its `name`, `answers`
    ("pronoun", "noun", or "pointer": the answer is a position of the sentence), `rows` ((layer,
    head) of each attention row, counted from 1, and whether it is a pointing layer), `A_it`
    (sentences, rows, n) the weights "it" gives the words in every layer and head (`digits`
    decimals), `answer` and `expected` (sentences,).
    """
    from ..referents import (
        ANIMAL_ADJECTIVES,
        ANIMALS,
        IT_POSITION,
        NOUNS,
        PLACE_ADJECTIVES,
        PLACES,
        PRONOUNS,
        TEMPLATE,
        VOCABULARY,
    )
    from ..tiny_model import forward

    if not isinstance(models, dict) or not models:
        raise TypeError(
            f"models must be a dict {{name: trained model}} with at least one model, got {type(models).__name__}"
            + (" (empty)" if isinstance(models, dict) else "")
        )
    models = {str(name): _trained(f"models[{name!r}]", t) for name, t in models.items()}
    first, corpus = next(iter(models)), next(iter(models.values())).corpus
    for name, t in models.items():
        if t.corpus.all.words != corpus.all.words or t.corpus.held_out.words != corpus.held_out.words:
            raise ValueError(
                f"models must share one corpus and split: models[{name!r}] was trained on another than {first!r}"
            )
    animals, places = [w for w, _ in ANIMALS], [w for w, _ in PLACES]
    adjectives = list(ANIMAL_ADJECTIVES + PLACE_ADJECTIVES)
    position = {key: i for i, key in enumerate(zip(corpus.all.animals, corpus.all.places, corpus.all.adjectives))}
    s = corpus.all.subset(
        [position[a, p, j] for a in animals for p in places for j in adjectives]
    )  # the builder's order
    held = set(map(tuple, corpus.held_out.words))
    out_models = []
    for name, t in models.items():
        m = t.model
        fw = forward(m, t.params, s.tokens)
        rows, A_it = [], []
        for layer, A in enumerate(fw.A):
            pointing = bool(m.pointing and layer == m.num_layers - 1)
            for head in range(A.shape[1]):
                rows.append({"layer": layer + 1, "head": head + 1, "pointing": pointing})
                A_it.append(A[:, head, IT_POSITION])
        out_models.append(
            {
                "name": name,
                "answers": "pointer" if m.pointing else t.target,
                "rows": rows,
                "A_it": rounded(np.stack(A_it, axis=1), digits),
                "answer": [int(a) for a in fw.answer],
                "expected": [int(a) for a in t.targets(s)],
            }
        )
    return {
        "animals": animals,
        "places": places,
        "adjectives": adjectives,
        "kinds": ["animal" if j in ANIMAL_ADJECTIVES else "place" for j in adjectives],
        "words": list(TEMPLATE),
        "it": IT_POSITION,
        "held_out": [int(tuple(w) in held) for w in s.words],
        "referents": [int(r) for r in s.referent_position],
        "noun_pairs": sorted([list(p) for p in corpus.held_out_noun_pairs]),
        "referent_adjectives": sorted([list(p) for p in corpus.held_out_referent_adjectives]),
        "tokens": list(VOCABULARY),
        "labels": list(PRONOUNS),
        "nouns": list(NOUNS),
        "models": out_models,
    }
