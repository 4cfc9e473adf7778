"""Why Var[q·k] = d_k, derived with sympy rather than asserted.

The derivation works for any distribution of the components: it only uses
that q_1 … q_{d_k}, k_1 … k_{d_k} are independent, that every q_i has mean μ_q
and variance σ_q², and every k_i mean μ_k and variance σ_k². Each step is a
chain of sympy expressions, lhs = … = result, and every result is *computed*
from the previous ones by four rules written as code below:

- linearity:    E[aX + bY] = a E[X] + b E[Y];
- definition:   Var[X] = E[X²] − E[X]²,  Cov[X, Y] = E[XY] − E[X]E[Y];
- independence: E[∏ x^p] = ∏ E[x^p] for independent x;
- moments:      E[x] = μ,  E[x²] = σ² + μ².

    from attention_steps.derivation import derivation
    d = derivation()
    for step in d.steps:
        print(step.reason, step.latex())
    d.result            # d_k, once μ = 0 and σ = 1

`sympy_stats_variance` checks the result independently with sympy.stats on
concrete distributions and a small concrete d_k.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp
from sympy.printing.latex import LatexPrinter

from ._validate import positive_int

# ----------------------------------------------------------------------------- symbols
i, j = sp.symbols("i j", integer=True, positive=True)
d_k = sp.Symbol("d_k", integer=True, positive=True)
mu_q, mu_k = sp.symbols("mu_q mu_k", real=True)
sigma_q, sigma_k = sp.symbols("sigma_q sigma_k", positive=True)
q, k = sp.IndexedBase("q"), sp.IndexedBase("k")

# The assumptions the book makes (components standardised): μ = 0, σ = 1.
_PARAMETERS = (d_k, mu_q, mu_k, sigma_q, sigma_k)  # the symbols, kept from being shadowed below
STANDARD = {mu_q: 0, mu_k: 0, sigma_q: 1, sigma_k: 1}


def _power(tex: str, exp) -> str:
    return tex if exp is None else f"{tex}^{{{exp}}}"


class E(sp.Function):
    """An unevaluated expectation E[x], printed as 𝔼[x]. Chapter 3."""

    nargs = 1

    def _latex(self, printer, exp=None):
        return _power(r"\mathbb{E}\left[" + printer._print(self.args[0]) + r"\right]", exp)


class Var(sp.Function):
    """An unevaluated variance Var[x]. Chapter 3."""

    nargs = 1

    def _latex(self, printer, exp=None):
        return _power(r"\operatorname{Var}\left[" + printer._print(self.args[0]) + r"\right]", exp)


class Cov(sp.Function):
    """An unevaluated covariance Cov[x, y]. Chapter 3."""

    nargs = 2

    def _latex(self, printer, exp=None):
        x, y = (printer._print(a) for a in self.args)
        return _power(r"\operatorname{Cov}\left[" + x + ", " + y + r"\right]", exp)


class _Printer(LatexPrinter):
    """sympy's LaTeX, but products read q before k (as in q·k), not alphabetically."""

    def __init__(self):
        super().__init__({"order": "none"})

    def _print_Mul(self, expr):
        if not isinstance(expr, sp.Mul):  # sympy prints x**-1 as a fraction through here
            return super()._print_Mul(expr)

        def side(factor):
            if factor.is_number or factor == d_k:
                return 0
            is_q, is_k = factor.has(q, mu_q, sigma_q), factor.has(k, mu_k, sigma_k)
            return 1 if is_q and not is_k else 2 if is_k and not is_q else 3

        return super()._print_Mul(sp.Mul(*sorted(expr.args, key=side), evaluate=False))


def latex(expr) -> str:
    """LaTeX of a sympy expression, q before k. Chapter 3."""
    return _Printer().doprint(expr)


# ----------------------------------------------------------------------------- the four rules
# E[x^p] for every component of q (or of k): p = 1 gives μ, p = 2 gives σ² + μ².
MOMENTS = {
    q: {1: mu_q, 2: sigma_q**2 + mu_q**2},
    k: {1: mu_k, 2: sigma_k**2 + mu_k**2},
}


