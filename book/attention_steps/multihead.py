"""Multi-head attention, and a record of every intermediate under its name in the text.

`trace_attention` is the one place the whole layer is computed; everything else
(`multi_head_attention`, the chapters, figures, widgets and slides) reads its
result by name instead of recomputing.

Notation (the book's, see `attention_steps.notation`): a symbol without a superscript
is the whole layer (W_Q, Q, A, …: all heads); head r's is W_Q⁽ʳ⁾, Q⁽ʳ⁾, A⁽ʳ⁾,
Z⁽ʳ⁾; Z_cat = [Z⁽¹⁾ … Z⁽ʰ⁾]. The maths counts from 1 (tokens x_1 … x_n, heads
r = 1 … h); Python counts from 0, so head r is `trace.head(r - 1)` and a_ij is
`A[r - 1][i - 1, j - 1]`. Names count like the maths: `trace["Z⁽¹⁾"]` is the
first head.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ._validate import as_matrix, check_layer_arrays, positive_int
from .core import attend_by_stage


@dataclass(frozen=True)
class Intermediates:
    """The stages' results, for one head (2-D) or a whole layer (Q, K, V side by side; QK_T, S, A
    stacked by head): Q, K, V from the projections, QK_T the raw scores, S the scaled scores, A the weights. Chapter 8."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    QK_T: np.ndarray
    S: np.ndarray
    A: np.ndarray


@dataclass(frozen=True)
class Head(Intermediates):
    """Head r's share of a layer, all 2-D. Chapters 6 and 8.

    `index` is its position in code (0-based, as in `trace.head(index)`); `r` =
    index + 1 is its number in the text (head r, Z⁽ʳ⁾). W_Q, W_K (d_model, d_k) and
    W_V (d_model, d_v) are its blocks of columns of the layer's weights, W_O
    (d_v, d_out) its block of rows of W_O (None without W_O); Q, K (n, d_k) ·
    V (n_kv, d_v) · QK_T, S, A (n, n_kv) · Z = A V (n, d_v), this head's output.
    """

    index: int
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray | None
    Z: np.ndarray

    @property
    def r(self) -> int:
        """The head's number in the text, 1 … h (its code index + 1)."""
        return self.index + 1


# Names `trace[...]` understands for one head (with a superscript, e.g. "A⁽²⁾") and for the
# whole layer alike: name -> field (Head and Trace name these fields the same).
_SHARED = {
    "W_Q": "W_Q",
    "W_K": "W_K",
    "W_V": "W_V",
    "W^O": "W_O",
    "W_O": "W_O",
    "Q": "Q",
    "K": "K",
    "V": "V",
    "QKᵀ": "QK_T",
    "QK^T": "QK_T",
    "QK_T": "QK_T",
    "S": "S",
    "A": "A",
}
# Per-head names -> Head field.
_PER_HEAD = {**_SHARED, "Z": "Z"}
# Whole-layer names -> Trace field.
_WHOLE = {"X": "X", "X_kv": "X_kv", **_SHARED, "Z_heads": "Z_heads", "Z_cat": "Z_cat", "Y": "Y"}
# "A⁽²⁾" or "A^(2)": a name, then head r (1-based) as a superscript or ^(r).
_HEAD_NAME = re.compile(r"^(?P<name>.+?)(?:⁽(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾|\^\((?P<num>\d+)\))$")


@dataclass(frozen=True)
class LayerArrays:
    """What a layer is run on: X (n, d_model), X_kv (n_kv, d_model; X itself for self-attention),
    W_Q, W_K (d_model, h·d_k), W_V (d_model, h·d_v), W_O (h·d_v, d_out) or None, and num_heads = h. Chapter 8."""

    X: np.ndarray
    X_kv: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray | None
    num_heads: int


