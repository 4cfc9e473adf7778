"""Why divide by √d_k: score statistics, saturation measures and the three strategies.

Shared by the scaling and softmax chapters and by their explorers, so the
numbers in the prose, the figures and the widgets are the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int, positive_number
from .core import softmax

# The divisor each strategy applies to q·k: the seeds' three strategies.
STRATEGIES = {
    "none": "no scaling",
    "d_k": "÷ d_k",
    "sqrt_d_k": "÷ √d_k",
}


def divisor(d_k, strategy: str) -> float:
    """What q·k is divided by under `strategy` ("none", "d_k" or "sqrt_d_k")."""
    d_k = positive_number("d_k", d_k)
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, got {strategy!r}")
    return {"none": 1.0, "d_k": d_k, "sqrt_d_k": float(np.sqrt(d_k))}[strategy]


def entropy(A, axis: int = -1) -> np.ndarray:
    """Entropy in nats of each distribution along `axis`: 0 for one-hot, ln n for uniform."""
    A = as_matrix("A", A)
    if (A < 0).any():
        where = tuple(int(x) for x in np.argwhere(A < 0)[0])
        raise ValueError(f"A must hold probabilities (>= 0), but A[{', '.join(map(str, where))}] is {A[where]}")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(A > 0, -A * np.log(A), 0.0)
    return terms.sum(axis=axis)


def softmax_jacobian(a) -> np.ndarray:
    """∂ softmax(s) / ∂ s at a = softmax(s): diag(a) − a aᵀ, shape (n, n).

    When a is nearly one-hot every entry is nearly 0: saturated softmax passes
    almost no gradient back to the scores.
    """
    a = as_matrix("a", a, ndim=1)
    return np.diag(a) - np.outer(a, a)


def gradient_size(a) -> float:
    """Frobenius norm of the softmax Jacobian at weights a: the size of the gradient it passes on."""
    return float(np.linalg.norm(softmax_jacobian(a)))


@dataclass(frozen=True)
class Saturation:
    """One (d_k, strategy) setting: one query's raw and scaled scores and weights over
    n_keys keys, and averages over many random queries (q, k ~ N(0, I))."""

    d_k: int
    strategy: str
    raw_scores: np.ndarray  # (n_keys,) q·k_j for the example query
    scaled_scores: np.ndarray  # (n_keys,) after the strategy's divisor
    weights: np.ndarray  # (n_keys,) softmax of the scaled scores
    score_variance: float  # Var of the scaled scores over all samples
    mean_max_weight: float  # average largest weight
    mean_entropy: float  # average entropy (nats); ln(n_keys) is uniform
    mean_gradient_size: float  # average ‖∂softmax/∂s‖_F

    @property
    def max_weight(self) -> float:
        return float(self.weights.max())

    @property
    def entropy(self) -> float:
        return float(entropy(self.weights))

    @property
    def gradient_size(self) -> float:
        return gradient_size(self.weights)


def saturation(d_k: int, strategy: str = "sqrt_d_k", *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0) -> Saturation:
    """Sample queries and keys with independent N(0, 1) components and measure
    how the softmax over n_keys keys behaves under `strategy`.

    The same seed gives the same keys for every d_k's first components, so
    moving a d_k slider changes the dimension, not the luck of the draw.
    """
    raw = score_samples(d_k, n_keys=n_keys, n_queries=n_queries, seed=seed)  # (n_queries, n_keys): q·k_j
    scaled = raw / divisor(d_k, strategy)
    A = softmax(scaled)
    jac = A[:, :, None] * (np.eye(n_keys) - A[:, None, :])  # diag(a) − a aᵀ for every query at once
    return Saturation(
        d_k=d_k,
        strategy=strategy,
        raw_scores=raw[0],
        scaled_scores=scaled[0],
        weights=A[0],
        score_variance=float(scaled.var()),
        mean_max_weight=float(A.max(axis=-1).mean()),
        mean_entropy=float(entropy(A).mean()),
        mean_gradient_size=float(np.linalg.norm(jac, axis=(1, 2)).mean()),
    )


@dataclass(frozen=True)
class VarianceEstimate:
    """A Monte Carlo estimate of Var[q·k] with its standard error; theory says d_k."""

    d_k: int
    n_samples: int
    estimate: float
    stderr: float  # standard error of the sample variance, from the sample's 4th moment

    @property
    def z(self) -> float:
        """How many standard errors the estimate lies from the theory d_k."""
        return (self.estimate - self.d_k) / self.stderr


def dot_product_variance_estimate(d_k: int, *, n_samples: int = 100_000, seed: int = 0) -> VarianceEstimate:
    """Draw n_samples pairs q, k with independent N(0, 1) components; estimate Var[q·k].

    The standard error is √((m₄ − s⁴) / n): m₄ the fourth central moment of the
    sample, s² its variance.
    """
    d_k = positive_int("d_k", d_k)
    n_samples = positive_int("n_samples", n_samples)
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 to estimate a variance, got {n_samples}")
    rng = np.random.default_rng(seed)
    total = np.zeros(n_samples)
    for _ in range(d_k):  # one component at a time: memory stays O(n_samples) for any d_k
        total += rng.standard_normal(n_samples) * rng.standard_normal(n_samples)
    centred = total - total.mean()
    var = float(np.mean(centred**2))
    m4 = float(np.mean(centred**4))
    return VarianceEstimate(d_k=d_k, n_samples=n_samples, estimate=var, stderr=float(np.sqrt(max(m4 - var**2, 0.0) / n_samples)))


def dot_product_variance_mc(d_k: int, *, n_samples: int = 100_000, seed: int = 0) -> float:
    """Monte Carlo estimate of Var[q·k] for q, k with independent N(0, 1) components (theory: d_k)."""
    return dot_product_variance_estimate(d_k, n_samples=n_samples, seed=seed).estimate


def strategy_sweep(d_k_values, *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0) -> dict[str, list[Saturation]]:
    """`saturation` for every strategy at every d_k: {strategy: [Saturation per d_k]}."""
    d_k_values = [positive_int("d_k", d) for d in d_k_values]
    return {
        strategy: [saturation(d, strategy, n_keys=n_keys, n_queries=n_queries, seed=seed) for d in d_k_values]
        for strategy in STRATEGIES
    }


def with_temperature(scores, temperature) -> np.ndarray:
    """softmax(scores / T): T > 1 flattens the weights, T < 1 sharpens them."""
    T = positive_number("temperature", temperature)
    return softmax(as_matrix("scores", scores).astype(float) / T)


def score_samples(d_k: int, *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0) -> np.ndarray:
    """The raw scores q·k_j that `saturation` draws, shape (n_queries, n_keys).

    Same seed, same draws: row 0 is `saturation(d_k, ...).raw_scores`. Divide by
    `divisor(d_k, strategy)` for the scaled scores of any strategy.
    """
    d_k = positive_int("d_k", d_k)
    n_keys = positive_int("n_keys", n_keys)
    n_queries = positive_int("n_queries", n_queries)
    rng = np.random.default_rng(seed)
    raw = np.zeros((n_queries, n_keys))
    # One component at a time: memory stays O(n_queries · n_keys) for any d_k, and
    # component c is drawn the same way for every d_k > c, so a larger d_k adds
    # components to the same draw rather than drawing afresh.
    for _ in range(d_k):
        raw += rng.standard_normal((n_queries, 1)) * rng.standard_normal((n_queries, n_keys))
    return raw


@dataclass(frozen=True)
class Histogram:
    """Fractions of samples in `bins` equal bins over [-limit, limit], plus the
    fractions that fall below and above that window (they sum to 1)."""

    limit: float
    fractions: np.ndarray  # (bins,)
    below: float
    above: float

    @property
    def edges(self) -> np.ndarray:
        return np.linspace(-self.limit, self.limit, len(self.fractions) + 1)


def histogram(values, *, limit, bins: int = 40) -> Histogram:
    """Histogram of `values` (any shape) on the symmetric window [-limit, limit]."""
    values = as_matrix("values", values).ravel()
    limit = positive_number("limit", limit)
    bins = positive_int("bins", bins)
    counts, _ = np.histogram(values, bins=bins, range=(-limit, limit))
    n = values.size
    return Histogram(
        limit=limit,
        fractions=counts / n,
        below=float(np.count_nonzero(values < -limit) / n),
        above=float(np.count_nonzero(values > limit) / n),
    )
