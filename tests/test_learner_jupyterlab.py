"""The learner notebooks in a real JupyterLab, driven by headless Chromium.

A JupyterLab server (the venv's) is started on a free port in a temporary folder holding the
learner edition as the `learner` branch lays it out (book/NN.ipynb beside book/attention_steps/).
Chromium, with every host but 127.0.0.1 blocked, opens a notebook and checks what a learner sees:
no `{glue` or `:::` in the rendered Markdown, every equation typeset and not empty, solutions
hidden until their <details> is opened; then runs every cell and checks that none failed.

Two notebooks by default; `LEARNER_LAB_NOTEBOOKS=all` (or a comma-separated list) runs others.
`LEARNER_SCREENSHOTS=folder` saves what the browser showed before and after opening a solution.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from lab_server import jupyterlab

from conftest import TIMEOUT_MS, block_other_hosts, new_context
from scripts import build_learner

LEARNER = build_learner.OUT
DEFAULT = ["01_projection", "03_scaling"]
ALL = [p.stem for p in build_learner.notebooks()]
wanted = os.environ.get("LEARNER_LAB_NOTEBOOKS", "")
NOTEBOOKS = ALL if wanted == "all" else [n for n in wanted.split(",") if n] or DEFAULT
RUN_ALL_MS = 5 * TIMEOUT_MS  # a whole chapter on a busy machine; the wait ends as soon as the kernel is done


@pytest.fixture
def lab(tmp_path_factory):
    """(base URL, token) of a JupyterLab serving a copy of the learner tree, one per notebook:
    a server shared by two notebooks restored the first one's tab in front of the second
    (its <details> then sit in a hidden panel and never come into view)."""
    if not (LEARNER / "book").exists():
        pytest.fail(f"{LEARNER}/book is missing: run `bash scripts/build.sh`")
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    shutil.copytree(LEARNER / "book", root / "book", ignore=shutil.ignore_patterns("__pycache__"))
    # Render every cell, not only those scrolled into view, so the checks see the whole notebook.
    settings = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
    # A learner's environment: not the book's PYTHONPATH or Jupyter folders.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONPATH", "JUPYTER"))}
    with jupyterlab(tmp, root=root, settings=settings, env=env) as (base, token, _):
        yield base, token


def open_notebook(browser, base: str, token: str, name: str):
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    foreign = block_other_hosts(context)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{base}/lab/tree/book/{name}.ipynb?token={token}")
    # The notebook is open, its model loaded, its kernel started and idle.
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
            return !!(w && w.context && w.context.isReady && w.content && w.content.model && k && k.status === 'idle');
        }"""
    )
    # Every Markdown cell rendered, and MathJax done: no TeX left as text.
    page.wait_for_function(
        """() => {
            const nb = window.jupyterapp.shell.currentWidget.content;
            const cells = nb.widgets.filter(c => c.model.type === 'markdown');
            if (!cells.every(c => c.rendered && c.node.querySelector('.jp-RenderedMarkdown'))) return false;
            const text = cells.map(c => c.node.querySelector('.jp-RenderedMarkdown').innerText).join('\\n');
            return !text.includes('$$') && !text.includes('\\\\begin{') && !text.includes('\\\\frac');
        }"""
    )
    return context, page, foreign, problems


def rendered_text(page) -> str:
    return page.evaluate(
        """() => [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown')]
                 .map(e => e.innerText).join('\\n')"""
    )


