"""The incremental build: which notebooks re-run when the core changes, when Sphinx can be
skipped, and which slide decks and handouts are rebuilt (scripts/notebook_deps.py,
scripts/book_fingerprint.py, scripts/build_slides.py, scripts/build_handouts.py)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import BOOK
from scripts import book_fingerprint, build_handouts, build_paths, build_slides, notebook_deps

pytestmark = pytest.mark.build  # the tier (tests/conftest.py)


# --------------------------------------------------------------------------- a small repository
def notebook(path: Path, *sources: str, markdown: str = "# A chapter") -> Path:
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell(markdown)] + [nbformat.v4.new_code_cell(s) for s in sources]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


PACKAGE = {
    "__init__.py": "from .core import attend\n",
    "core.py": "from ._validate import check\n\ndef attend():\n    return 1\n",
    "_validate.py": "def check():\n    pass\n",
    "figures.py": "from . import core\nX = 1\n",
    "mixing.py": "def g():\n    from attention_steps.figures import X  # imported inside a function\n    return X\n",
    "lonely.py": "Y = 2\n",
    "exercises/__init__.py": (
        "import importlib\nimport pkgutil\n\nfor m in pkgutil.iter_modules(__path__):\n"
        "    importlib.import_module(f'{__name__}.{m.name}')\n"
    ),
    "exercises/ch01.py": "from ..mixing import g\n",
    "explorers/__init__.py": "from .widgets import W\n",
    "explorers/widgets.py": "W = 3\n",
    "explorers/js/dk.js": "// the front end\n",
    "explorers/style.css": "/* its style */\n",
    "README.md": "# the package's description, which no code reads\n",
}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository with a package like the book's and three notebooks; notebook_deps pointed at it."""
    for name, text in PACKAGE.items():
        path = tmp_path / "book" / "attention_steps" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    notebook(tmp_path / "book" / "a.ipynb", "%matplotlib inline\nfrom attention_steps import attend\nattend()")
    notebook(tmp_path / "book" / "b.ipynb", "!echo shell line\nfrom attention_steps.explorers import W")
    notebook(
        tmp_path / "book" / "c.ipynb",
        "from attention_steps import lonely",
        "from attention_steps.exercises import ch01",
    )
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/a\nchapters:\n- file: book/b\n- file: book/c\n")
    build = tmp_path / "_build"
    for name, value in [
        ("ROOT", tmp_path),
        ("BOOK", tmp_path / "book"),
        ("BUILD", build),
        ("CACHE", build / ".jupyter_cache"),
        ("STATE", build / ".notebook-deps.json"),
        ("LEGACY", build / ".core.sha256"),
    ]:
        monkeypatch.setattr(notebook_deps, name, value)
    return tmp_path


def deps(repo) -> dict[str, set[str]]:
    return {
        Path(nb).stem: {f.relative_to(repo / "book" / "attention_steps").as_posix() for f in files}
        for nb, files in notebook_deps.dependencies().items()
    }


def test_a_notebook_depends_on_what_it_imports_and_what_that_imports(repo):
    d = deps(repo)
    assert d["a"] == {"__init__.py", "core.py", "_validate.py"}  # `from attention_steps import` runs __init__
    assert d["b"] == d["a"] | {
        "explorers/__init__.py",
        "explorers/widgets.py",
        "explorers/js/dk.js",
        "explorers/style.css",
    }
    # lonely.py; the exercises package imports every module in it (pkgutil), ch01 imports ..mixing,
    # which imports figures inside a function, which imports core.
    assert d["c"] == d["a"] | {"lonely.py", "exercises/__init__.py", "exercises/ch01.py", "mixing.py", "figures.py"}


