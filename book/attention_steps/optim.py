"""Two plain optimisers for chapter 13's training, written out: SGD and Adam.

    opt = Adam(lr=0.01)                    # or SGD(lr=0.1, momentum=0.9)
    params = opt.step(params, grads)       # new arrays; params and grads are dicts of the same names

Each step moves every parameter against its gradient. SGD: θ ← θ − lr · g (with momentum m, the
step is the running sum v ← m v + g). Adam (Kingma and Ba, 2015) divides each entry's step by a
running estimate of that entry's gradient size, so every parameter moves about lr a step
whatever its gradient's scale:

    m ← β₁ m + (1 − β₁) g,   r ← β₂ r + (1 − β₂) g²,   θ ← θ − lr · m̂ / (√r̂ + ε)

with m̂ = m / (1 − β₁ᵗ), r̂ = r / (1 − β₂ᵗ) (the running means start at 0, these undo that bias).
Nothing is random: the same gradients give the same steps.
"""

from __future__ import annotations

import numpy as np

from ._validate import positive_number


def check_step(params, grads) -> None:
    """params and grads: dicts with the same names, each gradient of its parameter's shape."""
    if not isinstance(params, dict) or not isinstance(grads, dict):
        raise TypeError("params and grads must be dicts from each parameter's name to its array")
    if set(params) != set(grads):
        raise KeyError(
            f"grads must have the names of params: missing {sorted(set(params) - set(grads))}, "
            f"unexpected {sorted(set(grads) - set(params))}"
        )
    for name, g in grads.items():
        if np.shape(g) != np.shape(params[name]):
            raise ValueError(
                f"grads[{name!r}] must have params[{name!r}]'s shape {np.shape(params[name])}; got {np.shape(g)}"
            )
        if not np.all(np.isfinite(g)):
            raise ValueError(f"grads[{name!r}] is not finite: the loss overflowed (try a smaller learning rate)")


class SGD:
    """Stochastic gradient descent: θ ← θ − lr · g, or with `momentum` m, v ← m v + g, θ ← θ − lr · v. Chapter 13."""

    def __init__(self, lr: float = 0.1, momentum: float = 0.0):
        self.lr = positive_number("lr", lr)
        if not 0 <= momentum < 1:
            raise ValueError(f"momentum must be in [0, 1), got {momentum!r}")
        self.momentum, self.velocity = float(momentum), {}

    def step(self, params: dict, grads: dict) -> dict:
        check_step(params, grads)
        out = {}
        for name, g in grads.items():
            v = self.velocity[name] = self.momentum * self.velocity.get(name, 0.0) + g
            out[name] = params[name] - self.lr * v
        return out

    def __repr__(self) -> str:
        return f"SGD(lr={self.lr:g}, momentum={self.momentum:g})"


class Adam:
    """Adam: per-entry steps of about lr, from running means of g and g². Chapter 13."""

    def __init__(self, lr: float = 0.01, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.lr, self.eps = positive_number("lr", lr), positive_number("eps", eps)
        for name, b in (("beta1", beta1), ("beta2", beta2)):
            if not 0 <= b < 1:
                raise ValueError(f"{name} must be in [0, 1), got {b!r}")
        self.beta1, self.beta2, self.t, self.m, self.r = float(beta1), float(beta2), 0, {}, {}

    def step(self, params: dict, grads: dict) -> dict:
        check_step(params, grads)
        self.t += 1
        b1, b2, out = self.beta1, self.beta2, {}
        for name, g in grads.items():
            m = self.m[name] = b1 * self.m.get(name, 0.0) + (1 - b1) * g
            r = self.r[name] = b2 * self.r.get(name, 0.0) + (1 - b2) * g * g
            m_hat, r_hat = m / (1 - b1**self.t), r / (1 - b2**self.t)
            out[name] = params[name] - self.lr * m_hat / (np.sqrt(r_hat) + self.eps)
        return out

    def __repr__(self) -> str:
        return f"Adam(lr={self.lr:g}, beta1={self.beta1:g}, beta2={self.beta2:g})"


__all__ = ["SGD", "Adam"]
