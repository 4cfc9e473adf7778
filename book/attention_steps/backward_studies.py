"""Chapter 12's studies of the backward pass: a step along −gradient, the gradient reaching W_Q and
W_K at initialisation under chapter 3's three scalings, and what the backward keeps from the forward
(the softmax Jacobian, derived with sympy, is in `jacobian_derivation.py`).

    descent(f, inputs, grads, steps)          f after a step of each size along −gradient (the forward's check)
    attention_backward_with_divisor(Q, K, V, dZ, c)   (dQ, dK, dV) for A = softmax(QKᵀ / c)
    weight_gradient_sweep(d_k_values)         ‖dW_Q‖, ‖dW_K‖ at initialisation, per strategy and d_k
    kept_for_backward(n, d_model, num_heads)  what the attention sublayer's backward reuses: A is h · n²

Every gradient here comes from the stages of `backward`; nothing is a proxy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int, positive_number
from .backward import scale_backward, scores_backward, softmax_backward, weighted_sum_backward
from .core import scores, softmax, weighted_sum
from .gradcheck import loss_value
from .scaling import STRATEGIES, divisor


# ----------------------------------------------------------------------------- the forward's check
@dataclass(frozen=True)
class Descent:
    """f after steps along −gradient. Chapter 12.

    `steps` (k,) the step sizes η; `losses` (k,) f after every input θ in the gradients moved to
    θ − η dθ; `start` f before; `predicted` (k,) the first-order prediction f − η Σ‖dθ‖²;
    `squared_norm` Σ‖dθ‖², the squared norms of every gradient given, added.
    """

    steps: np.ndarray
    losses: np.ndarray
    start: float
    predicted: np.ndarray
    squared_norm: float

    @property
    def decreases(self) -> bool:
        """Every step lowered f."""
        return bool((self.losses < self.start).all())

    def relative_gap(self) -> np.ndarray:
        """(k,) |actual − predicted change| / |predicted change|: shrinks like η for a right gradient."""
        predicted = self.predicted - self.start
        return np.abs((self.losses - self.start) - predicted) / np.abs(predicted)


def descent(f, inputs: dict, grads: dict, steps: Iterable[float]) -> Descent:
    """f(**inputs) after moving every input named in `grads` (and only those) by −η × its gradient, for
    each step size η in `steps`. Chapter 12.

    A right gradient is the direction of steepest increase, so for small η the loss drops by
    about η Σ‖dθ‖² over the inputs moved (the first-order prediction); a wrong one (a transposed
    product, a missing 1/√d_k) gives a different drop, or a rise.
    """
    if not isinstance(inputs, dict) or not isinstance(grads, dict) or not grads:
        raise TypeError("inputs and grads must be dicts from each argument's name to its array (grads not empty)")
    inputs = {name: as_matrix(name, x).astype(np.float64) for name, x in inputs.items()}
    g = {}
    for name, grad in grads.items():
        if name not in inputs:
            raise KeyError(f"grads has {name!r}, which is not one of the inputs {sorted(inputs)}")
        g[name] = as_matrix(f"grads[{name!r}]", grad).astype(np.float64)
        if g[name].shape != inputs[name].shape:
            raise ValueError(f"grads[{name!r}] must have the shape of inputs[{name!r}] {inputs[name].shape}")
    steps = np.array([positive_number("step", t) for t in steps], dtype=float)
    if steps.size == 0:
        raise ValueError("steps is empty: give at least one step size")
    start = loss_value(f(**inputs))
    norm2 = float(sum((x**2).sum() for x in g.values()))
    losses = np.array([loss_value(f(**{**inputs, **{k: inputs[k] - t * g[k] for k in g}})) for t in steps])
    return Descent(steps=steps, losses=losses, start=start, predicted=start - steps * norm2, squared_norm=norm2)


# ----------------------------------------------------------------------------- chapter 3, with the real backward
def attention_with_divisor(Q, K, V, c) -> tuple[np.ndarray, np.ndarray]:
    """(Z, A) for A = softmax(QKᵀ / c), Z = A V: one head with any divisor c > 0 (chapter 3's strategies). Chapter 12."""
    c = positive_number("c", c)
    A = softmax(scores(Q, K) / c)
    return weighted_sum(A, V), A


def attention_backward_with_divisor(Q, K, V, dZ, c) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dQ, dK, dV) for (Z, A) = attention_with_divisor(Q, K, V, c): the stages of `backward` in reverse. Chapter 12.

    With c = √d_k this is `scaled_dot_product_attention_backward` (a test checks it); the
    scale's chain factor is 1/c, so `scale_backward` gets c² (it divides by the root of its d_k).
    """
    dQ, dK, dV, _ = _divisor_backward(Q, K, V, dZ, c)
    return dQ, dK, dV


def _divisor_backward(Q, K, V, dZ, c):
    """`attention_backward_with_divisor`'s (dQ, dK, dV) and the gradient of the raw scores, d(QKᵀ)."""
    c = positive_number("c", c)
    _, A = attention_with_divisor(Q, K, V, c)
    dA, dV = weighted_sum_backward(A, V, dZ)
    dS = softmax_backward(A, dA)
    dQK_T = scale_backward(dS, c * c)
    dQ, dK = scores_backward(Q, K, dQK_T)
    return dQ, dK, dV, dQK_T


