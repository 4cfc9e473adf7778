"""The source articles' sentence, "The animal didn't cross the street because it was too tired",
run through one self-attention layer with three heads.

Nothing here is trained and nothing is downloaded. The embeddings and the
weight matrices are **built by hand for teaching**, so that what a trained
Transformer is known to learn becomes visible on a small example:

- each word's embedding x_i (a row of X, d_model = 12) is made of
  interpretable features (noun, animate, place, pronoun, verb, adjective,
  function word), a positional encoding (2 numbers that rotate with the
  position, as in the original Transformer's sinusoids) and three "other"
  dimensions of seeded noise standing for everything else an embedding holds;
- head 1, **coreference**: a pronoun's query asks for "a noun that can be
  tired", i.e. an animate noun; every noun's key answers "noun", animate
  nouns also answer "animate". So "it" attends most to "animal" and a little
  to "street";
- head 2, **previous token**: queries and keys use only the positional
  encoding, with the query rotated back by one position, so token i looks at
  token i − 1;
- head 3, **broad**: small seeded random W_Q and W_K, so scores are close
  to 0 and every token spreads its attention over the whole sentence.

Each head has d_k = d_v = 4; W_V copies a few features into the head and W_O
writes them back where they came from, so the output Y (n, 12) can be read
with the same feature names as X. Everything else is computed by the core:
`trace_attention(X, W_Q, W_K, W_V, W_O, num_heads=3)`.

    tokens, t = sentence_trace()
    t.head(0).A[tokens.index("it")]      "it"'s weights in head 1, coreference (code index 0)

Heads are numbered 1, 2, 3 in the text and 0, 1, 2 in code (`t.head(r - 1)`);
columns of X and of the weights are code indices (0-based) in the comments below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .examples import ExampleLayer
from .multihead import Trace

SENTENCE = "The animal didn't cross the street because it was too tired"

# The columns of X, in order: 7 features, 2 positional, 3 of noise.
FEATURES = ("noun", "animate", "place", "pronoun", "verb", "adjective", "function")
POSITION = ("pos cos", "pos sin")
OTHER = ("other 1", "other 2", "other 3")
COLUMNS = FEATURES + POSITION + OTHER
D_MODEL = len(COLUMNS)  # 12
HEAD_NAMES = ("coreference", "previous token", "broad")
NUM_HEADS = len(HEAD_NAMES)  # 3
D_K = D_MODEL // NUM_HEADS  # 4

# Which features each word has (anything not listed is 0). "animal" is the
# only noun that can be tired; "street" is a place.
LEXICON = {
    "the": ("function",),
    "animal": ("noun", "animate"),
    "didn't": ("verb", "function"),
    "cross": ("verb",),
    "street": ("noun", "place"),
    "because": ("function",),
    "it": ("pronoun",),
    "was": ("verb", "function"),
    "too": ("function",),
    "tired": ("adjective",),
    # Chapters 8 and 9 swap "tired" for "wide": a word the layer knows but gives no feature, so the
    # hand-built coreference head cannot tell it from nothing (a trained model would move "it").
    "wide": (),
    # A few more, so that a learner can change the sentence ("The dog didn't cross the road ...").
    "dog": ("noun", "animate"),
    "cat": ("noun", "animate"),
    "road": ("noun", "place"),
}

ANGLE = np.pi / 8  # the positional encoding turns by this much per token


def _refuse_unknown(words, argument: str, where: str = "") -> None:
    """A ValueError naming the words of `words` that LEXICON lacks, and the words it has."""
    unknown = [t for t in dict.fromkeys(words) if t not in LEXICON]
    if unknown:
        raise ValueError(
            f"{argument} has {'a word' if len(unknown) == 1 else f'{len(unknown)} words'} the hand-built layer does not "
            f"know: {', '.join(map(repr, unknown))}{where}; "
            f"the words it knows: {', '.join(LEXICON)}"
        )


def tokenize(text: str = SENTENCE) -> list[str]:
    """Lower-case words; an apostrophe stays inside its word ("didn't" is one token), punctuation goes. Chapter 8.

    Words are English words of the letters a–z: a letter or digit it cannot split (Chinese, an
    accented letter, a number) is an error naming them, and so is a word the hand-built layer does
    not know (not in LEXICON), with the words it knows: the tokens are for `embed`."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {text!r} ({type(text).__name__})")
    word = r"[a-z]+(?:'[a-z]+)?"
    tokens = re.findall(word, text.lower())
    unsupported = list(dict.fromkeys(c for c in re.sub(word, " ", text.lower()) if c.isalnum()))
    if unsupported:
        raise ValueError(
            f"text must be English words written with the letters a–z; tokenize cannot split "
            f"{', '.join(map(repr, unsupported))} in {text!r}"
        )
    if not tokens:
        raise ValueError(f"text must contain at least one word, got {text!r}")
    _refuse_unknown(tokens, "text", f" (in {text!r})")
    return tokens


