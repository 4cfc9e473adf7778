"""The Chinese edition's interface speaks Chinese: none of the theme's, Sphinx's or myst-nb's words
in English on a Chinese page, as a reader sees them and a screen reader reads them (text, tooltips,
accessible names, the search box), in Chromium with every other host blocked.

The words come from the production's catalogue ahead of the installed ones
(book/_ext/i18n_edition.py, THEME_WORDS and CONFIG_WORDS); the last test tells when the installed
catalogues have caught up and that override can go.
"""

from __future__ import annotations

import gettext
import importlib.util
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import LANDED, ROOT

# What Chinese pages showed in English, as a Chinese reader found them: each must be gone.
ENGLISH_INTERFACE = [
    "Link to this heading",
    "Show code cell source",
    "Hide code cell source",
    "Search this book",
    "Color mode",
    "System Settings",
    "Light",
    "Dark",
    "Toggle primary sidebar",
    "Toggle secondary sidebar",
    "Source repositories",
    "Repository",
    "Open issue",
    "Launch interactive content",
    "Launch on",
    "Print to PDF",
    "Download this page",
    "Fullscreen mode",
    "Binder logo",
    "Colab logo",
    "Toggle hidden content",
    "The Attention, Step by Step authors",
    "列印",
]
CHINESE_PAGES = [
    "zh_CN/book/intro.html",
    "zh_CN/book/03_scaling.html",
    "zh_CN/book/12_backward.html",
    "zh_CN/search.html",
]

