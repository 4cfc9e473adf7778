"""Benchmark: the core's attention against the bare NumPy formula and PyTorch's SDPA, on one thread.

    .venv/bin/python scripts/bench_core.py                  # n = 256, 1,024 and 2,048, d = 64
    .venv/bin/python scripts/bench_core.py --ns 256 --repeat 41
    /tmp/t/bin/python scripts/bench_core.py                 # a Python that has torch adds its column

The core needs only NumPy, so any Python with NumPy runs this; when `torch` imports
(it is no dependency of the book: a throwaway venv, `python -m venv /tmp/t &&
/tmp/t/bin/pip install torch numpy`), `torch.nn.functional.scaled_dot_product_attention`
is timed too, on the same arrays (float64, then float32). Every library gets one thread (the
*_NUM_THREADS variables are set before NumPy loads, and `torch.set_num_threads(1)`).

Three things are timed per n, taking turns so that load from elsewhere hits all alike:

- core: `scaled_dot_product_attention(Q, K, V)`, its checks included;
- bare: the formula in NumPy with no checks, `softmax(Q Kᵀ / √d) V` in place;
- torch: torch's SDPA (it returns Z only; the other two also return A);

and, alone, the core's check (`_validate.check_attention`). Each figure is the median
over `--repeat` rounds of the time per call. Prints a Markdown table with the ratios
and the target (the core within 1.5× of torch, or of bare NumPy without torch).
Timing lives here, never in a unit test.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy (and torch) load their thread pools

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import timeit  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# --book DIR times the core of another checkout (another commit's book/, for a before and after).
_BOOK = sys.argv[sys.argv.index("--book") + 1] if "--book" in sys.argv[:-1] else str(ROOT / "book")
sys.path.insert(0, _BOOK)

from attention_steps import scaled_dot_product_attention  # noqa: E402

try:
    from attention_steps._validate import check_attention  # noqa: E402
except ImportError:  # a core from before the checks had one call per function
    from attention_steps.core import checked_qkv

    def check_attention(Q, K, V, mask):
        return checked_qkv(Q, K, V)


TARGET = 1.5  # the core's time / the reference's (torch's, or bare NumPy's without torch)


def bare(Q, K, V):
    """The formula with no checks, as a reader would write it in NumPy: (Z, A)."""
    S = Q @ K.T
    S /= np.sqrt(Q.shape[-1])
    S -= S.max(axis=-1, keepdims=True)
    A = np.exp(S, out=S)
    A /= A.sum(axis=-1, keepdims=True)
    return A @ V, A


def torch_sdpa():
    """A function (Q, K, V) -> Z with torch's SDPA on one thread, or None when torch does not import."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(1)

    def sdpa(Q, K, V):
        with torch.no_grad():
            return F.scaled_dot_product_attention(Q, K, V)

    sdpa.version = torch.__version__
    sdpa.convert = torch.from_numpy
    return sdpa


def per_call(fn, *args, number: int) -> float:
    """Seconds per call of `number` calls in a row."""
    return timeit.timeit(lambda: fn(*args), number=number) / number


def measure(n: int, d: int, repeat: int, torch_fn, dtype: str = "float64") -> dict[str, float]:
    """Median seconds per call of each candidate at n tokens of width d (seeded inputs of `dtype`)."""
    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((n, d)).astype(dtype) for _ in range(3))
    candidates = {
        "core": (scaled_dot_product_attention, (Q, K, V)),
        "bare": (bare, (Q, K, V)),
        "check": (check_attention, (Q, K, V, None)),
    }
    if torch_fn is not None:
        candidates["torch"] = (torch_fn, tuple(torch_fn.convert(x) for x in (Q, K, V)))
    Z_core, _ = scaled_dot_product_attention(Q, K, V)
    tolerance = 1e-10 if dtype == "float64" else 1e-5
    assert np.allclose(Z_core, bare(Q, K, V)[0], atol=tolerance)
    if torch_fn is not None:
        assert np.allclose(Z_core, torch_fn(*candidates["torch"][1]).numpy(), atol=tolerance)
    for fn, args in candidates.values():
        fn(*args)  # warm-up: first calls allocate and load
    number = max(1, round(0.02 / per_call(scaled_dot_product_attention, Q, K, V, number=1)))  # ~20 ms a round
    times: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(repeat):
        for name, (fn, args) in candidates.items():
            times[name].append(per_call(fn, *args, number=number if name != "check" else 200))
    return {name: statistics.median(t) for name, t in times.items()}


def table(rows: dict[int, dict[str, float]], d: int, with_torch: bool, dtype: str) -> str:
    reference = "torch" if with_torch else "bare"
    head = ["n", "core (ms)", "bare NumPy (ms)", *(["torch SDPA (ms)"] if with_torch else [])]
    head += ["core / bare", *(["core / torch", "bare / torch"] if with_torch else []), "check (µs)", "target"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for n, t in rows.items():
        cells = [f"{n:,}", f"{t['core'] * 1e3:.2f}", f"{t['bare'] * 1e3:.2f}"]
        if with_torch:
            cells.append(f"{t['torch'] * 1e3:.2f}")
        cells.append(f"{t['core'] / t['bare']:.2f}×")
        if with_torch:
            cells += [f"{t['core'] / t['torch']:.2f}×", f"{t['bare'] / t['torch']:.2f}×"]
        ratio = t["core"] / t[reference]
        cells += [f"{t['check'] * 1e6:.1f}", f"{'met' if ratio <= TARGET else 'missed'} (≤ {TARGET}× {reference})"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + f"\n\nd = {d}, {dtype}, one thread, medians per call"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ns", type=int, nargs="+", default=[256, 1024, 2048], help="sequence lengths n")
    parser.add_argument("--d", type=int, default=64, help="width of one head")
    parser.add_argument("--repeat", type=int, default=21, help="rounds; each figure is their median")
    parser.add_argument("--dtypes", nargs="+", default=["float64", "float32"], choices=["float64", "float32"])
    parser.add_argument("--book", default=_BOOK, help="the book/ folder whose core is timed (default: this one)")
    parser.add_argument("--no-torch", action="store_true", help="skip torch even when it imports")
    args = parser.parse_args(argv)
    torch_fn = None if args.no_torch else torch_sdpa()
    versions = f"NumPy {np.__version__}" + (f", torch {torch_fn.version}" if torch_fn else ", no torch")
    print(
        f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python {platform.python_version()}, {versions}, core from {args.book}\n"
    )
    for dtype in args.dtypes:
        rows = {n: measure(n, args.d, args.repeat, torch_fn, dtype) for n in args.ns}
        print(table(rows, args.d, torch_fn is not None, dtype) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
