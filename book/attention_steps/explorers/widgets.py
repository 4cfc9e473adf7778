"""The explorers as anywidgets: Python holds every state, JavaScript only draws.

Each widget syncs one `data` trait (all states, computed by the core in
`data.py`) and the position of each control. In a live kernel, setting a
trait from Python moves the control (`w.strategy = "none"`); in the static
book there is no kernel, and the front end switches between the saved states
by itself. Same code, same numbers, in the book, in Jupyter and in the slides.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..i18n import for_javascript
from ..palette import GENERATED, OKABE_ITO, ON_DARK_PAGE, ON_LIGHT_PAGE, css_variables
from ..scaling import STRATEGIES

HERE = Path(__file__).parent
# The hosts' dark pages: the book's dark mode, JupyterLab's dark themes, VS Code's dark themes.
DARK_PAGE = 'html[data-theme="dark"] .ase-explorer, body[data-jp-theme-light="false"] .ase-explorer, body.vscode-dark .ase-explorer'


def _esm(name: str) -> str:
    """One explorer's ES module: the shared helpers followed by its own code."""
    return (HERE / "js" / "common.js").read_text() + "\n" + (HERE / "js" / f"{name}.js").read_text()


def stylesheet() -> str:
    """The explorers' stylesheet: the palette as CSS variables (a light page's colours, then what
    differs on a dark page), a class per colour for the drawings (`ase-fill-blue`, `ase-stroke-blue`:
    the JavaScript draws a mark in a colour by its name), then `explorers.css`."""
    paint = "".join(
        f".ase-explorer .ase-fill-{name} {{ fill: var(--ase-{name}); }}\n"
        f".ase-explorer .ase-stroke-{name} {{ stroke: var(--ase-{name}); }}\n"
        for name in OKABE_ITO
    )
    return (
        GENERATED
        + css_variables(".ase-explorer", {**OKABE_ITO, **ON_LIGHT_PAGE}, channels=("blue", "vermillion"))
        + css_variables(DARK_PAGE, ON_DARK_PAGE)
        + paint
        + (HERE / "explorers.css").read_text()
    )


_CSS = stylesheet()


class _Explorer(anywidget.AnyWidget):
    """Shared by the explorers: the precomputed states and the stylesheet."""

    _css = traitlets.Unicode(_CSS).tag(sync=True)
    data = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        if "i18n" not in self.data:  # labels in every language (attention_steps.i18n)
            self.data = {**self.data, "i18n": for_javascript()}

    def _check_index(self, proposal, count: int, name: str) -> int:
        i = proposal["value"]
        if not 0 <= i < count:
            raise traitlets.TraitError(f"{name} must be between 0 and {count - 1}, got {i}")
        return i


class DkExplorer(_Explorer):
    """d_k slider × scaling switch over `data.dk_states()`."""

    _esm = traitlets.Unicode(_esm("dk")).tag(sync=True)
    d_k_index = traitlets.Int(0).tag(sync=True)
    strategy = traitlets.Unicode("none").tag(sync=True)

    @traitlets.validate("d_k_index")
    def _valid_index(self, proposal):
        return self._check_index(proposal, len(self.data["d_k"]), "d_k_index")

    @traitlets.validate("strategy")
    def _valid_strategy(self, proposal):
        if proposal["value"] not in STRATEGIES:
            raise traitlets.TraitError(f"strategy must be one of {sorted(STRATEGIES)}, got {proposal['value']!r}")
        return proposal["value"]

    @property
    def d_k(self) -> int:
        return self.data["d_k"][self.d_k_index]

    @property
    def state(self) -> dict:
        """What is on screen now: the state for (d_k, strategy)."""
        return self.data["states"][self.strategy][self.d_k_index]


