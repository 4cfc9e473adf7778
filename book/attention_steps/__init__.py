"""attention: the tiny NumPy core behind *Attention, Step by Step*.

One function per stage of self-attention, named after the math:

    projection(X, W)          Q = X W_Q, K = X W_K, V = X W_V
    scores(Q, K)              QKᵀ
    scale(QK_T, d_k)          S = QKᵀ / √d_k
    softmax(S)                A, row by row, numerically stable
    weighted_sum(A, V)        Z = A V

and the whole computation:

    scaled_dot_product_attention(Q, K, V, mask=None) -> (Z, A)
    multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None, X_kv=None) -> (Y, A)
    trace_attention(...) -> Trace   every intermediate, by its name in the text (Z⁽¹⁾ is head 1)
    permutation_equivariance(X, ...) reorder the tokens, see the outputs reorder alike (chapter 8)
    tiled_attention(Q, K, V, block_size, mask=None) -> Z   the same Z, block by block (chapter 11)
    causal_mask(n)            the decoder's mask: token i sees tokens 1 … i (chapter 9)

and its backward (chapter 12): each stage's gradient, named after its forward, and the whole's:

    projection_backward(X, W, dOut) -> (dX, dW)
    scores_backward(Q, K, dQK_T) -> (dQ, dK)
    scale_backward(dS, d_k) -> dQK_T
    softmax_backward(A, dA, mask=None) -> dS      rows sum to 0; masked entries exactly 0
    weighted_sum_backward(A, V, dZ) -> (dA, dV)
    split_heads_backward(dM_heads) -> dM  ·  concat_heads_backward(dZ_cat, num_heads) -> dZ_heads
    output_projection_backward(Z_cat, W_O, dY) -> (dZ_cat, dW_O)
    scaled_dot_product_attention_backward(Q, K, V, dZ, mask=None) -> (dQ, dK, dV)
    multi_head_attention_backward(X, W_Q, W_K, W_V, W_O, num_heads, dY, mask=None, X_kv=None) -> dict
    gradient_check(f, inputs, grads, eps=1e-6, tol=1e-7) -> GradientCheck   against finite differences
    numerical_gradient(f, x, eps=1e-6)            ∂f/∂x by central differences

and training (chapter 13): the corpus, a tiny model trained with that backward, two optimisers:

    referents_corpus(seed=0) -> Corpus           "The ANIMAL didn't cross the PLACE because it was too ADJECTIVE"
    TinyModel(...), init_params(model, seed)     embeddings, attention layers, a readout (or a pointing layer)
    loss_and_gradients(model, params, tokens, targets) -> (loss, grads, forward)
    SGD(lr), Adam(lr)                            opt.step(params, grads) -> params
    train(model, tokens, targets, steps=…) -> TrainingRun   with a progress line and snapshots

Chapter 13's studies (where the model resolves "it", the divisors in training) are imported from
their modules: attention_steps.learning_studies, attention_steps.scaling_training.
"""

from .backward import (
    concat_heads_backward,
    multi_head_attention_backward,
    output_projection_backward,
    projection_backward,
    scale_backward,
    scaled_dot_product_attention_backward,
    scores_backward,
    softmax_backward,
    split_heads_backward,
    weighted_sum_backward,
)
from .core import projection, scale, scaled_dot_product_attention, scores, softmax, softmax_naive, weighted_sum
from .equivariance import Equivariance, permutation_equivariance
from .gradcheck import GradientCheck, gradient_check, numerical_gradient
from .masks import causal_mask
from .multihead import Head, Trace, concat_heads, multi_head_attention, split_heads, trace_attention
from .optim import *  # noqa: F403  (chapter 13's modules: each one's __all__ says what it exports)
from .optim import __all__ as _optim
from .referents import *  # noqa: F403
from .referents import __all__ as _referents
from .tiled import tiled_attention
from .tiny_model import *  # noqa: F403
from .tiny_model import __all__ as _tiny_model
from .training import *  # noqa: F403
from .training import __all__ as _training

__all__ = [
    # one function per stage, and one head (core)
    "projection",
    "scores",
    "scale",
    "softmax",
    "softmax_naive",
    "weighted_sum",
    "scaled_dot_product_attention",
    # the whole layer (multihead, equivariance, masks, tiled)
    "multi_head_attention",
    "trace_attention",
    "split_heads",
    "concat_heads",
    "Trace",
    "Head",
    "permutation_equivariance",
    "Equivariance",
    "causal_mask",
    "tiled_attention",
    # the backward pass, stage by stage and whole, and its check (backward, gradcheck: chapter 12)
    "projection_backward",
    "scores_backward",
    "scale_backward",
    "softmax_backward",
    "weighted_sum_backward",
    "split_heads_backward",
    "concat_heads_backward",
    "output_projection_backward",
    "scaled_dot_product_attention_backward",
    "multi_head_attention_backward",
    "gradient_check",
    "GradientCheck",
    "numerical_gradient",
]
# training (referents, tiny_model, optim, training: chapter 13)
__all__ += _referents + _tiny_model + _optim + _training
