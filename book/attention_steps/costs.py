"""What one attention layer costs: the n × n matrix in memory, and the multiply-adds.

The weights A (and the scores before them) form an n × n matrix for a sequence
of n tokens, per head and per layer. This module counts it so the chapters can
print the counts instead of typing them:

    attention_entries(4096)                 16_777_216 entries (n²)
    attention_bytes(4096, "FP16")           33_554_432 bytes (n² × 2)
    memory_table()                          the source articles' table, n = 512 … 128,000 at FP16
    format_count(16_777_216)                '16.8M'
    format_bytes(33_554_432)                '32 MiB'
    stage_costs(n=4096, d=512)              multiply-adds of every stage of the layer

Memory uses binary units (1 MiB = 2²⁰ bytes, 1 GiB = 2³⁰ bytes), as the source articles'
table does although it writes "MB" and "GB".
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass

from ._validate import positive_int
from .i18n import N_, _
from .tables import Table, markdown_table

# Bytes needed to store one number at each precision.
PRECISIONS = {"FP32": 4, "FP16": 2, "BF16": 2, "FP8": 1}

# The sequence lengths of the source articles' memory table: from the original
# Transformer's 512 tokens to a 128k-token context window.
ARTICLE_LENGTHS = (512, 4096, 32768, 128000)

_COUNT_UNITS = (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3))
_BYTE_UNITS = (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10))


def bytes_per_entry(precision) -> int:
    """Bytes per number: a name from PRECISIONS ("FP16" → 2, "FP32" → 4) or a positive integer. Chapter 8."""
    if isinstance(precision, str):
        key = precision.strip().upper()
        if key not in PRECISIONS:
            raise ValueError(
                f"precision must be one of {', '.join(PRECISIONS)} or a number of bytes, got {precision!r}"
            )
        return PRECISIONS[key]
    if isinstance(precision, bool) or not isinstance(precision, numbers.Integral):
        raise TypeError(
            f"bytes_per_entry must be a positive integer or a precision name such as 'FP16', "
            f"got {precision!r} ({type(precision).__name__})"
        )
    return positive_int("bytes_per_entry", precision)


def attention_entries(n) -> int:
    """Entries of the n × n attention matrix of a sequence of n tokens: n². Chapter 8."""
    n = positive_int("n", n)
    return n * n


def attention_bytes(n, bytes_per_entry=2) -> int:
    """Bytes of the n × n attention matrix at `bytes_per_entry` (2 = FP16, the default; or "FP32", ...). Chapters 8 and 11."""
    return attention_entries(n) * _bytes(bytes_per_entry)


def _bytes(precision) -> int:
    return bytes_per_entry(precision)


@dataclass(frozen=True)
class MemoryRow:
    """One row of the memory table: n tokens, n² entries, n² × bytes_per_entry bytes. Chapter 8."""

    n: int
    entries: int
    bytes: int

    @property
    def n_text(self) -> str:
        """n with thousands separators: '128,000'."""
        return f"{self.n:,}"

    @property
    def entries_text(self) -> str:
        """Entries to three significant figures: '16.8M'."""
        return format_count(self.entries)

    @property
    def bytes_text(self) -> str:
        """Bytes in binary units: '32 MiB'."""
        return format_bytes(self.bytes)


def memory_table(ns: Iterable = ARTICLE_LENGTHS, bytes_per_entry=2) -> list[MemoryRow]:
    """Rows (n, entries, bytes) of the n × n matrix for each n in `ns` (default: the source articles' 512 … 128,000 at FP16). Chapters 8 and 11."""
    if isinstance(ns, (str, bytes)) or not isinstance(ns, Iterable):
        raise TypeError(f"ns must be a sequence of sequence lengths, got {ns!r} ({type(ns).__name__})")
    ns = list(ns)
    if not ns:
        raise ValueError("ns must list at least one sequence length, got an empty sequence")
    size = _bytes(bytes_per_entry)
    rows = []
    for i, n in enumerate(ns):
        try:
            entries = attention_entries(n)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"ns[{i}]: {exc}") from None
        rows.append(MemoryRow(n=int(n), entries=entries, bytes=entries * size))
    return rows


def format_count(count) -> str:
    """A count to three significant figures with K/M/B/T (powers of 1000): 262144 → '262K'. Chapters 8 and 11."""
    count = _non_negative("count", count)
    for suffix, unit in _COUNT_UNITS:
        if count >= unit:
            return f"{_three_figures(count / unit)}{suffix}"
    return f"{_three_figures(count)}"


def format_bytes(size, unit: str | None = None) -> str:
    """Bytes in binary units, three significant figures: 524288 → '0.5 MiB', 2**31 → '2 GiB'. Chapters 8 and 11.

    The unit is the largest one in which the number is at least 0.5 (so 2¹⁹
    bytes reads '0.5 MiB', as in the source articles' table), unless `unit` names one
    of B, KiB, MiB, GiB, TiB.
    """
    size = _non_negative("size", size)
    units = dict(_BYTE_UNITS, B=1)
    if unit is not None:
        if unit not in units:
            raise ValueError(f"unit must be one of {', '.join(units)}, got {unit!r}")
        return f"{_three_figures(size / units[unit])} {unit}"
    for name, factor in _BYTE_UNITS:
        if size >= factor / 2:
            return f"{_three_figures(size / factor)} {name}"
    return f"{_three_figures(size)} B"


