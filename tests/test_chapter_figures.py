"""Every figure of a page is one call into its topic's figure module (`attention_steps.figures.<topic>.show_…`):
the notebooks show the idea, the teaching layer holds the plumbing (the drawing, its sizes, the alt text in every
language). CONTRIBUTING.md, "Adding a figure"."""

from __future__ import annotations

import ast
import json

import pytest

from conftest import BOOK

NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
PLUMBING = ("show_figure", "matplotlib", "plt.", "heatmap(", "attention_map(", "matrix_equation(", "growth_plot(")


@pytest.mark.unit
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_a_notebook_draws_no_figure_itself(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [
        (i, word)
        for i, cell in enumerate(cells)
        if cell["cell_type"] == "code"
        for word in PLUMBING
        if word in "".join(cell["source"])
    ]
    assert not found, f"{path.name}: (cell, what) drawing a figure in the notebook, not in figures/<topic>.py: {found}"


@pytest.mark.unit
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_each_figure_is_one_call(path):
    """A cell that shows a figure spends one statement on it: `show_…(data)`."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    long = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        for node in ast.parse(source).body:
            call = node.value if isinstance(node, ast.Expr) else None
            name = getattr(getattr(call, "func", None), "id", None) or getattr(getattr(call, "func", None), "attr", "")
            if isinstance(call, ast.Call) and name.startswith("show_") and node.end_lineno != node.lineno:
                long.append((i, name))
    assert not long, f"{path.name}: (cell, figure) calls over more than one line: {long}"