@dataclass(frozen=True)
class WeightGradients:
    """One (strategy, d_k): the Frobenius norms of dW_Q, dW_K and of the raw scores' gradient d(QKᵀ)
    over many random layers at initialisation. Chapter 12."""

    strategy: str
    d_k: int
    W_Q: np.ndarray  # (n_layers,) ‖dW_Q‖_F per layer
    W_K: np.ndarray  # (n_layers,) ‖dW_K‖_F per layer
    scores: np.ndarray  # (n_layers,) ‖d(QKᵀ)‖_F per layer: what chapter 3's proxy is about

    def median(self, which: str = "W_Q") -> float:
        return float(np.median(self._of(which)))

    def percentile(self, p: float, which: str = "W_Q") -> float:
        return float(np.percentile(self._of(which), p))

    def _of(self, which: str) -> np.ndarray:
        if which not in ("W_Q", "W_K", "scores"):
            raise ValueError(f"which must be 'W_Q', 'W_K' or 'scores', got {which!r}")
        return getattr(self, which)


def weight_gradients(d_k, strategy, *, n_tokens=8, d_model=64, d_v=8, n_layers=200, seed=0) -> WeightGradients:
    """‖dW_Q‖_F and ‖dW_K‖_F at initialisation under `strategy`, for `n_layers` random layers. Chapter 12.

    Each layer: X (n_tokens, d_model) standard normal; W_Q, W_K (d_model, d_k) and W_V (d_model, d_v)
    normal with variance 1/d_model, so q and k have standard-normal components (chapter 3's
    assumption); a loss L = Σ G ⊙ Z with G (n_tokens, d_v) standard normal, the gradient arriving
    from later layers (dZ = G). d_v stays fixed so that only the scores change with d_k. All layers
    go through `attention_backward_with_divisor` at once (as a batch), then dW = Xᵀ dQ per layer
    (`projection_backward`'s product, without summing over the batch: each layer has its own W).
    """
    d_k, n_tokens = positive_int("d_k", d_k), positive_int("n_tokens", n_tokens)
    d_model, d_v, n_layers = (
        positive_int("d_model", d_model),
        positive_int("d_v", d_v),
        positive_int("n_layers", n_layers),
    )
    c = divisor(d_k, strategy)
    rng = np.random.default_rng([seed, d_k])  # the same layers for every strategy at one d_k
    X = rng.standard_normal((n_layers, n_tokens, d_model))
    W_Q, W_K = (rng.standard_normal((n_layers, d_model, d_k)) / np.sqrt(d_model) for _ in range(2))
    W_V = rng.standard_normal((n_layers, d_model, d_v)) / np.sqrt(d_model)
    G = rng.standard_normal((n_layers, n_tokens, d_v))
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # one projection per layer
    dQ, dK, _, dQK_T = _divisor_backward(Q, K, V, G, c)
    Xt = np.swapaxes(X, -1, -2)
    return WeightGradients(
        strategy=strategy,
        d_k=d_k,
        W_Q=np.linalg.norm(Xt @ dQ, axis=(1, 2)),
        W_K=np.linalg.norm(Xt @ dK, axis=(1, 2)),
        scores=np.linalg.norm(dQK_T, axis=(1, 2)),
    )


