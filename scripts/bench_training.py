"""Benchmark: how long chapter 13's training takes, on one thread, and what the scaling sweep shows.

    .venv/bin/python -m scripts.bench_training                 # the build's training: every model and the sweep
    .venv/bin/python -m scripts.bench_training --full          # also the fuller sweep (FULL_BUDGET: minutes)
    .venv/bin/python -m scripts.bench_training --full --json sweep.json   # and its summary as JSON

Runs exactly what the chapter runs (`learning_studies.train_chapter_models()` and
`scaling_training.scaling_study()` at `BUILD_BUDGET`), with OMP/OpenBLAS limited to one thread
before NumPy loads, and prints Markdown tables: the seconds of each model and of the sweep, wall
clock and CPU (on a machine shared with other builds the wall clock stretches; the CPU time is what
the training itself costs), against the target of 60 s for all of it; then the sweep's summary,
each cell's median over the seeds with its range. Timing lives here, never in a unit test.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy loads its thread pool

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book"))

from attention_steps.learning_studies import CHAPTER_MODELS, CHAPTER_SEEDS, train_referent_model  # noqa: E402
from attention_steps.referents import referents_corpus  # noqa: E402
from attention_steps.scaling import STRATEGIES  # noqa: E402
from attention_steps.scaling_training import BUILD_BUDGET, FULL_BUDGET, scaling_study  # noqa: E402
from scripts.bench_long_context import machine  # noqa: E402

TARGET = 60.0  # seconds: all the training the book runs


def timed(f):
    """(result, wall seconds, CPU seconds) of f()."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def models_table() -> tuple[str, float, float]:
    corpus = referents_corpus()
    lines = ["| model | seeds | held-out accuracy (per seed) | wall (s) | CPU (s) |", "|---|---:|---|---:|---:|"]
    total_wall = total_cpu = 0.0
    for name, settings in CHAPTER_MODELS.items():
        runs, wall, cpu = timed(
            lambda s=settings: [train_referent_model(**s, seed=seed, corpus=corpus) for seed in CHAPTER_SEEDS]
        )
        accuracy = ", ".join(f"{t.held_out_accuracy:.1%}" for t in runs)
        lines.append(f"| {name} | {len(runs)} | {accuracy} | {wall:.1f} | {cpu:.1f} |")
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(f"  {name}: {wall:.1f} s", file=sys.stderr)
    return "\n".join(lines), total_wall, total_cpu


def sweep_table(study) -> str:
    lines = [
        "| d_k | strategy | lr | final loss, median [range] | peak loss | held-out accuracy, mean [range] "
        "| max weight, start → end | ‖dW_Q, dW_K‖ at step 1 |",
        "|---:|---|---:|---|---:|---|---|---:|",
    ]
    for r in study.summary():
        lo, hi = r["final_loss_range"]
        alo, ahi = r["held_out_accuracy_range"]
        lines.append(
            f"| {r['d_k']} | {STRATEGIES[r['strategy']]} | {r['lr']:g} | {r['final_loss_median']:.3f} [{lo:.3f}, {hi:.3f}] "
            f"| {r['peak_loss_max']:.2f} | {r['held_out_accuracy_mean']:.1%} [{alo:.1%}, {ahi:.1%}] "
            f"| {r['max_weight_start']:.2f} → {r['max_weight_end']:.2f} | {r['grad_norm_qk_start']:.3g} |"
        )
    best = ["", "At each strategy's best learning rate (lowest median final loss):", ""]
    for d_k in study.settings["d_k_values"]:
        cells = study.best(d_k)
        best.append(
            f"- d_k = {d_k}: "
            + "; ".join(
                f"{STRATEGIES[s]} lr {r['lr']:g}, final loss {r['final_loss_median']:.3f}, "
                f"held-out {r['held_out_accuracy_mean']:.1%}"
                for s, r in cells.items()
            )
        )
    return "\n".join(lines + best)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also run the fuller sweep (FULL_BUDGET)")
    parser.add_argument("--json", type=Path, help="write the sweeps' summaries here (with --full: both)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"Measured {datetime.date.today()} on {machine()}, one thread, load average {load:.1f} at the start.\n")
    table, wall, cpu = models_table()
    study, s_wall, s_cpu = timed(scaling_study)
    print("### The chapter's models\n\n" + table + "\n")
    print(f"### The scaling sweep at the build's budget\n\n{BUILD_BUDGET}: {s_wall:.1f} s wall, {s_cpu:.1f} s CPU\n")
    print(sweep_table(study) + "\n")
    total_wall, total_cpu = wall + s_wall, cpu + s_cpu
    met = "met" if total_cpu <= TARGET else "MISSED"
    print(f"All of the book's training: {total_wall:.1f} s wall, {total_cpu:.1f} s CPU (target ≤ {TARGET:.0f} s: {met}; "
          f"load average {os.getloadavg()[0]:.1f} at the end).\n")  # fmt: skip
    out = {"build": {"settings": study.settings, "seconds": s_wall, "summary": study.summary()}}
    if args.full:
        full, f_wall, f_cpu = timed(lambda: scaling_study(**FULL_BUDGET, progress=True))
        print(f"### The fuller sweep\n\n{FULL_BUDGET}: {f_wall:.0f} s wall, {f_cpu:.0f} s CPU\n")
        print(sweep_table(full) + "\n")
        out["full"] = {"settings": full.settings, "seconds": f_wall, "summary": full.summary()}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
