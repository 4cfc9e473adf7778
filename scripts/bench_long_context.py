"""Benchmark: naive attention against tiled attention, and how long the book takes to build.

    .venv/bin/python scripts/bench_long_context.py                 # everything (several minutes)
    .venv/bin/python scripts/bench_long_context.py --no-book        # only the attention table
    .venv/bin/python scripts/bench_long_context.py --ns 256 1024    # other sequence lengths

Prints Markdown tables, all measured in this one run:

1. the core's `scaled_dot_product_attention` (naive: it builds the n × n matrix)
   against `tiled_attention` (block by block): best-of-`--repeat` time and
   tracemalloc peak memory for n = 256 … 8192 at d = 64, with the ratios;
2. a clean build of the whole book into a fresh temporary folder (never into
   _build/html) and a rebuild with nothing changed;
3. building every slide deck from that build, if scripts/build_slides.py exists.

The targets (issue 6) are printed beside the measurements: tiled peak memory at
the largest n under 5 % of naive, tiled time within 2× of naive, a clean book
build under 2 minutes and a no-change rebuild under 10 seconds. Timing lives
here, never in a unit test.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book"))

from attention.costs import format_bytes  # noqa: E402
from attention.longcontext import compare  # noqa: E402

TARGETS = {"peak": 0.05, "time": 2.0, "clean": 120.0, "rebuild": 10.0}


def machine() -> str:
    """'2 cores, 24 GiB, Linux x86_64, Python 3.11.2': what the numbers were measured on."""
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return (
        f"{os.cpu_count()} cores{memory}, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}"
    )


def attention_table(ns, d: int, block_size: int, repeat: int) -> tuple[str, list]:
    rows = []
    for n in ns:
        row = compare(n, d=d, block_size=block_size, repeat=repeat)
        rows.append(row)
        print(f"  n = {n:>5}: naive {row.naive.seconds:.3f} s, tiled {row.tiled.seconds:.3f} s", file=sys.stderr)
    lines = [
        f"| n | naive time (s) | tiled time (s) | tiled / naive time | naive peak | tiled peak | tiled / naive peak |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.n:,} | {r.naive.seconds:.3f} | {r.tiled.seconds:.3f} | {r.time_ratio:.2f} "
            f"| {format_bytes(r.naive.peak_bytes)} | {format_bytes(r.tiled.peak_bytes)} | {r.peak_ratio:.2%} |"
        )
    return "\n".join(lines), rows


FAILED: list[str] = []  # steps that exited non-zero (their time is still reported, marked)


def run(command: list[str], env: dict | None = None, name: str = "") -> float:
    """Seconds `command` took. A failure (a warning under -W, say) is recorded and its log tail printed."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
        FAILED.append(name or " ".join(command))
    return elapsed


def build_table() -> tuple[str, dict]:
    """Clean build, no-change rebuild and slides, into a temporary folder removed afterwards."""
    python = str(ROOT / ".venv" / "bin" / "python")
    jupyter_book = str(ROOT / ".venv" / "bin" / "jupyter-book")
    out = Path(tempfile.mkdtemp(prefix="bench-book-"))
    times = {}
    try:
        build = [jupyter_book, "build", ".", "--path-output", str(out), "-W", "-n", "--keep-going"]
        print("  clean build …", file=sys.stderr)
        times["clean"] = run(build, name="clean")
        print("  rebuild, nothing changed …", file=sys.stderr)
        times["rebuild"] = run(build, name="rebuild")
        if (ROOT / "scripts" / "build_slides.py").exists():
            print("  slides …", file=sys.stderr)
            env = dict(os.environ, BOOK_HTML=str(out / "_build" / "html"), SLIDES_OUT=str(out / "slides"))
            times["slides"] = run([python, "scripts/build_slides.py"], env=env, name="slides")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    chapters = len(list((ROOT / "book").glob("[0-9][0-9]_*.ipynb")))
    lines = ["| step | seconds | target |", "|---|---:|---|"]
    mark = {name: " (exited with an error)" if name in FAILED else "" for name in times}
    lines.append(f"| clean build of the whole book ({chapters} chapter notebooks + intro, executed){mark['clean']} "
                 f"| {times['clean']:.1f} | < {TARGETS['clean']:.0f} s |")  # fmt: skip
    lines.append(f"| rebuild with nothing changed{mark['rebuild']} | {times['rebuild']:.1f} | < {TARGETS['rebuild']:.0f} s |")
    if "slides" in times:
        lines.append(f"| all slide decks (`scripts/build_slides.py`){mark['slides']} | {times['slides']:.1f} | |")
    return "\n".join(lines), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ns", type=int, nargs="+", default=[256, 512, 1024, 2048, 4096, 8192])
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--block-size", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5, help="time = best of this many runs (naive and tiled take turns)")
    parser.add_argument("--no-book", action="store_true", help="skip the book and slide builds")
    args = parser.parse_args()

    print(f"Measured {datetime.date.today().isoformat()} on {machine()}.\n")
    print(f"**Naive vs tiled attention** (d = {args.d}, float64, block size {args.block_size}; "
          f"time best of {args.repeat}, peak memory by tracemalloc):\n")  # fmt: skip
    table, rows = attention_table(args.ns, args.d, args.block_size, args.repeat)
    print(table)
    last = rows[-1]
    worst_time = max(r.time_ratio for r in rows)
    print(
        f"\nAt n = {last.n:,}: tiled peak {last.peak_ratio:.2%} of naive (target < {TARGETS['peak']:.0%}: "
        f"{'met' if last.peak_ratio < TARGETS['peak'] else 'NOT met'}); tiled time at most {worst_time:.2f}× naive "
        f"(target ≤ {TARGETS['time']:.0f}×: {'met' if worst_time <= TARGETS['time'] else 'NOT met'}); "
        f"largest |Z_tiled − Z_naive| {max(r.max_difference for r in rows):.1e}."
    )
    if not args.no_book:
        print("\n**Building the book** (into a temporary folder):\n")
        table, times = build_table()
        print(table)
        verdicts = [
            f"clean build {'met' if times['clean'] < TARGETS['clean'] else 'NOT met'}",
            f"no-change rebuild {'met' if times['rebuild'] < TARGETS['rebuild'] else 'NOT met'}",
        ]
        print(f"\nTargets: {'; '.join(verdicts)}.")


if __name__ == "__main__":
    main()
