"""Worked examples from the source articles, as data, and one of our own.

`i_love()` is the 2-token "I love" example with d_k = 3. The article gives X,
W_Q, K and V but leaves W_K and W_V out; the two integer matrices below are one
choice that reproduces its K and V exactly (tests check X W_K = K, X W_V = V).
`unequal_lengths()` is ours: two tokens whose queries differ in length, with
W_K = W_Q, the counterexample of exercise 2.2 and of chapter 4's symmetry section.

Every example layer of the book is an `ExampleLayer` (these two; chapters 6–7's
`heads.small_layer()`; chapters 8–9's `sentence.sentence_layer()`), and
`layer.trace(mask=...)` runs any of them through the core.

The tokens and numbers the chapters add to those examples live here too, beside them (the
chapters' text and their exercises both read them; an exercise module holds only its own):
`YOU`, a third token "you" (chapters 1 and 2); `X_NEW`, a new query followed through scaling,
softmax and the weighted sum (chapters 3 to 5) by `new_scores` and `new_scaled`; `LARGE_SCORES`,
chapter 4's overflow example; BERT-base's sizes (chapters 6 and 7).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import projection, scale, scores
from .i18n import _, current
from .multihead import Trace, trace_attention


@dataclass(frozen=True)
class ExampleLayer:
    """One example layer: tokens, X (n, d_model), W_Q, W_K (d_model, h·d_k), W_V (d_model, h·d_v),
    W_O (h·d_v, d_out) or None (a single head without output projection), and num_heads = h. Chapters 1 to 10."""

    tokens: tuple[str, ...]
    X: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray | None = None
    num_heads: int = 1

    @property
    def d_model(self) -> int:
        return self.X.shape[1]

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys."""
        return self.W_Q.shape[1] // self.num_heads

    @property
    def weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """(W_Q, W_K, W_V, W_O), ready to unpack into `trace_attention` or `multi_head_attention`."""
        return self.W_Q, self.W_K, self.W_V, self.W_O

    def trace(self, mask=None, *, X=None, X_kv=None) -> Trace:
        """`trace_attention` of this layer: every intermediate by name. `mask` as in the core;
        `X` replaces the layer's input (the same weights on other tokens), `X_kv` gives the keys
        and values (cross-attention)."""
        X = self.X if X is None else X
        return trace_attention(X, self.W_Q, self.W_K, self.W_V, self.W_O, self.num_heads, mask=mask, X_kv=X_kv)


def i_love() -> ExampleLayer:
    """The source article's 2-token example: "I" = [1, 0, 1, 0], "love" = [0, 1, 0, 1], d_k = d_v = 3.
    Chapters 1 to 5."""
    X = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], dtype=float)
    W_Q = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1]], dtype=float)
    W_K = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0]], dtype=float)
    W_V = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=float)
    return ExampleLayer(tokens=("I", "love"), X=X, W_Q=W_Q, W_K=W_K, W_V=W_V)


# A third token "you" for exercises 1.2, 2.1 and 2.3: not in the source articles; it shares its
# first feature with "I" ([1, 0, 1, 0]) and its last with "love" ([0, 1, 0, 1]).
YOU = np.array([1, 0, 0, 1], dtype=float)

# A new query's embedding read against the "I love" example (exercises 3.1, 4.1 and 5.1): 3 × row 3
# of W_Q plus row 4 (rows counted from 1). Ours, not in the source articles; its scores differ from
# those of "I" and "love", so none of its results sits in a variable of the notebooks.
X_NEW = np.array([0, 0, 3, 1], dtype=float)


def new_scores(ex: ExampleLayer) -> np.ndarray:
    """q_new Kᵀ, shape (n,): X_NEW's query against the example's keys (chapter 3)."""
    return scores(projection(X_NEW[None, :], ex.W_Q), projection(ex.X, ex.W_K))[0]


