"""Chapter 5 (weighted sum): the built page shows the output the core computes, checks
hull membership with barycentric coordinates (not the bounding box), and the speaker
notes' numbers agree with the core."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import trace_attention
from attention_steps.examples import i_love
from attention_steps.exercises import solution
from attention_steps.mixing import barycentric, hull_example, inside_hull, inside_value_box, value_bounds
from attention_steps.notation import bmatrix
from reader import notes, page

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

EX = i_love()
T = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)


def test_chapter_5_page_shows_the_source_articles_output():
    chapter = page("05_weighted_sum")
    assert any(bmatrix(T.head(0).Z, "{:.2f}") in m for m in chapter.maths)  # formatted as the page formats it
    for token, row in zip(EX.tokens, T.head(0).Z):
        assert ", ".join(f"{z:.2f}" for z in row) in chapter.text, f"row {token} of Z {row} not on the page"
    assert f"{T.A[0][0, 0]:.0%} of its own value" in chapter.text
    assert f"{T.A[0][0, 1]:.0%} of the value of" in chapter.text


def test_chapter_5_hull_check_uses_barycentric_coordinates():
    chapter = page("05_weighted_sum")
    glued = chapter.section("why-the-outputs-stay-inside-the-values-hull").glued
    V, A, Z = hull_example()
    corner = value_bounds(V)[1]
    w = barycentric(corner, V)
    # the corner of the box: accepted by the old box test, rejected by the hull test
    assert inside_value_box([corner], V)[0] and not inside_hull([corner], V)[0]
    assert glued[:3] == [
        f"({corner[0]:g}, {corner[1]:g})",
        "(" + ", ".join(f"{x:.2f}" for x in w) + ")",
        f"{w.min():.2f}",
    ]
    # by hand: (4, 3) = w1 (0, 0) + w2 (4, 0) + w3 (1, 3) with w1 + w2 + w3 = 1 gives w3 = 1, w2 = 3/4, w1 = −3/4
    np.testing.assert_allclose(V, [[0, 0], [4, 0], [1, 3]])
    np.testing.assert_allclose(w, [-0.75, 0.75, 1.0])
    n_inside = int(inside_hull(Z, V).sum())
    assert glued[5:8] == [str(len(Z)), str(n_inside), str(len(Z))] and n_inside == len(Z)
    err = max(np.abs(barycentric(z, V) - a).max() for z, a in zip(Z, A))
    assert glued[8] == f"{err:.0e}" and err < 1e-12
    assert "bounding box" in chapter.text  # the coordinate argument is named for what it proves


def test_chapter_5_exercise_claims():
    from attention_steps.exercises.ch05 import A_ROW, TARGET, V_THREE

    z = A_ROW @ V_THREE
    assert inside_hull([z], V_THREE)[0]  # 5.2: "it lies inside the triangle"
    a = solution("5.3")
    assert ((1 - a) * T.V[0] + a * T.V[1])[1] == TARGET  # column 2 is TARGET
    glued = page("05_weighted_sum").section("check-yourself").glued
    assert glued[-6:] == [f"{TARGET:g}", f"{T.V[0, 1]:g}", f"{T.V[1, 1]:g}", f"{a:.2f}", f"{1 - a:.0%}", f"{a:.0%}"]


def test_numbers_in_chapter_5_notes():
    text = notes("05_weighted_sum")
    A, V = T.A[0], T.V
    assert f"{A[0, 0]:.2f} * {V[0, 0]:g} + {A[0, 1]:.2f} * {V[1, 0]:g}" in text  # the first entry of Z
    assert f"{100 * A[0, 0]:.0f} percent old I and {100 * A[0, 1]:.0f} percent love" in text
    assert not np.any((V[0] != 0) & (V[1] != 0))  # "no column in common where both are non-zero"
    assert V[0, 1] == 0 and V[1, 1] != 0  # "Column 2 of z(I) is entirely orange"


def test_shape_check_in_chapter_5_notes():
    (n, _), (_, d_v) = T.A[0].shape, T.V.shape
    assert f"({n} x {n})({n} x {d_v}) = ({n} x {d_v})" in notes("05_weighted_sum")
