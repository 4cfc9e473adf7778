"""Figures and tables for the scaling (3) and softmax (4) chapters.

Every drawing function takes numbers computed by `attention_steps.scaling` / the core and
returns a matplotlib Figure (or a Markdown string); the `show_` ones are chapter 3's figures, one
line each (chapter 4's are in `figures.softmax`): each draws its figure and says what it shows
(the alt text, in the current language) from the same numbers (`figures.show_figure`). Colours come from `attention_steps.palette`; sizes follow `plotting` (≤ 6.4 in wide).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..i18n import _
from ..palette import OKABE_ITO, STRATEGY_STYLES
from ..scaling import Saturation, VarianceEstimate
from ..tables import markdown_table  # noqa: F401 (the chapters call sf.markdown_table)
from . import show_figure
from .plotting import matrix_equation


def score_spread(samples: dict[int, np.ndarray]):
    """Histograms of raw scores q·k, one per d_k ({d_k: samples}), on one axis."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    colours = [OKABE_ITO["blue"], OKABE_ITO["orange"], OKABE_ITO["vermillion"]]
    limit = 4 * np.sqrt(max(samples))
    for (d, values), colour in zip(samples.items(), colours):
        ax.hist(
            values.ravel(),
            bins=80,
            range=(-limit, limit),
            density=True,
            histtype="step",
            lw=1.8,
            color=colour,
            label=_("$d_k$ = {d}  (std {std})").format(d=d, std=f"{values.std():.1f}"),
        )
    ax.set_xlabel(_("raw score  q·k"))
    ax.set_ylabel(_("density"))
    ax.set_yticks([])
    ax.legend(frameon=False, fontsize=9)
    ax.set_title(_("The larger $d_k$, the wider the raw scores spread"))
    return fig


def variance_vs_dk(estimates: Sequence[VarianceEstimate]):
    """Monte Carlo Var[q·k] (points, ±2 standard errors) beside the theory d_k (line), log–log."""
    d = np.array([e.d_k for e in estimates], dtype=float)
    est = np.array([e.estimate for e in estimates])
    err = np.array([2 * e.stderr for e in estimates])
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    ax.plot(d, d, color=OKABE_ITO["black"], lw=1, label=_("theory: $d_k$"))
    ax.errorbar(
        d, est, yerr=err, fmt="o", color=OKABE_ITO["orange"], ms=5, capsize=3, label=_("Monte Carlo (± 2 s.e.)")
    )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("$d_k$")
    ax.set_ylabel("Var[q·k]")
    ax.legend(frameon=False)
    ax.set_title(_("Simulated variance of q·k lies on the line Var = $d_k$"))
    return fig


def strategy_curves(sweep: dict[str, list[Saturation]], *, n_keys: int, spread: tuple[float, float] = (25, 75)):
    """Four panels against d_k: score variance, largest weight, entropy (averages over the
    queries), and the gradient with respect to the raw scores, ‖∂a/∂(q·k)‖ = ‖J(a)‖ / c:
    its median per query as a line and the `spread` percentiles (default: the middle half
    of the queries) as a band, on a log scale."""
    fig, axes = plt.subplots(2, 2, figsize=(6.4, 5.4), sharex=True)
    panels = [
        ("score_variance", _("score variance"), "log"),
        ("mean_max_weight", _("largest weight (mean)"), "linear"),
        ("mean_entropy", _("entropy, nats (mean)"), "linear"),
    ]
    for ax, (field, title, yscale) in zip(axes.ravel(), panels):
        for strategy, runs in sweep.items():
            d = [r.d_k for r in runs]
            style = STRATEGY_STYLES[strategy]
            ax.plot(
                d,
                [getattr(r, field) for r in runs],
                marker=style.marker,
                ms=4,
                color=style.colour,
                label=_("no scaling") if strategy == "none" else style.tex_label,  # words translated, maths kept
            )
        ax.set_yscale(yscale)
        ax.set_title(title, fontsize=11)
    grad = axes[1, 1]
    lo, hi = spread
    for strategy, runs in sweep.items():
        d = [r.d_k for r in runs]
        colour, marker = STRATEGY_STYLES[strategy].colour, STRATEGY_STYLES[strategy].marker
        grad.fill_between(
            d,
            [r.gradient_percentile(lo) for r in runs],
            [r.gradient_percentile(hi) for r in runs],
            color=colour,
            alpha=0.18,
            lw=0,
        )
        grad.plot(d, [r.median_gradient for r in runs], marker=marker, ms=4, color=colour)
    grad.set_yscale("log")
    grad.set_title(
        _("gradient ‖∂a/∂(q·k)‖: median,\n{lo}–{hi} % of queries shaded").format(lo=f"{lo:g}", hi=f"{hi:g}"),
        fontsize=10,
    )
    for ax in axes.ravel():
        ax.set_xscale("log", base=2)
    axes[0, 1].set_ylim(0, 1.02)
    axes[1, 0].axhline(np.log(n_keys), color="grey", lw=0.8, ls="--")
    axes[1, 0].text(1, np.log(n_keys), _("ln {n} (uniform)").format(n=n_keys), va="bottom", fontsize=8, color="grey")
    for ax in axes[1]:
        ax.set_xlabel("$d_k$")
    axes[0, 0].legend(frameon=False, fontsize=9)
    return fig


