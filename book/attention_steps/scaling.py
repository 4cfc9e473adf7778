"""Why divide by √d_k: score statistics, saturation measures and the three strategies.

Gradients are measured with respect to the raw scores q·k (`raw_score_jacobian`,
J(a)/c for a divisor c) and to the query (`query_jacobian`), the quantities the
chain rule carries back to W_Q and W_K; `softmax_jacobian` is softmax's own
Jacobian J(a), with respect to its input (the scaled scores). Those live in
`softmax_gradients` (chapter 4's topic).

Shared by the scaling and softmax chapters and by their explorers, so the
numbers in the prose, the figures and the widgets are the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int, positive_number
from .core import softmax

# Chapter 4's measures live in softmax_gradients; this module's readers (the explorers, older code) find them here too.
from .softmax_gradients import (  # noqa: F401
    entropy,
    gradient_size,
    query_jacobian,
    raw_gradient_size,
    raw_score_jacobian,
    softmax_jacobian,
    with_temperature,
)

# The divisor each strategy applies to q·k: the three strategies of the source articles.
STRATEGIES = {"none": "no scaling", "d_k": "÷ d_k", "sqrt_d_k": "÷ √d_k"}


def divisor(d_k, strategy: str) -> float:
    """What q·k is divided by under `strategy` ("none", "d_k" or "sqrt_d_k"). Chapter 3."""
    d_k = positive_number("d_k", d_k)
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, got {strategy!r}")
    return {"none": 1.0, "d_k": d_k, "sqrt_d_k": float(np.sqrt(d_k))}[strategy]


@dataclass(frozen=True, eq=False)
class Saturation:
    """One (d_k, strategy) setting: one query's raw and scaled scores and weights over
    n_keys keys, averages over many random queries (q, k ~ N(0, I)), and every
    query's gradient sizes, so medians and spreads can be read, not only means. Chapters 3 and 4."""

    d_k: int
    strategy: str
    raw_scores: np.ndarray  # (n_keys,) q·k_j for the example query (query 0)
    scaled_scores: np.ndarray  # (n_keys,) after the strategy's divisor
    weights: np.ndarray  # (n_keys,) softmax of the scaled scores
    score_variance: float  # Var of the scaled scores over all samples
    mean_max_weight: float  # average largest weight
    mean_entropy: float  # average entropy (nats); ln(n_keys) is uniform
    gradients: np.ndarray  # (n_queries,) ‖∂a/∂(q·k)‖_F per query, w.r.t. the RAW scores: ‖J(a)‖_F / c
    query_gradients: np.ndarray  # (n_queries,) ‖∂a/∂q‖_F = ‖J(a) K / c‖_F per query
    top_gaps: np.ndarray  # (n_queries,) largest minus second-largest scaled score, per query

    @property
    def divisor(self) -> float:
        return divisor(self.d_k, self.strategy)

    @property
    def max_weight(self) -> float:
        return float(self.weights.max())

    @property
    def entropy(self) -> float:
        return float(entropy(self.weights))

    @property
    def gradient(self) -> float:
        """The example query's ‖∂a/∂(q·k)‖_F with respect to the raw scores."""
        return float(self.gradients[0])

    @property
    def mean_gradient(self) -> float:
        return float(self.gradients.mean())

    @property
    def median_gradient(self) -> float:
        return float(np.median(self.gradients))

    def gradient_percentile(self, p: float) -> float:
        """The p-th percentile (0–100) of the per-query gradient sizes."""
        if not 0 <= p <= 100:
            raise ValueError(f"p must be a percentile between 0 and 100, got {p}")
        return float(np.percentile(self.gradients, p))

    @property
    def median_query_gradient(self) -> float:
        return float(np.median(self.query_gradients))

    def near_tie_share(self, gap: float = 1.0) -> tuple[float, float]:
        """(fraction of queries whose two largest scaled scores differ by less than `gap`,
        their fraction of the summed gradient sizes): how much of the mean near-ties carry."""
        gap = positive_number("gap", gap)
        near = self.top_gaps < gap
        return float(near.mean()), float(self.gradients[near].sum() / self.gradients.sum())