def by_definition(expr: sp.Expr) -> sp.Expr:
    """Rewrite Var and Cov in terms of expectations. Chapter 3."""
    return expr.replace(Var, lambda x: sp.Add(E(x**2), -(E(x) ** 2), evaluate=False)).replace(
        Cov, lambda x, y: sp.Add(E(x * y), -E(x) * E(y), evaluate=False)
    )


def by_independence(expr: sp.Expr) -> sp.Expr:
    """E of a polynomial in the components: linearity, then E[∏ x^p] = ∏ E[x^p]. Chapter 3.

    Components with different names or indices (q_i, k_i, q_j, q_1, …) are
    independent; q_i and q_j stand for two different components (i ≠ j).
    """

    def split(arg):
        arg = sp.expand(arg)
        components = sorted(arg.atoms(sp.Indexed), key=sp.default_sort_key)
        if not components:
            return arg  # a constant
        return sp.Add(
            *(
                coeff * sp.Mul(*(E(x**p) for x, p in zip(components, powers) if p))
                for powers, coeff in sp.Poly(arg, *components).terms()
            )
        )

    return expr.replace(E, split)


def by_moments(expr: sp.Expr) -> sp.Expr:
    """Replace E[x] by μ and E[x²] by σ² + μ² for a single component x. Chapter 3."""

    def moment(arg):
        component, power = arg.as_base_exp()
        known = MOMENTS.get(getattr(component, "base", None), {})
        if power not in known:
            raise ValueError(f"no moment E[{arg}] is known: expand into single components first")
        return known[power]

    return expr.replace(E, moment)


def expectation(expr: sp.Expr) -> sp.Expr:
    """E[expr] for a polynomial in the components q_·, k_· (all independent). Chapter 3."""
    return by_moments(by_independence(E(expr)))


# ----------------------------------------------------------------------------- the derivation
@dataclass(frozen=True)
class DerivationStep:
    """One line of the derivation: chain[0] = chain[1] = … = chain[-1], and why. Chapter 3."""

    name: str
    reason: str
    chain: tuple[sp.Expr, ...]
    standard: bool = False  # True once μ = 0, σ = 1 have been substituted

    @property
    def result(self) -> sp.Expr:
        return self.chain[-1]

    def latex(self, aligned: bool = True) -> str:
        """LaTeX of the chain; `aligned` puts the left side and each '= …' on lines of their own,
        so a long derivation stays narrow enough for a phone."""
        parts = [latex(e) for e in self.chain]
        if not aligned or len(parts) <= 2:
            return " = ".join(parts)
        lines = [f"& {parts[0]}"] + [rf"&\quad = {p}" for p in parts[1:]]
        return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"

    def _repr_latex_(self) -> str:
        return f"$$ {self.latex()} $$"


@dataclass(frozen=True)
class Derivation:
    """Every step, by name, and the two results: the general Var[q·k] and its value at μ = 0, σ = 1. Chapter 3."""

    steps: tuple[DerivationStep, ...]
    general: sp.Expr  # Var[q·k] for any μ_q, μ_k, σ_q, σ_k
    result: sp.Expr  # Var[q·k] with μ = 0, σ = 1: d_k

    def __getitem__(self, name: str) -> DerivationStep:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(f"no step {name!r}; steps: {[s.name for s in self.steps]}")


