"""Every built page, opened in Chromium with the network blocked but for 127.0.0.1."""

from __future__ import annotations

import pytest
from test_accessibility import PAGES as PAGES_AUDITED

from conftest import HTML, LANDED, SETTLED, SLIDES, TIMEOUT_MS

# Pages of the book; _static/ and _sources/ hold assets, not pages. The decks published inside the
# book (slides/) are the standalone decks with their book links put back, which
# test_published_decks_are_the_standalone_decks_with_book_links checks byte for byte; the standalone
# decks are opened in test_slides.py. So only the slides' index pages are opened here.
DECKS_PUBLISHED = sorted(
    p
    for folder in (HTML / "slides", HTML / "slides" / "zh_CN")
    for p in folder.glob("*.html")
    if p.name != "index.html"
)
# The book's own pages are opened once, in tests/test_accessibility.py, for this file's checks and
# axe's together (offline_clean below); here the rest: the slides' index pages and the speaker view.
BOOK_PAGES = set(PAGES_AUDITED)
PAGES = sorted(
    str(p.relative_to(HTML))
    for p in HTML.rglob("*.html")
    if not any(part.startswith("_") for part in p.relative_to(HTML).parts)
    and p not in DECKS_PUBLISHED
    and str(p.relative_to(HTML)) not in BOOK_PAGES
)


@pytest.mark.book
def test_published_decks_are_the_standalone_decks_with_book_links():
    """What a reader opens from the book is what tests/test_slides.py opened in the browser."""
    from scripts.slides.site import published

    assert len(DECKS_PUBLISHED) >= 24, DECKS_PUBLISHED
    for deck in DECKS_PUBLISHED:
        rel = deck.relative_to(HTML / "slides")
        lang = rel.parts[0] if len(rel.parts) > 1 else "en"
        standalone = SLIDES / rel
        assert standalone.exists(), f"{rel} is published but not in {SLIDES}"
        assert deck.read_text(encoding="utf-8") == published(standalone.read_text(encoding="utf-8"), lang), (
            f"{rel}: the published deck is not the standalone deck with its book links"
        )


# MathJax has started on a page with math (waited for with page.wait_for_function) ...
MATHJAX_STARTED = "!document.querySelector('.math') || !!(window.MathJax && MathJax.startup && MathJax.startup.promise)"
# ... then resolves once it has typeset the page (or at once if the page has no math).
WAIT_FOR_MATH = """async () => {
  if (!document.querySelector('.math')) return true;
  await MathJax.startup.promise;
  return true;
}"""

# Math left as TeX: a .math element MathJax did not replace, or TeX delimiters in the visible text.
RAW_TEX = """() => {
  const raw = [...document.querySelectorAll('.math')].filter(e => !e.querySelector('mjx-container'));
  const text = document.body.innerText;
  const delims = ['\\\\(', '\\\\[', '$$', '\\\\frac', '\\\\begin{'].filter(d => text.includes(d));
  return raw.map(e => e.textContent.slice(0, 60)).concat(delims.map(d => 'visible ' + d));
}"""

# Images that failed to load or that a screen reader could not describe
# (myst-nb's default alt text is the image's own file name).

BAD_IMAGES = """() => [...document.images]
  .filter(i => {
    const alt = (i.getAttribute('alt') || '').trim(), src = i.getAttribute('src') || '';
    return !i.complete || i.naturalWidth === 0 || !alt || src.endsWith(alt.split('/').pop());
  })
  .map(i => (i.getAttribute('src') || '').slice(0, 80) + (i.naturalWidth ? ' (no alt text)' : ' (broken)'))"""


def assert_offline_clean(p, page_path: str) -> None:
    """The checks of an open, settled page: nothing asked of other hosts, no error, no raw TeX, every
    image loaded and described."""
    assert p.foreign == [], f"{page_path} asked other hosts for: {p.foreign}"
    assert p.problems == [], f"{page_path}: {p.problems}"
    assert p.page.evaluate(RAW_TEX) == [], f"{page_path} shows unrendered TeX"
    assert p.page.evaluate(BAD_IMAGES) == [], f"{page_path} has broken or undescribed images"


@pytest.mark.parametrize("page_path", PAGES or ["(book not built)"])
def test_page_is_offline_clean(site, offline_page, page_path):
    p = offline_page()
    p.page.goto(f"{site}/{page_path}", wait_until="load")
    # The conditions themselves, not "no request for 500 ms" (which a loaded machine never saw
    # within the bound): the page that stays (index.html redirects), typeset, every image and
    # font loaded.
    p.page.wait_for_function(LANDED, timeout=TIMEOUT_MS)
    p.page.wait_for_function(MATHJAX_STARTED, timeout=TIMEOUT_MS)
    p.page.evaluate(WAIT_FOR_MATH)
    p.page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    assert_offline_clean(p, page_path)
