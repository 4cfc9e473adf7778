"""How long CI takes, and where the suite's time goes: the table in docs/benchmarks.md ("The suite").

    .venv/bin/python -m scripts.bench_suite                   # a fresh clone of HEAD, its whole CI run timed
    .venv/bin/python -m scripts.bench_suite --junit run.xml    # the per-tier table of a run already made

The first form clones the repository's HEAD into a temporary folder and runs there what `.ci/run`
runs (`bash scripts/test.sh`, build included, with `--junitxml` added), timing the build and the
suite; the second reads the JUnit report of any run of the suite (`pytest --junitxml=run.xml`).
Each test carries its tier in the report (tests/conftest.py), so the time is summed per tier: a
test's time is its setup, call and teardown, as pytest reports them, on the worker that ran it.
Prints a Markdown table with the date and the machine.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, load average {load} at the end"


def per_tier(junit: Path) -> tuple[dict[str, tuple[int, float]], float, dict[str, int]]:
    """({tier: (tests, summed seconds)}, the report's wall time, {outcome: count}) of a JUnit report."""
    root = ET.parse(junit).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    totals = collections.defaultdict(lambda: [0, 0.0])
    outcomes = collections.Counter()
    for case in suite.iter("testcase"):
        tier = next((p.get("value") for p in case.iter("property") if p.get("name") == "tier"), "unknown")
        totals[tier][0] += 1
        totals[tier][1] += float(case.get("time", 0))
        kind = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        outcomes[kind] += 1
    return {t: tuple(v) for t, v in totals.items()}, float(suite.get("time", 0)), dict(outcomes)


def table(junit: Path, *, build_s: float | None = None, ci_s: float | None = None) -> str:
    tiers, wall, outcomes = per_tier(junit)
    lines = [
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}"
        f" (scripts/bench_suite.py); outcomes: " + ", ".join(f"{n} {kind}" for kind, n in sorted(outcomes.items())),
        "",
        "| tier | tests | summed time (s) |",
        "|---|---:|---:|",
    ]
    for tier, (n, seconds) in sorted(tiers.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"| {tier} | {n} | {seconds:.0f} |")
    n = sum(v[0] for v in tiers.values())
    lines.append(f"| all (summed over the 2 workers) | {n} | {sum(v[1] for v in tiers.values()):.0f} |")
    lines.append(f"| the suite, wall clock | | {wall:.0f} |")
    if build_s is not None:
        lines.append(f"| the build (scripts/build.sh), wall clock | | {build_s:.0f} |")
    if ci_s is not None:
        lines.append(f"| **the whole CI run, wall clock** | | **{ci_s:.0f}** |")
    return "\n".join(lines)


def fresh_clone_run() -> str:
    """Clone HEAD, run scripts/test.sh there (what .ci/run runs), time it; the table."""
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        junit = Path(tmp) / "run.xml"
        start = time.monotonic()
        done = subprocess.run(
            ["bash", "scripts/test.sh", f"--junitxml={junit}", "-q"],
            cwd=clone,
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
        )
        ci_s = time.monotonic() - start
        (Path(tmp) / "ci.log").write_text(done.stdout + done.stderr)
        build = re.search(r"^build: .*total ([\d.]+) s$", done.stdout, re.M)
        if done.returncode != 0:
            sys.exit(f"bench_suite: the CI run failed (exit {done.returncode}):\n{(done.stdout + done.stderr)[-4000:]}")
        return table(junit, build_s=float(build.group(1)) if build else None, ci_s=ci_s)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--junit", type=Path, help="a JUnit report of a run already made (pytest --junitxml)")
    args = ap.parse_args()
    print(table(args.junit) if args.junit else fresh_clone_run())


if __name__ == "__main__":
    main()