@dataclass(frozen=True)
class Trace(LayerArrays, Intermediates):
    """Every intermediate of one attention layer, under the book's names. Chapter 8.

    X (n, d_model) and X_kv (n_kv, d_model) are the inputs (X_kv is X for
    self-attention). W_Q, W_K (d_model, h·d_k), W_V (d_model, h·d_v) and Q
    (n, h·d_k), K (n_kv, h·d_k), V (n_kv, h·d_v) are the whole layer's, all heads
    side by side; QK_T, S, A (h, n, n_kv) and Z_heads (h, n, d_v) stack the heads
    (A[r - 1] is A⁽ʳ⁾); Z_cat (n, h·d_v) is the heads' outputs side by side and
    Y = Z_cat W_O (None without W_O). There is no plain `Z`: one head's output is
    `trace.head(r - 1).Z` (Z⁽ʳ⁾), all of them together `Z_cat`.

    By name: `trace["QKᵀ"]`, `trace["Z_cat"]`, and head r's `trace["A⁽ʳ⁾"]` or
    `trace["A^(r)"]` with r = 1 … h, as in the text (`trace["Z⁽¹⁾"]` is the first
    head); by code index: `trace.head(0)` is the same first head.
    """

    Z_heads: np.ndarray
    Z_cat: np.ndarray
    Y: np.ndarray | None
    mask: np.ndarray | None = field(default=None)

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys."""
        return self.Q.shape[-1] // self.num_heads

    @property
    def d_v(self) -> int:
        """Width of one head's values."""
        return self.V.shape[-1] // self.num_heads

    def head(self, index: int) -> Head:
        """The head at code index `index` (0-based: head r of the text is `head(r - 1)`;
        negative indices count from the last head, as in Python)."""
        h = self.num_heads
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"head index must be a whole number, got {index!r} ({type(index).__name__})")
        if not -h <= index < h:
            raise IndexError(
                f"head index {index} is out of range for {h} head(s): use 0 … {h - 1} (head r is index r - 1)"
            )
        i = int(index) % h
        d_k, d_v = self.d_k, self.d_v
        return Head(
            index=i,
            W_Q=self.W_Q[:, i * d_k : (i + 1) * d_k],
            W_K=self.W_K[:, i * d_k : (i + 1) * d_k],
            W_V=self.W_V[:, i * d_v : (i + 1) * d_v],
            W_O=None if self.W_O is None else self.W_O[i * d_v : (i + 1) * d_v],
            Q=self.Q[:, i * d_k : (i + 1) * d_k],
            K=self.K[:, i * d_k : (i + 1) * d_k],
            V=self.V[:, i * d_v : (i + 1) * d_v],
            QK_T=self.QK_T[i],
            S=self.S[i],
            A=self.A[i],
            Z=self.Z_heads[i],
        )

    def names(self) -> list[str]:
        """The names `trace[name]` understands (ASCII spellings such as "QK^T" and "A^(1)" work too)."""
        per_head = ["W_Q", "W_K", "W_V", *(["W^O"] if self.W_O is not None else []), "Q", "K", "V", "QKᵀ", "S", "A"]
        x = ["X", *(["X_kv"] if self.X_kv is not self.X else [])]
        whole = [*x, *per_head, "Z_cat", *(["Y"] if self.Y is not None else [])]
        heads = [f"{name}⁽{_superscript(r)}⁾" for r in range(1, self.num_heads + 1) for name in (*per_head, "Z")]
        return whole + heads

    def __getitem__(self, name: str) -> np.ndarray:
        if not isinstance(name, str):
            raise TypeError(f"read an intermediate by its name (a string such as 'A' or 'Z⁽¹⁾'), got {name!r}")
        match = _HEAD_NAME.match(name)
        if match and match["name"] in _PER_HEAD:
            r = int(match["num"] if match["num"] is not None else match["sup"].translate(_FROM_SUPERSCRIPT))
            if not 1 <= r <= self.num_heads:
                raise KeyError(
                    f"{name!r}: head numbers in names count from 1, like the text, and this layer has "
                    f"{self.num_heads} head(s): use r = 1 … {self.num_heads} (code index r - 1 in trace.head)"
                )
            value = getattr(self.head(r - 1), _PER_HEAD[match["name"]])
        elif name in _WHOLE:
            value = getattr(self, _WHOLE[name])
        else:
            hint = " (one head's output is Z⁽ʳ⁾, all heads' side by side Z_cat)" if name == "Z" else ""
            raise KeyError(f"no intermediate named {name!r}{hint}; known names: {', '.join(self.names())}")
        if value is None:
            raise KeyError(f"{name!r} is not part of this layer: it was run without W_O")
        return value


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _superscript(number: int) -> str:
    return str(number).translate(_SUPERSCRIPT)


def split_heads(M, num_heads: int) -> np.ndarray:
    """(n, h·d) -> (h, n, d): head r (r = 1 … h, code index r − 1) gets the columns [(r−1)·d, r·d) (code indices). Chapter 6."""
    M = as_matrix("M", M, ndim=2)
    h = positive_int("num_heads", num_heads)
    if M.shape[1] % h:
        raise ValueError(f"num_heads={h} does not divide the {M.shape[1]} columns of a matrix of shape {M.shape}")
    return split_columns(M, h)


