"""book/_ext/i18n_glue.py: glued numbers inside translated text (a MyST-NB workaround).

A tiny book (one notebook that glues a number and cites it in a sentence, and a
Chinese catalogue that translates the sentence) is built twice with Sphinx:
with the workaround, the Chinese sentence carries the number; without it,
MyST-NB loses the glue data ("No key ... found in glue data"). The second test
watches upstream: when it fails, MyST-NB resolves glue in translated text by
itself, and book/_ext/i18n_glue.py (and its line in _config.yml) can go.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXT = ROOT / "book" / "_ext"


def _book(tmp_path: Path, with_workaround: bool) -> subprocess.CompletedProcess:
    src = tmp_path / "src"
    (src / "locale" / "zh_CN" / "LC_MESSAGES").mkdir(parents=True)
    extensions = ["myst_nb"] + (["i18n_glue"] if with_workaround else [])
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(EXT)!r})\n"
        f"extensions = {extensions!r}\n"
        "language = 'zh_CN'\nlocale_dirs = ['locale/']\ngettext_compact = False\n"
        "nb_execution_mode = 'force'\nexclude_patterns = ['_build']\n"
    )
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# Page", "id": "a"},
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "id": "b",
                "source": "from myst_nb import glue\nglue('answer', 4321, display=False)",
            },
            {
                "cell_type": "markdown",
                "metadata": {},
                "id": "c",
                "source": "The answer is {glue:text}`answer:d` exactly.",
            },
        ],
    }
    (src / "page.ipynb").write_text(json.dumps(notebook))
    (src / "index.md").write_text("# Index\n\n```{toctree}\npage\n```\n")
    (src / "locale" / "zh_CN" / "LC_MESSAGES" / "page.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "Page"\nmsgstr "页面"\n\n'
        'msgid "The answer is {glue:text}`answer:d` exactly."\n'
        'msgstr "答案恰好是 {glue:text}`answer:d`。"\n',
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _sentence(tmp_path: Path) -> str:
    """The translated sentence as the built page shows it (the code cell shows 4321 too)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((tmp_path / "out" / "page.html").read_text(encoding="utf-8"), "html.parser")
    found = [p.get_text("", strip=True) for p in soup.find_all("p") if "答案恰好是" in p.get_text()]
    assert len(found) == 1, "the translated sentence is not on the page"
    return found[0]


def test_workaround_keeps_glued_numbers_in_translated_text(tmp_path):
    result = _book(tmp_path, with_workaround=True)
    assert result.returncode == 0, result.stderr
    assert "glue" not in result.stderr, result.stderr
    assert _sentence(tmp_path) == "答案恰好是4321。"


def test_upstream_still_needs_the_workaround(tmp_path):
    result = _book(tmp_path, with_workaround=False)
    if "4321" in _sentence(tmp_path):
        pytest.fail(
            "MyST-NB now resolves glue in translated text by itself: remove book/_ext/i18n_glue.py "
            "and its line in _config.yml (and this test)"
        )
    assert "No key 'answer' found in glue data" in result.stderr, result.stderr
