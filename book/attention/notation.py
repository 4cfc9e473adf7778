"""The book's notation, with every shape read off a real computation.

    LayerConfig(d_model=512, h=8)      the sizes of one attention layer
    ORIGINAL_TRANSFORMER               the base model of "Attention Is All You Need"
    layer_shapes(config, n)            run a seeded layer, return {symbol: shape}
    notation_table(config, n)          the intro's table, as MyST Markdown
    bmatrix(M)                         a matrix as LaTeX, for MyST math

Nothing here types a shape: `layer_shapes` builds random weights of the
configured sizes, runs `trace_attention` on them and reports what came out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_matrix, positive_int
from .multihead import split_heads, trace_attention


@dataclass(frozen=True)
class LayerConfig:
    """Sizes of one multi-head attention layer: d_model, h heads, d_k = d_v = d_model / h."""

    d_model: int
    h: int

    def __post_init__(self):
        positive_int("d_model", self.d_model)
        positive_int("h", self.h)
        if self.d_model % self.h:
            raise ValueError(f"h={self.h} must divide d_model={self.d_model} so that d_k = d_model / h is whole")

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys: d_model / h."""
        return self.d_model // self.h

    @property
    def d_v(self) -> int:
        """Width of one head's values: d_model / h."""
        return self.d_model // self.h


# Vaswani et al. (2017), "Attention Is All You Need", base model: d_model = 512, h = 8.
ORIGINAL_TRANSFORMER = LayerConfig(d_model=512, h=8)


