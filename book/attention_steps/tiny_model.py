"""A tiny Transformer without MLPs, trained in chapter 13 with chapter 12's backward.

    x_i = E[token_i] + P[i]                         token and position embeddings (B, n, d_model)
    X⁽ˡ⁺¹⁾ = X⁽ˡ⁾ + MultiHead⁽ˡ⁾(X⁽ˡ⁾)              l = 1 … L, each the book's layer (chapters 6 to 8)
    logits = x⁽ᴸ⁺¹⁾_it W_out + b_out                 a readout at "it": which noun, or il / elle

or, in a *pointing* model, the last layer is one head whose attention from "it" is the answer:
its scores s_j = q_it · k_j / c, with q_it = x⁽ᴸ⁾_it W_Q from the residual stream and k_j = x_j W_K
from the input embeddings (cross-attention, chapter 10: a key is its word and place, nothing the
layers added), trained so that softmax(s) puts its weight on the noun "it" refers to; the answer
is the key with the largest weight. So where it points can change only through what the earlier
layers carried into "it".

    model = TinyModel(vocab_size=35, n_tokens=11, d_model=32, num_heads=2, num_layers=2, n_classes=16, query=7)
    params = init_params(model, seed=0)             # a dict of arrays, named below
    loss, grads = loss_and_gradients(model, params, tokens, targets)   # grads: same names and shapes

Parameters (layers counted from 1, as in the text): "E" (vocab_size, d_model), "P" (n_tokens,
d_model), per layer l "W_Q{l}", "W_K{l}", "W_V{l}", "W_O{l}" (d_model, d_model), then "W_out"
(d_model, n_classes) and "b_out" (n_classes,); a pointing model's last layer has only "W_Q{L}"
and "W_K{L}" (d_model, d_k) and no readout. The layers run a batch of B sentences at once
(`batched_layer`, the stages of `core` and `backward`); for one sentence each is exactly `multi_head_attention`
(tests/test_tiny_model.py checks it, and the backward against `multi_head_attention_backward`).
`strategy` is chapter 3's divisor c of the scores: "sqrt_d_k" (c = √d_k, the book's layer),
"d_k" or "none" (c = 1); it is applied as the factor √d_k / c on Q, so the layer stays the book's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._validate import positive_int
from ._validate_model import check_ablate, check_params, check_targets, check_tokens
from .batched_layer import layer_backward, layer_forward
from .scaling import STRATEGIES, divisor


@dataclass(frozen=True)
class TinyModel:
    """The model's sizes and choices (no arrays: those are `init_params`'s dict). Chapter 13.

    `query` is the code index of the token read out ("it"); `n_classes` the readout's answers
    (None for a pointing model, whose answer is a key position); `strategy` the score divisor.
    """

    vocab_size: int
    n_tokens: int
    d_model: int
    num_heads: int
    num_layers: int
    n_classes: int | None
    query: int
    strategy: str = "sqrt_d_k"
    pointing: bool = False

    def __post_init__(self):
        for name in ("vocab_size", "n_tokens", "d_model", "num_heads", "num_layers"):
            positive_int(name, getattr(self, name))
        if self.d_model % self.num_heads:
            raise ValueError(f"num_heads={self.num_heads} must divide d_model={self.d_model}")
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, got {self.strategy!r}")
        if not 0 <= self.query < self.n_tokens:
            raise ValueError(
                f"query must be a code index 0 … {self.n_tokens - 1} (the token read out); got {self.query}"
            )
        if self.pointing != (self.n_classes is None):
            raise ValueError(
                "a pointing model has n_classes=None (its answer is a key); a readout model needs n_classes"
            )
        if self.n_classes is not None:
            positive_int("n_classes", self.n_classes)

    @property
    def d_k(self) -> int:
        return self.d_model // self.num_heads

    @property
    def query_factor(self) -> float:
        """√d_k / c: Q times this, then the core's ÷ √d_k, divides the scores by c."""
        return float(np.sqrt(self.d_k) / divisor(self.d_k, self.strategy))

    @property
    def attention_layers(self) -> int:
        """The layers with values and outputs (a pointing model's last layer has neither)."""
        return self.num_layers - 1 if self.pointing else self.num_layers

    def parameter_shapes(self) -> dict[str, tuple[int, ...]]:
        d = self.d_model
        shapes = {"E": (self.vocab_size, d), "P": (self.n_tokens, d)}
        for layer in range(1, self.attention_layers + 1):
            shapes |= {f"{w}{layer}": (d, d) for w in ("W_Q", "W_K", "W_V", "W_O")}
        if self.pointing:
            shapes |= {f"W_Q{self.num_layers}": (d, self.d_k), f"W_K{self.num_layers}": (d, self.d_k)}
        else:
            shapes |= {"W_out": (d, self.n_classes), "b_out": (self.n_classes,)}
        return shapes


