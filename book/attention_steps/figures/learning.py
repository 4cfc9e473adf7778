"""Chapter 13's figures (learning to attend): the training loss of the chapter's models, where
zeroing a layer at one token breaks the answer, what "it" attends to in the pointing model for
"tired" and for "wide", and the three score divisors in training (loss and saturation).

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapter
calls, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..i18n import N_, _
from ..palette import CYCLE, OKABE_ITO, STRATEGY_STYLES
from ..scaling import STRATEGIES
from . import show_figure
from .plotting import heatmap

# The models' names as CHAPTER_MODELS spells them, marked for translation here (the figures say them).
MODEL_NAMES = (N_("one layer, one head"), N_("one layer, two heads"), N_("two layers"), N_("pointing"))


def _model_name(name: str) -> str:
    return _(name) if name in MODEL_NAMES else name


def _strategy_label(strategy: str) -> str:
    return _("no scaling") if strategy == "none" else STRATEGY_STYLES[strategy].tex_label


def _strategy_text(strategy: str) -> str:
    """The divisor as an alt text says it (no maths markup)."""
    return _("no scaling") if strategy == "none" else STRATEGIES[strategy]


def _band(loss: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(seeds, steps) → the median and the range over the seeds, step by step."""
    loss = np.asarray(loss, dtype=float)
    if loss.ndim != 2:
        raise ValueError(f"loss must be (seeds, steps), got shape {loss.shape}")
    with np.errstate(all="ignore"):
        return np.nanmedian(loss, axis=0), np.nanmin(loss, axis=0), np.nanmax(loss, axis=0)


# ----------------------------------------------------------------------------- drawings
def loss_curves(losses: dict[str, np.ndarray]):
    """The batch loss of each model against the step: the median over the seeds as a line, their range
    as a band, on a log scale. `losses` {model name: (seeds, steps)}. Returns the Figure."""
    if not losses:
        raise ValueError("losses must name at least one model")
    fig, ax = plt.subplots(figsize=(5.0, 3.4))  # narrow: its labels stay legible when a phone shrinks it
    for k, (name, loss) in enumerate(losses.items()):
        mid, lo, hi = _band(loss)
        step = np.arange(1, len(mid) + 1)
        ax.fill_between(step, lo, hi, color=CYCLE[k], alpha=0.18, lw=0)
        ax.plot(step, mid, color=CYCLE[k], lw=1.6, label=_model_name(name))
    ax.set_yscale("log")
    ax.set_xlabel(_("training step"))
    ax.set_ylabel(_("loss (median, range over seeds)"))
    # below the axes, two to a row: inside, it covered the two-layer model's band
    ax.legend(frameon=False, fontsize=9, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.22))
    return fig


def token_ablation(layer_at_token: np.ndarray, words: Sequence[str]):
    """Held-out accuracy with one layer's attention output zeroed at one token: (layers, n), one row per
    layer, one column per word of the template, as percentages. Returns the Figure."""
    M = np.asarray(layer_at_token, dtype=float)
    if M.ndim != 2 or M.shape[1] != len(words):
        raise ValueError(f"layer_at_token must be (layers, {len(words)}) for {len(words)} words, got shape {M.shape}")
    fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.55 * M.shape[0]))
    heatmap(
        100 * M,
        "",
        row_labels=[_("layer {l}").format(l=layer + 1) for layer in range(M.shape[0])],
        col_labels=list(words),
        ax=ax,
        annotate=True,
        fmt="{:.0f}",
        vmin=0.0,
        vmax=100.0,
        fontsize=8.5,
    )
    ax.set_title(_("held-out accuracy (%) with the layer zeroed at one word"), fontsize=10)
    ax.tick_params(axis="x", labelrotation=45, labelsize=9)
    return fig


