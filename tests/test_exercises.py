"""Every registered exercise, whatever its chapter: the core's answer passes, an
unanswered cell says so, a wrong entry is named with by how much and the hint,
and a wrong shape is reported; then, chapter by chapter, each exercise's right answer
worked out independently of the core and the common mistakes its checker must name.
(Claims an exercise's solution text makes are tested with its chapter, tests/pages/.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps import projection, scale, scores, softmax
from attention_steps.examples import i_love
from attention_steps.exercises import ch08, check, registry, solution
from attention_steps.exercises.ch01 import YOU
from attention_steps.exercises.ch11 import EX_SCORES
from attention_steps.sentence import sentence_trace

EXERCISES = sorted(registry(), key=lambda i: [int(part) for part in i.split(".")])


def test_every_stage_chapter_has_at_least_two_exercises():
    per_chapter = {}
    for exercise_id in EXERCISES:
        per_chapter.setdefault(exercise_id.split(".")[0], []).append(exercise_id)
    assert {str(c) for c in range(1, 12)} <= per_chapter.keys()
    assert all(len(ids) >= 2 for ids in per_chapter.values()), per_chapter


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_cores_answer_passes(exercise_id):
    feedback = check(exercise_id, solution(exercise_id))
    assert feedback.ok and str(feedback).startswith("Correct"), str(feedback)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_unanswered_says_so(exercise_id):
    feedback = check(exercise_id, ...)
    assert not feedback.ok and "Not answered yet" in str(feedback)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_a_wrong_entry_is_named_with_the_difference_and_the_hint(exercise_id):
    exercise = registry()[exercise_id]
    wrong = np.array(solution(exercise_id), dtype=float)
    index = tuple(size - 1 for size in wrong.shape)  # the last entry
    delta = 1.0 + 10 * exercise.atol  # well beyond the tolerance
    wrong[index] += delta
    feedback = check(exercise_id, wrong)
    assert not feedback.ok
    where = f"{exercise.name}[{', '.join(map(str, index))}]" if index else exercise.name
    assert where in str(feedback), str(feedback)
    if index:  # the code index is said to be one: the maths' count from 1 follows it
        maths = ", ".join(str(i + 1) for i in index)
        assert f"in code (entry {'(' + maths + ')' if len(index) > 1 else maths} counting from 1) is" in str(
            feedback
        ), str(feedback)
    assert f"off by {delta:+.3g}" in str(feedback), str(feedback)
    assert "Hint:" in str(feedback)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_a_wrong_shape_is_reported(exercise_id):
    wrong = np.zeros(np.shape(solution(exercise_id)) + (2,))
    feedback = check(exercise_id, wrong)
    assert not feedback.ok and "shape" in str(feedback) and str(wrong.shape) in str(feedback)


def test_an_unknown_exercise_lists_the_known_ones():
    with pytest.raises(KeyError, match="known exercises: 1.1"):
        check("99.9", 0)


# ------------------------------------------------------------------ chapters 1–2
EX = i_love()
ARTICLE_Q = np.array([[2, 0, 1], [0, 2, 1]])  # as printed in the source article (shared/seeds/001)
ARTICLE_K = np.array([[1, 1, 0], [0, 1, 1]])
ARTICLE_V = np.array([[1, 0, 1], [0, 1, 0]])

# Right answers worked out independently of the core: plain NumPy on the article's printed
# matrices, and the original Transformer's published sizes (d_model 512, d_k 64).
RIGHT = {
    "1.1": ARTICLE_V.tolist(),  # a reader types nested lists
    "1.2": (YOU @ EX.W_Q).tolist(),
    "1.3": 3 * 512 * 64,
    "2.1": (YOU @ EX.W_Q @ ARTICLE_K.T).tolist(),
    "2.2": (ARTICLE_Q @ ARTICLE_Q.T).tolist(),
    "2.3": (np.vstack([EX.X, YOU]) @ EX.W_Q @ (np.vstack([EX.X, YOU]) @ EX.W_K).T).tolist(),
}
NAMES = {"1.1": "V", "1.2": "q_you", "1.3": "the number of weights", "2.1": "scores_you", "2.2": "QQᵀ", "2.3": "QKᵀ"}


@pytest.mark.parametrize("exercise", RIGHT)
def test_ch01_02_a_right_answer_passes(exercise):
    feedback = check(exercise, RIGHT[exercise])
    assert feedback.ok, str(feedback)
    assert str(feedback).startswith("Correct")


@pytest.mark.parametrize("exercise", RIGHT)
def test_ch01_02_the_expected_answer_is_the_independent_one(exercise):
    np.testing.assert_allclose(solution(exercise), RIGHT[exercise])


@settings(max_examples=30, deadline=None)
@given(exercise=st.sampled_from(sorted(RIGHT)), data=st.data())
def test_ch01_02_a_wrong_entry_is_named(exercise, data):
    answer = np.array(RIGHT[exercise], dtype=float)
    index = tuple(data.draw(st.integers(0, size - 1)) for size in answer.shape)
    delta = data.draw(st.sampled_from([-3.0, -1.0, 1.5, 2.0]))  # beyond every tolerance
    answer[index] += delta
    feedback = check(exercise, answer)
    assert not feedback.ok
    if index:  # a code index (from 0), said to be one, then the same entry counted from 1
        maths = ", ".join(str(i + 1) for i in index)
        counted = "(" + maths + ")" if len(index) > 1 else maths
        where = f"{NAMES[exercise]}[{', '.join(map(str, index))}] in code (entry {counted} counting from 1)"
    else:
        where = NAMES[exercise]
    assert f"{where} is" in str(feedback), str(feedback)
    assert f"off by {delta:+.3g}" in str(feedback)
    assert "Hint:" in str(feedback)


@pytest.mark.parametrize("exercise", RIGHT)
def test_ch01_02_unanswered_and_wrong_shape(exercise):
    assert "Not answered yet" in str(check(exercise, ...))
    wrong_shape = np.zeros(np.shape(RIGHT[exercise]) + (2,))
    feedback = check(exercise, wrong_shape)
    assert not feedback.ok and "shape" in str(feedback)


# ------------------------------------------------------------------ chapters 3–4
def _article_S_A():
    Q, K = projection(EX.X, EX.W_Q), projection(EX.X, EX.W_K)
    S = scale(scores(Q, K), Q.shape[-1])
    return S, softmax(S)


S, A = _article_S_A()


def test_ch03_04_expected_answers_are_the_source_articles_numbers():
    np.testing.assert_allclose(solution("3.1"), [[1.15, 0.58], [1.15, 1.73]], atol=0.005)  # the article's S
    np.testing.assert_allclose(solution("4.1"), [0.36, 0.64], atol=0.005)  # the article's second row of A
    assert solution("3.2") == pytest.approx(64 * 4 * 4)
    assert solution("3.3") == pytest.approx(1 / 8)
    np.testing.assert_allclose(solution("4.2"), np.exp([0, -1, -2]) / np.exp([0, -1, -2]).sum())
    a = A[0]
    np.testing.assert_allclose(solution("4.3"), [[a[0] * a[1], -a[0] * a[1]], [-a[0] * a[1], a[0] * a[1]]])


@pytest.mark.parametrize("ex", ["3.1", "3.2", "3.3", "4.1", "4.2", "4.3"])
def test_ch03_04_right_answer_passes_and_unanswered_says_so(ex):
    assert check(ex, solution(ex)).ok
    assert check(ex, np.round(np.asarray(solution(ex), dtype=float), 4)).ok  # typed to 4 decimals
    feedback = check(ex, ...)
    assert not feedback.ok and "Not answered" in str(feedback)


@pytest.mark.parametrize(
    "ex,wrong,names",
    [
        ("3.1", [[1.15, 0.58], [1.15, 3.0]], ["S[1, 1]", "3", "1.732"]),  # forgot to scale one entry
        ("3.1", [[2, 1], [2, 3]], ["4 of 4", "S[0, 0]", "Hint"]),  # did not scale at all
        ("3.2", 64, ["Var[q·k]", "1024"]),  # used the standard result
        ("3.2", 64 * 2 * 2, ["Var[q·k]", "1024"]),  # multiplied by σ instead of σ²
        ("3.3", 1 / 64, ["standard deviation", "0.125"]),  # the variance 64 / 64², not its root
        ("3.3", 1 / np.sqrt(8), ["standard deviation", "0.125"]),
        ("4.1", [0.64, 0.36], ["second row of A[0]", "0.3595", "second row of A[1]"]),  # row 1 instead of row 2
        ("4.2", [1.0, 0.0, 0.0], ["softmax([1000, 999, 998])[0]", "0.6652", "[0.0, -1.0, -2.0]"]),
        ("4.3", np.diag(A[0]), ["J[0, 0]", "J[0, 1]"]),  # forgot − aaᵀ
    ],
)
def test_ch03_04_wrong_answer_names_the_entry(ex, wrong, names):
    feedback = check(ex, wrong)
    assert not feedback.ok
    for name in names:
        assert name in str(feedback), (name, str(feedback))


def test_ch04_wrong_shape_is_reported():
    feedback = check("4.3", [0.23, -0.23])
    assert not feedback.ok and "shape (2,)" in str(feedback) and "(2, 2)" in str(feedback)


# ------------------------------------------------------------------ chapter 5
def test_ch05_solution_is_the_articles_output():
    np.testing.assert_array_equal(np.round(solution("5.1"), 2), [[0.64, 0.36, 0.64], [0.36, 0.64, 0.36]])


# ------------------------------------------------------------------ chapter 8
def test_ch08_wrong_z_it_names_the_entry():
    tokens, t = sentence_trace()
    head = t.head(0)
    right = head.A[tokens.index("it")] @ head.V
    wrong = right.copy()
    wrong[1] += 0.3  # the "animate" entry
    feedback = check("8.1", wrong)
    assert not feedback.ok
    assert "z_it[1]" in str(feedback) and "+0.3" in str(feedback)
    assert "z_it[0]" not in str(feedback)


def test_ch08_z_it_from_the_wrong_row_fails():
    tokens, t = sentence_trace()
    head = t.head(0)
    assert not check("8.1", head.A[tokens.index("animal")] @ head.V).ok


def test_ch08_memory_in_bytes_instead_of_mib_is_caught():
    in_bytes = ch08.MEMORY_N**2 * 4
    feedback = check("8.2", in_bytes)
    assert not feedback.ok and "the memory in MiB" in str(feedback)
    assert check("8.2", ch08.MEMORY_N**2 * 4 / 2**20).ok
    assert not check("8.2", ch08.MEMORY_N**2 * 2 / 2**20).ok  # FP16 instead of FP32


def test_ch08_scores_count_is_n_squared_d():
    n, d = ch08.SCORES_N, ch08.SCORES_D
    assert check("8.3", n * n * d).ok
    assert not check("8.3", n * d * d).ok  # the projections' count, not the scores'


# ------------------------------------------------------------------ chapters 9–11
def test_ch09_1_forgetting_the_mask_is_caught_on_the_upper_triangle():
    from attention_steps.exercises.ch09 import EX1_S

    feedback = check("9.1", softmax(EX1_S))  # the plain softmax, no mask
    assert not feedback.ok
    assert "A[0, 1]" in str(feedback) and "expected 0" in str(feedback)


def test_ch09_2_first_row_is_the_first_value():
    Z = solution("9.2")
    np.testing.assert_array_equal(Z[0], [1.0, 0.0, 1.0])  # v for "I" in the source article's example
    np.testing.assert_allclose(np.round(Z[1], 2), [0.36, 0.64, 0.36])  # "love", as without the mask


def test_ch10_1_transposed_shape_is_caught():
    feedback = check("10.1", (8, 12, 7))
    assert not feedback.ok and "the shape of A[1]" in str(feedback)


def test_ch11_1_forgetting_to_rescale_is_caught():
    # Adding the new block's terms without shrinking the old ℓ by exp(2 − 4).
    m = EX_SCORES.max()
    no_rescale = np.exp(EX_SCORES[:2] - EX_SCORES[:2].max()).sum() + np.exp(EX_SCORES[2:] - m).sum()
    feedback = check("11.1", [m, no_rescale])
    assert not feedback.ok and "[m, ℓ] after both blocks[1]" in str(feedback)
