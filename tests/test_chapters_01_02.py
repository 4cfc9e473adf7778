"""The introduction and chapters 1–2: the notation module, the exercises' checkers,
the source article's numbers on the built pages where the chapters say they are,
and the numbers in the speaker notes."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps import projection, scale, scores, softmax, trace_attention
from attention_steps.examples import i_love, unequal_lengths
from attention_steps.exercises import check, solution
from attention_steps.exercises.ch01 import YOU
from attention_steps.sentence import tokenize
from attention_steps.notation import ORIGINAL_TRANSFORMER, LayerConfig, bmatrix, layer_shapes, notation_table
from conftest import BOOK, built_page

EX = i_love()
SEED_Q = np.array([[2, 0, 1], [0, 2, 1]])  # as printed in the source article (shared/seeds/001)
SEED_K = np.array([[1, 1, 0], [0, 1, 1]])
SEED_V = np.array([[1, 0, 1], [0, 1, 0]])

# Right answers worked out independently of the core: plain NumPy on the article's printed
# matrices, and the original Transformer's published sizes (d_model 512, d_k 64).
RIGHT = {
    "1.1": SEED_V.tolist(),  # a reader types nested lists
    "1.2": (YOU @ EX.W_Q).tolist(),
    "1.3": 3 * 512 * 64,
    "2.1": (YOU @ EX.W_Q @ SEED_K.T).tolist(),
    "2.2": (SEED_Q @ SEED_Q.T).tolist(),
    "2.3": (np.vstack([EX.X, YOU]) @ EX.W_Q @ (np.vstack([EX.X, YOU]) @ EX.W_K).T).tolist(),
}
NAMES = {"1.1": "V", "1.2": "q_you", "1.3": "the number of weights", "2.1": "scores_you", "2.2": "QQᵀ", "2.3": "QKᵀ"}


# ------------------------------------------------------------------ the notation module
def test_original_transformer_sizes():
    cfg = ORIGINAL_TRANSFORMER
    assert (cfg.d_model, cfg.num_heads, cfg.d_k, cfg.d_v) == (512, 8, 64, 64)


def test_layer_shapes_of_the_original_transformer():
    shapes = layer_shapes(ORIGINAL_TRANSFORMER, n=11)
    assert shapes["X"] == (11, 512)
    # no superscript: the whole layer, all 8 heads side by side
    assert shapes["W_Q"] == shapes["W_K"] == shapes["W_V"] == shapes["W_O"] == (512, 512)
    assert shapes["Q"] == shapes["K"] == shapes["V"] == shapes["Z_cat"] == shapes["Y"] == (11, 512)
    assert shapes["A"] == (8, 11, 11)
    # ⁽ʳ⁾: one head's
    assert shapes["W_Q⁽ʳ⁾"] == shapes["W_K⁽ʳ⁾"] == shapes["W_V⁽ʳ⁾"] == (512, 64)
    assert shapes["Q⁽ʳ⁾"] == shapes["K⁽ʳ⁾"] == shapes["V⁽ʳ⁾"] == shapes["Z⁽ʳ⁾"] == (11, 64)
    assert shapes["QKᵀ⁽ʳ⁾"] == shapes["S⁽ʳ⁾"] == shapes["A⁽ʳ⁾"] == (11, 11)
    assert shapes["W_O⁽ʳ⁾"] == (64, 512)
    assert "Z" not in shapes  # one head's Z⁽ʳ⁾ or all heads' Z_cat, never an ambiguous Z


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), d_k=st.integers(1, 5), h=st.integers(1, 4))
def test_layer_shapes_follow_the_formulas(n, d_k, h):
    cfg = LayerConfig(d_model=d_k * h, num_heads=h)
    s = layer_shapes(cfg, n)
    assert s["Q⁽ʳ⁾"] == (n, d_k) and s["QKᵀ⁽ʳ⁾"] == (n, n) and s["Q"] == (n, h * d_k)
    assert s["Z_cat"] == (n, h * d_k) and s["W_O"] == (h * d_k, d_k * h)


def test_every_symbol_has_a_row_in_the_table():
    table = notation_table(ORIGINAL_TRANSFORMER, n=11, conventions=False)
    rows = table.splitlines()[2:]
    assert len(rows) == 18
    assert any(r.startswith("| $W^O$") and r.endswith("= 512\u00a0×\u00a0512 |") for r in rows)
    # the whole layer's W_Q and head r's W_Q⁽ʳ⁾ have a row each, with their own shapes
    assert any(r.startswith("| $W_Q, W_K, W_V$") and r.endswith("= 512\u00a0×\u00a0512 |") for r in rows)
    assert any(r.startswith("| $W_Q^{(r)}") and r.endswith("= 512\u00a0×\u00a064 |") for r in rows)
    assert not any(r.startswith("| $Z$") for r in rows)


def test_the_conventions_are_stated_under_the_table():
    text = notation_table(ORIGINAL_TRANSFORMER, n=11)
    assert text.startswith(notation_table(ORIGINAL_TRANSFORMER, n=11, conventions=False))
    for phrase in ("without a superscript is the whole layer", "counts from 1", "Python counts from 0",
                   "`t.head(r - 1)`", "`t.A[r - 1][i - 1, j - 1]`", '`t["Z⁽¹⁾"]`'):
        assert phrase in text, phrase


@pytest.mark.parametrize(
    "kwargs, error",
    [({"d_model": 10, "num_heads": 3}, ValueError), ({"d_model": 0, "num_heads": 1}, ValueError),
     ({"d_model": 8.0, "num_heads": 2}, TypeError)],
)
def test_layer_config_rejects_bad_sizes(kwargs, error):
    with pytest.raises(error, match="d_model|num_heads"):
        LayerConfig(**kwargs)


def test_bmatrix():
    assert bmatrix([[2, 0], [-0.0, 3]]) == r"\begin{bmatrix} 2 & 0 \\ 0 & 3 \end{bmatrix}"
    assert bmatrix([0.6412, 1], "{:.2f}") == r"\begin{bmatrix} 0.64 & 1.00 \end{bmatrix}"
    with pytest.raises(ValueError, match="M"):
        bmatrix(np.zeros((2, 2, 2)))


# ------------------------------------------------------------------ the checkers
@pytest.mark.parametrize("exercise", RIGHT)
def test_a_right_answer_passes(exercise):
    feedback = check(exercise, RIGHT[exercise])
    assert feedback.ok, str(feedback)
    assert str(feedback).startswith("Correct")


@pytest.mark.parametrize("exercise", RIGHT)
def test_the_expected_answer_is_the_independent_one(exercise):
    np.testing.assert_allclose(solution(exercise), RIGHT[exercise])


@settings(max_examples=30, deadline=None)
@given(exercise=st.sampled_from(sorted(RIGHT)), data=st.data())
def test_a_wrong_entry_is_named(exercise, data):
    answer = np.array(RIGHT[exercise], dtype=float)
    index = tuple(data.draw(st.integers(0, size - 1)) for size in answer.shape)
    delta = data.draw(st.sampled_from([-3.0, -1.0, 1.5, 2.0]))  # beyond every tolerance
    answer[index] += delta
    feedback = check(exercise, answer)
    assert not feedback.ok
    if index:  # a code index (from 0), said to be one, then the same entry counted from 1
        maths = ", ".join(str(i + 1) for i in index)
        where = f"{NAMES[exercise]}[{', '.join(map(str, index))}] in code (entry {'(' + maths + ')' if len(index) > 1 else maths} counting from 1)"
    else:
        where = NAMES[exercise]
    if "the answer you get when you" in str(feedback):  # a wrong entry that is also a common mistake: named
        return
    direction = "too big" if delta > 0 else "too small"  # never the expected value (issue 10)
    assert f"{where} is" in str(feedback), str(feedback)
    assert direction in str(feedback) or "wrong sign" in str(feedback), str(feedback)
    assert "Hint:" in str(feedback)


@pytest.mark.parametrize("exercise", RIGHT)
def test_unanswered_and_wrong_shape(exercise):
    assert "Not answered yet" in str(check(exercise, ...))
    wrong_shape = np.zeros(np.shape(RIGHT[exercise]) + (2,))
    feedback = check(exercise, wrong_shape)
    assert not feedback.ok and "should be" in str(feedback)


# ------------------------------------------------------------------ the built pages
_page = built_page


def _section(page: str, section_id: str) -> str:
    """The HTML of <section id=section_id>, nested sections included."""
    start = page.index(f'<section id="{section_id}"')
    depth, pos = 0, start
    for m in re.finditer(r"<section\b|</section>", page[start:]):
        depth += 1 if m.group() == "<section" else -1
        if depth == 0:
            pos = start + m.end()
            break
    return page[start:pos]


def _pasted_text(section: str) -> list[str]:
    """The glued inline values, in reading order."""
    return [html.unescape(v) for v in re.findall(r'<span class="pasted-text">(.*?)</span>', section)]


def _pasted_math(section: str) -> str:
    """All glued display math of a section, whitespace removed."""
    blocks = re.findall(r'<div class="pasted-math[^"]*">(.*?)</div>', section, flags=re.S)
    return re.sub(r"\s+", "", html.unescape("".join(blocks)))


def _tex(M) -> str:
    """A matrix as the pages write it (integers without decimals), whitespace removed."""
    rows = [" & ".join(f"{v:g}" for v in row) for row in np.atleast_2d(M)]
    return re.sub(r"\s+", "", r"\begin{bmatrix}" + r"\\".join(rows) + r"\end{bmatrix}")


def test_chapter_1_shows_the_seed_projection():
    Q = projection(EX.X, EX.W_Q)
    K = projection(EX.X, EX.W_K)
    section = _section(_page("01_projection"), "the-source-article-s-example-i-love")
    assert _pasted_text(section)[:5] == [
        str(EX.X.shape[0]), str(EX.X.shape[1]), str(EX.X[0].astype(int).tolist()),
        str(EX.X[1].astype(int).tolist()), str(EX.W_Q.shape[1]),
    ]  # fmt: skip
    for M in (EX.X, EX.W_Q, Q):
        assert _tex(M) in _pasted_math(section)
    np.testing.assert_array_equal(Q, SEED_Q)
    # the per-token view: q_I is the first row of Q, the sum of rows 1 and 3 of W_Q (counted from 1)
    rows = _section(_page("01_projection"), "one-row-at-a-time")
    assert _tex(Q[0]) in _pasted_math(rows)
    assert _pasted_text(rows) == ["1 and 3", "1 and 3", "W_Q[0], W_Q[2]"]
    np.testing.assert_array_equal(EX.W_Q[0] + EX.W_Q[2], Q[0])
    # the honest note: our W_K gives the article's K
    note = _pasted_math(_section(_page("01_projection"), "keys-and-values-an-honest-note"))
    assert _tex(EX.W_K) in note and _tex(K) in note and _tex(EX.W_V) in note


def test_chapter_1_shows_the_original_transformer_sizes():
    section = _section(_page("01_projection"), "all-tokens-at-once")
    cfg = ORIGINAL_TRANSFORMER
    assert _pasted_text(section) == [str(v) for v in (cfg.d_model, cfg.num_heads, cfg.d_k, 10, cfg.d_model, cfg.d_k)]


def test_chapter_1_shows_what_breaks_without_projections():
    section = _section(_page("01_projection"), "why-three-different-matrices")
    XX_T = scores(EX.X, EX.X)
    QK_T = scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K))
    A_plain = softmax(XX_T)
    A_scaled = softmax(scale(XX_T, EX.X.shape[1]))  # chapter 3's scaling, d_k = width of X = 4
    assert _pasted_text(section) == [
        f"{XX_T[0, 1]:.0f}", f"{100 * A_plain[0, 1]:.0f}", f"{QK_T[1, 0]:.0f}", f"{QK_T[1, 0]:.0f}",
        f"{QK_T[0, 1]:.0f}", f"{XX_T[0, 0]:.0f}", f"{100 * A_plain[0, 0]:.0f}", "2", "4",
        f"{100 * A_scaled[0, 0]:.0f}",
    ]  # fmt: skip
    rows = " \\\\ ".join(" & ".join(f"{v:.2f}" for v in row) for row in A_plain)
    assert re.sub(r"\s+", "", rf"\begin{{bmatrix}} {rows} \end{{bmatrix}}") in _pasted_math(section)


def test_chapter_1_scaling_changes_the_self_weight():
    # The chapter once said chapter 3's scaling "changes nothing here". By hand, with
    # Q = K = X: scores [[2, 0], [0, 2]], divided by √4 = 2 → softmax([1, 0]).
    by_hand_plain = np.exp(2) / (np.exp(2) + 1)
    by_hand_scaled = np.exp(1) / (np.exp(1) + 1)
    assert round(100 * by_hand_plain) == 88 and round(100 * by_hand_scaled) == 73
    assert softmax(scale(scores(EX.X, EX.X), 4))[0, 0] == pytest.approx(by_hand_scaled)
    text = html.unescape(re.sub(r"<[^>]+>", " ", _section(_page("01_projection"), "why-three-different-matrices")))
    assert "changes nothing" not in text and "changes\nnothing" not in text


def test_chapter_2_shows_the_seed_scores():
    t = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)
    QK_T = t.head(0).QK_T
    np.testing.assert_array_equal(QK_T, SEED_Q @ SEED_K.T)
    section = _section(_page("02_scores"), "the-i-love-scores")
    assert _tex(QK_T) in _pasted_math(section)
    assert _tex(t.Q) in _pasted_math(section) and _tex(t.K.T) in _pasted_math(section)
    assert _pasted_text(section)[:2] == [str(t.Q[0].astype(int).tolist()), str(t.K[0].astype(int).tolist())]
    assert _pasted_text(section)[2:] == [f"{v:.0f}" for v in QK_T.ravel()]  # row by row


def test_chapter_2_shows_the_asymmetry():
    QK_T = scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K))
    M = EX.W_Q @ EX.W_K.T
    section = _section(_page("02_scores"), "the-scores-are-not-symmetric")
    assert _pasted_text(section) == [f"{QK_T[0, 1]:.0f}", f"{QK_T[1, 0]:.0f}", f"{M[0, 1]:.0f}", f"{M[1, 0]:.0f}"]
    assert QK_T[0, 1] != QK_T[1, 0] and M[0, 1] != M[1, 0]
    assert _tex(M) in _pasted_math(section)


def test_exercise_2_2_diagonal_needs_equal_lengths():
    # The old solution said the largest score of each row is on the diagonal whenever
    # W_K = W_Q. False: with q_1 = [1, 0], q_2 = [2, 0.1], token 1 prefers token 2.
    q = np.array([[1.0, 0.0], [2.0, 0.1]])
    by_hand = q @ q.T
    np.testing.assert_allclose(by_hand, [[1.0, 2.0], [2.0, 4.01]])
    c = unequal_lengths()
    QQ_T = scores(projection(c.X, c.W_Q), projection(c.X, c.W_K))
    np.testing.assert_allclose(QQ_T, by_hand)
    assert np.argmax(QQ_T[0]) != 0  # row 1's largest score is not its own
    # For "I love" the two queries have equal lengths, so there the diagonal does win
    Q = projection(EX.X, EX.W_Q)
    assert (Q * Q).sum(axis=1).tolist() == [5.0, 5.0]
    assert all(np.argmax(row) == i for i, row in enumerate(scores(Q, Q)))
    section = _section(_page("02_scores"), "check-yourself")
    glued = _pasted_text(section)
    assert glued[glued.index("[1, 0]"):][:4] == ["[1, 0]", "[2, 0.1]", "2", "1"], glued
    assert "5" in glued  # the two squared lengths
    assert _tex(QQ_T) in _pasted_math(section)
    text = html.unescape(re.sub(r"<[^>]+>", " ", section))
    assert "each token matches itself best" not in text
    # equal lengths guarantee the diagonal; they are not the only way to get it ("only because" was wrong):
    q = np.array([[1.0, 0.0], [0.0, 2.0]])  # unequal lengths, diagonal still largest in each row
    assert all(np.argmax(row) == i for i, row in enumerate(q @ q.T))
    assert "only because" not in text and "guarantee it" in text


def test_chapter_2_says_the_verb_picture_is_idealised():
    section = _section(_page("02_scores"), "the-dot-product-measures-agreement")
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", section)))
    assert "In the idealised picture" in text and "rarely this clean" in text


def test_intro_does_not_credit_the_transformer_with_inventing_self_attention():
    # self-attention predates the Transformer paper, which introduced the architecture
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", _page("intro"))))
    assert "that introduced it to" not in text and "that introduced the architecture" in text


def test_pipeline_diagram_labels_one_heads_symbols_with_r():
    # inside the dashed "one head r" frame every symbol is head r's (the notation convention);
    # the diagram once showed Q = XW_Q (all heads, by the convention) with shape n × d_k
    from attention_steps.figures import _PIPELINE, pipeline_diagram

    for key in ("Q", "K", "V", "QK", "S", "A", "Z"):
        assert "^{(r)}" in _PIPELINE[key][2], key
    for key in ("X", "Zcat", "Y"):
        assert "(r)" not in _PIPELINE[key][2], key
    pipeline_diagram()
    section = _section(_page("intro"), "the-whole-computation-in-one-picture")
    assert "Q^(r) = X W_Q^(r)" in html.unescape(section)


def test_exercise_2_3_solution_claims():
    X3 = np.vstack([EX.X, YOU])
    QK3 = scores(projection(X3, EX.W_Q), projection(X3, EX.W_K))
    np.testing.assert_array_equal(QK3[:, 0], QK3[:, 2])  # "you" is scored exactly as "I"
    np.testing.assert_array_equal(QK3[:2, :2], scores(projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K)))


def test_chapter_2_shows_the_dot_products_of_directions():
    a = np.array([1, 0])
    section = _section(_page("02_scores"), "the-dot-product-measures-agreement")
    assert _pasted_text(section) == [str(a @ b) for b in ([1, 0], [0, 1], [-1, 0])]


def test_intro_shows_the_measured_notation():
    section = _section(_page("intro"), "notation")
    text = html.unescape(re.sub(r"<[^>]+>", " ", section)).replace("\u00a0", " ")
    shapes = layer_shapes(ORIGINAL_TRANSFORMER, n=len(tokenize()))  # the sentence's tokens
    for key in ("X", "W_Q", "W_Q⁽ʳ⁾", "Q", "Q⁽ʳ⁾", "QKᵀ⁽ʳ⁾", "Z⁽ʳ⁾", "Z_cat", "W_O", "W_O⁽ʳ⁾", "Y"):
        assert " × ".join(map(str, shapes[key])) in text, key
    assert "without a superscript is the whole layer" in text  # the conventions, under the table
    cfg = ORIGINAL_TRANSFORMER
    assert _pasted_text(section) == [str(cfg.d_model), str(cfg.num_heads), str(cfg.d_k), str(shapes["n"][0])]


def test_intro_states_prerequisites_and_index_convention():
    page = _page("intro")
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    for word in ("matrix product", "expectation", "variance", "independence"):
        assert word in text, word
    assert "A[i-1, j-1]" in text and "t.head(r-1)" in text
    # the code convention the text states: a_ij is A[i-1, j-1], head r is t.head(r-1)
    t = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)
    i, j, r = 2, 1, 1
    assert t.head(r - 1).A[i - 1, j - 1] == t.A[r - 1][1, 0]


# ------------------------------------------------------------------ speaker notes
def notes(name: str) -> str:
    """All speaker-notes cells of book/<name>.ipynb, joined."""
    nb = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
    return "\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "notes"
    )


def test_numbers_in_the_intro_notes():
    cfg = ORIGINAL_TRANSFORMER
    text = notes("intro")
    assert f"{cfg.d_model} / {cfg.num_heads} = {cfg.d_k}" in text and cfg.d_model // cfg.num_heads == cfg.d_k
    assert f"Two tokens, d_k = {EX.W_Q.shape[1]}" in text and EX.X.shape[0] == 2


def test_numbers_in_chapter_1_notes():
    text = notes("01_projection")
    Q = projection(EX.X, EX.W_Q)
    shape = lambda M: " × ".join(map(str, M.shape))  # noqa: E731
    assert f"X is {shape(EX.X)}, W_Q is {shape(EX.W_Q)}, Q is {shape(Q)}" in text
    # the note once said "thousands of different tokens" would pin W_K down: d_model independent rows do
    assert f"two rows of X cannot pin down a {shape(EX.W_K)} matrix" in text and "thousands" not in text
    assert np.linalg.matrix_rank(EX.X) == EX.X.shape[0] < EX.X.shape[1]  # two tokens, rank 2 < d_model = 4
    X_full = np.eye(EX.X.shape[1])  # d_model independent tokens: K = X W_K gives back W_K itself
    np.testing.assert_array_equal(np.linalg.solve(X_full, X_full @ EX.W_K), EX.W_K)


def test_numbers_in_chapter_2_notes():
    text = notes("02_scores")
    a = np.array([1, 0])
    assert f"{a @ [1, 0]}, {a @ [0, 1]}, −{-(a @ [-1, 0])}: aligned, unrelated, opposed" in text
    K = projection(EX.X, EX.W_K)
    assert f"Kᵀ is {K.T.shape[0]} × {K.T.shape[1]}" in text


def test_intro_counts_seven_stage_chapters():
    import yaml

    toc = yaml.safe_load((BOOK.parent / "_toc.yml").read_text(encoding="utf-8"))
    stages = next(part for part in toc["parts"] if part["caption"] == "The seven stages")
    assert len(stages["chapters"]) == 7
    nb = json.loads((BOOK / "intro.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    assert "seven short chapters" in text and "seven stages" in text
    assert len(re.findall(r"^\d\. \{doc\}`0[1-7]_", text, flags=re.M)) == 7  # "One chapter per stage"


def test_exercise_1_3_names_one_heads_matrices_with_r():
    # Issue 9 item 8: a bare W_Q is the whole layer; one head of a multi-head model has W_Q^(r).
    nb = json.loads((BOOK / "01_projection.ipynb").read_text(encoding="utf-8"))
    text = next("".join(c["source"]) for c in nb["cells"] if "**Exercise 1.3.**" in "".join(c["source"]))
    assert "$W_Q^{(r)}$" in text and "$W_V^{(r)}$" in text and "$W_Q$, $W_K$" not in text
