"""Build the learner edition: the book's notebooks as plain Jupyter notebooks.

    .venv/bin/python -m scripts.build_learner            # every notebook in _toc.yml
    .venv/bin/python -m scripts.build_learner --force    # rebuild them all

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
- a code cell that only glues values into the book's text (and asserts them) is left out: its
  values are in the text already, and it showed plumbing (`solution(...)`) between exercises;
- `from editions import glue, glue_words` (the book's production, book/editions.py) becomes small
  stand-ins, so the notebooks need only the `attention-steps` package, not the book's tools;
- a first cell installs that package, quietly and only when it is missing (Colab, Binder,
  a fresh environment), from the repository at the commit the notebook was built from; when
  it cannot (offline), it says in one paragraph what failed and what to do, and stops.

- a Markdown note after the title cell says once that the numbers in the text are the book's,
  computed when it was built, and that the code cells compute them again.

Every edition of the book has its learner notebooks. `--lang zh_CN` makes the Chinese
ones from the same executed notebooks, translated before they are converted by
scripts/translate_notebook.py (as the Chinese decks are; a message with no translation stops the
build); the outputs carry their other languages (figures, glued words, the checker's feedback), so
they come out Chinese, and the saved explorers are drawn in Chinese. The words this script adds
come from the production's catalogue (locale/zh_CN/chrome.po). A second cell, tagged
`language` and collapsed, runs `set_language("zh_CN")`, so what the package prints when a learner
runs the notebook is Chinese too (the install cell stays first: it runs before the package exists).

    .venv/bin/python -m scripts.build_learner --lang zh_CN   # the Chinese notebooks

Output:

    _build/learner/book/NN_name.ipynb     the learner notebooks (the tree the Pages workflow pushes
                                          to the `learner` branch, where Colab and Binder open them)
    _build/learner/book/attention_steps/  a copy of the core, so Binder's checkout imports it
    _build/learner/binder/requirements.txt, README.md
    _build/html/learner/NN_name.ipynb     the same notebooks, published with the book
    _build/html/_sources/book/NN_name.ipynb  replaced by them: the pages' download button
    _build/learner/zh_CN/book/NN_name.ipynb  the Chinese ones (and zh_CN/book/attention_steps/): the
                                          Chinese pages' launch buttons open them on the branch
    _build/html/zh_CN/learner/NN_name.ipynb, _build/html/zh_CN/_sources/book/NN_name.ipynb

Running it again rebuilds only the notebooks whose inputs changed (content hashes in
`_build/learner/.inputs.json`, `_build/learner/zh_CN/.inputs.json`), as scripts/build_slides.py does for the decks.
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
import time
from pathlib import Path

import yaml

# The shared MyST-to-Jupyter conversion (one module with the slides) and the book's executions.
from scripts.build_paths import ROOT, SITE, toc_pages
from scripts.chrome import LANGUAGES, N_, _, language  # the words this script adds, in every language
from scripts.myst_convert import MystConverter, admonition_quote, details, glue_outputs, is_glue_record
from scripts.slides.chapters import chapters, title_of
from scripts.slides.execution import cache_fingerprint, cache_record, executed
from scripts.translate_notebook import Untranslated, is_deck_words, translated  # noqa: F401  (Untranslated: for callers)

HERE = Path(__file__).resolve().parent

OUT = Path(os.environ.get("LEARNER_OUT", ROOT / "_build" / "learner"))
STAMPS = ".inputs.json"
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
REPOSITORY = CONFIG["repository"]["url"].rstrip("/")
DISTRIBUTION = "attention-steps"  # pyproject.toml's [project] name

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_FALLBACK = N_("An interactive explorer: run the notebook's cells (Run > Run All Cells) to use it here.")
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
NOT_INSTALLED = N_(
    "The package attention_steps, which this notebook needs, is not installed, and pip could not install it "
    "({reason}). To run the notebooks, get them where there is a connection: clone {repository} and run "
    "`pip install .` in the clone, or clone its `learner` branch, whose book/ folder holds the notebooks beside "
    "the package (`pip install -r binder/requirements.txt` installs what it needs); then open the notebooks "
    "from that clone."
)


INSTALL_COMMENT = N_(
    "Run this cell first. It installs the book's small package, attention_steps, when it is missing "
    "(Colab, Binder, a fresh environment): the version this notebook was made with."
)
_WIDE = re.compile(r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")
# What a line is cut between: a placeholder or a `code` span whole, a word with the spaces after it,
# or one wide (Chinese) character with the punctuation after it (a line never starts with "，").
_PIECE = re.compile(
    r"\{\w+\}\s*|`[^`]*`\s*|[^\s`{\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]+\s*|.[，。；：、）」』！？]*\s*|\s+"
)


def _columns(text: str) -> int:
    """How wide `text` shows in a monospaced editor: a Chinese character takes two columns."""
    return len(text) + len(_WIDE.findall(text))


def wrap_exactly(text: str, width: int) -> list[str]:
    """`text` cut into lines at most `width` columns wide (where a piece allows) that join back into
    `text` exactly: English is cut after a space, which stays at the line's end; Chinese, which has no
    spaces, between characters; a `{placeholder}` or a `code` span is never cut."""
    lines, line = [], ""
    for piece in _PIECE.findall(text):
        if line and _columns(line + piece.rstrip()) > width:
            lines.append(line)
            line = ""
        line += piece
    assert "".join([*lines, line]) == text, "wrap_exactly lost text"
    return [*lines, line] if line else lines


def _python_string(text: str, width: int = 84, indent: str = "            ") -> str:
    """`text` as adjacent Python string literals of at most `width` columns, one a line
    (an f-string where it holds `{reason}`), that Python joins back into `text` exactly."""
    literals = [
        ("f" if "{reason}" in part else "") + json.dumps(part, ensure_ascii=False) for part in wrap_exactly(text, width)
    ]
    return "\n".join(indent + literal for literal in literals)


def _comment(text: str, width: int = 90) -> str:
    """`text` as `# ` comment lines."""
    return "\n".join("# " + line.rstrip() for line in wrap_exactly(text, width - 2))


def install_cell(spec: str, module: str = "attention_steps") -> str:
    """The learner notebook's first cell: import `module`; when it is missing, `pip install spec` quietly,
    and if that fails, one paragraph (NOT_INSTALLED) and the run stops there (Run All goes no further).
    Its words in the current language (`attention_steps.i18n.language`)."""
    message = _python_string(_(NOT_INSTALLED).replace("{repository}", REPOSITORY))
    return f'''\
{_comment(_(INSTALL_COMMENT))}
try:
    import {module}
except ImportError:
    import importlib, re, subprocess, sys

    PACKAGE = "{spec}"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", PACKAGE], capture_output=True, text=True)
    if pip.returncode != 0:
        class NotInstalled(Exception):
            def _render_traceback_(self):  # what Jupyter shows: the message alone, no traceback
                return [str(self)]

        plain = re.sub(r"\\x1b\\[[0-9;]*[A-Za-z]", "", pip.stderr)  # no colour codes (a kernel may set FORCE_COLOR)
        said = [line.strip() for line in plain.splitlines() if line.strip()] or ["pip printed nothing"]
        reason = next((line for line in said if line.startswith(("fatal:", "ERROR:"))), said[-1])
        raise NotInstalled(
{message}
        ) from None
    importlib.invalidate_caches()
    import {module}'''


# A chapter imports its glue from the book's production (book/editions.py), which a learner does not have:
# that import becomes small stand-ins, so the cells that glued run where only the package is installed.
GLUE_IMPORT = re.compile(r"^([ \t]*)from editions import ([\w, ]+?)[ \t]*$", re.M)
GLUE_DOC = N_("The book writes this value into its text (myst_nb.glue); this notebook's text already shows it.")
GLUE_WORDS_DOC = N_(
    "The book writes this phrase into its text in every language (glue_words); this notebook's text already shows it."
)
STANDINS = {
    "glue": '''def glue(name, value, display=True):
    """{doc}"""
    if display:
        from IPython.display import display as show
        show(value)''',
    "glue_words": '''def glue_words(name, words):
    """{doc}"""''',
}
STANDIN_DOCS = {"glue": GLUE_DOC, "glue_words": GLUE_WORDS_DOC}


def glue_standins(match: re.Match) -> str:
    """What `from editions import glue, glue_words` becomes: a stand-in for each name, indented as the
    import was, its docstring in the current language."""
    indent, names = match.group(1), [n.strip() for n in match.group(2).split(",")]
    unknown = [n for n in names if n not in STANDINS]
    if unknown:
        raise ValueError(f"build_learner: no stand-in for {unknown} imported from editions; add one to STANDINS")
    code = "\n\n".join(STANDINS[n].format(doc=_(STANDIN_DOCS[n])) for n in names)
    return "\n".join(indent + line if line else line for line in code.splitlines())


def notebooks() -> list[Path]:
    """The intro and every chapter, in _toc.yml order."""
    root = ROOT / f"{toc_pages()[0]}.ipynb"
    return ([root] if root.exists() else []) + [p for p in chapters() if p != root]


def _markdown_in(lang: str, stem: str):
    """A function giving a markdown cell's source in `lang`, as the page's catalogue translates it."""
    if lang == "en":
        return lambda text: text
    from scripts.translate_notebook import catalogue, translate_markdown

    book = catalogue(lang, "book", stem)
    return lambda text: translate_markdown(text, book.get)[0]


def labels(lang: str = "en") -> dict[str, tuple[str, str]]:
    """Every MyST target `(label)=` of the book: label -> (notebook stem, the id JupyterLab gives the heading
    it marks, the heading in `lang`)."""
    found = {}
    for path in notebooks():
        in_language = _markdown_in(lang, path.stem)
        for cell in json.loads(path.read_text())["cells"]:
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if cell["cell_type"] != "markdown" or "(" not in text:
                continue
            text = in_language(text)
            for m in re.finditer(r"^\s*\(([^)\s]+)\)=\s*\n+\s*#+\s+(.+)$", text, re.M):
                found[m.group(1)] = (path.stem, re.sub(r"\s+", "-", re.sub(r"[$`*]", "", m.group(2).strip())))
    return found


def titles(lang: str = "en") -> dict[str, str]:
    """Notebook stem -> its title in `lang`, the text of a `{doc}` link written without one (as the
    page's catalogue translates its heading, like the Chinese decks' links)."""
    found = {p.stem: title_of(json.loads(p.read_text())) for p in notebooks()}
    if lang == "en":
        return found
    from scripts.translate_notebook import catalogue

    return {stem: catalogue(lang, "book", stem).get(title, title) for stem, title in found.items()}


def converter(nb, name: str, lang: str = "en") -> MystConverter:
    """The shared conversion, with links to other notebooks pointing at their learner editions beside this one."""

    def link(stem: str, anchor: str) -> str:
        target = "" if stem == name and anchor else f"{stem}.ipynb"
        return target + (f"#{anchor}" if anchor else "")

    return MystConverter(
        glue_outputs(nb),
        name=name,
        link=link,
        titles=titles(lang),
        labels=labels(lang),
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


# --------------------------------------------------------------------------- another language
def in_language(nb, lang: str, stem: str):
    """The executed notebook in `lang`, translated as the Chinese decks are; stops on an untranslated message."""
    return translated(nb, lang, stem, "build_learner")


LANGUAGE_TAG = "language"
LANGUAGE_COMMENT = N_(
    "This notebook is in Chinese: this cell makes the checker's feedback, the figures and the explorers speak it too."
)


def language_cell(lang: str):
    """The second cell of a learner notebook in another language: `set_language(lang)`, collapsed, so that
    what the package prints when the learner runs the notebook is in the notebook's language."""
    import nbformat

    cell = nbformat.v4.new_code_cell(
        f"{_comment(_(LANGUAGE_COMMENT))}\nfrom attention_steps.i18n import set_language\n\nset_language({json.dumps(lang)})"
    )
    cell.metadata["tags"] = [LANGUAGE_TAG]
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    cell.metadata["jupyter"] = {"source_hidden": True}
    return cell