def it_weights_pair(rows: np.ndarray, words: Sequence[Sequence[str]], referents: Sequence[int]):
    """ "it"'s weights over the keys in the two sentences, as pairs of bars on one axis (the first sentence
    blue, the second vermillion), each referent's weight written above its bar. `rows` (2, n) the weights,
    `words` the two sentences (they differ in their last word only), `referents` their code indices.
    Returns the Figure."""
    rows = np.asarray(rows, dtype=float)
    if rows.ndim != 2 or rows.shape[0] != 2 or len(words) != 2 or len(referents) != 2:
        raise ValueError(f"rows must be (2, n) for two sentences and two referents, got shape {rows.shape}")
    n = rows.shape[1]
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    x = np.arange(n)
    for k, (w, sentence, ref, colour) in enumerate(
        zip(rows, words, referents, (OKABE_ITO["blue"], OKABE_ITO["vermillion"]))
    ):
        ax.bar(x + (k - 0.5) * 0.4, w, width=0.4, color=colour,
               label=_("… because it was too {adjective}").format(adjective=sentence[-1]))  # fmt: skip
        ax.text(ref + (k - 0.5) * 0.4, w[ref] + 0.03, f"{w[ref]:.2f}", ha="center", fontsize=9)
    labels = [a if a == b else f"{a} / {b}" for a, b in zip(*words)]
    ax.set_xticks(x, labels=labels, rotation=35, fontsize=10)
    ax.set_ylim(0, 1.18)
    ax.set_ylabel(_("weight of “it”"))
    ax.legend(frameon=False, fontsize=10, loc="upper right")
    return fig


def _panels(d_k_values: Sequence[int]):
    fig, axes = plt.subplots(1, len(d_k_values), figsize=(6.4, 3.4), sharey=True, squeeze=False)
    return fig, axes[0]


def scaling_loss_curves(curves: dict[int, dict[str, dict]]):
    """The loss of each divisor at its best learning rate, one panel per d_k: the median over the seeds,
    the range as a band, on a log scale. `curves` {d_k: {strategy: `ScalingCell.curves()` with "lr"}}.
    Returns the Figure."""
    fig, axes = _panels(list(curves))
    for ax, (d_k, by_strategy) in zip(axes, curves.items()):
        for strategy, c in by_strategy.items():
            style = STRATEGY_STYLES[strategy]
            ax.fill_between(c["step"], c["loss_min"], c["loss_max"], color=style.colour, alpha=0.16, lw=0)
            ax.plot(c["step"], c["loss_median"], color=style.colour, ls=style.linestyle, lw=1.7,
                    label=f"{_strategy_label(strategy)} (lr {c['lr']:g})")  # fmt: skip
        ax.set_yscale("log")
        ax.set_title(f"$d_k = {d_k}$", fontsize=10)
        ax.set_xlabel(_("training step"))
        ax.legend(frameon=False, fontsize=7.5, loc="lower left")
    axes[0].set_ylabel(_("loss (median, range)"))
    return fig


def saturation_curves(curves: dict[int, dict[str, dict]]):
    """The mean largest weight of an attention row during training, each divisor at its best rate, one
    panel per d_k (1/n is uniform, 1 is one key only). `curves` as in `scaling_loss_curves`. Returns the Figure."""
    fig, axes = _panels(list(curves))
    for ax, (d_k, by_strategy) in zip(axes, curves.items()):
        for strategy, c in by_strategy.items():
            style = STRATEGY_STYLES[strategy]
            ax.plot(c["step"], c["max_weight_median"], color=style.colour, ls=style.linestyle, lw=1.7,
                    label=_strategy_label(strategy))  # fmt: skip
        ax.set_ylim(0, 1.02)
        ax.set_title(f"$d_k = {d_k}$", fontsize=10)
        ax.set_xlabel(_("training step"))
    axes[0].set_ylabel(_("largest weight of a row"))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3, frameon=False, fontsize=9)
    return fig


# ----------------------------------------------------------------------------- the chapter's figures
def _end(loss) -> float:
    return float(_band(loss)[0][-1])


def show_loss_curves(losses: dict[str, np.ndarray]) -> None:
    """The training loss of the chapter's models (median and range over their seeds)."""
    names = list(losses)
    show_figure(
        lambda: loss_curves(losses),
        alt=lambda: _(
            "The training loss against the step for {models}, each the median over its seeds with their range "
            "shaded, on a log scale. At the last step the median loss is {ends}."
        ).format(
            models=", ".join(_model_name(n) for n in names),
            ends=", ".join(f"{_model_name(n)} {_end(losses[n]):.2g}" for n in names),
        ),
    )