# What chapter 8 follows through the layer, and the book's sentence's words for them.
ROLES = (("pronoun", ("pronoun",)), ("animate noun", ("noun", "animate")), ("place", ("place",)))


def referents(tokens) -> tuple[int, int, int]:
    """Code indices of the first pronoun, the first animate noun and the first place of `tokens`:
    "it", "animal" and "street" in the book's sentence (7, 1, 5), "it", "dog" and "road" in
    "The dog didn't cross the road because it was too tired".

    Chapter 8 follows the pronoun to the nouns it may refer to, so a sentence without one of them
    is an error naming what it lacks and the known words that have it."""
    if isinstance(tokens, str):
        raise TypeError(f"tokens must be a list of words, got the string {tokens!r}: referents(tokenize({tokens!r}))")
    tokens = list(tokens)
    _refuse_unknown(tokens, "tokens")
    found, missing = [], []
    for role, features in ROLES:
        index = next((k for k, t in enumerate(tokens) if set(features) <= set(LEXICON[t])), None)
        found.append(index)
        if index is None:
            words = [w for w, has in LEXICON.items() if set(features) <= set(has)]
            missing.append(f"{role} (the known words: {', '.join(map(repr, words))})")
    if missing:
        raise ValueError(
            f"tokens {tokens} has no {' and no '.join(missing)}: chapter 8 follows a pronoun to an animate noun "
            f"and a place, so the sentence needs all three"
        )
    return tuple(found)


def _col(name: str) -> int:
    return COLUMNS.index(name)


def positional_encoding(n: int) -> np.ndarray:
    """(n, 2): the row of the token at code index i is (cos iθ, sin iθ) with θ = π/8, a point
    turning round a circle (the first token sits at angle 0). Chapter 8."""
    i = np.arange(n)[:, None]
    return np.hstack([np.cos(i * ANGLE), np.sin(i * ANGLE)])


def embed(tokens, seed: int = 0, noise: float = 0.1, other: float = 0.5) -> np.ndarray:
    """X (n, 12): each token's features plus seeded noise, plus its position. Chapter 8.

    The same word gets the same word vector wherever it appears (both "the"s
    differ only in their positional columns). Features are 1 or 0 plus noise
    of standard deviation `noise`; the three "other" columns are noise of
    standard deviation `other`. `tokens` is a list of words (`tokenize(text)` makes one), each a word
    of LEXICON: a string, or a word the layer does not know, is an error naming the known words.
    """
    if isinstance(tokens, str):
        raise TypeError(
            f"tokens must be a list of words (strings), got the string {tokens!r}; "
            f"split it into words first: embed(tokenize({tokens!r}))"
        )
    tokens = list(tokens)
    if not tokens or not all(isinstance(t, str) for t in tokens):
        raise TypeError(f"tokens must be a non-empty list of strings, got {tokens!r}")
    _refuse_unknown(tokens, "tokens")
    rng = np.random.default_rng(seed)
    vocabulary = {}
    for token in tokens:  # one word vector per distinct word, in order of first appearance
        if token not in vocabulary:
            word = np.zeros(D_MODEL)
            for feature in LEXICON.get(token, ()):
                word[_col(feature)] = 1.0
            word[: len(FEATURES)] += rng.normal(0.0, noise, len(FEATURES))
            word[-len(OTHER) :] = rng.normal(0.0, other, len(OTHER))
            vocabulary[token] = word
    X = np.array([vocabulary[t] for t in tokens])
    X[:, _col("pos cos") : _col("pos sin") + 1] = positional_encoding(len(tokens))
    return X


