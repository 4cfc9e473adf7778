"""Which notebooks have a deck (the chapters in _toc.yml, in order) and their titles."""

from __future__ import annotations

import json
from pathlib import Path

from scripts.build_paths import ROOT, toc_pages


def chapters(toc: Path = ROOT / "_toc.yml") -> list[Path]:
    """The chapter notebooks in _toc.yml, in order (entries not yet written are skipped; the root page has no deck)."""
    found = [toc.parent / f"{f}.ipynb" for f in toc_pages(toc)[1:]]
    return [p for p in found if p.exists()]


def title_of(nb) -> str:
    """The notebook's first `# ` heading (its chapter title); nb is an nbformat notebook or its plain JSON."""
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            for line in source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "Untitled"


def documents(folder: Path = ROOT / "book") -> dict[str, dict]:
    """Every notebook of the book (chapters and the introduction), stem -> its JSON."""
    return {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.ipynb"))}


def titles_and_labels(docs: dict[str, dict]) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """(stem -> title, label -> (stem, anchor)): what a `{doc}` link shows and where a `{ref}` points."""
    from scripts.myst_convert import labels_of

    return {stem: title_of(nb) for stem, nb in docs.items()}, labels_of(docs)
