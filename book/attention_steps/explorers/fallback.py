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


def _pointing_bars(ax, weights, words, answer, referent, it):
    """One sentence's weights from "it" as bars, its answer in the accent colour, the referent's label in bold."""
    ax.bar(
        range(len(words)),
        weights,
        color=[OKABE_ITO["vermillion"] if j == answer else OKABE_ITO["blue"] for j in range(len(words))],
    )
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 1])
    ax.set_xticks(range(len(words)), labels=words, rotation=45, ha="right", fontsize=8)
    for j, label in enumerate(ax.get_xticklabels()):
        if j == referent:
            label.set_fontweight("bold")
        if j == it:
            label.set_fontstyle("italic")


def training_figure(data: dict, index: int):
    """Chapter 13's training at one checkpoint: the loss so far (log scale), and the weights "it"
    gives the words of the "tired" and the "wide" sentence. Returns (fig, alt)."""
    fig = plt.figure(figsize=(6.4, 4.4))
    grid = fig.add_gridspec(2, 2, width_ratios=[1, 1.1])
    curve = fig.add_subplot(grid[:, 0])
    state, step = data["states"][index], data["steps"][index]
    loss = np.asarray(data["loss"], dtype=float)
    x = np.arange(1, len(loss) + 1)
    curve.plot(x, loss, color=OKABE_ITO["blue"], lw=1, alpha=0.3)
    curve.plot(x[:step], loss[:step], color=OKABE_ITO["blue"], lw=2)
    if step:
        curve.plot([step], [loss[step - 1]], "o", ms=9, mfc="none", mec="black", mew=2)
    curve.set_yscale("log")
    curve.set_xlabel(_("training step"))
    curve.set_ylabel(_("loss"))
    curve.set_title(_("step {step} of {total}").format(step=step, total=data["total_steps"]), fontsize=10)
    said = []
    for r, words in enumerate(data["sentences"]):
        ax = fig.add_subplot(grid[r, 1])
        answer, referent = state["answer"][r], data["referents"][r]
        _pointing_bars(ax, state["weights"][r], words, answer, referent, data["it"])
        verdict = _("right") if answer == referent else _("wrong")
        ax.set_title(
            _("… too {adjective}: “it” → {word} ({verdict})").format(
                adjective=words[-1], word=words[answer], verdict=verdict
            ),
            fontsize=9,
        )
        said.append(
            _("with “{adjective}” it points to “{word}” ({weight}), {verdict}").format(
                adjective=words[-1], word=words[answer], weight=f"{state['weights'][r][answer]:.2f}", verdict=verdict
            )
        )
    alt = _(
        "The pointing model's loss over {total} training steps on a log scale, marked at step {step}; at that step, "
        "in the source sentence {pair}."
    ).format(total=data["total_steps"], step=step, pair=_("; ").join(said))
    return fig, alt


def _answer_word(data: dict, model: dict, sentence: int, value: int, words: list[str]) -> str:
    if model["answers"] == "pointer":
        return words[value]
    return (data["labels"] if model["answers"] == "pronoun" else data["nouns"])[value]


def _row_name(row: dict) -> str:
    if row["pointing"]:
        return _("layer {layer}, pointing: its answer").format(layer=row["layer"])
    return _("layer {layer}, head {head}").format(layer=row["layer"], head=row["head"])


def sentence_words_of(data: dict, sentence: int) -> list[str]:
    """The 11 words of state `sentence` of `data.sentence_states()`."""
    n_p, n_j = len(data["places"]), len(data["adjectives"])
    a, p, j = sentence // (n_p * n_j), (sentence // n_j) % n_p, sentence % n_j
    fill = {"{animal}": data["animals"][a], "{place}": data["places"][p], "{adjective}": data["adjectives"][j]}
    return [fill.get(w, w) for w in data["words"]]


def sentence_figure(data: dict, model_name: str, sentence: int):
    """One sentence as one model reads it: "it"'s weights in every layer and head, one row of bars each,
    and the model's answer. Returns (fig, alt)."""
    model = next(m for m in data["models"] if m["name"] == model_name)
    words = sentence_words_of(data, sentence)
    rows = model["rows"]
    fig, axes = plt.subplots(len(rows), 1, figsize=(6.4, 1.3 * len(rows) + 1.2), sharex=True, squeeze=False)
    referent = data["referents"][sentence]
    summary = []
    for r, (row, ax) in enumerate(zip(rows, axes[:, 0])):
        w = model["A_it"][sentence][r]
        top = int(np.argmax(w))
        _pointing_bars(ax, w, words, top, referent, data["it"])
        ax.set_title(_row_name(row), fontsize=8, loc="left")
        summary.append(
            _("{row}: most on “{word}” ({weight})").format(row=_row_name(row), word=words[top], weight=f"{w[top]:.2f}")
        )
    answer = _answer_word(data, model, sentence, model["answer"][sentence], words)
    expected = _answer_word(data, model, sentence, model["expected"][sentence], words)
    verdict = _("right") if answer == expected else _("wrong")
    held = _("held out") if data["held_out"][sentence] else _("trained on")
    fig.suptitle(
        _("{sentence} ({held})\n{model}: answers “{answer}” ({verdict})").format(
            sentence=" ".join(words), held=held, model=_(model_name), answer=answer, verdict=verdict
        ),
        fontsize=9,
    )
    alt = _(
        "The weights “it” gives every word of “{sentence}” ({held}) in each layer and head of the {model} model: "
        "{rows}. It answers “{answer}”, {verdict}."
    ).format(
        sentence=" ".join(words),
        held=held,
        model=_(model_name),
        rows=_("; ").join(summary),
        answer=answer,
        verdict=verdict,
    )
    return fig, alt
