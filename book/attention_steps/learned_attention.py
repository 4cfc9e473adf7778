"""Reading a trained model of chapter 13: every layer's attention on one sentence, computed by the
package's own `trace_attention`, and small JSON-ready data of a run for an explorer.

    sentence_traces(trained, tokens)    [Trace, …] one per layer, on the residual stream the model made
    attention_maps(trained, tokens)     (layers, heads, n, n)
    training_snapshots(trained)         the loss curve and "it"'s attention row at ~20 checkpoints
    held_out_maps(trained, count=12)    every layer's and head's weights on a few held-out sentences

`trained` is a `learning_studies.Trained`.
"""

from __future__ import annotations

import numpy as np

from ._validate import positive_int
from .multihead import Trace, trace_attention
from .referents import N_TOKENS, SOURCE, SOURCE_TWIN, sentence_words
from .tiny_model import forward


def sentence_traces(trained, tokens) -> list[Trace]:
    """Every layer of the trained model on one sentence (11 token ids), as `trace_attention` computes it. Chapter 13.

    The layer's input is the residual stream the model made (x + the earlier layers' outputs); W_Q
    is multiplied by the model's query factor, so the trace's A is the model's. A pointing layer's
    trace is cross-attention to the input embeddings (X_kv), with W_V = W_K and no W_O (its output
    is not used)."""
    m, p = trained.model, trained.params
    fw = forward(m, p, np.asarray(tokens)[None])
    traces = []
    for layer in range(1, m.num_layers + 1):
        X = fw.X[layer - 1][0]
        if m.pointing and layer == m.num_layers:
            W_Q, W_K = p[f"W_Q{layer}"] * m.query_factor, p[f"W_K{layer}"]
            traces.append(trace_attention(X, W_Q, W_K, W_K, X_kv=fw.X[0][0]))  # keys: the input embeddings
        else:
            W = [p[f"{w}{layer}"] for w in ("W_Q", "W_K", "W_V", "W_O")]
            traces.append(trace_attention(X, W[0] * m.query_factor, *W[1:], num_heads=m.num_heads))
    return traces


def attention_maps(trained, tokens) -> np.ndarray:
    """(layers, heads, n, n) every layer's and head's weights on one sentence (a pointing layer: head 1 only, the rest 0).
    Chapter 13."""
    traces = sentence_traces(trained, tokens)
    maps = np.zeros((len(traces), trained.model.num_heads, N_TOKENS, N_TOKENS))
    for layer, t in enumerate(traces):
        maps[layer, : t.A.shape[0]] = t.A
    return maps


def training_snapshots(trained, points: int = 60) -> dict:
    """JSON-ready data of one training run, for an explorer. Chapter 13.

    {"loss_step", "loss": the batch loss at `points` steps; "checkpoints": the steps of the
    snapshots; "A_it": (checkpoints, 2, layers, heads, n) the attention row of "it" in every layer
    and head, for the "tired" and the "wide" sentence; "answer": (checkpoints, 2) the answers;
    "words": the two sentences}. A few thousand numbers: well under 100 KB as JSON.
    """
    loss = trained.run.history["loss"]
    at = np.unique(np.linspace(0, len(loss) - 1, min(positive_int("points", points), len(loss))).round().astype(int))
    snaps = trained.run.snapshots
    return {
        "loss_step": (at + 1).tolist(),
        "loss": np.round(loss[at], 5).tolist(),
        "checkpoints": list(trained.run.checkpoints),
        "A_it": np.round(np.stack([x["A_it"] for x in snaps]), 4).tolist(),
        "answer": np.stack([x["answer"] for x in snaps]).tolist(),
        "words": [sentence_words(*SOURCE), sentence_words(*SOURCE_TWIN)],
    }


def held_out_maps(trained, count: int = 12) -> dict:
    """Every layer's and head's attention on the first `count` held-out sentences (JSON-ready): {"words",
    "maps": (count, layers, heads, n, n) rounded to 3 places, "answer", "expected"}. Chapter 13."""
    s = trained.corpus.held_out.subset(np.arange(min(positive_int("count", count), len(trained.corpus.held_out))))
    return {
        "words": s.words,
        "maps": np.round(np.stack([attention_maps(trained, t) for t in s.tokens]), 3).tolist(),
        "answer": forward(trained.model, trained.params, s.tokens).answer.tolist(),
        "expected": trained.targets(s).tolist(),
    }


__all__ = ["sentence_traces", "attention_maps", "training_snapshots", "held_out_maps"]