NUMBERS_TAG = "numbers-note"
NUMBERS_NOTE = N_(
    "The numbers in this notebook's text are the book's, computed when the book was built. Running the cells "
    "computes them again: after you change an example, what the cells print follows your change, and the "
    "text still shows the book's numbers."
)


def numbers_note():
    """A Markdown cell, once at the top: the text's numbers are the book's; the cells recompute them."""
    import nbformat

    cell = nbformat.v4.new_markdown_cell("> " + _(NUMBERS_NOTE))
    cell.metadata["tags"] = [NUMBERS_TAG]
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    return cell


def first_cells(commit: str | None, lang: str) -> list:
    """The cells a learner notebook opens with: the install cell, then (another language) the language cell."""
    import nbformat

    first = nbformat.v4.new_code_cell(install_cell(install_spec(commit)))
    first.metadata["tags"] = ["install"]
    first.metadata["slideshow"] = {"slide_type": "skip"}
    return [first] + ([] if lang == "en" else [language_cell(lang)])


def with_numbers_note(cells: list) -> list:
    """`cells` with the numbers' note after the title cell (the first Markdown cell)."""
    at = next((i + 1 for i, c in enumerate(cells) if c.cell_type == "markdown"), 0)
    return [*cells[:at], numbers_note(), *cells[at:]]


