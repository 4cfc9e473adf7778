"""The PDF handouts, read back with poppler-utils (pdftotext, pdfimages, pdffonts) and pypdf.

Page counts alone said nothing while handouts once printed "Chapter 2 ended with the raw scores
. ... divides every score by ." (MathJax not done), lost chapter 6's four-head figure to a blank
page, cut chapter 9's mask figure and ended every handout with a blank page. So these tests
read each handout against the deck it was printed from (`_build/slides/NAME.html`, one page
per slide, in order, as scripts/build_handouts.py prints them):

- no blank page, and one page per slide (no slide spread over two pages);
- no hole where maths was: a slide with maths has maths glyphs on its page (MathJax's fonts,
  which Chromium embeds as Type 3 fonts), and no inline formula of the deck is missing between
  its neighbouring words on the page (pdftotext's word boxes: the words around it sit a space
  apart, with nothing in between);
- every figure of the slide is on its page (the deck's PNGs, by pixel size, against pdfimages;
  vector figures by their clip boxes), drawn whole inside the page;
- chapter 10's 我 爱 猫 are text in an embedded CJK font, not boxes.

Offline: they read files. scripts/setup.sh installs poppler-utils; `bash scripts/build.sh`
prints the handouts (SLIDES_OUT points at another build).
"""

from __future__ import annotations

import base64
import re
import shutil
import struct
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import ROOT
from scripts.build_paths import SLIDES  # noqa: E402

LANGS = ["", "zh_CN/"]  # the English decks' folder, the Chinese decks'


def _decks() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]
    return [Path(f).stem for f in files if (ROOT / f"{f}.ipynb").exists() and Path(f).stem[:2].isdigit()]


CHAPTERS = _decks()
DECKS = [lang + stem for lang in LANGS for stem in CHAPTERS]  # "03_scaling", "zh_CN/03_scaling"
CJK = re.compile(r"[\u4e00-\u9fff]")
POPPLER = all(shutil.which(t) for t in ("pdftotext", "pdfimages", "pdffonts"))
pytestmark = [
    pytest.mark.book,  # the tier (tests/conftest.py)
    pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed (scripts/setup.sh installs it)"),
]


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=300).stdout


def _pdf(deck: str) -> Path:
    """The handout of deck "03_scaling" or "zh_CN/03_scaling" (each language's decks have their pdf/)."""
    folder, _, stem = deck.rpartition("/")
    path = SLIDES / folder / "pdf" / f"{stem}.pdf"
    if not path.exists():
        pytest.fail(f"no handout {path}: run `bash scripts/build.sh`")
    return path


# --------------------------------------------------------------------------- the deck
INLINE_MATH = re.compile(r"(?<![$\\])\$(?!\$)([^$]+?)(?<!\\)\$(?!\$)")
BLOCKS = "p, li, td, th, h1, h2, h3, h4, h5, h6, summary, dt, dd"


def _png_size(uri: str) -> tuple[int, int] | None:
    """(width, height) of a data:image/png URI, from its IHDR chunk."""
    head = base64.b64decode(uri.split(",", 1)[1][:64] + "==")
    return struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None