def new_scaled(ex: ExampleLayer, divisor=None) -> np.ndarray:
    """q_new Kᵀ / √d_k (or / `divisor`), shape (n,) (chapters 3 to 5)."""
    d_k = ex.W_Q.shape[1]
    return scale(new_scores(ex), d_k) if divisor is None else new_scores(ex) / divisor


LARGE_SCORES = (1000.0, 999.0, 998.0)  # chapter 4's overflow example: exp(1000) overflows float64

# BERT-base's sizes, a real model's (exercises 6.1, 6.2 and 7.1).
BERT_D_MODEL, BERT_H = 768, 12


def unequal_lengths() -> ExampleLayer:
    """Two tokens whose queries have different lengths, with keys made by the same matrix. Chapters 2 and 4.

    X = [[1, 0], [2, 0.1]] and W_Q = W_K = W_V = I (2 × 2), so q_1 = k_1 = [1, 0]
    and q_2 = k_2 = [2, 0.1]. QKᵀ = QQᵀ is symmetric, yet the largest score of
    token 1 is not its own (q_1 · q_2 = 2 > q_1 · q_1 = 1: the longer q_2 wins),
    and the row-wise softmax of this symmetric matrix is not symmetric.
    """
    X = np.array([[1.0, 0.0], [2.0, 0.1]])
    identity = np.eye(2)
    return ExampleLayer(tokens=("t₁", "t₂"), X=X, W_Q=identity, W_K=identity.copy(), W_V=identity.copy())


START, END = "<s>", "</s>"


def shift_right(targets, start: str = START) -> tuple[str, ...]:
    """Teacher forcing's decoder inputs: the targets moved one place right behind a start token. Chapter 10.

    shift_right(("我", "爱", "猫", "</s>")) == ("<s>", "我", "爱", "猫"). The input at
    position t is the target at position t − 1, so the output at position t,
    trained to produce target t, has read only the targets before it.
    """
    if isinstance(targets, str):
        raise TypeError(f"targets must be a sequence of tokens, got the string {targets!r}; split it first")
    targets = tuple(targets)
    if not targets:
        raise ValueError("targets must hold at least one token, got an empty sequence")
    if not all(isinstance(token, str) for token in targets):
        raise TypeError(f"targets must be strings (tokens), got {targets!r}")
    if not isinstance(start, str):
        raise TypeError(f"start must be a string (the start token), got {start!r} ({type(start).__name__})")
    return (start, *targets[:-1])


@dataclass(frozen=True)
class Translation:
    """The source articles' translation "I love cats" → "我 爱 猫", with toy embeddings (d_model = 4). Chapter 10.

    The columns of every embedding mean: (person, affection, animal, start).
    source: the English tokens; X_src (3, 4) their embeddings, standing for the
    encoder's output. targets: what the decoder must write, one token per
    position (我, 爱, 猫, then the end token </s>). inputs = shift_right(targets):
    what it reads (teacher forcing), a start token then the targets but the
    last; X_tgt (4, 4) their embeddings (a Chinese word shares its English
    translation's meaning column; only <s> has the start column). The output
    at position t predicts targets[t] from inputs[: t + 1] (0-based): the query
    that predicts 猫 is the one at 爱's position, not at 猫's.
    inputs_pinyin, targets_pinyin: the same tokens in Latin letters, for
    figure labels that any font can draw.

    W_Q, W_K, W_V (4, 4) are the cross-attention layer's weights. W_K reads the
    three meaning columns and W_V passes them through. W_Q asks, at each
    position, for the source word the *next* target translates (subject, verb,
    object, the order English and Chinese share here): start → person,
    person → affection, affection → animal, animal → nothing. A trained
    decoder builds that query from the words it has written so far (its
    masked self-attention); here W_Q does it directly, so the numbers stay
    readable. enc_W_Q (4, 4) is the encoder's self-attention query: the verb
    asks for its subject and object, the nouns for their verb (with the same
    W_K and W_V), as in the source articles' self-attention example.
    """

    source: tuple[str, ...]
    targets: tuple[str, ...]
    inputs: tuple[str, ...]
    inputs_pinyin: tuple[str, ...]
    targets_pinyin: tuple[str, ...]
    features: tuple[str, ...]
    X_src: np.ndarray
    X_tgt: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    enc_W_Q: np.ndarray

    def position_predicting(self, token: str) -> int:
        """The row (0-based) of X_tgt, Q and A whose output predicts target `token`: 猫 → 2, 爱's position."""
        if token not in self.targets:
            raise ValueError(f"token must be one of the targets {self.targets}, got {token!r}")
        return self.targets.index(token)

    @property
    def input_labels(self) -> tuple[str, ...]:
        """What the decoder reads, as a figure labels it: the characters in a Chinese figure (drawn
        with a CJK font), their pinyin in any other (any font draws it): ('<s>', 'wǒ', 'ài', 'māo')."""
        return self.inputs if _draws_chinese() else self.inputs_pinyin

    @property
    def prediction_labels(self) -> tuple[str, ...]:
        """A label per decoder position, 'what it reads → what it predicts', as `input_labels` writes
        the words: ('<s> → wǒ', …), in a Chinese figure ('<s> → 我', …)."""
        targets = self.targets if _draws_chinese() else self.targets_pinyin
        return tuple(f"{a} → {b}" for a, b in zip(self.input_labels, targets))


