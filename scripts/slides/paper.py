"""A deck's handout on paper: three slides a page on A4 or US Letter, lines beside each to take notes
on, the deck's title and "page k of n" in the footer.

The slides are the deck's own handout pages (pdf/NAME.pdf, one slide a page, vector), placed on the
paper with pypdf; the paper itself (its frames, lines and footer) is an HTML page printed by Chromium,
so its words are typeset in the deck's language. The layout is in millimetres, shared by both.
"""

from __future__ import annotations

import html
from pathlib import Path

from .assets import palette_css

PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}  # width, height in mm
SUFFIX = {"A4": "-a4", "Letter": "-letter"}  # pdf/NAME-a4.pdf, pdf/NAME-letter.pdf
PER_PAGE = 3
SIDE, TOP, FOOTER = 15.0, 14.0, 20.0  # margins (mm): the sides, the top, the bottom with its footer
SLIDE_W, GAP = 118.0, 6.0  # a slide's width on paper, and the gap between it and its lines
PT = 72 / 25.4  # points per millimetre


def slots(paper: str, aspect: float) -> list[tuple[float, float, float, float]]:
    """Where the slides of one page go: (left, top, width, height) in mm from the page's top-left,
    for slides `aspect` times as wide as they are tall."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    _width, height = PAPERS[paper]
    h = SLIDE_W / aspect
    room = height - TOP - FOOTER
    if PER_PAGE * h > room:
        raise ValueError(f"{PER_PAGE} slides of {h:.0f} mm do not fit the {room:.0f} mm of a {paper} page")
    step = (room - h) / (PER_PAGE - 1)
    return [(SIDE, TOP + k * step, SLIDE_W, h) for k in range(PER_PAGE)]


def background(title: str, pages: int, paper: str, aspect: float, page_of: str, lang: str) -> str:
    """The HTML of the paper: on each page a frame per slide, note lines beside it, the footer.
    `page_of` is "page {page} of {pages}" in the deck's language."""
    width, height = PAPERS[paper]
    lines_left = SIDE + SLIDE_W + GAP
    lines_w = width - SIDE - lines_left
    out = []
    for page in range(1, pages + 1):
        frames = []
        for left, top, w, h in slots(paper, aspect):
            frames.append(f'<div class="frame" style="left:{left}mm;top:{top}mm;width:{w}mm;height:{h}mm"></div>')
            frames.append(
                f'<div class="lines" style="left:{lines_left}mm;top:{top}mm;width:{lines_w}mm;height:{h}mm"></div>'
            )
        footer = html.escape(page_of.format(page=page, pages=pages))
        out.append(
            f'<section class="page">{"".join(frames)}'
            f"<footer><span>{html.escape(title)}</span><span>{footer}</span></footer></section>"
        )
    return f"""<!DOCTYPE html>
<html lang="{lang.replace("_", "-")}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
{palette_css()}
@page {{ size: {width}mm {height}mm; margin: 0; }}
body {{ margin: 0; font: 8.5pt "Source Sans Pro", system-ui, "Noto Sans CJK SC", sans-serif; color: var(--ase-paper-quiet); }}
.page {{ position: relative; width: {width}mm; height: {height}mm; overflow: hidden; break-after: page; }}
.page:last-child {{ break-after: auto; }}
.frame {{ position: absolute; box-sizing: border-box; border: 0.25mm solid var(--ase-paper-rule); }}
.lines {{ position: absolute; background: repeating-linear-gradient(transparent 0 7.6mm, var(--ase-paper-line) 7.6mm 7.85mm); }}
footer {{ position: absolute; left: {SIDE}mm; right: {SIDE}mm; bottom: 9mm; display: flex; justify-content: space-between;
          border-top: 0.2mm solid var(--ase-paper-line); padding-top: 1.5mm; }}
</style></head><body>{"".join(out)}</body></html>"""


def impose(slides_pdf: Path, paper_pdf: Path, target: Path, paper: str) -> int:
    """Place the slides of `slides_pdf` (one a page) into the frames of `paper_pdf`, three a page,
    into `target`; returns its pages."""
    from pypdf import PdfReader, PdfWriter, Transformation

    slides = PdfReader(slides_pdf)
    first = slides.pages[0].mediabox
    aspect = float(first.width) / float(first.height)
    writer = PdfWriter(clone_from=paper_pdf)
    need = -(-len(slides.pages) // PER_PAGE)
    if len(writer.pages) != need:
        raise ValueError(f"{paper_pdf.name} has {len(writer.pages)} pages; {len(slides.pages)} slides need {need}")
    _width, height = PAPERS[paper]
    for k, slide in enumerate(slides.pages):
        left, top, w, h = slots(paper, aspect)[k % PER_PAGE]
        box = slide.mediabox
        scale = w * PT / float(box.width)
        where = Transformation().translate(-float(box.left), -float(box.bottom)).scale(scale)
        where = where.translate(left * PT, (height - top - h) * PT)
        writer.pages[k // PER_PAGE].merge_transformed_page(slide, where)
    writer.add_metadata({"/Title": (slides.metadata or {}).get("/Title") or target.stem})
    tmp = target.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        writer.write(f)
    tmp.replace(target)
    return len(writer.pages)
