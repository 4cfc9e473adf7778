"""The explorers at home in the hosts a learner opens notebooks in.

- In a real JupyterLab (the venv's, started here on a free port with a token, in a
  temporary folder holding a small notebook that shows each explorer with the book's
  own functions), light and dark theme: the panel "the numbers that matter" has each
  label on the row of its value, and the sliders and the token picker answer the arrow
  keys without the notebook's command mode taking them (the active cell stays put).
- Under host-like CSS (tests/hosts/host_like.css: rules of the kind VS Code's and
  Colab's notebook outputs and JupyterLab put on dl/dt/dd/input/button/label/fieldset,
  light and dark; see that file for where each comes from), the same layout check on
  the book's own explorer pages.

Every wait is bounded by TIMEOUT_MS; the browser may load only from 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest
from lab_server import jupyterlab, write_settings
from test_explorers import explorer_page

from conftest import BOOK, SETTLED, TIMEOUT_MS, OfflinePage

KINDS = ("dk", "temperature", "heads", "who-attends", "training", "sentence")
HOST_CSS = Path(__file__).parent / "hosts" / "host_like.css"
# One cell per explorer, each followed by a plain cell, so a notebook shortcut that
# takes an arrow key visibly moves the active cell away.
CALLS = {
    "dk": "dk_explorer()",
    "temperature": "temperature_explorer()",
    "heads": "heads_explorer()",
    "who-attends": "who_attends_explorer()",
    # chapter 13's: models trained in the notebook (seconds), as a learner's notebook trains them
    "training": "training_explorer(pointing, step=20)",  # mid-run: every arrow key moves it
    "sentence": 'sentence_explorer({"two layers": two, "pointing": pointing})',
}
# The models chapter 13's explorers show, trained short: the explorers only need a run to show.
SETUP = """from attention_steps.learning_studies import CHAPTER_MODELS, train_referent_model
pointing = train_referent_model(**CHAPTER_MODELS["pointing"], steps=40, checkpoints=41)
two = train_referent_model(**CHAPTER_MODELS["two layers"], steps=40)"""

# Runs in the page: for every "numbers that matter" list in the explorer, each label (dt)
# and its value (dd) as boxes, in document order.
PAIRS = """root => [...root.querySelectorAll('dl.ase-numbers')].map(dl =>
  [...dl.querySelectorAll('dt')].map(dt => {
    let dd = dt.nextElementSibling;
    while (dd && dd.tagName !== 'DD') dd = dd.nextElementSibling;
    const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    return {label: dt.textContent, value: dd ? dd.textContent : null, dt: box(dt), dd: dd ? box(dd) : null};
  }))"""


def misaligned(pairs: list[list[dict]]) -> list[str]:
    """What is wrong with the label/value boxes: a value missing, beside another row's
    label (vertical overlap < half a line), or left of its label; rows out of order."""
    problems = []
    for rows in pairs:
        previous_top = -1e9
        for row in rows:
            dt, dd = row["dt"], row["dd"]
            if dd is None:
                problems.append(f"{row['label']!r} has no value")
                continue
            overlap = min(dt["bottom"], dd["bottom"]) - max(dt["top"], dd["top"])
            shortest = min(dt["bottom"] - dt["top"], dd["bottom"] - dd["top"])
            if shortest <= 0 or overlap < 0.5 * shortest:
                problems.append(
                    f"{row['label']!r} (top {dt['top']:.0f}) is not on the row of its value {row['value']!r} (top {dd['top']:.0f})"
                )
            if dd["left"] < dt["right"] - 1:
                problems.append(f"the value {row['value']!r} starts left of the end of its label {row['label']!r}")
            if dt["top"] < previous_top - 1:
                problems.append(f"{row['label']!r} is above the row before it")
            previous_top = dt["top"]
    return problems


def assert_panels_line_up(root):
    pairs = root.evaluate(PAIRS)
    assert pairs and all(pairs), "no 'numbers that matter' rows found"
    problems = misaligned(pairs)
    assert not problems, "\n".join(problems)


# ----------------------------------------------------------------------------- a real JupyterLab
def notebook(kinds=KINDS) -> dict:
    def cell(kind, source):
        return {
            "cell_type": kind,
            "id": secrets.token_hex(4),
            "metadata": {},
            "source": source,
            **({"outputs": [], "execution_count": None} if kind == "code" else {}),
        }

    cells = [
        cell(
            "code",
            "from attention_steps.explorers import (\n"
            "    dk_explorer, heads_explorer, sentence_explorer, temperature_explorer, training_explorer, who_attends_explorer\n"
            ")",
        ),
        cell("code", SETUP),
    ]
    for kind in kinds:
        cells += [
            cell("code", CALLS[kind]),
            cell("markdown", f"After the {kind} explorer."),
        ]
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            }
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


THEME = "@jupyterlab/apputils-extension/themes"


def write_theme(settings: Path, theme: str):
    write_settings(settings, THEME, {"theme": theme})


def open_notebook(browser, base, token, name, theme_light: bool, width=1280):
    """Open notebook `name` in JupyterLab, run every cell, wait for every explorer; returns the OfflinePage."""
    p = OfflinePage(browser, viewport={"width": width, "height": 900})
    p.page.goto(f"{base}/lab/tree/{name}?token={token}", wait_until="domcontentloaded")
    page = p.page
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(
        f"document.body.dataset.jpThemeLight === '{str(theme_light).lower()}'",
        timeout=TIMEOUT_MS,
    )
    # The kernel is ready when the status bar says so (it can take a while to start on a busy machine).
    page.wait_for_function(
        "[...document.querySelectorAll('.jp-StatusBar-TextItem')].some(e => /\\|\\s*Idle/.test(e.textContent))",
        timeout=TIMEOUT_MS,
    )
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    for kind in KINDS:
        page.locator(f".ase-explorer[data-explorer='{kind}']").first.wait_for(timeout=TIMEOUT_MS)
    return p


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    # The notebook imports the book's own package; the light theme to start.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BOOK), os.environ.get("PYTHONPATH", "")])}
    with jupyterlab(folder, settings={THEME: {"theme": "JupyterLab Light"}}, env=env) as (base, token, settings):
        (folder / "work" / "explorers.ipynb").write_text(json.dumps(notebook()))
        yield base, token, settings


ACTIVE = "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex(c => c.classList.contains('jp-mod-active'))"


def check_keyboard(page):
    """A slider and the token picker answer the arrow keys; the notebook's active cell stays."""
    for kind, control in (
        ("dk", "input[type=range]"),
        ("heads", "input[type=range]"),
        ("who-attends", "button[aria-pressed='true']"),
        ("training", "input[type=range]"),
    ):
        root = page.locator(f".ase-explorer[data-explorer='{kind}']").first
        target = root.locator(control).first
        target.scroll_into_view_if_needed()
        target.focus()
        target.click()  # as a learner would: this makes the explorer's cell the active one
        before_cell = page.evaluate(ACTIVE)
        read = "r => r.dataset.dK || r.dataset.h || r.dataset.token || r.dataset.step"
        for key in ("ArrowUp", "ArrowDown", "ArrowRight", "ArrowLeft"):
            before = root.evaluate(read)
            page.keyboard.press(key)
            root.page.wait_for_function(
                f"([r, v]) => ({read})(r) !== v",
                arg=[root.element_handle(), before],
                timeout=TIMEOUT_MS,
            )
            assert page.evaluate(ACTIVE) == before_cell, (
                f"{key} on the {kind} explorer moved the notebook's active cell"
            )
            assert page.evaluate("document.activeElement.closest('.ase-explorer') !== null"), (
                f"{key} took the focus out of the {kind} explorer"
            )


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
def test_explorers_in_jupyterlab(browser, lab, theme):
    base, token, settings = lab
    write_theme(settings, theme)
    p = open_notebook(browser, base, token, "explorers.ipynb", theme_light=theme.endswith("Light"))
    try:
        for kind in KINDS:
            assert_panels_line_up(p.page.locator(f".ase-explorer[data-explorer='{kind}']").first)
        check_keyboard(p.page)
        assert not p.foreign, f"JupyterLab asked other hosts: {p.foreign[:5]}"
    finally:
        p.close()


