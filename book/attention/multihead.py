"""Multi-head attention, and a record of every intermediate under its seed name.

`trace_attention` is the one place the whole layer is computed; everything else
(`multi_head_attention`, the chapters, figures, widgets and slides) reads its
result by name instead of recomputing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._validate import as_matrix, float_dtype, positive_int, same_size
from .core import _attend, projection


@dataclass(frozen=True)
class Head:
    """Head r's intermediates, all 2-D: Q, K (n, d_k) · V (n_kv, d_v) · QK_T, S, A (n, n_kv) · Z (n, d_v)."""

    r: int
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    QK_T: np.ndarray
    S: np.ndarray
    A: np.ndarray
    Z: np.ndarray


@dataclass(frozen=True)
class Trace:
    """Every intermediate of one attention layer, under the seeds' names.

    X (n, d_model) and X_kv (n_kv, d_model) are the inputs (X_kv is X for
    self-attention). Q (n, h·d_k), K (n_kv, h·d_k), V (n_kv, h·d_v) are the full
    projections; QK_T, S, A (h, n, n_kv) and Z_heads (h, n, d_v) stack the heads;
    Z_cat (n, h·d_v) is their concatenation and Y = Z_cat W_O (None without W_O).
    `trace["QKᵀ"]`, `trace["Z⁽²⁾"]` and `trace.head(1)` read them by name.
    """

    X: np.ndarray
    X_kv: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray | None
    num_heads: int
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    QK_T: np.ndarray
    S: np.ndarray
    A: np.ndarray
    Z_heads: np.ndarray
    Z_cat: np.ndarray
    Y: np.ndarray | None
    mask: np.ndarray | None = field(default=None)

    @property
    def h(self) -> int:
        return self.num_heads

    @property
    def d_k(self) -> int:
        """Width of one head's queries and keys."""
        return self.Q.shape[-1] // self.num_heads

    @property
    def d_v(self) -> int:
        """Width of one head's values."""
        return self.V.shape[-1] // self.num_heads

    @property
    def Z(self) -> np.ndarray:
        """The layer's attention output before W_O: Z_cat (for one head, that head's Z)."""
        return self.Z_cat

    def head(self, r: int) -> Head:
        """Head r (0-based) with its own slices of Q, K, V and its own A and Z."""
        if not -self.num_heads <= r < self.num_heads:
            raise IndexError(f"head index r={r} is out of range for {self.num_heads} head(s)")
        r %= self.num_heads
        return Head(
            r=r,
            Q=split_heads(self.Q, self.num_heads)[r],
            K=split_heads(self.K, self.num_heads)[r],
            V=split_heads(self.V, self.num_heads)[r],
            QK_T=self.QK_T[r],
            S=self.S[r],
            A=self.A[r],
            Z=self.Z_heads[r],
        )

    def names(self) -> list[str]:
        """The seed names `trace[name]` understands."""
        heads = [f"Z⁽{_superscript(r + 1)}⁾" for r in range(self.num_heads)]
        return ["X", "Q", "K", "V", "QKᵀ", "S", "A", *heads, "Z", "Z_cat", "Y"]

    def __getitem__(self, name: str) -> np.ndarray:
        aliases = {"QKᵀ": "QK_T", "QK^T": "QK_T", "Z_cat": "Z_cat", "W^O": "W_O", "W_O": "W_O"}
        if name.startswith("Z⁽") and name.endswith("⁾"):
            r = int(name[2:-1].translate(_FROM_SUPERSCRIPT)) - 1
            return self.head(r).Z
        key = aliases.get(name, name)
        if key in {"X", "X_kv", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V", "QK_T", "S", "A", "Z", "Z_cat", "Y"}:
            return getattr(self, key)
        raise KeyError(f"no intermediate named {name!r}; known names: {', '.join(self.names())}")


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _superscript(number: int) -> str:
    return str(number).translate(_SUPERSCRIPT)


def split_heads(M, num_heads: int) -> np.ndarray:
    """(n, h·d) -> (h, n, d): head r gets columns [r·d, (r+1)·d)."""
    M = as_matrix("M", M, ndim=2)
    h = positive_int("num_heads", num_heads)
    if M.shape[1] % h:
        raise ValueError(f"num_heads={h} does not divide the {M.shape[1]} columns of a matrix of shape {M.shape}")
    return M.reshape(M.shape[0], h, M.shape[1] // h).transpose(1, 0, 2)


def concat_heads(Z_heads) -> np.ndarray:
    """(h, n, d) -> (n, h·d): Concat(Z⁽¹⁾, …, Z⁽ʰ⁾) along the features, in head order."""
    Z_heads = as_matrix("Z_heads", Z_heads, ndim=3)
    h, n, d = Z_heads.shape
    return Z_heads.transpose(1, 0, 2).reshape(n, h * d)


def trace_attention(X, W_Q, W_K, W_V, W_O=None, num_heads: int = 1, mask=None, X_kv=None) -> Trace:
    """Run one attention layer and keep every intermediate.

    X (n, d_model); W_Q, W_K (d_model, h·d_k); W_V (d_model, h·d_v);
    W_O (h·d_v, d_out) or None; X_kv (n_kv, d_model) supplies keys and values
    (cross-attention), X otherwise. `mask` (bool) broadcasts to (n, n_kv) or
    (h, n, n_kv). Each head scales by its own √d_k, never by √d_model.
    """
    h = positive_int("num_heads", num_heads)
    X = as_matrix("X", X, ndim=2)
    X_kv = X if X_kv is None else as_matrix("X_kv", X_kv, ndim=2)
    same_size("the widths (d_model) of X and X_kv", "X", X.shape[1], "X_kv", X_kv.shape[1])
    W_Q, W_K, W_V = (as_matrix(name, w, ndim=2) for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)))
    for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if w.shape[0] != X.shape[1]:
            raise ValueError(f"{name} must have d_model={X.shape[1]} rows to multiply X {X.shape}, got shape {w.shape}")
        if w.shape[1] % h:
            raise ValueError(f"num_heads={h} must divide the {w.shape[1]} columns of {name} {w.shape}")
    same_size("the widths of W_Q and W_K (h·d_k)", "W_Q", W_Q.shape[1], "W_K", W_K.shape[1])
    arrays = [X, X_kv, W_Q, W_K, W_V]
    if W_O is not None:
        W_O = as_matrix("W_O", W_O, ndim=2)
        if W_O.shape[0] != W_V.shape[1]:
            raise ValueError(
                f"W_O must have h·d_v={W_V.shape[1]} rows to multiply Z_cat, got shape {W_O.shape}"
            )
        arrays.append(W_O)
    dtype = float_dtype(*arrays)
    X, X_kv, W_Q, W_K, W_V = (a.astype(dtype, copy=False) for a in (X, X_kv, W_Q, W_K, W_V))

    Q = projection(X, W_Q, names=("X", "W_Q"))
    K = projection(X_kv, W_K, names=("X_kv" if X_kv is not X else "X", "W_K"))
    V = projection(X_kv, W_V, names=("X_kv" if X_kv is not X else "X", "W_V"))
    QK_T, S, A, Z_heads = _attend(split_heads(Q, h), split_heads(K, h), split_heads(V, h), mask)
    Z_cat = concat_heads(Z_heads)
    Y = None if W_O is None else Z_cat @ W_O.astype(dtype, copy=False)
    return Trace(
        X=X, X_kv=X_kv, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O, num_heads=h,
        Q=Q, K=K, V=V, QK_T=QK_T, S=S, A=A, Z_heads=Z_heads, Z_cat=Z_cat, Y=Y,
        mask=None if mask is None else np.asarray(mask),
    )  # fmt: skip


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None, X_kv=None) -> tuple[np.ndarray, np.ndarray]:
    """MultiHead(X) = Concat(head_1, …, head_h) W_O, returning (Y, A).

    X (n, d_model); W_Q, W_K, W_V, W_O (d_model, d_model); head r uses columns
    [r·d_k, (r+1)·d_k) of W_Q, W_K, W_V with d_k = d_model / num_heads and
    scales by its own √d_k. X_kv (n_kv, d_model) gives keys and values for
    cross-attention. Returns Y (n, d_model) and A (num_heads, n, n_kv).
    """
    h = positive_int("num_heads", num_heads)
    X = as_matrix("X", X, ndim=2)
    d_model = X.shape[1]
    if d_model % h:
        raise ValueError(f"num_heads={h} must divide d_model={d_model} (the width of X {X.shape})")
    for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_O", W_O)):
        w = as_matrix(name, w, ndim=2)
        if w.shape != (d_model, d_model):
            raise ValueError(f"{name} must have shape (d_model, d_model) = {(d_model, d_model)}, got {w.shape}")
    t = trace_attention(X, W_Q, W_K, W_V, W_O, num_heads=h, mask=mask, X_kv=X_kv)
    return t.Y, t.A