def test_an_exercise_call_depends_on_its_chapters_module_and_catalogue(repo):
    """check("N.k") / solution("N.k") load exercises/chNN.py on demand: the notebook depends on that
    module (an id that is not a literal, or registry(), on every chapter's) and on its catalogues
    (locale/<lang>/exercises/chNN.po); a catalogue of no module is every importer's."""
    pkg = repo / "book" / "attention_steps"
    (pkg / "exercises" / "ch02.py").write_text("X = 2\n")
    (pkg / "exercises" / "checking.py").write_text("Y = 1\n")
    for name in ("zh_CN/exercises/ch02.po", "zh_CN/exercises/ch03.po", "zh_CN/checker.po"):
        (pkg / "locale" / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / "locale" / name).write_text('msgid ""\nmsgstr ""\n')
    book = repo / "book"
    notebook(book / "d.ipynb", "from attention_steps.exercises import check as c, solution", "c('2.1', 0)")
    notebook(book / "e.ipynb", "from attention_steps.exercises import check\nfor i in ['1.1']:\n    check(i, 0)")
    notebook(book / "f.ipynb", "import attention_steps.exercises as ex\nex.solution(' 2.3 ')")
    (repo / "_toc.yml").write_text(
        "format: jb-book\nroot: book/a\nchapters:\n- file: book/d\n- file: book/e\n- file: book/f\n"
    )
    d = deps(repo)
    # a catalogue that is no module's (ch03.po: there is no exercises/ch03.py) is every importer's
    shared = {"locale/zh_CN/checker.po", "locale/zh_CN/exercises/ch03.po"}
    common = {"__init__.py", "core.py", "_validate.py", "exercises/__init__.py"} | shared
    assert d["d"] == common | {"exercises/ch02.py", "locale/zh_CN/exercises/ch02.po"}
    assert d["f"] == d["d"]
    # `check(i, ...)`: every chapter's module (ch01 imports mixing, which imports figures)
    assert d["e"] == d["d"] | {"exercises/ch01.py", "mixing.py", "figures.py"}
    assert d["a"] == {"__init__.py", "core.py", "_validate.py"} | shared  # not ch02.po


def cached(repo) -> dict[str, bool]:
    from jupyter_cache import get_cache

    cache = get_cache(repo / "_build" / ".jupyter_cache")
    found = {}
    for stem in "abc":
        try:
            cache.match_cache_notebook(nbformat.read(repo / "book" / f"{stem}.ipynb", as_version=4))
            found[stem] = True
        except KeyError:
            found[stem] = False
    return found


@pytest.fixture
def built(repo):
    """The three notebooks in the execution cache and recorded, as after a successful build."""
    from jupyter_cache import get_cache

    cache = get_cache(repo / "_build" / ".jupyter_cache")
    for stem in "abc":
        cache.cache_notebook_file(str(repo / "book" / f"{stem}.ipynb"), check_validity=False)
        os.utime(repo / "book" / f"{stem}.ipynb", (1_000_000, 1_000_000))  # long ago
    notebook_deps.record()
    assert cached(repo) == {"a": True, "b": True, "c": True}
    return repo


@pytest.mark.parametrize(
    "edit, runs_again",
    [
        (None, []),
        ("lonely.py", ["c"]),
        ("explorers/js/dk.js", ["b"]),
        ("mixing.py", ["c"]),
        ("core.py", ["a", "b", "c"]),
    ],
)
def test_only_notebooks_that_import_a_changed_module_run_again(built, edit, runs_again):
    if edit:
        with open(built / "book" / "attention_steps" / edit, "a") as f:
            f.write("\n# edited\n")
    again = notebook_deps.invalidate()
    assert [Path(nb).stem for nb in again] == runs_again
    assert cached(built) == {stem: stem not in runs_again for stem in "abc"}  # their cached runs are gone
    for stem in "abc":  # and Sphinx will read them again (newer than its last read)
        assert (os.path.getmtime(built / "book" / f"{stem}.ipynb") > 1_000_000) == (stem in runs_again)
    notebook_deps.record()
    assert notebook_deps.invalidate() == [], "after a successful build nothing is stale"


def test_a_cache_from_before_the_record_is_not_trusted(repo):
    from jupyter_cache import get_cache

    get_cache(repo / "_build" / ".jupyter_cache").cache_notebook_file(
        str(repo / "book" / "b.ipynb"), check_validity=False
    )
    assert notebook_deps.invalidate() == ["book/b.ipynb"]  # no record of what it ran with: run it again
    assert cached(repo)["b"] is False


