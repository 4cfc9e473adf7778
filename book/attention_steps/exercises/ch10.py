"""Chapter 10 (cross-attention): check-yourself exercises on the translation
example "I love cats" → "我 爱 猫" and on the shapes of a rectangular A."""

from __future__ import annotations

import numpy as np

from ..core import softmax
from ..examples import translation
from ..i18n import N_
from ..multihead import multi_head_attention
from .checking import Exercise, Mistake, register

# Exercise 10.1: a decoder input of SHAPE_N_Q tokens reads a source of SHAPE_N_K
# tokens through SHAPE_H heads of a layer of width SHAPE_D_MODEL.
SHAPE_N_Q, SHAPE_N_K, SHAPE_H, SHAPE_D_MODEL = 7, 12, 8, 64
# Exercises 10.2 and 10.3: the source sentence in reverse order, "cats love I".
REVERSED = slice(None, None, -1)
EXAMPLE = {"t": translation}  # check("10.2", my_a, t=t)


def _shape_of_A(order=(0, 1, 2)):
    rng = np.random.default_rng(0)
    X_tgt, X_src = rng.normal(size=(SHAPE_N_Q, SHAPE_D_MODEL)), rng.normal(size=(SHAPE_N_K, SHAPE_D_MODEL))
    W = [rng.normal(size=(SHAPE_D_MODEL, SHAPE_D_MODEL)) for _ in range(4)]
    _, A = multi_head_attention(X_tgt, *W, num_heads=SHAPE_H, X_kv=X_src)
    return np.array([A.shape[i] for i in order])


register(
    Exercise(
        id="10.1",
        name=N_("the shape of A"),
        whole=True,
        expected=_shape_of_A,
        atol=0.5,
        mistakes=(
            Mistake(
                N_("swap rows and columns: a row per query (decoder), a column per key (source)"),
                lambda: _shape_of_A((0, 2, 1)),
            ),
            Mistake(
                N_("make A square: in cross-attention the queries and keys come from different sequences"),
                lambda: np.array([SHAPE_H, SHAPE_N_Q, SHAPE_N_Q]),
            ),
            Mistake(N_("give one head's matrix: A has one per head"), lambda: _shape_of_A((1, 2))),
        ),
        hint=(
            N_(
                "A has one matrix per head; in each, a row per query (from the decoder) and a column per "
                "key (from the encoder). Write it as (heads, rows, columns)."
            )
        ),
    )
)


def _weights(t, row=None, source=REVERSED, scaled=True, axis=-1):
    """Weights of decoder row `row` (default: the one predicting 猫) over the source rows in `source` order."""
    i = t.position_predicting("猫") if row is None else row
    S = (t.X_tgt @ t.W_Q) @ (t.X_src[source] @ t.W_K).T
    if scaled:
        S = S / np.sqrt(t.W_K.shape[1])
    return softmax(S, axis=axis)[i]


def _z(t, **kwargs):
    return _weights(t, **kwargs) @ (t.X_src[kwargs.get("source", REVERSED)] @ t.W_V)


def _ROW_OF_MAO(t):  # the row that reads 猫
    return t.inputs.index("猫")


def _reads_mao(answer):
    """The slip 10.2 and 10.3 share: `answer` computed at the row that reads 猫, not the one that predicts it."""
    return Mistake(
        N_("use the row that reads 猫: the query that predicts 猫 sits one position before it, at 爱"),
        lambda t: answer(t, row=_ROW_OF_MAO(t)),
    )


register(
    Exercise(
        id="10.2",
        name=N_("the weights of the query that predicts 猫 (māo)"),
        weights=True,
        expected=_weights,
        inputs=EXAMPLE,
        mistakes=(
            _reads_mao(_weights),
            Mistake(
                N_('keep the book\'s source order: with the source reversed the keys are "cats", "love", "I"'),
                lambda t: _weights(t, source=slice(None)),
            ),
            Mistake(N_("forget to divide the scores by √d_k"), lambda t: _weights(t, scaled=False)),
            Mistake(
                N_("take the softmax down a column (over the decoder positions) instead of along the row"),
                lambda t: _weights(t, axis=0),
            ),
        ),
        hint=(
            N_(
                "Reverse the source rows (t.X_src[::-1]) and build the keys from them. The decoder reads the target "
                "shifted right, so the query that predicts 猫 sits at the position before it, where it reads 爱: "
                "t.X_tgt[t.position_predicting('猫')]. Its query times the keys, ÷ √d_k, then the softmax."
            )
        ),
    )
)

register(
    Exercise(
        id="10.3",
        name=N_("z at the position that predicts 猫 (māo)"),
        expected=_z,
        inputs=EXAMPLE,
        mistakes=(
            _reads_mao(_z),
            Mistake(
                N_(
                    "mix the reversed weights with the values in the book's order: weights and value rows "
                    "must follow the same (reversed) source order"
                ),
                lambda t: _weights(t) @ (t.X_src @ t.W_V),
            ),
            Mistake(N_("use weights computed without ÷ √d_k"), lambda t: _z(t, scaled=False)),
        ),
        hint=N_(
            "z is that position's weights (10.2) times the value rows V = X_src W_V, with the source reversed: a @ V."
        ),
    )
)
