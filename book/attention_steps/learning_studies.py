"""Chapter 13's measurements: train the tiny model on the corpus, then find where it resolves "it".

    trained = train_referent_model(layers=2, heads=2, target="pronoun")   # il or elle, from the referent
    trained.held_out_accuracy                  # the share of held-out sentences answered right
    ablation(trained)                          # accuracy with each head, layer, or (layer, token) zeroed
    strongest_key_share(trained)               # how often each head's map from "it" peaks on the referent
    tired_and_wide(trained)                    # the source sentence and its "wide" twin, side by side
    pointing = train_referent_model(layers=1, pointing=True)   # a last layer whose attention is the answer

Every function returns plain numbers, arrays and dicts (JSON-ready with `.tolist()`), small enough
for a page. The per-sentence attention of every layer and head, and the data for an explorer, are
in `learned_attention.py`; the scaling study is in `scaling_training.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import positive_int
from .learned_attention import attention_maps
from .referents import (
    ANIMAL_ADJECTIVES,
    ANIMALS,
    IT_POSITION,
    N_TOKENS,
    PLACE_ADJECTIVES,
    PLACES,
    SOURCE,
    SOURCE_TWIN,
    TARGETS,
    VOCABULARY,
    Corpus,
    Sentences,
    n_classes,
    referents_corpus,
    sentence_words,
)
from .tiny_model import TinyModel, accuracy, forward, init_params
from .training import ProgressLine, TrainingRun, train


@dataclass
class Trained:
    """A model trained on the corpus. Chapter 13.

    `model`, `run` (the `TrainingRun`: params, history, snapshots, seconds), `corpus`, `target`
    ("noun", "pronoun", or "pointer" for a pointing model), `train_accuracy`, `held_out_accuracy`.
    """

    model: TinyModel
    run: TrainingRun
    corpus: Corpus
    target: str
    train_accuracy: float
    held_out_accuracy: float

    @property
    def params(self) -> dict:
        return self.run.params

    def targets(self, sentences: Sentences) -> np.ndarray:
        """(m,) what the model should answer: a class id, or for a pointing model the referent's code index."""
        return sentences.referent_position if self.model.pointing else sentences.targets(self.target)

    def accuracy(self, sentences: Sentences, ablate=None) -> float:
        return accuracy(self.model, self.params, sentences.tokens, self.targets(sentences), ablate)


def source_pair_tokens() -> np.ndarray:
    """(2, 11) token ids: the source sentence ("… too tired") and its twin ("… too wide"). Chapter 13."""
    return np.array([[VOCABULARY.index(w) for w in sentence_words(*s)] for s in (SOURCE, SOURCE_TWIN)])


def watch_source_pair(model: TinyModel):
    """A `train` watch: params -> {"A_it": (2, layers, heads, n) the attention row of "it" in every
    layer and head, for the "tired" and the "wide" sentence; "answer": (2,) the model's answers}.
    A pointing layer's one head is head 1 of its layer; other heads of that layer are 0. Chapter 13."""
    tokens = source_pair_tokens()

    def watch(params):
        fw = forward(model, params, tokens)
        rows = np.zeros((2, model.num_layers, model.num_heads, N_TOKENS))
        for layer, A in enumerate(fw.A):
            rows[:, layer, : A.shape[1]] = A[:, :, IT_POSITION]
        return {"A_it": rows, "answer": fw.answer.copy()}

    return watch


