"""Has anything the book build reads changed since the last successful build?

    .venv/bin/python -m scripts.book_fingerprint check    # exit 0 if nothing changed, else 1
    .venv/bin/python -m scripts.book_fingerprint record   # after a successful build

Starting Sphinx (through jupyter-book) costs seconds even when it then finds
nothing to do. build.sh skips it when this fingerprint matches the one recorded
after the last successful build. The fingerprint covers everything the build
reads:

- the configuration and table of contents (_config.yml, _toc.yml) and the
  build command (scripts/build.sh);
- every file under book/ (chapters, intro, the core package, local Sphinx
  extensions, our CSS and JS), by content;
- the vendored browser assets under _build/vendor/book, by name, size and time
  (scripts/vendor_assets.py rewrites what changes);
- the executions the book's jupyter-cache holds (scripts/notebook_deps.py
  removes the ones to redo, so a core change shows here too);
- the installed Python packages and their versions;
- that the built pages are still there (every page of _toc.yml).

Anything else, or a missing record, and Sphinx runs and decides for itself.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from importlib.metadata import distributions
from pathlib import Path

from scripts.build_paths import toc_pages

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
STAMP = BUILD / ".book-inputs.sha256"
SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints"}


def _toc_pages() -> list[str]:
    return toc_pages(ROOT / "_toc.yml")


def fingerprint() -> str:
    h = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        h.update(label.encode() + b"\0" + hashlib.sha256(data).digest())

    for name in ("_config.yml", "_toc.yml", "scripts/build.sh"):
        add(name, (ROOT / name).read_bytes())
    for path in sorted((ROOT / "book").rglob("*")):
        if path.is_file() and not SKIP_PARTS & set(path.parts) and path.suffix != ".pyc":
            add(str(path.relative_to(ROOT)), path.read_bytes())
    vendor = BUILD / "vendor" / "book"
    listing = [
        f"{p.relative_to(vendor)} {p.stat().st_size} {p.stat().st_mtime_ns}"
        for p in sorted(vendor.rglob("*"))
        if p.is_file()
    ]
    add("vendor", "\n".join(listing).encode())
    db = BUILD / ".jupyter_cache" / "global.db"
    if db.exists():
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:  # not the `accessed` column: every cache lookup updates it
            rows = con.execute("SELECT pk, hashkey, created FROM nbcache ORDER BY pk").fetchall()
        finally:
            con.close()
        add("cache", repr(rows).encode())
    add("packages", "\n".join(sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions())).encode())
    html = BUILD / "html"
    pages = [html / "index.html"] + [html / f"{page}.html" for page in _toc_pages()]
    add("built pages", "\n".join(f"{p.relative_to(BUILD)} {p.exists()}" for p in pages).encode())
    return h.hexdigest()


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "record":
        STAMP.write_text(fingerprint() + "\n")
        return 0
    if command == "check":
        return 0 if STAMP.exists() and STAMP.read_text().strip() == fingerprint() else 1
    print(f"book_fingerprint: unknown command {command!r} (check or record)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
