"""The book's one palette: every colour a figure or an explorer draws, defined once.

Colour-blind-safe throughout: categorical colours are the Okabe–Ito palette, the
sequential map (weights, probabilities 0 … 1) is cividis and the diverging map
(signed values: scores, projections) is PuOr. A scaling strategy, a head and a
token keep one colour everywhere: in the matplotlib figures (`plotting` and the
`figures/` modules), in the explorers (their data names the colours of
`strategy_styles` and `head_colours`; their stylesheet gets the values from
`css_variables`, with two colours a shade darker on a light page for contrast), in
the slides (`scripts/slides` puts `css_variables` in front of `slides.css`) and in
the speaker notes' colour words. CSS reads a colour as `var(--ase-<name>)`, the
explorers' drawings by class (`ase-fill-<name>`, `ase-stroke-<name>`); no other
file writes a colour's value (`tests/test_palette.py` checks both). No matplotlib
here, so the explorers' data can read it without importing pyplot.
"""

from __future__ import annotations

from collections.abc import Mapping
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

# The explorers draw on the page, light or dark, so their lines and two of Okabe–Ito's
# colours follow it (their text is the page's own colour). Orange and sky blue are 2.3:1 on
# white, too faint for a line, a bar or a focus ring: on a light page they are drawn a shade
# darker (3.3:1 and 3.6:1); on a dark page the originals read (8.3:1 and 8.1:1 on #121212).
ON_LIGHT_PAGE = {
    "orange": "#C17F00",
    "sky": "#3A8FC4",
    "line": "#C4C4C4",  # grid lines and the frame
    "border": "#858585",  # the edge of a control: 3.7:1, as WCAG asks of a control's outline
    "page": "#FFFFFF",  # the page, where the host names no background colour
}
ON_DARK_PAGE = {  # what differs from ON_LIGHT_PAGE
    "orange": OKABE_ITO["orange"],
    "sky": OKABE_ITO["sky"],
    "line": "#4A515C",
    "border": "#7D8591",  # 5.0:1 on #121212
}

# The greys and the tint the figures draw on their white card, by what they draw.
FIGURE = {
    "masked": "#E4E4E4",  # a masked-out cell of a heatmap
    "off": "#F2F2F2",  # a cell a mask leaves out, a box not highlighted
    "finished": "#EEEEEE",  # a block of tiled attention already done with
    "folded": "#CFE3F1",  # a block already folded into the running state (a tint of blue)
    "edge": "#888888",  # the edge of a block
    "frame": "#777777",  # a dashed frame around a group of boxes
    "arrow": "#444444",
    "note": "#555555",  # small text beside the marks: a shape, a frame's label, a masked cell's mark
    "off-edge": "#BBBBBB",  # the edge (and the stage badge) of a box not highlighted
    "off-ink": "#999999",  # the label of a box not highlighted
    "off-note": "#AAAAAA",  # the small text of a box not highlighted
    "axis": "#DDDDDD",  # the axes through the origin
}

# The slides' own colours (scripts/slides: slides.css and the decks' index page).
SLIDES = {
    "slide-paper": "#FFFFFF",  # the slide's background
    "slide-ink": "#1A1A1A",
    "slide-code-ink": "#1A1A1A",  # code's own text, on slide-code in either theme
    "slide-card": "#FFFFFF",  # what figures and explorers sit on in the dark theme (they are drawn for white)
    "slide-code": "#F4F4F4",  # the background of code
    "slide-note": "#EEF5FB",  # the background of an admonition
    "slide-number": "#4A4A4A",  # under white text: 8.9:1 (reveal's rgba(0, 0, 0, 0.4) on white gives 2.8:1)
    "slide-number-ink": "#FFFFFF",
    # Darker than nbconvert's Pygments colours, some of which fall below 4.5:1 on the code's background
    # (axe colour-contrast): comments #408080 (4.2:1), numbers #008800 (4.3:1)
    "code-comment": "#2D6363",
    "code-number": "#006600",  # numbers and keywords
    "code-escape": "#8A4863",  # escapes and interpolations in strings
    "code-name": "#0033CC",  # names of modules, classes and functions
    "index-ink": "#222222",  # the decks' index page
    "index-key": "#999999",  # the edge of a key (<kbd>) on the index page
}

# The decks' dark theme (press d in a deck, or open it with ?theme=dark), for rooms where white glares:
# light text on near-black. Code and figures stay on their light cards (the figures are drawn on white,
# code in Pygments' colours), so only these change.
SLIDES_DARK = {
    "slide-paper": "#121212",
    "slide-ink": "#EDEDED",  # 16.0:1 on slide-paper
    "slide-note": "#1D2B38",  # an admonition's background: slide-ink on it 12.3:1, slide-accent 6.3:1
    "slide-accent": OKABE_ITO["sky"],  # headings and links: 8.1:1 on slide-paper (Okabe–Ito blue gives 3.6:1)
}

# The teacher's paper (scripts/slides/sheets.py, paper.py): the exercise sheet, the answer key and the
# handouts three slides a page, printed in black and greys.
PAPER = {
    "paper-ink": "#111111",
    "paper-quiet": "#444444",  # a note under a heading, the footer
    "paper-rule": "#888888",  # a box's edge, a solution's bar, a heading's underline
    "paper-line": "#BBBBBB",  # the ruled lines to write on, a table's cells
}

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
    """The strategy styles as the explorers' data sends them to JavaScript: colours by name."""
    return {key: {"colour": s.colour_name, "dash": s.svg_dash} for key, s in STRATEGY_STYLES.items()}


def head_colour_names(n: int) -> list[str]:
    """The first n heads' colours by name, for the explorers' data."""
    return [CYCLE_NAMES[r % len(CYCLE_NAMES)] for r in range(n)]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """A "#RRGGBB" colour as its three channels 0 … 255."""
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def css_variables(selector: str, colours: Mapping[str, str], *, channels: tuple[str, ...] = ()) -> str:
    """A CSS rule giving `selector` one custom property per colour, `--ase-<name>: #hex;`, and for
    the names in `channels` also `--ase-<name>-rgb: r, g, b;` (a tint: `rgba(var(--ase-blue-rgb), 0.1)`)."""
    lines = [f"  --ase-{name}: {value};" for name, value in colours.items()]
    lines += [f"  --ase-{name}-rgb: {', '.join(map(str, rgb(colours[name])))};" for name in channels]
    return selector + " {\n" + "\n".join(lines) + "\n}\n"


GENERATED = "/* Generated from attention_steps/palette.py: change the colours there. */\n"