def localized(nb, lang: str):
    """What the conversion wrote in English, in `lang`: the explorers' stand-in text, the glue stand-in's
    docstring; and the saved explorers (widget state) drawn in `lang` where no kernel says otherwise."""
    if lang == "en":
        return nb
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for doc in STANDIN_DOCS.values():
            cell.source = cell.source.replace(doc, _(doc))
        for o in cell.get("outputs", []):
            if WIDGET_VIEW in o.get("data", {}):
                o["data"]["text/plain"] = _(WIDGET_FALLBACK)
    # Each saved explorer carries every language's labels (data.i18n) and the kernel's language, which was
    # English when the book ran: the front end shows the kernel's language, else the page's (JupyterLab's is
    # English). Saved as this notebook's language, it draws in it; run again, set_language says the same.
    states = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model in states.values():
        data = model.get("state", {}).get("data")
        if isinstance(data, dict) and isinstance(data.get("i18n"), dict):
            data["i18n"] = {**data["i18n"], "lang": lang}
    return nb


def learner_edition(nb, name: str, commit: str | None = None, lang: str = "en"):
    """A copy of an executed book notebook as a plain Jupyter notebook (see the module's docstring).

    commit: the package's commit the first cell installs (default `built_from()`; "" for none);
    lang: the notebook's language (translated first, as the Chinese decks are)."""
    if lang != "en":  # the deck's words are left out: their catalogues are the slides' business
        nb = copy.deepcopy(nb)
        nb.cells = [c for c in nb.cells if not is_deck_words(c)]
    with language(lang):
        return localized(_learner_edition(in_language(nb, lang, name), name, commit, lang), lang)


