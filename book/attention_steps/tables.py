"""The one Markdown table writer: every table a chapter shows (memory, costs, KV cache,
timings, sparsity, parameters, notation, the scaling chapters' tables) goes through it.

A table is a `Table`: the Markdown text itself (a str), which a notebook shows as a table
when it is a cell's last value (`_repr_markdown_`), with no display call around it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


class Table(str):
    """A Markdown table's text; shown as a table when a notebook cell ends with it."""

    def _repr_markdown_(self) -> str:
        return str(self)


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence], fmt: str = "{:.3g}", *, align: str | None = None
) -> Table:
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
    return Table("\n".join(lines))


__all__ = ["Table", "markdown_table"]