def train_referent_model(
    layers: int = 2,
    heads: int = 2,
    target: str = "pronoun",
    *,
    pointing: bool = False,
    d_model: int = 32,
    steps: int = 200,
    batch_size: int = 64,
    lr: float = 0.01,
    optimiser: str = "adam",
    seed: int = 0,
    strategy: str = "sqrt_d_k",
    corpus: Corpus | None = None,
    checkpoints: int = 20,
    progress=None,
    dtype=np.float64,
) -> Trained:
    """Train a `layers`-layer model with `heads` heads on the corpus's training sentences. Chapter 13.

    `target` "noun" or "pronoun" names what the readout answers; with `pointing=True` a pointing
    layer is added after the `layers` layers and trained to put its weight from "it" on the
    referent (no readout: the answer is its strongest key). `checkpoints` snapshots of the source
    pair (`watch_source_pair`) are kept in `run.snapshots`; `progress` as in `training.train`.
    """
    corpus = referents_corpus() if corpus is None else corpus
    layers = positive_int("layers", layers)
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}; got {target!r}")
    model = TinyModel(
        vocab_size=len(VOCABULARY),
        n_tokens=N_TOKENS,
        d_model=d_model,
        num_heads=heads,
        num_layers=layers + int(pointing),
        n_classes=None if pointing else n_classes(target),
        query=IT_POSITION,
        strategy=strategy,
        pointing=pointing,
    )
    target = "pointer" if pointing else target
    y = corpus.train.referent_position if pointing else corpus.train.targets(target)
    run = train(
        model,
        corpus.train.tokens,
        y,
        steps=steps,
        batch_size=batch_size,
        lr=lr,
        optimiser=optimiser,
        seed=seed,
        params=init_params(model, seed, dtype),
        checkpoints=checkpoints,
        watch=watch_source_pair(model),
        progress=progress,
    )
    trained = Trained(model, run, corpus, target, np.nan, np.nan)
    trained.train_accuracy = trained.accuracy(corpus.train)
    trained.held_out_accuracy = trained.accuracy(corpus.held_out)
    return trained


# The models chapter 13 trains, each with CHAPTER_SEEDS (about 12 s together on the 2-core machine, one thread).
CHAPTER_MODELS = {
    "one layer, one head": dict(layers=1, heads=1),
    "one layer, two heads": dict(layers=1, heads=2),
    "two layers": dict(layers=2, heads=2),
    "pointing": dict(layers=1, heads=2, pointing=True),
}
CHAPTER_SEEDS = (0, 1, 2)


def train_chapter_models(seeds=CHAPTER_SEEDS, progress=None) -> dict[str, list[Trained]]:
    """{name: [Trained, one per seed]} for every model of `CHAPTER_MODELS` on the il / elle task. Chapter 13.

    `progress` True prints one updating line per model and seed (`training.ProgressLine`)."""
    corpus = referents_corpus()
    out = {}
    for name, settings in CHAPTER_MODELS.items():
        out[name] = []
        for seed in seeds:
            line = ProgressLine(label=f"{name}, seed {seed}") if progress is True else progress
            out[name].append(train_referent_model(**settings, seed=int(seed), corpus=corpus, progress=line))
    return out


# ----------------------------------------------------------------------------- where the referent is chosen
def ablation(trained: Trained, sentences: Sentences | None = None) -> dict:
    """Held-out accuracy with parts of the attention zeroed (its output, so the residual passes unchanged). Chapter 13.

    Returns {"none": accuracy untouched, "layer": (layers,) a whole layer zeroed, "head": (layers,
    heads) one head zeroed at every token, "head_at_it": (layers, heads) one head zeroed at "it"
    only, "layer_at_token": (layers, n) a layer's every head zeroed at one token (query position)}.
    A pointing layer has no output to zero: its rows are the other layers'.
    """
    s = trained.corpus.held_out if sentences is None else sentences
    m = trained.model
    L, h = m.attention_layers, m.num_heads

    def acc_without(layer, heads, tokens):
        ablate = np.zeros((L, h, N_TOKENS), dtype=bool)
        ablate[layer, heads, tokens] = True
        return trained.accuracy(s, ablate)

    everywhere = slice(None)
    return {
        "none": trained.accuracy(s),
        "layer": np.array([acc_without(layer, everywhere, everywhere) for layer in range(L)]),
        "head": np.array([[acc_without(layer, r, everywhere) for r in range(h)] for layer in range(L)]),
        "head_at_it": np.array([[acc_without(layer, r, IT_POSITION) for r in range(h)] for layer in range(L)]),
        "layer_at_token": np.array(
            [[acc_without(layer, everywhere, i) for i in range(N_TOKENS)] for layer in range(L)]
        ),
    }


def strongest_key_share(trained: Trained, sentences: Sentences | None = None) -> np.ndarray:
    """(layers, heads) the share of sentences in which head r's weights from "it" are largest on the referent. Chapter 13.

    The question an attention map seems to answer ("which word does "it" look at most?"), asked of
    every head; a pointing layer's row has its one head in column 0 (the other columns are NaN).
    """
    s = trained.corpus.held_out if sentences is None else sentences
    fw = forward(trained.model, trained.params, s.tokens)
    share = np.full((trained.model.num_layers, trained.model.num_heads), np.nan)
    for layer, A in enumerate(fw.A):
        peaks = A[:, :, IT_POSITION].argmax(axis=-1)  # (m, heads): the strongest key of each head
        share[layer, : A.shape[1]] = (peaks == s.referent_position[:, None]).mean(axis=0)
    return share


