"""What each deck was built from (content hashes in `.inputs.json`), so an unchanged deck is not rebuilt."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from scripts.build_paths import ROOT

from . import HERE
from .assets import WIDGETS_CONFIG

STAMPS = ".inputs.json"  # in the decks' folder: deck name -> hash of what it was built from
SCRIPTS = ROOT / "scripts"


def tooling_files() -> list[Path]:
    """The slide scripts and the MyST converter, this package with its template and CSS, the require.js map,
    the vendored assets' lock."""
    return [
        SCRIPTS / "build_slides.py",
        SCRIPTS / "build_paths.py",
        SCRIPTS / "myst_convert.py",
        SCRIPTS / "vendor_assets.py",
        WIDGETS_CONFIG,
        ROOT / "package-lock.json",
        *sorted(f for f in HERE.rglob("*") if f.is_file() and "__pycache__" not in f.parts),
    ]


def translation_files(lang: str) -> list[Path]:
    """What a language's decks are translated with: the translator, the book's and the notes' catalogues,
    the production's words (chrome.po) and the core's area catalogues; none for English.

    Not the modules' own catalogues (locale/<lang>/exercises/ch09.po): they hold only messages their
    module marks, which reach a deck through its notebook's execution, in the deck's own digest
    (a changed Chinese hint re-runs chapter 9, which rebuilds chapter 9's deck, not every deck)."""
    if lang == "en":
        return []
    core = ROOT / "book" / "attention_steps" / "locale" / lang
    return [
        SCRIPTS / "translate_notebook.py",
        SCRIPTS / "chrome.py",
        ROOT / "locale" / lang / "chrome.po",
        *sorted((ROOT / "locale" / lang / "LC_MESSAGES").rglob("*.po")),
        *sorted(core.glob("*.po")),
    ]


def tooling_digest(lang: str = "en") -> str:
    """Hash of the tooling files, the language's translations and nbconvert's version: a change to any of
    them rebuilds every deck of that language."""
    from importlib.metadata import version

    h = hashlib.sha256(f"{version('nbconvert')}\0{lang}".encode())
    for path in tooling_files() + translation_files(lang):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def deck_digest(path: Path, tooling: str, decks: set[str], record: str | None) -> str | None:
    """Hash of everything the deck of `path` is made from, given the book cache's `record` of its
    execution; None if there is none (the book has not executed it)."""
    if record is None:
        return None
    h = hashlib.sha256(f"{tooling}\0{sorted(decks)}\0{record}\0".encode())
    h.update(path.read_bytes())
    return h.hexdigest()


def quick_digest(path: Path, tooling: str, decks: set[str], fingerprint: str) -> str:
    """Hash of the notebook file and the whole cache's fingerprint: unchanged, the deck is too (no nbformat needed)."""
    return hashlib.sha256(f"{tooling}\0{sorted(decks)}\0{fingerprint}\0".encode() + path.read_bytes()).hexdigest()


def read_stamps(folder: Path) -> dict[str, dict]:
    try:
        return json.loads((folder / STAMPS).read_text())
    except (OSError, ValueError):
        return {}


def write_stamps(folder: Path, stamps: dict[str, dict]) -> None:
    (folder / STAMPS).write_text(json.dumps(stamps, indent=1, sort_keys=True))
