"""Chapter 7 exercises: the output projection W_O and the layer's size."""

from __future__ import annotations

from .. import trace_attention
from ..heads import head_contributions, small_layer
from ..parameters import parameter_count
from .checking import Exercise, register

_D_V = small_layer().d_k  # d_v = d_k = d_model / h in the toy layer

register(Exercise(
    id="7.1", name="count",
    expected=lambda: parameter_count(768, 12).weights,
    hint="Four matrices of d_model × d_model: 4 · 768².",
))  # fmt: skip

register(Exercise(
    id="7.2", name="count_with_biases",
    expected=lambda: parameter_count(768, 12, bias=True).total,
    hint="Add one bias per output column of W_Q, W_K, W_V and W_O: 4 · 768 more.",
))  # fmt: skip


def _head_share():
    layer = small_layer()
    t = trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads)
    return head_contributions(t.Z_heads, layer.W_O)[1]


register(Exercise(
    id="7.3", name="share",
    expected=_head_share,
    hint=(f"Head 2's share is Z⁽²⁾ W^O⁽²⁾: t.Z_heads[1] (code index 1) times W^O⁽²⁾, the rows "
          f"{_D_V}:{2 * _D_V} of W_O in code (d_v = {_D_V})."),
))  # fmt: skip
