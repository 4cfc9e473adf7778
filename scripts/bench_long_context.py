"""Benchmark: naive attention against tiled attention, and how long the book takes to build.

    .venv/bin/python -m scripts.bench_long_context                 # everything (several minutes)
    .venv/bin/python -m scripts.bench_long_context --no-book        # only the attention table
    .venv/bin/python -m scripts.bench_long_context --ns 256 1024    # other sequence lengths

Prints Markdown tables, all measured in this one run:

1. the core's `scaled_dot_product_attention` (naive: it builds the n × n matrix)
   against `tiled_attention` (block by block): best-of-`--repeat` time and
   tracemalloc peak memory for n = 256 … 8192 at d = 64, with the ratios;
2. `bash scripts/build.sh` (book, slide decks, PDF handouts) in a fresh copy of
   the repository in a temporary folder (never in _build/), four runs in a row:
   from nothing; again with nothing changed; after a sentence is added to one
   chapter; after a comment is added to the core module the fewest notebooks
   import. For each: seconds, the book's share, the ratio to the clean build,
   and what was redone (notebooks re-run, pages written, decks, handouts).

The targets are printed beside the measurements: tiled peak
memory at the largest n under 5 % of naive, tiled time within 2× of naive, a
clean book build under 2 minutes, a no-change build under 10 seconds, a
one-chapter change under 30 seconds. Timing lives here, never in a unit test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attention_steps.costs import format_bytes
from attention_steps.longcontext import compare

ROOT = Path(__file__).resolve().parent.parent

TARGETS = {"peak": 0.05, "time": 2.0, "clean": 120.0, "rebuild": 10.0, "chapter": 30.0}


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
        f"{os.cpu_count()} cores{memory}, {platform.system()} {platform.machine()}, Python {platform.python_version()}"
    )


def attention_table(ns, d: int, block_size: int, repeat: int) -> tuple[str, list]:
    rows = []
    for n in ns:
        row = compare(n, d=d, block_size=block_size, repeat=repeat)
        rows.append(row)
        print(f"  n = {n:>5}: naive {row.naive.seconds:.3f} s, tiled {row.tiled.seconds:.3f} s", file=sys.stderr)
    lines = [
        "| n | naive time (s) | tiled time (s) | tiled / naive time | naive peak | tiled peak | tiled / naive peak |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.n:,} | {r.naive.seconds:.3f} | {r.tiled.seconds:.3f} | {r.time_ratio:.2f} "
            f"| {format_bytes(r.naive.peak_bytes)} | {format_bytes(r.tiled.peak_bytes)} | {r.peak_ratio:.2%} |"
        )
    return "\n".join(lines), rows


FAILED: list[str] = []  # steps that exited non-zero (their time is still reported, marked)


def run(command: list[str], cwd: Path = ROOT, env: dict | None = None, name: str = "") -> tuple[float, str]:
    """(seconds, output) of `command`. A failure (a warning under -W, say) is recorded and its log tail printed."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
        FAILED.append(name or " ".join(command))
    return elapsed, done.stdout + done.stderr


def copy_repository(dest: Path) -> None:
    """The working tree as git sees it (tracked and new files, not ignored ones), with .venv and
    node_modules linked to this checkout's: a build there starts with no _build at all."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file() and not src.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    for link in (".venv", "node_modules"):
        (dest / link).symlink_to((ROOT / link).resolve())


def edit_markdown(path: Path) -> None:
    """Add a sentence, as its own paragraph, to the notebook's first prose cell shown in the book."""
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "markdown" and "remove-cell" not in tags and not source.lstrip().startswith("#"):
            cell["source"] = source.rstrip("\n") + "\n\nA sentence the benchmark added."
            break
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def least_imported_module(repo: Path) -> tuple[Path, list[str]]:
    """The core module the fewest notebooks depend on (at least one), and those notebooks: `repo` is
    a copy of this checkout, so its dependencies are this checkout's, with paths under `repo`."""
    from scripts import notebook_deps

    deps = notebook_deps.dependencies()
    users: dict[Path, list[str]] = {}
    for nb, files in deps.items():
        for f in files:
            if f.suffix == ".py":
                users.setdefault(repo / f.relative_to(ROOT), []).append(Path(nb).stem)
    module = min(users, key=lambda f: (len(users[f]), str(f)))
    return module, users[module]


