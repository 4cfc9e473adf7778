"""Every notebook of the book ran, top to bottom, in a fresh kernel with book/ as its working directory:
the build executes each one (myst-nb with jupyter-cache, `allow_errors: false`, warnings as errors)
and keeps a cache record only for a run that finished without an error. So a record that matches a
notebook's current cells is the proof that this notebook, as committed, runs.

This replaces running every notebook a second time under nbmake after the build (the same check,
made twice). A learner's run in a venv holding only the package is tests/test_install.py's."""

from __future__ import annotations

import nbformat
import pytest

from conftest import ROOT
from scripts.build_paths import CACHE, toc_pages

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

NOTEBOOKS = [ROOT / f"{page}.ipynb" for page in toc_pages(ROOT / "_toc.yml") if (ROOT / f"{page}.ipynb").exists()]


def test_every_notebook_of_the_toc_is_checked():
    assert len(NOTEBOOKS) >= 12, NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_as_committed_ran_without_an_error(path):
    from jupyter_cache import get_cache

    if not CACHE.exists():
        pytest.fail(f"no execution cache {CACHE}: the build did not run (bash scripts/build.sh)")
    cache = get_cache(CACHE)
    try:
        record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
    except KeyError:
        failed = [r.traceback for r in cache.list_project_records() if r.uri == str(path) and r.traceback]
        pytest.fail(
            f"{path.name}: no successful run of its current cells in the cache" + (f":\n{failed[-1]}" if failed else "")
        )
    cells = cache.get_cache_bundle(record.pk).nb.cells
    errors = [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == [], f"{path.name}: an executed cell raised {errors[0].get('ename')}"
    code = [c for c in cells if c.cell_type == "code" and c.source.strip()]
    assert code and all(c.get("execution_count") for c in code), f"{path.name}: not every code cell ran"