def init_params(model: TinyModel, seed: int = 0, dtype=np.float64) -> dict[str, np.ndarray]:
    """Seeded starting parameters: embeddings N(0, ½) (so x_i has entries of variance 1), weights
    N(0, 1/d_model) (so q_i, k_i have entries of variance about 1), b_out 0. Chapter 13."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in model.parameter_shapes().items():
        sd = np.sqrt(0.5) if name in ("E", "P") else 0.0 if name == "b_out" else 1 / np.sqrt(model.d_model)
        params[name] = (sd * rng.standard_normal(shape)).astype(dtype)
    return params


# ----------------------------------------------------------------------------- the model
@dataclass
class Forward:
    """One forward pass. `X` the residual stream before each layer and after the last ((B, n, d)
    each, L + 1 of them; a pointing model's last is the pointing layer's input), `A` each layer's
    weights (B, h, n, n) (a pointing layer's: (B, 1, n, n)), `logits` (B, n_classes) or `pointer`
    (B, n) the pointing layer's weights from the query token; `answer` (B,) the class id or the key's
    code index. Chapter 13."""

    X: list
    A: list
    caches: list = field(repr=False)
    logits: np.ndarray | None = None
    pointer: np.ndarray | None = None

    @property
    def answer(self) -> np.ndarray:
        scores = self.pointer if self.logits is None else self.logits
        return np.argmax(scores, axis=-1)


def forward(model: TinyModel, params, tokens, ablate=None) -> Forward:
    """The model on a batch: tokens (B, n_tokens) ids. `ablate` (layers, heads, tokens) bool zeroes
    chosen heads' outputs at chosen tokens (for measuring where the answer is made). Chapter 13."""
    params, tokens, ablate = check_params(model, params), check_tokens(model, tokens), check_ablate(model, ablate)
    X = params["E"][tokens] + params["P"]
    xs, attention, caches = [X], [], []
    h, f = model.num_heads, model.query_factor
    for layer in range(1, model.attention_layers + 1):
        W = [params[f"{w}{layer}"] for w in ("W_Q", "W_K", "W_V", "W_O")]
        keep = None if ablate is None else (~ablate[layer - 1]).astype(X.dtype)
        Y, cache = layer_forward(X, *W, h, f, keep)
        X = X + Y  # the residual connection
        xs.append(X)
        attention.append(cache.A)
        caches.append(cache)
    if model.pointing:
        L = model.num_layers
        _, cache = layer_forward(X, params[f"W_Q{L}"], params[f"W_K{L}"], None, None, 1, f, X_kv=xs[0])
        attention.append(cache.A)
        caches.append(cache)
        return Forward(xs, attention, caches, pointer=cache.A[:, 0, model.query])
    logits = X[:, model.query] @ params["W_out"] + params["b_out"]
    return Forward(xs, attention, caches, logits=logits)


def loss_and_gradients(model: TinyModel, params, tokens, targets, ablate=None):
    """(loss, grads, forward): the mean cross-entropy over the batch and its gradient for every
    parameter (same names and shapes as params), by chapter 12's backward. Chapter 13.

    Readout model: L = mean −log softmax(logits)[target]. Pointing model: L = mean −log a_it,target,
    the pointing layer's weight from "it" on the target key. Raises FloatingPointError when the
    forward overflows (`train` then stops and reports the run as diverged).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        fw = forward(model, params, tokens, ablate)
    if not all(np.isfinite(x).all() for x in (*fw.X, fw.pointer if model.pointing else fw.logits)):
        raise FloatingPointError("the forward pass overflowed (the parameters are too large: a diverged run?)")
    tokens = check_tokens(model, tokens)
    B = tokens.shape[0]
    targets = check_targets(model, targets, B)
    rows = np.arange(B)
    grads = {}
    h, f = model.num_heads, model.query_factor
    if model.pointing:
        a = fw.pointer
        loss = -np.mean(np.log(np.maximum(a[rows, targets], np.finfo(a.dtype).tiny)))
        dS = np.zeros_like(fw.A[-1])
        dS[:, 0, model.query] = a  # softmax and cross-entropy together: dS = a − e_target, per sentence / B
        dS[rows, 0, model.query, targets] -= 1
        L = model.num_layers
        W = (params[f"W_Q{L}"], params[f"W_K{L}"], None, None)
        (dX, dX_input), g = layer_backward(fw.caches[-1], *W, 1, f, dS=dS / B)
        grads |= {f"{k}{L}": v for k, v in g.items()}
    else:
        z = fw.logits - fw.logits.max(axis=-1, keepdims=True)
        p = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
        loss = -np.mean(np.log(np.maximum(p[rows, targets], np.finfo(p.dtype).tiny)))
        dlogits = p
        dlogits[rows, targets] -= 1
        dlogits /= B
        x_it = fw.X[-1][:, model.query]
        grads["W_out"], grads["b_out"] = x_it.T @ dlogits, dlogits.sum(axis=0)
        dX, dX_input = np.zeros_like(fw.X[-1]), 0.0
        dX[:, model.query] = dlogits @ params["W_out"].T
    for layer in range(model.attention_layers, 0, -1):
        W = [params[f"{w}{layer}"] for w in ("W_Q", "W_K", "W_V", "W_O")]
        dX_layer, g = layer_backward(fw.caches[layer - 1], *W, h, f, dY=dX)
        dX = dX + dX_layer  # X⁽ˡ⁺¹⁾ = X⁽ˡ⁾ + Y⁽ˡ⁾: the gradient reaches X⁽ˡ⁾ both ways
        grads |= {f"{k}{layer}": v for k, v in g.items()}
    dX = dX + dX_input  # a pointing layer's keys read the input embeddings directly
    one_hot = np.zeros((tokens.size, model.vocab_size), dtype=dX.dtype)
    one_hot[np.arange(tokens.size), tokens.ravel()] = 1  # x_i = E[token_i] + P[i] is one_hot_i E + P[i]
    dE = one_hot.T @ dX.reshape(tokens.size, -1)  # a token used in several places collects every place's gradient
    grads["E"], grads["P"] = dE, dX.sum(axis=0)
    return float(loss), {name: grads[name] for name in model.parameter_shapes()}, fw


def accuracy(model: TinyModel, params, tokens, targets, ablate=None) -> float:
    """The share of sentences whose answer (the readout's class, or the pointer's strongest key) is the target.
    Chapter 13."""
    fw = forward(model, params, tokens, ablate)
    return float(np.mean(fw.answer == check_targets(model, targets, fw.answer.shape[0])))


__all__ = ["TinyModel", "init_params", "forward", "Forward", "loss_and_gradients", "accuracy"]
