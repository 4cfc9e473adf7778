"""Worked examples from the source articles, as data.

`i_love()` is the 2-token "I love" example with d_k = 3. The article gives X,
W_Q, K and V but leaves W_K and W_V out; the two integer matrices below are one
choice that reproduces its K and V exactly (tests check X W_K = K, X W_V = V).
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
    """The seed's 2-token example: "I" = [1, 0, 1, 0], "love" = [0, 1, 0, 1], d_k = d_v = 3."""
    X = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], dtype=float)
    W_Q = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1]], dtype=float)
    W_K = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0]], dtype=float)
    W_V = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=float)
    return Example(tokens=("I", "love"), X=X, W_Q=W_Q, W_K=W_K, W_V=W_V)
