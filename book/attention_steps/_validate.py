"""Input checks shared by every function of the core.

Each check turns a bad argument into a ValueError or TypeError that names the
argument, says what it got and what was expected, so a reader never meets a
bare NumPy broadcast error or a silent NaN.
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
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"mask lets the query at index {where[-1]} (token {where[-1] + 1} counting from 1"
            + (f", batch index {where[:-1]}" if len(where) > 1 else "")
            + ") attend to no key: every row of the mask needs at least one True"
        )
    return out