def redone(output: str, html: Path, before: dict[str, int]) -> dict[str, list[str]]:
    """What a build.sh run redid, from its log and from which pages' files changed."""
    pages = sorted(p for p, t in page_times(html).items() if before.get(p) != t)
    return {
        "notebooks re-run": re.findall(r"^notebook_deps: (\S+) runs again", output, flags=re.M),
        "pages written": [Path(p).stem for p in pages],
        "decks": re.findall(r"^build_slides: (\S+)\.html \(", output, flags=re.M),  # zh_CN/03_scaling: a Chinese deck
        "handouts": [
            lang + stem for lang, stem in re.findall(r"^build_handouts: (\S*?)pdf/(\S+)\.pdf \(", output, flags=re.M)
        ],
    }


def page_times(html: Path) -> dict[str, int]:
    return {
        str(p.relative_to(html)): p.stat().st_mtime_ns
        for p in html.rglob("*.html")
        if not p.relative_to(html).parts[0].startswith(("_", "slides"))
    }


def book_seconds(output: str) -> str:
    """The English book's seconds, then each other edition's (build.sh's "book zh_CN 20.1 s")."""
    m = re.search(r"^build: .*?\bbook( \(skipped\))? ([\d.]+) s", output, flags=re.M)
    if m is None:
        return ""
    text = f"{float(m.group(2)):.1f}" + (" (skipped)" if m.group(1) else "")
    line = output[m.start() : output.index("\n", m.start()) if "\n" in output[m.start() :] else None]
    for lang, seconds in re.findall(r"\bbook ([a-z]{2}_[A-Z]{2}) ([\d.]+) s", line):
        text += f" + {lang} {float(seconds):.1f}"
    return text


def step_seconds(output: str) -> dict[str, float]:
    """build.sh's step times from its last line ("build: setup 1.8 s, book 161.8 s, ..., total 300.2 s")."""
    lines = re.findall(r"^build: (.* total [\d.]+ s)$", output, flags=re.M)
    return (
        {name.strip(): float(sec) for name, sec in re.findall(r"([^,]+?) ([\d.]+) s(?:,|$)", lines[-1])}
        if lines
        else {}
    )


