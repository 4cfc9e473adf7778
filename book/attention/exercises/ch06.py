"""Chapter 6 exercises: heads, their width, and the √d_model bug."""

from __future__ import annotations

import numpy as np

from .. import split_heads, trace_attention
from ..heads import head_width, small_layer
from .checking import Exercise, register

register(Exercise(
    id="6.1", name="d_k",
    expected=lambda: head_width(768, 12),
    hint="d_k = d_model / h.",
))  # fmt: skip

register(Exercise(
    id="6.2", name="shape",
    expected=lambda: np.array(split_heads(small_layer().X @ small_layer().W_Q, 4).shape),
    hint="split_heads turns (n, d_model) into (h, n, d_k): 6 tokens, d_model = 8, h = 4.",
))  # fmt: skip

register(Exercise(
    id="6.3", name="factor",
    expected=lambda: float(np.sqrt(512) / np.sqrt(head_width(512, 8))),
    hint="The bug divides by √d_model instead of √d_k; their ratio is √(d_model / d_k) = √h.",
))  # fmt: skip

register(Exercise(
    id="6.4", name="A2_row0",
    expected=lambda: trace_attention(small_layer().X, *small_layer().weights, num_heads=4).head(1).A[0],
    hint="Head 2 (index 1) uses columns 2–3 of Q and K; scale by √d_k = √2, then softmax the row.",
))  # fmt: skip
