"""The environment scripts/setup.sh makes: JupyterLab's extensions all compatible,
kernels that do not flood the build log, and the requirements check setup.sh trusts."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT
from scripts import check_requirements

BIN = Path(sys.executable).parent  # the environment the tests run in (.venv)


def test_jupyterlab_lists_no_incompatible_extension():
    """jupyterlab-rise 0.43 pulled in jupyterlab-mathjax3, which JupyterLab 4 marks with an X."""
    jupyter = BIN / "jupyter"
    if not jupyter.exists():
        pytest.skip(f"no jupyter in {BIN}")
    done = subprocess.run([str(jupyter), "labextension", "list"], capture_output=True, text=True, timeout=600)
    listing = done.stdout + done.stderr
    assert done.returncode == 0, listing
    assert "jupyterlab-rise" in listing, f"jupyterlab-rise is not installed:\n{listing}"
    for word in ("incompatible", "Unsatisfied", "outdated", "\x1b[31m X"):
        assert word not in listing, f"`jupyter labextension list` says {word!r}:\n{listing}"


def _kernel_stderr(code: str) -> str:
    """What a kernel of this environment writes to its stderr while it starts, runs `code` and stops."""
    import jupyter_client

    with tempfile.TemporaryFile() as err:
        km = jupyter_client.KernelManager(kernel_name="python3")
        km.start_kernel(stderr=err, stdout=subprocess.DEVNULL, cwd=str(ROOT / "book"))
        kc = km.client()
        try:
            kc.start_channels()
            kc.wait_for_ready(timeout=600)
            reply = kc.execute_interactive(code, timeout=600)
            assert reply["content"]["status"] == "ok", reply["content"]
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
        err.seek(0)
        return err.read().decode(errors="replace")


def test_kernels_drop_the_plain_tcp_notice_and_keep_real_warnings():
    installed = Path(sys.prefix) / "etc" / "ipython" / "ipython_kernel_config.py"
    assert installed.exists(), f"{installed} is missing: scripts/setup.sh copies scripts/ipython_kernel_config.py there"
    assert installed.read_text() == (ROOT / "scripts" / "ipython_kernel_config.py").read_text(), "run scripts/setup.sh"
    log = _kernel_stderr("import logging; logging.getLogger('IPKernelApp').warning('a real warning from the kernel')")
    assert "without encryption" not in log, log
    assert "a real warning from the kernel" in log, f"the kernel's other log lines must still show:\n{log}"


def test_requirements_check_reads_bounds_markers_and_comments():
    ok = check_requirements.problems
    assert ok(["# a comment", "", "pytest>=1  # why", "pytest>=1; python_version < '3'"]) == []
    assert ok(["pytest<1"]) == [f"pytest {__import__('pytest').__version__} is installed, <1 is wanted"]
    assert ok(["no-such-package-here>=1"]) == ["no-such-package-here is not installed (wanted >=1)"]
    assert ok(["-r other.txt"]) and ok(["not a requirement !!"])


def test_this_environment_satisfies_requirements_txt():
    assert check_requirements.problems((ROOT / "requirements.txt").read_text().splitlines()) == []


def test_property_tests_have_no_deadline():
    """A property test that took 339 ms under load failed on Hypothesis's default 200 ms deadline."""
    from hypothesis import HealthCheck, settings

    assert settings().deadline is None
    assert HealthCheck.too_slow in settings().suppress_health_check


def test_a_cjk_font_is_installed_for_the_browser():
    """setup.sh installs one: without it Chromium draws chapter 10's 我 爱 猫 as boxes in pages and handouts."""
    import shutil

    if shutil.which("fc-list") is None:
        pytest.skip("no fontconfig on this system (no Chromium either)")
    fonts = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=120).stdout
    assert fonts.strip(), "no font covers Chinese: run scripts/setup.sh (it installs fonts-noto-cjk)"