def build_table() -> tuple[str, dict]:
    """`bash scripts/build.sh` in a fresh copy of the repository, four times: from nothing, with
    nothing changed, after one chapter's prose changed, after one core module changed."""
    repo = Path(tempfile.mkdtemp(prefix="bench-build-"))
    rows, times = [], {}
    try:
        copy_repository(repo)
        html = repo / "_build" / "html"
        chapters = sorted((repo / "book").glob("[0-9][0-9]_*.ipynb"))
        chapter = chapters[len(chapters) // 2]
        module, users = least_imported_module(repo)
        module_name = module.relative_to(repo / "book").as_posix()
        cases = [
            ("clean", f"clean build: {len(chapters)} chapter notebooks + intro executed, every deck and handout", None),
            ("nothing", "again, nothing changed", None),
            (
                "chapter",
                f"one chapter's prose changed ({chapter.stem}: a sentence added)",
                lambda: edit_markdown(chapter),
            ),
            (
                "module",
                f"one core module changed ({module_name}, which {len(users)} notebook(s) import: {', '.join(users)})",
                lambda: module.write_text(module.read_text() + "\n# a comment the benchmark added\n"),
            ),
        ]
        for key, label, change in cases:
            print(f"  build.sh: {label} …", file=sys.stderr)
            if change:
                change()
            before = page_times(html) if html.exists() else {}
            seconds, output = run(["bash", "scripts/build.sh"], cwd=repo, name=key)
            times[key] = seconds
            if key == "clean":
                steps = {k: v for k, v in step_seconds(output).items() if k != "total"}
                other = sum(v for k, v in steps.items() if re.search(r"\b[a-z]{2}_[A-Z]{2}\b", k))
                # the whole build (books, decks, handouts) in both languages ÷ its English steps
                times["clean build ratio"] = (
                    sum(steps.values()) / (sum(steps.values()) - other) if other else float("nan")
                )
            rows.append(
                (key, label, seconds, book_seconds(output), redone(output, html, before) if key != "clean" else {})
            )
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    lines = [
        "| build.sh run | seconds | of which the book | ÷ clean build | what was redone | target |",
        "|---|---:|---:|---:|---|---|",
    ]
    targets = {"nothing": f"< {TARGETS['rebuild']:.0f} s", "chapter": f"< {TARGETS['chapter']:.0f} s"}
    for key, label, seconds, book, what in rows:
        mark = " (exited with an error)" if key in FAILED else ""
        did = "; ".join(f"{k}: {', '.join(v)}" for k, v in what.items() if v) or (
            "everything" if key == "clean" else "nothing"
        )
        target = targets.get(key, f"book < {TARGETS['clean']:.0f} s" if key == "clean" else "")
        lines.append(f"| {label}{mark} | {seconds:.1f} | {book} | {seconds / times['clean']:.3f} | {did} | {target} |")
    times["clean book"] = float(rows[0][3].split()[0]) if rows[0][3] else float("nan")
    other = [float(x) for x in re.findall(r"\+ [a-z]{2}_[A-Z]{2} ([\d.]+)", rows[0][3])]
    times["clean editions ratio"] = (times["clean book"] + sum(other)) / times["clean book"] if other else float("nan")
    return "\n".join(lines), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ns", type=int, nargs="+", default=[256, 512, 1024, 2048, 4096, 8192])
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--block-size", type=int, default=256)
    parser.add_argument(
        "--repeat", type=int, default=5, help="time = best of this many runs (naive and tiled take turns)"
    )
    parser.add_argument("--no-book", action="store_true", help="skip the book and slide builds")
    args = parser.parse_args()

    print(f"Measured {datetime.date.today().isoformat()} on {machine()}.\n")
    print(
        f"**Naive vs tiled attention** (d = {args.d}, float64, block size {args.block_size}; "
        f"time best of {args.repeat}, peak memory by tracemalloc):\n"
    )
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
        print("\n**Building** (`bash scripts/build.sh` in a fresh copy of the repository, four runs in a row):\n")
        table, times = build_table()
        print(table)
        verdicts = [
            f"clean book build {times['clean book']:.0f} s ({'met' if times['clean book'] < TARGETS['clean'] else 'NOT met'})",
            f"nothing changed {times['nothing']:.1f} s ({'met' if times['nothing'] < TARGETS['rebuild'] else 'NOT met'})",
            f"one chapter {times['chapter']:.1f} s ({'met' if times['chapter'] < TARGETS['chapter'] else 'NOT met'})",
            # both editions from one execution: the Chinese one costs little more
            f"clean book, both editions ÷ English alone {times['clean editions ratio']:.2f} "
            f"({'met' if times['clean editions ratio'] <= 1.4 else 'NOT met'}, target ≤ 1.4)",
            f"clean build.sh (books, decks, handouts), both languages ÷ its English steps "
            f"{times['clean build ratio']:.2f} ({'met' if times['clean build ratio'] <= 1.4 else 'NOT met'}, target ≤ 1.4)",
        ]
        print(f"\nTargets: {'; '.join(verdicts)}.")


if __name__ == "__main__":
    main()
