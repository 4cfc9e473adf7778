"""The package installs with pip and every learner notebook runs anywhere (pip alone, no clone, no build).

A fresh virtual environment (python -m venv in a temporary folder) holds only a kernel, as a
learner's Colab or new venv does. A learner notebook's first cell installs the package from a
copy of the repository's packaging files (what a clone has), its dependencies from PyPI or pip's
cache, once; then every learner notebook the build made runs there, each in an empty folder: the
English ones and, in the same environment, the Chinese ones, whose checker then speaks Chinese.

Needs the network to PyPI (or a warm pip cache) and a few minutes; every step is bounded."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT
from scripts import build_learner

pytestmark = pytest.mark.install  # the tier (tests/conftest.py)

NOTEBOOK = "03_scaling"  # the one whose first cell installs: it has an explorer, sympy and exercises
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
    import json, sys, nbformat
    from pathlib import Path
    from nbclient import NotebookClient
    # Each notebook runs in its own empty folder with a fresh kernel; what each raised is reported.
    failed = {}
    for source in sys.argv[1:]:
        folder = Path(source).with_suffix("")
        folder.mkdir(exist_ok=True)  # it may hold the package, as the learner branch's book/ does
        nb = nbformat.read(source, as_version=4)
        try:
            NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
        except Exception as error:  # CellExecutionError names the cell and the traceback
            failed[source] = str(error)[-3000:]
        nbformat.write(nb, folder / "out.ipynb")
    print(json.dumps(failed))
""")


def run_notebooks(python: Path, where: Path, sources: dict[str, str], beside: Path | None = None) -> dict[str, dict]:
    """Run each notebook text in `sources` ({name: text}) with `python`'s kernel, each in an empty
    folder under `where` (holding a copy of the package folder `beside`, if given); the executed
    notebooks, {name: notebook}. Fails naming every notebook that raised."""
    import json

    import nbformat

    where.mkdir()
    for name, text in sources.items():
        (where / f"{name}.ipynb").write_text(text)
        if beside is not None:
            shutil.copytree(beside, where / name / beside.name, ignore=shutil.ignore_patterns("__pycache__"))
    (where / "run.py").write_text(RUNNER)
    done = subprocess.run(
        [str(python), "run.py", *(f"{name}.ipynb" for name in sources)],
        cwd=where,
        env=clean_env(python),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT * len(sources),
    )
    assert done.returncode == 0, f"the runner failed in a fresh environment:\n{done.stderr[-4000:]}"
    failed = json.loads(done.stdout.splitlines()[-1])
    assert failed == {}, "notebooks that stopped in a fresh environment:\n" + "\n\n".join(
        f"{name}:\n{error}" for name, error in failed.items()
    )
    return {name: nbformat.read(where / name / "out.ipynb", as_version=4) for name in sources}


def learner_notebooks(lang: str = "en") -> dict[str, str]:
    """{name: text} of every learner notebook the build made in `lang`."""
    folder = build_learner.out_dir(lang) / "book"
    found = {p.stem: p.read_text() for p in sorted(folder.glob("*.ipynb"))}
    if not found:
        pytest.fail(f"no {lang} learner notebooks in {folder}: run `bash scripts/build.sh`")
    return found


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> tuple[Path, Path]:
    """(python, clone): a new venv holding only a kernel (and nbclient, which runs the notebooks), and a
    clone's packaging files; one for the module, as one learner's environment runs both languages."""
    where = tmp_path_factory.mktemp("fresh")
    python = venv(where / "venv")
    pip(python, "ipykernel", "nbclient", "nbformat")
    return python, clone(where)


def errors(nb) -> list[str]:
    return [
        f"{o.ename}: {o.evalue}"
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]


def with_first_cell_installing_from(text: str, repo: Path) -> str:
    """A learner notebook whose first cell installs the package from `repo` instead of the repository URL
    (the cell is checked to pin that URL at a commit)."""
    import nbformat

    nb = nbformat.reads(text, as_version=4)
    first = nb.cells[0]
    spec = re.search(r'^\s*PACKAGE = "([^"]+)"$', first.source, re.M)
    assert spec and spec.group(1).startswith(f"{build_learner.DISTRIBUTION} @ git+{build_learner.REPOSITORY}@"), (
        first.source
    )
    first.source = first.source.replace(spec.group(0), spec.group(0).replace(spec.group(1), str(repo)))
    return nbformat.writes(nb)


def test_a_fresh_environment_gets_the_package_from_the_first_cell_then_runs_every_learner_notebook(
    tmp_path, fresh_venv
):
    """As a learner in Colab or a new venv: only a kernel is installed. One notebook's first cell
    installs the package (here from a clone, not the repository URL), once, leaving the clone as it
    was; the package then imports from any folder with its Chinese catalogue; and every learner
    notebook runs, every cell, each in an empty folder, its first cell installing nothing."""
    import nbformat

    python, repo = fresh_venv
    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    notebooks = learner_notebooks()

    # The first cell, alone, twice: it installs once, then finds the package.
    nb = nbformat.reads(with_first_cell_installing_from(notebooks[NOTEBOOK], repo), as_version=4)
    first = nb.cells[0]
    again = nbformat.v4.new_code_cell(first.source)  # the same cell run a second time (its own cell id)
    nb.cells = [first, nbformat.v4.new_code_cell("import attention_steps; print(attention_steps.__file__)"), again]
    out = run_notebooks(python, tmp_path / "first-cell", {"first-cell": nbformat.writes(nb)})["first-cell"]
    assert not errors(out)
    printed = "".join(o.get("text", "") for o in out.cells[1].outputs)
    assert str(python.parent.parent) in printed, printed
    assert not out.cells[2].outputs, "the second time, nothing is installed"
    after = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    assert after == before, "pip install left files in the clone (the build backend builds elsewhere)"

    empty = tmp_path / "elsewhere"
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
    assert installed.is_relative_to(python.parent.parent), f"imported from {installed}, not the venv"
    assert done.stdout.splitlines()[-1] == "权重", "the installed package has no Chinese catalogue"

    ran = run_notebooks(python, tmp_path / "learner", notebooks)
    for name, nb in ran.items():
        assert not errors(nb), (name, errors(nb))
        assert not nb.cells[0].outputs, f"{name}: the package is installed, yet the first cell printed"


