"""Chapter 12's figures (backward): the gradient's path back through the stages, the loss
after a step along −gradient, and the gradient reaching W_Q under chapter 3's three scalings.

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapter
calls, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..backward_studies import Descent, WeightGradients
from ..i18n import _
from ..palette import CYCLE, FIGURE, OKABE_ITO, STRATEGY_STYLES
from . import show_figure


def gradient_path(shapes: Sequence[str]):
    """The forward down the left column (X, Q K V, QKᵀ, S, A, Z, L) with each array's shape, and beside
    it the gradient back up, with the rule of every stage. `shapes` (7,) the shapes' labels. Returns the Figure.

    Drawn tall and narrow (2.85 in, 335 px wide at the book's 110 dpi with its margin): a phone shows it at its
    full size, so every label stays as large as it was drawn."""
    names = ["X", "Q, K, V", "QKᵀ", "S", "A", "Z", "L"]
    if len(shapes) != len(names):
        raise ValueError(f"shapes must have one label per array {names}, got {len(shapes)}")
    rules = [  # the stage between array k and array k + 1, read upwards
        r"$dW_Q = X^\top dQ$",
        "$dQ = d(QK^\\top)\\,K$\n$dK = d(QK^\\top)^\\top Q$",
        r"$d(QK^\top) = dS\,/\sqrt{d_k}$",
        "$dS = A \\odot (dA$\n$\\quad - \\mathrm{rowsum}(dA \\odot A))$",
        "$dA = dZ\\,V^\\top$\n$dV = A^\\top dZ$",
        r"$dZ = \partial L/\partial Z$",
    ]
    width, step, top = 2.85, 0.78, 0.45  # inches: the figure's width, one stage's height, the header's
    height = top + step * (len(names) - 1) + 0.35
    fig = plt.figure(figsize=(width, height), layout="none")  # one axes filling the figure, in inches
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    shape_x, box_x, back_x, rule_x = 0.4, 0.86, 1.34, 1.48  # the columns, in inches
    y = [height - top - 0.15 - k * step for k in range(len(names))]
    for yi, name, shape in zip(y, names, shapes):
        ax.text(
            box_x,
            yi,
            name,
            ha="center",
            va="center",
            fontsize=11,
            bbox={"boxstyle": "round,pad=0.3", "fc": FIGURE["off"], "ec": OKABE_ITO["black"], "lw": 0.8},
        )
        ax.text(shape_x, yi, shape, ha="right", va="center", fontsize=9, color=FIGURE["note"])
    for k, rule in enumerate(rules):
        upper, lower = y[k], y[k + 1]
        ax.annotate(
            "", xy=(box_x, lower + 0.17), xytext=(box_x, upper - 0.17), arrowprops={"arrowstyle": "->", "lw": 1.0}
        )
        ax.annotate(
            "",
            xy=(back_x, upper - 0.12),
            xytext=(back_x, lower + 0.12),
            arrowprops={"arrowstyle": "->", "lw": 1.6, "color": CYCLE[3]},
        )
        ax.text(rule_x, (upper + lower) / 2, rule, ha="left", va="center", fontsize=9, color=CYCLE[3], linespacing=1.5)
    header = height - 0.2
    ax.text(box_x, header, _("forward") + " ↓", ha="center", va="center", fontsize=9.5)
    ax.text(back_x, header, "↑ " + _("backward"), ha="left", va="center", fontsize=9.5, color=CYCLE[3])
    ax.axis("off")
    return fig


def descent_curve(d: Descent):
    """The loss after a step of size η along −gradient (dots) and the first-order prediction, L minus η times
    the gradient's squared norm (line). Returns the Figure."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    eta = np.concatenate([[0.0], d.steps])
    ax.plot(eta, np.concatenate([[d.start], d.predicted]), color=CYCLE[0], lw=1.5, label=_("first-order prediction"))
    ax.plot(eta, np.concatenate([[d.start], d.losses]), "o", color=CYCLE[1], ms=5, label=_("loss after the step"))
    ax.set_xlabel(_("step size η"))
    ax.set_ylabel(_("loss"))
    ax.legend(frameon=False, fontsize=9)
    return fig


def weight_gradient_curves(sweep: dict[str, list[WeightGradients]], *, spread: tuple[float, float] = (25, 75)):
    """‖dW_Q‖ against d_k for every strategy: the median over the layers as a line, the `spread`
    percentiles as a band, both axes on a log scale. Returns the Figure."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    lo, hi = spread
    for strategy, runs in sweep.items():
        d = [r.d_k for r in runs]
        style = STRATEGY_STYLES[strategy]
        ax.fill_between(
            d, [r.percentile(lo) for r in runs], [r.percentile(hi) for r in runs], color=style.colour, alpha=0.18, lw=0
        )
        label = _("no scaling") if strategy == "none" else style.tex_label
        ax.plot(d, [r.median() for r in runs], marker=style.marker, ms=4, color=style.colour, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("$d_k$")
    ax.set_ylabel(_("‖dW_Q‖ (median, middle half)"))
    ax.legend(frameon=False, fontsize=9)
    return fig


# ----------------------------------------------------------------------------- the chapter's figures
def show_gradient_path(shapes: Sequence[str]) -> None:
    """The forward and the backward of one head, with the arrays' shapes `shapes` (X, Q K V, QKᵀ, S, A, Z, L)."""
    shapes = list(shapes)
    show_figure(
        lambda: gradient_path(shapes),
        alt=lambda: _(
            "The forward of one head from top to bottom: X ({x}), then Q, K, V ({q}), QKᵀ ({p}), S ({s}), A ({a}), "
            "Z ({z}) and the loss L ({l}). Beside it the gradient flows back up, one rule per stage: "
            "dA = dZ Vᵀ and dV = Aᵀ dZ; dS = A ⊙ (dA − rowsum(dA ⊙ A)); d(QKᵀ) = dS / √d_k; dQ = d(QKᵀ) K and "
            "dK = d(QKᵀ)ᵀ Q; dW_Q = Xᵀ dQ."
        ).format(x=shapes[0], q=shapes[1], p=shapes[2], s=shapes[3], a=shapes[4], z=shapes[5], l=shapes[6]),
    )


def show_descent(d: Descent) -> None:
    """The loss after a step along −gradient against its first-order prediction."""
    show_figure(
        lambda: descent_curve(d),
        alt=lambda: _(
            "The loss after a step of size η along minus the gradient, for η from {t0} to {t1}, against the "
            "straight line the gradient predicts, L minus η times the gradient's squared norm. It starts at {start}; "
            "every step lowers it, to {end} at the largest step, where the prediction is {pred}; for the small steps "
            "the dots lie on the line."
        ).format(
            t0=f"{d.steps[0]:g}",
            t1=f"{d.steps[-1]:g}",
            start=f"{d.start:.4f}",
            end=f"{d.losses[-1]:.4f}",
            pred=f"{d.predicted[-1]:.4f}",
        ),
    )


def show_weight_gradients(sweep: dict[str, list[WeightGradients]]) -> None:
    """‖dW_Q‖ at initialisation against d_k under the three strategies."""
    last = {s: runs[-1] for s, runs in sweep.items()}
    first = {s: runs[0] for s, runs in sweep.items()}
    show_figure(
        lambda: weight_gradient_curves(sweep),
        alt=lambda: _(
            "The median size of the gradient reaching W_Q, from the backward pass, against d_k from {d0} to {d1} "
            "for the three strategies, with the middle half of the layers shaded, on log scales. Dividing by "
            "√d_k keeps it nearly level ({sqrt0} at d_k = {d0}, {sqrt1} at {d1}); dividing by d_k makes it "
            "fall to {dk1}; without scaling it is larger ({none1} at {d1} in this sample of layers), while its "
            "band widens to span {lo} to {hi}."
        ).format(
            d0=first["sqrt_d_k"].d_k,
            d1=last["sqrt_d_k"].d_k,
            sqrt0=f"{first['sqrt_d_k'].median():.1f}",
            sqrt1=f"{last['sqrt_d_k'].median():.1f}",
            dk1=f"{last['d_k'].median():.2f}",
            none1=f"{last['none'].median():.1f}",
            lo=f"{last['none'].percentile(25):.1f}",
            hi=f"{last['none'].percentile(75):.0f}",
        ),
    )


__all__ = [
    "gradient_path",
    "descent_curve",
    "weight_gradient_curves",
    "show_gradient_path",
    "show_descent",
    "show_weight_gradients",
]
