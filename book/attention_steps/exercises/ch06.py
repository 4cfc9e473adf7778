"""Chapter 6 exercises: heads, their width, and the √d_model bug."""

from __future__ import annotations

import numpy as np

from .. import scale, scores, softmax, split_heads
from ..examples import BERT_D_MODEL, BERT_H
from ..heads import head_width, small_layer
from ..i18n import N_
from .checking import Exercise, Mistake, register

# 6.2: the length of the input (6.1 and 6.2 use BERT-base's sizes, from the examples).
BERT_N = 128
# 6.3: the original Transformer's sizes.
PAPER_D_MODEL, PAPER_H = 512, 8
# 6.4: the chapter's toy layer split into this many heads instead of its four.
FEWER_HEADS = 2
# 6.4 asks for the weights of this query: the last token, "street" (index 5 in code).
QUERY = 5

# The chapter's layer has this many heads.
BOOK_HEADS = small_layer().num_heads

LAYER = {"layer": small_layer}  # the example 6.4 reads: check("6.4", my_row, layer=layer)

register(
    Exercise(
        id="6.1",
        name="d_k",
        whole=True,
        expected=lambda: head_width(BERT_D_MODEL, BERT_H),
        atol=0.5,
        mistakes=(
            Mistake(N_("multiply d_model by h instead of dividing"), lambda: BERT_D_MODEL * BERT_H),
            Mistake(N_("use the original Transformer's h = 8"), lambda: BERT_D_MODEL / 8),
            Mistake(N_("take √d_model"), lambda: np.sqrt(BERT_D_MODEL)),
        ),
        hint=N_("Each head gets an equal slice of the d_model columns: d_k = d_model / h."),
    )
)


def _bert_shape(order=(0, 1, 2)):
    d_k = head_width(BERT_D_MODEL, BERT_H)
    shape = split_heads(np.zeros((BERT_N, BERT_D_MODEL)), BERT_H).shape
    assert shape == (BERT_H, BERT_N, d_k)
    return np.array([shape[i] for i in order])


register(
    Exercise(
        id="6.2",
        name="shape",
        whole=True,
        expected=_bert_shape,
        atol=0.5,
        mistakes=(
            Mistake(
                N_("put the tokens first: split_heads gives (h, n, d_k), one block per head"),
                lambda: _bert_shape((1, 0, 2)),
            ),
            Mistake(
                N_("keep d_model as each head's width: a head has d_k = d_model / h columns"),
                lambda: np.array([BERT_H, BERT_N, BERT_D_MODEL]),
            ),
            Mistake(N_("give the shape before the split, (n, d_model)"), lambda: np.array([BERT_N, BERT_D_MODEL])),
        ),
        hint=N_("split_heads turns (n, d_model) into (h, n, d_k): one block per head, a row per token, d_k columns."),
    )
)

register(
    Exercise(
        id="6.3",
        name="factor",
        expected=lambda: float(np.sqrt(PAPER_D_MODEL) / np.sqrt(head_width(PAPER_D_MODEL, PAPER_H))),
        mistakes=(
            Mistake(
                N_("give d_model / d_k without the square root (that is the factor on the variance)"),
                lambda: PAPER_D_MODEL / head_width(PAPER_D_MODEL, PAPER_H),
            ),
            Mistake(
                N_("invert the ratio: the bug shrinks the scores, so the factor is above 1"),
                lambda: float(np.sqrt(head_width(PAPER_D_MODEL, PAPER_H)) / np.sqrt(PAPER_D_MODEL)),
            ),
            Mistake(N_("give √d_model itself, not its ratio to √d_k"), lambda: float(np.sqrt(PAPER_D_MODEL))),
        ),
        hint=N_("The bug divides by √d_model instead of √d_k; the factor is their ratio √(d_model / d_k)."),
    )
)


def _row(layer, head=1, divisor=None, query=QUERY):
    """Weights of query `query` in head index `head` when the layer is split into FEWER_HEADS heads."""
    Q_heads = split_heads(layer.X @ layer.W_Q, FEWER_HEADS)
    K_heads = split_heads(layer.X @ layer.W_K, FEWER_HEADS)
    d_k = Q_heads.shape[-1]
    raw = scores(Q_heads[head], K_heads[head])
    S = scale(raw, d_k) if divisor is None else raw / divisor
    return softmax(S)[query]


def _row_four_head_scale(layer):
    # the chapter's head count, not the learner's layer's: 6.4 asks them to rebuild it with 2 heads
    return _row(layer, divisor=np.sqrt(head_width(layer.X.shape[1], BOOK_HEADS)))


register(
    Exercise(
        id="6.4",
        name="a_row",
        weights=True,
        expected=_row,
        inputs=LAYER,
        free=("layer.num_heads",),  # the exercise asks for 2 heads: small_layer(num_heads=2) is the book's example
        mistakes=(
            Mistake(N_("take head 1 (index 0): head 2 is index 1 in code"), lambda layer: _row(layer, head=0)),
            Mistake(
                N_("divide by √d_model, the bug of this chapter, instead of the head's √d_k"),
                lambda layer: _row(layer, divisor=np.sqrt(layer.X.shape[1])),
            ),
            Mistake(N_("keep the four-head d_k: with 2 heads each head is d_model / 2 wide"), _row_four_head_scale),
            Mistake(N_("forget to scale the scores"), lambda layer: _row(layer, divisor=1.0)),
            Mistake(
                N_("divide by d_k instead of √d_k"), lambda layer: _row(layer, divisor=layer.X.shape[1] / FEWER_HEADS)
            ),
            Mistake(
                N_("take the softmax down a column (over the queries) instead of along the row"),
                lambda layer: softmax(
                    scale(
                        scores(*(split_heads(layer.X @ W, FEWER_HEADS)[1] for W in (layer.W_Q, layer.W_K))),
                        layer.X.shape[1] // FEWER_HEADS,
                    ),
                    axis=0,
                )[QUERY],
            ),
        ),
        hint=(
            N_(
                "Split Q = layer.X @ layer.W_Q and K = layer.X @ layer.W_K into 2 heads with split_heads; head 2 is "
                "index 1 in code. Its d_k is d_model / 2: scale by √d_k, then take the softmax of the last row."
            )
        ),
    )
)
