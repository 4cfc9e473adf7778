"""Benchmark the explorers in Chromium: redraw time per control change, and page weight.

    .venv/bin/python -m scripts.bench_explorers [--html _build/html] [--moves 200]

For each explorer page of a built book it first scrolls the explorer's top to
the top of the window and waits (at most TIMEOUT_MS) until it is on screen and a
frame has been painted with it, so that its drawings are painted during the
measurement as a reader's would be (an explorer far down a page, outside the
window, is not painted at all). Then it moves every control `--moves` times to
seeded random positions and measures, in the page:

- redraw: from just before the control's event is dispatched until the
  explorer has redrawn and the browser has recomputed style and layout
  (`performance.now()` around the dispatch, then a forced layout);
- to next paint: from the event until the frame that shows the change has been
  painted (a `requestAnimationFrame` callback, then a message posted from it,
  which runs once that frame's style, layout and paint are done). A reader's
  input comes at any moment of a frame, so each event is dispatched a seeded
  random 0-16 ms after the previous frame was painted; when the redraw fits in
  what is left of the frame, the change shows on the very next one. In
  headless Chromium frames tick at 60 Hz. Target: median <= 16.7 ms (one
  frame) for every control; "within a frame" is the share of moves that made it.

Page weight is, for every chapter page, the bytes the page loads that are not
shared assets: its HTML (which embeds the explorers' saved states) and its own
images (`_images/`); `_static/` and the search index are shared by every page. Targets: median redraw < 16 ms, median
to next paint <= 16.7 ms, page weight < 1 MB. Prints tables; asserts nothing (benchmarks are not tests).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from scripts import browser as finder
from scripts.browser import TIMEOUT_MS, is_local, launch, new_context, serve
from scripts.build_paths import SITE

ROOT = Path(__file__).resolve().parent.parent

KINDS = ("dk", "temperature", "heads", "who-attends")

# Runs in the page: move one control `moves` times, timing each redraw and the wait for its frame.
MOVE = """async ({kind, control, moves}) => {
  const root = document.querySelector(`.ase-explorer[data-explorer='${kind}']`);
  const controls = [...root.querySelectorAll(`[data-control='${control}']`)];
  const range = controls[0].type === 'range' ? controls[0] : null;
  const count = range ? Number(range.max) + 1 : controls.length;
  let seed = 12345, phase = 777, current = range ? Number(range.value) : controls.findIndex(c => c.checked || c.getAttribute('aria-pressed') === 'true');
  const next = () => { seed = (1103515245 * seed + 12345) % 2147483648; return seed % count; };
  // Resolves with the time at which the next frame has been painted.
  const painted = () => new Promise(r => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => r(performance.now());
    channel.port2.postMessage(0);
  }));
  const redraw = [], paint = [];
  for (let k = 0; k < moves; k++) {
    let target = next();
    if (target === current) target = (target + 1) % count;
    current = target;
    await painted();
    phase = (1103515245 * phase + 12345) % 2147483648;
    await new Promise(r => setTimeout(r, phase % 17));  // the input comes 0-16 ms into a frame
    const t0 = performance.now();
    if (range) { range.value = String(target); range.dispatchEvent(new Event('input', {bubbles: true})); }
    else controls[target].click();
    root.getBoundingClientRect(); void document.body.offsetHeight;  // force style and layout
    const t1 = performance.now();
    const t2 = await painted();
    redraw.push(t1 - t0); paint.push(t2 - t0);
  }
  return {redraw, paint};
}"""
FRAME_MS = 1000 / 60

# Runs in the page: bring the explorer's top to the top of the window (at once, whatever the
# page's scroll-behavior) and resolve once it is on screen and a frame showing it is painted.
SHOW = """async ({kind, timeout}) => {
  const root = document.querySelector(`.ase-explorer[data-explorer='${kind}']`);
  root.scrollIntoView({block: 'start', behavior: 'instant'});
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} explorer was not on screen ${timeout} ms after scrolling to it`)), timeout);
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some(e => e.isIntersecting)) return;
      seen.disconnect(); clearTimeout(timer); resolve();
    });
    seen.observe(root);
  });
  // Intersections are computed in a frame's update; the frame after has certainly painted it.
  for (let k = 0; k < 2; k++) await new Promise(r => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = r;
    channel.port2.postMessage(0);
  }));
}"""


def pages(html: Path) -> list[str]:
    return sorted(
        str(p.relative_to(html)) for p in html.rglob("*.html") if not p.relative_to(html).parts[0].startswith("_")
    )


def explorer_pages(html: Path) -> dict[str, str]:
    """Explorer kind -> the first page whose saved widget state holds its front end."""
    found = {}
    for page in pages(html):
        text = (html / page).read_text(errors="ignore")
        for kind in KINDS:
            if kind not in found and f"// attention-explorer: {kind} " in text:
                found[kind] = page
    return found


def new_page(browser, base: str, width: int = 1280):
    """A page that may load only from our server (as the book's tests demand)."""
    context = new_context(browser, viewport={"width": width, "height": 900})
    context.route("**/*", lambda r: r.continue_() if is_local(r.request.url) else r.abort())
    return context, context.new_page()


def weight(browser, base: str, html: Path, page_path: str) -> tuple[int, int, int]:
    """(bytes of the HTML, bytes of its own images, bytes of the saved widget state) for one page."""
    context, page = new_page(browser, base)
    urls: set[str] = set()
    page.on("requestfinished", lambda r: urls.add(r.url))
    page.goto(f"{base}/{page_path}", wait_until="networkidle")  # no request for 500 ms: every load has finished
    context.close()
    own = 0
    for url in urls:
        path = unquote(urlparse(url).path).lstrip("/")
        # Shared by every page: _static/ (themes, MathJax, the widget manager) and the search index.
        if path == page_path or not path.startswith("_images/") or not (html / path).is_file():
            continue
        own += (html / path).stat().st_size
    text = (html / page_path).read_text(errors="ignore")
    start = text.find('<script type="application/vnd.jupyter.widget-state+json">')
    state = len(text[start : text.find("</script>", start)].encode()) if start >= 0 else 0
    return (html / page_path).stat().st_size, own, state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--html",
        type=Path,
        default=SITE,
    )
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument(
        "--kinds", nargs="+", choices=KINDS, default=list(KINDS), help="explorers to time (default: all)"
    )
    parser.add_argument("--no-weight", action="store_true", help="skip the page-weight table")
    args = parser.parse_args()
    if not (args.html / "index.html").exists():
        print(
            f"no built book at {args.html}: build it first (scripts/build.sh)",
            file=sys.stderr,
        )
        return 1
    from playwright.sync_api import sync_playwright

    base, server = serve(args.html)
    found = explorer_pages(args.html)
    print(
        f"# Explorers benchmark, {datetime.date.today()}, {platform.machine()} with {os.cpu_count()} cores, "
        f"{finder.browser().version} headless, {args.moves} moves per control, book at {args.html}, "
        f"load average {os.getloadavg()[0]:.1f} (frame timings need an idle machine)\n"
    )
    with sync_playwright() as p:
        chromium = launch(p)
        print(
            "| explorer | page | control | redraw median (ms) | redraw worst (ms) | to next paint median (ms) | 90th percentile (ms) | worst (ms) | within a frame |"
        )
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for kind in args.kinds:
            if kind not in found:
                print(f"| {kind} | (not built) | | | | | | | |")
                continue
            context, page = new_page(chromium, base)
            page.goto(f"{base}/{found[kind]}", wait_until="networkidle")
            page.wait_for_selector(f".ase-explorer[data-explorer='{kind}']", timeout=TIMEOUT_MS)
            page.evaluate(SHOW, {"kind": kind, "timeout": TIMEOUT_MS})
            controls = page.evaluate(
                f"[...new Set([...document.querySelectorAll(\".ase-explorer[data-explorer='{kind}'] [data-control]\")].map(c => c.dataset.control))]"
            )
            for control in controls:
                t = page.evaluate(MOVE, {"kind": kind, "control": control, "moves": args.moves})
                r, f = t["redraw"], t["paint"]
                within = sum(x <= FRAME_MS for x in f) / len(f)
                print(
                    f"| {kind} | {found[kind]} | {control} | {statistics.median(r):.2f} | {max(r):.2f} | "
                    f"{statistics.median(f):.2f} | {statistics.quantiles(f, n=10)[-1]:.2f} | {max(f):.2f} | {within:.0%} |"
                )
            context.close()
        if args.no_weight:
            chromium.close()
            server.shutdown()
            return 0
        print("\n| page | HTML (KB) | of which widget state (KB) | own images (KB) | total beyond _static/ (KB) |")
        print("|---|---:|---:|---:|---:|")
        for page_path in pages(args.html):
            size, own, state = weight(chromium, base, args.html, page_path)
            print(
                f"| {page_path} | {size / 1024:.0f} | {state / 1024:.0f} | {own / 1024:.0f} | {(size + own) / 1024:.0f} |"
            )
        chromium.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