def fixed_query_ceiling(sentences: Sentences) -> float:
    """The best share of `sentences` a head can answer when its query at "it" is the same in every sentence
    (layer 1's): it then prefers one noun per animal-place pair, whatever the adjective. Chapter 13."""
    groups: dict[tuple[str, str], list[int]] = {}
    for animal, place, to_animal in zip(sentences.animals, sentences.places, sentences.refers_to_animal):
        groups.setdefault((animal, place), [0, 0])[int(to_animal)] += 1
    return sum(max(g) for g in groups.values()) / len(sentences)


def tired_and_wide(trained: Trained) -> dict:
    """The source sentence with "tired" and with "wide", side by side. Chapter 13.

    {"words": the two sentences' words, "answer": the model's two answers (class ids, or for a
    pointing model the key's code index), "expected": what they should be, "flips": the answers
    differ, as the referent does, "maps": (2, layers, heads, n, n) every layer's attention, "it_row":
    (2, n) the weights "it" gives every word in the last layer's first head, a pointing model's answer}.
    """
    pair = trained.corpus.all.subset([trained.corpus.all.index(*SOURCE), trained.corpus.all.index(*SOURCE_TWIN)])
    answer = forward(trained.model, trained.params, pair.tokens).answer
    expected = trained.targets(pair)
    maps = np.stack([attention_maps(trained, t) for t in pair.tokens])
    return {
        "words": pair.words,
        "answer": answer,
        "expected": expected,
        "right": answer == expected,
        "flips": bool(answer[0] != answer[1]),
        "maps": maps,
        "it_row": maps[:, -1, 0, IT_POSITION],
    }


# ----------------------------------------------------------------------------- one layer, one head: a proof
def quartets(trained: Trained) -> dict:
    """The four-sentence test of the il / elle task, over every sentence of the corpus. Chapter 13.

    Take a feminine and a masculine animal (a, a′), a masculine and a feminine place (p, p′), an
    adjective t that fits an animal and w that fits a place. The right answers are
    (a, p, t) elle, (a′, p′, t) il, (a′, p′, w) elle, (a, p, w) il. A model with one layer of one head
    reads "it" with a query that is the same in every sentence, so the difference of its two logits
    has the sign of f(animal) + g(place) + k(adjective) (the softmax's denominator is positive, and
    each token's term depends on that token alone); the first and third sentences' sums add up to
    the same as the second's and fourth's, so they cannot be > 0 twice and < 0 twice: one of the
    four is always wrong. Returns {"count": how many quartets, "all_right": the share the model
    answers entirely right}: 0 for every one-layer one-head model.
    """
    if trained.target != "pronoun":
        raise ValueError(f"quartets are about the pronoun target (il / elle); this model answers {trained.target!r}")
    s = trained.corpus.all
    right = forward(trained.model, trained.params, s.tokens).answer == s.targets("pronoun")
    ok = {key: r for key, r in zip(zip(s.animals, s.places, s.adjectives), right)}
    kinds = {g: [w for w, x in ANIMALS if x == g] for g in "mf"}, {g: [w for w, x in PLACES if x == g] for g in "mf"}
    count = good = 0
    for a in kinds[0]["f"]:
        for a2 in kinds[0]["m"]:
            for p in kinds[1]["m"]:
                for p2 in kinds[1]["f"]:
                    for t in ANIMAL_ADJECTIVES:
                        for w in PLACE_ADJECTIVES:
                            count += 1
                            good += ok[a, p, t] and ok[a2, p2, t] and ok[a2, p2, w] and ok[a, p, w]
    return {"count": count, "all_right": good / count}


__all__ = [
    "train_referent_model",
    "train_chapter_models",
    "CHAPTER_MODELS",
    "CHAPTER_SEEDS",
    "Trained",
    "ablation",
    "strongest_key_share",
    "fixed_query_ceiling",
    "tired_and_wide",
    "watch_source_pair",
    "source_pair_tokens",
    "quartets",
]