def solution_lines(name: str) -> list[str]:
    """Plain lines of the solutions in the learner notebook (what must not show before a click)."""
    nb = json.loads((LEARNER / "book" / f"{name}.ipynb").read_text())
    markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    details = r"<details>\s*<summary>.*?</summary>(.*?)</details>"
    outside = re.sub(details, "", markdown, flags=re.S)  # a line also said outside a fold is no leak
    return [
        ln.strip()
        for body in re.findall(details, markdown, flags=re.S)
        for ln in body.splitlines()
        if len(ln.strip()) > 25 and not re.search(r"[$`<>*_|\\]", ln) and ln.strip() not in outside
    ]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_learner_notebook_in_jupyterlab(browser, lab, name):
    base, token = lab
    context, page, foreign, problems = open_notebook(browser, base, token, name)
    shots = os.environ.get("LEARNER_SCREENSHOTS")
    try:
        # All the rendered text, shown or not (JupyterLab skips drawing cells out of view): no MyST.
        everything = page.evaluate(
            """() => [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown')]
                     .map(e => e.textContent).join('\\n')"""
        )
        assert "{glue" not in everything and ":::" not in everything, "MyST left in the rendered Markdown"
        assert not re.search(r"\{(doc|ref|glue:text|glue:math)\}", everything)
        # every display equation typeset, none empty (a glued equation that lost its value would be)
        parts = page.evaluate(
            """() => [...document.querySelectorAll('.jp-RenderedMarkdown mjx-container[display="true"]')]
                     .map(e => e.querySelectorAll('mjx-math *').length)"""
        )
        assert parts and all(n > 0 for n in parts), f"an empty equation: {parts}"
        # solutions: folded, their text not shown, until the learner opens one
        details = page.locator(".jp-RenderedMarkdown details")
        lines = solution_lines(name)
        assert details.count() > 0 and lines, "this notebook has exercises with solutions"
        shown = page.evaluate(
            """() => [...document.querySelectorAll('.jp-RenderedMarkdown details')].map(d => d.open ||
                     [...d.children].some(c => c.tagName !== 'SUMMARY' && c.checkVisibility()))"""
        )
        assert not any(shown), "a solution is open before the learner clicks it"
        text = rendered_text(page)  # what is drawn (innerText leaves out a closed <details>' body)
        leaked = [ln for ln in lines if ln in text]
        assert not leaked, f"solution text visible before its <details> is opened: {leaked[:3]}"
        first = details.first
        body = first.locator(":scope > :not(summary)").first
        # Make its cell the active one and bring it into view (again at each poll: JupyterLab may
        # scroll to its active cell meanwhile), until the summary is drawn.
        page.wait_for_function(
            """d => {
                const nb = window.jupyterapp.shell.currentWidget.content;
                const i = nb.widgets.findIndex(c => c.node.contains(d));
                if (nb.activeCellIndex !== i) nb.activeCellIndex = i;
                d.closest('.jp-Cell').scrollIntoView({block: 'center'});
                const r = d.querySelector('summary').getBoundingClientRect();
                return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
            }""",
            arg=first.element_handle(),
        )
        assert not body.is_visible()
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{name}-solution-closed.png")
        first.locator("summary").click()
        body.wait_for(state="visible")
        if shots:
            page.screenshot(path=f"{shots}/{name}-solution-open.png")
        # run every cell: none fails, nothing on stderr
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(
            """() => {
                const w = window.jupyterapp.shell.currentWidget;
                const cells = w.content.widgets.map(c => c.model).filter(m => m.type === 'code');
                const failed = cells.some(m => m.outputs.toJSON().some(o => o.output_type === 'error'));
                const done = cells.every(m => m.executionCount !== null);
                return failed || (done && w.sessionContext.session.kernel.status === 'idle');
            }""",
            timeout=RUN_ALL_MS,
        )
        outputs = page.evaluate(
            """() => window.jupyterapp.shell.currentWidget.content.widgets.map(c => c.model)
                     .filter(m => m.type === 'code').map(m => m.outputs.toJSON())"""
        )
        bad = [
            o
            for outs in outputs
            for o in outs
            if o["output_type"] == "error" or (o["output_type"] == "stream" and o.get("name") == "stderr")
        ]
        assert not bad, f"{name}: {bad[:2]}"
        assert not page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count()
        if shots:
            page.screenshot(path=f"{shots}/{name}-after-run-all.png")
        assert not problems, problems
    finally:
        context.close()
