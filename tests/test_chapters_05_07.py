"""Chapters 5–7: their checkers explain right and wrong answers, the built pages
show the numbers the core computes (chapter 5 checks hull membership with barycentric
coordinates, not the bounding box), and the speaker notes' numbers agree with it."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from attention_steps import trace_attention
from attention_steps.examples import i_love
from attention_steps.exercises import solution
from attention_steps.mixing import barycentric, hull_example, inside_hull, inside_value_box, latex_matrix, value_bounds
from conftest import BOOK, built_page

# The generic checker tests (every exercise) are in test_exercises.py.

EX = i_love()
T = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)


def test_seed_solution_is_the_articles_output():
    from attention_steps.exercises.ch03 import X_NEW  # 5.1 asks for a new query's output instead

    np.testing.assert_array_equal(np.round(T.head(0).Z, 2), [[0.64, 0.36, 0.64], [0.36, 0.64, 0.36]])

    s = (X_NEW @ EX.W_Q) @ T.K.T / np.sqrt(3)
    np.testing.assert_allclose(solution("5.1"), np.exp(s) / np.exp(s).sum() @ T.V)


def _text(page: str) -> str:
    """The page's text without tags, whitespace runs collapsed (the source wraps lines)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _page(name: str) -> str:
    return html.unescape(built_page(name))


def test_chapter_5_page_shows_the_seed_output():
    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    page = _page("05_weighted_sum")
    assert latex_matrix(t.head(0).Z) in page  # the glued matrix, formatted as the page formats it
    text = _text(page)
    for token, row in zip(ex.tokens, t.head(0).Z):
        assert ", ".join(f"{z:.2f}" for z in row) in text, f"row {token} of Z {row} not on the page"
    assert f"{t.A[0][0, 0]:.0%} of its own value" in text
    assert f"{t.A[0][0, 1]:.0%} of the value of" in text


def _glued(page: str, section_id: str) -> list[str]:
    from bs4 import BeautifulSoup

    found = BeautifulSoup(page, "html.parser").find("section", id=section_id)
    assert found is not None, section_id
    return [s.get_text() for s in found.select("span.pasted-text")]


def test_chapter_5_hull_check_uses_barycentric_coordinates():
    page = _page("05_weighted_sum")
    glued = _glued(page, "why-the-outputs-stay-inside-the-values-hull")
    V, A, Z = hull_example()
    corner = value_bounds(V)[1]
    w = barycentric(corner, V)
    # the corner of the box: accepted by the old box test, rejected by the hull test
    assert inside_value_box([corner], V)[0] and not inside_hull([corner], V)[0]
    assert glued[:3] == [f"({corner[0]:g}, {corner[1]:g})", "(" + ", ".join(f"{x:.2f}" for x in w) + ")", f"{w.min():.2f}"]
    # by hand: (4, 3) = w1 (0, 0) + w2 (4, 0) + w3 (1, 3) with w1 + w2 + w3 = 1 gives w3 = 1, w2 = 3/4, w1 = −3/4
    np.testing.assert_allclose(V, [[0, 0], [4, 0], [1, 3]])
    np.testing.assert_allclose(w, [-0.75, 0.75, 1.0])
    n_inside = int(inside_hull(Z, V).sum())
    assert glued[5:8] == [str(len(Z)), str(n_inside), str(len(Z))] and n_inside == len(Z)
    err = max(np.abs(barycentric(z, V) - a).max() for z, a in zip(Z, A))
    assert glued[8] == f"{err:.0e}" and err < 1e-12
    assert "bounding box" in _text(page)  # the coordinate argument is named for what it proves


def test_chapter_5_exercise_claims():
    from attention_steps.exercises.ch05 import A_ROW, TARGET, V_THREE

    z = A_ROW @ V_THREE
    assert inside_hull([z], V_THREE)[0]  # 5.2: "it lies inside the triangle"
    a = solution("5.3")
    assert ((1 - a) * T.V[0] + a * T.V[1])[1] == TARGET  # column 2 is TARGET
    glued = _glued(_page("05_weighted_sum"), "check-yourself")
    assert glued[-6:] == [f"{TARGET:g}", f"{T.V[0, 1]:g}", f"{T.V[1, 1]:g}", f"{a:.2f}", f"{1 - a:.0%}", f"{a:.0%}"]


