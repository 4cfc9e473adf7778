"""The corpus chapter 13 trains on: the source sentence, with its nouns and its adjective swapped.

    The ANIMAL didn't cross the PLACE because it was too ADJECTIVE

Every sentence has the same 11 tokens in the same places (code indices: the animal at 1, the
place at 5, "it" at 7, the adjective at 10); only the three slots change. An adjective fits an
animal (tired, …) or a place (wide, …), and so decides what "it" refers to: the animal when it
was too tired, the place when it was too wide. Two things can be asked about the referent:

- target "noun": which noun it is (one of the 16, animals first), the word "it" stands for;
- target "pronoun": the French pronoun that translates "it", *il* or *elle*, the referent's
  grammatical gender (l'animal, il; la rue, elle). The adjective alone does not decide it (half
  the animals and half the places are feminine): the answer needs the referent itself.

    corpus = referents_corpus()                    # every sentence, and the held-out split
    corpus.train.tokens, corpus.train.targets("noun")      # (n_train, 11) token ids, (n_train,)
    corpus.held_out.referent_position              # 1 or 5: where the referent is, in code indices

Some combinations are never trained on (`held_out`): whole noun pairs (the animal and the
street never meet in training) and noun-adjective pairs (the animal is never tired in training;
the street is never wide). A sentence is held out when its noun pair or its (referent,
adjective) pair is; so the source sentence and its "wide" twin are both held out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ._validate import positive_int

# (English word, French gender: "m" is il, "f" is elle). The source sentence's words come first.
ANIMALS = (
    ("animal", "m"),
    ("dog", "m"),
    ("horse", "m"),
    ("fox", "m"),
    ("cow", "f"),
    ("mouse", "f"),
    ("goat", "f"),
    ("turtle", "f"),
)
PLACES = (
    ("street", "f"),
    ("road", "f"),
    ("river", "f"),
    ("square", "f"),
    ("bridge", "m"),
    ("field", "m"),
    ("park", "m"),
    ("canal", "m"),
)
ANIMAL_ADJECTIVES = ("tired", "scared", "weak", "sleepy", "hungry", "lazy")
PLACE_ADJECTIVES = ("wide", "busy", "long", "muddy", "icy", "steep")
TEMPLATE = ("the", "{animal}", "didn't", "cross", "the", "{place}", "because", "it", "was", "too", "{adjective}")
ANIMAL_POSITION, PLACE_POSITION, IT_POSITION, ADJECTIVE_POSITION = 1, 5, 7, 10  # code indices
N_TOKENS = len(TEMPLATE)  # 11
FUNCTION_WORDS = ("the", "didn't", "cross", "because", "it", "was", "too")
NOUNS = tuple(w for w, _ in ANIMALS) + tuple(w for w, _ in PLACES)
VOCABULARY = FUNCTION_WORDS + NOUNS + ANIMAL_ADJECTIVES + PLACE_ADJECTIVES
TOKEN_ID = {word: i for i, word in enumerate(VOCABULARY)}
PRONOUNS = ("il", "elle")  # target "pronoun": 0 = il (masculine referent), 1 = elle (feminine)
GENDER = dict(ANIMALS + PLACES)
TARGETS = ("noun", "pronoun")
SOURCE = ("animal", "street", "tired")  # the source articles' sentence
SOURCE_TWIN = ("animal", "street", "wide")  # the same sentence, too wide: "it" is the street


def sentence_words(animal: str, place: str, adjective: str) -> list[str]:
    """The 11 words of "The ANIMAL didn't cross the PLACE because it was too ADJECTIVE", lower case. Chapter 13."""
    for name, word, allowed in (
        ("animal", animal, NOUNS[: len(ANIMALS)]),
        ("place", place, NOUNS[len(ANIMALS) :]),
        ("adjective", adjective, ANIMAL_ADJECTIVES + PLACE_ADJECTIVES),
    ):
        if word not in allowed:
            raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {word!r}")
    return [w.format(animal=animal, place=place, adjective=adjective) for w in TEMPLATE]


def fits_animal(adjective: str) -> bool:
    """True for an adjective that fits the animal (tired: "it" is the animal), False for one that fits the place."""
    if adjective not in ANIMAL_ADJECTIVES + PLACE_ADJECTIVES:
        raise ValueError(
            f"adjective must be one of {', '.join(ANIMAL_ADJECTIVES + PLACE_ADJECTIVES)}; got {adjective!r}"
        )
    return adjective in ANIMAL_ADJECTIVES


@dataclass(frozen=True)
class Sentences:
    """A set of sentences of the template. Chapter 13.

    `animals`, `places`, `adjectives` (m,) the words in the three slots. Derived: `tokens` (m, 11)
    token ids (`VOCABULARY`), `referent` (m,) the word "it" stands for, `referent_position` (m,)
    its code index (1 for the animal, 5 for the place), `targets(target)` (m,) the class ids.
    """

    animals: tuple[str, ...]
    places: tuple[str, ...]
    adjectives: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.animals)

    @cached_property
    def words(self) -> list[list[str]]:
        return [sentence_words(a, p, j) for a, p, j in zip(self.animals, self.places, self.adjectives)]

    @cached_property
    def tokens(self) -> np.ndarray:
        return np.array([[TOKEN_ID[w] for w in s] for s in self.words], dtype=np.int64).reshape(len(self), N_TOKENS)

    @cached_property
    def refers_to_animal(self) -> np.ndarray:
        return np.array([fits_animal(j) for j in self.adjectives], dtype=bool)

    @cached_property
    def referent(self) -> tuple[str, ...]:
        return tuple(a if r else p for a, p, r in zip(self.animals, self.places, self.refers_to_animal))

    @cached_property
    def referent_position(self) -> np.ndarray:
        return np.where(self.refers_to_animal, ANIMAL_POSITION, PLACE_POSITION).astype(np.int64)

    @cached_property
    def other_position(self) -> np.ndarray:
        """The code index of the noun "it" does not refer to."""
        return np.where(self.refers_to_animal, PLACE_POSITION, ANIMAL_POSITION).astype(np.int64)

    def targets(self, target: str = "noun") -> np.ndarray:
        """(m,) class ids: "noun" the referent's index in `NOUNS`, "pronoun" 0 for il, 1 for elle."""
        if target == "noun":
            return np.array([NOUNS.index(w) for w in self.referent], dtype=np.int64)
        if target == "pronoun":
            return np.array([PRONOUNS.index("il" if GENDER[w] == "m" else "elle") for w in self.referent], np.int64)
        raise ValueError(f"target must be one of {TARGETS}; got {target!r}")

    def index(self, animal: str, place: str, adjective: str) -> int:
        """The position of one sentence in this set, or an error saying it is not in it."""
        for i, s in enumerate(zip(self.animals, self.places, self.adjectives)):
            if s == (animal, place, adjective):
                return i
        raise KeyError(f"the sentence ({animal}, {place}, {adjective}) is not in this set of {len(self)}")

    def subset(self, rows) -> Sentences:
        rows = np.asarray(rows, dtype=np.int64)
        return Sentences(
            *(tuple(np.asarray(col, dtype=object)[rows]) for col in (self.animals, self.places, self.adjectives))
        )