def _three_figures(x: float) -> str:
    """3 significant figures without a trailing '.0' or exponent: 30.52 → '30.5', 32.0 → '32', 262.1 → '262'."""
    if x >= 1000:
        return f"{x:,.0f}"
    text = f"{float(f'{x:.3g}'):.6f}".rstrip("0").rstrip(".")
    return text


def _non_negative(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a non-negative number, got {value!r} ({type(value).__name__})")
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


def table_markdown(rows: Iterable[MemoryRow], *, precision_name: str = "FP16") -> Table:
    """The memory table as a Markdown (MyST) table, as the chapters show it, its headers in the current
    language (attention_steps.i18n). Chapters 8 and 11."""
    rows = list(rows)
    if not rows or not all(isinstance(r, MemoryRow) for r in rows):
        raise TypeError("rows must be a non-empty list of MemoryRow, as returned by memory_table()")
    return markdown_table(
        [_("sequence length n"), _("entries n²"), _("memory at {precision}").format(precision=precision_name)],
        [(r.n_text, r.entries_text, r.bytes_text) for r in rows],
    )


@dataclass(frozen=True)
class StageCost:
    """The work of one stage: its name, the product it computes, the big-O and the exact count. Chapter 8.

    `count` is multiply-adds for a matrix product (an (a × b)(b × c) product
    takes a·b·c of them) and elementwise operations for the softmax (`kind`).
    """

    stage: str
    product: str
    big_o: str
    count: int
    kind: str = "multiply-adds"


def stage_costs(n, d, *, output_projection: bool = True) -> list[StageCost]:
    """Work per stage of one self-attention layer on n tokens of width d (= d_model). Chapter 8.

    With h heads of width d_k = d / h the multiply-adds are the same: h heads
    each do n²·d_k for QKᵀ, and h·n²·d_k = n²·d. Only the elementwise scale
    and softmax, n² per head, becomes h·n² (counted here for one head). The projections are
    X (n × d) times W_Q, W_K, W_V (d × d); W_O (d × d) is included unless
    `output_projection` is False (the source articles' five steps leave it out).
    """
    n = positive_int("n", n)
    d = positive_int("d", d)
    stages = [
        StageCost(N_("projections Q, K, V"), "3 × X (n×d) · W (d×d)", "O(n·d²)", 3 * n * d * d),
        StageCost(N_("scores QKᵀ"), "Q (n×d) · Kᵀ (d×n)", "O(n²·d)", n * d * n),
        StageCost(
            N_("scale and softmax"), N_("n × n entries, one by one"), "O(n²)", n * n, kind="elementwise operations"
        ),
        StageCost(N_("weighted sum AV"), "A (n×n) · V (n×d)", "O(n²·d)", n * n * d),
    ]
    if output_projection:
        stages.append(StageCost(N_("output projection"), "Z_cat (n×d) · W_O (d×d)", "O(n·d²)", n * d * d))
    return stages


def total_multiply_adds(n, d, *, output_projection: bool = True) -> int:
    """All matrix-product multiply-adds of the layer (the softmax's elementwise work not included). Chapter 8."""
    return sum(s.count for s in stage_costs(n, d, output_projection=output_projection) if s.kind == "multiply-adds")


def quadratic_share(n, d, *, output_projection: bool = True) -> float:
    """Fraction of the multiply-adds spent in QKᵀ and AV (the n²·d terms): near 0 for short, near 1 for long sequences. Chapter 8."""
    stages = stage_costs(n, d, output_projection=output_projection)
    quadratic = sum(s.count for s in stages if s.big_o == "O(n²·d)")
    return quadratic / total_multiply_adds(n, d, output_projection=output_projection)


def crossover_length(d, *, output_projection: bool = True) -> float:
    """The n at which QKᵀ + AV (2n²d) cost as much as the projections (3nd² or 4nd² with W_O). Chapter 8.

    2n²d = k·n·d² gives n = k·d / 2: beyond it the n² terms dominate.
    """
    d = positive_int("d", d)
    k = 4 if output_projection else 3
    return k * d / 2


def stages_markdown(stages: Iterable[StageCost], *, products: bool = False) -> Table:
    """The per-stage costs as a Markdown table: stage, (product,) order, count to three significant figures. Chapter 8.

    Counts are multiply-adds, except the softmax's elementwise operations,
    marked "(elementwise)". `products` adds the matrix product of each stage
    (a wider table: leave it out where the page must fit a phone). The headers, the stages'
    names and "(elementwise)" are in the current language (attention_steps.i18n).
    """
    stages = list(stages)
    if not stages or not all(isinstance(s, StageCost) for s in stages):
        raise TypeError("stages must be a non-empty list of StageCost, as returned by stage_costs()")

    def count(s: StageCost) -> str:
        counted = format_count(s.count)
        return counted if s.kind == "multiply-adds" else _("{count} (elementwise)").format(count=counted)

    head = [_("stage"), *([_("product")] if products else []), _("order"), _("multiply-adds")]
    rows = [[_(s.stage), *([_(s.product)] if products else []), s.big_o, count(s)] for s in stages]
    return markdown_table(head, rows, align="l" * (len(head) - 1) + "r")
