"""The README stays a README, and the manual's links lead somewhere.

README.md says what the book is, the two commands and the three ways in, and links to docs/ for
the rest; it stays under 10,000 bytes. Every relative link in the README, docs/*.md, CONTRIBUTING.md,
DESIGN.md and the package's README points at a file of the repository, and a link's `#anchor` at a
heading of that file (GitHub's heading ids, as mdit-py-plugins' anchors plugin makes them).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin

from conftest import ROOT

README_LIMIT = 10_000  # bytes
PAGES = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "DESIGN.md",
        ROOT / "book" / "attention_steps" / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
)


@cache
def tokens(path: Path):
    md = MarkdownIt("commonmark").enable("table").use(anchors_plugin, max_level=6)
    return md.parse(path.read_text(encoding="utf-8"))


def links(path: Path) -> list[str]:
    """Every link target in the file (not the ones inside code)."""
    found = []
    for token in tokens(path):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(child.attrGet("href"))
    return found


def anchors(path: Path) -> set[str]:
    return {token.attrGet("id") for token in tokens(path) if token.type == "heading_open"}


def test_the_readme_is_short():
    size = len((ROOT / "README.md").read_bytes())
    assert size < README_LIMIT, (
        f"README.md is {size:,} bytes; keep it under {README_LIMIT:,} and move the rest to docs/"
    )


def test_the_readme_gives_the_two_commands_and_links_every_docs_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("bash scripts/build.sh", "bash scripts/test.sh"):
        assert command in text
    linked = {urlsplit(target).path for target in links(ROOT / "README.md")}
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    assert pages, "docs/ has no pages"
    assert pages <= linked, f"docs/ pages the README does not link to: {sorted(pages - linked)}"


def test_the_links_check_finds_a_broken_link_and_a_missing_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# A heading (中文)\n\n## `code` and more\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-heading-中文) [ok](other.md#code-and-more) [gone](missing.md) "
        "[bad anchor](other.md#nowhere) [web](https://example.org/x.md)\n\n```\n[in code](nowhere.md)\n```\n"
    )
    assert broken_links(page) == ["missing.md: no such file", "other.md#nowhere: no such heading in other.md"]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            continue  # a web address
        path = unquote(parts.path)
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif parts.fragment and dest.suffix == ".md" and unquote(parts.fragment) not in anchors(dest):
            broken.append(f"{target}: no such heading in {dest.name}")
    return broken


def test_every_relative_link_leads_to_a_file_and_heading():
    broken = {page: found for page in PAGES if (found := broken_links(ROOT / page))}
    assert broken == {}


def test_the_package_readme_example_prints_what_it_says(capsys):
    """The PyPI description's example runs with the core and prints the output its last comment shows."""
    fences = [t for t in tokens(ROOT / "book" / "attention_steps" / "README.md") if t.type == "fence"]
    (example,) = [t.content for t in fences if t.info == "python"]
    assert len(example.strip().splitlines()) <= 10
    promised = example.strip().splitlines()[-1].rsplit("# ", 1)[1]
    exec(compile(example, "book/attention_steps/README.md", "exec"), {})
    assert capsys.readouterr().out.strip() == promised
