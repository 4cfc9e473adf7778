"""Chapter 10 (cross-attention): check-yourself exercises on the translation
example "I love cats" → "我 爱 猫" and on the shapes of a rectangular A."""

from __future__ import annotations

import numpy as np

from ..examples import translation
from ..multihead import multi_head_attention, trace_attention
from .checking import Exercise, register

# Exercise 10.1: a decoder input of SHAPE_N_Q tokens reads a source of SHAPE_N_K
# tokens through SHAPE_H heads of a layer of width SHAPE_D_MODEL.
SHAPE_N_Q, SHAPE_N_K, SHAPE_H, SHAPE_D_MODEL = 7, 12, 8, 64


def _cross_trace():
    t = translation()
    return trace_attention(t.X_tgt, t.W_Q, t.W_K, t.W_V, X_kv=t.X_src)


def _shape_of_A():
    rng = np.random.default_rng(0)
    X_tgt, X_src = rng.normal(size=(SHAPE_N_Q, SHAPE_D_MODEL)), rng.normal(size=(SHAPE_N_K, SHAPE_D_MODEL))
    W = [rng.normal(size=(SHAPE_D_MODEL, SHAPE_D_MODEL)) for _ in range(4)]
    _, A = multi_head_attention(X_tgt, *W, num_heads=SHAPE_H, X_kv=X_src)
    return np.array(A.shape)


register(
    Exercise(
        id="10.1",
        name="the shape of A",
        expected=_shape_of_A,
        atol=0.5,
        hint=(
            "A has one matrix per head; in each, a row per query (from the decoder) and a column per "
            "key (from the encoder). Write it as (heads, rows, columns)."
        ),
    )
)

def _row_predicting_mao() -> int:
    """The decoder position (0-based) whose query predicts 猫: 爱's, one before 猫 (teacher forcing)."""
    return translation().position_predicting("猫")


register(
    Exercise(
        id="10.2",
        name="the weights of the query that predicts 猫 (māo)",
        expected=lambda: _cross_trace().head(0).A[_row_predicting_mao()],
        hint=(
            "The decoder reads the target shifted right, so the query that predicts 猫 is at the position "
            "before it, where it reads 爱: t.X_tgt[t.position_predicting('猫')], not the row of 猫 itself. "
            "Multiply that row by W_Q, take its dot products with the keys (rows of X_src W_K), divide by "
            "√d_k and take the softmax."
        ),
    )
)

register(
    Exercise(
        id="10.3",
        name="z at the position that predicts 猫 (māo)",
        expected=lambda: _cross_trace().head(0).Z[_row_predicting_mao()],
        hint="z is that position's weights times the value rows V = X_src W_V: a @ V.",
    )
)
