"""Softmax's sensitivity (chapter 4, used by chapter 3's saturation measures): entropy of the
weights, the Jacobian J(a) = diag(a) − aaᵀ with respect to softmax's own input, the gradient
with respect to the raw scores q·k (J(a) / c for a divisor c) and to the query, and temperature.

`attention_steps.scaling` imports these for its saturation measures, so
`from attention_steps.scaling import entropy` keeps working.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_matrix, positive_number
from .core import softmax


def entropy(A, axis: int = -1) -> np.ndarray:
    """Entropy in nats of each distribution along `axis`: 0 for one-hot, ln n for uniform. Chapter 4."""
    A = as_matrix("A", A)
    if (A < 0).any():
        where = tuple(int(x) for x in np.argwhere(A < 0)[0])
        raise ValueError(f"A must hold probabilities (>= 0), but A[{', '.join(map(str, where))}] is {A[where]}")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(A > 0, -A * np.log(A), 0.0)
    return terms.sum(axis=axis)


def softmax_jacobian(a) -> np.ndarray:
    """∂a/∂x for a = softmax(x), at the weights a: J(a) = diag(a) − a aᵀ, shape (n, n). Chapter 4.

    With respect to softmax's *own input* x. In attention that input is the
    scaled scores S = q·k / c; the gradient that trains W_Q and W_K is the one
    with respect to the raw scores q·k, `raw_score_jacobian` (J(a) / c).
    When a is nearly one-hot every entry is nearly 0: saturated softmax passes
    almost no gradient back.
    """
    a = as_matrix("a", a, ndim=1)
    return np.diag(a) - np.outer(a, a)


def gradient_size(a) -> float:
    """‖J(a)‖_F, the Frobenius norm of `softmax_jacobian(a)`: how strongly the weights a
    respond to softmax's own input. For the raw scores q·k use `raw_gradient_size`. Chapter 4."""
    return float(np.linalg.norm(softmax_jacobian(a)))


def raw_score_jacobian(a, c) -> np.ndarray:
    """∂a/∂(q·k) for a = softmax(q·k / c), with respect to the RAW scores q·k_j: J(a) / c, shape (n, n). Chapter 4.

    (The book's s = q·k / c are the scaled scores, softmax's input; J(a) = ∂a/∂s.)

    `a` (n,) are the weights, `c` > 0 the divisor (1, d_k or √d_k). W_Q and W_K
    reach the loss only through the raw scores, and c is a fixed number applied
    after them, so this, not `softmax_jacobian`, is what the chain rule carries
    back to them: the chain factor ∂(s/c)/∂s = 1/c is included.
    """
    c = positive_number("c", c)
    return softmax_jacobian(a) / c


def raw_gradient_size(a, c) -> float:
    """‖∂a/∂(q·k)‖_F = ‖J(a)‖_F / c: the size of `raw_score_jacobian(a, c)`. Chapter 4."""
    return float(np.linalg.norm(raw_score_jacobian(a, c)))


def query_jacobian(a, K, c) -> np.ndarray:
    """∂a/∂q for a = softmax(K q / c): J(a) K / c, shape (n, d_k). Chapter 4.

    `a` (n,) the weights, `K` (n, d_k) the keys as rows, `c` > 0 the divisor.
    The raw score s_j = q·k_j moves by k_j when q moves, so ∂s/∂q = K and
    ∂a/∂q = (∂a/∂(q·k)) K: the last step on the way from the weights to W_Q.
    """
    a = as_matrix("a", a, ndim=1)
    K = as_matrix("K", K, ndim=2)
    if K.shape[0] != a.size:
        raise ValueError(f"K must have one row per weight: a has {a.size} weights, K has shape {K.shape}")
    return raw_score_jacobian(a, c) @ K


def with_temperature(scores, temperature) -> np.ndarray:
    """softmax(scores / T): T > 1 flattens the weights, T < 1 sharpens them. Chapter 4."""
    T = positive_number("temperature", temperature)
    return softmax(as_matrix("scores", scores).astype(float) / T)


__all__ = [
    "entropy",
    "softmax_jacobian",
    "gradient_size",
    "raw_score_jacobian",
    "raw_gradient_size",
    "query_jacobian",
    "with_temperature",
]
