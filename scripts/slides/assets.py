"""The browser assets a deck folder carries (vendor/), copied only when they differ."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from attention_steps.palette import GENERATED, OKABE_ITO, PAPER, SLIDES, SLIDES_DARK, css_variables
from scripts.build_paths import ROOT, VENDOR

from . import HERE

SOURCE = VENDOR / "slides"  # filled by scripts/vendor_assets.py
WIDGETS_CONFIG = ROOT / "book" / "assets" / "widgets-config.js"  # the book's require.js map, reused

# What a deck loads, and nothing else: MathJax 2's CommonHTML output with the TeX fonts,
# reveal.js's script, white theme and notes plugin, the widget manager, anywidget.
VENDOR_FILES = [
    "require.js",
    "jquery.min.js",
    "anywidget",
    "html-manager",
    "mathjax2/MathJax.js",
    "mathjax2/config/TeX-AMS_CHTML-full.js",
    "mathjax2/config/Safe.js",
    "mathjax2/extensions",
    "mathjax2/jax/input/TeX",
    "mathjax2/jax/element",
    "mathjax2/jax/output/CommonHTML",
    "mathjax2/fonts/HTML-CSS/TeX/woff",
    "mathjax2/localization/en",
    "mathjax2/LICENSE",
    "reveal.js/LICENSE",
    "reveal.js/dist/reveal.js",
    "reveal.js/dist/reveal.css",
    "reveal.js/dist/theme/white.css",
    "reveal.js/dist/theme/fonts/source-sans-pro",
    "reveal.js/plugin/notes",
]


def sync(pairs: list[tuple[Path, Path]], dest: Path, keep: tuple[Path, ...] = ()) -> int:
    """Make `dest` hold exactly the (source file, target) pairs and `keep`: copy what differs, delete the rest.

    Files are compared by size and modification time (copy2 keeps the source's). Returns files copied."""
    wanted, copied = {}, 0
    for src, target in pairs:
        if src.is_dir():
            for f in src.rglob("*"):
                if f.is_file():
                    wanted[target / f.relative_to(src)] = f
        else:
            wanted[target] = src
    for target, src in wanted.items():
        a = src.stat()
        try:
            b = target.stat()
            same = (a.st_size, a.st_mtime_ns) == (b.st_size, b.st_mtime_ns)
        except FileNotFoundError:
            same = False
        if not same:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
            copied += 1
    if dest.exists():
        for f in sorted(dest.rglob("*"), reverse=True):
            if f.is_file() and f not in wanted and f not in keep:
                f.unlink()
            elif f.is_dir() and not any(f.iterdir()):
                f.rmdir()
    return copied


def palette_css() -> str:
    """The palette's colours as CSS variables (`--ase-<name>`) for a deck's page and its index page."""
    return (
        GENERATED
        + css_variables(":root", {**OKABE_ITO, **SLIDES, **PAPER})
        + css_variables("html.ase-dark", SLIDES_DARK)  # the dark theme (slides.css; press d in a deck)
    )


def copy_vendor(dest: Path) -> None:
    """dest (a deck folder's vendor/) holds what the decks load: the vendored assets, the require.js map, our CSS
    (slides.css after the palette's variables)."""
    if not SOURCE.exists():
        sys.exit(f"build_slides: {SOURCE.relative_to(ROOT)} is missing; run scripts/setup.sh (or vendor_assets.py)")
    pairs = [(SOURCE / rel, dest / rel) for rel in VENDOR_FILES]
    pairs += [(WIDGETS_CONFIG, dest / "widgets-config.js")]
    css = dest / "slides.css"
    sync(pairs, dest, keep=(css,))
    text = palette_css() + (HERE / "slides.css").read_text()
    if not css.exists() or css.read_text() != text:  # an unchanged file keeps its time, so copies of it are skipped
        css.write_text(text)