def _draws_chinese() -> bool:
    """Whether what is drawn now is drawn for a Chinese reader (the package's current language)."""
    return current().startswith("zh")


def translation() -> Translation:
    """The source articles' cross-attention example "I love cats" → "我 爱 猫" as toy numbers (see `Translation`).
    Chapter 10."""
    X_src = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], dtype=float)  # I, love, cats
    X_tgt = np.array([[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], dtype=float)  # <s>, 我, 爱, 猫
    # Rows: what the decoder reads (person, affection, animal, start); columns: what it asks for.
    W_Q = np.array([[0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0], [2, 0, 0, 0]], dtype=float)
    W_K = np.diag([2.0, 2.0, 2.0, 0.0])
    W_V = np.diag([1.0, 1.0, 1.0, 0.0])
    enc_W_Q = np.array([[0, 2, 0, 0], [2, 0, 2, 0], [0, 2, 0, 0], [0, 0, 0, 0]], dtype=float)
    targets = ("我", "爱", "猫", END)
    pinyin = {START: START, "我": "wǒ", "爱": "ài", "猫": "māo", END: END}
    inputs = shift_right(targets)
    return Translation(
        source=("I", "love", "cats"),
        targets=targets,
        inputs=inputs,
        inputs_pinyin=tuple(pinyin[x] for x in inputs),
        targets_pinyin=tuple(pinyin[x] for x in targets),
        features=("person", "affection", "animal", "start"),
        X_src=X_src,
        X_tgt=X_tgt,
        W_Q=W_Q,
        W_K=W_K,
        W_V=W_V,
        enc_W_Q=enc_W_Q,
    )


def feature_labels(names) -> list[str]:
    """The examples' feature (column) names, e.g. sentence.COLUMNS or Translation.features, in the
    current language, for a figure's labels (the names stay English: they are keys). Chapters 8, 10."""
    words = {
        "noun": _("noun"),
        "animate": _("animate"),
        "place": _("place"),
        "pronoun": _("pronoun"),
        "verb": _("verb"),
        "adjective": _("adjective"),
        "function": _("function"),
        "pos cos": _("pos cos"),
        "pos sin": _("pos sin"),
        "other 1": _("other {k}").format(k=1),
        "other 2": _("other {k}").format(k=2),
        "other 3": _("other {k}").format(k=3),
        "person": _("person"),
        "affection": _("affection"),
        "animal": _("animal"),
        "start": _("start"),
    }
    unknown = [name for name in names if name not in words]
    if unknown:
        raise ValueError(f"feature_labels: no label for {unknown}; known names are {sorted(words)}")
    return [words[name] for name in names]
