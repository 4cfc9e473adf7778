"""Print a PDF handout of every deck in _build/slides/ with a headless browser.

    .venv/bin/python -m scripts.build_handouts            # every deck
    .venv/bin/python -m scripts.build_handouts 03_scaling # just these
    .venv/bin/python -m scripts.build_handouts --force    # print even what did not change
    .venv/bin/python -m scripts.build_handouts --lang zh_CN  # the Chinese decks' (_build/slides/zh_CN/pdf/)

Each chapter's deck is opened with reveal.js's `?print-pdf` layout (every slide
on its own page, fragments shown, MathJax typeset first, no speaker notes) from
a local server, with every request to another host refused, and printed to
`_build/slides/pdf/NAME.pdf` (copied under `_build/html/slides/pdf/` when the
book is built). The browser is the one scripts/browser.py finds. Run
scripts/build_slides.py first.

The course handout is the course deck's title page followed by the chapters'
handouts, joined (with a bookmark per chapter) rather than printed from the
226-slide course deck: printing that took longer than all the chapters
together, and this way a change to one chapter reprints that chapter only.
Its pages are the course deck's slides; slide numbers restart in each chapter.

A handout is printed again only when its deck was rebuilt from other inputs
(build_slides.py keeps each deck's input hash in `_build/slides/.inputs.json`)
or this script or the browser finder changed; what each PDF was made from is
kept in `_build/slides/pdf/.inputs.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import sys
import threading
import time
from pathlib import Path

from scripts.browser import TIMEOUT_MS, BrowserNotFound, block_other_hosts, launch, new_context, serve
from scripts.build_slides import (
    COURSE,
    COURSE_TITLE,
    LANGUAGES,
    OUT,
    SITE,
    TITLE,
    _,
    book_index,
    folder,
    language,
    read_stamps,
    sync,
    write_index,
    write_stamps,
)
from scripts.slides import lesson
from scripts.slides import paper as paper_layout
from scripts.slides.sheets import SHEETS
from scripts.slides.sheets import SUFFIX as SHEET_SUFFIX
from scripts.slides.site import published_site, standalone_book

PARTS = "parts"  # pdf/parts/: pages that only make up the course handout (its title page)

# Every formula of the deck typeset, checked on the formulas themselves: MathJax 2
# has started, its queue is idle, no TeX delimiters are left in the slides' text (tex2jax has
# run), and every math script is PROCESSED with its output frame in the page. Waiting only for
# MathJax's queue lost a race: the deck re-renders the first slide's maths when reveal is
# ready, and a PDF printed in between had "the raw scores . ... divides every score by ."
MATH_TYPESET = r"""() => {
  const M = window.MathJax;
  if (!M || !M.Hub || !M.isReady || !M.ElementJax) return false;
  const q = M.Hub.queue;
  if (q.pending || q.running || q.queue.length) return false;
  const slides = document.querySelector('.reveal .slides');
  if (/\$[^$]*[\\^_{}][^$]*\$|\\\(|\\\[/.test(slides.innerText)) return false;  // raw TeX left
  return [...slides.querySelectorAll('script[type^="math/tex"]')].every(s =>
    s.MathJax && s.MathJax.state === M.ElementJax.STATE.PROCESSED && document.getElementById(s.id + '-Frame'));
}"""

# MathJax 2 typeset the slides while reveal kept most of them hidden (display: none), where it
# cannot measure: typeset everything again now that every page is laid out and visible.
RERENDER = """() => new Promise(r => MathJax.Hub.Queue(["Rerender", MathJax.Hub, document.querySelector('.reveal .slides')], r))"""

# Print-only CSS: a page per slide and nothing after the last one (reveal's page-break-after on
# every page printed a blank page at the end of each handout, and in the course handout's middle).
PRINT_CSS = """
html.print-pdf .reveal .slides .pdf-page:last-child { page-break-after: auto; break-after: auto; }
html.print-pdf .reveal .slides section img.handout-fitted { max-width: none; max-height: none; margin: 0.2em auto; }
"""

# Lay every slide out for its page: reveal gives a slide taller than 720 px two
# pages or more (a figure pushed onto the second, blank or cut off) and leaves figures at their
# screen size in the top half of the page. Here each slide gets exactly one page; its figures
# grow into the room the page leaves (up to their column's width, at most FIGURE_GROWTH times),
# and a slide too tall for its page has its figures shrunk (down to FIGURE_FLOOR), then as a
# whole (zoom, down to ZOOM_FLOOR; its width grows to match, so the text rewraps to the page's
# width). Returns, per page: the slide's height, zoom and figure scale, and its overflow in px.
FIT_PAGES = """async ([FIGURE_GROWTH, FIGURE_FLOOR, ZOOM_FLOOR]) => {
  const cfg = Reveal.getConfig(), W = cfg.width, H = cfg.height;
  const pageH = Math.floor(H * (1 + cfg.margin)) + cfg.pdfPageHeightOffset;
  const report = [];
  for (const page of document.querySelectorAll('.reveal .slides .pdf-page')) {
    page.style.height = pageH + 'px';
    const slide = page.querySelector('section');
    const height = () => {
      const top = slide.getBoundingClientRect().top;
      let bottom = top;
      for (const el of slide.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.height > 0 && getComputedStyle(el).display !== 'none') bottom = Math.max(bottom, r.bottom);
      }
      return bottom - top;
    };
    const zoomTo = z => { slide.style.zoom = z === 1 ? '' : String(z); slide.style.width = (W / z) + 'px'; };
    zoomTo(1);
    const figures = [...slide.querySelectorAll('img')].filter(i => i.naturalWidth > 0 && !i.closest('.jupyter-widgets'))
      .map(img => ({img, w: img.getBoundingClientRect().width, room: img.parentElement.getBoundingClientRect().width}))
      .filter(f => f.w > 0);
    const scale = s => figures.forEach(f => {
      f.img.classList.add('handout-fitted');
      f.img.style.height = 'auto';
      f.img.style.width = Math.min(f.w * s, f.room) + 'px';
    });
    const fits = () => height() <= H;
    // the largest s in [lo, hi] that fits (lo when none does)
    const search = (lo, hi) => { for (let i = 0; i < 14; i++) { const m = (lo + hi) / 2; scale(m); if (fits()) lo = m; else hi = m; } scale(lo); return lo; };
    let s = 1, z = 1;
    if (figures.length) {
      const hi = Math.max(1, Math.min(FIGURE_GROWTH, ...figures.map(f => f.room / f.w)));
      scale(1);
      if (fits()) s = search(1, hi);
      else { scale(FIGURE_FLOOR); s = fits() ? search(FIGURE_FLOOR, 1) : FIGURE_FLOOR; }
    }
    if (!fits()) {  // the largest zoom that fits (the text rewraps to the wider slide, so search)
      let lo = ZOOM_FLOOR, hi = 1;
      zoomTo(lo);
      if (fits()) {
        for (let i = 0; i < 10; i++) { const m = (lo + hi) / 2; zoomTo(m); if (fits()) lo = m; else hi = m; }
      }
      z = lo;
      zoomTo(z);
    }
    report.push({height: Math.round(height()), zoom: +z.toFixed(3), figures: figures.length, scale: +s.toFixed(3),
                 overflow: Math.max(0, Math.round(height() - H))});
  }
  await new Promise(r => requestAnimationFrame(() => r()));
  return report;
}"""
FIGURE_GROWTH, FIGURE_FLOOR, ZOOM_FLOOR = 3.0, 0.6, 0.45


# The links of a printed deck. A deck links other chapters' decks (and, published, pages of the book) by
# relative paths, which the printer resolved against its temporary server: every link of every handout
# pointed at http://127.0.0.1:NNNNN/. A student holding the PDF needs the chapter's page on the published
# book: with its address configured (`html.baseurl` in _config.yml, published_site()) a link to another
# chapter, or to a page of the book, goes to that page there; without it the link is dropped (its text
# stays, as the standalone decks show a link to the book). Links to other sites are kept.
PDF_LINKS = """([base, lang, decks]) => {
  const found = {linked: 0, dropped: 0};
  for (const a of document.querySelectorAll('.reveal .slides a')) {
    const href = a.getAttribute('href'), book = a.getAttribute('data-book');
    if (href === null && book === null) continue;
    let target = null;
    if (href !== null) {
      const url = new URL(href, location.href);
      if (url.origin !== location.origin) continue;  // another site: works from a PDF too
      const stem = url.pathname.split('/').pop().replace(/[.]html$/, '');
      if (base && decks.includes(stem)) target = `${base}${lang}book/${stem}.html${url.hash}`;
    } else if (base) {
      target = `${base}${lang}book/${book}`;
    }
    if (target) { a.setAttribute('href', target); found.linked++; }
    else { a.removeAttribute('href'); a.setAttribute('data-book', book || ''); found.dropped++; }
  }
  return found;
}"""


WORKERS = max(1, min(2, os.cpu_count() or 1))  # decks printed at once, each by its own browser


def print_decks(
    targets: dict[str, Path],
    out: Path = OUT,
    printed_one=lambda name: None,
    lang: str = "en",
    workers: int = WORKERS,
) -> list[Path]:
    """Print deck NAME of `lang` (out/[lang/]NAME.html) to targets[NAME]; `printed_one(name)` is called after
    each. The server serves `out`, the English decks' folder, where every language's decks find vendor/.

    `workers` browsers print at once, each taking the next deck when it is done (a deck's MathJax
    and layout keep one core busy: on two cores two decks print in little more than one's time)."""
    where = folder(lang) + "/" if folder(lang) else ""
    listing = out / where / "decks.json"
    decks = [s for s, _t in json.loads(listing.read_text()) if s != COURSE] if listing.exists() else []
    links = [published_site(), where, decks]
    base, server = serve(out)
    todo: queue.Queue[str] = queue.Queue()
    for name in targets:
        todo.put(name)
    printed: list[Path] = []
    refused: list[str] = []
    failed: list[BaseException] = []
    lock = threading.Lock()

    def worker() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:  # one Playwright per thread: its sync API is not shared across threads
                try:
                    browser = launch(p)
                except BrowserNotFound as e:
                    sys.exit(f"build_handouts: {e}")
                context = new_context(browser, viewport={"width": 1280, "height": 720})
                refused_here = block_other_hosts(context)
                while not failed:
                    try:
                        name = todo.get_nowait()
                    except queue.Empty:
                        break
                    t0 = time.perf_counter()
                    target = targets[name]
                    warnings = print_deck(context, f"{base}/{where}{name}.html?print-pdf", name, target, links)
                    with lock:
                        printed.append(target)
                        printed_one(name)
                        for line in warnings:
                            print(line)
                        print(
                            f"build_handouts: {target.relative_to(out)} ({pdf_pages(target)} pages, "
                            f"{time.perf_counter() - t0:.1f} s)"
                        )
                browser.close()
                with lock:
                    refused.extend(refused_here)
        except BaseException as e:  # noqa: BLE001  (re-raised in the main thread below)
            failed.append(e)

    threads = [threading.Thread(target=worker) for _ in range(max(1, min(workers, len(targets))))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.shutdown()
    if failed:
        raise failed[0]
    if refused:
        sys.exit(f"build_handouts: a deck asked other hosts for {sorted(set(refused))}")
    return printed


def print_deck(context, url: str, name: str, target: Path, links=(None, "", [])) -> list[str]:
    """Print one deck (its ?print-pdf layout at `url`) to `target`, its links as PDF_LINKS makes them
    (`links`: the published book's address or None, the language's folder, the chapter decks); returns
    the warnings to show."""
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=TIMEOUT_MS)
    # reveal lays the print pages out after `ready`
    page.wait_for_function("document.querySelectorAll('.reveal .pdf-page').length > 0", timeout=TIMEOUT_MS)
    page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)  # widgets and fonts
    page.add_style_tag(content=PRINT_CSS)
    page.evaluate(PDF_LINKS, list(links))
    page.wait_for_function(MATH_TYPESET, timeout=TIMEOUT_MS, polling=100)
    page.emulate_media(media="print")  # lay out what prints (an explorer prints its still picture)
    page.evaluate(RERENDER)
    page.wait_for_function(MATH_TYPESET, timeout=TIMEOUT_MS, polling=100)
    report = page.evaluate(FIT_PAGES, [FIGURE_GROWTH, FIGURE_FLOOR, ZOOM_FLOOR])
    page.wait_for_function(MATH_TYPESET, timeout=TIMEOUT_MS, polling=100)  # still, as printed
    warnings = [
        f"build_handouts: warning: {name} slide {k} is {r['overflow']} px too tall for its page even at zoom {r['zoom']}"
        for k, r in enumerate(report, 1)
        if r["overflow"]
    ]
    target.parent.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(target), print_background=True, prefer_css_page_size=True)
    page.close()
    return warnings


