"""Which notebooks must run again because the core package changed, and make them.

    .venv/bin/python -m scripts.notebook_deps            # before the book build: invalidate what changed
    .venv/bin/python -m scripts.notebook_deps --record   # after a successful build: remember the state
    .venv/bin/python -m scripts.notebook_deps --list     # each notebook's modules and data files

The book's execution cache (jupyter-cache, used by myst-nb) matches a notebook
by its code cells only: it cannot see that `attention_steps/figures/plotting.py` changed
under a notebook that imports it, and Sphinx re-reads a page only when its
own file changed. So before each build this script works out, for every
notebook of the book, the files of the `attention_steps` package it runs (and the modules
beside the notebooks that it imports, such as the book's production, book/editions.py, with what
they import of the package):

- the modules its code cells import (`import attention_steps.x`, `from attention_steps
  import x`, `from attention_steps.x import y`), with their parent packages (Python
  runs `attention_steps/__init__.py` for any of them);
- the chapter's exercise module for each exercise the code asks for:
  `attention_steps.exercises` imports `exercises/chNN.py` only when `check("N.k", ...)`
  or `solution("N.k")` asks for one of its exercises, so a literal id "N.k" adds
  that module (an id that is not a literal, or `registry()`, adds them all);
- then, transitively, every module those import inside the package (relative
  and absolute imports, also inside functions); a module that imports
  dynamically (importlib, pkgutil, `__import__`) is taken to import every module
  of its own package, except the exercises' loader above;
- and the non-Python files (the explorers' .js and .css) of every package in
  that set, but for Markdown (the package's README, which no code reads) and a module's own
  catalogues: `locale/<lang>/<path>.po` whose path names a module (`locale/zh_CN/exercises/ch09.po`
  holds the messages only `exercises/ch09.py` marks) belongs to that module, not to every notebook
  that imports the package.

It hashes those files per notebook and compares with the hashes recorded after
the last successful build (`_build/.notebook-deps.json`). For each notebook
whose hash changed it removes the notebook's cached execution from the
jupyter-cache and sets the notebook file's modification time to now, so Sphinx
re-reads it and myst-nb executes it again. Notebooks whose files did not change
keep their cached outputs. A notebook never recorded that has a cached
execution (a cache from before this script) runs again, unless the whole-package
hash the previous build.sh kept (`_build/.core.sha256`) still matches.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import sys
from pathlib import Path

from scripts.build_paths import toc_pages

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
PACKAGE = "attention_steps"
BUILD = ROOT / "_build"
CACHE = BUILD / ".jupyter_cache"
STATE = BUILD / ".notebook-deps.json"
DYNAMIC = re.compile(r"\bimportlib\b|\bpkgutil\b|__import__\(")
# The package that imports its modules on demand, the functions that say which, and the rule
# (attention_steps.exercises.module_of): exercise "9.1" is registered by exercises/ch09.py.
EXERCISES = f"{PACKAGE}.exercises"
ASKS_FOR_ONE, ASKS_FOR_ALL = {"check", "solution"}, {"registry"}
EXERCISE_ID = re.compile(r"\s*(\d+)\.")
EXERCISE_MODULE = re.compile(rf"{re.escape(EXERCISES)}\.ch\d+")
CATALOGUES = "locale"  # <package>/locale/<lang>/<module path>.po: one module's own messages


def exercise_module(exercise_id: str) -> str | None:
    """The exercise module `exercise_id` names: "9.1" -> attention_steps.exercises.ch09 (None: not an id)."""
    m = EXERCISE_ID.match(exercise_id)
    return f"{EXERCISES}.ch{int(m.group(1)):02d}" if m else None


# --------------------------------------------------------------------------- the package
class Package:
    """The modules of `book/attention_steps`: name -> file, and what each one imports inside the package."""

    def __init__(self, root: Path | None = None):
        root = root or BOOK / PACKAGE
        self.root = root
        self.base = root.parent
        self.files: dict[str, Path] = {}
        self.is_package: dict[str, bool] = {}
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(self.base).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts = parts[:-1]
            name = ".".join(parts)
            self.files[name], self.is_package[name] = path, is_pkg
        self._imports: dict[str, set[str]] = {}

    def package_of(self, module: str) -> str:
        return module if self.is_package.get(module) else module.rpartition(".")[0]

    def data_files(self, package: str) -> list[Path]:
        """Non-Python files in `package`'s folder and its sub-folders that are not packages themselves
        (Markdown left out: documentation, never read by the code, so an edit re-runs no notebook)."""
        folder = self.files[package].parent
        found = []
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.suffix in (".py", ".pyc", ".md") or "__pycache__" in path.parts:
                continue
            owner = path.parent
            while owner != folder and not (owner / "__init__.py").exists():
                owner = owner.parent
            if owner == folder and self.catalogue_owner(path) is None:
                found.append(path)
        return found

    def catalogue_owner(self, path: Path) -> str | None:
        """The module whose own catalogue `path` is (locale/<lang>/exercises/ch09.po -> exercises.ch09), or None."""
        try:
            parts = path.relative_to(self.root / CATALOGUES).with_suffix("").parts
        except ValueError:
            return None
        if path.suffix != ".po" or len(parts) < 2:
            return None
        module = ".".join((PACKAGE, *parts[1:]))
        return module if module in self.files and not self.is_package[module] else None

    def catalogues(self, module: str) -> list[Path]:
        """The module's own catalogues, one per language."""
        folder = self.root / CATALOGUES
        return sorted(p for p in folder.rglob("*.po") if self.catalogue_owner(p) == module) if folder.is_dir() else []

    def exercises_asked(self, *trees: ast.AST) -> set[str]:
        """The exercise modules the code's check/solution calls load (imported from the exercises package;
        the trees are one program, a notebook's cells: the import in one, the calls in others)."""
        nodes = [node for tree in trees for node in ast.walk(tree)]
        names: set[str] = set()
        imports_package = False
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module == EXERCISES and not node.level:
                names |= {a.asname or a.name for a in node.names if a.name in ASKS_FOR_ONE | ASKS_FOR_ALL}
            if isinstance(node, (ast.Import, ast.ImportFrom)) and EXERCISES in self.resolve(node, None):
                imports_package = True
        chapters = {m for m in self.files if m.startswith(EXERCISES + ".") and EXERCISE_MODULE.fullmatch(m)}
        found: set[str] = set()
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in names:
                name = func.id
            elif isinstance(func, ast.Attribute) and imports_package and func.attr in ASKS_FOR_ONE | ASKS_FOR_ALL:
                name = func.attr
            else:
                continue
            arg = node.args[0] if node.args else None
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            if name in ASKS_FOR_ALL or not literal or exercise_module(arg.value) not in self.files:
                found |= chapters  # cannot tell which: every chapter's
            else:
                found.add(exercise_module(arg.value))
        return found

    def with_parents(self, name: str) -> set[str]:
        """`a.b.c` -> {a, a.b, a.b.c}, keeping only modules of the package."""
        parts = name.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & self.files.keys()

    def resolve(self, tree: ast.AST, module: str | None) -> set[str]:
        """The package's modules that the code in `tree` imports (module: where the code lives, for relative imports)."""
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        found |= self.with_parents(alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    if module is None:
                        continue
                    anchor = self.package_of(module).split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                if base.split(".")[0] != PACKAGE:
                    continue
                found |= self.with_parents(base)
                for alias in node.names:
                    if f"{base}.{alias.name}" in self.files:  # `from attention_steps.figures import scaling`
                        found.add(f"{base}.{alias.name}")
        return found

    def imports(self, module: str) -> set[str]:
        if module not in self._imports:
            source = self.files[module].read_text()
            tree = ast.parse(source)
            found = self.resolve(tree, module) | self.exercises_asked(tree)
            if DYNAMIC.search(source) and module != EXERCISES:  # importlib/pkgutil: assume the whole package
                package = self.package_of(module)
                found |= {m for m in self.files if m.startswith(package + ".")}
            self._imports[module] = found - {module}
        return self._imports[module]

    def closure(self, modules: set[str]) -> set[str]:
        seen: set[str] = set()
        todo = [m for name in modules for m in self.with_parents(name)]
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(self.imports(module) - seen)
        return seen

    def files_of(self, modules: set[str]) -> list[Path]:
        """The files those modules run: their sources and their packages' data files."""
        files = {self.files[m] for m in modules}
        for package in {self.package_of(m) for m in modules}:
            files.update(self.data_files(package))
        for module in modules:
            files.update(self.catalogues(module))
        return sorted(files)


# --------------------------------------------------------------------------- notebooks
MAGIC = re.compile(r"^\s*(%|!)")


def code_of(notebook: Path) -> list[str]:
    """The notebook's code cells, IPython magics and shell lines blanked (they are not Python)."""
    cells = json.loads(notebook.read_text())["cells"]
    return [
        "\n".join("" if MAGIC.match(line) else line for line in "".join(c["source"]).splitlines())
        for c in cells
        if c["cell_type"] == "code"
    ]


def book_modules(trees: list[ast.AST]) -> list[Path]:
    """The modules beside the notebooks (book/<name>.py, e.g. the book's production, book/editions.py)
    that the code imports: a chapter runs them as it runs the package."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.partition(".")[0])
    return sorted(BOOK / f"{name}.py" for name in names if (BOOK / f"{name}.py").is_file())


def notebook_trees(notebook: Path) -> list[ast.AST] | None:
    """The notebook's code cells parsed (None: one that mentions the package is not Python)."""
    trees = []
    for source in code_of(notebook):
        try:
            trees.append(ast.parse(source))
        except SyntaxError:
            if re.search(rf"\b{PACKAGE}\b", source):
                return None
    return trees


def notebook_modules(notebook: Path, package: Package) -> set[str]:
    """Modules of the package that the notebook's code imports, itself or through the modules beside
    it that it imports (before the transitive closure)."""
    trees = notebook_trees(notebook)
    if trees is None:
        return set(package.files)  # cannot tell: depend on everything
    found: set[str] = set()
    for tree in trees + [ast.parse(path.read_text()) for path in book_modules(trees)]:
        found |= package.resolve(tree, None)
    return found | package.exercises_asked(*trees)


def notebooks() -> list[Path]:
    """The book's notebooks, as listed in _toc.yml."""
    return [ROOT / f"{f}.ipynb" for f in toc_pages(ROOT / "_toc.yml") if (ROOT / f"{f}.ipynb").exists()]


def dependencies(package: Package | None = None) -> dict[str, list[Path]]:
    """Notebook (path relative to the repository) -> the files it runs: the package's, and the modules
    beside the notebooks that it imports."""
    package = package or Package()
    found = {}
    for nb in notebooks():
        beside = book_modules(notebook_trees(nb) or [])
        found[str(nb.relative_to(ROOT))] = sorted(
            set(package.files_of(package.closure(notebook_modules(nb, package)))) | set(beside)
        )
    return found


def digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


# --------------------------------------------------------------------------- invalidate
def forget_executions(paths: list[Path], cache_path: Path | None = None) -> list[str]:
    """Remove the notebooks' cached executions; returns the ones that had one."""
    cache_path = cache_path or CACHE
    if not paths or not (cache_path / "global.db").exists():
        return []
    import nbformat
    from jupyter_cache import get_cache

    cache, removed = get_cache(cache_path), []
    for path in paths:
        try:
            record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            continue
        cache.remove_cache(record.pk)
        removed.append(str(path.relative_to(ROOT)))
    return removed


def _files_state(files: list[Path]) -> dict[str, str]:
    return {str(f.relative_to(ROOT)): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def stale(state_path: Path | None = None) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """([(notebook, changed files)] for recorded notebooks whose files changed, [notebooks never recorded])."""
    state_path = state_path or STATE
    deps = dependencies()
    before = json.loads(state_path.read_text()) if state_path.exists() else {}
    changed, unrecorded = [], []
    for nb, files in deps.items():
        old = before.get(nb)
        if old is None:
            unrecorded.append(nb)
        elif old["digest"] != digest(files):
            now = _files_state(files)
            changed.append(
                (nb, sorted(f for f in now.keys() | old["files"].keys() if now.get(f) != old["files"].get(f)))
            )
    return changed, unrecorded


def record(state_path: Path | None = None) -> None:
    """Remember, for every notebook, the package files it ran with (call after a successful build)."""
    state_path = state_path or STATE
    state = {nb: {"digest": digest(files), "files": _files_state(files)} for nb, files in dependencies().items()}
    state_path.parent.mkdir(parents=True, exist_ok=True)
    state_path.write_text(json.dumps(state, indent=1, sort_keys=True))
    LEGACY.unlink(missing_ok=True)


# Before this script, build.sh kept one hash of the whole package here and re-ran every notebook
# when it changed. A cache made under that rule is trusted if that hash still matches.
LEGACY = BUILD / ".core.sha256"
LEGACY_HASH = "find book/attention_steps -type f \\( -name '*.py' -o -name '*.js' -o -name '*.css' \\) | sort | xargs cat | sha256sum"


def _legacy_cache_is_current() -> bool:
    import subprocess

    if not LEGACY.exists():
        return False
    done = subprocess.run(["bash", "-c", LEGACY_HASH], cwd=ROOT, capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == LEGACY.read_text().strip()


def invalidate(state_path: Path | None = None, cache_path: Path | None = None) -> list[str]:
    """Forget the executions of the notebooks whose package files changed, and make Sphinx re-read them.

    A notebook with no record (a first build with this script, a new chapter) that nonetheless
    has a cached execution ran with a package we cannot know: it runs again too."""
    state_path, cache_path = state_path or STATE, cache_path or CACHE
    changed, unrecorded = stale(state_path)
    reasons = {
        nb: ", ".join(Path(f).relative_to("book").as_posix() for f in files) + " changed" for nb, files in changed
    }
    if unrecorded and not _legacy_cache_is_current():
        for nb in forget_executions([ROOT / nb for nb in unrecorded], cache_path):
            reasons[nb] = "its cached run predates the record of what it imports"
    forget_executions([ROOT / nb for nb, _ in changed], cache_path)
    for nb, why in reasons.items():
        os.utime(ROOT / nb)  # newer than Sphinx's last read: the page is read (and executed) again
        print(f"notebook_deps: {Path(nb).stem} runs again ({why})")
    return sorted(reasons)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--record", action="store_true", help="remember the package files each notebook runs (after a good build)"
    )
    group.add_argument("--list", action="store_true", help="print each notebook's modules and data files")
    args = parser.parse_args(argv)
    if args.record:
        record()
    elif args.list:
        for nb, files in dependencies().items():
            named = [f.relative_to(BOOK / PACKAGE if f.is_relative_to(BOOK / PACKAGE) else BOOK) for f in files]
            print(f"{nb}: {', '.join(f.as_posix() for f in named)}")
    else:
        invalidate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