def _components(d_k: int, n_keys: int, n_queries: int, seed: int):
    """Component c of every query and key, c = 1 … d_k, in the order `score_samples` draws them:
    (q_c (n_queries, 1), k_c (n_queries, n_keys)). The same seed gives the same draws."""
    rng = np.random.default_rng(seed)
    for _ in range(d_k):
        q_c = rng.standard_normal((n_queries, 1))
        yield q_c, rng.standard_normal((n_queries, n_keys))


def _scores_and_key_grams(d_k: int, n_keys: int, n_queries: int, seed: int, block: int = 64):
    """One pass over `_components`: the raw scores q·k_j (n_queries, n_keys) and every query's key
    Gram matrix K Kᵀ (n_queries, n_keys, n_keys), K its n_keys keys as rows: all that ‖J K‖_F needs.

    Components are gathered `block` at a time so that each block is two batched matrix products;
    memory stays O(n_queries · n_keys · block) for any d_k."""
    raw = np.zeros((n_queries, n_keys))
    gram = np.zeros((n_queries, n_keys, n_keys))
    q_block = np.empty((n_queries, 1, block))
    k_block = np.empty((n_queries, block, n_keys))  # k_block[:, c] is component c of every key
    filled = 0
    for q_c, k_c in _components(d_k, n_keys, n_queries, seed):
        q_block[:, 0, filled], k_block[:, filled] = q_c[:, 0], k_c
        filled += 1
        if filled == block:
            _add_block(raw, gram, q_block, k_block)
            filled = 0
    if filled:
        _add_block(raw, gram, q_block[:, :, :filled], k_block[:, :filled])
    return raw, gram


def _add_block(raw, gram, q, k):
    """raw += Σ_c q_c k_c and gram += Σ_c k_c k_cᵀ over a block of components c."""
    raw += (q @ k)[:, 0]
    gram += k.transpose(0, 2, 1) @ k


def saturation(
    d_k: int, strategy: str = "sqrt_d_k", *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0
) -> Saturation:
    """Sample queries and keys with independent N(0, 1) components and measure
    how the softmax over n_keys keys behaves under `strategy`. Chapters 3 and 4.

    The same seed gives the same keys for every d_k's first components, so
    moving a d_k slider changes the dimension, not the luck of the draw.
    Gradient sizes are taken with respect to the raw scores (`raw_score_jacobian`)
    and to the query (`query_jacobian`), one per query.
    """
    return strategy_sweep([d_k], n_keys=n_keys, n_queries=n_queries, seed=seed, strategies=[strategy])[strategy][0]


def _saturation(d_k: int, strategy: str, raw: np.ndarray, gram: np.ndarray) -> Saturation:
    """`saturation` from the draws: raw (n_queries, n_keys) = q·k_j and gram = every query's K Kᵀ."""
    n_queries, n_keys = raw.shape
    c = divisor(d_k, strategy)
    scaled = raw / c
    A = softmax(scaled)
    jac = A[:, :, None] * (np.eye(n_keys) - A[:, None, :]) / c  # ∂a/∂(q·k) = (diag(a) − a aᵀ) / c, every query at once
    # ‖(J / c) K‖_F² = trace((J / c) K Kᵀ (J / c)ᵀ): the Gram matrix stands in for K, whose size grows with d_k.
    query_sq = np.einsum("qij,qjk,qik->q", jac, gram, jac)
    top = np.sort(scaled, axis=1)
    return Saturation(
        d_k=d_k,
        strategy=strategy,
        raw_scores=raw[0],
        scaled_scores=scaled[0],
        weights=A[0],
        score_variance=float(scaled.var()),
        mean_max_weight=float(A.max(axis=-1).mean()),
        mean_entropy=float(entropy(A).mean()),
        gradients=np.linalg.norm(jac, axis=(1, 2)),
        query_gradients=np.sqrt(query_sq),
        top_gaps=top[:, -1] - top[:, -2] if n_keys > 1 else np.full(n_queries, np.inf),
    )


