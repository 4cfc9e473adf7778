"""How many numbers an attention layer learns.

A multi-head layer learns four matrices: W_Q, W_K (d_model, h·d_k),
W_V (d_model, h·d_v) and W_O (h·d_v, d_model), plus a bias per output column
if the layer has biases. With d_k = d_v = d_model / h that is 4·d_model²
weights, whatever the number of heads: more heads means narrower heads, not
more parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int
from .i18n import N_, _
from .tables import Table, markdown_table


@dataclass(frozen=True)
class ParameterCount:
    """Learned numbers of one attention layer, matrix by matrix. Chapter 7."""

    d_model: int
    num_heads: int
    d_k: int
    d_v: int
    W_Q: int  # d_model · h·d_k
    W_K: int  # d_model · h·d_k
    W_V: int  # d_model · h·d_v
    W_O: int  # h·d_v · d_model
    biases: int  # h·d_k + h·d_k + h·d_v + d_model, or 0 without biases

    @property
    def weights(self) -> int:
        """The four weight matrices together (4·d_model² when d_k = d_v = d_model / h)."""
        return self.W_Q + self.W_K + self.W_V + self.W_O

    @property
    def total(self) -> int:
        """Weights plus biases."""
        return self.weights + self.biases

    @property
    def per_head(self) -> int:
        """Weights one head owns: its columns of W_Q, W_K, W_V and its rows of W_O."""
        return self.weights // self.num_heads

    def as_rows(self) -> list[tuple[str, str, int]]:
        """(name, shape, count) for each matrix, the biases and the total: a table for the page."""
        h, d, dk, dv = self.num_heads, self.d_model, self.d_k, self.d_v
        return [
            ("W_Q", f"{d} × {h * dk}", self.W_Q),
            ("W_K", f"{d} × {h * dk}", self.W_K),
            ("W_V", f"{d} × {h * dv}", self.W_V),
            ("W_O", f"{h * dv} × {d}", self.W_O),
            (N_("biases"), f"{h * dk} + {h * dk} + {h * dv} + {d}" if self.biases else N_("none"), self.biases),
            (N_("total"), "", self.total),
        ]

    def as_markdown(self) -> Table:
        """The rows of `as_rows` as a Markdown table, counts with thousands separators; its words
        (headers, "biases", "total") in the current language (attention_steps.i18n)."""
        rows = [
            (_(name), _(shape) if shape == "none" else shape, f"{count:,}") for name, shape, count in self.as_rows()
        ]
        return markdown_table([_("matrix"), _("shape"), _("parameters")], rows, align="llr")


def parameter_count(d_model, num_heads=8, *, d_k=None, d_v=None, bias: bool = False) -> ParameterCount:
    """Count the learned numbers of a multi-head attention layer. Chapter 7.

    d_model is the width of X (n, d_model) and of Y; d_k and d_v default to
    d_model / num_heads (which must then divide evenly). `bias=True` adds one
    bias per output column of each of the four projections.
    """
    d_model = positive_int("d_model", d_model)
    h = positive_int("num_heads", num_heads)
    if (d_k is None or d_v is None) and d_model % h:
        raise ValueError(
            f"num_heads={h} does not divide d_model={d_model}: give d_k and d_v explicitly or choose h that divides it"
        )
    d_k = d_model // h if d_k is None else positive_int("d_k", d_k)
    d_v = d_model // h if d_v is None else positive_int("d_v", d_v)
    if not isinstance(bias, (bool, np.bool_)):
        raise TypeError(f"bias must be True or False, got {bias!r} ({type(bias).__name__})")
    biases = (2 * h * d_k + h * d_v + d_model) if bias else 0
    return ParameterCount(
        d_model=d_model,
        num_heads=h,
        d_k=d_k,
        d_v=d_v,
        W_Q=d_model * h * d_k,
        W_K=d_model * h * d_k,
        W_V=d_model * h * d_v,
        W_O=h * d_v * d_model,
        biases=biases,
    )


def count_entries(**matrices) -> int:
    """Total number of entries of the named arrays, e.g. count_entries(W_Q=W_Q, W_O=W_O). Chapter 7.

    Counts what a layer actually holds, to compare with `parameter_count`.
    """
    if not matrices:
        raise ValueError("count_entries needs at least one named matrix, e.g. count_entries(W_Q=W_Q)")
    return sum(int(as_matrix(name, M).size) for name, M in matrices.items())


__all__ = ["ParameterCount", "parameter_count", "count_entries"]