def concat_heads(Z_heads) -> np.ndarray:
    """(h, n, d) -> (n, h·d): Concat(Z⁽¹⁾, …, Z⁽ʰ⁾) along the features, in head order (chapter 6)."""
    return join_columns(as_matrix("Z_heads", Z_heads, ndim=3))


def split_columns(M: np.ndarray, num_heads: int) -> np.ndarray:
    """`split_heads` of a checked (n, h·d) array: head r (code index r − 1) gets its block of d columns. Chapter 6."""
    return M.reshape(M.shape[0], num_heads, M.shape[1] // num_heads).transpose(1, 0, 2)


def join_columns(Z_heads: np.ndarray) -> np.ndarray:
    """`concat_heads` of a checked (h, n, d) array: (n, h·d), the heads side by side, in head order. Chapter 6."""
    h, n, d = Z_heads.shape
    return Z_heads.transpose(1, 0, 2).reshape(n, h * d)


@dataclass(frozen=True)
class LayerInputs(LayerArrays):
    """A layer's inputs once checked (`check_layer`): arrays of one float dtype whose shapes fit,
    and the mask broadcast to (h, n, n_kv) as `keep` (None without a mask). `run(X)` computes
    the layer on these weights, without checking again, for X or another input of the same shape.
    W_O is kept as given (the Trace shows it so) and cast when Y is computed. Chapter 8."""

    mask: np.ndarray | None
    keep: np.ndarray | None

    def run(self, X: np.ndarray | None = None) -> Trace:
        """The layer on X (default: the checked X; self-attention then reads keys and values from it too)."""
        if X is None:
            X, X_kv = self.X, self.X_kv
        else:
            X_kv = X if self.X_kv is self.X else self.X_kv
        h = self.num_heads
        Q, K, V = X @ self.W_Q, X_kv @ self.W_K, X_kv @ self.W_V  # one dtype, from check_layer
        QK_T, S, A, Z_heads = attend_by_stage(*(split_columns(M, h) for M in (Q, K, V)), self.keep)
        Z_cat = join_columns(Z_heads)
        Y = None if self.W_O is None else Z_cat @ self.W_O.astype(self.W_Q.dtype, copy=False)
        return Trace(
            X=X,
            X_kv=X_kv,
            W_Q=self.W_Q,
            W_K=self.W_K,
            W_V=self.W_V,
            W_O=self.W_O,
            num_heads=h,
            Q=Q,
            K=K,
            V=V,
            QK_T=QK_T,
            S=S,
            A=A,
            Z_heads=Z_heads,
            Z_cat=Z_cat,
            Y=Y,
            mask=self.mask,
        )


def check_layer(
    X, W_Q, W_K, W_V, W_O=None, num_heads: int = 1, mask=None, X_kv=None, *, square: bool = False
) -> LayerInputs:
    """Check a layer's inputs once (for `trace_attention`'s arguments) and return them as `LayerInputs`. Chapter 8.

    `square=True` demands what `multi_head_attention` does: num_heads divides d_model and
    W_Q, W_K, W_V, W_O are all (d_model, d_model). Raises naming the argument that does not fit.
    """
    return LayerInputs(**check_layer_arrays(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv, square))


def trace_attention(X, W_Q, W_K, W_V, W_O=None, num_heads: int = 1, mask=None, X_kv=None) -> Trace:
    """Run one attention layer and keep every intermediate. Chapter 8 reads every intermediate by name.

    X (n, d_model); W_Q, W_K (d_model, h·d_k); W_V (d_model, h·d_v);
    W_O (h·d_v, d_out) or None; X_kv (n_kv, d_model) supplies keys and values
    (cross-attention), X otherwise. `mask` (bool) broadcasts to (n, n_kv) or
    (h, n, n_kv). Each head scales by its own √d_k, never by √d_model.
    """
    return check_layer(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv).run()


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None, X_kv=None) -> tuple[np.ndarray, np.ndarray]:
    """MultiHead(X) = Concat(head_1, …, head_h) W_O, returning (Y, A). Chapters 6 and 7.

    X (n, d_model); W_Q, W_K, W_V, W_O (d_model, d_model); head r (r = 1 … h,
    code index r − 1) uses the columns [(r−1)·d_k, r·d_k) (code indices) of W_Q,
    W_K, W_V with d_k = d_model / num_heads and scales by its own √d_k. X_kv (n_kv, d_model) gives keys and values for
    cross-attention. Returns Y (n, d_model) and A (num_heads, n, n_kv).
    """
    t = check_layer(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv, square=True).run()
    return t.Y, t.A
