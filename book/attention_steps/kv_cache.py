"""The KV cache, and attention that shares keys and values between heads (MQA, GQA).

A decoder writes one token at a time. Each new token's queries need the keys
and values of every token before it, in every layer and every head; recomputing
them at each step would redo the whole prefix, so they are kept: the KV cache.
Its size grows like n, not n², but with a large multiplier:

    bytes = 2 (K and V) × layers × kv_heads × d_k × n × bytes per number

Multi-query attention (MQA) gives all h query heads one shared key/value head
(kv_heads = 1); grouped-query attention (GQA) gives each group of h / g query
heads one (kv_heads = g); ordinary multi-head attention (MHA) has kv_heads = h.
The scores are as many as before (h · n² per layer); only the cache shrinks.

    kv_cache_bytes(n, layers=32, kv_heads=8, d_k=128)     one number of bytes
    kv_cache_table(model, n)                              MHA vs GQA vs MQA
    grouped_query_attention(X, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ._validate import as_mask, as_matrix, float_dtype, positive_int
from .core import attend
from .costs import bytes_per_entry as _bytes_per_entry
from .costs import format_bytes
from .i18n import _
from .multihead import join_columns, split_columns
from .tables import Table, markdown_table


def kv_cache_bytes(n, *, layers, kv_heads, d_k, bytes_per_entry=2) -> int:
    """Bytes of the keys and values cached for n tokens: 2 × layers × kv_heads × d_k × n × bytes_per_entry. Chapter 11.

    d_k is one head's width (values are taken as wide as keys, d_v = d_k);
    bytes_per_entry is 2 (FP16, the default), a precision name or a number.
    """
    n = positive_int("n", n)
    layers, kv_heads, d_k = positive_int("layers", layers), positive_int("kv_heads", kv_heads), positive_int("d_k", d_k)
    return 2 * layers * kv_heads * d_k * n * _bytes_per_entry(bytes_per_entry)


@dataclass(frozen=True)
class ModelShape:
    """The sizes that set a KV cache: layers, query heads h and one head's width d_k (d_model = h · d_k). Chapter 11."""

    name: str
    layers: int
    heads: int
    d_k: int

    def __post_init__(self):
        for field in ("layers", "heads", "d_k"):
            positive_int(field, getattr(self, field))

    @property
    def d_model(self) -> int:
        return self.heads * self.d_k


# A model of the size of LLaMA 2 7B: 32 layers, 32 heads of width 128 (d_model = 4096).
SEVEN_B = ModelShape("7B-sized (32 layers, 32 heads of d_k = 128)", layers=32, heads=32, d_k=128)


@dataclass(frozen=True)
class CacheRow:
    """One row of the KV cache table: a scheme, its key/value heads, and the cache for n tokens. Chapter 11."""

    scheme: str
    kv_heads: int
    group_size: int
    n: int
    bytes: int
    bytes_per_token: int
    share_of_mha: float

    @property
    def bytes_text(self) -> str:
        return format_bytes(self.bytes)


def _scheme(heads: int, kv_heads: int) -> str:
    if kv_heads == heads:
        return "MHA"
    return "MQA" if kv_heads == 1 else f"GQA-{kv_heads}"


def kv_cache_table(model: ModelShape, n, kv_heads: Iterable | None = None, bytes_per_entry=2) -> list[CacheRow]:
    """The KV cache of `model` for n tokens, one row per number of key/value heads. Chapter 11.

    kv_heads defaults to (h, 8, 1): MHA, GQA with 8 groups, MQA. Every entry
    must divide the model's h query heads (each group the same size).
    """
    if not isinstance(model, ModelShape):
        raise TypeError(f"model must be a ModelShape (such as SEVEN_B), got {type(model).__name__}")
    kv_list = [model.heads, 8, 1] if kv_heads is None else list(kv_heads)
    if not kv_list:
        raise ValueError("kv_heads must list at least one number of key/value heads, got an empty sequence")
    full = kv_cache_bytes(n, layers=model.layers, kv_heads=model.heads, d_k=model.d_k, bytes_per_entry=bytes_per_entry)
    rows = []
    for g in kv_list:
        g = positive_int("kv_heads", g)
        if model.heads % g:
            raise ValueError(f"kv_heads={g} must divide the model's {model.heads} query heads (groups of equal size)")
        size = kv_cache_bytes(n, layers=model.layers, kv_heads=g, d_k=model.d_k, bytes_per_entry=bytes_per_entry)
        rows.append(
            CacheRow(
                scheme=_scheme(model.heads, g),
                kv_heads=g,
                group_size=model.heads // g,
                n=int(n),
                bytes=size,
                bytes_per_token=size // int(n),
                share_of_mha=size / full,
            )
        )
    return rows


