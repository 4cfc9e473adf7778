"""The core installs with pip and a learner notebook runs anywhere (issue 10).

A fresh virtual environment (python -m venv in a temporary folder) gets the package with
`pip install` from a copy of the repository's packaging files (what a clone has), its
dependencies from PyPI or pip's cache; then a learner notebook copied to an empty folder runs
there with that environment's kernel. A second environment without the package runs the same
notebook: its first cell installs the package (as in Colab), once.

Needs the network to PyPI (or a warm pip cache) and a few minutes; every step is bounded.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import build_learner
import pytest

from conftest import ROOT

pytestmark = pytest.mark.install  # the tier (tests/conftest.py)

NOTEBOOK = os.environ.get("LEARNER_INSTALL_NOTEBOOK", "03_scaling")  # has an explorer, sympy and exercises
PIP_TIMEOUT = 1200  # seconds: a cold pip cache on a busy machine
RUN_TIMEOUT = 900


def requirement_bounds(lines: list[str]) -> dict[str, str]:
    """Requirement lines (comments and blank lines skipped) -> name: its bounds and marker, read by packaging."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found = {}
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            found[canonicalize_name(req.name)] = f"{req.specifier}{f'; {req.marker}' if req.marker else ''}"
    return found


@pytest.mark.unit
def test_pyproject_dependencies_match_requirements():
    """The package's runtime dependencies carry the same bounds as requirements.txt."""
    project = build_learner.pyproject()["project"]
    mine = requirement_bounds(project["dependencies"])
    theirs = requirement_bounds((ROOT / "requirements.txt").read_text().splitlines())
    assert set(mine) >= {"numpy", "matplotlib", "sympy", "ipywidgets", "anywidget", "babel"}
    assert {name: theirs.get(name) for name in mine} == mine
    assert project["name"] == "attention-steps", "the distribution name checked free on PyPI"


def clone(tmp: Path) -> Path:
    """What `pip install .` reads from a clone: pyproject.toml and the package (its README included)."""
    repo = tmp / "repo"
    (repo / "book").mkdir(parents=True)
    shutil.copy2(ROOT / "pyproject.toml", repo / "pyproject.toml")
    shutil.copytree(
        ROOT / "book" / "attention_steps",
        repo / "book" / "attention_steps",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    return repo


def venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    return where / "bin" / "python"


def clean_env(python: Path) -> dict:
    """No trace of this checkout or the shared venv: the notebook must find the package by installation."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV", "IPYTHON"))}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(python.parent.parent)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def pip(python: Path, *args: str) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", *args],
        env=clean_env(python),
        capture_output=True,
        text=True,
        timeout=PIP_TIMEOUT,
    )
    assert done.returncode == 0, f"pip install {' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


RUNNER = textwrap.dedent("""\
    import sys, nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
    nbformat.write(nb, sys.argv[2])
""")


def run_notebook(python: Path, folder: Path, source: str) -> dict:
    """Run the notebook text `source` in `folder` with `python`'s kernel; the executed notebook."""
    import nbformat

    (folder / "in.ipynb").write_text(source)
    (folder.parent / "run.py").write_text(RUNNER)
    done = subprocess.run(
        [str(python), str(folder.parent / "run.py"), "in.ipynb", "out.ipynb"],
        cwd=folder,
        env=clean_env(python),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert done.returncode == 0, f"the notebook failed in a fresh environment:\n{done.stderr[-4000:]}"
    return nbformat.read(folder / "out.ipynb", as_version=4)


def learner_notebook() -> str:
    path = build_learner.OUT / "book" / f"{NOTEBOOK}.ipynb"
    if not path.exists():
        pytest.fail(f"{path} is missing: run `bash scripts/build.sh`")
    return path.read_text()


def errors(nb) -> list[str]:
    return [
        f"{o.ename}: {o.evalue}"
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A fresh venv with the package installed by `pip install <clone>`, and the kernel to run notebooks."""
    tmp = tmp_path_factory.mktemp("install")
    python = venv(tmp / "venv")
    repo = clone(tmp)
    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    pip(python, str(repo), "ipykernel", "nbclient", "nbformat")
    (tmp / "clone-files-before-install.txt").write_text("\n".join(before))
    return tmp, python


def test_pip_install_leaves_the_clone_as_it_was(fresh):
    """The build backend builds elsewhere: no build/ or *.egg-info left in a learner's clone."""
    tmp, _ = fresh
    repo = tmp / "repo"
    after = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    assert after == (tmp / "clone-files-before-install.txt").read_text().split("\n")


def test_pip_install_makes_the_package_importable_from_any_folder(fresh):
    tmp, python = fresh
    empty = tmp / "elsewhere"
    empty.mkdir()
    done = subprocess.run(
        [
            str(python),
            "-c",
            "import attention_steps, attention_steps.explorers as e, attention_steps.exercises as x; "
            "from attention_steps.explorers import widgets; print(attention_steps.__file__); print(widgets._CSS[:20]); "
            # the translations travel with the package (package-data locale/*/*.po and locale/*/*/*.po)
            "from attention_steps.i18n import _, language\n"
            "with language('zh_CN'): print(_('weight'))",
        ],
        cwd=empty,
        env=clean_env(python),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    installed = Path(done.stdout.splitlines()[0])
    assert installed.is_relative_to(tmp / "venv"), f"imported from {installed}, not the venv"
    assert done.stdout.splitlines()[-1] == "权重", "the installed package has no Chinese catalogue"


def test_learner_notebook_runs_in_an_empty_folder(fresh):
    tmp, python = fresh
    folder = tmp / "notebook"
    folder.mkdir()
    nb = run_notebook(python, folder, learner_notebook())
    assert not errors(nb)
    assert not nb.cells[0].outputs, "the package is installed: the first cell installs nothing"


def test_first_cell_installs_the_package_when_missing(tmp_path):
    """As in Colab: the package is missing, the first cell installs it (here from the clone, not the repository URL)."""
    python = venv(tmp_path / "venv")
    text = learner_notebook()
    repo = clone(tmp_path)
    # The first cell, alone, twice: it installs once, then finds the package.
    import nbformat

    nb = nbformat.reads(text, as_version=4)
    first = nb.cells[0]
    spec = re.search(r'^\s*PACKAGE = "([^"]+)"$', first.source, re.M)
    assert spec and spec.group(1).startswith(f"{build_learner.DISTRIBUTION} @ git+{build_learner.REPOSITORY}@"), (
        first.source
    )
    first.source = first.source.replace(spec.group(0), spec.group(0).replace(spec.group(1), str(repo)))
    again = nbformat.v4.new_code_cell(first.source)  # the same cell run a second time (its own cell id)
    nb.cells = [first, nbformat.v4.new_code_cell("import attention_steps; print(attention_steps.__file__)"), again]
    pip(python, "ipykernel", "nbclient", "nbformat")
    folder = tmp_path / "notebook"
    folder.mkdir()
    out = run_notebook(python, folder, nbformat.writes(nb))
    assert not errors(out)
    printed = "".join(o.get("text", "") for o in out.cells[1].outputs)
    assert str(tmp_path / "venv") in printed, printed
    assert not out.cells[2].outputs, "the second time, nothing is installed"
