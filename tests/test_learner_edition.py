"""The learner edition: plain Jupyter notebooks made from the book's by scripts/build_learner.py.

The built notebooks (_build/learner/book/, the Chinese ones in _build/learner/zh_CN/book/) are
read as a learner's JupyterLab would: Markdown with no MyST left in it, every glued value written
in, solutions only inside <details>, no speaker notes, every code cell of the book there, the
note about the text's numbers at the top. The Chinese ones are Chinese (text, saved outputs,
explorers, the added words) and open with the install cell, then the language cell. The
conversion itself is also checked on a small notebook made here, so a regression shows even
before a build.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
import yaml

from conftest import HTML, ROOT
from scripts import build_learner

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

LEARNER = build_learner.OUT / "book"
SOURCES = build_learner.notebooks()
NAMES = [p.stem for p in SOURCES]
LANGS = list(build_learner.LANGUAGES)  # en, zh_CN: every edition has its learner notebooks
EVERY = [(lang, name) for lang in LANGS for name in NAMES]
CJK = re.compile(r"[\u4e00-\u9fff]")

# What plain Jupyter Markdown shows as raw text: MyST roles, directive fences, targets, comments.
MYST_LEFT = [
    (re.compile(r"\{[a-zA-Z][\w:+-]*\}`"), "a MyST role ({name}`...`)"),
    (re.compile(r"^\s*(:{3,}|`{3,}|~{3,})\{", re.M), "a MyST directive fence"),
    (re.compile(r"^\s*\([^)\s]+\)=\s*$", re.M), "a MyST target (label)="),
    (re.compile(r"^\+\+\+\s*$", re.M), "a MyST block break +++"),
    (re.compile(r"\{glue"), "{glue"),
    (re.compile(r":::"), ":::"),
]
EMPTY_GLUE = [(re.compile(r'<div class="glued">\s*</div>'), "an empty glued block")]


def display_math(text: str) -> list[str]:
    """The contents of the $$ ... $$ blocks of a Markdown cell (a $$ alone on its line opens or closes one)."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.strip() == "$$":
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    assert current is None, "a $$ block is not closed"
    return blocks


def source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def is_notes(cell) -> bool:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes"


def learner_dir(lang: str = "en") -> Path:
    return build_learner.out_dir(lang) / "book"


def learner(name: str, lang: str = "en") -> dict:
    path = learner_dir(lang) / f"{name}.ipynb"
    if not path.exists():
        pytest.fail(
            f"{path} is missing: run `bash scripts/build.sh` (it runs python -m scripts.build_learner --lang {lang})"
        )
    return json.loads(path.read_text())


def book(name: str, lang: str = "en") -> dict:
    """The chapter's authoring notebook; in another language, translated as the build translates it."""
    nb = json.loads((ROOT / "book" / f"{name}.ipynb").read_text())
    if lang == "en":
        return nb
    from scripts.translate_notebook import translate

    return translate(nb, lang, name)[0]


def first_cells(lang: str) -> int:
    """How many cells the build puts before the book's: the install cell, and the language cell."""
    return len(build_learner.first_cells("", lang))


def said(message: str, lang: str) -> str:
    """A message of build_learner's in `lang`."""
    from scripts.chrome import _, language

    with language(lang):
        return _(message)


def plain_lines(text: str) -> list[str]:
    """Lines of MyST that come through the conversion word for word: no roles, maths, markup."""
    return [
        line.strip()
        for line in text.splitlines()
        if len(line.strip()) > 30
        and not re.search(r"[{}`$<>|*_\[\]\\:]", line)
        and not line.lstrip().startswith(("-", "#"))
    ]


def outside_details(markdown: str) -> str:
    """The Markdown with every <details>...</details> block cut out."""
    return re.sub(r"<details>.*?</details>", "", markdown, flags=re.S)


# --------------------------------------------------------------------------- the built notebooks
@pytest.mark.parametrize("lang", LANGS)
def test_every_book_notebook_has_a_learner_edition(lang):
    assert NAMES[0] == "intro" and len(NAMES) >= 12, NAMES
    missing = [n for n in NAMES if not (learner_dir(lang) / f"{n}.ipynb").exists()]
    assert not missing, f"no {lang} learner edition of {missing}: run python -m scripts.build_learner --lang {lang}"


@pytest.mark.parametrize("lang, name", EVERY)
def test_valid_notebook_with_no_myst_left(lang, name):
    nb = learner(name, lang)
    nbformat.validate(nbformat.from_dict(nb))
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        for pattern, what in MYST_LEFT + EMPTY_GLUE:
            for m in pattern.finditer(text):
                found.append(f"cell {i}: {what}: ...{text[max(0, m.start() - 40) : m.end() + 40]!r}...")
        found += [f"cell {i}: an empty $$ $$ block" for block in display_math(text) if not block.strip()]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("lang, name", EVERY)