# The exercise sheet and the answer key (scripts/slides/sheets.py) on paper: A4 and US Letter, every
# formula typeset first, each page's footer the sheet's title and "page k of n" (Chromium's own footer).
SHEET_TYPESET = """() => new Promise(r => { const M = window.MathJax;
  if (!M || !M.Hub) { r(false); return; } M.Hub.Queue(() => r(true)); })"""
FOOTER = (
    '<div style="font: 8pt sans-serif; width: 100%; margin: 0 15mm; display: flex; justify-content: space-between;">'
    '<span class="title"></span><span>{page}</span></div>'
)


def sheet_targets(pdf_dir: Path) -> dict[tuple[str, str], Path]:
    """(sheet, paper) -> where its PDF goes: pdf/exercises.pdf, pdf/answers-letter.pdf, ..."""
    return {(kind, paper): pdf_dir / f"{kind}{suffix}.pdf" for kind in SHEETS for paper, suffix in SHEET_SUFFIX.items()}


def print_sheets(targets: dict[tuple[str, str], Path], out: Path = OUT, lang: str = "en") -> None:
    """Print the sheets of `lang` (out/[lang/]KIND.html) to targets[(KIND, paper)], offline."""
    from playwright.sync_api import sync_playwright

    where = folder(lang) + "/" if folder(lang) else ""
    page_of = _("page {page} of {pages}").format(
        page='<span class="pageNumber"></span>', pages='<span class="totalPages"></span>'
    )
    base, server = serve(out)
    try:
        with sync_playwright() as p:
            try:
                browser = launch(p)
            except BrowserNotFound as e:
                sys.exit(f"build_handouts: {e}")
            context = new_context(browser)
            refused = block_other_hosts(context)
            for (kind, paper), target in targets.items():
                t0 = time.perf_counter()
                page = context.new_page()
                page.goto(f"{base}/{where}{kind}.html", wait_until="networkidle", timeout=TIMEOUT_MS)
                if not page.evaluate(SHEET_TYPESET):
                    sys.exit(f"build_handouts: {kind}.html has no MathJax (vendor/ missing?)")
                page.emulate_media(media="print")
                target.parent.mkdir(parents=True, exist_ok=True)
                page.pdf(
                    path=str(target),
                    format=paper,
                    margin={"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"},
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=FOOTER.format(page=page_of),
                    print_background=True,
                )
                page.close()
                print(
                    f"build_handouts: {target.relative_to(out)} ({pdf_pages(target)} pages, "
                    f"{time.perf_counter() - t0:.1f} s)"
                )
            browser.close()
    finally:
        server.shutdown()
    if refused:
        sys.exit(f"build_handouts: a sheet asked other hosts for {sorted(set(refused))}")