@dataclass(frozen=True)
class Weights:
    """The layer's hand-built weights: W_Q, W_K, W_V (12, 3·4) and W_O (12, 12); head r (1 … 3)
    owns columns 4(r − 1) … 4r − 1 (code indices) of W_Q, W_K, W_V and those rows of W_O. Chapter 8."""

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray


# Features each head's values carry (W_V copies them, W_O puts them back).
VALUE_FEATURES = (
    ("noun", "animate", "place", "adjective"),  # coreference: what the pronoun refers to
    ("verb", "function", "other 1", "other 2"),  # previous token: the word before
    ("noun", "verb", "adjective", "other 3"),  # broad: a summary of the sentence
)


def weights(seed: int = 0) -> Weights:
    """The hand-built (not trained) W_Q, W_K, W_V, W_O described in the module docstring. Chapter 8."""
    W_Q = np.zeros((D_MODEL, D_MODEL))
    W_K = np.zeros((D_MODEL, D_MODEL))
    W_V = np.zeros((D_MODEL, D_MODEL))
    # Head 1, coreference (code columns 0-3): a pronoun asks "noun?" and "animate?".
    W_Q[_col("pronoun"), 0] = 4.0
    W_Q[_col("pronoun"), 1] = 4.0
    W_K[_col("noun"), 0] = 1.0
    W_K[_col("animate"), 1] = 1.0
    # Head 2, previous token (code columns 4-5): q_i is c·p_{i-1}, k_j is c·p_j, so
    # q_i·k_j = c² cos((i − 1 − j)θ) is largest at j = i − 1.
    c = 9.0
    p = [_col("pos cos"), _col("pos sin")]
    rotate_back = np.array([[np.cos(ANGLE), -np.sin(ANGLE)], [np.sin(ANGLE), np.cos(ANGLE)]])
    W_Q[np.ix_(p, [4, 5])] = c * rotate_back
    W_K[np.ix_(p, [4, 5])] = c * np.eye(2)
    # Head 3, broad (code columns 8-11): small random queries and keys, scores near 0.
    rng = np.random.default_rng(seed + 1)
    W_Q[:, 8:12] = rng.normal(0.0, 0.15, (D_MODEL, 4))
    W_K[:, 8:12] = rng.normal(0.0, 0.15, (D_MODEL, 4))
    # Values: the head at code index `index` copies its VALUE_FEATURES into its 4 columns ...
    for index, features in enumerate(VALUE_FEATURES):
        for m, feature in enumerate(features):
            W_V[_col(feature), D_K * index + m] = 1.0
    # ... and W_O writes each value column back to the feature it came from.
    W_O = W_V.T.copy()
    return Weights(W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O)


def sentence_layer(text: str = SENTENCE, seed: int = 0) -> ExampleLayer:
    """The hand-built 3-head layer on `text`: its tokens, X = embed(tokens) (n, 12) and the weights. Chapter 8."""
    tokens = tokenize(text)
    w = weights(seed)
    return ExampleLayer(tuple(tokens), embed(tokens, seed), w.W_Q, w.W_K, w.W_V, w.W_O, NUM_HEADS)


def sentence_trace(text: str = SENTENCE, seed: int = 0, mask=None) -> tuple[list[str], Trace]:
    """Tokens and the Trace of the 3-head layer on `text`: X (n, 12), A (3, n, n), Y (n, 12). Chapter 8.

    `mask` (bool, (n, n)) is passed to the layer, e.g. `causal_mask(n)` for a decoder.
    """
    layer = sentence_layer(text, seed)
    return list(layer.tokens), layer.trace(mask=mask)


def strongest_link(trace: Trace, tokens, query: str, head: int = 0) -> tuple[str, float]:
    """The key token `query` attends to most in the head at code index `head` (head r of the
    text is r − 1: 0 is head 1, coreference), and its weight. Chapter 8."""
    tokens = list(tokens)
    if query not in tokens:
        raise ValueError(f"query {query!r} is not one of the tokens {tokens}")
    row = trace.head(head).A[tokens.index(query)]
    j = int(np.argmax(row))
    return tokens[j], float(row[j])
