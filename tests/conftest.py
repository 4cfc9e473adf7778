"""Shared fixtures: the built book served on
127.0.0.1, and a browser page that records anything that would break offline.

The browser is whichever scripts/browser.py finds (set ATTENTION_BROWSER to
choose one); every wait is bounded by its generous TIMEOUT_MS, never by
Playwright's 30 s default, so a busy machine makes a test slower, not red."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import HealthCheck, settings

from scripts.browser import TIMEOUT_MS, BrowserNotFound, block_other_hosts, is_local, new_context, serve  # noqa: F401
from scripts.build_paths import SITE as HTML  # BOOK_HTML points the tests at another build
from scripts.build_paths import SLIDES  # SLIDES_OUT likewise, for the decks

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"

# Property tests check properties, not speed: Hypothesis's default 200 ms deadline per
# example and its "too slow" health check fail a good test on a busy machine.
settings.register_profile("attention", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("attention")

# ----------------------------------------------------------------------------- tiers
# Every test belongs to one tier (pytest.ini registers them; `pytest -m unit` picks one):
#   unit       no build, no browser: the core, the teaching layer, the scripts' logic
#   book       reads the built output (_build/html, _build/slides, _build/learner, the cache)
#   browser    drives Chromium or JupyterLab over the built output
#   build      runs a build of its own in a temporary folder (Sphinx, the slides, the handouts)
#   install    makes fresh virtual environments and pip-installs the package into them
# A test says its tier with a marker; one that says none is put in a tier by the fixtures it
# uses (browser, offline_page, lab -> browser; site, slides_url -> book), else in `unit`.
TIERS = ("unit", "book", "browser", "build", "install")
BROWSER_FIXTURES = {"browser", "offline_page", "lab"}
BOOK_FIXTURES = {"site", "slides_url"}
BUILT = (HTML / "index.html").exists() and (SLIDES / "index.html").exists()
NOT_BUILT = "needs the built book: run `bash scripts/build.sh` first (or pick the unit tier: pytest -m unit)"


def tier(item) -> str:
    """The tier of a collected test (the marker it carries, or the one its fixtures imply)."""
    marked = [m.name for m in item.iter_markers() if m.name in TIERS]
    if marked:
        return marked[0]
    names = set(getattr(item, "fixturenames", ()))
    if names & BROWSER_FIXTURES:
        return "browser"
    if names & BOOK_FIXTURES:
        return "book"
    return "unit"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not any(m.name in TIERS for m in item.iter_markers()):
            item.add_marker(tier(item))
        item.user_properties.append(("tier", tier(item)))  # in --junitxml's report: scripts/bench_suite.py sums by it


def pytest_runtest_setup(item):
    """A test that reads the build skips, with one reason, when there is no build at all. When the
    build is there but a file a test needs is missing, the test fails: the build is broken."""
    if not BUILT and tier(item) in ("book", "browser"):
        pytest.skip(NOT_BUILT)


# What a test waits for once a page is open, instead of Playwright's "networkidle" (no request for
# 500 ms, which a loaded machine may not see within any bound): the page has landed (loaded, and
# not about to follow a meta refresh, as index.html does), then its fonts and images are loaded.
LANDED = """() => document.readyState === 'complete' && !document.querySelector('meta[http-equiv="refresh" i]')"""
SETTLED = """() => document.fonts.status === 'loaded' && [...document.images].every(i => i.complete)"""

# Page JS, for wait_for_function: true once MathJax has typeset the page and put its
# output (mjx-container) in it, or at once when the page has no maths.
MATH_DONE = """() => {
  if (!document.querySelector('.math')) return true;
  if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return false;
  if (!window.__mathState) {
    window.__mathState = 'pending';
    MathJax.startup.promise.then(() => { window.__mathState = 'done'; });
  }
  return window.__mathState === 'done' && document.querySelectorAll('mjx-container').length > 0;
}"""


def assert_raises_naming(call, error, words):
    """call() raises `error` whose message contains every one of `words` (a clear error names
    the argument, the shapes and what was expected)."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} missing from: {message}"


@pytest.fixture(scope="session")
def site():
    """Base URL of the built book, served locally."""
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `bash scripts/build.sh` (scripts/test.sh does it first)")
    url, server = serve(HTML)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    """The browser scripts/browser.py finds, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    from scripts import browser as finder

    try:
        finder.browser()
    except BrowserNotFound as e:
        pytest.fail(f"{e}\n(scripts/setup.sh installs Debian's chromium when it finds none)")
    with sync_playwright() as p:
        b = finder.launch(p)
        yield b
        b.close()


class OfflinePage:
    """A page whose every request to another host is blocked and recorded,
    along with page errors, console errors, failed loads and HTTP errors."""

    def __init__(self, browser, **context_options):
        self.context = new_context(browser, **context_options)  # every wait bounded by TIMEOUT_MS
        self.page = self.context.new_page()
        self.foreign = block_other_hosts(self.context)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        self.page.on(
            "requestfailed",
            lambda r: (
                self.problems.append(f"failed to load {r.url}: {r.failure}")
                if urlparse(r.url).hostname == "127.0.0.1"
                else None
            ),
        )
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status} for {r.url}"))

    def close(self):
        self.context.close()


@pytest.fixture
def offline_page(browser):
    """Factory: offline_page(**context options) -> OfflinePage, closed after the test."""
    pages = []

    def make(**options):
        pages.append(OfflinePage(browser, **options))
        return pages[-1]

    yield make
    for p in pages:
        p.close()


@pytest.fixture(scope="module")
def slides_url():
    """The built slide decks, served from localhost for one test module."""
    if not (SLIDES / "index.html").exists():
        pytest.fail(f"no decks in {SLIDES}: run `bash scripts/build.sh` (scripts/test.sh does it first)")
    url, server = serve(SLIDES)
    yield url
    server.shutdown()