def print_papers(handouts: dict[str, tuple[str, Path]], lang: str = "en") -> None:
    """Each chapter's handout (name -> (deck title, its one-slide-a-page PDF)) on A4 and Letter, three
    slides a page (scripts/slides/paper.py): pdf/NAME-a4.pdf and pdf/NAME-letter.pdf."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    page_of = _("page {page} of {pages}")
    with sync_playwright() as p:
        try:
            browser = launch(p)
        except BrowserNotFound as e:
            sys.exit(f"build_handouts: {e}")
        context = new_context(browser)
        refused = block_other_hosts(context)
        for name, (title, slides_pdf) in handouts.items():
            reader = PdfReader(slides_pdf)
            box = reader.pages[0].mediabox
            aspect, count = float(box.width) / float(box.height), len(reader.pages)
            for paper, suffix in paper_layout.SUFFIX.items():
                t0 = time.perf_counter()
                target = slides_pdf.with_name(f"{name}{suffix}.pdf")
                sheet = target.with_suffix(".paper.pdf")
                pages = -(-count // paper_layout.PER_PAGE)
                page = context.new_page()
                page.set_content(paper_layout.background(title, pages, paper, aspect, page_of, lang), wait_until="load")
                page.pdf(path=str(sheet), prefer_css_page_size=True, print_background=True)
                page.close()
                try:
                    paper_layout.impose(slides_pdf, sheet, target, paper)
                finally:
                    sheet.unlink(missing_ok=True)
                print(f"build_handouts: {target.name} ({pages} pages, {paper}, {time.perf_counter() - t0:.1f} s)")
        browser.close()
    if refused:
        sys.exit(f"build_handouts: the paper handouts asked other hosts for {sorted(set(refused))}")


def pdf_pages(path: Path) -> int:
    """Pages in a PDF (its page tree, as pypdf reads it)."""
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


def join_pdfs(parts: list[tuple[str, Path]], target: Path) -> int:
    """Write the PDFs one after another into `target`, a bookmark at the start of each; returns the pages."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for title, path in parts:
        start = len(writer.pages)
        writer.append(str(path), import_outline=False)
        writer.add_outline_item(title=title, page_number=start)
    writer.add_metadata({"/Title": parts[0][0]})
    tmp = target.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        writer.write(f)
    tmp.replace(target)
    return len(writer.pages)


