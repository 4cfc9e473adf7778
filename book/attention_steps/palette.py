"""The book's one palette: every colour a figure or an explorer draws, defined once.

Colour-blind-safe throughout: categorical colours are the Okabe–Ito palette, the
sequential map (weights, probabilities 0 … 1) is cividis and the diverging map
(signed values: scores, projections) is PuOr. A scaling strategy, a head and a
token keep one colour everywhere: in the matplotlib figures (`plotting` and the
`*_figures` modules), in the explorers (their data carries `strategy_styles` and
`head_colours`, and `explorers.css` darkens the light colours on a light page for
contrast) and in the speaker notes' colour words. No matplotlib here, so the
explorers' data can read it without importing pyplot.
"""

from __future__ import annotations

from dataclasses import dataclass

# Okabe–Ito: distinguishable under every common colour-vision deficiency.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
}
# The order categorical colours are handed out in: series, keys (token j), heads (head r).
CYCLE_NAMES = ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "black")
CYCLE = [OKABE_ITO[c] for c in CYCLE_NAMES]
SEQUENTIAL = "cividis"  # weights, probabilities: 0 … 1
DIVERGING = "PuOr_r"  # signed values: scores, projections


@dataclass(frozen=True)
class StrategyStyle:
    """How one scaling strategy is drawn: its Okabe–Ito colour (by name, as the speaker
    notes say it), its dash as SVG draws it (explorers) and as matplotlib draws it (the
    explorers' static figures), its marker, and its label typeset for a figure."""

    colour_name: str
    svg_dash: str
    linestyle: str
    marker: str
    tex_label: str

    @property
    def colour(self) -> str:
        return OKABE_ITO[self.colour_name]


# One style per scaling strategy (chapter 3): "none", "d_k", "sqrt_d_k" as in scaling.STRATEGIES.
STRATEGY_STYLES = {
    "none": StrategyStyle("vermillion", "", "-", "s", "no scaling"),
    "d_k": StrategyStyle("green", "6 3", "--", "^", r"÷ $d_k$"),
    "sqrt_d_k": StrategyStyle("blue", "2 2", ":", "o", r"÷ $\sqrt{d_k}$"),
}


def key_colour(j: int) -> str:
    """Token (key) j's colour, 0-based as in code: the categorical cycle."""
    return CYCLE[j % len(CYCLE)]


def head_colour(r: int) -> str:
    """Head r's colour, 0-based as in code (head 1 of the text is r = 0): the categorical cycle."""
    return CYCLE[r % len(CYCLE)]


def strategy_styles_for_js() -> dict[str, dict[str, str]]:
    """The strategy styles as the explorers' data sends them to JavaScript."""
    return {key: {"colour": s.colour, "dash": s.svg_dash} for key, s in STRATEGY_STYLES.items()}


def head_colours(n: int) -> list[str]:
    """The first n heads' colours, for the explorers' data."""
    return [head_colour(r) for r in range(n)]