def test_glued_values_are_written_in(lang, name):
    """Every {glue:text} role of the book became text: the number of roles in a cell is not kept as keys."""
    nb = learner(name, lang)
    text = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    keys = {
        m.group(1).rpartition(":")[0] or m.group(1)
        for m in re.finditer(
            r"\{glue:text\}`([^`]+)`", "\n".join(source(c) for c in book(name)["cells"] if c["cell_type"] == "markdown")
        )
    }
    shown = [k for k in keys if re.search(rf"\b{re.escape(k)}\b", text)]
    assert not shown, f"glue keys shown instead of their values: {shown[:10]}"
    # equations: every {glue:math} block is a non-empty $$ ... $$ with the glued LaTeX in it
    blocks = [b for c in nb["cells"] if c["cell_type"] == "markdown" for b in display_math(source(c))]
    wanted = sum(
        source(c).count("{glue:math}")
        for c in book(name)["cells"]
        if c["cell_type"] == "markdown" and not is_notes(c) and "slide-only" not in tags(c)  # the deck's words
    )
    assert sum(1 for b in blocks if b.strip()) >= wanted


@pytest.mark.parametrize("lang, name", EVERY)
def test_solutions_only_inside_details(lang, name):
    nb = learner(name, lang)
    markdown = [source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    dropdowns = [
        m.group(1)
        for c in book(name, lang)["cells"]
        if c["cell_type"] == "markdown" and not is_notes(c)
        for m in re.finditer(r"^:{3,}\{dropdown\}[^\n]*\n(.*?)^:{3,}\s*$", source(c), flags=re.S | re.M)
    ]
    assert sum(m.count("<details>") for m in markdown) == len(dropdowns)
    for m in markdown:
        assert m.count("<details>") == m.count("</details>") and m.count("<summary>") == m.count("<details>"), m[:300]
    bare = "\n".join(outside_details(m) for m in markdown)
    for body in dropdowns:
        for line in plain_lines(body):
            assert line not in bare, f"solution text outside <details>: {line!r}"


@pytest.mark.parametrize("lang, name", EVERY)
def test_no_speaker_notes(lang, name):
    nb = learner(name, lang)
    text = "\n".join(source(c) for c in nb["cells"])
    notes = [c for c in book(name)["cells"] + book(name, lang)["cells"] if is_notes(c)]
    assert not any(is_notes(c) for c in nb["cells"])
    leaked = [line for c in notes for line in plain_lines(source(c)) if line in text]
    assert not leaked, f"speaker notes in the learner notebook: {leaked[:5]}"


@pytest.mark.parametrize("lang, name", EVERY)
def test_every_code_cell_of_the_book_is_there_in_order(lang, name):
    from attention_steps.i18n import language

    nb = learner(name, lang)
    mine = [source(c) for c in nb["cells"] if c["cell_type"] == "code"]
    assert "install" in tags(nb["cells"][0]), "the first cell is the install cell"
    with language(lang):  # the stand-ins' docstrings in the notebook's language
        theirs = [
            build_learner.GLUE_IMPORT.sub(build_learner.glue_standins, source(c))
            for c in book(name)["cells"]
            if c["cell_type"] == "code" and not build_learner.only_glue(source(c))  # those are in the text
        ]
    assert mine[first_cells(lang) :] == theirs
    # myst_nb and book/editions.py are the book's tools, not the learner's
    assert not any(re.search(r"^\s*(from|import) (myst_nb|editions)\b", s, re.M) for s in mine)


@pytest.mark.parametrize("lang, name", EVERY)
def test_hidden_code_is_collapsed_and_glue_outputs_are_gone(lang, name):
    nb = learner(name, lang)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"][first_cells(lang) :]
    for cell in code:
        hidden = tags(cell) & {"remove-cell", "hide-input"}
        assert bool(cell["metadata"].get("jupyter", {}).get("source_hidden")) == bool(hidden), source(cell)[:200]
        if "remove-cell" in tags(cell):
            assert cell["outputs"] == [], source(cell)[:200]
        assert cell["execution_count"] is None
        for out in cell["outputs"]:
            assert not out.get("metadata", {}).get("scrapbook"), "a glue record"
            assert not any(k.startswith("application/papermill") for k in out.get("data", {})), "a glue record"
            assert not (out["output_type"] == "stream" and out["name"] == "stderr")
            assert out["output_type"] != "error"
            if build_learner.WIDGET_VIEW in out.get("data", {}):  # not "<...DkExplorer object at 0x7f...>"
                shown = out["data"]["text/plain"]
                assert (shown if isinstance(shown, str) else "".join(shown)) == said(
                    build_learner.WIDGET_FALLBACK, lang
                )


def exercises_asked(cell) -> list[str]:
    """The ids of the exercises a Markdown cell asks (a line starting "**Exercise 9.1.**")."""
    return re.findall(r"^\*\*Exercise (\d+\.\d+)\.\*\*", source(cell), re.M) if cell["cell_type"] == "markdown" else []


def hidden(cell) -> bool:
    return bool(cell["metadata"].get("jupyter", {}).get("source_hidden"))


@pytest.mark.parametrize("name", NAMES)
def test_no_visible_code_cell_calls_solution(name):
    """solution(...) computes an answer for the book's text: a learner never sees a cell calling it."""
    shown = [source(c)[:120] for c in learner(name)["cells"] if c["cell_type"] == "code" and not hidden(c)]
    assert not [s for s in shown if "solution(" in s]


@pytest.mark.parametrize("name", NAMES)
def test_no_glue_only_cell_between_an_exercise_and_its_solution(name):
    """Between "**Exercise N.M.**" and the <details> of its solution, no cell only glues the answer into
    the book (glue(..., solution("9.1"))): those are gone; and no cell there calls solution(...), hidden
    or not (a hidden cell that glues the answers and also sets something up, or defines a function that
    glues them, as chapter 10's `_glue_solution_2` did, goes after the solution or with the setup before
    the exercises): between an exercise and its solution there is only the exercise's own code."""
    cells = learner(name)["cells"]
    asked = [(k, exercise) for k, c in enumerate(cells) for exercise in exercises_asked(c)]
    if name != "intro":
        assert asked, "no exercise found: the pattern no longer matches the chapters' exercises"
    for start, exercise in asked:
        end = next((k for k in range(start, len(cells)) if f"<summary>Solution {exercise}" in source(cells[k])), None)
        assert end is not None, f"exercise {exercise} has no <details> solution after it"
        between = [c for c in cells[start + 1 : end] if c["cell_type"] == "code"]
        assert between, f"exercise {exercise}: no answer cell"
        for cell in between:
            assert not build_learner.only_glue(source(cell)), (exercise, source(cell)[:200])
            assert "solution(" not in source(cell), (exercise, source(cell)[:200])
    assert not [source(c)[:120] for c in cells if c["cell_type"] == "code" and build_learner.only_glue(source(c))]


@pytest.mark.parametrize(
    "source_code, dropped",
    [
        ('glue("a", 1, display=False)\nglue("b", solution("9.1"), display=False)  # the answer', True),
        ('glue_words("w", lambda: "exactly")\nassert 1 + 1 == 2', True),
        ('glue("a", 1)', False),  # displayed: the learner sees it
        ('x = 2\nglue("a", x, display=False)', False),  # defines x, which a later cell may read
        ('from attention_steps import check\nglue("a", 1, display=False)', False),
        ("", False),
        ("def f(:", False),
    ],
)
def test_only_glue(source_code, dropped):
    assert build_learner.only_glue(source_code) is dropped


def test_install_cell_installs_this_distribution_once():
    cell = source(learner("03_scaling")["cells"][0])
    name = build_learner.pyproject()["project"]["name"]
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert re.search(r"try:\n\s+import attention_steps\nexcept ImportError:\n", cell), cell
    assert re.search(rf'PACKAGE = "{re.escape(name)} @ git\+{re.escape(url)}@[0-9a-f]{{40}}"', cell), cell
    assert "%pip" not in cell  # (its failure printed pip's error box twice and said to restart the kernel)


def test_install_cell_pins_the_commit_that_last_changed_the_package():
    import subprocess

    commit = build_learner.built_from()
    assert re.fullmatch(r"[0-9a-f]{40}", commit), commit
    # the package of that commit is the package now (the working tree aside): nothing changed it since
    changed = subprocess.run(
        ["git", "diff", "--name-only", commit, "HEAD", "--", *build_learner.PACKAGE_FILES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert changed == ""
    assert build_learner.install_spec(commit).endswith(f"@{commit}")
    assert build_learner.install_spec("") == f"{build_learner.DISTRIBUTION} @ git+{build_learner.REPOSITORY}"


def test_offline_first_cell_says_what_to_do_in_one_paragraph_and_stops(tmp_path):
    """The package missing and pip unable to fetch it (a repository nobody answers for, as offline): the cell's
    one output is a paragraph naming what failed and what to do, with no traceback and no pip output;
    the run stops there."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    cell = build_learner.install_cell(
        "attention-steps @ git+https://127.0.0.1:9/nobody/here.git", module="attention_steps_not_installed"
    )
    # ipykernel 7 sets FORCE_COLOR=1 in the kernel, so pip's stderr comes with colour codes: the reason
    # (git's "fatal: ..." line, naming 127.0.0.1) must still be found behind them.
    colour = nbformat.v4.new_code_cell("import os\nos.environ['FORCE_COLOR'] = '1'")
    nb = nbformat.v4.new_notebook(
        cells=[colour, nbformat.v4.new_code_cell(cell), nbformat.v4.new_code_cell("print('ran')")]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    with pytest.raises(CellExecutionError):
        client.execute()
    [shown] = nb.cells[1].outputs
    assert shown.output_type == "error" and shown.ename == "NotInstalled"
    [paragraph] = shown.traceback  # what Jupyter shows: this, no frames, no chained ImportError
    assert "\n" not in paragraph and "Traceback" not in paragraph
    assert "\x1b" not in paragraph, f"colour codes in the reason: {paragraph!r}"
    assert re.search(r"\((fatal|ERROR):", paragraph), f"the reason is not git's or pip's error line: {paragraph!r}"
    for words in (
        "attention_steps",
        "is not installed",
        "pip could not install it",
        "127.0.0.1",
        "pip install .",
        "`learner` branch",
        build_learner.REPOSITORY,
    ):
        assert words in paragraph, f"{words!r} not in {paragraph!r}"
    assert nb.cells[2].outputs == [], "the run went on past the failed install"


@pytest.mark.parametrize("lang, name", EVERY)
def test_links_to_other_chapters_open_their_learner_notebooks(lang, name):
    LEARNER = learner_dir(lang)
    text = "\n".join(source(c) for c in learner(name, lang)["cells"] if c["cell_type"] == "markdown")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'href="([^"]+)"', text)
    local = [t for t in targets if not t.startswith(("http://", "https://", "mailto:", "#", "data:"))]
    for target in local:
        path, _, anchor = target.partition("#")
        assert path.endswith(".ipynb") and (LEARNER / path).exists(), f"{name}: link to {target!r}"
        if anchor:  # a heading of that notebook, as JupyterLab makes its id (spaces become -)
            headings = [
                line.lstrip("#").strip()
                for c in learner(path[:-6], lang)["cells"]
                if c["cell_type"] == "markdown"
                for line in source(c).splitlines()
                if line.startswith("#")
            ]
            assert anchor in [re.sub(r"\s+", "-", h) for h in headings], f"{name}: link to {target!r}"
    within = [t for t in targets if t.startswith("#")]
    headings = [re.sub(r"\s+", "-", line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")]
    assert all(t[1:] in headings for t in within), within


# --------------------------------------------------------------------------- published with the book
@pytest.mark.parametrize("lang", LANGS)
def test_download_button_and_learner_folder_give_the_learner_edition(lang):
    """Every page's ↓ .ipynb button (its _sources/ copy) and the learner/ folder of its edition give the
    learner notebook in the page's language."""
    site = build_learner.site_dir(lang)
    if not (site / "index.html").exists():
        pytest.fail(f"the {lang} book is not built: run `bash scripts/build.sh`")
    for name in NAMES:
        mine = (learner_dir(lang) / f"{name}.ipynb").read_text()
        assert (site / "_sources" / "book" / f"{name}.ipynb").read_text() == mine, name
        assert (site / "learner" / f"{name}.ipynb").read_text() == mine, name
        page = (site / "book" / f"{name}.html").read_text()
        assert f"_sources/book/{name}.ipynb" in page, f"{lang} {name}: the page has no ↓ .ipynb button"


@pytest.mark.parametrize("lang", LANGS)
def test_launch_buttons_open_the_learner_branch(lang):
    """Colab and Binder open [zh_CN/]book/NN.ipynb on the branch _config.yml names: the tree _build/learner/ the
    Pages workflow pushes; a Chinese page's buttons open its Chinese learner notebook, which is there."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = config["repository"]["url"].removeprefix("https://github.com/")
    branch = config["repository"]["branch"]
    tree = build_learner.OUT
    where = f"{build_learner.folder(lang)}/book" if build_learner.folder(lang) else "book"
    for name in ("intro", "03_scaling", "11_long_context", "12_backward"):
        page = (build_learner.site_dir(lang) / "book" / f"{name}.html").read_text()
        assert f"https://colab.research.google.com/github/{repo}/blob/{branch}/{where}/{name}.ipynb" in page, name
        assert f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/{where}/{name}.ipynb" in page, name
        opened = tree / where / f"{name}.ipynb"
        assert opened.exists() and opened.read_text() == (learner_dir(lang) / f"{name}.ipynb").read_text()
        assert not re.search(rf"blob/{branch}/(?!{where}/)[\w/]*{name}\.ipynb", page), (
            f"{name}: a button opens another tree"
        )
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    assert "working-directory: _build/learner" in workflow and re.search(rf"git push -f \S+ {branch}\b", workflow)
    assert '":(exclude,glob)**/.inputs.json"' in workflow, "every language's build stamps stay off the branch"
    # the pushed tree: the notebooks where the buttons look, the package beside them, Binder's requirements
    assert (tree / where / "attention_steps" / "explorers" / "explorers.css").exists()
    assert (tree / where / "attention_steps" / "locale" / "zh_CN" / "checker.po").exists()
    assert not (tree / where / "attention_steps" / "locale" / "zh_CN" / "pages.po").exists(), (
        "the pages' words stay out"
    )
    assert "anywidget" in (tree / "binder" / "requirements.txt").read_text()


# --------------------------------------------------------------------------- the Chinese notebooks, and the top note
@pytest.mark.parametrize("name", NAMES)
def test_a_chinese_learner_notebook_is_chinese_and_opens_with_install_then_language(name):
    """The Chinese download: its text translated (the title as the page's catalogue says it, every prose
    cell in Chinese), the install cell first, then the collapsed language cell that runs set_language("zh_CN"),
    the words the build adds in Chinese, the saved outputs (the checker's feedback) and explorers Chinese."""
    from scripts.translate_notebook import catalogue

    nb = learner(name, "zh_CN")
    cells = nb["cells"]
    assert "install" in tags(cells[0]) and "import attention_steps" in source(cells[0])
    assert CJK.search(source(cells[0]).splitlines()[0]), "the install cell's comment is not Chinese"
    assert said(build_learner.NOT_INSTALLED, "zh_CN").split("{")[0] in source(cells[0])
    assert tags(cells[1]) == {"language"} and cells[1]["cell_type"] == "code"
    assert source(cells[1]).rstrip().endswith('set_language("zh_CN")'), source(cells[1])
    assert cells[1]["metadata"]["jupyter"]["source_hidden"] and cells[1]["outputs"] == []
    title = build_learner.title_of(json.loads((ROOT / "book" / f"{name}.ipynb").read_text()))
    heading = source(next(c for c in cells if c["cell_type"] == "markdown")).splitlines()[0]
    assert heading == "# " + catalogue("zh_CN", "book", name)[title], heading
    prose = [re.sub(r"^```.*?^```", "", source(c), flags=re.S | re.M) for c in cells if c["cell_type"] == "markdown"]
    english = [p[:120] for p in prose if not CJK.search(p) and re.search(r"[A-Za-z]{3,}(\s+[A-Za-z]{3,}){3}", p)]
    assert not english, f"prose cells with no Chinese: {english}"
    feedback = [
        "".join(o["data"]["text/html"])
        for c in cells
        if c["cell_type"] == "code"
        for o in c["outputs"]
        if "text/html" in o.get("data", {}) and "attention_steps/i18n" in o.get("metadata", {})
    ]
    assert all(CJK.search(re.sub(r"<[^>]+>", "", f)) for f in feedback), [f[:200] for f in feedback]
    assert not any(build_learner.GLUE_DOC in source(c) for c in cells)
    states = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    langs = [m["state"]["data"]["i18n"]["lang"] for m in states.values() if "i18n" in m["state"].get("data", {})]
    assert set(langs) <= {"zh_CN"}, "a saved explorer is drawn in English"


def test_the_chinese_explorers_and_checkers_are_there():
    """Chapter 3's Chinese notebook: its explorer saved in Chinese, its checker's saved feedback Chinese."""
    nb = learner("03_scaling", "zh_CN")
    states = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert [m["state"]["data"]["i18n"]["lang"] for m in states.values() if "i18n" in m["state"].get("data", {})]
    checked = [s for c in nb["cells"] if c["cell_type"] == "code" and "check(" in (s := source(c))]
    assert len(checked) >= 3


@pytest.mark.parametrize("lang, name", EVERY)
def test_the_note_on_the_texts_numbers_is_at_the_top_once(lang, name):
    """After the title cell, once: the numbers in the text are the book's; the cells compute them again."""
    cells = learner(name, lang)["cells"]
    notes = [i for i, c in enumerate(cells) if build_learner.NUMBERS_TAG in tags(c)]
    title = next(i for i, c in enumerate(cells) if c["cell_type"] == "markdown")
    assert notes == [title + 1], notes
    text = source(cells[notes[0]])
    assert text == "> " + said(build_learner.NUMBERS_NOTE, lang)
    if lang == "en":
        assert "numbers" in text and "book's" in text and "change an example" in text
    else:
        assert CJK.search(text) and "数字" in text


def test_every_word_the_build_adds_has_a_chinese_translation():
    """The messages scripts/build_learner.py marks (N_ / _) are in the production's Chinese catalogue
    (locale/zh_CN/chrome.po), with their placeholders."""
    import ast

    from scripts import chrome

    tree = ast.parse(Path(build_learner.__file__).read_text())
    marked = {
        n.args[0].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in ("_", "N_")
        and n.args
        and isinstance(n.args[0], ast.Constant)
    }
    assert {build_learner.NOT_INSTALLED, build_learner.WIDGET_FALLBACK, build_learner.NUMBERS_NOTE} <= marked
    catalogue = chrome.read_po(chrome.catalogue_path("zh_CN"))
    missing = [m for m in marked if not catalogue.get(m, ("", True))[0] or catalogue[m][1]]
    assert not missing, f"add these to locale/zh_CN/chrome.po: {missing}"
    for m in marked:
        assert sorted(re.findall(r"\{\w+\}", m)) == sorted(re.findall(r"\{\w+\}", catalogue[m][0])), m


def test_the_chinese_install_cells_message_is_one_paragraph_that_python_joins_exactly():
    """Chinese has no spaces to wrap at: the literals are cut between characters and join back without a
    space added; `{reason}` stays whole inside one f-string."""
    from attention_steps.i18n import language

    with language("zh_CN"):
        cell = build_learner.install_cell("attention-steps @ git+https://example.invalid/x.git")
    compile(cell, "<install cell>", "exec")
    literals = re.search(r"raise NotInstalled\(\n(.*?)\n\s*\) from None", cell, re.S).group(1)
    reason = "REASON"
    joined = eval("(" + literals + ")", {"reason": reason})  # noqa: S307  (the cell's own literals)
    wanted = said(build_learner.NOT_INSTALLED, "zh_CN").replace("{repository}", build_learner.REPOSITORY)
    assert joined == wanted.replace("{reason}", reason)
    assert all(len(line) <= 110 for line in literals.splitlines()), max(literals.splitlines(), key=len)


def test_a_message_with_no_translation_stops_the_chinese_build_naming_it():
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("A sentence no catalogue translates, anywhere.")]
    )
    with pytest.raises(build_learner.Untranslated, match=r"build_learner: 04_softmax has 1 messages with no zh_CN"):
        build_learner.in_language(nb, "zh_CN", "04_softmax")


# --------------------------------------------------------------------------- the conversion, on a notebook made here
def small_book_notebook():
    nb = nbformat.v4.new_notebook()
    glue_cell = nbformat.v4.new_code_cell(
        'from editions import glue\nglue("n", 42, display=False)', metadata={"tags": ["remove-cell"]}
    )
    glue_cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/text/plain": "42"},
            metadata={"scrapbook": {"name": "n", "mime_prefix": "application/papermill.record/"}},
        )
    ]
    math_cell = nbformat.v4.new_code_cell('glue("eq", Math("x^2"), display=False)', metadata={"tags": ["remove-cell"]})
    math_cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={
                "application/papermill.record/text/latex": "$\\displaystyle x^2$",
                "application/papermill.record/text/plain": "<Math>",
            },
            metadata={"scrapbook": {"name": "eq", "mime_prefix": "application/papermill.record/"}},
        )
    ]
    figure = nbformat.v4.new_code_cell("plot()", metadata={"tags": ["hide-input"]})
    figure.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="a warning"),
        nbformat.v4.new_output("display_data", data={"text/plain": "figure"}),
    ]
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "(sec-x)=\n# Title\n\nThere are {glue:text}`n:.1f` tokens, see {doc}`02_scores`.\n"
        ),
        glue_cell,
        math_cell,
        nbformat.v4.new_markdown_cell("```{glue:math} eq\n```\n\n:::{dropdown} Solution\nThe answer is secret.\n:::\n"),
        nbformat.v4.new_markdown_cell(
            "- say this aloud", metadata={"slideshow": {"slide_type": "notes"}, "tags": ["remove-cell"]}
        ),
        nbformat.v4.new_markdown_cell(
            "## On a slide\n\n- one short line",
            metadata={"slideshow": {"slide_type": "slide"}, "tags": ["remove-cell", "slide-only"]},
        ),
        figure,
    ]
    return nb