class TemperatureExplorer(_Explorer):
    """Temperature slider over `data.temperature_states()`."""

    _esm = traitlets.Unicode(_esm("temperature")).tag(sync=True)
    temperature_index = traitlets.Int(0).tag(sync=True)

    @traitlets.validate("temperature_index")
    def _valid_index(self, proposal):
        return self._check_index(proposal, len(self.data["temperatures"]), "temperature_index")

    @property
    def temperature(self) -> float:
        return self.data["temperatures"][self.temperature_index]

    @property
    def state(self) -> dict:
        return self.data["states"][self.temperature_index]


class HeadsExplorer(_Explorer):
    """Number of heads h over `data.heads_states()`."""

    _esm = traitlets.Unicode(_esm("heads")).tag(sync=True)
    h_index = traitlets.Int(0).tag(sync=True)

    @traitlets.validate("h_index")
    def _valid_index(self, proposal):
        return self._check_index(proposal, len(self.data["head_counts"]), "h_index")

    @property
    def h(self) -> int:
        return self.data["head_counts"][self.h_index]

    @property
    def state(self) -> dict:
        return self.data["states"][self.h_index]


class WhoAttendsExplorer(_Explorer):
    """Pick a token (the query) and see its weights per head, from `data.who_attends_states()`."""

    _esm = traitlets.Unicode(_esm("who_attends")).tag(sync=True)
    token = traitlets.Int(0).tag(sync=True)

    @traitlets.validate("token")
    def _valid_token(self, proposal):
        return self._check_index(proposal, len(self.data["tokens"]), "token")

    @property
    def weights(self) -> list:
        """The chosen token's weights over every token, per head: (h, n)."""
        return [head[self.token] for head in self.data["A"]]


class TrainingExplorer(_Explorer):
    """Training step slider over `data.training_states()` (chapter 13)."""

    _esm = traitlets.Unicode(_esm("training")).tag(sync=True)
    step_index = traitlets.Int(0).tag(sync=True)

    @traitlets.validate("step_index")
    def _valid_index(self, proposal):
        return self._check_index(proposal, len(self.data["steps"]), "step_index")

    @property
    def step(self) -> int:
        return self.data["steps"][self.step_index]

    @property
    def state(self) -> dict:
        return self.data["states"][self.step_index]


class SentenceExplorer(_Explorer):
    """Pick the animal, the place and the adjective (and the model) over `data.sentence_states()` (chapter 13)."""

    _esm = traitlets.Unicode(_esm("sentence")).tag(sync=True)
    animal = traitlets.Unicode("animal").tag(sync=True)
    place = traitlets.Unicode("street").tag(sync=True)
    adjective = traitlets.Unicode("tired").tag(sync=True)
    model = traitlets.Unicode("").tag(sync=True)

    def _check_word(self, proposal, key: str):
        allowed = self.data[key] if key != "models" else [m["name"] for m in self.data["models"]]
        if proposal["value"] not in allowed:
            raise traitlets.TraitError(f"{proposal['trait'].name} must be one of {allowed}, got {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("animal")
    def _valid_animal(self, proposal):
        return self._check_word(proposal, "animals")

    @traitlets.validate("place")
    def _valid_place(self, proposal):
        return self._check_word(proposal, "places")

    @traitlets.validate("adjective")
    def _valid_adjective(self, proposal):
        return self._check_word(proposal, "adjectives")

    @traitlets.validate("model")
    def _valid_model(self, proposal):
        return self._check_word(proposal, "models")

    @property
    def sentence(self) -> int:
        """The index of the chosen sentence in the states."""
        d = self.data
        a, p, j = d["animals"].index(self.animal), d["places"].index(self.place), d["adjectives"].index(self.adjective)
        return (a * len(d["places"]) + p) * len(d["adjectives"]) + j

    @property
    def state(self) -> dict:
        """What is on screen now: the chosen model's weights from "it" (rows, n), its answer and the right one."""
        m = next(m for m in self.data["models"] if m["name"] == self.model)
        k = self.sentence
        return {
            "A_it": m["A_it"][k],
            "answer": m["answer"][k],
            "expected": m["expected"][k],
            "held_out": bool(self.data["held_out"][k]),
        }
