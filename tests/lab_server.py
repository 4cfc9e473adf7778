"""A JupyterLab server for the browser tests: the venv's, on 127.0.0.1 on a free port, with a
token, its own config, runtime, settings and workspaces under a temporary folder, and nothing
that asks the network (no news, no update check, a read-only extension manager).

    with jupyterlab(folder, root=..., settings={...}, env=...) as (base, token, settings_dir):
        ...

Used by tests/test_explorers_hosts.py and tests/test_learner_jupyterlab.py.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import TIMEOUT_MS

# No news or update checks: they would ask the network.
OFFLINE_SETTINGS = {"@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_settings(settings_dir: Path, plugin: str, values: dict):
    """Write a plugin's user settings, e.g. plugin "@jupyterlab/notebook-extension/tracker"."""
    path = settings_dir / f"{plugin}.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values))


@contextmanager
def jupyterlab(
    folder: Path, root: Path | None = None, settings: dict[str, dict] | None = None, env: dict | None = None
):
    """Start JupyterLab serving `root` (default folder/"work"), with `settings` ({plugin: values})
    written to its user settings, in `env` (default os.environ) plus its own folders under `folder`.
    Yields (base URL, token, settings folder) once /api/status answers (bounded by TIMEOUT_MS);
    stops the server afterwards."""
    root = root or folder / "work"
    settings_dir = folder / "settings"
    for plugin, values in {**OFFLINE_SETTINGS, **(settings or {})}.items():
        write_settings(settings_dir, plugin, values)
    for name in ("config", "runtime", "ipython", "workspaces"):
        (folder / name).mkdir(exist_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    env = {
        **(os.environ if env is None else env),
        "JUPYTER_CONFIG_DIR": str(folder / "config"),
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
        "IPYTHONDIR": str(folder / "ipython"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings_dir),
        "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"),
    }
    token, port = secrets.token_hex(16), free_port()
    log_path = folder / "lab.log"
    log = log_path.open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={settings_dir}",
            f"--LabApp.workspaces_dir={folder / 'workspaces'}",
            "--ServerApp.allow_root=True",  # containers run tests as root
            "--LabApp.extension_manager=readonly",  # no PyPI queries for the extension manager
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp, for the tests to read the notebook's state
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        cwd=root,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while True:  # until the server answers, or exits, or the bound is reached
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            try:
                server.wait(timeout=0.25)  # paces the polling: returns early only if the server exited
            except subprocess.TimeoutExpired:
                if time.monotonic() < deadline:
                    continue
            pytest.fail(f"JupyterLab did not start:\n{log_path.read_text()[-3000:]}")
        yield base, token, settings_dir
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
