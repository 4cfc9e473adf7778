"""The browser finder (scripts/browser.py): one place, an environment variable first,
a clear error naming everything tried; and nothing else hard-codes a browser or
waits on a fixed pause or Playwright's default timeout."""

from __future__ import annotations

import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from scripts import browser as finder


def fake(path: Path, version: str = "Chromium 123.0.6312.0 built on Debian", code: int = 0, body: str = "") -> str:
    """An executable that answers `--version` like a browser (or fails with `code`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\necho '{version}'\nexit {code}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def isolated(tmp_path: Path, **env) -> dict:
    """Arguments for find_browser that see only what the test made (no system browser)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    return dict(
        env={"PATH": str(bin_dir), **env},
        home=tmp_path / "home",
        paths=(str(tmp_path / "usr-bin-chromium"),),
        snap=str(tmp_path / "snap-bin-chromium"),
    )


def test_the_environment_variable_wins_over_everything_on_path(tmp_path):
    fake(tmp_path / "bin" / "chromium", "Chromium 1.0 on PATH")
    mine = fake(tmp_path / "elsewhere" / "my-chrome", "Google Chrome 2.0 of my choosing")
    found = finder.find_browser(**isolated(tmp_path, ATTENTION_BROWSER=mine))
    assert (found.path, found.how) == (mine, "$ATTENTION_BROWSER")
    assert found.version == "Google Chrome 2.0 of my choosing"


def test_the_environment_variable_may_name_a_command_on_path(tmp_path):
    fake(tmp_path / "bin" / "chromium")
    chrome = fake(tmp_path / "bin" / "google-chrome", "Google Chrome 3.0")
    assert finder.find_browser(**isolated(tmp_path, ATTENTION_BROWSER="google-chrome")).path == chrome


@pytest.mark.parametrize("setting", ["/no/such/browser", "no-such-command"])
def test_an_unusable_environment_variable_is_an_error_not_skipped(tmp_path, setting):
    fake(tmp_path / "bin" / "chromium")  # would be found, but the variable says otherwise
    with pytest.raises(finder.BrowserNotFound, match=rf"\$ATTENTION_BROWSER is '{re.escape(setting)}'"):
        finder.find_browser(**isolated(tmp_path, ATTENTION_BROWSER=setting))


def test_a_browser_that_does_not_run_is_skipped_with_its_reason(tmp_path):
    fake(tmp_path / "bin" / "chromium", "error while loading shared libraries: libnss3.so", code=127)
    chrome = fake(tmp_path / "bin" / "google-chrome-stable", "Google Chrome 4.0")
    assert finder.find_browser(**isolated(tmp_path)).path == chrome


def test_order_chromium_then_chrome_then_playwright_then_the_snap(tmp_path):
    args = isolated(tmp_path)
    snap = fake(Path(args["snap"]), "Chromium 5.0 snap")
    assert finder.find_browser(**args).path == snap
    playwright = fake(tmp_path / "home" / ".cache" / "ms-playwright" / "chromium-1200" / "chrome-linux64" / "chrome")
    fake(tmp_path / "home" / ".cache" / "ms-playwright" / "chromium-1100" / "chrome-linux" / "chrome")  # older
    found = finder.find_browser(**args)
    assert (found.path, found.how) == (playwright, "Playwright's own browser")
    chrome = fake(tmp_path / "bin" / "google-chrome", "Google Chrome 6.0")
    assert finder.find_browser(**args).path == chrome
    chromium = fake(tmp_path / "bin" / "chromium", "Chromium 7.0")
    assert finder.find_browser(**args).path == chromium


def test_playwright_browsers_path_is_honoured(tmp_path):
    shell = fake(
        tmp_path / "pw" / "chromium_headless_shell-1300" / "chrome-headless-shell-linux64" / "chrome-headless-shell",
        "chrome-headless-shell 140.0",
    )
    assert finder.find_browser(**isolated(tmp_path, PLAYWRIGHT_BROWSERS_PATH=str(tmp_path / "pw"))).path == shell


