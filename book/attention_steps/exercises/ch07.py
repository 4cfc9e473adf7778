"""Chapter 7 exercises: the output projection W_O and the layer's size."""

from __future__ import annotations

from .. import trace_attention
from ..examples import BERT_D_MODEL, BERT_H
from ..heads import small_layer
from ..i18n import N_
from ..parameters import parameter_count
from .checking import Exercise, Mistake, register

LAYER = {"layer": small_layer}  # the example 7.3 reads: check("7.3", ..., layer=layer)

_D = BERT_D_MODEL

register(
    Exercise(
        id="7.1",
        name="count",
        whole=True,
        expected=lambda: parameter_count(_D, BERT_H).weights,
        atol=0.5,
        mistakes=(
            Mistake(N_("forget W^O: W_Q, W_K and W_V are three of the four matrices"), lambda: 3 * _D**2),
            Mistake(
                N_("count one head's matrices (d_model × d_k) instead of the whole layer's"),
                lambda: 4 * _D * (_D // BERT_H),
            ),
            Mistake(
                N_("multiply by the number of heads: the heads share the d_model columns, they do not add weights"),
                lambda: BERT_H * 4 * _D**2,
            ),
        ),
        hint=N_("W_Q, W_K, W_V and W^O are each d_model × d_model, whatever the number of heads."),
    )
)

register(
    Exercise(
        id="7.2",
        name="count_with_biases",
        whole=True,
        expected=lambda: parameter_count(_D, BERT_H, bias=True).total,
        atol=0.5,
        mistakes=(
            Mistake(
                N_("leave the biases out: that is exercise 7.1's answer"), lambda: parameter_count(_D, BERT_H).weights
            ),
            Mistake(N_("give W^O no bias: every projection, W^O included, has one"), lambda: 4 * _D**2 + 3 * _D),
            Mistake(
                N_("give each bias d_model × d_model entries: a bias has one entry per output column"),
                lambda: 8 * _D**2,
            ),
        ),
        hint=N_("Add one bias per output column of W_Q, W_K, W_V and W^O."),
    )
)


def _without_head(layer, index=1, project=True):
    """7.3: Y minus head `index`'s share Z⁽ʳ⁾ W^O⁽ʳ⁾ (head r at index r − 1)."""
    t = trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads)
    d_v = t.d_v
    block = slice(index * d_v, (index + 1) * d_v)
    share = t.Z_heads[index] @ layer.W_O[block] if project else t.Z_heads[index]
    return (
        t.Y - share
        if project
        else t.Z_cat[:, [c for c in range(t.Z_cat.shape[1]) if not block.start <= c < block.stop]]
    )


register(
    Exercise(
        id="7.3",
        name="Y_without_head_2",
        expected=_without_head,
        inputs=LAYER,
        mistakes=(
            Mistake(
                N_("switch off head 3 (index 2): head 2 is index 1 in code"), lambda layer: _without_head(layer, 2)
            ),
            Mistake(
                N_("switch off head 1 (index 0): head 2 is index 1 in code"), lambda layer: _without_head(layer, 0)
            ),
            Mistake(
                N_("forget W^O: you dropped head 2's columns from Z_cat, but Y = Z_cat W^O"),
                lambda layer: _without_head(layer, project=False),
            ),
            Mistake(
                N_("give head 2's share Z⁽²⁾ W^O⁽²⁾ instead of Y without it"),
                lambda layer: (
                    trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads).Y - _without_head(layer)
                ),
            ),
        ),
        hint=(
            N_(
                "Y is the sum of the heads' shares Z⁽ʳ⁾ W^O⁽ʳ⁾. Head 2's share is t.Z_heads[1] (index 1 in code) times "
                "W^O⁽²⁾, rows d_v up to (not including) 2·d_v of W^O counting from 0, layer.W_O[d_v : 2 * d_v] in code; "
                "subtract it from t.Y."
            )
        ),
    )
)
