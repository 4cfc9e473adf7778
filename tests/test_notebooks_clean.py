"""Notebooks are committed without outputs or execution counts: the build runs them."""

from __future__ import annotations

import json

import pytest

from conftest import BOOK

NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks under book/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path):
    nb = json.loads(path.read_text())
    dirty = [i for i, cell in enumerate(nb["cells"]) if cell.get("outputs") or cell.get("execution_count") is not None]
    assert not dirty, f"{path.name}: cells {dirty} carry outputs or execution counts; clear them before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_glue_role_inside_maths(path):
    # MyST does not expand {glue:text} inside $…$: chapter 8's exercise 8.2 showed the raw role
    import re

    nb = json.loads(path.read_text())
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        for m in re.finditer(r"\$\$.+?\$\$|\$[^$]+?\$", source, flags=re.S):
            if "{glue" in m.group(0):
                found.append((i, m.group(0)))
    assert not found, f"{path.name}: glue roles inside maths (shown raw on the page): {found}"