# ----------------------------------------------------------------------------- host-like CSS
@pytest.mark.parametrize(
    "host",
    ["vscode-light", "vscode-dark", "colab-light", "colab-dark", "jupyterlab-light"],
)
@pytest.mark.parametrize("kind", KINDS)
def test_explorer_panel_under_host_css(site, offline_page, kind, host):
    """The book's explorer page with a host's kind of notebook CSS added on top."""
    page_path = explorer_page(kind)
    if page_path is None:
        pytest.skip(f"no built page holds the {kind} explorer")
    p = offline_page(viewport={"width": 1280, "height": 900})
    p.page.goto(f"{site}/{page_path}", wait_until="load")
    root = p.page.locator(f".ase-explorer[data-explorer='{kind}']").first
    root.wait_for(timeout=TIMEOUT_MS)
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    p.page.add_style_tag(content=HOST_CSS.read_text())
    name, mode = host.split("-")
    p.page.evaluate(
        "([name, mode]) => { document.body.classList.add('host-' + name, mode === 'dark' ? 'vscode-dark' : 'vscode-light');"
        " if (name !== 'vscode') document.body.classList.remove('vscode-dark', 'vscode-light');"
        " document.body.classList.toggle('host-dark', mode === 'dark'); }",
        [name, mode],
    )
    assert_panels_line_up(root)
