"""The book's notation, with every shape read off a real computation.

    LayerConfig(d_model=512, num_heads=8)   the sizes of one attention layer
    ORIGINAL_TRANSFORMER                    the base model of "Attention Is All You Need"
    layer_shapes(config, n)                 run a seeded layer, return {symbol: shape}
    notation_table(config, n)               the intro's table and conventions, as MyST Markdown
    bmatrix(M)                              a matrix as LaTeX, for MyST math

Nothing here types a shape: `layer_shapes` builds random weights of the
configured sizes, runs `trace_attention` on them and reports what came out.

The conventions (stated once, in CONVENTIONS, and shown under the table):
a symbol without a superscript is the whole layer (all heads); a superscript (r)
is head r's; the maths counts from 1 (tokens x_1 … x_n, heads r = 1 … h) and
Python from 0 (head r is `trace.head(r - 1)`, a_ij is `A[i - 1, j - 1]`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int
from .multihead import trace_attention
from .tables import markdown_table


@dataclass(frozen=True)
class LayerConfig:
    """Sizes of one multi-head attention layer: d_model, num_heads (h in the text), d_k = d_v = d_model / h. The introduction's notation, used in every chapter."""

    d_model: int
    num_heads: int

    def __post_init__(self):
        positive_int("d_model", self.d_model)
        positive_int("num_heads", self.num_heads)
        if self.d_model % self.num_heads:
            raise ValueError(
                f"num_heads={self.num_heads} must divide d_model={self.d_model} so that d_k = d_model / h is whole"
            )

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys: d_model / h."""
        return self.d_model // self.num_heads

    @property
    def d_v(self) -> int:
        """Width of one head's values: d_model / h."""
        return self.d_model // self.num_heads


# Vaswani et al. (2017), "Attention Is All You Need", base model: d_model = 512, h = 8.
ORIGINAL_TRANSFORMER = LayerConfig(d_model=512, num_heads=8)


