"""The one place that finds the browser and serves a build on 127.0.0.1.

Everything that drives a browser (the tests, the PDF handouts, the benchmarks,
scripts/setup.sh) asks this module, so there is one answer and one error:

    .venv/bin/python -m scripts.browser        # prints the browser it would use, or what it tried

Where it looks, in order (the first that runs `--version` wins):

1. the environment variable ATTENTION_BROWSER (a path or a command name);
   set but unusable is an error, never silently skipped;
2. commands on PATH: chromium, chromium-browser, google-chrome-stable,
   google-chrome, chrome;
3. the usual install paths: /usr/bin/chromium, /usr/bin/chromium-browser,
   /usr/bin/google-chrome, /opt/google/chrome/chrome,
   /usr/local/share/chromium/chrome-linux/chrome (GitHub's Ubuntu runners);
4. Playwright's own browser, if `playwright install chromium` put one in
   $PLAYWRIGHT_BROWSERS_PATH or ~/.cache/ms-playwright;
5. the snap /snap/bin/chromium, last: a snap browser cannot read the profile
   folder Playwright makes in /tmp, so it works only on some systems.

A command that is only Ubuntu's transitional wrapper for the snap (the
`chromium-browser` or `chromium` script that asks you to install the snap) is
skipped as a snap. This module uses only the standard library (setup.sh runs
it before the virtual environment exists); Playwright is imported only by
`launch`.
"""

from __future__ import annotations

import functools
import glob
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

ENV = "ATTENTION_BROWSER"
COMMANDS = ("chromium", "chromium-browser", "google-chrome-stable", "google-chrome", "chrome")
PATHS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/opt/google/chrome/chrome",
    "/usr/local/share/chromium/chrome-linux/chrome",
)
SNAP = "/snap/bin/chromium"
# What Chromium needs to run headless here: as root or in a container there is no
# sandbox, and there is no GPU.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Generous bounds for a busy machine (2 shared cores): starting the browser, a
# navigation, any wait. A wait ends as soon as its condition holds; the bound
# only turns a real hang into a failure.
TIMEOUT_MS = 120_000


class BrowserNotFound(RuntimeError):
    """No usable Chrome or Chromium; the message lists every place tried and why it failed."""


@dataclass(frozen=True)
class Found:
    path: str  # what to launch
    version: str  # what it says it is, e.g. "Chromium 131.0.6778.85 built on Debian"
    how: str  # where it was found, e.g. "$ATTENTION_BROWSER" or "chromium on PATH"


def playwright_browsers(home: Path | None = None, env: dict | None = None) -> list[str]:
    """Chromium builds that `playwright install` downloaded, newest revision first."""
    env = os.environ if env is None else env
    root = env.get("PLAYWRIGHT_BROWSERS_PATH") or str((home or Path.home()) / ".cache" / "ms-playwright")
    patterns = ("chromium-*/chrome-linux*/chrome", "chromium_headless_shell-*/chrome-*linux*/*headless*shell")
    found = [p for pattern in patterns for p in glob.glob(os.path.join(root, pattern))]

    def revision(p: str) -> int:
        m = re.search(r"chromium(?:_headless_shell)?-(\d+)", p)
        return int(m.group(1)) if m else 0

    return sorted(found, key=lambda p: (-revision(p), "headless" in p))


