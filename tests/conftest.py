"""Shared fixtures: the core on the import path, the built book served on
127.0.0.1, and a Chromium page that records anything that would break offline."""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
# BOOK_HTML points the browser tests at another build (a helper's partial book, say).
HTML = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))
CHROMIUM = "/usr/bin/chromium"

sys.path.insert(0, str(BOOK))  # `import attention`, as the notebooks beside it do


def built_page(name: str) -> str:
    """The HTML of the built chapter page book/<name>.html; skips the test if it is not built."""
    path = HTML / "book" / f"{name}.html"
    if not path.exists():
        pytest.skip(f"{path} is not built")
    return path.read_text(encoding="utf-8")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that closes a connection mid-response (a page torn down by
        # the next test) is normal here, not worth a traceback in the test log.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 on a free port; returns (base_url, server)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


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
    """Debian's Chromium driven by Playwright (Playwright's own browser download fails here)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install -y chromium` (scripts/test.sh does it)")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        yield b
        b.close()


class OfflinePage:
    """A page whose every request to another host is blocked and recorded,
    along with page errors, console errors, failed loads and HTTP errors."""

    def __init__(self, browser, **context_options):
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        self.foreign: list[str] = []
        self.problems: list[str] = []
        self.context.route("**/*", self._route)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on(
            "console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}")
        )
        self.page.on(
            "requestfailed",
            lambda r: self.problems.append(f"failed to load {r.url}: {r.failure}")
            if urlparse(r.url).hostname == "127.0.0.1"
            else None,
        )
        self.page.on(
            "response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status} for {r.url}")
        )

    def _route(self, route):
        url = route.request.url
        if urlparse(url).scheme in ("data", "blob") or urlparse(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()

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
