"""Build the learner edition: the book's notebooks as plain Jupyter notebooks (issue 10).

    .venv/bin/python scripts/build_learner.py            # every notebook in _toc.yml
    .venv/bin/python scripts/build_learner.py --force    # rebuild them all

The book's notebooks are written in MyST for Jupyter Book: glued numbers and equations,
`:::{dropdown}` solutions, speaker notes tagged `remove-cell`. Plain JupyterLab, Notebook 7,
VS Code and Colab understand none of it. The learner edition is made from the book's
executed notebooks (its jupyter-cache, as the slides are), with the MyST turned into plain
Markdown by the module shared with the slides (scripts/myst_convert.py):

- every glued number and equation is written into the text;
- every dropdown (the exercises' solutions) is an HTML <details> block, folded until clicked;
- speaker notes are left out;
- code cells the book hides (`remove-cell`, `hide-input`) are kept, so the notebook runs as
  the book did, with their code collapsed; a `remove-cell` cell's outputs (glue records) are gone;
- `from myst_nb import glue` becomes a small stand-in, so the notebooks need only the
  `attention-steps` package, not the book's tools;
- a first cell installs that package, quietly and only when it is missing (Colab, Binder,
  a fresh environment), from the repository at the commit the notebook was built from; when
  it cannot (offline), it says in one paragraph what failed and what to do, and stops.

Output:

    _build/learner/book/NN_name.ipynb     the learner notebooks (the tree the Pages workflow pushes
                                          to the `learner` branch, where Colab and Binder open them)
    _build/learner/book/attention_steps/  a copy of the core, so Binder's checkout imports it
    _build/learner/binder/requirements.txt, README.md
    _build/html/learner/NN_name.ipynb     the same notebooks, published with the book
    _build/html/_sources/book/NN_name.ipynb  replaced by them: the pages' download button

Running it again rebuilds only the notebooks whose inputs changed (content hashes in
`_build/learner/.inputs.json`), as scripts/build_slides.py does for the decks.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# The shared MyST-to-Jupyter conversion (one module with the slides) and the book's executions.
from build_paths import ROOT, SITE, toc_pages  # noqa: E402
from myst_convert import MystConverter, admonition_quote, details, glue_outputs, is_glue_record  # noqa: E402
from slides.chapters import chapters, title_of  # noqa: E402
from slides.execution import cache_fingerprint, cache_record, executed  # noqa: E402

OUT = Path(os.environ.get("LEARNER_OUT", ROOT / "_build" / "learner"))
STAMPS = ".inputs.json"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
REPOSITORY = CONFIG["repository"]["url"].rstrip("/")
DISTRIBUTION = "attention-steps"  # pyproject.toml's [project] name

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_FALLBACK = "An interactive explorer: run the notebook's cells (Run > Run All Cells) to use it here."
REMOVE_CELL = "remove-cell"
HIDE_INPUT = {"hide-input", "remove-input", "hide-cell"}

PACKAGE_FILES = ["book/attention_steps", "pyproject.toml"]  # what `pip install` of the repository installs


def built_from() -> str:
    """The last commit that changed the package (`git log -1 -- book/attention_steps pyproject.toml`):
    the package of that commit is the one these notebooks were built with, and it stays the same
    commit until the package changes. "" where there is no git history (a copy without .git)."""
    try:
        done = subprocess.run(
            ["git", "log", "-1", "--format=%H", "--", *PACKAGE_FILES], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:  # no git
        return ""
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", commit) else ""


def install_spec(commit: str | None = None) -> str:
    """What the first cell gives pip: the package from the repository, at the commit the notebook was built from."""
    commit = built_from() if commit is None else commit
    return f"{DISTRIBUTION} @ git+{REPOSITORY}" + (f"@{commit}" if commit else "")


# Shown, alone, when the package is missing and pip cannot install it (offline, no git): what
# failed and what to do, with no traceback (IPython shows what `_render_traceback_` returns).
NOT_INSTALLED = (
    "The package attention_steps, which this notebook needs, is not installed, and pip could not install it "
    "({reason}). To run the notebooks, get them where there is a connection: clone {repository} and run "
    "`pip install .` in the clone, or clone its `learner` branch, whose book/ folder holds the notebooks beside "
    "the package (`pip install -r binder/requirements.txt` installs what it needs); then open the notebooks "
    "from that clone."
)


def _python_string(text: str, width: int = 84, indent: str = "            ") -> str:
    """`text` as adjacent Python string literals of at most `width` characters, one a line
    (an f-string where it holds `{reason}`)."""
    parts = textwrap.wrap(text, width, break_on_hyphens=False)
    literals = [
        ("f" if "{reason}" in part else "") + json.dumps(part + (" " if i < len(parts) - 1 else ""))
        for i, part in enumerate(parts)
    ]
    return "\n".join(indent + literal for literal in literals)


def install_cell(spec: str, module: str = "attention_steps") -> str:
    """The learner notebook's first cell: import `module`; when it is missing, `pip install spec` quietly,
    and if that fails, one paragraph (NOT_INSTALLED) and the run stops there (Run All goes no further)."""
    message = _python_string(NOT_INSTALLED.replace("{repository}", REPOSITORY))
    return f'''\
# Run this cell first. It installs the book's small package, attention_steps, when it is
# missing (Colab, Binder, a fresh environment): the version this notebook was made with.
try:
    import {module}
except ImportError:
    import importlib, subprocess, sys

    PACKAGE = "{spec}"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", PACKAGE], capture_output=True, text=True)
    if pip.returncode != 0:
        class NotInstalled(Exception):
            def _render_traceback_(self):  # what Jupyter shows: the message alone, no traceback
                return [str(self)]

        said = [line.strip() for line in pip.stderr.splitlines() if line.strip()] or ["pip printed nothing"]
        reason = next((line for line in said if line.startswith(("fatal:", "ERROR:"))), said[-1])
        raise NotInstalled(
{message}
        ) from None
    importlib.invalidate_caches()
    import {module}'''


GLUE_IMPORT = re.compile(r"^([ \t]*)from myst_nb import glue[ \t]*$", re.M)
GLUE_STANDIN = '''\
\\1def glue(name, value, display=True):
\\1    """The book writes this value into its text (myst_nb.glue); this notebook's text already shows it."""
\\1    if display:
\\1        from IPython.display import display as show
\\1        show(value)'''


def notebooks() -> list[Path]:
    """The intro and every chapter, in _toc.yml order."""
    root = ROOT / f"{toc_pages()[0]}.ipynb"
    return ([root] if root.exists() else []) + [p for p in chapters() if p != root]


def labels() -> dict[str, tuple[str, str]]:
    """Every MyST target `(label)=` of the book: label -> (notebook stem, the id JupyterLab gives the heading it marks)."""
    found = {}
    for path in notebooks():
        for cell in json.loads(path.read_text())["cells"]:
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for m in re.finditer(r"^\s*\(([^)\s]+)\)=\s*\n+\s*#+\s+(.+)$", text, re.M):
                found[m.group(1)] = (path.stem, re.sub(r"\s+", "-", re.sub(r"[$`*]", "", m.group(2).strip())))
    return found


def titles() -> dict[str, str]:
    """Notebook stem -> its title, the text of a `{doc}` link written without one."""
    return {p.stem: title_of(json.loads(p.read_text())) for p in notebooks()}


def converter(nb, name: str) -> MystConverter:
    """The shared conversion, with links to other notebooks pointing at their learner editions beside this one."""

    def link(stem: str, anchor: str) -> str:
        target = "" if stem == name and anchor else f"{stem}.ipynb"
        return target + (f"#{anchor}" if anchor else "")

    return MystConverter(
        glue_outputs(nb),
        name=name,
        link=link,
        titles=titles(),
        labels=labels(),
        dropdown=details,
        admonition=admonition_quote,
    )


GLUE_CALLS = {"glue", "glue_words"}


def only_glue(source: str) -> bool:
    """Whether a code cell does nothing but glue values into the book's text (`glue(..., display=False)`,
    `glue_words(...)`) and check them (`assert`): the learner's text already shows those values, and such
    a cell defines no name a later cell could need, so the learner edition leaves it out (between an
    exercise and its solution it showed `glue("ch9_ex1_A", np.round(solution("9.1"), 3), display=False)`)."""
    import ast

    try:
        statements = ast.parse(source).body
    except SyntaxError:
        return False

    def glues(node) -> bool:
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
            return False
        call = node.value
        if not (isinstance(call.func, ast.Name) and call.func.id in GLUE_CALLS):
            return False
        if call.func.id == "glue":  # glue(name, value) with display=True shows the value: keep it
            return any(
                k.arg == "display" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in call.keywords
            )
        return True

    return bool(statements) and all(isinstance(s, ast.Assert) or glues(s) for s in statements)


def learner_edition(nb, name: str, commit: str | None = None):
    """A copy of an executed book notebook as a plain Jupyter notebook (see the module's docstring).

    commit: the package's commit the first cell installs (default `built_from()`; "" for none)."""
    import nbformat

    nb = copy.deepcopy(nb)
    myst = converter(nb, name)
    cells = []
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
            continue  # speaker notes: the teacher's, not the learner's
        if cell.cell_type == "markdown":
            if REMOVE_CELL in tags:
                continue
            cell.source = myst(cell.source).strip("\n")
            if not cell.source.strip():
                continue
        elif cell.cell_type == "code":
            if only_glue(cell.source):
                continue  # its values are in the text; it only showed plumbing (solution(...) among it)
            cell.source = GLUE_IMPORT.sub(GLUE_STANDIN, cell.source)
            cell.execution_count = None
            if REMOVE_CELL in tags:
                cell.outputs = []  # the glue records the book read its numbers from
            else:
                cell.outputs = [
                    o
                    for o in cell.outputs
                    if not (o.output_type == "stream" and o.get("name") == "stderr") and not is_glue_record(o)
                ]
                for o in cell.outputs:
                    if "execution_count" in o:
                        o["execution_count"] = None
                    if WIDGET_VIEW in o.get("data", {}):
                        # Shown where the saved widget cannot be drawn (no kernel yet): say what to do,
                        # not the object's repr with the book's memory address.
                        o["data"]["text/plain"] = WIDGET_FALLBACK
            if tags & ({REMOVE_CELL} | HIDE_INPUT):
                # Hidden in the book; here kept (later cells use what it computes), its code collapsed.
                cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
        cells.append(cell)
    first = nbformat.v4.new_code_cell(install_cell(install_spec(commit)))
    first.metadata["tags"] = ["install"]
    first.metadata["slideshow"] = {"slide_type": "skip"}
    nb.cells = [first, *cells]
    nb.metadata.pop("mystnb", None)
    nb.metadata.setdefault("kernelspec", {"display_name": "Python 3", "language": "python", "name": "python3"})
    return nb


# --------------------------------------------------------------------------- what is published
BRANCH_README = f"""\
# Attention, Step by Step: the learner's notebooks

This branch is made by the book's build (`scripts/build_learner.py`) from the chapters on the
main branch; do not edit it, edit the chapters there: {REPOSITORY}

`book/` holds one plain Jupyter notebook per chapter: the numbers and equations are written
in, the exercises' solutions are folded (click to open), and the first cell installs the
`attention_steps` package when it is missing. Open them in JupyterLab, Jupyter Notebook, VS Code,
Colab or Binder; `book/attention_steps/` is the package itself, so a clone of this branch runs
them as they are.
"""


def pyproject() -> dict:
    """pyproject.toml, read by tomllib (tomli, its backport, on Python 3.10)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def binder_requirements() -> str:
    """The package's runtime dependencies (pyproject.toml) and JupyterLab, for Binder."""
    deps = pyproject()["project"]["dependencies"]
    lab = next(
        line.split("#")[0].strip()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.startswith("jupyterlab>")
    )
    return "\n".join([*deps, lab]) + "\n"


def write_if_changed(path: Path, data: str) -> bool:
    if path.exists() and path.read_text() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data)
    return True


def copy_package(dest: Path) -> None:
    src = ROOT / "book" / "attention_steps"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def publish(names: list[str]) -> int:
    """Copy the learner notebooks into the built book: its learner/ folder and the download button's _sources/."""
    if not (SITE / "index.html").exists():
        return 0
    copied = 0
    for name in names:
        src = OUT / "book" / f"{name}.ipynb"
        data = src.read_text()
        for target in (SITE / "learner" / f"{name}.ipynb", SITE / "_sources" / "book" / f"{name}.ipynb"):
            copied += write_if_changed(target, data)
    return copied


def tooling_digest(commit: str = "") -> str:
    """This script, the shared converter, the execution helpers, and what the install cell and links are
    made from (the package's commit among them)."""
    h = hashlib.sha256(commit.encode() + b"\0")
    for path in [
        Path(__file__),
        HERE / "myst_convert.py",
        HERE / "build_paths.py",
        HERE / "slides" / "execution.py",
        ROOT / "_config.yml",
        ROOT / "_toc.yml",
        ROOT / "pyproject.toml",
    ]:
        if path.exists():
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild every notebook")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    paths = notebooks()
    (OUT / "book").mkdir(parents=True, exist_ok=True)
    try:
        stamps = json.loads((OUT / STAMPS).read_text())
    except (OSError, ValueError):
        stamps = {}
    commit = built_from()
    tooling, fingerprint = tooling_digest(commit), cache_fingerprint()
    rebuilt = []
    for path in paths:
        target = OUT / "book" / f"{path.stem}.ipynb"
        quick = hashlib.sha256(f"{tooling}\0{fingerprint}\0".encode() + path.read_bytes()).hexdigest()
        old = stamps.get(path.stem, {})
        if not args.force and target.exists() and old.get("quick") == quick:
            continue
        record = cache_record(path)  # the book's execution of this notebook, None if it has none
        digest = (
            None
            if record is None
            else hashlib.sha256(f"{tooling}\0{record}\0".encode() + path.read_bytes()).hexdigest()
        )
        if not args.force and target.exists() and digest is not None and old.get("inputs") == digest:
            stamps[path.stem] = {"inputs": digest, "quick": quick}
            continue
        import nbformat

        t0 = time.perf_counter()
        nb, origin = executed(path)
        nbformat.write(learner_edition(nb, path.stem, commit), target)
        stamps[path.stem] = {"inputs": digest, "quick": quick} if digest else {}
        rebuilt.append(path.stem)
        print(
            f"build_learner: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target} "
            f"({origin}, {time.perf_counter() - t0:.1f} s)"
        )
    (OUT / STAMPS).write_text(json.dumps(stamps, indent=1, sort_keys=True))
    copy_package(OUT / "book" / "attention_steps")
    write_if_changed(OUT / "README.md", BRANCH_README)
    write_if_changed(OUT / "binder" / "requirements.txt", binder_requirements())
    copied = publish([p.stem for p in paths])
    print(
        f"build_learner: {len(rebuilt)} notebooks rebuilt, {len(paths) - len(rebuilt)} unchanged, "
        f"{copied} copied into {SITE}/ in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
