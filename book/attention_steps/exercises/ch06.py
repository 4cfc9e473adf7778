"""Chapter 6 exercises: heads, their width, and the √d_model bug."""

from __future__ import annotations

import numpy as np

from .. import split_heads, trace_attention
from ..heads import head_width, small_layer
from .checking import Exercise, register

# The toy layer the chapter uses; the hints quote its sizes as computed, not typed.
_LAYER = small_layer()
_N, _D_MODEL, _H = len(_LAYER.tokens), _LAYER.d_model, _LAYER.num_heads
_D_K = head_width(_D_MODEL, _H)

register(Exercise(
    id="6.1", name="d_k",
    expected=lambda: head_width(768, 12),
    hint="d_k = d_model / h.",
))  # fmt: skip

register(Exercise(
    id="6.2", name="shape",
    expected=lambda: np.array(split_heads(small_layer().X @ small_layer().W_Q, 4).shape),
    hint=f"split_heads turns (n, d_model) into (h, n, d_k): {_N} tokens, d_model = {_D_MODEL}, h = {_H}.",
))  # fmt: skip

register(Exercise(
    id="6.3", name="factor",
    expected=lambda: float(np.sqrt(512) / np.sqrt(head_width(512, 8))),
    hint="The bug divides by √d_model instead of √d_k; their ratio is √(d_model / d_k) = √h.",
))  # fmt: skip

register(Exercise(
    id="6.4", name="A2_row0",
    expected=lambda: trace_attention(small_layer().X, *small_layer().weights, num_heads=4).head(1).A[0],
    hint=(f"Head 2 is index 1 in code: Q_heads[1] and K_heads[1], the columns {_D_K}:{2 * _D_K} of Q and K; "
          f"scale by √d_k = √{_D_K}, then softmax the row."),
))  # fmt: skip