def test_conversion_of_a_small_notebook():
    out = build_learner.learner_edition(small_book_notebook(), "small")
    md = [source(c) for c in out.cells if c.cell_type == "markdown"]
    code = [c for c in out.cells if c.cell_type == "code"]
    # a {doc} link shows the other chapter's title, as the book does, and opens its learner notebook
    assert md[0] == "# Title\n\nThere are 42.0 tokens, see [2 Scores: QKᵀ](02_scores.ipynb)."
    assert md[1] == "> " + build_learner.NUMBERS_NOTE, "the note on the text's numbers, after the title cell"
    assert md[2].startswith("$$\n\\displaystyle x^2\n$$")
    assert "<details>\n<summary>Solution</summary>\n\nThe answer is secret.\n\n</details>" in md[2]
    assert len(md) == 3, "the notes cell and the deck's slide-only text are gone"
    assert "install" in code[0].metadata["tags"] and '"-m", "pip", "install", "-q", PACKAGE' in code[0].source
    assert code[1].outputs == [] and code[1].metadata["jupyter"]["source_hidden"]
    assert "from editions" not in code[1].source and "def glue(" in code[1].source
    assert len(code) == 3, "the cell that only glued the equation is left out: the text shows it"
    assert [o.output_type for o in code[2].outputs] == ["display_data"], "stderr dropped, the figure kept"
    nbformat.validate(out)