def test_numbers_in_chapter_5_notes():
    nb = json.loads((BOOK / "05_weighted_sum.ipynb").read_text(encoding="utf-8"))
    notes = "\n".join("".join(c["source"]) for c in nb["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "notes")
    A, V = T.A[0], T.V
    assert f"{A[0, 0]:.2f} * {V[0, 0]:g} + {A[0, 1]:.2f} * {V[1, 0]:g}" in notes  # the first entry of Z
    assert f"{100 * A[0, 0]:.0f} percent old I and {100 * A[0, 1]:.0f} percent love" in notes
    assert not np.any((V[0] != 0) & (V[1] != 0))  # "no column in common where both are non-zero"
    assert V[0, 1] == 0 and V[1, 1] != 0  # "Column 2 of z(I) is entirely orange"


def test_chapter_6_page_shows_the_head_width_and_the_bug():
    from attention_steps.heads import head_width

    text = _text(_page("06_multi_head"))
    assert f"= {head_width(512, 8)} dimensions" in text
    assert "explorer: heads" in _page("06_multi_head")


def test_chapter_7_page_shows_the_parameter_count():
    from attention_steps.parameters import parameter_count

    text = _text(_page("07_output_projection"))
    assert f"{parameter_count(512, 8).weights:,} weights in all" in text


def test_shape_check_in_chapter_5_notes():
    nb = json.loads((BOOK / "05_weighted_sum.ipynb").read_text(encoding="utf-8"))
    notes = "\n".join("".join(c["source"]) for c in nb["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "notes")
    (n, _), (_, d_v) = T.A[0].shape, T.V.shape
    assert f"({n} x {n})({n} x {d_v}) = ({n} x {d_v})" in notes


def _notes(name: str) -> str:
    """The speaker notes of book/<name>.ipynb (they cannot glue, so their numbers are tested here)."""
    cells = json.loads((BOOK / f"{name}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells
                     if c["metadata"].get("slideshow", {}).get("slide_type") == "notes")  # fmt: skip


def test_chapter_6_speaker_notes_quote_the_core():
    from attention_steps.explorers.data import HEAD_COUNTS
    from attention_steps.explorers import heads_explorer
    from attention_steps.notation import ORIGINAL_TRANSFORMER, layer_shapes

    notes = _notes("06_multi_head")
    explorer = heads_explorer(figure=False)
    counts, d_model = explorer.data["head_counts"], explorer.data["d_model"]
    explorer.close()
    assert list(counts) == list(HEAD_COUNTS)
    assert f"Drag *h* from {min(counts)} to {max(counts)}" in notes
    assert f"At d_k = {d_model // max(counts)} a head's score" in notes
    d, d_k = layer_shapes(ORIGINAL_TRANSFORMER, n=1)["W_Q⁽ʳ⁾"]  # one head's W_Q, in the source articles' sizes
    assert f"The source articles' {d} x {d_k} W_Q is one head's" in notes
    # the old notes counted heads and columns from 0 ("head 1 gets columns 0-1") and typed the toy's sizes
    assert "columns 0-1" not in notes and "(6, 8) -> (4, 6, 2)" not in notes


def test_chapter_6_page_counts_heads_from_one_and_quotes_the_bug_at_paper_size():
    from attention_steps.heads import scaling_bug_at_size, small_layer

    text = _text(_page("06_multi_head"))
    layer = small_layer()
    assert f"Side by side, the {layer.num_heads} maps" in text
    assert 'For the query "animal" (row 2)' in text.replace("“", '"').replace("”", '"')
    assert "head 1 owns columns 0:d_k" in text  # code indices said to be code
    big = scaling_bug_at_size(512, 8)
    # the old text said the effect was "larger" at this size; the drop in the largest weight is about
    # the same as in the toy layer, so the page now quotes the numbers instead
    assert "the effect is larger" not in text
    assert f"falls from {big.score_std:.2f} to {big.score_std_bug:.2f} ({big.score_std_bug / big.score_std:.3f} of it" in text
    assert f"from {big.right.mean_max_weight[0]:.2f} to {big.bug.mean_max_weight[0]:.2f}" in text


def test_bug_shrinks_the_score_spread_by_exactly_one_over_sqrt_h():
    from attention_steps.heads import scaling_bug_at_size

    for h in (2, 4, 8, 16):
        big = scaling_bug_at_size(512, h)
        assert big.score_std_bug / big.score_std == pytest.approx(1 / np.sqrt(h), rel=1e-12)


def test_bert_and_the_original_transformer_have_the_same_head_width():
    from attention_steps.heads import head_width

    assert head_width(768, 12) == head_width(512, 8) == solution("6.1")  # the solution's "the same head width"


def test_chapter_7_page_writes_head_blocks_with_a_superscript():
    page = _page("07_output_projection")
    assert "W^O_r" not in page and "W^O_2" not in page
    assert "W^{O(r)}" in page
    text = _text(page).replace("\\(", "").replace("\\)", "")  # inline maths as the page writes it
    assert "is rows d_v + 1 to 2 d_v of W^O" in text  # counted from 1; the Python slice is said to be Python's
    assert "Python, counting from 0, writes as the slice d_v : 2 * d_v" in text


def test_chapter_7_gives_w_v_its_own_width():
    # W_V is d_model × h·d_v, not h·d_k: the page said "W_Q, W_K, W_V (each d_model × h d_k)"
    from attention_steps.notation import LayerConfig, random_layer

    w = random_layer(LayerConfig(d_model=12, num_heads=3), n=2)
    assert w["W_V"].shape[1] == 3 * 4 and w["W_O"].shape[0] == w["W_V"].shape[1]
    nb = json.loads((BOOK / "07_output_projection.ipynb").read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "$W_V$ (each $d_{\\text{model}} \\times h d_k$" not in text
    assert "$W_V$ ($d_{\\text{model}} \\times h d_v$)" in text