def temperature_bars(weights_by_T: dict[float, np.ndarray], labels: Sequence[str]):
    """softmax(s / T) for several temperatures T: one group of bars per key."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    n_T = len(weights_by_T)
    width = 0.8 / n_T
    shades = plt.get_cmap("cividis")(np.linspace(0.0, 0.85, n_T))
    x = np.arange(len(labels))
    for t, ((T, w), shade) in enumerate(zip(weights_by_T.items(), shades)):
        ax.bar(x + (t - (n_T - 1) / 2) * width, w, width, color=shade, label=f"T = {T:g}")
    ax.set_xticks(x, labels=labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel(_("weight"))
    ax.legend(frameon=False, fontsize=9, ncols=min(n_T, 3))
    ax.set_title(_("Low temperature sharpens, high temperature flattens"))
    return fig


def saturation_curve(factors, max_weight, gradient):
    """Largest weight and gradient size of softmax(λ · s) as the scale λ grows."""
    fig, ax = plt.subplots(figsize=(6.0, 3.4))
    ax.plot(factors, max_weight, color=OKABE_ITO["blue"], marker="o", ms=4, label=_("largest weight"))
    ax.plot(factors, gradient, color=OKABE_ITO["vermillion"], marker="s", ms=4, label=_("gradient size ‖J‖"))
    ax.set_xscale("log", base=2)
    ax.set_xlabel(_("scale factor λ applied to the scores"))
    ax.set_ylim(0, 1.05)
    ax.legend(frameon=False)
    ax.set_title(_("As one weight nears 1, the gradient dies"))
    return fig


def exp_vs_linear(scores, labels: Sequence[str], linear, soft):
    """Dividing by the sum versus softmax, for the same positive scores."""
    fig, ax = plt.subplots(figsize=(5.6, 3.0))
    x = np.arange(len(labels))
    ax.bar(x - 0.2, linear, 0.4, color=OKABE_ITO["sky"], label="s / Σs")
    ax.bar(x + 0.2, soft, 0.4, color=OKABE_ITO["blue"], label="softmax(s)")
    ax.set_xticks(x, labels=[f"{lab}\ns = {s:g}" for lab, s in zip(labels, scores)])
    ax.set_ylim(0, 1)
    ax.set_ylabel(_("weight"))
    ax.legend(frameon=False)
    ax.set_title(_("$e^s$ widens the gaps between scores"))
    return fig


# ----------------------------------------------------------------------------- chapter 3's figures
def show_scaling(QK_T, S, d_k: int, tokens: Sequence[str]) -> None:
    """QKᵀ ÷ √d_k = S written out as matrices, rows the query tokens and columns the key tokens."""
    show_figure(
        lambda: matrix_equation([("QKᵀ", QK_T, tokens, tokens), f"÷ √{d_k}", "=", ("S", S, tokens, tokens)]),
        alt=lambda: _(
            "QKᵀ = {qk} divided by the square root of {d_k} gives S = {s}; "
            "rows are the query tokens I and love, columns the key tokens."
        ).format(qk=QK_T.tolist(), d_k=d_k, s=np.round(S, 2).tolist()),
    )


def show_score_spread(spread: dict[int, np.ndarray]) -> None:
    """Histograms of raw scores q·k, one per d_k (`spread`: {d_k: samples}, `scaling.score_samples`)."""
    show_figure(
        lambda: score_spread(spread),
        alt=lambda: _(
            "Histograms of raw scores q·k for d_k = 4, 64 and 512; all are centred on 0 and the spread grows: {spreads}."
        ).format(
            spreads=_(", ").join(
                _("standard deviation {std} at d_k = {d}").format(std=f"{v.std():.1f}", d=d) for d, v in spread.items()
            )
        ),
    )


def show_variance_vs_dk(estimates: Sequence[VarianceEstimate]) -> None:
    """The simulated variance of q·k against d_k (`scaling.dot_product_variance_estimate`, one per d_k)."""
    show_figure(
        lambda: variance_vs_dk(estimates),
        alt=lambda: _(
            "Log-log plot of the simulated variance of q·k against d_k from 1 to 1024: every estimate lies on "
            "the line variance = d_k; at d_k = 1024 the estimate is {estimate}."
        ).format(estimate=f"{estimates[-1].estimate:.0f}"),
    )


def show_strategy_curves(sweep: dict[str, list[Saturation]], n_keys: int) -> None:
    """The three strategies against d_k (`scaling.strategy_sweep`): score variance, largest weight, entropy, gradient."""
    last = {s: runs[-1] for s, runs in sweep.items()}
    show_figure(
        lambda: strategy_curves(sweep, n_keys=n_keys),
        alt=lambda: _(
            "Four panels against d_k from 1 to 1024 for the three strategies. Score variance: d_k, 1/d_k and 1. "
            "Without scaling the average largest weight rises to {none_max} and the entropy falls "
            "to {none_entropy}; dividing by d_k makes the weights nearly uniform (entropy "
            "{dk_entropy}); dividing by √d_k keeps them nearly level ({sqrt_max}). "
            "Bottom right, on a log scale, the median gradient with respect to the raw scores with the middle half of the "
            "queries shaded: at d_k = 1024 it is {none_grad} without scaling, "
            "{dk_grad} for ÷ d_k and {sqrt_grad} for ÷ √d_k; the unscaled "
            "band spreads over many orders of magnitude."
        ).format(
            none_max=f"{last['none'].mean_max_weight:.2f}",
            none_entropy=f"{last['none'].mean_entropy:.2f}",
            dk_entropy=f"{last['d_k'].mean_entropy:.2f}",
            sqrt_max=f"{last['sqrt_d_k'].mean_max_weight:.2f}",
            none_grad=f"{last['none'].median_gradient:.1e}",
            dk_grad=f"{last['d_k'].median_gradient:.1e}",
            sqrt_grad=f"{last['sqrt_d_k'].median_gradient:.1e}",
        ),
    )
