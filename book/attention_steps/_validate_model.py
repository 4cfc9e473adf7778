"""Input checks for chapter 13's tiny model, in the style of `_validate`: each names the argument,
the shape it has and the shape expected."""

from __future__ import annotations

import numpy as np


def check_params(model, params) -> dict[str, np.ndarray]:
    """`params` as the model needs them: every name present, with its shape (a non-finite entry shows in
    the forward's output, which `loss_and_gradients` checks: no pass over every parameter here)."""
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict from names to arrays (init_params's), got {type(params).__name__}")
    shapes = model.parameter_shapes()
    missing, extra = sorted(set(shapes) - set(params)), sorted(set(params) - set(shapes))
    if missing or extra:
        raise KeyError(f"params must have exactly the names {sorted(shapes)}; missing {missing}, unexpected {extra}")
    for name, shape in shapes.items():
        if np.shape(params[name]) != shape:
            raise ValueError(f"params[{name!r}] must have shape {shape}, got {np.shape(params[name])}")
    return params


def check_tokens(model, tokens) -> np.ndarray:
    """tokens (B, n_tokens) whole numbers in 0 … vocab_size − 1 (one sentence (n_tokens,) becomes a batch of 1)."""
    t = np.asarray(tokens)
    t = t[None] if t.ndim == 1 else t
    if t.dtype.kind not in "iu":
        raise TypeError(f"tokens must be token ids (whole numbers), got dtype {t.dtype}")
    if t.ndim != 2 or t.shape[1] != model.n_tokens:
        raise ValueError(f"tokens must have shape (B, n_tokens) = (B, {model.n_tokens}); got {np.shape(tokens)}")
    if t.size and (t.min() < 0 or t.max() >= model.vocab_size):
        raise ValueError(f"tokens must be ids 0 … {model.vocab_size - 1}; got values {t.min()} … {t.max()}")
    return t


def check_ablate(model, ablate) -> np.ndarray | None:
    """ablate (attention_layers, num_heads, n_tokens) bool: True zeroes that head's output at that token."""
    if ablate is None:
        return None
    a = np.asarray(ablate)
    shape = (model.attention_layers, model.num_heads, model.n_tokens)
    if a.dtype != bool or a.shape != shape:
        raise ValueError(
            f"ablate must be a bool array of shape (layers, heads, tokens) = {shape}; got {a.dtype} {a.shape}"
        )
    return a


def check_targets(model, targets, batch: int) -> np.ndarray:
    """targets (B,): class ids 0 … n_classes − 1, or for a pointing model key code indices 0 … n_tokens − 1."""
    t = np.asarray(targets)
    top = model.n_tokens if model.pointing else model.n_classes
    what = "key positions (code indices)" if model.pointing else "class ids"
    if t.dtype.kind not in "iu" or t.shape != (batch,):
        raise ValueError(
            f"targets must be {batch} {what} (one per sentence, shape ({batch},)); got {t.dtype} {t.shape}"
        )
    if t.min() < 0 or t.max() >= top:
        raise ValueError(f"targets must be {what} 0 … {top - 1}; got values {t.min()} … {t.max()}")
    return t