def _learner_edition(nb, name: str, commit: str | None, lang: str):
    nb = copy.deepcopy(nb)
    myst = converter(nb, name, lang)
    cells = []
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if is_deck_words(cell):
            continue  # speaker notes and slide-only text: the teacher's, not the learner's
        if cell.cell_type == "markdown":
            if REMOVE_CELL in tags:
                continue
            cell.source = myst(cell.source).strip("\n")
            if not cell.source.strip():
                continue
        elif cell.cell_type == "code":
            if only_glue(cell.source):
                continue  # its values are in the text; it only showed plumbing (solution(...) among it)
            cell.source = GLUE_IMPORT.sub(glue_standins, cell.source)
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
    nb.cells = [*first_cells(commit, lang), *with_numbers_note(cells)]
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

`zh_CN/book/` holds the same notebooks in Simplified Chinese (中文版), with the package beside
them too; their second cell sets the package's language, so the checker, the figures and the
explorers speak Chinese when you run them.
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


def folder(lang: str) -> str:
    """Where a language's learner notebooks are, under _build/learner/ and in the built book: "" for English
    (book/, _build/html/), else the language (zh_CN/book/, _build/html/zh_CN/), as the book's editions are."""
    if lang not in LANGUAGES:
        raise ValueError(f"build_learner: lang must be one of {LANGUAGES}, got {lang!r}")
    return "" if lang == "en" else lang


def out_dir(lang: str = "en") -> Path:
    """The learner tree of `lang`: _build/learner/ (English), _build/learner/zh_CN/ (the tree the Pages
    workflow pushes to the `learner` branch holds both; each language's book/ has the package beside it)."""
    return OUT / folder(lang)


