"""Input checks shared by every function of the core.

Each check turns a bad argument into a ValueError or TypeError that names the
argument, says what it got and what was expected, so a reader never meets a
bare NumPy broadcast error or a silent NaN. They are no chapter's topic: each
function of the core calls one of them first (`check_scores` for chapter 2's
`scores`, …), and each costs microseconds (one pass over each array).
"""

from __future__ import annotations

import numbers

import numpy as np


def float_dtype(*arrays: np.ndarray) -> np.dtype:
    """float32 if every input is float32, float64 otherwise."""
    if arrays and all(a.dtype == np.float32 for a in arrays):
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def as_matrix(name: str, x, *, ndim: int | None = None, min_ndim: int | None = None) -> np.ndarray:
    """Return `x` as a finite real array, or raise naming `name`.

    `ndim` demands an exact number of dimensions, `min_ndim` a lower bound.
    Integers are accepted (and promoted later); booleans, strings, objects and
    complex numbers are not; nor is a string, even one that spells numbers ('3 1 0').
    """
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be numbers (a list or an array), got the string {x!r}")
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists, for instance
        raise TypeError(f"{name} must be an array of real numbers; could not convert it: {exc}") from None
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must hold real numbers (int or float), got dtype {arr.dtype}"
            + (f" (a {type(x).__name__})" if not isinstance(x, np.ndarray) else "")
        )
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape} with {arr.ndim}")
    if min_ndim is not None and arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape} with {arr.ndim}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = tuple(int(i) for i in bad)
        raise ValueError(
            f"{name} must be finite, but {name}[{', '.join(map(str, where))}] is {arr[where]} "
            f"({int(np.sum(~np.isfinite(arr)))} non-finite value(s) in shape {arr.shape})"
        )
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    return arr


def as_floats(names: tuple[str, ...], arrays, *, min_ndim: int | None = None) -> tuple[np.ndarray, ...]:
    """Each array checked by `as_matrix` (in order, naming it), then all cast to one
    float dtype: float32 if every one is float32, float64 otherwise."""
    checked = [as_matrix(name, x, min_ndim=min_ndim) for name, x in zip(names, arrays, strict=True)]
    dtype = float_dtype(*checked)
    return tuple(a.astype(dtype, copy=False) for a in checked)


def as_float(name: str, x, dtype: np.dtype, **kwargs) -> np.ndarray:
    """`as_matrix` followed by a cast to `dtype`."""
    return as_matrix(name, x, **kwargs).astype(dtype, copy=False)


def positive_number(name: str, value) -> float:
    """A finite real number > 0 (d_k, a temperature), or a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {value!r} ({type(value).__name__})")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def positive_int(name: str, value) -> int:
    """An integer >= 1 (a head count, a block size), or a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {value!r} ({type(value).__name__})")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer (>= 1), got {value}")
    return int(value)


def same_size(what: str, name_a: str, a: int, name_b: str, b: int) -> None:
    """Raise unless two sizes agree; `what` says which sizes they are."""
    if a != b:
        raise ValueError(f"{what} must match: {name_a} has {a} but {name_b} has {b}")


def check_batch(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
    """Leading (batch) axes must broadcast; say so in our words, not NumPy's."""
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the batch axes of {name_a} {a.shape[:-2]} and {name_b} {b.shape[:-2]} do not broadcast "
            f"(full shapes {a.shape} and {b.shape})"
        ) from None


def as_mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """A boolean mask broadcast to `shape` (..., n_q, n_k), every row with a True.

    True means "this query may attend to this key". A row with no True would
    make softmax divide by zero, so it is refused rather than turned into NaN.
    """
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(
            f"mask must be a boolean array (True where the query may attend to the key), got dtype {m.dtype}"
        )
    try:
        out = np.broadcast_to(m, shape)
    except ValueError:
        raise ValueError(
            f"mask of shape {m.shape} does not broadcast to the scores' shape {shape} (..., n_q, n_k)"
        ) from None
    empty = ~out.any(axis=-1)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0]) or (0,)  # (0,): the one row of a 1-D mask
        raise ValueError(
            f"mask lets the query at index {where[-1]} (token {where[-1] + 1} counting from 1"
            + (f", batch index {where[:-1]}" if len(where) > 1 else "")
            + ") attend to no key: every row of the mask needs at least one True"
        )
    return out


