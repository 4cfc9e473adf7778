"""The one Markdown table writer: every table a chapter shows (memory, costs, KV cache,
timings, sparsity, parameters, notation, the scaling chapters' tables) goes through it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence], fmt: str = "{:.3g}", *, align: str | None = None
) -> str:
    """A Markdown (MyST) table: a header row, the alignment row, then one row per item of `rows`. Every chapter's tables (chapters 3, 4, 7, 8 and 11).

    Floats are written with `fmt`, anything else with str (so a writer can pass text it
    formatted itself). `align` has one letter per column, "l" (left) or "r" (right);
    by default every column is right-aligned, as numbers read best.
    """
    headers = list(headers)
    align = "r" * len(headers) if align is None else align
    if len(align) != len(headers) or set(align) - {"l", "r"}:
        raise ValueError(f"align must have one 'l' or 'r' per column ({len(headers)}), got {align!r}")

    def cell(x) -> str:
        return fmt.format(x) if isinstance(x, (float, np.floating)) else str(x)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


__all__ = ["markdown_table"]