def tooling_digest() -> str:
    """This script, the browser finder and the published book's address: a change to any prints every handout again."""
    h = hashlib.sha256()
    for path in (Path(__file__), Path(__file__).with_name("browser.py")):
        h.update(path.read_bytes())
    h.update(str(published_site()).encode())  # where the links go
    return h.hexdigest()


def handout_digest(deck_stamp, tooling: str) -> str | None:
    """What a deck's handout is printed from: the deck's inputs and the tooling (None: unknown, print)."""
    if not isinstance(deck_stamp, dict) or "inputs" not in deck_stamp:
        return None
    return hashlib.sha256(f"{deck_stamp['inputs']}\0{tooling}".encode()).hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("only", nargs="*", help="deck names (default: every deck in decks.json)")
    parser.add_argument("--force", action="store_true", help="print even the handouts whose deck did not change")
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="the decks' language; default en")
    args = parser.parse_args(argv)
    with language(args.lang):
        return print_handouts(args)


def print_handouts(args) -> int:
    lang = args.lang
    out = OUT / folder(lang)
    listing = out / "decks.json"
    if not listing.exists():
        sys.exit("build_handouts: no decks; run python -m scripts.build_slides first")
    decks = json.loads(listing.read_text())
    titles = dict((stem, title) for stem, title in decks)
    names = args.only or [stem for stem, _ in decks]
    unknown = [n for n in names if n not in titles]
    if unknown:
        sys.exit(f"build_handouts: no such deck: {unknown} (decks: {', '.join(titles)})")
    start = time.perf_counter()
    pdf_dir = out / "pdf"
    pdf_dir.mkdir(exist_ok=True)
    deck_stamps, stamps, tooling = read_stamps(out), read_stamps(pdf_dir), tooling_digest()

    # What to print: the decks asked for; for the course, its title page and every chapter.
    chapters = [stem for stem, _ in decks if stem != COURSE]
    targets = {stem: pdf_dir / f"{stem}.pdf" for stem in chapters}
    targets[COURSE_TITLE] = pdf_dir / PARTS / f"{COURSE_TITLE}.pdf"
    needed = [n for n in names if n != COURSE]
    if COURSE in names:
        needed += [n for n in chapters + [COURSE_TITLE] if n not in needed]
    wanted = {n: handout_digest(deck_stamps.get(n), tooling) for n in needed}
    todo = [
        n for n in needed if args.force or wanted[n] is None or stamps.get(n) != wanted[n] or not targets[n].exists()
    ]

    def printed_one(name: str) -> None:
        if wanted[name] is None:
            stamps.pop(name, None)
        else:
            stamps[name] = wanted[name]
        write_stamps(pdf_dir, stamps)

    if todo:
        print_decks({n: targets[n] for n in todo}, printed_one=printed_one, lang=lang)
    # the chapters' handouts on paper, three slides a page: again when the handout was printed again
    on_paper = {
        n: (titles[n], targets[n])
        for n in chapters
        if n in needed
        and targets[n].exists()
        and (n in todo or not all(targets[n].with_name(f"{n}{s}.pdf").exists() for s in paper_layout.SUFFIX.values()))
    }
    if on_paper:
        print_papers(on_paper, lang=lang)
    joined = 0
    if COURSE in names:
        in_course = [n for n in chapters if n != lesson.NAME]  # the course deck is the chapters; the lesson has its own
        parts = [COURSE_TITLE, *in_course]
        digest = (
            None
            if None in (stamps.get(n) for n in parts)
            else hashlib.sha256("\0".join(stamps[n] for n in parts).encode()).hexdigest()
        )
        target = pdf_dir / f"{COURSE}.pdf"
        if args.force or digest is None or stamps.get(COURSE) != digest or not target.exists():
            t0 = time.perf_counter()
            pages = join_pdfs([(_(TITLE) if n == COURSE_TITLE else titles[n], targets[n]) for n in parts], target)
            joined = 1
            if digest is None:
                stamps.pop(COURSE, None)
            else:
                stamps[COURSE] = digest
            write_stamps(pdf_dir, stamps)
            print(
                f"build_handouts: {target.relative_to(OUT)} ({pages} pages: the title page and {len(in_course)} chapters joined, "
                f"{time.perf_counter() - t0:.1f} s)"
            )
    # the exercise sheet and the answer key, printed again when their page changed
    sheets = {key: t for key, t in sheet_targets(pdf_dir).items() if (out / f"{key[0]}.html").exists()}
    made_from = {
        t.name: hashlib.sha256((out / f"{kind}.html").read_bytes() + tooling.encode()).hexdigest()
        for (kind, _paper), t in sheets.items()
    }
    sheets_todo = {
        key: t for key, t in sheets.items() if args.force or stamps.get(t.name) != made_from[t.name] or not t.exists()
    }
    if sheets_todo and not args.only:
        print_sheets(sheets_todo, lang=lang)
        stamps.update({t.name: made_from[t.name] for t in sheets_todo.values()})
        write_stamps(pdf_dir, stamps)
    write_index(out, decks, book_prefix=standalone_book(lang), lang=lang)
    published = SITE / "slides" / folder(lang)
    if published.exists():  # the book carries the decks: carry the handouts too
        pdfs = sorted(pdf_dir.glob("*.pdf"))
        sync([(f, published / "pdf" / f.name) for f in pdfs], published / "pdf")
        write_index(published, decks, book_prefix=book_index(lang), lang=lang)
    kept = len(set(names) - set(todo)) - joined
    print(
        f"build_handouts: {len([n for n in todo if n in names]) + joined} handouts made, {kept} unchanged, "
        f"in {pdf_dir}/ in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