def random_layer(config: LayerConfig, n: int, *, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded X (n, d_model), W_Q, W_K, W_V (d_model, h·d_k) and W_O (h·d_v, d_model)."""
    n = positive_int("n", n)
    rng = np.random.default_rng(seed)
    d, hd = config.d_model, config.h * config.d_k
    scale = 1 / np.sqrt(d)
    return {
        "X": rng.standard_normal((n, d)),
        "W_Q": rng.standard_normal((d, hd)) * scale,
        "W_K": rng.standard_normal((d, hd)) * scale,
        "W_V": rng.standard_normal((d, config.h * config.d_v)) * scale,
        "W_O": rng.standard_normal((config.h * config.d_v, d)) * scale,
    }


def layer_shapes(config: LayerConfig, n: int, *, seed: int = 0) -> dict[str, tuple[int, ...]]:
    """Run one seeded layer of `config` on n tokens; return the shape of every symbol.

    Per-head symbols (W_Q … A, Z, Z⁽ʳ⁾) are head 1's, "W_Q (all heads)" and
    "Q (all heads)" the whole layer's; the scalars n, d_model, d_k, d_v, h map
    to 1-tuples holding their value.
    """
    w = random_layer(config, n, seed=seed)
    t = trace_attention(w["X"], w["W_Q"], w["W_K"], w["W_V"], w["W_O"], num_heads=config.h)
    head = t.head(0)
    weights = {name: split_heads(t[name], config.h)[0] for name in ("W_Q", "W_K", "W_V")}
    return {
        "n": (t.X.shape[0],),
        "d_model": (t.X.shape[1],),
        "d_k": (t.d_k,),
        "d_v": (t.d_v,),
        "h": (t.h,),
        "X": t.X.shape,
        "W_Q (all heads)": t.W_Q.shape,
        "Q (all heads)": t.Q.shape,
        **{name: W.shape for name, W in weights.items()},
        "Q": head.Q.shape,
        "K": head.K.shape,
        "V": head.V.shape,
        "QKᵀ": head.QK_T.shape,
        "S": head.S.shape,
        "A": head.A.shape,
        "Z": head.Z.shape,
        "Z⁽ʳ⁾": t["Z⁽¹⁾"].shape,
        "Z_cat": t.Z_cat.shape,
        "W_O": t.W_O.shape,
        "Y": t.Y.shape,
    }


# symbol -> (math, what it is, shape in symbols; "" for a number). Per the book's convention,
# symbols without a superscript (W_Q, Q, ...) mean the whole layer, all heads side by side;
# one head's carry (r). Chapters 1–5 have h = 1 and drop the (r).
NOTATION: dict[str, tuple[str, str, str]] = {
    "n": ("n", "number of tokens", ""),
    "d_model": (r"d_{\text{model}}", "width of a token vector", ""),
    "d_k": ("d_k", "width of a query or key (one head)", ""),
    "d_v": ("d_v", "width of a value (one head)", ""),
    "h": ("h", "number of heads", ""),
    "X": ("X", "input, one token per row", r"n \times d_{\text{model}}"),
    "W_Q (all heads)": ("W_Q", "query weights, all heads side by side (so are $W_K$; $W_V$ has $h d_v$ columns)", r"d_{\text{model}} \times h d_k"),
    "Q (all heads)": ("Q", "queries $XW_Q$, all heads (so are $K$ and $V$)", r"n \times h d_k"),
    "W_Q": (r"W_Q^{(r)}", "head $r$'s query weights", r"d_{\text{model}} \times d_k"),
    "W_K": (r"W_K^{(r)}", "head $r$'s key weights", r"d_{\text{model}} \times d_k"),
    "W_V": (r"W_V^{(r)}", "head $r$'s value weights", r"d_{\text{model}} \times d_v"),
    "Q": (r"Q^{(r)}", "head $r$'s queries $XW_Q^{(r)}$: what each token looks for", r"n \times d_k"),
    "K": (r"K^{(r)}", "head $r$'s keys $XW_K^{(r)}$: what each token offers", r"n \times d_k"),
    "V": (r"V^{(r)}", "head $r$'s values $XW_V^{(r)}$: what each token passes on", r"n \times d_v"),
    "QKᵀ": (r"Q^{(r)}K^{(r)\top}", "raw scores; entry $(i, j)$ is $q_i \\cdot k_j$", r"n \times n"),
    "S": (r"S^{(r)}", r"scaled scores $Q^{(r)}K^{(r)\top} / \sqrt{d_k}$", r"n \times n"),
    "A": (r"A^{(r)}", r"weights $\operatorname{softmax}(S^{(r)})$; rows sum to 1", r"n \times n"),
    "Z⁽ʳ⁾": (r"Z^{(r)}", "head $r$'s output $A^{(r)}V^{(r)}$ ($Z$ when $h = 1$)", r"n \times d_v"),
    "Z_cat": (r"Z_{\text{cat}}", "the heads' outputs side by side", r"n \times h d_v"),
    "W_O": ("W^O", "output weights", r"h d_v \times d_{\text{model}}"),
    "Y": ("Y", r"the layer's output $Z_{\text{cat}} W^O$", r"n \times d_{\text{model}}"),
}


def notation_table(config: LayerConfig, n: int, *, seed: int = 0) -> str:
    """The notation as a MyST Markdown table: symbol, meaning, and the shape in
    symbols = the shape measured on a layer of `config` with n tokens."""
    shapes = layer_shapes(config, n, seed=seed)
    lines = ["| symbol | what it is | shape (measured) |", "|---|---|---|"]
    for key, (tex, meaning, shape) in NOTATION.items():
        measured = "\u00a0×\u00a0".join(str(s) for s in shapes[key])  # no line break inside 11 × 64
        lines.append(f"| ${tex}$ | {meaning} | {f'${shape}$ = ' if shape else ''}{measured} |")
    return "\n".join(lines)


def bmatrix(M, fmt: str = "{:g}") -> str:
    r"""A matrix (or a row vector) as LaTeX: \begin{bmatrix} 2 & 0 & 1 \\ 0 & 2 & 1 \end{bmatrix}."""
    M = np.atleast_2d(as_matrix("M", M))
    if M.ndim != 2:
        raise ValueError(f"M must be a vector or a matrix, got shape {M.shape}")
    rows = (" & ".join(fmt.format(0.0 if v == 0 else v) for v in row) for row in M)
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


__all__ = ["LayerConfig", "ORIGINAL_TRANSFORMER", "random_layer", "layer_shapes", "NOTATION", "notation_table", "bmatrix"]