# --------------------------------------------------------------------------- the real book
CODE_NOTEBOOKS = notebook_deps.notebooks()


@pytest.mark.parametrize("path", CODE_NOTEBOOKS, ids=lambda p: p.stem)
def test_the_static_dependencies_cover_every_module_the_notebook_loads(path):
    """Run the notebook's import statements and look up its exercises, and list the package's modules
    Python loaded: each must be among the files notebook_deps says the notebook depends on."""
    imports = []
    for source in notebook_deps.code_of(path):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        imports += [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    # and what check("N.k") / solution("N.k") load when the notebook asks for its exercises
    ids = re.findall(r"""\b(?:check|solution)\(\s*["']([^"']+)["']""", "\n".join(notebook_deps.code_of(path)))
    imports += [f"from attention_steps.exercises import _exercise\n_exercise({i!r})" for i in ids]
    program = (
        "\n".join(imports)
        + "\nimport sys\nprint('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] == 'attention_steps')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=BOOK,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(done.stdout.split())
    package = notebook_deps.Package()
    static = package.closure(notebook_deps.notebook_modules(path, package))
    assert loaded and loaded <= static, f"{path.name} loads {sorted(loaded - static)}, which notebook_deps misses"


# --------------------------------------------------------------------------- the table of contents
def test_the_toc_lists_the_root_then_every_file_in_order(tmp_path):
    """build_paths.toc_pages reads _toc.yml as YAML: quoted paths, flow mappings and nested sections
    are pages like any other (a line-by-line pattern read the first with its quotes, missed the second)."""
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "format: jb-book\nroot: book/intro  # the front page\nparts:\n"
        '  - caption: "Part: one"\n    chapters:\n      - file: "book/01_a"\n        sections:\n'
        "          - file: book/01_a_more\n      - {file: book/02_b, title: B}\n"
        "  - caption: Two\n    chapters:\n      - file: book/03_c\n"
    )
    assert build_paths.toc_pages(toc) == ["book/intro", "book/01_a", "book/01_a_more", "book/02_b", "book/03_c"]
    assert build_paths.toc_pages(build_paths.ROOT / "_toc.yml")[0] == "book/intro"


def test_each_chapter_depends_on_its_own_exercise_module_only():
    """A change to one chapter's exercises (or their Chinese messages) re-runs that chapter's notebook:
    NN_*.ipynb depends on exercises/chNN.py and no other chapter's (the introduction shows 1.1)."""
    for nb, files in notebook_deps.dependencies().items():
        stem = Path(nb).stem
        chapters = {f.name for f in files if f.parent.name == "exercises" and re.fullmatch(r"ch\d+\.py", f.name)}
        own = "ch01.py" if stem == "intro" else f"ch{stem[:2]}.py"
        assert chapters == {own}, f"{stem} depends on {sorted(chapters)}"


def test_the_deps_tool_and_the_loader_agree_on_where_an_exercise_lives():
    from attention_steps.exercises import module_of, registry

    assert {i: notebook_deps.exercise_module(i) for i in registry()} == {i: module_of(i) for i in registry()}


# --------------------------------------------------------------------------- skipping Sphinx
@pytest.fixture
def book_repo(tmp_path, monkeypatch):
    for name, text in [
        ("_config.yml", "title: x\n"),
        ("_toc.yml", "format: jb-book\nroot: book/intro\n"),
        ("scripts/build.sh", "echo\n"),
        ("book/intro.ipynb", "{}"),
        ("book/attention_steps/core.py", "X = 1\n"),
        ("_build/vendor/book/mathjax.js", "//\n"),
        ("_build/html/index.html", "<html>"),
        ("_build/html/book/intro.html", "<html>"),
    ]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(book_fingerprint, "ROOT", tmp_path)
    monkeypatch.setattr(book_fingerprint, "BUILD", tmp_path / "_build")
    return tmp_path


@pytest.mark.parametrize(
    "change",
    [
        lambda r: (r / "book" / "intro.ipynb").write_text('{"changed": 1}'),
        lambda r: (r / "book" / "attention_steps" / "core.py").write_text("X = 2\n"),
        lambda r: (r / "book" / "_ext").mkdir() or (r / "book" / "_ext" / "new.py").write_text(""),
        lambda r: (r / "_config.yml").write_text("title: y\n"),
        lambda r: (r / "_build" / "vendor" / "book" / "mathjax.js").write_text("// a newer one\n"),
        lambda r: (r / "_build" / "html" / "book" / "intro.html").unlink(),
    ],
    ids=["notebook", "core module", "new extension", "config", "vendored asset", "built page deleted"],
)
def test_sphinx_is_skipped_only_when_nothing_it_reads_changed(book_repo, change):
    first = book_fingerprint.fingerprint()
    assert book_fingerprint.fingerprint() == first
    change(book_repo)
    assert book_fingerprint.fingerprint() != first


# --------------------------------------------------------------------------- decks and handouts
def test_sync_copies_what_differs_and_removes_the_rest(tmp_path):
    src, dest = tmp_path / "src", tmp_path / "dest"
    (src / "d").mkdir(parents=True)
    (src / "a.txt").write_text("a")
    (src / "d" / "b.txt").write_text("b")
    (dest / "old").mkdir(parents=True)
    (dest / "old" / "gone.txt").write_text("stale")
    (dest / "kept.txt").write_text("mine")
    pairs = [(src / "a.txt", dest / "a.txt"), (src / "d", dest / "d")]
    assert build_slides.sync(pairs, dest, keep=(dest / "kept.txt",)) == 2
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*")) == ["a.txt", "d", "d/b.txt", "kept.txt"]
    assert build_slides.sync(pairs, dest, keep=(dest / "kept.txt",)) == 0  # nothing changed: nothing copied
    (src / "a.txt").write_text("a, longer")
    assert build_slides.sync(pairs, dest, keep=(dest / "kept.txt",)) == 1


@pytest.fixture
def slides_repo(tmp_path, monkeypatch):
    """build_slides.main on two small chapters, with the book's cache and nbconvert replaced by stand-ins."""
    book = tmp_path / "book"
    paths = [
        notebook(book / "01_a.ipynb", "1 + 1", markdown="# Chapter A"),
        notebook(book / "02_b.ipynb", "2 + 2", markdown="# Chapter B"),
    ]
    records = {p.stem: "run-1" for p in paths}  # what the book's cache holds for each notebook
    built = []
    monkeypatch.setattr(build_slides, "OUT", tmp_path / "slides")
    monkeypatch.setattr(build_slides, "SITE", tmp_path / "html")  # not built: nothing published
    monkeypatch.setattr(build_slides, "chapters", lambda: paths)
    monkeypatch.setattr(build_slides, "copy_vendor", lambda dest: None)
    monkeypatch.setattr(build_slides, "cache_record", lambda path: records[path.stem])
    monkeypatch.setattr(build_slides, "cache_fingerprint", lambda: json.dumps(records, sort_keys=True))
    monkeypatch.setattr(build_slides, "executed", lambda path: (nbformat.read(path, as_version=4), "test"))
    monkeypatch.setattr(build_slides, "exporter", lambda lang="en": None)

    def export(exp, nb, title, lang="en"):
        built.append(title)
        return f"<title>{title}</title>"

    monkeypatch.setattr(build_slides, "export", export)

    def lesson(exp, out, lang):  # the 90-minute lesson: lesson/lesson.md, not a chapter notebook
        lessons.append(lang)
        (out / f"{build_slides.lesson.NAME}.html").write_text("<title>lesson</title>")

    lessons = []
    monkeypatch.setattr(build_slides.lesson, "build", lesson)
    return paths, records, built, lessons


def test_a_deck_is_rebuilt_only_when_its_notebook_or_its_execution_changed(slides_repo):
    paths, records, built, lessons = slides_repo
    course = title = "Attention, Step by Step: the whole course"  # the course deck and its title-page deck
    build_slides.main([])
    assert built == ["Chapter A", "Chapter B", title, course]  # the course's title page deck, then the course
    built.clear()
    assert lessons == ["en"]
    build_slides.main([])
    assert built == [] and lessons == ["en"], "nothing changed: nothing rebuilt"
    text = paths[1].read_text().replace("2 + 2", "2 + 3")  # an edited notebook
    paths[1].write_text(text)
    build_slides.main([])
    assert built == ["Chapter B", course]
    built.clear()
    records["01_a"] = "run-2"  # chapter A ran again (its core module changed)
    lessons.clear()
    build_slides.main([])
    assert built == ["Chapter A", course] and lessons == ["en"]  # the lesson's figures come from the executions
    built.clear()
    paths[0].write_text(paths[0].read_text().replace("# Chapter A", "# Chapter A, retitled"))
    build_slides.main([])
    assert built == ["Chapter A, retitled", title, course]  # a new title: the course's title page too
    built.clear()
    build_slides.main(["--force"])
    assert len(built) == 4


@pytest.fixture
def handouts(tmp_path, monkeypatch):
    """build_handouts.main on two decks and the course, printing blank pages instead of a browser."""
    from pypdf import PdfWriter

    out = tmp_path / "slides"
    out.mkdir()
    decks = [["01_a", "Chapter A"], ["02_b", "Chapter B"], ["course", "The whole course"]]
    (out / "decks.json").write_text(json.dumps(decks))
    stamps = {
        "01_a": {"inputs": "a1"},
        "02_b": {"inputs": "b1"},
        "course": {"inputs": "c1"},
        "course-title": {"inputs": "t1"},
    }
    build_slides.write_stamps(out, stamps)
    printed = []

    def print_decks(targets, out=out, printed_one=lambda name: None, lang="en"):
        for name, target in targets.items():
            writer = PdfWriter()
            writer.add_blank_page(width=1280, height=720)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                writer.write(f)
            printed.append(name)
            printed_one(name)

    monkeypatch.setattr(build_handouts, "OUT", out)
    monkeypatch.setattr(build_handouts, "SITE", tmp_path / "html")
    monkeypatch.setattr(build_handouts, "print_decks", print_decks)
    # the paper handouts (three slides a page) are laid out by a browser too: not here (tests/test_sheets.py)
    monkeypatch.setattr(build_handouts, "print_papers", lambda handouts, lang="en": None)
    return out, stamps, printed


def test_a_handout_is_printed_only_when_its_deck_changed_and_the_course_is_joined(handouts):
    out, stamps, printed = handouts
    build_handouts.main([])
    assert printed == ["01_a", "02_b", "course-title"]
    course = out / "pdf" / "course.pdf"
    assert build_handouts.pdf_pages(course) == 3  # title page, chapter A, chapter B
    first = course.stat().st_mtime_ns
    printed.clear()
    build_handouts.main([])
    assert printed == [] and course.stat().st_mtime_ns == first, "nothing changed: nothing printed or joined"
    stamps["02_b"] = {"inputs": "b2"}  # deck B was rebuilt from other inputs
    build_slides.write_stamps(out, stamps)
    build_handouts.main([])
    assert printed == ["02_b"] and course.stat().st_mtime_ns != first
    printed.clear()
    (out / "pdf" / "01_a.pdf").unlink()  # a missing handout is printed whatever the stamps say
    build_handouts.main(["01_a"])
    assert printed == ["01_a"]


def test_the_real_handouts_and_decks_are_stamped():
    """After build.sh: every deck has its input hash and every handout what it was printed from."""
    from scripts.build_paths import SLIDES as slides

    if not (slides / "decks.json").exists():
        pytest.skip("no slides built")
    decks = [stem for stem, _ in json.loads((slides / "decks.json").read_text())]
    deck_stamps, pdf_stamps = build_slides.read_stamps(slides), build_slides.read_stamps(slides / "pdf")
    assert all("inputs" in deck_stamps.get(d, {}) for d in decks), deck_stamps.keys()
    assert set(decks) <= set(pdf_stamps), pdf_stamps.keys()
