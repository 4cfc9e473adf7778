"""The executed notebooks: the book's own executions (its jupyter-cache), so the slides show the book's numbers."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from scripts.build_paths import CACHE


@functools.lru_cache(maxsize=1)
def book_cache():
    """The book's jupyter-cache, or None before the first book build."""
    if not (CACHE / "global.db").exists():
        return None
    from jupyter_cache import get_cache

    return get_cache(CACHE)


def cache_record(path: Path) -> str | None:
    """Which cached execution the book used for this notebook (None if the cache has none)."""
    import nbformat

    cache = book_cache()
    if cache is None:
        return None
    try:
        record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
    except KeyError:
        return None
    return f"{record.pk}:{record.hashkey}:{record.created.isoformat()}"


def executed(path: Path, timeout: int = 600):
    """(notebook with outputs, where they came from): the book's cache if it matches, else a fresh run."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    cache = book_cache()
    if cache is not None:
        try:
            # cell_meta=(): keep today's cell metadata (slide types, tags), take only the outputs.
            _, merged = cache.merge_match_into_notebook(nb, cell_meta=())
            return merged, "book cache"
        except KeyError:
            pass
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb, "executed"


def cache_fingerprint() -> str:
    """Every execution the book's cache holds (id, code hash, when), read with sqlite3 alone.

    While it and a notebook's file are unchanged, so is the notebook's cached execution:
    the quick check that spares a run with nothing to rebuild from importing nbformat."""
    import sqlite3

    db = CACHE / "global.db"
    if not db.exists():
        return "no cache"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT pk, hashkey, created FROM nbcache ORDER BY pk").fetchall()
    finally:
        con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()
