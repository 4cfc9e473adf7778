"""Chapter 3's three divisors of the scores, in training (chapter 13): the same model trained with
no scaling, ÷ d_k and ÷ √d_k, at a small and a large d_k, over several seeds and learning rates.

    study = scaling_study()                          # the build's budget: BUILD_BUDGET
    study.summary()                                  # one row per (d_k, strategy, lr): final loss, spread, …
    study.best(d_k=64)                               # each strategy at its best learning rate
    study.cell(64, "none", 0.01).loss                # (seeds, steps) the learning curves

Every run is `learning_studies.train_referent_model` (two layers of one head, so the head's d_k is
d_model, on the il / elle task) with the same seeds, batches and learning rates for every strategy:
a learning rate that suits one d_k may not suit another, so the comparison is made at each
strategy's best rate of the sweep as well as at the same rates. Recorded per step: the loss, the
gradient's norm (all parameters, and W_Q, W_K only), and the softmax's saturation (the mean largest
weight of a row, and a row's mean entropy, averaged over the layers).

μP-style parametrisations divide by d_k rather than √d_k (at initialisation the scores then shrink
as d_k grows: attention starts near uniform). Here only the divisor changes (d_model grows with
d_k, every other weight is set up alike), so no learning rate is expected to carry over exactly:
the study measures, at each strategy's own best rate and at shared rates, where ÷ d_k trains as
well as ÷ √d_k and where it does not (docs/benchmarks.md has a fuller sweep).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .learning_studies import train_referent_model
from .referents import referents_corpus
from .scaling import STRATEGIES
from .training import ProgressLine

# The build's budget (about 30 s of the book's 60 s of training on the 2-core machine, one thread):
# 2 d_k × 3 strategies × 3 learning rates × 2 seeds = 36 runs of 150 steps of 32 sentences, float64.
BUILD_BUDGET = dict(d_k_values=(16, 64), learning_rates=(1e-3, 3e-3, 1e-2), seeds=(0, 1), steps=150, batch_size=32)
# The fuller version scripts/bench_training.py --full runs (minutes, not for the build).
FULL_BUDGET = dict(
    d_k_values=(16, 64, 128), learning_rates=(3e-4, 1e-3, 3e-3, 1e-2, 3e-2), seeds=(0, 1, 2), steps=300,
    batch_size=32,
)  # fmt: skip


@dataclass
class ScalingCell:
    """The runs of one (d_k, strategy, lr), one row per seed. Chapter 13.

    `loss`, `grad_norm`, `grad_norm_qk`, `max_weight`, `entropy` (seeds, steps) per step (NaN after
    a run diverged); `held_out_accuracy` (seeds,); `diverged` (seeds,) bool; `seconds` (seeds,).
    """

    d_k: int
    strategy: str
    lr: float
    loss: np.ndarray
    grad_norm: np.ndarray
    grad_norm_qk: np.ndarray
    max_weight: np.ndarray
    entropy: np.ndarray
    held_out_accuracy: np.ndarray
    diverged: np.ndarray
    seconds: np.ndarray

    @property
    def final_loss(self) -> np.ndarray:
        """(seeds,) the mean loss over the last tenth of the steps (inf for a diverged run)."""
        tail = self.loss[:, -max(1, self.loss.shape[1] // 10) :]
        return np.where(self.diverged, np.inf, np.nanmean(tail, axis=1))

    @property
    def peak_loss(self) -> np.ndarray:
        """(seeds,) the largest batch loss after the first tenth of the steps: the spikes."""
        return np.nanmax(self.loss[:, max(1, self.loss.shape[1] // 10) :], axis=1)

    def row(self) -> dict:
        """This cell's summary, JSON-ready: medians with their range over the seeds."""
        final, acc = self.final_loss, self.held_out_accuracy
        return {
            "d_k": self.d_k,
            "strategy": self.strategy,
            "lr": self.lr,
            "final_loss_median": float(np.median(final)),
            "final_loss_range": [float(final.min()), float(final.max())],
            "peak_loss_max": float(np.max(self.peak_loss)),
            "held_out_accuracy_mean": float(acc.mean()),
            "held_out_accuracy_range": [float(acc.min()), float(acc.max())],
            "diverged": int(self.diverged.sum()),
            "max_weight_start": float(np.nanmean(self.max_weight[:, 0])),
            "max_weight_end": float(np.nanmean(self.max_weight[:, -1])),
            "entropy_start": float(np.nanmean(self.entropy[:, 0])),
            "grad_norm_qk_start": float(np.nanmean(self.grad_norm_qk[:, 0])),
            "grad_norm_median": float(np.nanmedian(self.grad_norm)),
            "seeds": int(len(acc)),
        }

    def curves(self, points: int = 40) -> dict:
        """The learning curve and the saturation at `points` steps: {"step", "loss_median", "loss_min",
        "loss_max", "max_weight_median", "grad_norm_median"} lists (small, for a page)."""
        steps = self.loss.shape[1]
        at = np.unique(np.linspace(0, steps - 1, min(points, steps)).round().astype(int))
        with np.errstate(all="ignore"):
            return {
                "step": (at + 1).tolist(),
                "loss_median": np.nanmedian(self.loss[:, at], axis=0).tolist(),
                "loss_min": np.nanmin(self.loss[:, at], axis=0).tolist(),
                "loss_max": np.nanmax(self.loss[:, at], axis=0).tolist(),
                "max_weight_median": np.nanmedian(self.max_weight[:, at], axis=0).tolist(),
                "grad_norm_median": np.nanmedian(self.grad_norm[:, at], axis=0).tolist(),
            }


