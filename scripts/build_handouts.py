"""Print a PDF handout of every deck in _build/slides/ with headless Chromium.

    .venv/bin/python scripts/build_handouts.py            # every deck
    .venv/bin/python scripts/build_handouts.py 03_scaling # just these

Each deck is opened with reveal.js's `?print-pdf` layout (every slide on its own
page, fragments shown, MathJax typeset first, no speaker notes) from a local
server, with every request to another host refused, and printed to
`_build/slides/pdf/NAME.pdf` (copied under `_build/html/slides/pdf/` when the
book is built). Run scripts/build_slides.py first.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import TIMEOUT_MS, BrowserNotFound, is_local, launch, new_context, serve  # noqa: E402
from build_slides import OUT, SITE, write_index  # noqa: E402


def print_decks(names: list[str], out: Path = OUT) -> list[Path]:
    from playwright.sync_api import sync_playwright

    base, server = serve(out)
    (out / "pdf").mkdir(exist_ok=True)
    printed, refused = [], []

    def local_only(route):
        if is_local(route.request.url):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    try:
        with sync_playwright() as p:
            try:
                browser = launch(p)
            except BrowserNotFound as e:
                sys.exit(f"build_handouts: {e}")
            context = new_context(browser, viewport={"width": 1280, "height": 720})
            context.route("**/*", local_only)
            for name in names:
                t0 = time.perf_counter()
                page = context.new_page()
                page.goto(f"{base}/{name}.html?print-pdf", wait_until="networkidle")
                page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=TIMEOUT_MS)
                # reveal lays the print pages out after `ready`
                page.wait_for_function("document.querySelectorAll('.reveal .pdf-page').length > 0", timeout=TIMEOUT_MS)
                page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)  # widgets and fonts
                target = out / "pdf" / f"{name}.pdf"
                page.pdf(path=str(target), print_background=True, prefer_css_page_size=True)
                page.close()
                printed.append(target)
                print(f"build_handouts: pdf/{name}.pdf ({pdf_pages(target)} pages, {time.perf_counter() - t0:.1f} s)")
            browser.close()
    finally:
        server.shutdown()
    if refused:
        sys.exit(f"build_handouts: a deck asked other hosts for {sorted(set(refused))}")
    return printed


def pdf_pages(path: Path) -> int:
    """Pages in a PDF: its /Type /Page objects (not /Pages)."""
    import re

    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("only", nargs="*", help="deck names (default: every deck in decks.json)")
    args = parser.parse_args(argv)
    listing = OUT / "decks.json"
    if not listing.exists():
        sys.exit("build_handouts: no decks; run scripts/build_slides.py first")
    decks = json.loads(listing.read_text())
    names = args.only or [stem for stem, _ in decks]
    start = time.perf_counter()
    print_decks(names)
    write_index(OUT, decks, book_prefix="../html/")
    if (SITE / "slides").exists():  # the book carries the decks: carry the handouts too
        shutil.copytree(OUT / "pdf", SITE / "slides" / "pdf", dirs_exist_ok=True)
        write_index(SITE / "slides", decks, book_prefix="../")
    print(f"build_handouts: {len(names)} handouts in {OUT / 'pdf'}/ in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