@cache
def deck_slides(deck: str) -> list[dict]:
    """Per printed slide (reveal's leaf sections, in order): its PNG sizes, vector figures, maths."""
    soup = BeautifulSoup((SLIDES / f"{deck}.html").read_text(encoding="utf-8"), "html.parser")
    slides = []
    for section in soup.select(".reveal .slides section"):
        if section.find("section"):
            continue  # a vertical stack: its sections are the slides
        for aside in section.select("aside.notes"):
            aside.decompose()  # speaker notes are not printed
        pngs, vectors = [], 0
        for img in section.find_all("img"):
            if img.find_parent(class_="jupyter-widgets"):
                continue
            src = img.get("src", "")
            if src.startswith("data:image/png"):
                pngs.append(_png_size(src))
            elif src.startswith("data:image/svg") or src.endswith(".svg"):
                vectors += 1
        # matplotlib figures as inline SVG (nbconvert's image/svg+xml output): vector figures too
        vectors += len(section.select(".jp-RenderedSVG svg, .glued > svg"))
        holes, math = [], 0
        for block in section.select(BLOCKS):
            if block.find(BLOCKS.split(", ")):  # the innermost blocks only
                continue
            text = block.get_text()
            for m in INLINE_MATH.finditer(text):
                math += 1
                before, after = text[: m.start()], text[m.end() :]
                words_before, words_after = before.split(), after.split()
                # a formula glued to a word on both sides leaves no gap to see when it is missing
                if (
                    words_before
                    and words_after
                    and (before[-1:].isspace() or after[:1].isspace() or not after[:1].isalnum())
                ):
                    holes.append((tuple(words_before[-2:]), tuple(words_after[:2]), m.group(0)))
        math += len(re.findall(r"\$\$.+?\$\$", section.get_text(), flags=re.S))
        text = " ".join(section.get_text(" ").split())
        # (words before, words after, formula, how often those words stand side by side in the slide itself)
        holes = [
            (b, a, f, len(re.findall(r"(?<!\S)" + re.escape(" ".join(b + a)) + r"(?!\S)", text))) for b, a, f in holes
        ]
        slides.append({"pngs": [p for p in pngs if p], "vectors": vectors, "math": math, "neighbours": holes})
    return slides


# --------------------------------------------------------------------------- the handout
@cache
def page_words(pdf: Path) -> list[list[list[tuple[float, float, float, float, str]]]]:
    """Per page, its lines, each a list of words (xMin, yMin, xMax, yMax, text), from pdftotext -bbox-layout
    (its XHTML read by BeautifulSoup, which lower-cases the attributes' names and decodes the entities)."""
    layout = BeautifulSoup(_run("pdftotext", "-bbox-layout", str(pdf), "-"), "html.parser")
    box = ("xmin", "ymin", "xmax", "ymax")
    return [
        [[(*(float(w[k]) for k in box), w.get_text()) for w in line.find_all("word")] for line in page.find_all("line")]
        for page in layout.find_all("page")
    ]


@cache
def page_images(pdf: Path) -> dict[int, list[tuple[int, int]]]:
    """Page number (from 1) -> (width, height) of each image drawn on it (pdfimages -list; soft masks left out)."""
    found: dict[int, list[tuple[int, int]]] = {}
    for row in _run("pdfimages", "-list", str(pdf)).splitlines()[2:]:
        cols = row.split()
        if len(cols) > 4 and cols[2] == "image":
            found.setdefault(int(cols[0]), []).append((int(cols[3]), int(cols[4])))
    return found


def page_fonts(pdf: Path, page: int) -> list[tuple[str, str]]:
    """(name, type) of the fonts page `page` uses (pdffonts)."""
    rows = _run("pdffonts", "-f", str(page), "-l", str(page), str(pdf)).splitlines()[2:]
    return [(r[:37].strip(), r[37:55].strip()) for r in rows]