@dataclass
class ScalingStudy:
    """Every cell of the sweep, by (d_k, strategy, lr), and the settings it ran with. Chapter 13."""

    cells: dict
    settings: dict
    seconds: float = 0.0
    order: list = field(default_factory=list)

    def cell(self, d_k: int, strategy: str, lr: float) -> ScalingCell:
        key = (d_k, strategy, float(lr))
        if key not in self.cells:
            raise KeyError(f"no cell {key}: the study ran d_k {self.settings['d_k_values']}, "
                           f"strategies {self.settings['strategies']}, lr {self.settings['learning_rates']}")  # fmt: skip
        return self.cells[key]

    def summary(self) -> list[dict]:
        """One `ScalingCell.row` per cell, in the order they ran (d_k, then strategy, then lr)."""
        return [self.cells[k].row() for k in self.order]

    def best(self, d_k: int) -> dict:
        """{strategy: the row at the learning rate with the lowest median final loss} for one d_k."""
        out = {}
        for s in self.settings["strategies"]:
            rows = [self.cell(d_k, s, lr).row() for lr in self.settings["learning_rates"]]
            out[s] = min(rows, key=lambda r: r["final_loss_median"])
        return out


def scaling_study(
    d_k_values=BUILD_BUDGET["d_k_values"],
    strategies=tuple(STRATEGIES),
    learning_rates=BUILD_BUDGET["learning_rates"],
    seeds=BUILD_BUDGET["seeds"],
    *,
    steps: int = BUILD_BUDGET["steps"],
    batch_size: int = BUILD_BUDGET["batch_size"],
    layers: int = 2,
    target: str = "pronoun",
    dtype=np.float64,
    progress=None,
) -> ScalingStudy:
    """Train every (d_k, strategy, lr, seed) and gather the runs by cell. Chapter 13.

    One head per layer, so d_model = d_k. float64: measured on this project's machine, float32 runs
    changed with BLAS's thread count (one cell's final loss moved by 0.53 between 1 and 2 threads:
    150 steps grow a last-bit difference), float64 runs gave the same numbers bit for bit at 1 and 2
    threads, for about 1.6× the time (27 s of CPU against 19 s on one thread, `BUILD_BUDGET`, docs/benchmarks.md).
    `progress`: True prints a line per run as the sweep goes, or a callable
    (run, runs, label, elapsed, left). Seeds give the same starting weights and batches to every
    strategy and learning rate.
    """
    bad = [s for s in strategies if s not in STRATEGIES]
    if bad:
        raise ValueError(f"strategies must be among {sorted(STRATEGIES)}; got {bad}")
    if not learning_rates or not seeds or not d_k_values:
        raise ValueError("d_k_values, learning_rates and seeds must each name at least one value")
    corpus = referents_corpus()
    cells, order = {}, []
    total = len(d_k_values) * len(strategies) * len(learning_rates) * len(seeds)
    report = _print_run if progress is True else progress
    start, done = time.perf_counter(), 0
    for d_k in d_k_values:
        for strategy in strategies:
            for lr in learning_rates:
                runs = []
                for seed in seeds:
                    runs.append(
                        train_referent_model(layers, 1, target, d_model=int(d_k), steps=steps, batch_size=batch_size,
                                             lr=float(lr), seed=int(seed), strategy=strategy, corpus=corpus,
                                             checkpoints=1, dtype=dtype)
                    )  # fmt: skip
                    done += 1
                    if report is not None:
                        elapsed = time.perf_counter() - start
                        label = f"d_k={d_k} {STRATEGIES[strategy]} lr={lr:g} seed {seed}"
                        report(done, total, label, elapsed, elapsed / done * (total - done))
                h = [r.run.history for r in runs]
                cells[(int(d_k), strategy, float(lr))] = ScalingCell(
                    d_k=int(d_k),
                    strategy=strategy,
                    lr=float(lr),
                    loss=np.stack([x["loss"] for x in h]),
                    grad_norm=np.stack([x["grad_norm"] for x in h]),
                    grad_norm_qk=np.stack([x["grad_norm_qk"] for x in h]),
                    max_weight=np.stack([x["max_weight"].mean(axis=1) for x in h]),
                    entropy=np.stack([x["entropy"].mean(axis=1) for x in h]),
                    held_out_accuracy=np.array([r.held_out_accuracy for r in runs]),
                    diverged=np.array([r.run.diverged for r in runs]),
                    seconds=np.array([r.run.seconds for r in runs]),
                )
                order.append((int(d_k), strategy, float(lr)))
    settings = dict(d_k_values=tuple(d_k_values), strategies=tuple(strategies), learning_rates=tuple(learning_rates),
                    seeds=tuple(seeds), steps=steps, batch_size=batch_size, layers=layers, target=target,
                    dtype=np.dtype(dtype).name)  # fmt: skip
    return ScalingStudy(cells, settings, time.perf_counter() - start, order)


_LINE = ProgressLine()


def _print_run(run: int, runs: int, label: str, elapsed: float, left: float) -> None:
    _LINE.write(f"run {run}/{runs} ({label}) · {elapsed:.1f} s, about {left:.0f} s left", run == runs)


__all__ = ["scaling_study", "ScalingStudy", "ScalingCell", "BUILD_BUDGET", "FULL_BUDGET"]
