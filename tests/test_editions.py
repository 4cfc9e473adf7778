"""book/editions.py, the book's production inside its kernels: figures and words recorded in every
language from one execution, read back by every edition; none of it in the pip package."""

from __future__ import annotations

import ast
import base64

import matplotlib
import pytest

import editions
from attention_steps import figures, i18n, phrases
from attention_steps.figures.plotting import weight_bars
from attention_steps.i18n import _
from conftest import BOOK

matplotlib.use("Agg")


def _bars():
    return weight_bars([0.1, 0.7, 0.2], ["a", "b", "c"], title=_('where "it" looks (one head)'))


def test_a_figure_is_drawn_in_both_languages_from_the_same_numbers():
    data, metadata = editions.figure_bundle(_bars, alt=lambda: _("weight"))
    assert data["image/png"] and metadata["image/png"]["alt"] == "weight"
    zh = metadata[i18n.METADATA_KEY]["image/png"]["zh_CN"]
    assert base64.b64decode(zh).startswith(b"\x89PNG") and zh != data["image/png"]
    assert metadata[i18n.METADATA_KEY]["alt"]["zh_CN"] == "权重"
    assert editions.translation(metadata, "image/png", "zh_CN") == (zh, {"alt": "权重", **_width(metadata)})
    assert editions.translation(metadata, "image/png", "en") is None, "the current language has nothing to swap"
    with pytest.raises(ValueError, match="alt text"):
        editions.figure_bundle(_bars, alt=" ")


def _width(metadata):
    return {"width": metadata[i18n.METADATA_KEY]["width"]["zh_CN"]}


def test_importing_editions_makes_show_figure_draw_every_language(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda data, **kw: shown.append((data, kw)))
    figures.show_figure(_bars, alt=lambda: _("weight"))
    ((data, kw),) = shown
    assert "zh_CN" in kw["metadata"][i18n.METADATA_KEY]["image/png"]


def test_without_the_book_a_figure_is_drawn_once_in_the_current_language(monkeypatch):
    """A learner's notebook has the package only: show_figure draws the figure once, with its alt text."""
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda data, **kw: shown.append((data, kw)))
    monkeypatch.setattr(figures, "_draw", [figures.display_figure])
    with i18n.language("zh_CN"):
        figures.show_figure(_bars, alt=lambda: _("weight"))
    ((data, kw),) = shown
    assert kw["metadata"] == {"image/png": {"alt": "权重", "width": kw["metadata"]["image/png"]["width"]}}
    assert base64.b64decode(data["image/png"]).startswith(b"\x89PNG")


def test_glue_words_glues_the_current_language_and_carries_the_others(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda data, **kw: shown.append((data, kw)))
    editions.glue_words("k", lambda: phrases.and_list([1, 3]))
    ((data, kw),) = shown
    assert data == {"application/papermill.record/text/plain": "'1 and 3'"}
    assert kw["metadata"]["scrapbook"] == {"name": "k", "mime_prefix": "application/papermill.record/"}
    assert kw["metadata"][i18n.METADATA_KEY] == {"text/plain": {"zh_CN": "'1 和 3'"}}
    assert editions.translation(kw["metadata"], "text/plain", "zh_CN") == ("'1 和 3'", {})
    with pytest.raises(ValueError, match=r"glue_words\('k'\)"):
        editions.glue_words("k", lambda: "")


def test_glue_words_writes_the_record_myst_nb_reads():
    from myst_nb.ext.glue import GLUE_PREFIX

    assert editions.GLUE_MIME_PREFIX == GLUE_PREFIX


def test_no_module_of_the_package_imports_the_books_tools():
    """The pip package is the core and the teaching layer: no module of it imports myst-nb, Sphinx,
    or the book's production (editions, scripts), even inside a function."""
    tools = {"myst_nb", "sphinx", "editions", "scripts", "docutils", "jupyter_book"}
    found = {}
    for path in sorted((BOOK / "attention_steps").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level}
        bad = sorted(m for m in names if m.split(".")[0] in tools)
        if bad:
            found[path.relative_to(BOOK).as_posix()] = bad
    assert not found, found


def test_every_chapter_imports_its_glue_from_the_books_production():
    """A chapter's glue and figures in every language come from book/editions.py (the learner
    edition replaces that import); never from myst_nb or the package directly."""
    import json

    for nb in sorted(BOOK.glob("*.ipynb")):
        code = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")
        assert "from editions import glue" in code, nb.name
        assert "from myst_nb import" not in code, nb.name
