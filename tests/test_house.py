"""The core's shape, as issue-free properties a reader of the package can rely on: each top-level
module of `attention_steps` (the core; the teaching layer is in its subfolders) stays under 300 lines,
so a stage reads in one place, and every public function and class says which chapter explains it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import attention_steps
from conftest import BOOK

PACKAGE = BOOK / "attention_steps"
MODULES = sorted(m.name for m in pkgutil.iter_modules(attention_steps.__path__) if not m.ispkg)
# The package's plumbing, not a chapter's topic: the words on screen, the colours, table writing (and the _private modules: argument checks).
INFRASTRUCTURE = {"i18n", "palette", "phrases", "tables"}
NAMES_A_CHAPTER = re.compile(r"[Cc]hapters? \d|[Tt]he introduction's notation|\bintro\b")


@pytest.mark.parametrize("name", MODULES)
def test_no_core_module_is_over_300_lines(name):
    lines = len((PACKAGE / f"{name}.py").read_text(encoding="utf-8").splitlines())
    assert lines <= 300, f"attention_steps/{name}.py has {lines} lines: split it by topic (at most 300)"


@pytest.mark.parametrize("name", sorted(m for m in set(MODULES) - INFRASTRUCTURE if not m.startswith("_")))
def test_every_public_function_names_its_chapter(name):
    module = importlib.import_module(f"attention_steps.{name}")
    public = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    silent = [
        n
        for n in public
        if (inspect.isfunction(obj := getattr(module, n)) or inspect.isclass(obj))
        and obj.__module__ == module.__name__
        and not NAMES_A_CHAPTER.search(inspect.getdoc(obj) or "")
    ]
    assert silent == [], f"attention_steps.{name}: docstrings that name no chapter: {silent}"