def test_glue_stand_ins_run_without_the_books_tools():
    """The cells that glued in the book run where neither myst_nb nor book/editions.py is (Colab, a fresh venv)."""
    shown = []
    code = build_learner.GLUE_IMPORT.sub(
        build_learner.glue_standins,
        "from editions import glue, glue_words\nglue('n', 42, display=False)\nglue_words('w', lambda: 'exactly')\n",
    )
    assert "import" not in code.splitlines()[0], code
    namespace = {}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102
    assert {"glue", "glue_words"} <= set(namespace)
    import IPython.display

    original = IPython.display.display
    IPython.display.display = lambda value: shown.append(value)
    try:
        namespace["glue"]("n", 7)  # display=True shows the value, as myst_nb's glue does
        namespace["glue_words"]("w", lambda: "exactly")  # the text already says it: nothing shown
    finally:
        IPython.display.display = original
    assert shown == [7]
    with pytest.raises(ValueError, match=r"no stand-in for \['figure_bundle'\]"):
        build_learner.GLUE_IMPORT.sub(build_learner.glue_standins, "from editions import figure_bundle")


def test_rebuild_with_nothing_changed_rebuilds_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_learner, "OUT", tmp_path / "learner")
    monkeypatch.setattr(build_learner, "SITE", tmp_path / "no-site")
    monkeypatch.setattr(build_learner, "notebooks", lambda: [ROOT / "book" / "01_projection.ipynb"])
    build_learner.main([])
    assert "1 notebooks rebuilt" in capsys.readouterr().out
    build_learner.main([])
    assert "0 notebooks rebuilt, 1 unchanged" in capsys.readouterr().out
    assert Path(tmp_path / "learner" / "book" / "01_projection.ipynb").exists()