def derivation() -> Derivation:
    """Derive E and Var of one product q_i k_i, then of q·k = Σ_i q_i k_i, then of the scaled scores. Chapter 3."""
    steps = []

    def step(name, reason, *chain):
        # Steps named *standard, and every step after them, have μ = 0, σ = 1 substituted.
        standard = "standard" in name or any(s.standard for s in steps)
        steps.append(DerivationStep(name, reason, tuple(chain), standard=standard))
        return chain[-1]

    prod, other = q[i] * k[i], q[j] * k[j]
    mean_prod = step(
        "mean_product",
        "Independence lets the expectation of a product split into a product of expectations.",
        E(prod),
        by_independence(E(prod)),
        by_moments(by_independence(E(prod))),
    )
    second = by_moments(by_independence(E(prod**2)))
    step(
        "second_moment",
        "The same for the square; a second moment is variance plus squared mean, E[x²] = σ² + μ².",
        E(prod**2),
        by_independence(E(prod**2)),
        second,
    )
    var_prod = step(
        "var_product",
        "Variance is the second moment minus the squared mean.",
        Var(prod),
        by_definition(Var(prod)),
        second - mean_prod**2,
        sp.expand(second - mean_prod**2),
    )
    step(
        "covariance",
        "Two different terms (i ≠ j) share no variable, so they are uncorrelated.",
        Cov(prod, other),
        by_definition(Cov(prod, other)),
        sp.expand(expectation(prod * other) - mean_prod * mean_prod.subs(i, j)),
    )
    dot = sp.Sum(prod, (i, 1, d_k))
    mean_dot = step(
        "mean_dot",
        "Expectation is linear, and every term has the same mean.",
        E(dot),
        sp.Sum(E(prod), (i, 1, d_k)),
        sp.Sum(mean_prod, (i, 1, d_k)).doit(),
    )
    general = step(
        "var_dot_general",
        "Uncorrelated terms: the variance of the sum is the sum of the variances (no covariance terms).",
        Var(dot),
        sp.Sum(Var(prod), (i, 1, d_k)),
        sp.Sum(second - mean_prod**2, (i, 1, d_k)).doit(),
    )
    step(
        "mean_product_standard",
        "With standardised components (μ = 0, σ = 1), one product has mean 0 …",
        E(prod),
        mean_prod.subs(STANDARD),
    )
    step("var_product_standard", "… and variance 1.", Var(prod), var_prod.subs(STANDARD))
    step("mean_dot_standard", "So the dot product has mean 0 …", E(dot), mean_dot.subs(STANDARD))
    result = step("var_dot", "… and variance d_k: its spread grows like √d_k.", Var(dot), general.subs(STANDARD))
    step("var_none", "Without scaling the variance stays d_k.", Var(dot), result)
    for name, c, words in (
        ("var_d_k", d_k, "Dividing by d_k shrinks the variance to 1/d_k, since Var[X/c] = Var[X]/c²."),
        ("var_sqrt_d_k", sp.sqrt(d_k), "Dividing by √d_k brings it back to exactly 1, whatever d_k."),
    ):
        step(name, words, Var(dot / c), Var(dot) / c**2, result / c**2)
    return Derivation(steps=tuple(steps), general=general, result=result)


def variance_of_dot_product(dim: int, *, mu_q=0, mu_k=0, sigma_q=1, sigma_k=1) -> float:
    """Var[q·k] from the general result for concrete numbers: d_k((σ_q²+μ_q²)(σ_k²+μ_k²) − μ_q²μ_k²). Chapter 3."""
    dim = positive_int("dim", dim)
    for name, value in (("mu_q", mu_q), ("mu_k", mu_k), ("sigma_q", sigma_q), ("sigma_k", sigma_k)):
        finite = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
        if isinstance(value, bool) or not finite:
            raise TypeError(f"{name} must be a finite real number, got {value!r}")
    if sigma_q < 0 or sigma_k < 0:
        raise ValueError(f"sigma_q and sigma_k must be >= 0 (standard deviations), got {sigma_q!r} and {sigma_k!r}")
    return float(derivation().general.subs(dict(zip(_PARAMETERS, (dim, mu_q, mu_k, sigma_q, sigma_k)))))


def sympy_stats_variance(dim: int, distribution: str = "normal") -> sp.Expr:
    """Exact Var[q·k] computed by sympy.stats for a small concrete d_k (an independent check). Chapter 3.

    distribution: "normal" (N(0, 1) components) or "rademacher" (±1 with probability ½ each: mean 0,
    variance 1, and nothing like a normal)."""
    from sympy import stats

    dim = positive_int("dim", dim)
    if dim > 4:
        raise ValueError(f"dim must be at most 4 for an exact sympy.stats computation (it slows fast), got {dim}")
    makers = {"normal": lambda name: stats.Normal(name, 0, 1), "rademacher": stats.Rademacher}
    if distribution not in makers:
        raise ValueError(f"distribution must be one of {sorted(makers)}, got {distribution!r}")
    make = makers[distribution]
    dot = sum(make(f"q{n}") * make(f"k{n}") for n in range(1, dim + 1))
    return sp.simplify(stats.variance(dot))