def _mul(a, b):
    """The product of two PDF matrices [a b c d e f] (a applied first)."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def drawn_images(page) -> list[tuple[int, int, tuple[float, float, float, float]]]:
    """(width px, height px, (x0, y0, x1, y1) in points) of every image XObject a pypdf page draws."""
    from pypdf.generic import ContentStream

    out = []

    def walk(content, resources, ctm):
        stack = []
        xobjects = resources.get("/XObject", {}) if resources else {}
        for operands, op in ContentStream(content, page.pdf).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q" and stack:
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mul([float(v) for v in operands], ctm)
            elif op == b"Do" and operands[0] in xobjects:
                xo = xobjects[operands[0]].get_object()
                if xo.get("/Subtype") == "/Image":
                    xs = [ctm[0] * u + ctm[2] * v + ctm[4] for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]
                    ys = [ctm[1] * u + ctm[3] * v + ctm[5] for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]
                    out.append((int(xo["/Width"]), int(xo["/Height"]), (min(xs), min(ys), max(xs), max(ys))))
                elif xo.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xo.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    walk(xo, xo.get("/Resources"), _mul(matrix, ctm))

    walk(page.get_contents(), page.get("/Resources"), [1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    return out


def vector_boxes(page) -> int:
    """Clip rectangles at least an eighth of the page wide and high (the page's own left out).

    Chromium draws an SVG figure (an <img> or inline <svg>) as paths inside a clip rectangle of
    its box (seen with Chromium 156 and matplotlib SVGs: two per figure, its box and its axes'),
    so a vector figure on the page leaves at least one."""
    data = page.get_contents().get_data().decode("latin-1")
    rects = {
        tuple(round(float(v)) for v in m)
        for m in re.findall(r"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re\s+W\*? n", data)
    }
    if not rects:
        return 0
    page_rect = max(rects, key=lambda r: abs(r[2] * r[3]))
    return sum(1 for r in rects if r != page_rect and abs(r[2]) > page_rect[2] / 8 and abs(r[3]) > page_rect[3] / 8)


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("deck", DECKS)
def test_one_page_per_slide_and_no_blank_page(deck):
    pdf = _pdf(deck)
    texts = _run("pdftotext", "-layout", str(pdf), "-").split("\f")
    texts = texts[:-1] if texts and not texts[-1].strip() else texts  # pdftotext ends every page with \f
    images = page_images(pdf)
    from pypdf import PdfReader

    pages = len(PdfReader(pdf).pages)
    blank = [
        k for k in range(1, pages + 1) if not (texts[k - 1].strip() if k <= len(texts) else "") and k not in images
    ]
    assert blank == [], f"{deck}.pdf: blank pages {blank} of {pages}"
    assert pages == len(deck_slides(deck)), (
        f"{deck}.pdf has {pages} pages for {len(deck_slides(deck))} slides: a slide spread over pages"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_course_handout_is_the_title_and_every_chapter_with_no_blank_page(lang):
    from pypdf import PdfReader

    course = _pdf(lang + "course")
    pages = len(PdfReader(course).pages)
    assert pages == 1 + sum(len(PdfReader(_pdf(lang + d)).pages) for d in CHAPTERS)
    texts = _run("pdftotext", str(course), "-").split("\f")[:pages]
    images = page_images(course)
    blank = [k for k, t in enumerate(texts, 1) if not t.strip() and k not in images]
    assert blank == [], f"{lang}course.pdf: blank pages {blank}"


FULL_WIDTH = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")


def em(a: tuple, b: tuple) -> float:
    """The font size at two neighbouring words (line, x0, y0, x1, y1, text), to measure a gap in: a run
    of Chinese characters and full-width punctuation is one em per character; a Latin word's box is
    about its font size tall (a CJK font's box is a third taller than its em, so height is not used there)."""
    for w in (a, b):
        if FULL_WIDTH.fullmatch(w[5]):
            return (w[3] - w[1]) / len(w[5])
    return a[4] - a[2]


@pytest.mark.parametrize("deck", DECKS)
def test_no_hole_where_maths_was(deck):
    pdf = _pdf(deck)
    slides, pages = deck_slides(deck), page_words(pdf)
    assert len(pages) == len(slides)
    holes = []
    for k, (slide, lines) in enumerate(zip(slides, pages), 1):
        if slide["math"]:
            fonts = page_fonts(pdf, k)
            if not any(kind == "Type 3" or "mathjax" in name.lower() for name, kind in fonts):
                holes.append(f"page {k}: the slide has {slide['math']} formulas, the page no maths font ({fonts})")
        words = [(line_no, *w) for line_no, line in enumerate(lines) for w in line]
        text = [w[5] for w in words]
        for before, after, formula, legit in slide["neighbours"]:
            found = []
            for i in range(len(before) - 1, len(words) - len(after) + 1):
                a, b = words[i - 1], words[i]
                # the formula's two words either side, in order, with nothing between them;
                # the two closest on one line, a space apart (not the formula's width)
                if (
                    a[0] == b[0]
                    and b[1] - a[3] < 0.6 * em(a, b)
                    and text[i - len(before) : i] == list(before[:-1]) + [text[i - 1]]
                    and text[i - 1].endswith(before[-1])
                    and text[i : i + len(after)] == [text[i]] + list(after[1:])
                    and text[i].startswith(after[0])
                ):
                    found.append(
                        f"page {k}: {' '.join(text[i - len(before) : i + len(after)])!r}, where {formula} should be"
                    )
            if len(found) > legit:  # more often than the slide's own text has these words side by side
                holes += found
    assert holes == [], f"{deck}.pdf:\n" + "\n".join(holes)


@pytest.mark.parametrize("deck", DECKS)
def test_every_figure_of_the_deck_is_whole_on_its_page(deck):
    from pypdf import PdfReader

    pdf = _pdf(deck)
    reader = PdfReader(pdf)
    slides, images = deck_slides(deck), page_images(pdf)
    assert len(reader.pages) == len(slides)
    problems = []
    for k, (slide, page) in enumerate(zip(slides, reader.pages), 1):
        missing = Counter(slide["pngs"]) - Counter(images.get(k, []))
        if missing:
            problems.append(f"page {k}: figures {dict(missing)} (px) of the slide are not on the page")
        if slide["vectors"] and vector_boxes(page) < slide["vectors"]:
            problems.append(f"page {k}: {slide['vectors']} vector figures on the slide, {vector_boxes(page)} drawn")
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        for w, h, (a, b, c, d) in drawn_images(page):
            if (w, h) in slide["pngs"] and (a < x0 - 1 or b < y0 - 1 or c > x1 + 1 or d > y1 + 1):
                problems.append(
                    f"page {k}: the {w}x{h} figure is drawn at {a:.0f},{b:.0f}-{c:.0f},{d:.0f}, beyond the page"
                )
    assert problems == [], f"{deck}.pdf:\n" + "\n".join(problems)


@pytest.mark.parametrize("deck", DECKS)
def test_figures_are_sized_for_the_page(deck):
    """Figures once printed at screen size in the top half of the page. On every page with a
    figure, the figure spans the page's width or the slide reaches down the page."""
    from pypdf import PdfReader

    pdf = _pdf(deck)
    reader, words, slides = PdfReader(pdf), page_words(pdf), deck_slides(deck)
    assert len(reader.pages) == len(slides)
    small = []
    for k, (page, slide) in enumerate(zip(reader.pages, slides), 1):
        images = [box for w, h, box in drawn_images(page) if (w, h) in slide["pngs"]]
        if not images:
            continue
        width, height = float(page.mediabox[2]), float(page.mediabox[3])
        text = [w for line in words[k - 1] for w in line][:-1]  # the slide number, bottom right, left out
        bottom = max([w[3] for w in text] + [height - b for _, b, _, _ in images])
        widest = max(c - a for a, _, c, _ in images)
        if bottom < 0.8 * height and widest < 0.85 * width:
            small.append(
                f"page {k}: the slide ends {bottom / height:.0%} down the page, its widest figure spans {widest / width:.0%}"
            )
    assert small == [], f"{deck}.pdf:\n" + "\n".join(small)


def test_chinese_is_drawn_as_real_glyphs(tmp_path):
    """我 爱 猫 are text (pdftotext finds them) drawn as three different glyphs: with no CJK font
    Chromium draws each as the same empty box (the text layer still says 我 爱 猫)."""
    pdf = _pdf("10_cross_attention")
    assert all(ch in _run("pdftotext", str(pdf), "-") for ch in "我爱猫"), (
        "chapter 10's handout has no 我 爱 猫 as text"
    )
    for k, lines in enumerate(page_words(pdf), 1):  # noqa: B007  (k is used after the loop)
        words = {w[4]: w for line in lines for w in line}
        if all(ch in words for ch in "我爱猫"):
            break
    else:
        pytest.fail("no page of 10_cross_attention.pdf has 我, 爱 and 猫 as separate words")
    assert_distinct_glyphs(pdf, k, [(ch, words[ch][:4]) for ch in "我爱猫"], tmp_path)


def assert_distinct_glyphs(pdf: Path, page: int, boxes: list[tuple[str, tuple]], tmp_path: Path) -> None:
    """The characters at `boxes` ((char, (x0, y0, x1, y1)) in points) on `page` are drawn, and drawn
    differently from each other: with no CJK font, Chromium draws every one as the same empty box."""
    from PIL import Image, ImageChops

    dpi, glyphs = 150, []
    for _ch, (x0, y0, x1, y1) in boxes:
        box = [round(v * dpi / 72) for v in (x0, y0, x1 - x0, y1 - y0)]
        _run(
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-x",
            str(box[0]),
            "-y",
            str(box[1]),
            "-W",
            str(box[2]),
            "-H",
            str(box[3]),
            "-gray",
            "-png",
            "-singlefile",
            str(pdf),
            str(tmp_path / "g"),
        )
        glyphs.append(Image.open(tmp_path / "g.png").convert("L").resize((48, 48)))
    chars = "".join(ch for ch, _ in boxes)
    inked = [sum(1 for v in g.getdata() if v < 128) for g in glyphs]
    assert all(n > 20 for n in inked), f"{pdf.name} page {page}: {chars} leave {inked} dark pixels: not drawn"
    for i in range(len(glyphs)):
        for j in range(i + 1, len(glyphs)):
            diff = sum(1 for v in ImageChops.difference(glyphs[i], glyphs[j]).getdata() if v > 96)
            assert diff > 40, (
                f"{pdf.name} page {page}: {chars[i]} and {chars[j]} are drawn alike ({diff} pixels differ): "
                "boxes, not glyphs"
            )


@pytest.mark.parametrize("deck", [d for d in DECKS if d.startswith("zh_CN/")])
def test_a_chinese_handout_is_chinese_drawn_as_real_glyphs(deck, tmp_path):
    """Every page of a Chinese handout has Chinese text (pdftotext): none is left in English; and its
    Chinese is drawn in a CJK font: the first run of three different Chinese characters on the first
    page (its title; full-width glyphs, so each takes an equal share of the run's box) is three
    different glyphs, not three boxes."""
    pdf = _pdf(deck)
    pages = _run("pdftotext", str(pdf), "-").split("\f")
    english = [k for k, text in enumerate(pages, 1) if text.strip() and not CJK.search(text)]
    assert english == [], f"{deck}.pdf: pages {english} have no Chinese"
    for x0, y0, x1, y1, text in (w for line in page_words(pdf)[0] for w in line):
        if len(text) >= 3 and all(CJK.fullmatch(ch) for ch in text) and len(set(text[:3])) == 3:
            step = (x1 - x0) / len(text)
            boxes = [(text[i], (x0 + i * step, y0, x0 + (i + 1) * step, y1)) for i in range(3)]
            assert_distinct_glyphs(pdf, 1, boxes, tmp_path)
            return
    pytest.fail(f"{deck}.pdf: no run of three different Chinese characters on its first page")


def _links(pdf: Path) -> list[tuple[int, str]]:
    """(page from 1, URI) of every link annotation of a PDF (pypdf)."""
    from pypdf import PdfReader

    found = []
    for k, page in enumerate(PdfReader(pdf).pages, 1):
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            if "/URI" in action:
                found.append((k, str(action["/URI"])))
    return found


def test_no_handout_links_the_printers_own_server():
    """Once: all 176 links of the 24 PDFs pointed at the build's temporary server (http://127.0.0.1:NNNNN/…),
    the course's chapter list too. A link goes to the published book (html.baseurl in _config.yml) or to
    another site, else it is not there."""
    from scripts.build_handouts import published_site

    base = published_site()
    pdfs = sorted({_pdf(lang + d) for lang in LANGS for d in [*CHAPTERS, "course"]})
    pdfs += sorted((SLIDES / "pdf" / "parts").glob("*.pdf")) + sorted(
        (SLIDES / "zh_CN" / "pdf" / "parts").glob("*.pdf")
    )
    pdfs += [
        SLIDES / lang / "pdf" / f"{kind}{paper}.pdf"
        for lang in LANGS
        for kind in ("exercises", "answers")
        for paper in ("", "-letter")
    ]
    pdfs += [
        SLIDES / lang / "pdf" / f"{d}{paper}.pdf" for lang in LANGS for d in CHAPTERS for paper in ("-a4", "-letter")
    ]
    local = re.compile(r"^(https?://)?(127\.0\.0\.1|localhost|\[::1\])([:/]|$)|^(file:|/|\.)", re.I)
    wrong = [
        (pdf.relative_to(SLIDES).as_posix(), k, uri) for pdf in pdfs for k, uri in _links(pdf) if local.search(uri)
    ]
    assert wrong == [], f"{len(wrong)} handout links point at the printer's server or a local file: {wrong[:5]}"
    if base is not None:  # a link to the book goes to a chapter's page there
        to_book = [uri for pdf in pdfs for _k, uri in _links(pdf) if uri.startswith(base)]
        assert to_book and all(re.match(re.escape(base) + r"(zh_CN/)?book/[\w-]+\.html", u) for u in to_book)


def test_the_published_book_is_read_from_the_config(tmp_path):
    from scripts.build_handouts import published_site

    config = tmp_path / "_config.yml"
    config.write_text("html:\n  use_repository_button: true\n")
    assert published_site(config) is None
    config.write_text("html:\n  baseurl: https://example.org/attention\n")
    assert published_site(config) == "https://example.org/attention/"
    config.write_text("html:\n  baseurl: example.org\n")
    with pytest.raises(ValueError, match="html.baseurl must be an http"):
        published_site(config)


@pytest.mark.parametrize("lang", LANGS)
def test_no_handout_prints_the_checkers_not_answered_yet(lang):
    """Once: under every exercise the handouts printed the checker's "Not answered yet: replace the
    ... with s_new." (the book runs the exercises unanswered); and every solution is printed, on a page
    of its own (in a deck it is a slide of its own, never a closed dropdown)."""
    from attention_steps.i18n import _, language

    with language(lang.rstrip("/") or "en"):
        said = _("Not answered yet: replace the ... with {name}.").split("{name}")[0].strip()
    solution = {"": "Solution ", "zh_CN/": "答案 "}[lang]  # the dropdowns' titles (the book's catalogues)
    found, solutions = [], 0
    for deck in CHAPTERS:
        pages = _run("pdftotext", str(_pdf(lang + deck)), "-").split("\f")
        found += [(deck, k) for k, text in enumerate(pages, 1) if said in " ".join(text.split())]
        opening = [text.strip().splitlines()[0] for text in pages if text.strip()]
        solutions += sum(1 for line in opening if line.startswith(solution) and not re.search(r"continued|续", line))
    assert found == [], f"handouts print {said!r} on (deck, page) {found}"
    written = sum(
        len(re.findall(r"^:::\{dropdown\} Solution\b", "\n".join("".join(c["source"]) for c in _cells(d)), re.M))
        for d in CHAPTERS
    )
    assert solutions == written, f"{lang}: {written} solutions in the chapters, {solutions} handout pages open with one"


def _cells(stem: str) -> list[dict]:
    import json

    return json.loads((ROOT / "book" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