# --------------------------------------------------------------------------- the learner notebook against its page
def _commonmark(markdown: str):
    """Tokens of a CommonMark renderer with tables (as Jupyter renders Markdown)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(markdown)


def _ordered_lists(tokens) -> list[tuple[int, int]]:
    """Each numbered list as (its first number, its number of items)."""
    found = []
    for i, token in enumerate(tokens):
        if token.type == "ordered_list_open":
            items, depth = 0, token.level + 1
            for inner in tokens[i + 1 :]:
                if inner.type == "ordered_list_close" and inner.level == token.level:
                    break
                items += inner.type == "list_item_open" and inner.level == depth
            found.append((int(token.attrGet("start") or 1), items))
    return found


def _plain(text: str) -> str:
    """Text with Sphinx's curly quotes straight and whitespace runs as one space."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


CONTEXT = 10  # characters of the page's text either side of a glued value, looked for with it
BLOCKS = ["p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "summary", "figcaption"]


def glued_in_context(path: Path) -> list[str]:
    """Each `{glue:text}` value of a built page with up to CONTEXT characters of its paragraph either side
    (the maths, MathJax's on the page and TeX in a notebook, cut the context short)."""
    from bs4 import BeautifulSoup, NavigableString

    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    for maths in soup.select("span.math, div.math"):
        maths.replace_with("$")
    markers = []
    for i, span in enumerate(soup.select("span.pasted-text")):
        marker = NavigableString(f"\x01{i}\x02{span.get_text()}\x03")
        span.replace_with(marker)
        markers.append(marker)

    def shown(text: str) -> str:  # the other values in the text: as the page shows them
        return re.sub("\x01\\d+\x02([^\x03]*)\x03", r"\1", text)

    found = []
    for marker in markers:
        before, _, after = (marker.find_parent(BLOCKS) or marker.parent).get_text().partition(marker)
        before, after = shown(before)[-CONTEXT:].split("$")[-1], shown(after)[:CONTEXT].split("$")[0]
        found.append(_plain(before + shown(marker) + after))
    return found


def built_pair(name: str):
    """(the built page, the learner notebook's Markdown cells); skips when either is not built."""
    from reader import page

    path = LEARNER / f"{name}.ipynb"
    if not path.exists():
        pytest.skip(f"{path} is not built")
    shown = page(name)  # (skips when the page is not built)
    return shown, [source(c) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("name", NAMES)
def test_every_glued_value_of_the_page_is_in_the_learner_notebooks_rendered_text(name):
    """Rendered by CommonMark, the learner notebook shows each of the page's glued values with its
    neighbours on the page ("key of "love" 1. "love"": a value turned into a list marker is not there),
    and each of its glued equations."""
    from bs4 import BeautifulSoup
    from markdown_it import MarkdownIt

    shown, cells = built_pair(name)
    render = MarkdownIt("commonmark").enable("table")
    text = _plain(" ".join(BeautifulSoup(render.render(cell), "html.parser").get_text() for cell in cells))
    for around in glued_in_context(HTML / "book" / f"{name}.html"):
        assert around in text, f"{name}: the page shows {around!r}; the learner notebook does not"
    maths = {re.sub(r"\s+", "", block) for cell in cells for block in display_math(cell)}
    for tex in shown.maths:
        tex = re.sub(r"\s+|\\\[|\\\]|\\begin\{split\}|\\end\{split\}", "", tex)
        assert any(tex in block for block in maths), (
            f"{name}: the page's glued maths {tex[:80]!r}... is not in the notebook"
        )


def assert_no_numbered_list_the_page_has_not(name: str, shown, cells: list[str]) -> None:
    """Every numbered list the notebook's Markdown renders to (CommonMark) is one of the page's, once each."""
    article = shown.tag.select_one("article") or shown.tag
    page_lists = [(int(ol.get("start", 1)), len(ol.find_all("li", recursive=False))) for ol in article.select("ol")]
    for i, cell in enumerate(cells):
        for found in _ordered_lists(_commonmark(cell)):
            assert found in page_lists, f"{name}, Markdown cell {i}: a numbered list {found} the page has not:\n{cell}"
            page_lists.remove(found)


@pytest.mark.parametrize("name", NAMES)
def test_no_rendered_learner_notebook_has_a_numbered_list_its_page_has_not(name):
    shown, cells = built_pair(name)
    assert_no_numbered_list_the_page_has_not(name, shown, cells)


def chinese_pair(name: str):
    """(the built Chinese page as a reader Part, the Chinese learner notebook's Markdown cells)."""
    from bs4 import BeautifulSoup

    from reader import Part

    page, path = build_learner.site_dir("zh_CN") / "book" / f"{name}.html", learner_dir("zh_CN") / f"{name}.ipynb"
    if not page.exists() or not path.exists():
        pytest.fail(f"{page} or {path} is not built: run `bash scripts/build.sh`")
    cells = [source(c) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]
    return Part(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")), page, cells


@pytest.mark.parametrize("name", NAMES)
def test_every_glued_value_of_the_chinese_page_is_in_its_learner_notebooks_rendered_text(name):
    """As for English: the Chinese notebook, rendered by CommonMark, shows each glued value (the Chinese
    glued words among them) with its neighbours on the Chinese page, and each glued equation."""
    from bs4 import BeautifulSoup
    from markdown_it import MarkdownIt

    shown, path, cells = chinese_pair(name)
    render = MarkdownIt("commonmark").enable("table")
    text = _plain(" ".join(BeautifulSoup(render.render(cell), "html.parser").get_text() for cell in cells))
    for around in glued_in_context(path):
        assert around in text, f"{name}: the Chinese page shows {around!r}; its learner notebook does not"
    maths = {re.sub(r"\s+", "", block) for cell in cells for block in display_math(cell)}
    for tex in shown.maths:
        tex = re.sub(r"\s+|\\\[|\\\]|\\begin\{split\}|\\end\{split\}", "", tex)
        assert any(tex in block for block in maths), f"{name}: the glued maths {tex[:80]!r}... is not in the notebook"


@pytest.mark.parametrize("name", NAMES)
def test_no_chinese_learner_notebook_has_a_numbered_list_its_page_has_not(name):
    shown, _, cells = chinese_pair(name)
    assert_no_numbered_list_the_page_has_not(name, shown, cells)


# --------------------------------------------------------------------------- a learner changes the example
BOOK_SENTENCE_CELL = "tokens = tokenize(SENTENCE)"  # chapter 8's first code cell after the imports


def run_chapter_8_with(sentence: str, tmp_path: Path):
    """Chapter 8's learner notebook, its sentence cell changed to `sentence`, run in a fresh kernel in a
    folder holding the built package beside it (as the learner branch has): (notebook, the changed
    cell's index, the error nbclient raised or None)."""
    import shutil

    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(LEARNER / "08_whole_layer.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []  # the book's, saved in the notebook: only what this run makes is left
    [changed] = [k for k, c in enumerate(nb.cells) if c.cell_type == "code" and BOOK_SENTENCE_CELL in c.source]
    nb.cells[changed].source = nb.cells[changed].source.replace(BOOK_SENTENCE_CELL, f"tokens = tokenize({sentence!r})")
    shutil.copytree(LEARNER / "attention_steps", tmp_path / "attention_steps")
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as error:
        return nb, changed, error
    return nb, changed, None


def raised(nb) -> list[tuple[int, str, str]]:
    return [
        (k, o.ename, o.evalue) for k, c in enumerate(nb.cells) for o in c.get("outputs", []) if o.output_type == "error"
    ]


def test_chapter_8_runs_green_with_the_reviews_sentence(tmp_path):
    """ "The dog didn't cross the road because it was too tired." once stopped a hidden cell with
    `'animal' is not in list`. Its words are known now and the hidden cells follow "it" to the
    sentence's own animate noun and place: every cell runs."""
    nb, changed, error = run_chapter_8_with("The dog didn't cross the road because it was too tired.", tmp_path)
    assert error is None and not raised(nb), raised(nb)
    assert "'dog'" in "".join(o.get("text", "") for o in nb.cells[changed].outputs)


@pytest.mark.parametrize(
    "sentence, at, words",
    [
        # an unknown word: the cell the learner changed says which, and the words the layer knows
        ("The zebra didn't cross the road because it was too tired.", 0, ["'zebra'", "the words it knows", "road"]),
        # known words, but no pronoun for head 1 to follow: the hidden cell just after says what is missing
        ("the dog was tired", 1, ["no pronoun", "no place", "'street', 'road'", "needs all three"]),
    ],
)
def test_chapter_8_with_an_unsupported_sentence_stops_once_with_a_clear_message(tmp_path, sentence, at, words):
    """The run stops at the first cell the change reaches (the changed cell, or the hidden cell right
    after it), with one ValueError naming what is unsupported; no cell after it runs (no NameErrors)."""
    nb, changed, error = run_chapter_8_with(sentence, tmp_path)
    assert error is not None
    code = [k for k, c in enumerate(nb.cells) if c.cell_type == "code"]
    stop = code[code.index(changed) + at]
    [(k, ename, evalue)] = raised(nb)
    assert (k, ename) == (stop, "ValueError"), raised(nb)
    for w in words:
        assert w in evalue, f"{w!r} not in {evalue!r}"
    assert all(not nb.cells[j].get("outputs") for j in code if j > stop), "cells after the error ran"