def site_dir(lang: str = "en") -> Path:
    """The built book of `lang`: _build/html/ or _build/html/zh_CN/."""
    return SITE / folder(lang)


def publish(names: list[str], lang: str = "en") -> int:
    """Copy the learner notebooks into the built book of their language: its learner/ folder and the
    download button's _sources/."""
    site = site_dir(lang)
    if not (site / "index.html").exists():
        return 0
    copied = 0
    for name in names:
        src = out_dir(lang) / "book" / f"{name}.ipynb"
        data = src.read_text()
        for target in (site / "learner" / f"{name}.ipynb", site / "_sources" / "book" / f"{name}.ipynb"):
            copied += write_if_changed(target, data)
    return copied


def tooling_digest(commit: str = "", lang: str = "en") -> str:
    """This script, the shared converter, the execution helpers, and what the install cell and links are
    made from (the package's commit among them); another language's: also its translation and catalogues."""
    h = hashlib.sha256(commit.encode() + b"\0" + lang.encode() + b"\0")
    extra = []
    if lang != "en":
        extra = [
            HERE / "translate_notebook.py",
            ROOT / "book" / "attention_steps" / "i18n.py",
            HERE / "chrome.py",
            ROOT / "locale" / lang / "chrome.po",
            *sorted((ROOT / "locale" / lang / "LC_MESSAGES" / "book").glob("*.po")),
        ]
    for path in [
        Path(__file__),
        HERE / "myst_convert.py",
        HERE / "build_paths.py",
        HERE / "slides" / "execution.py",
        ROOT / "_config.yml",
        ROOT / "_toc.yml",
        ROOT / "pyproject.toml",
        *extra,
    ]:
        if path.exists():
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild every notebook")
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="the notebooks' language; default en")
    args = parser.parse_args(argv)
    return build(args.lang, args.force)


def build(lang: str = "en", force: bool = False) -> int:
    """Build (and publish) the learner notebooks of `lang` whose inputs changed."""
    start = time.perf_counter()
    paths = notebooks()
    out = out_dir(lang)
    (out / "book").mkdir(parents=True, exist_ok=True)
    try:
        stamps = json.loads((out / STAMPS).read_text())
    except (OSError, ValueError):
        stamps = {}
    commit = built_from()
    tooling, fingerprint = tooling_digest(commit, lang), cache_fingerprint()
    rebuilt = []
    for path in paths:
        target = out / "book" / f"{path.stem}.ipynb"
        quick = hashlib.sha256(f"{tooling}\0{fingerprint}\0".encode() + path.read_bytes()).hexdigest()
        old = stamps.get(path.stem, {})
        if not force and target.exists() and old.get("quick") == quick:
            continue
        record = cache_record(path)  # the book's execution of this notebook, None if it has none
        digest = (
            None
            if record is None
            else hashlib.sha256(f"{tooling}\0{record}\0".encode() + path.read_bytes()).hexdigest()
        )
        if not force and target.exists() and digest is not None and old.get("inputs") == digest:
            stamps[path.stem] = {"inputs": digest, "quick": quick}
            continue
        import nbformat

        t0 = time.perf_counter()
        nb, origin = executed(path)
        nbformat.write(learner_edition(nb, path.stem, commit, lang), target)
        stamps[path.stem] = {"inputs": digest, "quick": quick} if digest else {}
        rebuilt.append(path.stem)
        print(
            f"build_learner: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target} "
            f"({origin}, {time.perf_counter() - t0:.1f} s)"
        )
    (out / STAMPS).write_text(json.dumps(stamps, indent=1, sort_keys=True))
    copy_package(out / "book" / "attention_steps")  # beside each language's notebooks: Binder imports it from there
    write_if_changed(OUT / "README.md", BRANCH_README)
    write_if_changed(OUT / "binder" / "requirements.txt", binder_requirements())
    copied = publish([p.stem for p in paths], lang)
    print(
        f"build_learner: {lang}: {len(rebuilt)} notebooks rebuilt, {len(paths) - len(rebuilt)} unchanged, "
        f"{copied} copied into {site_dir(lang)}/ in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
