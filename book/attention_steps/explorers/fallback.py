"""Static figures of the explorers at their default setting, for print and for
readers without JavaScript. Drawn from the same states the widgets show.

Every word is in the current language (`_()`, attention_steps.i18n); the explorers
show each with `figures.show_figure`, which the book has draw it once per language, so each
edition of the book prints its own. The data's names (strategies, tokens) stay as the data has them,
the strategies' names translated like the explorer's switch."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..figures.plotting import weight_bars
from ..i18n import _
from ..palette import OKABE_ITO, SEQUENTIAL, STRATEGY_STYLES


def dk_figure(data: dict, d_k_index: int, strategy: str):
    """Left: average largest weight against d_k per strategy, the setting ringed.
    Right: the example query's weights at that setting. Returns (fig, alt)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 3.0), width_ratios=[1.15, 1])
    x = np.arange(len(data["d_k"]))
    for s in data["strategies"]:
        colour, dash = STRATEGY_STYLES[s["key"]].colour, STRATEGY_STYLES[s["key"]].linestyle  # as the explorer's chart
        left.plot(
            x, [st["mean_max_weight"] for st in data["states"][s["key"]]], dash, color=colour, lw=2, label=_(s["label"])
        )
    current = data["states"][strategy][d_k_index]
    left.plot([d_k_index], [current["mean_max_weight"]], "o", ms=10, mfc="none", mec="black", mew=2)
    left.axhline(1 / data["n_keys"], color="black", lw=0.8, ls=(0, (1, 3)))
    left.set_xticks(x[::2], labels=[str(d) for d in data["d_k"][::2]])
    left.set_ylim(0, 1.02)
    left.set_xlabel("d_k")
    left.set_ylabel(_("largest weight (average)"))
    left.legend(fontsize=8, frameon=False, loc="center right")
    label = _(next(s["label"] for s in data["strategies"] if s["key"] == strategy))
    d_k = data["d_k"][d_k_index]
    weight_bars(current["weights"], data["keys"], ax=right, highlight=int(np.argmax(current["weights"])))
    right.set_title(_("one query, d_k = {d_k}, {strategy}").format(d_k=d_k, strategy=label), fontsize=10)
    ends = _("; ").join(
        _("{strategy}: {first} at d_k = {d_k_first} to {last} at d_k = {d_k_last}").format(
            strategy=_(s["label"]),
            first=f"{data['states'][s['key']][0]['mean_max_weight']:.2f}",
            d_k_first=data["d_k"][0],
            last=f"{data['states'][s['key']][-1]['mean_max_weight']:.2f}",
            d_k_last=data["d_k"][-1],
        )
        for s in data["strategies"]
    )
    alt = _(
        "Average largest softmax weight over {n} keys against d_k. {ends}. "
        "Right: one query's weights at d_k = {d_k} with {strategy}; the largest is {largest}."
    ).format(n=data["n_keys"], ends=ends, d_k=d_k, strategy=label, largest=f"{current['max_weight']:.2f}")
    return fig, alt


def temperature_figure(data: dict, index: int):
    """The weights at one temperature, with the largest weight against T beside them. Returns (fig, alt)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 3.0), width_ratios=[1, 1.15])
    T = data["temperatures"]
    state = data["states"][index]
    weight_bars(state["weights"], data["labels"], ax=left, highlight=int(np.argmax(state["weights"])))
    left.set_title(f"T = {T[index]:g}", fontsize=10)
    right.plot(T, [s["max_weight"] for s in data["states"]], color=OKABE_ITO["blue"], lw=2, label=_("largest weight"))
    right.plot(
        T,
        [s["entropy"] / data["ln_n"] for s in data["states"]],
        "--",
        color=OKABE_ITO["orange"],
        lw=2,
        label=_("entropy ÷ ln n"),
    )
    right.plot([T[index]], [state["max_weight"]], "o", ms=10, mfc="none", mec="black", mew=2)
    right.set_xscale("log")
    right.set_ylim(0, 1.02)
    right.set_xlabel(_("temperature T"))
    right.legend(fontsize=8, frameon=False)
    alt = _(
        "Softmax weights at temperature T = {T}: largest {largest}, entropy {entropy} nats. "
        "Right: the largest weight falls from {first} at T = {T_first} to {last} at T = {T_last} "
        "while the entropy rises towards ln n."
    ).format(
        T=f"{T[index]:g}",
        largest=f"{state['max_weight']:.2f}",
        entropy=f"{state['entropy']:.2f}",
        first=f"{data['states'][0]['max_weight']:.2f}",
        T_first=f"{T[0]:g}",
        last=f"{data['states'][-1]['max_weight']:.2f}",
        T_last=f"{T[-1]:g}",
    )
    return fig, alt


def heads_figure(data: dict, index: int):
    """Each head's attention map for one h. Returns (fig, alt)."""
    state = data["states"][index]
    h, tokens = state["h"], data["tokens"]
    cols = min(h, 4)
    rows = -(-h // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.4, 1.9 * rows + 0.4), squeeze=False)
    for r, ax in enumerate(axes.flat):
        if r >= h:
            ax.axis("off")
            continue
        ax.imshow(state["maps"][r], cmap=SEQUENTIAL, vmin=0, vmax=1)
        ax.set_title(_("head {n} (d_k = {d_k})").format(n=r + 1, d_k=state["d_k"]), fontsize=9)
        ax.set_xticks(range(len(tokens)), labels=tokens, rotation=90, fontsize=7)
        ax.set_yticks(range(len(tokens)), labels=tokens if r % cols == 0 else [], fontsize=7)
        ax.tick_params(length=0)
    alt = _(
        "{h} attention maps, one per head, each {n} × {n} over the tokens {tokens}; "
        "d_model = {d_model} is split into {h} heads of d_k = {d_k}."
    ).format(h=h, n=len(tokens), tokens=_(", ").join(tokens), d_model=data["d_model"], d_k=state["d_k"])
    return fig, alt


def who_attends_figure(data: dict, token: int):
    """The chosen token's weights over every token, one row of bars per head. Returns (fig, alt)."""
    h, tokens = data["h"], data["tokens"]
    fig, axes = plt.subplots(h, 1, figsize=(6.4, 1.25 * h + 0.6), sharex=True, squeeze=False)
    summary = []
    for r, ax in enumerate(axes[:, 0]):
        w = data["A"][r][token]
        top = int(np.argmax(w))
        ax.bar(
            range(len(tokens)),
            w,
            color=[OKABE_ITO["vermillion"] if j == top else OKABE_ITO["blue"] for j in range(len(tokens))],
        )
        ax.set_ylim(0, 1)
        ax.set_yticks([0, 1])
        ax.set_ylabel(_("head {n}").format(n=r + 1), fontsize=9)
        summary.append(
            _("head {n} attends most to {token} ({weight})").format(n=r + 1, token=tokens[top], weight=f"{w[top]:.2f}")
        )
    axes[-1, 0].set_xticks(range(len(tokens)), labels=tokens, rotation=45, ha="right")
    axes[0, 0].set_title(_("weights of “{token}” over the sentence").format(token=tokens[token]), fontsize=10)
    alt = _("Attention weights of the token “{token}” over every token, per head: {heads}.").format(
        token=tokens[token], heads=_("; ").join(summary)
    )
    return fig, alt