def settles_below(sweep: dict[str, list[Saturation]], strategy: str, other: str, *, field: str = "median_gradient"):
    """The smallest d_k of a `strategy_sweep` from which `strategy`'s `field` stays below
    `other`'s at every larger d_k of the sweep; None if it never does. Chapter 3."""
    for name in (strategy, other):
        if name not in sweep:
            raise ValueError(f"strategy must be one of the sweep's {sorted(sweep)}, got {name!r}")
    a, b = sweep[strategy], sweep[other]
    below = [getattr(x, field) < getattr(y, field) for x, y in zip(a, b)]
    for i, run in enumerate(a):
        if all(below[i:]):
            return run.d_k
    return None


@dataclass(frozen=True)
class VarianceEstimate:
    """A Monte Carlo estimate of Var[q·k] with its standard error; theory says d_k. Chapter 3."""

    d_k: int
    n_samples: int
    estimate: float
    stderr: float  # standard error of the sample variance, from the sample's 4th moment

    @property
    def z(self) -> float:
        """How many standard errors the estimate lies from the theory d_k."""
        return (self.estimate - self.d_k) / self.stderr


def dot_product_variance_estimate(d_k: int, *, n_samples: int = 100_000, seed: int = 0) -> VarianceEstimate:
    """Draw n_samples pairs q, k with independent N(0, 1) components; estimate Var[q·k]. Chapter 3.

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
    return VarianceEstimate(
        d_k=d_k, n_samples=n_samples, estimate=var, stderr=float(np.sqrt(max(m4 - var**2, 0.0) / n_samples))
    )


def dot_product_variance_mc(d_k: int, *, n_samples: int = 100_000, seed: int = 0) -> float:
    """Monte Carlo estimate of Var[q·k] for q, k with independent N(0, 1) components (theory: d_k). Chapter 3."""
    return dot_product_variance_estimate(d_k, n_samples=n_samples, seed=seed).estimate


def strategy_sweep(
    d_k_values, *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0, strategies=tuple(STRATEGIES)
) -> dict[str, list[Saturation]]:
    """`saturation` for every strategy at every d_k: {strategy: [Saturation per d_k]}. Chapter 3.

    The strategies share one draw per d_k (they differ only in the divisor), as `saturation`
    calls with the same seed would."""
    d_k_values = [positive_int("d_k", d) for d in d_k_values]
    n_keys = positive_int("n_keys", n_keys)
    n_queries = positive_int("n_queries", n_queries)
    for strategy in strategies:
        divisor(1, strategy)  # the clear error for an unknown strategy, before any drawing
    sweep = {strategy: [] for strategy in strategies}
    for d in d_k_values:
        raw, gram = _scores_and_key_grams(d, n_keys, n_queries, seed)
        for strategy in strategies:
            sweep[strategy].append(_saturation(d, strategy, raw, gram))
    return sweep


def score_samples(d_k: int, *, n_keys: int = 8, n_queries: int = 2000, seed: int = 0) -> np.ndarray:
    """The raw scores q·k_j that `saturation` draws, shape (n_queries, n_keys). Chapters 3 and 4.

    Same seed, same draws: row 0 is `saturation(d_k, ...).raw_scores`. Divide by
    `divisor(d_k, strategy)` for the scaled scores of any strategy.
    """
    d_k = positive_int("d_k", d_k)
    n_keys = positive_int("n_keys", n_keys)
    n_queries = positive_int("n_queries", n_queries)
    # The draw `saturation` makes (`_scores_and_key_grams`; its key Gram matrices go unused): memory
    # stays O(n_queries · n_keys · 64) for any d_k, and component c is drawn the same way for every
    # d_k > c, so a larger d_k adds components to the same draw rather than drawing afresh.
    return _scores_and_key_grams(d_k, n_keys, n_queries, seed)[0]


@dataclass(frozen=True)
class Histogram:
    """Fractions of samples in `bins` equal bins over [-limit, limit], plus the
    fractions that fall below and above that window (they sum to 1). Chapter 3."""

    limit: float
    fractions: np.ndarray  # (bins,)
    below: float
    above: float

    @property
    def edges(self) -> np.ndarray:
        return np.linspace(-self.limit, self.limit, len(self.fractions) + 1)


def histogram(values, *, limit, bins: int = 40) -> Histogram:
    """Histogram of `values` (any shape) on the symmetric window [-limit, limit]. Chapter 3."""
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
