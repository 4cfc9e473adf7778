"""The softmax Jacobian of n scores, derived with sympy rather than asserted. Chapter 12 (chapter 4
derives it by hand).

    d = softmax_jacobian_derivation(3)
    d.jacobian          # ∂a_i/∂s_j, differentiated by sympy from a_i = e^{s_i} / Σ_t e^{s_t}
    d.matches           # True: written with the a_i, it is diag(a) − a aᵀ entry by entry
    d.vjp_matches       # True: gᵀ J = a ⊙ (g − (g·a)), the rule the backward uses
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ._validate import positive_int


@dataclass(frozen=True)
class JacobianDerivation:
    """The softmax Jacobian of n scores, derived by sympy. Chapter 12.

    `s` the scores s_1 … s_n, `a` the weights' symbols a_1 … a_n, `g` an upstream gradient
    g_1 … g_n (∂L/∂a); `softmax` the n weights e^{s_i} / Σ_t e^{s_t} as expressions in s;
    `jacobian` ∂a_i/∂s_j differentiated by sympy (in s); `in_weights` the same written with
    the a_i (sympy checks it equals `jacobian`); `formula` diag(a) − a aᵀ; `vjp` gᵀ J, one
    entry per score; `vjp_formula` a ⊙ (g − (g·a)); `row_sums` the sums of J's rows (all 0).
    """

    s: tuple
    a: tuple
    g: tuple
    softmax: sp.Matrix
    jacobian: sp.Matrix
    in_weights: sp.Matrix
    formula: sp.Matrix
    vjp: sp.Matrix
    vjp_formula: sp.Matrix
    row_sums: sp.Matrix

    @property
    def matches(self) -> bool:
        """sympy's Jacobian, rewritten with the a_i, is diag(a) − a aᵀ entry by entry."""
        return sp.simplify(self.in_weights - self.formula) == sp.zeros(*self.formula.shape)

    @property
    def vjp_matches(self) -> bool:
        """gᵀ J equals a ⊙ (g − (g·a)) entry by entry."""
        return sp.simplify(self.vjp - self.vjp_formula) == sp.zeros(*self.vjp.shape)


def softmax_jacobian_derivation(n: int = 3) -> JacobianDerivation:
    """Differentiate softmax of n scores with sympy and compare with diag(a) − a aᵀ. Chapter 12."""
    n = positive_int("n", n)
    s = sp.symbols(f"s_1:{n + 1}", real=True)
    a = sp.symbols(f"a_1:{n + 1}", positive=True)
    g = sp.symbols(f"g_1:{n + 1}", real=True)
    total = sum(sp.exp(x) for x in s)
    weights = sp.Matrix([sp.exp(x) / total for x in s])
    jacobian = weights.jacobian(sp.Matrix(s))  # entry (i, j): ∂a_i / ∂s_j
    # Write every e^{s_i} / Σ e^{s_t} as a_i: replace e^{s_i} by a_i · Σ (then Σ cancels).
    D = sp.Symbol("D", positive=True)
    in_weights = sp.simplify(
        jacobian.subs(total, D).subs({sp.exp(x): w * D for x, w in zip(s, a)}).applyfunc(sp.cancel)
    )
    av = sp.Matrix(a)
    formula = sp.diag(*a) - av * av.T
    gv = sp.Matrix(g)
    vjp = (gv.T * in_weights).T  # one entry per score: Σ_i g_i ∂a_i/∂s_j
    g_dot_a = sum(x * y for x, y in zip(g, a))
    vjp_formula = sp.Matrix([w * (x - g_dot_a) for w, x in zip(a, g)])
    row_sums = sp.simplify(in_weights * sp.ones(n, 1)).subs(a[-1], 1 - sum(a[:-1])).applyfunc(sp.expand)
    return JacobianDerivation(
        s=s,
        a=a,
        g=g,
        softmax=weights,
        jacobian=jacobian,
        in_weights=in_weights,
        formula=formula,
        vjp=sp.expand(vjp),
        vjp_formula=vjp_formula,
        row_sums=row_sums,
    )


__all__ = ["JacobianDerivation", "softmax_jacobian_derivation"]