def show_token_ablation(layer_at_token: np.ndarray, words: Sequence[str]) -> None:
    """Where zeroing a layer's attention output at one word breaks the held-out answers."""
    M = np.asarray(layer_at_token, dtype=float)
    worst = [int(np.argmin(row)) for row in M]
    rest = np.delete(M.ravel(), [layer * M.shape[1] + j for layer, j in enumerate(worst)])  # every cell but the lowest
    show_figure(
        lambda: token_ablation(M, words),
        alt=lambda: _(
            "The held-out accuracy when one layer's attention output is zeroed at one word only, one row per "
            "layer and one column per word of the sentence. {rows}; at the other words it is between {low}% and {high}%."
        ).format(
            rows="; ".join(
                _("layer {l}: lowest at “{word}”, {acc:.0f}%").format(l=layer + 1, word=words[j], acc=100 * M[layer, j])
                for layer, j in enumerate(worst)
            ),
            low=f"{100 * rest.min():.0f}",
            high=f"{100 * rest.max():.0f}",
        ),
    )


def show_it_weights_pair(rows: np.ndarray, words: Sequence[Sequence[str]], referents: Sequence[int]) -> None:
    """ "it"'s weights in the two sentences of the source pair, the referent marked."""
    rows = np.asarray(rows, dtype=float)
    show_figure(
        lambda: it_weights_pair(rows, words, referents),
        alt=lambda: _(
            "Bars of the weights “it” gives the words of the sentence, ending with “{a}” and with “{b}”. With “{a}” it puts {wa} on "
            "“{ra}”; with “{b}” it puts {wb} on “{rb}”."
        ).format(
            a=words[0][-1],
            b=words[1][-1],
            ra=words[0][referents[0]],
            rb=words[1][referents[1]],
            wa=f"{rows[0, referents[0]]:.2f}",
            wb=f"{rows[1, referents[1]]:.2f}",
        ),
    )


def _at_best(curves: dict[int, dict[str, dict]]) -> str:
    return "; ".join(
        _("at d_k = {d}: {parts}").format(
            d=d_k,
            parts=", ".join(f"{_strategy_text(s)} {c['loss_median'][-1]:.2g}" for s, c in by.items()),
        )
        for d_k, by in curves.items()
    )


def show_scaling_loss_curves(curves: dict[int, dict[str, dict]]) -> None:
    """The divisors' learning curves at their best learning rates, per d_k."""
    show_figure(
        lambda: scaling_loss_curves(curves),
        alt=lambda: _(
            "Learning curves of the three divisors, each at its best learning rate, one panel per d_k, the "
            "median over the seeds with their range shaded, on a log scale. The median loss at the last step: {ends}."
        ).format(ends=_at_best(curves)),
    )


def show_saturation_curves(curves: dict[int, dict[str, dict]]) -> None:
    """How saturated the softmax is during training, per divisor and d_k."""

    def parts(d_k):
        return ", ".join(
            _("{s} from {a:.2f} to {b:.2f}").format(
                s=_strategy_text(s), a=c["max_weight_median"][0], b=c["max_weight_median"][-1]
            )
            for s, c in curves[d_k].items()
        )

    show_figure(
        lambda: saturation_curves(curves),
        alt=lambda: _(
            "The mean largest weight of an attention row during training, each divisor at its best rate, one "
            "panel per d_k. {rows}."
        ).format(rows="; ".join(_("at d_k = {d}: {parts}").format(d=d, parts=parts(d)) for d in curves)),
    )


__all__ = [
    "loss_curves",
    "token_ablation",
    "it_weights_pair",
    "scaling_loss_curves",
    "saturation_curves",
    "show_loss_curves",
    "show_token_ablation",
    "show_it_weights_pair",
    "show_scaling_loss_curves",
    "show_saturation_curves",
]
