"""The mixing module (chapter 5's weighted sum: contributions, the values' box and hull,
barycentric coordinates), against independent computations and the properties it promises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_steps import softmax, trace_attention
from attention_steps.examples import i_love
from attention_steps.mixing import (
    barycentric,
    contributions,
    convex_weights,
    hull_example,
    inside_hull,
    inside_value_box,
    value_bounds,
)

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


def test_seed_rows_are_64_percent_self_and_36_percent_other():
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    C = contributions(t.A[0], t.V)
    np.testing.assert_allclose(C.sum(axis=1), t.head(0).Z)
    np.testing.assert_allclose(np.round(C[0, 0], 2), [0.64, 0, 0.64])  # 64 % of v_I
    np.testing.assert_allclose(np.round(C[0, 1], 2), [0, 0.36, 0])  # 36 % of v_love
    np.testing.assert_allclose(barycentric(t.head(0).Z[0], t.V), t.A[0, 0])


@settings(max_examples=60)
@given(S=arrays(float, (4, 3), elements=finite), V=arrays(float, (3, 2), elements=finite))
def test_attention_outputs_stay_in_the_values_box(S, V):
    A = softmax(S)
    assert convex_weights(A)
    Z = A @ V
    assert inside_value_box(Z, V).all()
    low, high = value_bounds(V)
    assert np.all(Z >= low - 1e-9) and np.all(Z <= high + 1e-9)


def test_a_point_outside_is_caught():
    V = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert not inside_value_box([[1.5, 0.0]], V)[0]
    assert not convex_weights([[1.2, -0.2, 0.0]])
    w = barycentric([1.0, 1.0], V)  # outside the triangle: a negative weight
    np.testing.assert_allclose(w @ V, [1.0, 1.0])
    assert w.min() < 0


def test_hull_test_rejects_a_box_corner_outside_the_triangle():
    # The old chapter 5 checked "inside the triangle" with the bounding-box test;
    # the box's corner (max of each column) passes it but is outside the triangle.
    V, _, _ = hull_example()
    corner = value_bounds(V)[1]
    assert inside_value_box([corner], V)[0]
    assert not inside_hull([corner], V)[0]
    w = barycentric(corner, V)
    np.testing.assert_allclose(w @ V, corner)
    assert w.min() < 0


def _edge_sides(p, V) -> np.ndarray:
    """The 2-D cross product of each edge of the triangle V with p: its sign says which side p is on."""
    edges = ((V[0], V[1]), (V[1], V[2]), (V[2], V[0]))
    return np.array([(b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) for a, b in edges])


def _in_triangle_by_half_planes(p, V) -> bool:
    """Independent test: p is on the inner side of all three edges of the triangle V."""
    sides = _edge_sides(p, V)
    return bool(np.all(sides >= 0) or np.all(sides <= 0))


@settings(max_examples=200)
@given(p=arrays(float, (2,), elements=st.floats(-1, 5, allow_nan=False, allow_infinity=False)))
def test_inside_hull_agrees_with_half_planes(p):
    V, _, _ = hull_example()
    if np.abs(_edge_sides(p, V)).min() < 1e-6:
        return  # too close to an edge for the two tests' tolerances to agree
    assert inside_hull([p], V)[0] == _in_triangle_by_half_planes(p, V)


@settings(max_examples=60)
@given(S=arrays(float, (4, 3), elements=finite))
def test_attention_outputs_are_in_the_triangle_with_the_weights_as_coordinates(S):
    V, _, _ = hull_example()
    A = softmax(S)
    Z = A @ V
    assert inside_hull(Z, V).all()
    for a, z in zip(A, Z):
        np.testing.assert_allclose(barycentric(z, V), a, atol=1e-9)


def test_inside_hull_of_a_segment_in_3d():
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    assert inside_hull(t.Z_cat, t.V).all()  # both outputs lie on the segment between v_I and v_love
    midpoint = t.V.mean(axis=0)
    assert inside_hull([midpoint + [0, 0, 0.1]], t.V).tolist() == [False]  # off the line
    assert inside_hull([2 * t.V[0] - t.V[1]], t.V).tolist() == [False]  # on the line, beyond v_I


def test_hull_example_recovers_its_weights():
    V, A, Z = hull_example()
    for a, z in zip(A, Z):
        np.testing.assert_allclose(barycentric(z, V), a, atol=1e-12)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: contributions(np.ones((2, 3)), np.ones((2, 2))), "columns of A"),
        (lambda: inside_value_box(np.ones((2, 3)), np.ones((2, 2))), "Z"),
        (lambda: barycentric([0.0, 0.0], np.ones((4, 2))), "at most d_v"),
        (lambda: barycentric([0.0, 0.0], [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]), "not affinely independent"),
        (lambda: inside_hull(np.ones((1, 3)), np.ones((2, 2))), "columns"),
        (lambda: hull_example(0), "n_queries"),
    ],
)
def test_mixing_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()
