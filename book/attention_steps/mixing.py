"""The weighted sum Z = A V seen token by token: what each output row is made of.

Chapter 5 reads z_i = Σ_j a_ij v_j as a recipe ("64 % of itself, 36 % of
love"). These helpers take that sum apart so it can be printed, drawn and
checked, and show why an output row never leaves the convex hull of the value
rows: `inside_hull` tests it with barycentric coordinates, while
`inside_value_box` is the weaker coordinate-by-coordinate test (the bounding
box also holds points outside the hull).
"""

from __future__ import annotations

import numpy as np

from ._validate import as_matrix, float_dtype, positive_int, same_size
from .core import softmax, weighted_sum


def contributions(A, V) -> np.ndarray:
    """The terms of the weighted sum: a_ij v_j for every query i and key j. Chapter 5.

    A (n_q, n_k) are the attention weights, V (n_k, d_v) the value rows.
    Returns C (n_q, n_k, d_v) with C[i, j] = a_ij v_j, so C.sum(axis=1) is Z = A V.
    """
    A, V = as_matrix("A", A, ndim=2), as_matrix("V", V, ndim=2)
    same_size("the columns of A (n_k) and the rows of V", "A", A.shape[1], "V", V.shape[0])
    dtype = float_dtype(A, V)
    return A.astype(dtype)[:, :, None] * V.astype(dtype)[None, :, :]


def convex_weights(A, *, atol: float = 1e-9) -> bool:
    """True if every row of A (n_q, n_k) is a set of convex weights: all >= 0, summing to 1. Chapter 5.

    Softmax rows always are; that is what makes z_i = Σ_j a_ij v_j a convex combination.
    """
    A = as_matrix("A", A, ndim=2)
    return bool(np.all(A >= -atol) and np.allclose(A.sum(axis=1), 1.0, rtol=0, atol=atol))


def value_bounds(V) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest entry of each column of V (n_k, d_v): two arrays of shape (d_v,). Chapter 5.

    The box they span (the bounding box) contains the hull of the value rows,
    but is in general larger: its corners need not be in the hull.
    """
    V = as_matrix("V", V, ndim=2)
    return V.min(axis=0), V.max(axis=0)


def inside_value_box(Z, V, *, atol: float = 1e-9) -> np.ndarray:
    """For each row z_i of Z (n_q, d_v): does every coordinate lie within V's column range? Chapter 5.

    V is (n_k, d_v). Returns a boolean array of shape (n_q,). For Z = A V with
    convex weights A the answer is always True (a weighted average never exceeds
    the largest value nor falls below the smallest). True does NOT mean z_i is in
    the hull of the value rows: the box is larger (use `inside_hull` for that).
    """
    Z, V = as_matrix("Z", Z, ndim=2), as_matrix("V", V, ndim=2)
    same_size("the columns (d_v) of Z and V", "Z", Z.shape[1], "V", V.shape[1])
    low, high = value_bounds(V)
    return np.all((Z >= low - atol) & (Z <= high + atol), axis=1)


def barycentric(z, V) -> np.ndarray:
    """Weights w (n_k,) with w V = z and Σ w = 1, for affinely independent value rows. Chapter 5.

    z is one point (d_v,), V (n_k, d_v) the value rows with n_k <= d_v + 1
    (a segment, a triangle, ...). When z lies in the rows' affine hull (the line,
    the plane, ... through them) the weights are unique and w V = z exactly; z is
    then in the convex hull exactly when all w >= 0. For an attention output the
    weights are that row of A. If z is off the affine hull, w is the
    least-squares answer and w V != z (`inside_hull` checks both).
    """
    V = as_matrix("V", V, ndim=2)
    z = as_matrix("z", z, ndim=1)
    same_size("the width of z and the columns (d_v) of V", "z", z.shape[0], "V", V.shape[1])
    n_k = V.shape[0]
    if n_k > V.shape[1] + 1:
        raise ValueError(
            f"barycentric weights are unique only for at most d_v + 1 = {V.shape[1] + 1} value rows, "
            f"got V of shape {V.shape}"
        )
    # Solve [Vᵀ; 1ᵀ] w = [z; 1] in the least-squares sense (exact when z is in the affine hull).
    system = np.vstack([V.T.astype(float), np.ones((1, n_k))])
    if np.linalg.matrix_rank(system) < n_k:
        raise ValueError(
            f"the {n_k} value rows of V (shape {V.shape}) are not affinely independent (two coincide, or three "
            "lie on a line, ...), so barycentric weights are not unique"
        )
    rhs = np.concatenate([z.astype(float), [1.0]])
    w, *_ = np.linalg.lstsq(system, rhs, rcond=None)
    return w


def inside_hull(Z, V, *, atol: float = 1e-9) -> np.ndarray:
    """For each row z_i of Z (n_q, d_v): does it lie in the convex hull of the rows of V (n_k, d_v)? Chapter 5.

    The rows of V must be affinely independent (n_k <= d_v + 1: a segment, a
    triangle, a tetrahedron, ...). z_i is in their hull exactly when its
    barycentric weights w satisfy w V = z_i (z_i lies in their affine hull) and
    w >= 0. Returns a boolean array of shape (n_q,). Unlike `inside_value_box`,
    this rejects the corners of the bounding box that lie outside the hull.
    """
    Z, V = as_matrix("Z", Z, ndim=2), as_matrix("V", V, ndim=2)
    same_size("the columns (d_v) of Z and V", "Z", Z.shape[1], "V", V.shape[1])
    scale = max(1.0, float(np.abs(V).max()), float(np.abs(Z).max()))
    inside = []
    for z in Z:
        w = barycentric(z, V)
        on_affine_hull = np.allclose(w @ V, z, rtol=0, atol=atol * scale)
        inside.append(on_affine_hull and bool(np.all(w >= -atol)))
    return np.array(inside, dtype=bool)


def hull_example(n_queries: int = 12, *, spread: float = 1.5, seed: int = 0):
    """Three 2-D value rows (a triangle) and n_queries random softmax rows over them. Chapter 5.

    Returns (V (3, 2), A (n_queries, 3), Z = A V (n_queries, 2)). The scores are
    N(0, spread²) with a seeded generator; the value rows are a fixed triangle
    chosen to be easy to see.
    """
    n_queries = positive_int("n_queries", n_queries)
    V = np.array([[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]])
    A = softmax(np.random.default_rng(seed).standard_normal((n_queries, 3)) * spread)
    return V, A, weighted_sum(A, V)


__all__ = [
    "contributions",
    "convex_weights",
    "value_bounds",
    "inside_value_box",
    "barycentric",
    "inside_hull",
    "hull_example",
]
