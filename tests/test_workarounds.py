"""Each workaround of an upstream bug (listed in DESIGN.md, "Workarounds") has a test here that
runs the UNPATCHED upstream code and asserts the bug is still there. When one of these fails,
upstream has fixed the bug: check the fix, remove our workaround and this test, and update the table.

The Sphinx builds run in a fresh interpreter with none of book/_ext loaded, so nothing of ours
patches what is checked."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.build  # the tier (tests/conftest.py)

PNG = (  # a 1 × 1 transparent PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


def sphinx_build(src, out, conf: str, files: dict[str, str]) -> None:
    """Write conf.py and `files` into src and build HTML into out, in a separate interpreter."""
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(textwrap.dedent(conf))
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src), str(out)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def notebook(cells: list[dict]) -> str:
    return json.dumps(
        {
            "cells": cells,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def code_cell(source: str, outputs: list[dict], tags: list[str] = ()) -> dict:
    return {
        "cell_type": "code",
        "execution_count": 1,
        "id": f"c{abs(hash(source)) % 10**8}",
        "metadata": {"tags": list(tags)},
        "outputs": outputs,
        "source": source,
    }


@pytest.fixture(scope="module")
def myst_nb_page(tmp_path_factory):
    """One page built by myst-nb from a notebook that is not executed: a figure whose output
    metadata carries alt text, and a hide-input cell whose code has a word found nowhere else."""
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("out")
    figure = {
        "output_type": "display_data",
        "data": {"image/png": PNG, "text/plain": ["<Figure>"]},
        "metadata": {"image/png": {"alt": "ALT FROM THE OUTPUT"}},
    }
    cells = [
        {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "# Page"},
        code_cell("show(fig)", [figure]),
        code_cell("hiddenwordxyz = 1", [], tags=["hide-input"]),
    ]
    sphinx_build(
        src,
        out,
        'extensions = ["myst_nb"]\nnb_execution_mode = "off"\nexclude_patterns = ["_build"]\n',
        {"index.ipynb": notebook(cells)},
    )
    return (out / "index.html").read_text(encoding="utf-8"), (out / "searchindex.js").read_text(encoding="utf-8")


def test_myst_nb_still_ignores_alt_text_in_output_metadata(myst_nb_page):
    """Workaround: book/_ext/alt_text.py wraps myst-nb's NbElementRenderer.render_image."""
    html, _ = myst_nb_page
    assert "<img" in html
    assert "ALT FROM THE OUTPUT" not in html, "myst-nb now honours output alt text: remove book/_ext/alt_text.py"


def test_sphinx_still_indexes_hidden_code_for_search(myst_nb_page):
    """Workaround: book/_ext/search_index.py feeds Sphinx's indexer each page without hide-input code."""
    _, index = myst_nb_page
    assert "hiddenwordxyz" in index, "hidden code is no longer indexed: remove book/_ext/search_index.py"


def test_sphinx_74_still_emits_thebe_and_togglebutton_inline_scripts_twice(tmp_path):
    """Workaround: book/_ext/offline_assets.py drops repeated <script> entries (a second
    `const THEBE_JS_URL` is a SyntaxError in the page)."""
    sphinx_build(
        tmp_path / "src",
        tmp_path / "out",
        'extensions = ["sphinx_thebe", "sphinx_togglebutton"]\nhtml_theme = "sphinx_book_theme"\n',
        {"index.rst": "Page\n====\n\ntext\n"},
    )
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert html.count("const THEBE_JS_URL") >= 2, "emitted once now: remove _drop_duplicate_scripts"


def test_sphinx_still_skips_static_files_when_no_page_changed(tmp_path):
    """Workaround: book/_ext/offline_assets.py rewrites every page when our static files change
    (sphinx-doc/sphinx#1810, fixed by sphinx-doc/sphinx#13236 in Sphinx 8.2)."""
    src, out = tmp_path / "src", tmp_path / "out"
    files = {"index.rst": "Page\n====\n", "static/book.css": "p { color: red }\n"}
    conf = 'html_static_path = ["static"]\nhtml_css_files = ["book.css"]\n'
    sphinx_build(src, out, conf, files)
    (src / "static" / "book.css").write_text("p { color: blue }\n")
    sphinx_build(src, out, conf, {})
    assert "red" in (out / "_static" / "book.css").read_text(), "static files are copied now: drop the digest rebuild"


def test_pydata_theme_still_starts_with_an_invalid_mode_unless_default_mode_is_set(tmp_path):
    """Workaround: _config.yml sets html_context.default_mode (pydata-sphinx-theme's page script
    otherwise sets the mode to "" and logs "Got invalid theme mode: . Resetting to auto.")."""
    sphinx_build(
        tmp_path / "src", tmp_path / "out", 'html_theme = "sphinx_book_theme"\n', {"index.rst": "Page\n====\n"}
    )
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'localStorage.getItem("mode") || "";' in html, "the theme has a default mode now: drop default_mode"


def test_myst_nb_still_cannot_invalidate_a_notebook_when_a_file_it_imports_changes():
    """Workaround: scripts/notebook_deps.py re-runs the notebooks whose imported core modules changed
    (executablebooks/MyST-NB#299, open: no setting maps files to the notebooks they invalidate)."""
    from myst_nb.core.config import NbParserConfig

    fields = [f for f in NbParserConfig.get_fields() if f.name.startswith("execution")]
    assert fields, "myst-nb's execution settings moved: re-check this test"
    for field in fields:
        assert not any(word in field.name for word in ("depend", "invalidat", "watch")), field.name


def test_jupyter_cache_still_keys_a_notebook_by_its_own_content_only():
    """The other half of the same workaround: the cache key is a hash of the notebook alone."""
    from jupyter_cache.cache.main import JupyterCacheBase

    params = list(inspect.signature(JupyterCacheBase.create_hashed_notebook).parameters)
    assert params == ["self", "nb", "nb_metadata", "cell_metadata"], params


def test_ipykernel_still_logs_the_plain_tcp_notice():
    """Workaround: scripts/ipython_kernel_config.py filters this one log line out of every kernel."""
    from ipykernel import kernelapp

    assert "Kernel is running over TCP without encryption" in inspect.getsource(kernelapp)


def test_myst_nb_still_names_every_code_toggle_toggle_hidden_content():
    """Workaround: book/assets/book.js gives the toggles their visible words as their name (WCAG 2.5.3)."""
    from myst_nb import sphinx_

    assert 'aria-label="Toggle hidden content"' in inspect.getsource(sphinx_)