def random_layer(config: LayerConfig, n: int, *, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded X (n, d_model), W_Q, W_K, W_V (d_model, h·d_k) and W_O (h·d_v, d_model). The introduction's notation, used in every chapter."""
    n = positive_int("n", n)
    rng = np.random.default_rng(seed)
    d, hd = config.d_model, config.num_heads * config.d_k
    scale = 1 / np.sqrt(d)
    return {
        "X": rng.standard_normal((n, d)),
        "W_Q": rng.standard_normal((d, hd)) * scale,
        "W_K": rng.standard_normal((d, hd)) * scale,
        "W_V": rng.standard_normal((d, config.num_heads * config.d_v)) * scale,
        "W_O": rng.standard_normal((config.num_heads * config.d_v, d)) * scale,
    }


def layer_shapes(config: LayerConfig, n: int, *, seed: int = 0) -> dict[str, tuple[int, ...]]:
    """Run one seeded layer of `config` on n tokens; return the shape of every symbol. The introduction's notation, used in every chapter.

    Symbols without a superscript are the whole layer's (W_Q, Q, … all heads;
    "A" is the h matrices A⁽ʳ⁾ stacked); those with ⁽ʳ⁾ are head r's, measured on
    the first head (r = 1). The scalars n, d_model, d_k, d_v, h map to 1-tuples
    holding their value.
    """
    w = random_layer(config, n, seed=seed)
    t = trace_attention(w["X"], w["W_Q"], w["W_K"], w["W_V"], w["W_O"], num_heads=config.num_heads)
    head = t.head(0)  # head r = 1, code index 0
    return {
        "n": (t.X.shape[0],),
        "d_model": (t.X.shape[1],),
        "h": (t.num_heads,),
        "d_k": (t.d_k,),
        "d_v": (t.d_v,),
        "X": t.X.shape,
        **{name: t[name].shape for name in ("W_Q", "W_K", "W_V", "Q", "K", "V", "A")},
        **{f"{name}⁽ʳ⁾": t[f"{name}⁽¹⁾"].shape for name in ("W_Q", "W_K", "W_V", "Q", "K", "V", "QKᵀ", "S", "A", "Z")},
        "Z_cat": t.Z_cat.shape,
        "W_O": t.W_O.shape,
        "W_O⁽ʳ⁾": head.W_O.shape,
        "Y": t.Y.shape,
    }


# key of layer_shapes -> (math, what it is, shape in symbols; "" for a number)
NOTATION: dict[str, tuple[str, str, str]] = {
    "n": ("n", "number of tokens $x_1, \\dots, x_n$", ""),
    "d_model": (r"d_{\text{model}}", "width of a token vector", ""),
    "h": ("h", "number of heads, $r = 1, \\dots, h$", ""),
    "d_k": ("d_k", r"width of one head's queries and keys, $d_{\text{model}} / h$", ""),
    "d_v": ("d_v", r"width of one head's values, $d_{\text{model}} / h$", ""),
    "X": ("X", "input; row $i$ is token $x_i$", r"n \times d_{\text{model}}"),
    "W_Q": (
        "W_Q, W_K, W_V",
        "the layer's query, key, value weights, all heads side by side; $W_V$ has $h d_v$ columns",
        r"d_{\text{model}} \times h d_k",
    ),
    "W_Q⁽ʳ⁾": (
        "W_Q^{(r)}, W_K^{(r)}, W_V^{(r)}",
        "head $r$'s block of $d_k$ of their columns; $d_v$ for $W_V^{(r)}$",
        r"d_{\text{model}} \times d_k",
    ),
    "Q": (
        "Q, K, V",
        "$XW_Q$, $XW_K$, $XW_V$: queries (what each token looks for), keys (what it offers), "
        "values (what it passes on), all heads; $V$ has $h d_v$ columns",
        r"n \times h d_k",
    ),
    "Q⁽ʳ⁾": (
        "Q^{(r)}, K^{(r)}, V^{(r)}",
        "head $r$'s, $XW_Q^{(r)}$, …; row $i$ of $Q^{(r)}$ is $q_i^{(r)}$; $V^{(r)}$ has $d_v$ columns",
        r"n \times d_k",
    ),
    "QKᵀ⁽ʳ⁾": (
        r"Q^{(r)} K^{(r)\top}",
        "head $r$'s raw scores; entry $(i, j)$ is $q_i^{(r)} \\cdot k_j^{(r)}$",
        r"n \times n",
    ),
    "S⁽ʳ⁾": ("S^{(r)}", r"scaled scores $Q^{(r)} K^{(r)\top} / \sqrt{d_k}$", r"n \times n"),
    "A⁽ʳ⁾": (
        "A^{(r)}",
        r"weights $\operatorname{softmax}(S^{(r)})$; $a_{ij}^{(r)}$ is what query $i$ "
        "gives key $j$; rows sum to 1",
        r"n \times n",
    ),
    "Z⁽ʳ⁾": ("Z^{(r)}", "head $r$'s output $A^{(r)} V^{(r)}$", r"n \times d_v"),
    "Z_cat": (r"Z_{\text{cat}}", r"the heads' outputs side by side, $[Z^{(1)} \cdots Z^{(h)}]$", r"n \times h d_v"),
    "W_O": ("W^O", "output weights", r"h d_v \times d_{\text{model}}"),
    "W_O⁽ʳ⁾": ("W^{O(r)}", "the $d_v$ rows of $W^O$ that multiply head $r$'s output", r"d_v \times d_{\text{model}}"),
    "Y": ("Y", r"the layer's output $Z_{\text{cat}} W^O$", r"n \times d_{\text{model}}"),
}

# The conventions, stated once for the whole book (shown under the notation table).
CONVENTIONS = """\
**One head or all heads.** A symbol without a superscript is the whole layer, all heads together:
$W_Q$ is $d_{\\text{model}} \\times h d_k$ and $Q = XW_Q$. A superscript $(r)$ picks head $r$:
$W_Q^{(r)}$, $Q^{(r)}$, $A^{(r)}$, $Z^{(r)}$. Chapters 1 to 5 use a single head ($h = 1$), where
the two are the same: $W_Q = W_Q^{(1)}$, $A = A^{(1)}$, and the output $Z = Z^{(1)} = Z_{\\text{cat}}$.

**Counting.** The maths counts from 1: tokens $x_1, \\dots, x_n$, heads $r = 1, \\dots, h$, and
$a_{ij}$ is the weight query token $i$ gives key token $j$. Python counts from 0, so in code
$a_{ij}$ of head $r$ is `t.A[r - 1][i - 1, j - 1]` and head $r$ is `t.head(r - 1)`. Names count
like the maths: `t["Z⁽¹⁾"]` (or `t["Z^(1)"]`) is the first head's output. Where the text gives a
code index, it says so.

**In code.** `t = trace_attention(X, W_Q, W_K, W_V, W_O, num_heads=h)` keeps every matrix: `t.Z_cat` is $Z_{\\text{cat}}$; `t.Z_heads` stacks the $h$ outputs $Z^{(r)}$
($h \\times n \\times d_v$), and `t.A` the $h$ matrices $A^{(r)}$; `t.head(r - 1)` holds all of head
$r$'s matrices, its output as `.Z`.
"""


def notation_table(config: LayerConfig, n: int, *, seed: int = 0, conventions: bool = True) -> str:
    """The notation as MyST Markdown: a table (symbol, meaning, and the shape in
    symbols = the shape measured on a layer of `config` with n tokens), then the
    CONVENTIONS unless `conventions=False`. The introduction's notation, used in every chapter."""
    shapes = layer_shapes(config, n, seed=seed)
    rows = []
    for key, (tex, meaning, shape) in NOTATION.items():
        measured = "\u00a0×\u00a0".join(str(s) for s in shapes[key])  # no line break inside 11 × 64
        rows.append((f"${tex}$", meaning, f"{f'${shape}$ = ' if shape else ''}{measured}"))
    table = markdown_table(["symbol", "what it is", "shape (measured)"], rows, align="lll")
    return f"{table}\n\n{CONVENTIONS}" if conventions else table


def bmatrix(M, fmt: str = "{:g}") -> str:
    r"""A matrix (or a row vector) as LaTeX: \begin{bmatrix} 2 & 0 & 1 \\ 0 & 2 & 1 \end{bmatrix}. The introduction's notation, used in every chapter."""
    M = np.atleast_2d(as_matrix("M", M))
    if M.ndim != 2:
        raise ValueError(f"M must be a vector or a matrix, got shape {M.shape}")
    rows = (" & ".join(fmt.format(0.0 if v == 0 else v) for v in row) for row in M)
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


__all__ = [
    "LayerConfig",
    "ORIGINAL_TRANSFORMER",
    "random_layer",
    "layer_shapes",
    "NOTATION",
    "CONVENTIONS",
    "notation_table",
    "bmatrix",
]