def test_ubuntus_snap_wrapper_is_not_taken_for_a_browser(tmp_path):
    body = '# transitional package: the browser is a snap\nexec /snap/bin/chromium "$@"'
    fake(tmp_path / "bin" / "chromium-browser", "Chromium 8.0 (snap)", body=body)
    with pytest.raises(finder.BrowserNotFound, match="is a wrapper for the snap"):
        finder.find_browser(**isolated(tmp_path))


def test_no_browser_error_names_everything_tried_and_the_way_out(tmp_path):
    args = isolated(tmp_path)
    with pytest.raises(finder.BrowserNotFound) as error:
        finder.find_browser(**args)
    message = str(error.value)
    for tried in [
        "$ATTENTION_BROWSER: not set",
        *(f"{name} on PATH: not on PATH" for name in finder.COMMANDS),
        f"{args['paths'][0]}: no such file",
        "Playwright's own browser",
        f"{args['snap']}: no such file",
    ]:
        assert tried in message, f"the error does not say it tried {tried!r}:\n{message}"
    assert "export ATTENTION_BROWSER=" in message and "apt-get install chromium" in message


def test_the_command_line_reports_the_error_and_fails(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "scripts.browser"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path), "ATTENTION_BROWSER": str(tmp_path / "none")},
    )
    assert done.returncode == 1 and "ATTENTION_BROWSER" in done.stderr


# --------------------------------------------------------------------------- one finder, generous waits
BROWSER_CODE = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "scripts").rglob("*.py")])  # tests/pages/ too


def offenders(patterns: tuple[str, ...], skip: tuple[str, ...]) -> list[str]:
    """`file: pattern` for every file of BROWSER_CODE (but those named in `skip`) that matches a pattern."""
    return [
        f"{path.relative_to(ROOT)}: {pattern!r}"
        for path in BROWSER_CODE
        if path.name not in skip
        for pattern in patterns
        if re.search(pattern, path.read_text())
    ]


def test_only_the_finder_names_a_browser_or_makes_a_context():
    found = offenders(
        (r"/usr/bin/chromium", r"executable_path\s*=", r"\.new_context\(", r"chromium\.launch\("),
        skip=("browser.py", Path(__file__).name),
    )
    assert found == [], "use scripts/browser.py (find, launch, new_context) instead of:\n" + "\n".join(found)


def test_no_fixed_pauses_and_no_short_bounds():
    found = offenders(
        (r"wait_for_timeout\(", r"time\.sleep\(", r"timeout\s*=\s*\d{1,2}_?000\b"), skip=(Path(__file__).name,)
    )
    assert found == [], "wait for the condition, bounded by TIMEOUT_MS, instead of:\n" + "\n".join(found)


def test_block_other_hosts_lets_local_requests_through_and_records_the_rest():
    """block_other_hosts (the route every browser user shares) continues 127.0.0.1, data: and
    blob: requests, aborts the rest and returns them in the order refused."""

    class Route:
        def __init__(self, url):
            self.request, self.done = type("Request", (), {"url": url})(), None

        def continue_(self):
            self.done = "continued"

        def abort(self):
            self.done = "aborted"

    class Context:
        def route(self, pattern, handler):
            self.pattern, self.handler = pattern, handler

    context = Context()
    refused = finder.block_other_hosts(context)
    assert context.pattern == "**/*"
    urls = ["http://127.0.0.1:8000/a.js", "https://cdn.example.org/x.js", "data:,1", "http://localhost/b", "blob:x"]
    routes = [Route(u) for u in urls]
    for r in routes:
        context.handler(r)
    assert [r.done for r in routes] == ["continued", "aborted", "continued", "aborted", "continued"]
    assert refused == ["https://cdn.example.org/x.js", "http://localhost/b"]
