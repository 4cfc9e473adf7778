"""Worked examples from the source articles, as data, and one of our own.

`i_love()` is the 2-token "I love" example with d_k = 3. The article gives X,
W_Q, K and V but leaves W_K and W_V out; the two integer matrices below are one
choice that reproduces its K and V exactly (tests check X W_K = K, X W_V = V).
`unequal_lengths()` is ours: two tokens whose queries differ in length, with
W_K = W_Q, the counterexample of exercise 2.2 and of chapter 4's symmetry section.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Example:
    """Inputs of a small self-attention example: tokens, X (n, d_model), W_Q, W_K, W_V (d_model, d_k)."""

    tokens: tuple[str, ...]
    X: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray


def i_love() -> Example:
    """The source article's 2-token example: "I" = [1, 0, 1, 0], "love" = [0, 1, 0, 1], d_k = d_v = 3."""
    X = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], dtype=float)
    W_Q = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1]], dtype=float)
    W_K = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0]], dtype=float)
    W_V = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=float)
    return Example(tokens=("I", "love"), X=X, W_Q=W_Q, W_K=W_K, W_V=W_V)


def unequal_lengths() -> Example:
    """Two tokens whose queries have different lengths, with keys made by the same matrix.

    X = [[1, 0], [2, 0.1]] and W_Q = W_K = W_V = I (2 × 2), so q_1 = k_1 = [1, 0]
    and q_2 = k_2 = [2, 0.1]. QKᵀ = QQᵀ is symmetric, yet the largest score of
    token 1 is not its own (q_1 · q_2 = 2 > q_1 · q_1 = 1: the longer q_2 wins),
    and the row-wise softmax of this symmetric matrix is not symmetric.
    """
    X = np.array([[1.0, 0.0], [2.0, 0.1]])
    identity = np.eye(2)
    return Example(tokens=("t₁", "t₂"), X=X, W_Q=identity, W_K=identity.copy(), W_V=identity.copy())


@dataclass(frozen=True)
class Translation:
    """The source articles' translation "I love cats" → "我 爱 猫", with toy embeddings (d_model = 4).

    The columns of every embedding mean: (person, affection, animal, Chinese).
    source: the English tokens; X_src (3, 4) their embeddings, standing for the
    encoder's output. target: the decoder's tokens, a start token then the
    Chinese words; X_tgt (4, 4). pinyin: the target tokens in Latin letters,
    for figure labels that any font can draw.

    W_Q, W_K, W_V (4, 4) are the cross-attention layer's weights: W_Q and W_K
    read the meaning columns (a target word's query looks for the source word
    with the same meaning) and ignore the language column; W_V passes the
    meaning through. enc_W_Q (4, 4) is the encoder's self-attention query:
    the verb asks for its subject and object, the nouns for their verb
    (with the same W_K and W_V), as in the source articles' self-attention example.
    """

    source: tuple[str, ...]
    target: tuple[str, ...]
    pinyin: tuple[str, ...]
    features: tuple[str, ...]
    X_src: np.ndarray
    X_tgt: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    enc_W_Q: np.ndarray


def translation() -> Translation:
    """The source articles' cross-attention example "I love cats" → "我 爱 猫" as toy numbers (see `Translation`)."""
    X_src = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], dtype=float)  # I, love, cats
    X_tgt = np.array([[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]], dtype=float)  # <s>, 我, 爱, 猫
    W_Q = np.diag([2.0, 2.0, 2.0, 0.0])
    W_K = np.diag([2.0, 2.0, 2.0, 0.0])
    W_V = np.diag([1.0, 1.0, 1.0, 0.0])
    enc_W_Q = np.array([[0, 2, 0, 0], [2, 0, 2, 0], [0, 2, 0, 0], [0, 0, 0, 0]], dtype=float)
    return Translation(
        source=("I", "love", "cats"),
        target=("<s>", "我", "爱", "猫"),
        pinyin=("<s>", "wǒ", "ài", "māo"),
        features=("person", "affection", "animal", "Chinese"),
        X_src=X_src, X_tgt=X_tgt, W_Q=W_Q, W_K=W_K, W_V=W_V, enc_W_Q=enc_W_Q,
    )  # fmt: skip
