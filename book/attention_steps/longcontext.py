"""Measuring what the n × n matrix costs: naive attention against tiled attention.

Used by chapter 11 (a few quick sizes) and by scripts/bench_long_context.py
(n = 256 … 8192). Peak memory is what `tracemalloc` sees NumPy allocate while
the function runs, on top of the inputs; time is the best of a few runs, with
tracing off.

    measure(fn, *args)                      Measurement(seconds, peak_bytes)
    compare(n, d=64, block_size=256)        one Comparison row: naive vs tiled at n tokens
    comparison_markdown(rows)               the rows as a Markdown table
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from . import i18n  # i18n._: this module's loops use _ as a name
from ._validate import check_qkv, positive_int
from .core import attend_by_stage
from .costs import format_bytes
from .tables import Table, markdown_table
from .tiled import tiled_attention


@dataclass(frozen=True)
class Measurement:
    """Wall time of the fastest run (seconds) and the peak of memory allocated during one run (bytes). Chapter 11."""

    seconds: float
    peak_bytes: int


def peak_bytes(fn: Callable, *args, **kwargs) -> int:
    """Peak bytes NumPy (and Python) allocated while `fn(*args, **kwargs)` ran, by tracemalloc. Chapter 11."""
    return _traced(fn, *args, **kwargs)[0]


def _traced(fn: Callable, *args, **kwargs):
    """(peak bytes above what was allocated before the call, fn's result)."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] - base, result
    finally:
        if not was_tracing:
            tracemalloc.stop()


def seconds(fn: Callable, *args, repeat: int = 3, **kwargs) -> float:
    """Fastest wall time of `repeat` runs of `fn(*args, **kwargs)`, tracing off. Chapter 11."""
    repeat = positive_int("repeat", repeat)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return best


def measure(fn: Callable, *args, repeat: int = 3, **kwargs) -> Measurement:
    """Time (best of `repeat`) and peak memory (one traced run) of `fn(*args, **kwargs)`. Chapter 11."""
    return Measurement(seconds(fn, *args, repeat=repeat, **kwargs), peak_bytes(fn, *args, **kwargs))


def random_qkv(n, d=64, seed=0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded Q, K, V, each (n, d), float64 with standard normal entries. Chapter 11."""
    n, d = positive_int("n", n), positive_int("d", d)
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal((n, d))


def _naive_Z(Q, K, V):
    """The formula stage by stage, every n × n matrix kept until the end: QKᵀ, S, S − max, exp(·), A.

    What `trace_attention` computes, and what chapter 11 measures as the naive core;
    `scaled_dot_product_attention` computes the same Z in place, in one n × n matrix.
    """
    Q, K, V = check_qkv(Q, K, V)
    return attend_by_stage(Q, K, V)[3]


@dataclass(frozen=True)
class Comparison:
    """Naive and tiled attention on the same n × d inputs: both measurements and how far apart the Zs are. Chapter 11."""

    n: int
    d: int
    block_size: int
    naive: Measurement
    tiled: Measurement
    max_difference: float

    @property
    def peak_ratio(self) -> float:
        """Tiled peak / naive peak: how much of the naive memory tiling needs."""
        return self.tiled.peak_bytes / self.naive.peak_bytes

    @property
    def time_ratio(self) -> float:
        """Tiled time / naive time."""
        return self.tiled.seconds / self.naive.seconds


def compare(n, d=64, block_size=256, seed=0, repeat: int = 3) -> Comparison:
    """Measure naive attention (`_naive_Z`, stage by stage) and `tiled_attention` at n tokens of width d. Chapter 11.

    Each is run once under tracemalloc (the two results give `max_difference`)
    and timed, best of `repeat` runs with tracing off, the two taking turns.
    """
    Q, K, V = random_qkv(n, d, seed)
    block_size = positive_int("block_size", block_size)
    naive_peak, Z_naive = _traced(_naive_Z, Q, K, V)  # Z (n × d) is small; peaks are measured above it
    tiled_peak, Z_tiled = _traced(tiled_attention, Q, K, V, block_size)
    # Alternate the timed runs, so that a burst of load from elsewhere hits both alike.
    naive_s = tiled_s = float("inf")
    for _ in range(positive_int("repeat", repeat)):
        naive_s = min(naive_s, seconds(_naive_Z, Q, K, V, repeat=1))
        tiled_s = min(tiled_s, seconds(tiled_attention, Q, K, V, block_size, repeat=1))
    naive, tiled = Measurement(naive_s, naive_peak), Measurement(tiled_s, tiled_peak)
    difference = float(np.abs(Z_naive - Z_tiled).max())
    return Comparison(n=int(n), d=int(d), block_size=block_size, naive=naive, tiled=tiled, max_difference=difference)


def comparison_markdown(rows: Iterable[Comparison]) -> Table:
    """The comparisons as a Markdown table: time and peak memory of each, and the ratio of peaks, its
    headers in the current language (attention_steps.i18n). Chapter 11."""
    headers = [
        "n",
        i18n._("naive time (s)"),
        i18n._("naive peak"),
        i18n._("tiled time (s)"),
        i18n._("tiled peak"),
        i18n._("tiled / naive peak"),
        i18n._("tiled / naive time"),
    ]
    return markdown_table(
        headers,
        [
            (
                f"{r.n:,}",
                f"{r.naive.seconds:.3f}",
                format_bytes(r.naive.peak_bytes),
                f"{r.tiled.seconds:.3f}",
                format_bytes(r.tiled.peak_bytes),
                f"{r.peak_ratio:.2%}",
                f"{r.time_ratio:.2f}",
            )
            for r in rows
        ],
    )


__all__ = [
    "Measurement",
    "Comparison",
    "peak_bytes",
    "seconds",
    "measure",
    "random_qkv",
    "compare",
    "comparison_markdown",
]
