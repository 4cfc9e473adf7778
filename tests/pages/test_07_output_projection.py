"""Chapter 7 (output projection): the parameter count and the head blocks of W^O on
the built page, counted from 1, with W_V's own width."""

from __future__ import annotations

import pytest

from reader import notes, page, prose, source

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)


def test_chapter_7_page_shows_the_parameter_count():
    from attention_steps.parameters import parameter_count

    assert f"{parameter_count(512, 8).weights:,} weights in all" in page("07_output_projection").text


def test_chapter_7_page_writes_head_blocks_with_a_superscript():
    html = source("07_output_projection")
    assert "W^O_r" not in html and "W^O_2" not in html
    assert "W^{O(r)}" in html
    text = page("07_output_projection").text.replace("\\(", "").replace("\\)", "")  # inline maths as written
    assert "is rows d_v + 1 to 2 d_v of W^O" in text  # counted from 1; the Python slice is said to be Python's
    assert "Python, counting from 0, writes as the slice d_v : 2 * d_v" in text


def test_chapter_7_gives_w_v_its_own_width():
    # W_V is d_model × h·d_v, not h·d_k: the page said "W_Q, W_K, W_V (each d_model × h d_k)"
    from attention_steps.notation import LayerConfig, random_layer

    w = random_layer(LayerConfig(d_model=12, num_heads=3), n=2)
    assert w["W_V"].shape[1] == 3 * 4 and w["W_O"].shape[0] == w["W_V"].shape[1]
    text = "\n".join([*prose("07_output_projection"), notes("07_output_projection")])
    assert "$W_V$ (each $d_{\\text{model}} \\times h d_k$" not in text
    assert "$W_V$ ($d_{\\text{model}} \\times h d_v$)" in text