def n_classes(target: str) -> int:
    """How many answers the readout chooses among: 16 nouns, or 2 pronouns."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}; got {target!r}")
    return len(NOUNS) if target == "noun" else len(PRONOUNS)


@dataclass(frozen=True)
class Corpus:
    """Every sentence of the template and its split. Chapter 13.

    `all` every combination (8 · 8 · 12 = 768 sentences); `train` the ones the model learns from,
    `held_out` the ones it never sees; `held_out_noun_pairs` the (animal, place) pairs and
    `held_out_referent_adjectives` the (noun, adjective) pairs that put a sentence in `held_out`.
    """

    all: Sentences
    train: Sentences
    held_out: Sentences
    held_out_noun_pairs: frozenset
    held_out_referent_adjectives: frozenset


def referents_corpus(seed: int = 0, noun_pairs_per_animal: int = 1, adjectives_per_noun: int = 1) -> Corpus:
    """The corpus and its held-out split, the same for the same `seed`. Chapter 13.

    Each animal gets `noun_pairs_per_animal` places it never meets in training (the animal:
    the street), and each noun `adjectives_per_noun` of its own kind of adjective it is never
    the referent of in training (the animal is never tired, the street never wide). The rest
    of the held-out pairs are drawn with `seed`, so that every place and adjective is held out
    with someone and every word still appears in training.
    """
    rng = np.random.default_rng(seed)
    k_pairs = positive_int("noun_pairs_per_animal", noun_pairs_per_animal)
    k_adj = positive_int("adjectives_per_noun", adjectives_per_noun)
    animals, places = NOUNS[: len(ANIMALS)], NOUNS[len(ANIMALS) :]
    if k_pairs >= len(places) or k_adj >= len(ANIMAL_ADJECTIVES):
        raise ValueError(
            f"noun_pairs_per_animal must be < {len(places)} and adjectives_per_noun < {len(ANIMAL_ADJECTIVES)} "
            f"(every word must still be trained on); got {k_pairs} and {k_adj}"
        )
    pairs, adjective_pairs = set(), set()
    offsets = [0, *(1 + rng.permutation(len(places) - 1)[: k_pairs - 1])]  # animal i with place i + offset
    for offset in offsets:  # a Latin square: each place is held out with k_pairs animals too
        pairs |= {(a, places[(i + offset) % len(places)]) for i, a in enumerate(animals)}
    for nouns, adjectives in ((animals, ANIMAL_ADJECTIVES), (places, PLACE_ADJECTIVES)):
        order = [0, *(1 + rng.permutation(len(adjectives) - 1))]  # the first noun gets the first adjective
        for i, noun in enumerate(nouns):
            for s in range(k_adj):
                adjective_pairs.add((noun, adjectives[order[(i + s) % len(adjectives)]]))
    everything = [(a, p, j) for a in animals for p in places for j in ANIMAL_ADJECTIVES + PLACE_ADJECTIVES]
    sentences = Sentences(*(tuple(col) for col in zip(*everything)))
    held = np.array(
        [
            (a, p) in pairs or (r, j) in adjective_pairs
            for a, p, j, r in zip(sentences.animals, sentences.places, sentences.adjectives, sentences.referent)
        ],
        dtype=bool,
    )
    return Corpus(
        all=sentences,
        train=sentences.subset(np.flatnonzero(~held)),
        held_out=sentences.subset(np.flatnonzero(held)),
        held_out_noun_pairs=frozenset(pairs),
        held_out_referent_adjectives=frozenset(adjective_pairs),
    )


__all__ = ["referents_corpus", "Corpus", "Sentences", "sentence_words"]