def _is_snap_wrapper(path: str) -> bool:
    """Ubuntu's `chromium`/`chromium-browser` debs are small scripts that run (or ask for) the snap."""
    real = os.path.realpath(path)
    if real.startswith("/snap/"):
        return True
    try:
        with open(real, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"snap" in head


def _version(path: str, timeout: float = 60) -> tuple[str | None, str]:
    """(version string, "") if `path --version` runs and names Chrome/Chromium, else (None, why not)."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"does not run ({e.__class__.__name__}: {e})"
    out = (done.stdout + done.stderr).strip()
    if done.returncode == 0 and re.search(r"(Chromium|Chrome|chrome-headless-shell)\b.*\d", out):
        return out.splitlines()[0], ""
    return None, f"`--version` exited {done.returncode}: {out[:120]!r}"


def candidates(env: dict | None = None, home: Path | None = None, paths=PATHS, snap=SNAP):
    """(how, path or None, why skipped) for every place looked, in order (the finder's search order)."""
    env = os.environ if env is None else env
    path_var = env.get("PATH", os.defpath)
    for name in COMMANDS:
        where = shutil.which(name, path=path_var)
        yield (f"{name} on PATH", where, "" if where else "not on PATH")
    for p in paths:
        yield (p, p if os.access(p, os.X_OK) else None, "" if os.access(p, os.X_OK) else "no such file")
    pw = playwright_browsers(home, env)
    if pw:
        for p in pw:
            yield ("Playwright's own browser", p, "")
    else:
        root = env.get("PLAYWRIGHT_BROWSERS_PATH") or "~/.cache/ms-playwright"
        yield (f"Playwright's own browser in {root}", None, "none installed")
    yield (snap, snap if os.access(snap, os.X_OK) else None, "" if os.access(snap, os.X_OK) else "no such file")


def find_browser(env: dict | None = None, home: Path | None = None, paths=PATHS, snap=SNAP) -> Found:
    """The browser to drive, or BrowserNotFound listing everything tried. See the module docstring.

    `env`, `home`, `paths` and `snap` default to this system's (the tests pass others)."""
    env = os.environ if env is None else env
    wanted = env.get(ENV, "").strip()
    if wanted:
        path = wanted if os.sep in wanted else shutil.which(wanted, path=env.get("PATH", os.defpath))
        if not path or not os.access(path, os.X_OK):
            raise BrowserNotFound(f"${ENV} is {wanted!r}, which is not an executable file or command on PATH")
        version, why = _version(path)
        if version is None:
            raise BrowserNotFound(f"${ENV} is {wanted!r}, which {why}")
        return Found(path, version, f"${ENV}")
    tried, seen = [f"${ENV}: not set"], set()
    for how, path, why in candidates(env, home, paths, snap):
        if path is None:
            tried.append(f"{how}: {why}")
            continue
        real = os.path.realpath(path)
        if real in seen:
            tried.append(f"{how}: {path} (already tried)")
            continue
        seen.add(real)
        if path != snap and _is_snap_wrapper(path):
            tried.append(f"{how}: {path} is a wrapper for the snap (tried last, as {snap})")
            continue
        version, why = _version(path)
        if version is not None:
            return Found(path, version, how)
        tried.append(f"{how}: {path} {why}")
    raise BrowserNotFound(
        "no Chrome or Chromium found. Tried:\n  - " + "\n  - ".join(tried) + "\n"
        f"Install one (Debian: `sudo apt-get install chromium`; Ubuntu and others: Google Chrome's .deb/.rpm, "
        f"or `.venv/bin/python -m playwright install chromium`), or point the build at one: "
        f"`export {ENV}=/path/to/chrome`."
    )


@functools.lru_cache(maxsize=1)
def browser() -> Found:
    """find_browser() for this process (looked up once)."""
    return find_browser()


def launch(playwright, **options):
    """Start the found browser headless with Playwright: `launch(p)` inside `with sync_playwright() as p`."""
    found = browser()
    options.setdefault("timeout", TIMEOUT_MS)
    return playwright.chromium.launch(executable_path=found.path, args=ARGS, **options)


def new_context(browser_, **options):
    """A browser context whose every wait and navigation is bounded by TIMEOUT_MS, not Playwright's 30 s."""
    context = browser_.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


def is_local(url: str) -> bool:
    """May a page load this? Only from our own server (and data:/blob: URLs)."""
    parsed = urlparse(url)
    return parsed.scheme in ("data", "blob") or parsed.hostname == "127.0.0.1"


def block_other_hosts(target) -> list[str]:
    """Let `target` (a Playwright browser context or page) load only what is_local allows; abort
    every other request. Returns the list the refused URLs are appended to, as they happen."""
    refused: list[str] = []

    def route(r):
        if is_local(r.request.url):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    target.route("**/*", route)
    return refused


# --------------------------------------------------------------------------- the local server
class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test and build logs readable
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that closes a connection mid-response (a page torn down by
        # the next test) is normal here, not worth a traceback in the log.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 on a free port; returns (base_url, server). Stop with server.shutdown()."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Print the browser the build, tests and benchmarks use.")
    parser.add_argument("--path", action="store_true", help="print only its path")
    args = parser.parse_args(argv)
    try:
        found = find_browser()
    except BrowserNotFound as e:
        print(f"browser: {e}", file=sys.stderr)
        return 1
    print(found.path if args.path else f"{found.path} ({found.version}; found as {found.how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