# ----------------------------------------------------------------------------- per stage
# One check per public function of `core`: the arrays back, of one float dtype, or
# the error naming the argument that does not fit. Each costs microseconds.
def check_projection(X, W, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """X (..., n, d_in) and W (d_in, d_out)."""
    name_X, name_W = names
    X, W = as_matrix(name_X, X, min_ndim=2), as_matrix(name_W, W, ndim=2)
    same_size(f"the columns of {name_X} (d_in) and the rows of {name_W}", name_X, X.shape[-1], name_W, W.shape[0])
    return as_floats(names, (X, W))


def check_scores(Q, K) -> tuple[np.ndarray, np.ndarray]:
    """Q (..., n_q, d_k) and K (..., n_k, d_k)."""
    Q, K = as_floats(("Q", "K"), (Q, K), min_ndim=2)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[-1], "K", K.shape[-1])
    check_batch("Q", Q, "K", K)
    return Q, K


def check_weighted_sum(A, V) -> tuple[np.ndarray, np.ndarray]:
    """A (..., n_q, n_k) and V (..., n_k, d_v)."""
    A, V = as_floats(("A", "V"), (A, V), min_ndim=2)
    same_size("the columns of A (n_k) and the rows of V", "A", A.shape[-1], "V", V.shape[-2])
    check_batch("A", A, "V", V)
    return A, V


def check_qkv(Q, K, V) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v), batch axes that broadcast."""
    Q, K, V = as_floats(("Q", "K", "V"), (Q, K, V), min_ndim=2)
    same_size("the number of rows (n_k) of K and V", "K", K.shape[-2], "V", V.shape[-2])
    check_batch("K", K, "V", V)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[-1], "K", K.shape[-1])
    check_batch("Q", Q, "K", K)
    return Q, K, V


def check_attention(Q, K, V, mask) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """`check_qkv`, and the mask broadcast to the scores' shape (..., n_q, n_k) as `keep` (None without one)."""
    Q, K, V = check_qkv(Q, K, V)
    if mask is None:
        return Q, K, V, None
    shape = (*np.broadcast_shapes(Q.shape[:-2], K.shape[:-2]), Q.shape[-2], K.shape[-2])
    return Q, K, V, as_mask(mask, shape)


def check_layer_arrays(X, W_Q, W_K, W_V, W_O, num_heads, mask, X_kv, square: bool) -> dict:
    """`multihead.check_layer`'s checks: the layer's arrays in one float dtype, as a dict of its fields."""
    h = positive_int("num_heads", num_heads)
    X = as_matrix("X", X, ndim=2)
    if square:
        d_model = X.shape[1]
        if d_model % h:
            raise ValueError(f"num_heads={h} must divide d_model={d_model} (the width of X {X.shape})")
        weights = []
        for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_O", W_O)):
            weights.append(as_matrix(name, w, ndim=2))
            if weights[-1].shape != (d_model, d_model):
                raise ValueError(
                    f"{name} must have shape (d_model, d_model) = {(d_model, d_model)}, got {weights[-1].shape}"
                )
        W_Q, W_K, W_V, W_O = weights
    X_kv = X if X_kv is None else as_matrix("X_kv", X_kv, ndim=2)
    same_size("the widths (d_model) of X and X_kv", "X", X.shape[1], "X_kv", X_kv.shape[1])
    if not square:
        W_Q, W_K, W_V = (as_matrix(name, w, ndim=2) for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)))
    for name, w in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if w.shape[0] != X.shape[1]:
            raise ValueError(f"{name} must have d_model={X.shape[1]} rows to multiply X {X.shape}, got shape {w.shape}")
        if w.shape[1] % h:
            raise ValueError(f"num_heads={h} must divide the {w.shape[1]} columns of {name} {w.shape}")
    same_size("the widths of W_Q and W_K (h·d_k)", "W_Q", W_Q.shape[1], "W_K", W_K.shape[1])
    arrays = [X, X_kv, W_Q, W_K, W_V]
    if W_O is not None:
        W_O = W_O if square else as_matrix("W_O", W_O, ndim=2)
        if W_O.shape[0] != W_V.shape[1]:
            raise ValueError(f"W_O must have h·d_v={W_V.shape[1]} rows to multiply Z_cat, got shape {W_O.shape}")
        arrays.append(W_O)
    dtype = float_dtype(*arrays)
    X, X_kv_cast, W_Q, W_K, W_V = (a.astype(dtype, copy=False) for a in (X, X_kv, W_Q, W_K, W_V))
    X_kv = X if X_kv is arrays[0] else X_kv_cast
    keep = None if mask is None else as_mask(mask, (h, X.shape[0], X_kv.shape[0]))
    return dict(
        X=X,
        X_kv=X_kv,
        W_Q=W_Q,
        W_K=W_K,
        W_V=W_V,
        W_O=W_O,
        num_heads=h,
        mask=None if mask is None else np.asarray(mask),
        keep=keep,
    )
