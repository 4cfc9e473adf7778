"""Check a gradient against central finite differences, for any function (chapter 12).

    numerical_gradient(f, x, eps=1e-6)                  ∂f/∂x, one entry at a time
    gradient_check(f, inputs, grads, eps=1e-6, tol=1e-7) -> GradientCheck

A backward pass is easy to get subtly wrong (a transposed product, a forgotten 1/√d_k) and
still produce arrays of the right shape. Central differences need no calculus:
∂f/∂x_j ≈ (f(x + ε e_j) − f(x − ε e_j)) / (2ε), with an error of order ε² (the curvature)
plus rounding of order 10⁻¹⁶ · |f| / ε; at ε = 10⁻⁶ in float64 both are far below 10⁻⁷.
`core.numerical_jacobian` (chapter 4) is the same idea for a function returning a vector.

    def loss(Q, K, V):                                  # any number computed from the inputs
        Z, _ = scaled_dot_product_attention(Q, K, V)
        return np.sum(Z * G)                            # so that dZ = G
    dQ, dK, dV = scaled_dot_product_attention_backward(Q, K, V, G)
    print(gradient_check(loss, {"Q": Q, "K": K, "V": V}, {"Q": dQ, "K": dK, "V": dV}))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_number
from ._validate_backward import entry
from .i18n import LANGUAGES, METADATA_KEY, _, current, language


def loss_value(value) -> float:
    """f's result as one finite float, or an error saying f must return one number."""
    v = np.asarray(value)
    if v.size != 1 or v.dtype.kind not in "iuf":
        raise TypeError(f"f must return one real number (the loss), got {type(value).__name__} of shape {v.shape}")
    v = v.reshape(())
    if not np.isfinite(v):
        raise ValueError(f"f must return a finite number, got {float(v)}")
    return float(v)


def numerical_gradient(f, x, eps=1e-6) -> np.ndarray:
    """∂f/∂x by central differences, same shape as x: entry j is (f(x + ε e_j) − f(x − ε e_j)) / (2ε). Chapter 12.

    f maps an array shaped like x to one number (the loss); x is any real array, copied to
    float64 (in float32 the difference of two nearby losses is mostly rounding). Calls f
    2 · x.size times, each with one entry moved by ε = `eps`.
    """
    x = as_matrix("x", x).astype(np.float64)  # a copy: one entry at a time is moved, then put back
    eps = positive_number("eps", eps)
    grad = np.empty_like(x)
    for j in np.ndindex(x.shape):
        kept = x[j]
        x[j] = kept + eps
        up = loss_value(f(x.copy()))
        x[j] = kept - eps
        down = loss_value(f(x.copy()))
        x[j] = kept
        grad[j] = (up - down) / (2 * eps)
    return grad


@dataclass(frozen=True)
class Entry:
    """One entry of a gradient: `name`[`index`] (code indices), the gradient given (`analytic`), the
    finite differences' (`numerical`) and `error` = |analytic − numerical| / max(1, |numerical|). Chapter 12."""

    name: str
    index: tuple[int, ...]
    analytic: float
    numerical: float
    error: float

    def __str__(self) -> str:
        """The entry in the current language (attention_steps.i18n)."""
        return _("{entry}: analytic {analytic}, numerical {numerical} (error {error})").format(
            entry=entry(self.name, self.index),
            analytic=f"{self.analytic:.10g}",
            numerical=f"{self.numerical:.10g}",
            error=f"{self.error:.1e}",
        )


@dataclass(frozen=True, repr=False)
class GradientCheck:
    """What `gradient_check` found. Chapter 12.

    `worst` is the entry furthest from the finite differences over every input, `worst_of[name]`
    the furthest in input `name`; `ok` (also the check's truth value: `assert gradient_check(...)`)
    says whether every error is within `tol`; `numerical[name]` is the whole finite-difference
    gradient. An entry's error is |analytic − numerical| / max(1, |numerical|): the difference
    itself for entries up to 1 in size, relative to the entry for larger ones.
    """

    worst_of: dict[str, Entry]
    numerical: dict[str, np.ndarray]
    tol: float
    eps: float

    @property
    def worst(self) -> Entry:
        return max(self.worst_of.values(), key=lambda e: e.error)

    @property
    def ok(self) -> bool:
        return self.worst.error <= self.tol

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        """The report in the current language (attention_steps.i18n): the verdict, then the worst entry of each gradient."""
        w = self.worst
        settings = _("(tolerance {tol}, eps {eps})").format(tol=f"{self.tol:.0e}", eps=f"{self.eps:.0e}")
        if self.ok:
            head = _("gradient check passed: every entry agrees with central differences {settings}")
        else:
            head = _("gradient check FAILED: {entry} is off by {error} {settings}")
        head = head.format(entry=entry(w.name, w.index), error=f"{w.error:.1e}", settings=settings)
        marks = {True: _("ok"), False: _("BAD")}
        width = max(len(m) for m in marks.values())
        lines = [head, _("worst entry of each gradient:")]
        lines += [f"  {marks[e.error <= self.tol].ljust(width)} {e}" for e in self.worst_of.values()]
        return "\n".join(lines)

    __repr__ = __str__  # a notebook shows the report, not the arrays

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The report as text, with the other languages' in the metadata (attention_steps.i18n): the
        book runs the check once and each edition shows the report in its own language."""
        here = current()
        other = {}
        for lang in LANGUAGES:
            if lang != here:
                with language(lang):
                    other[lang] = str(self)
        return {"text/plain": str(self)}, {METADATA_KEY: {"text/plain": other}}


def gradient_check(f, inputs: dict, grads: dict, eps=1e-6, tol=1e-7) -> GradientCheck:
    """Compare gradients with central finite differences of f, entry by entry. Chapter 12.

    f(**inputs) returns one number (the loss); `inputs` maps each argument's name to its array;
    `grads` maps some or all of those names to the gradient to check (same shape as the input).
    The inputs are copied to float64. Returns a `GradientCheck`: print it for the report, which
    names the worst entry of each gradient; `.ok` is True when every error is within `tol`.
    """
    if not isinstance(inputs, dict) or not isinstance(grads, dict):
        raise TypeError("inputs and grads must be dicts from each argument's name to its array")
    eps, tol = positive_number("eps", eps), positive_number("tol", tol)
    inputs = {name: as_matrix(name, x).astype(np.float64) for name, x in inputs.items()}
    analytic = {}
    for name, g in grads.items():
        if name not in inputs:
            raise KeyError(f"grads has {name!r}, which is not one of the inputs {sorted(inputs)}")
        analytic[name] = as_matrix(f"grads[{name!r}]", g).astype(np.float64)
        if analytic[name].shape != inputs[name].shape:
            raise ValueError(
                f"grads[{name!r}] must have the shape of inputs[{name!r}] {inputs[name].shape}; "
                f"got {analytic[name].shape}"
            )
    if not analytic:
        raise ValueError("grads is empty: give at least one gradient to check")
    numerical, worst_of = {}, {}
    for name, a in analytic.items():
        n = numerical[name] = numerical_gradient(lambda x, name=name: f(**{**inputs, name: x}), inputs[name], eps)
        errors = np.abs(a - n) / np.maximum(1.0, np.abs(n))
        j = np.unravel_index(np.argmax(errors), errors.shape)
        worst_of[name] = Entry(name, tuple(int(i) for i in j), float(a[j]), float(n[j]), float(errors[j]))
    return GradientCheck(worst_of=worst_of, numerical=numerical, tol=tol, eps=eps)


__all__ = ["numerical_gradient", "gradient_check", "GradientCheck", "Entry"]