def weight_gradient_sweep(d_k_values, strategies=tuple(STRATEGIES), **kwargs) -> dict[str, list[WeightGradients]]:
    """`weight_gradients` for every strategy and d_k: {strategy: [one per d_k]}. Chapter 12."""
    return {s: [weight_gradients(d, s, **kwargs) for d in d_k_values] for s in strategies}


# ----------------------------------------------------------------------------- memory
@dataclass(frozen=True)
class Kept:
    """What the backward of one attention sublayer reuses from its forward, in entries (numbers). Chapter 12.

    The attention sublayer only (X to Y = Z_cat W_O): not a Transformer layer's feed-forward
    sublayer, normalisations or residuals. `inputs` X (n · d_model), `projections` Q, K, V
    (3 · n · d_model), `weights` A (h · n²), `outputs` the heads' Z_cat (n · d_model, for dW_O),
    `statistics` the row maxima and sums a tiled forward keeps instead of A (2 · h · n).
    """

    n: int
    d_model: int
    num_heads: int
    inputs: int
    projections: int
    weights: int
    outputs: int
    statistics: int

    @property
    def stored(self) -> int:
        """Everything the plain backward keeps: X, Q, K, V, A, Z_cat."""
        return self.inputs + self.projections + self.weights + self.outputs

    @property
    def tiled(self) -> int:
        """What a tiled backward keeps instead: the same without A, plus two numbers per row and head."""
        return self.inputs + self.projections + self.outputs + self.statistics

    @property
    def weights_share(self) -> float:
        """The fraction of `stored` that is A."""
        return self.weights / self.stored

    def stored_bytes(self, number_bytes: int = 2) -> int:
        """`stored` in bytes, `number_bytes` a number (2: FP16)."""
        return positive_int("number_bytes", number_bytes) * self.stored

    def tiled_bytes(self, number_bytes: int = 2, statistics_bytes: int = 4) -> int:
        """`tiled` in bytes: the arrays at `number_bytes` a number (2: FP16), the row statistics at
        `statistics_bytes` (4: FP32, as tiled attention keeps its running maximum and sum)."""
        arrays = self.inputs + self.projections + self.outputs
        return (
            positive_int("number_bytes", number_bytes) * arrays
            + positive_int("statistics_bytes", statistics_bytes) * self.statistics
        )


def kept_for_backward(n, d_model, num_heads) -> Kept:
    """What the backward of one attention sublayer (n tokens, d_model, h heads) reuses from the forward. Chapter 12."""
    n, d, h = positive_int("n", n), positive_int("d_model", d_model), positive_int("num_heads", num_heads)
    if d % h:
        raise ValueError(f"num_heads={h} must divide d_model={d}")
    return Kept(
        n=n,
        d_model=d,
        num_heads=h,
        inputs=n * d,
        projections=3 * n * d,
        weights=h * n * n,
        outputs=n * d,
        statistics=2 * h * n,
    )


__all__ = [
    "Descent",
    "descent",
    "attention_with_divisor",
    "attention_backward_with_divisor",
    "WeightGradients",
    "weight_gradients",
    "weight_gradient_sweep",
    "Kept",
    "kept_for_backward",
]