# Every string a reader or a screen reader meets: visible text nodes and the attributes that name,
# describe or fill in (tooltips keep theirs in data-bs-original-title once Bootstrap has taken them).
INTERFACE_STRINGS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const tag = n.parentElement && n.parentElement.tagName;
    if (tag !== 'SCRIPT' && tag !== 'STYLE' && n.textContent.trim()) out.push(n.textContent.trim());
  }
  const names = ['title', 'aria-label', 'placeholder', 'alt', 'data-bs-title', 'data-bs-original-title'];
  for (const el of document.querySelectorAll('*')) {
    for (const a of names) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("page_path", CHINESE_PAGES)
def test_a_chinese_page_shows_no_english_interface_words(site, offline_page, page_path):
    p = offline_page()
    p.page.goto(f"{site}/{page_path}")
    p.page.wait_for_function(LANDED)
    # book.js (deferred) has named the theme's landmarks, and the code toggles exist where there is code
    p.page.wait_for_function("() => !document.querySelector('nav.bd-docs-nav[aria-label=\"Main\"]')")
    strings = p.page.evaluate(INTERFACE_STRINGS)
    # a phrase anywhere; a single word only as a whole string (a button's text, a tooltip)
    english = sorted({w for w in ENGLISH_INTERFACE for s in strings if (w in s if " " in w or "列" in w else s == w)})
    assert not english, f"{page_path}: {english}"
    assert "编写组" in p.page.inner_text(".component-author"), page_path  # the footer names the authors in Chinese


def _installed_translation(domain: str, folder: Path, message: str) -> str:
    try:
        return gettext.translation(domain, localedir=str(folder), languages=["zh_CN"]).gettext(message)
    except OSError:
        return message


@pytest.mark.unit
def test_the_installed_catalogues_still_miss_words_the_override_gives():
    """Tells when the override in i18n_edition.py can go: it stays while an installed catalogue leaves
    one of THEME_WORDS in English (or, for "Print to PDF", in Taiwan's usage)."""
    spec = importlib.util.spec_from_file_location("i18n_edition", ROOT / "book" / "_ext" / "i18n_edition.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)

    def package(name: str) -> Path:
        return Path(importlib.util.find_spec(name).origin).parent

    folders = {
        "sphinx": [package("sphinx") / "locale", package("pydata_sphinx_theme") / "locale"],
        "booktheme": [package("sphinx_book_theme") / "theme" / "sphinx_book_theme" / "static" / "locales"],
    }
    untranslated = []
    for word in ext.THEME_WORDS:
        found = [_installed_translation(d, f, word) for d, fs in folders.items() for f in fs]
        if all(t == word or "列印" in t for t in found):
            untranslated.append(word)
    assert untranslated, (
        "the installed catalogues now translate every word of THEME_WORDS: drop them from "
        "book/_ext/i18n_edition.py (and locale/zh_CN/chrome.po) and let the installed ones speak"
    )


def _glossary_terms() -> list[str]:
    """The Chinese names of the glossary's terms as a reader would type them: 查询、键、值 gives three."""
    from bs4 import BeautifulSoup

    from conftest import HTML

    soup = BeautifulSoup((HTML / "zh_CN" / "book" / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    names = [dt.get_text(" ", strip=True).split("（")[0] for dt in soup.select("dl.glossary dt")]
    return sorted({part.strip() for name in names for part in name.split("、") if re.search(r"[\u4e00-\u9fff]", part)})


# The search page's summary once a search has finished: "found N pages" or "did not match".
SEARCH_DONE = """() => typeof Search !== 'undefined' && !!Search._index && !Search._queued_query
  && !!document.querySelector('#search-results .search-summary')
  && !Search._pulse_status_running
  && document.querySelector('#search-results .search-summary').textContent.trim().length > 0
  && !/\\.\\.\\.$|…$/.test(document.querySelector('#search-results .search-summary').textContent.trim())"""


@pytest.mark.browser
def test_the_chinese_search_finds_every_glossary_term_as_typed(site, offline_page):
    """Typed as one run of characters (多头注意力), with a space (多头 注意力), or as one character (键)."""
    terms = _glossary_terms()
    assert {"自注意力", "键", "值", "多头注意力", "注意力权重", "加权求和", "输出投影"} <= set(terms), terms
    queries = [*terms, "头", "因果掩码", "雅可比矩阵", "多头 注意力"]
    p = offline_page()
    missed = []
    for q in queries:
        p.page.goto(f"{site}/zh_CN/search.html?q={quote(q)}")
        p.page.wait_for_function(SEARCH_DONE)
        if not p.page.locator("#search-results ul.search li").count():
            missed.append(q)
    assert not missed, f"the Chinese search finds nothing for {missed}"


@pytest.mark.browser
@pytest.mark.parametrize(
    "start,twin",
    [("book/03_scaling.html", "zh_CN/book/03_scaling.html"), ("zh_CN/book/03_scaling.html", "book/03_scaling.html")],
)
def test_the_language_switch_keeps_the_section_being_read(site, offline_page, start, twin):
    """A reader halfway down a chapter who switches language lands on the same section of its twin."""
    p = offline_page()
    p.page.goto(f"{site}/{start}")
    p.page.wait_for_function(LANDED)
    # the maths typeset first: it changes the page's height, and so where a section sits
    p.page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
    p.page.evaluate("document.getElementById('what-each-divisor-does').scrollIntoView()")
    p.page.wait_for_function(
        "() => Math.abs(document.getElementById('what-each-divisor-does').getBoundingClientRect().top) < 96"
    )
    link = p.page.locator("a.lang-switch__link").first
    link.focus()  # by keyboard: focus the switch, press Enter (a click would scroll the page to reach it)
    with p.page.expect_navigation():
        p.page.keyboard.press("Enter")
    assert p.page.url == f"{site}/{twin}#what-each-divisor-does"


@pytest.mark.browser
def test_the_language_switch_keeps_a_search_and_its_query(site, offline_page):
    p = offline_page()
    p.page.goto(f"{site}/search.html?q=softmax")
    p.page.wait_for_function(SEARCH_DONE)
    with p.page.expect_navigation():
        p.page.locator("a.lang-switch__link").first.click()
    assert p.page.url == f"{site}/zh_CN/search.html?q=softmax"
    p.page.wait_for_function(SEARCH_DONE)
    assert p.page.locator("#search-results ul.search li").count() > 0  # the twin ran the same search