def kv_cache_markdown(rows: Iterable[CacheRow]) -> Table:
    """The KV cache table as Markdown: scheme, key/value heads, per token, for n tokens, share of MHA (narrow: fits a phone).
    Its headers in the current language (attention_steps.i18n). Chapter 11."""
    rows = list(rows)
    if not rows or not all(isinstance(r, CacheRow) for r in rows):
        raise TypeError("rows must be a non-empty list of CacheRow, as returned by kv_cache_table()")
    return markdown_table(
        [_("scheme"), _("K/V heads"), _("per token"), _("{n} tokens").format(n=f"{rows[0].n:,}"), _("of MHA")],
        [(r.scheme, r.kv_heads, format_bytes(r.bytes_per_token), r.bytes_text, f"{r.share_of_mha:.1%}") for r in rows],
        align="lrrrr",
    )


@dataclass(frozen=True)
class GroupedAttention:
    """What grouped-query attention computed: Y (n, d_out), A (h, n, n_kv), and the cache K, V (g, n_kv, d_k). Chapter 11."""

    Y: np.ndarray
    A: np.ndarray
    K: np.ndarray
    V: np.ndarray

    @property
    def num_kv_heads(self) -> int:
        return self.K.shape[0]


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, mask=None) -> GroupedAttention:
    """Attention in which groups of query heads share one key/value head (GQA; MQA when num_kv_heads = 1). Chapter 11.

    X (n, d_model); W_Q (d_model, h·d_k); W_K (d_model, g·d_k) and W_V
    (d_model, g·d_v) with g = num_kv_heads; W_O (h·d_v, d_out). Query head r
    (0-based) uses key/value head r // (h / g), so consecutive query heads form a
    group. With g = h this is `multi_head_attention`. `mask` as in the core.
    Returns Y, A (h, n, n) and the K, V a decoder would cache, (g, n, d_k) and (g, n, d_v).
    """
    h, g = positive_int("num_heads", num_heads), positive_int("num_kv_heads", num_kv_heads)
    if h % g:
        raise ValueError(
            f"num_kv_heads={g} must divide num_heads={h}: every group needs the same number of query heads"
        )
    X = as_matrix("X", X, ndim=2)
    W_Q, W_K, W_V, W_O = (
        as_matrix(name, w, ndim=2) for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_O", W_O))
    )
    for name, w, heads in (("W_Q", W_Q, h), ("W_K", W_K, g), ("W_V", W_V, g)):
        if w.shape[0] != X.shape[1]:
            raise ValueError(f"{name} must have d_model={X.shape[1]} rows to multiply X {X.shape}, got shape {w.shape}")
        if w.shape[1] % heads:
            raise ValueError(f"{name} {w.shape} must have a multiple of {heads} columns ({heads} heads of equal width)")
    d_k = W_Q.shape[1] // h
    if W_K.shape[1] != g * d_k:
        raise ValueError(
            f"W_K must have num_kv_heads·d_k = {g}·{d_k} = {g * d_k} columns (d_k from W_Q {W_Q.shape} and "
            f"num_heads={h}), got shape {W_K.shape}"
        )
    if W_O.shape[0] != h * (W_V.shape[1] // g):
        raise ValueError(
            f"W_O must have num_heads·d_v = {h}·{W_V.shape[1] // g} = {h * (W_V.shape[1] // g)} rows to multiply "
            f"Z_cat, got shape {W_O.shape}"
        )
    dtype = float_dtype(X, W_Q, W_K, W_V, W_O)
    X, W_Q, W_K, W_V, W_O = (a.astype(dtype, copy=False) for a in (X, W_Q, W_K, W_V, W_O))
    Q, K, V = (split_columns(X @ W, heads) for W, heads in ((W_Q, h), (W_K, g), (W_V, g)))
    group = h // g
    # Each key/value head serves `group` consecutive query heads: repeat it that many times.
    keep = None if mask is None else as_mask(mask, (h, X.shape[0], X.shape[0]))
    Z_heads, A = attend(Q, np.repeat(K, group, axis=0), np.repeat(V, group, axis=0), keep)
    return GroupedAttention(Y=join_columns(Z_heads) @ W_O, A=A, K=K, V=V)


__all__ = [
    "ModelShape",
    "SEVEN_B",
    "CacheRow",
    "GroupedAttention",
    "kv_cache_bytes",
    "kv_cache_table",
    "kv_cache_markdown",
    "grouped_query_attention",
]