CJK = re.compile(r"[\u4e00-\u9fff]")


def shown_text(output) -> str:
    """What an output shows as text: a stream's text, else its HTML's text, else its plain text."""
    if output.output_type == "stream":
        return output.text
    data = output.get("data", {})
    if "text/html" in data:
        return re.sub(r"<[^>]+>", "", data["text/html"])
    return data.get("text/plain", "")


def test_the_chinese_learner_notebooks_run_in_the_same_fresh_environment_and_speak_chinese(tmp_path, fresh_venv):
    """The Chinese learner notebooks, every cell, in the environment the English ones ran in (their first cell
    installs the package from the clone when that test has not run first): no error, the install and
    language cells print nothing, and what the checker prints when run is Chinese."""
    import nbformat

    python, repo = fresh_venv
    notebooks = {name: with_first_cell_installing_from(text, repo) for name, text in learner_notebooks("zh_CN").items()}
    ran = run_notebooks(python, tmp_path / "learner-zh_CN", notebooks)
    checked = 0
    for name, nb in ran.items():
        assert not errors(nb), (name, errors(nb))
        assert "language" in nb.cells[1].metadata.get("tags", []), name
        assert not nb.cells[1].outputs, f"{name}: the language cell printed"
        for cell in nb.cells:
            if cell.cell_type == "code" and re.search(r"^check\(", cell.source, re.M):
                said = " ".join(shown_text(o) for o in cell.outputs)
                assert CJK.search(said), f"{name}: the checker printed {said[:300]!r}, not Chinese"
                checked += 1
    assert checked >= 20, f"only {checked} checker cells ran"

    # A wrong answer, in a notebook's own kernel after its language cell: the feedback is Chinese.
    nb = nbformat.reads(notebooks["03_scaling"], as_version=4)
    nb.cells = nb.cells[:2] + [
        nbformat.v4.new_code_cell("from attention_steps.exercises import check\ncheck('3.2', 1.0)")
    ]
    out = run_notebooks(python, tmp_path / "wrong-answer", {"wrong": nbformat.writes(nb)})["wrong"]
    said = " ".join(shown_text(o) for o in out.cells[2].outputs)
    assert CJK.search(said), f"a wrong answer's feedback is not Chinese: {said[:300]!r}"


BINDER_NOTEBOOK = "09_causal_masking"  # glue_words, figures in two languages, three exercises


def test_binder_requirements_alone_run_a_learner_notebook_beside_its_package(tmp_path):
    """The learner branch as Binder builds it: a fresh venv, `pip install -r binder/requirements.txt` and
    nothing else, and a learner notebook from _build/learner/book/ run, every cell, in a folder holding the
    package (book/attention_steps/) beside it, so the first cell imports it and installs nothing.

    The file alone must bring the kernel and nbclient that run the notebook here: its jupyterlab line
    does (JupyterLab depends on ipykernel, and through jupyter_server on nbconvert and nbclient). Binder's
    image has JupyterLab and a kernel before it reads the file; a local `pip install -r` has not.
    Installed with --no-compile: byte-compiling sympy and matplotlib is a third of pip's time on a
    warm cache, and not what this checks."""
    import nbformat
    from packaging.requirements import Requirement

    requirements = build_learner.OUT / "binder" / "requirements.txt"
    if not requirements.exists():
        pytest.fail(f"{requirements} is missing: run `bash scripts/build.sh`")
    lines = [line.split("#", 1)[0].strip() for line in requirements.read_text().splitlines()]
    named = {Requirement(line).name.lower(): line for line in lines if line}
    assert set(named) >= {"numpy", "matplotlib", "ipywidgets", "jupyterlab"}, named
    assert all(Requirement(line).specifier for line in named.values()), f"a line without bounds: {named}"

    python = venv(tmp_path / "venv")
    pip(python, "--no-compile", "-r", str(requirements))
    assert {"ipykernel", "nbclient", "nbformat"} <= installed(python), "the file alone brings no kernel or runner"

    book = build_learner.OUT / "book"
    nb = nbformat.reads((book / f"{BINDER_NOTEBOOK}.ipynb").read_text(), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import attention_steps; print(attention_steps.__file__)"))
    [ran] = run_notebooks(
        python, tmp_path / "binder", {BINDER_NOTEBOOK: nbformat.writes(nb)}, beside=book / "attention_steps"
    ).values()
    assert not errors(ran), errors(ran)
    assert not ran.cells[0].outputs, "the package is beside the notebook, yet the first cell printed (installed?)"
    imported = Path("".join(o.get("text", "") for o in ran.cells[-1].outputs).strip())
    assert imported.is_relative_to(tmp_path / "binder"), f"imported from {imported}, not the folder beside"
    assert "attention-steps" not in installed(python), "the first cell installed the package"


def installed(python: Path) -> set[str]:
    import json

    done = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json"],
        env=clean_env(python),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {item["name"].lower() for item in json.loads(done.stdout)}
