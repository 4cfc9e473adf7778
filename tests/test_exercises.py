"""Every registered exercise, whatever its chapter ("exercises that teach"):

- the core's answer passes; an unanswered cell says so;
- every listed common mistake is named when a learner makes it, and the issue's list of typical
  mistakes (÷ d_k, ÷ √d_model, no scaling, a transposed matrix, a 1-based head index, masking after
  softmax, forgetting W^O, MB for MiB, softmax over the wrong axis) is covered somewhere;
- no wrong answer's feedback contains the expected value, in any of its usual renderings, and the
  feedback's text does not depend on the expected value beyond a direction (too big, too small);
- a learner's changed example is noticed and used;
- strings, booleans, ragged lists, a float id, an unknown id or keyword get a message that helps;
- in Chinese (i18n) every line is Chinese and still never shows the expected value: the
  tests that look for the answer in the feedback run in both languages.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_steps import causal_mask, i18n, softmax, softmax_naive
from attention_steps.examples import YOU, i_love
from attention_steps.exercises import ch08, check, checking, registry, solution
from attention_steps.exercises.ch11 import EX_SCORES
from attention_steps.exercises.checking import Exercise, check_answer
from attention_steps.i18n import _, language
from attention_steps.sentence import sentence_trace

EXERCISES = sorted(registry(), key=lambda i: [int(part) for part in i.split(".")])
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")
LANGUAGES = ("en", "zh_CN")
# the direction of a wrong number, in each language
TOO_BIG = {"en": "too big", "zh_CN": "太大"}
TOO_SMALL = {"en": "too small", "zh_CN": "太小"}
WRONG_SIGN = {"en": "wrong sign", "zh_CN": "符号反了"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def renderings(value: float) -> set[str]:
    """The ways a notebook or a message could print `value`."""
    v = float(value)
    out = {repr(v), str(v), f"{v:g}", f"{v:,.0f}", f"{v:,}"}
    out |= (
        {f"{v:.{k}f}" for k in range(1, 5)} | {f"{v:.{k}g}" for k in range(2, 5)} | {f"{v:.{k}e}" for k in range(1, 4)}
    )
    if v == round(v):
        out |= {str(round(v)), f"{round(v):,}"}
    return {r.lstrip("-") for r in out}


def expected_renderings(exercise_id: str) -> set[str]:
    return set().union(*(renderings(v) for v in np.ravel(np.asarray(solution(exercise_id), dtype=float))))


def allowed_tokens(exercise: Exercise, answer) -> set[str]:
    """Numbers a feedback may print whatever the expected value: the learner's own entries, indices and
    counts, the tolerance, and the exercise's fixed text (its hint and the names of its mistakes)."""
    arr = np.asarray(answer, dtype=float)
    allowed = set().union(*(renderings(v) for v in np.ravel(arr))) if arr.size else set()
    allowed |= {f"{v:.4g}".lstrip("-") for v in np.ravel(arr)} | {f"{v:,.0f}".lstrip("-") for v in np.ravel(arr)}
    allowed |= {str(i) for i in range(max([arr.size, *arr.shape, 0]) + 2)}
    allowed |= {f"{exercise.atol:g}"}
    texts = [exercise.hint, exercise.name, *(t for m in exercise.mistakes for t in (m.what, m.hint) if t)]
    fixed = " ".join(texts + [_(t) for t in texts if t])  # in the current language too
    allowed |= {t.lstrip("-") for t in NUMBER.findall(fixed)}
    return allowed


def leaked(exercise_id: str, answer) -> set[str]:
    exercise = registry()[exercise_id]
    feedback = check(exercise_id, answer)
    assert not feedback.ok, f"{exercise_id}: a wrong answer passed: {answer!r}"
    text = str(feedback) + " " + re.sub(r"<[^>]+>", " ", feedback._repr_html_())  # the HTML's text, not its style
    tokens = {t.lstrip("-") for t in NUMBER.findall(text)}
    return (tokens & expected_renderings(exercise_id)) - allowed_tokens(exercise, answer)


def wrong_answers(exercise_id: str) -> list[np.ndarray]:
    """Typical wrong answers: each listed mistake, one entry off, every sign flipped, zeros, a wrong shape."""
    exercise = registry()[exercise_id]
    want = np.asarray(solution(exercise_id), dtype=float)
    answers = [np.asarray(m.answer(**exercise.book_inputs()), dtype=float) for m in exercise.mistakes]
    one_off = want.copy()
    one_off[tuple(s - 1 for s in want.shape)] += 1 + 10 * exercise.atol
    answers += [one_off, want * 0 + 7 * (1 + exercise.atol), np.zeros(want.shape + (2,))]
    if np.any(np.abs(want) > exercise.atol):
        answers.append(-want)
    if want.ndim == 2:
        answers.append(want.T.copy())
    return [a for a in answers if not check(exercise_id, a).ok]


@pytest.fixture(autouse=True)
def _fresh_kernel():
    """Each test starts as a fresh kernel does: no exercise has had a wrong try (the hint waits for a second)."""
    checking.reset_tries()
    yield
    checking.reset_tries()


def test_every_chapter_has_at_least_two_exercises():
    per_chapter = {}
    for exercise_id in EXERCISES:
        per_chapter.setdefault(exercise_id.split(".")[0], []).append(exercise_id)
    assert {str(c) for c in range(1, 14)} <= per_chapter.keys()
    assert all(len(ids) >= 2 for ids in per_chapter.values()), per_chapter


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_cores_answer_passes(exercise_id):
    feedback = check(exercise_id, solution(exercise_id))
    assert feedback.ok and str(feedback).startswith("Correct"), str(feedback)
    listed = np.asarray(solution(exercise_id)).tolist()  # a plain nested list, as a learner types it
    assert check(exercise_id, listed).ok


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_unanswered_says_so(exercise_id):
    for answer in (..., None):
        feedback = check(exercise_id, answer)
        assert not feedback.ok and "Not answered yet" in str(feedback)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_listed_mistake_is_named(exercise_id):
    exercise = registry()[exercise_id]
    assert exercise.mistakes, f"exercise {exercise_id} names no common mistake"
    for mistake in exercise.mistakes:
        wrong = mistake.answer(**exercise.book_inputs())
        checking.reset_tries()
        feedback = check(exercise_id, wrong)
        assert not feedback.ok, f"{exercise_id}: the mistake {mistake.what!r} gives the right answer"
        assert f"answer you get when you {mistake.what}" in str(feedback), str(feedback)
        assert "Hint:" not in str(feedback) and "a hint will follow" in str(feedback)  # the first try: the mistake
        again = check(exercise_id, wrong)
        assert f"answer you get when you {mistake.what}" in str(again) and "Hint:" in str(again)  # then the recipe


# The issue's list of typical mistakes, each named by at least one exercise (exercise, words in the name).
TYPICAL = [
    ("3.1", "divide by d_k instead of √d_k"),
    ("3.1", "√d_model"),
    ("6.4", "√d_model"),
    ("3.1", "forget the scaling"),
    ("4.1", "without dividing by √d_k"),
    ("2.3", "K Qᵀ"),
    ("7.3", "head 3 (index 2)"),
    ("9.1", "mask after the softmax"),
    ("7.3", "forget W^O"),
    ("7.1", "forget W^O"),
    ("8.2", "(MB) instead of"),
    ("6.4", "softmax down a column"),
    ("9.1", "softmax down each column"),
    ("10.2", "softmax down a column"),
    ("10.2", "the row that reads 猫"),
    ("11.4", "query heads"),
    ("12.1", "a transposed gradient"),
    ("12.3", "a transposed gradient"),
    ("12.3", "forget the 1/√d_k"),
    ("12.2", "forget the −aaᵀ term"),
    ("12.3", "forget the −aaᵀ term"),
    ("12.2", "sum over the wrong axis"),
    ("12.1", "sum over the wrong axis"),
    ("13.1", "not the largest weight"),
    ("13.1", "compare the referent with the other noun only"),
    ("13.1", "not as a percentage"),
    ("13.2", "leave out the bias correction"),
    ("13.2", "plain gradient step"),
]


@pytest.mark.parametrize(("exercise_id", "words"), TYPICAL)
def test_the_issues_typical_mistakes_are_named(exercise_id, words):
    exercise = registry()[exercise_id]
    matching = [m for m in exercise.mistakes if words in m.what]
    assert matching, [m.what for m in exercise.mistakes]
    feedback = str(check(exercise_id, matching[0].answer(**exercise.book_inputs())))
    assert words in feedback, feedback


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_no_wrong_answer_shows_the_expected_value(exercise_id, lang):
    with language(lang):
        for answer in wrong_answers(exercise_id):
            assert not leaked(exercise_id, answer), (exercise_id, answer, str(check(exercise_id, answer)))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_feedback_does_not_depend_on_the_expected_value(exercise_id, lang):
    """Shift the expected answer a little (less than the tolerance, so every verdict and direction stays):
    a feedback that printed anything computed from it would change."""
    exercise = registry()[exercise_id]
    want = np.asarray(solution(exercise_id), dtype=float)
    factor = 1 + exercise.atol / (4 * max(float(np.abs(want).max()), 1.0))
    shifted = dataclasses.replace(
        exercise, expected=lambda **kw: np.asarray(exercise.expected(**kw), dtype=float) * factor
    )
    with language(lang):
        for answer in wrong_answers(exercise_id):
            assert str(exercise.check(answer)) == str(shifted.check(answer)), (exercise_id, answer)


@settings(max_examples=60)
@given(exercise_id=st.sampled_from(EXERCISES), lang=st.sampled_from(LANGUAGES), data=st.data())
def test_any_wrong_answer_gets_a_direction_and_no_expected_value(exercise_id, lang, data):
    with language(lang):
        _a_wrong_answer_gets_a_direction_and_no_expected_value(exercise_id, lang, data)


def _a_wrong_answer_gets_a_direction_and_no_expected_value(exercise_id, lang, data):
    exercise = registry()[exercise_id]
    want = np.asarray(solution(exercise_id), dtype=float)
    scale = max(float(np.abs(want).max()), 1.0)
    noise = data.draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=want.size, max_size=want.size))
    got = want + np.reshape(noise, want.shape) * scale
    if exercise.whole:  # a count: a fraction is refused before any comparison (test_a_count_with_a_fraction_…)
        got = np.round(got)
    off = ~np.isclose(got, want, rtol=1e-9, atol=exercise.atol)
    feedback = check(exercise_id, got)
    if not off.any():
        assert feedback.ok
        return
    assert not feedback.ok
    assert not leaked(exercise_id, got), str(feedback)
    named = any(_(m.what) in str(feedback) for m in exercise.mistakes)
    if not named and want.ndim == 0:
        word = TOO_BIG[lang] if got > want else TOO_SMALL[lang]
        assert word in str(feedback) or WRONG_SIGN[lang] in str(feedback), str(feedback)


def test_a_wrong_entry_is_named_by_its_code_index_and_its_count_from_1():
    wrong = np.array(solution("1.1"), dtype=float)
    wrong[1, 2] += 2
    feedback = str(check("1.1", wrong))
    assert "V[1, 2] in code (entry (2, 3) counting from 1)" in feedback and "too big" in feedback, feedback
    wrong[1, 2] -= 4
    assert "too small" in str(check("1.1", wrong))


def test_a_wrong_sign_is_said():
    want = float(solution("11.2"))
    assert "wrong sign" in str(check("11.2", -want - 1))


def test_the_intro_example_names_the_wrong_entry_without_the_answer():
    feedback = str(check("1.1", [[1, 0, 1], [0, 1, 1]]))  # the intro's example: one entry wrong
    assert "V[1, 2]" in feedback and "too big" in feedback and "expected" not in feedback


# ---- the learner's own example


def test_a_changed_example_is_noticed_and_used():
    ex = i_love()
    mine = dataclasses.replace(ex, W_V=ex.W_V * 2)
    book_answer = solution("1.1")
    feedback = check("1.1", book_answer, ex=mine)
    assert not feedback.ok and "differs from the book's example" in str(feedback), str(feedback)
    feedback = check("1.1", mine.X @ mine.W_V, ex=mine)
    assert feedback.ok and "checked against your ex" in str(feedback), str(feedback)
    assert check("1.1", book_answer, ex=i_love()).ok  # the book's own example: no note
    assert "differs" not in str(check("1.1", book_answer, ex=i_love()))


@pytest.mark.parametrize("exercise_id", [i for i in EXERCISES if registry()[i].inputs])
def test_the_book_example_passed_explicitly_changes_nothing(exercise_id):
    exercise = registry()[exercise_id]
    feedback = check(exercise_id, solution(exercise_id), **exercise.book_inputs())
    assert feedback.ok and "differs" not in str(feedback)


def test_a_changed_layer_is_used_for_the_head_exercises():
    from attention_steps.heads import small_layer

    mine = small_layer(seed=4)
    assert check("6.4", solution("6.4", layer=mine), layer=mine).ok
    assert not check("6.4", solution("6.4"), layer=mine).ok
    assert check("7.3", solution("7.3", layer=mine), layer=mine).ok


def test_a_changed_translation_is_used():
    from attention_steps.examples import translation

    t = translation()
    mine = dataclasses.replace(t, W_K=t.W_K * 0.5)
    assert check("10.2", solution("10.2", t=mine), t=mine).ok
    assert "differs from the book's example" in str(check("10.2", solution("10.2"), t=mine))


def test_an_unusable_example_is_explained():
    ex = i_love()
    mine = dataclasses.replace(ex, W_V=np.ones((3, 3)))  # X is 2 × 4: X W_V cannot be computed
    feedback = check("1.1", [[0, 0, 0], [0, 0, 0]], ex=mine)
    assert not feedback.ok and "cannot be used for exercise 1.1" in str(feedback), str(feedback)


# ---- bad input


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (True, "the boolean True"),
        ([[1, 0, 1], [0, 1]], "ragged list"),
        ([[1, 0, "1"], [0, 1, 0]], "the string '1' at [0][2]"),
        ([[1, 0, True], [0, 1, 0]], "the boolean True at [0][2]"),
        ({"a": 1}, "is a dict"),
        (1 + 2j, "complex"),
        ([[1, 0, ...], [0, 1, 0]], "still has ... at [0][2]"),
    ],
)
def test_bad_answers_get_a_message_that_names_them(answer, words):
    feedback = check("1.1", answer)
    assert not feedback.ok and str(feedback).startswith("Not a number: your answer (V)") and words in str(feedback), (
        str(feedback)
    )


def test_a_wrong_shape_names_both_shapes_in_words():
    feedback = str(check("1.1", np.zeros((3, 2))))
    assert "should be a 2 × 3 matrix" in feedback and "yours is a 3 × 2 matrix" in feedback, feedback
    assert "one number" in str(check("1.1", 5.0))


def test_a_transposed_matrix_of_another_shape_is_named():
    feedback = str(check("1.1", np.asarray(solution("1.1")).T))
    assert "transpose" in feedback, feedback


def test_nan_is_named():
    feedback = str(check("4.2", [np.nan, np.nan, np.nan]))
    assert "NaN" in feedback and "maximum" in feedback


def test_an_exercise_id_given_as_a_number_says_to_quote_it():
    with pytest.raises(
        TypeError, match=r'exercise_id must be a string in quotes, like check\("3.1", \.\.\.\); got the number 3.1'
    ):
        check(3.1, [1, 2])
    with pytest.raises(TypeError, match="exercise_id must be a string"):
        check(True, 1)


def test_an_unknown_exercise_lists_the_known_ones():
    with pytest.raises(KeyError, match="known exercises: 1.1, 1.2"):
        check("99.9", 0)


def test_an_unknown_exercise_in_a_known_chapter_lists_the_known_ones():
    with pytest.raises(KeyError, match="exercise_id '9.9' is not an exercise; known exercises: 1.1, .*, 9.3, "):
        check("9.9", 0)


def _run(program: str) -> str:
    """`program`'s output in a fresh Python (nothing imported yet), from the book's folder."""
    import subprocess
    import sys

    from conftest import BOOK

    done = subprocess.run([sys.executable, "-c", program], cwd=BOOK, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


LOADED = "import re, sys; print(sorted(m for m in sys.modules if re.fullmatch(r'attention_steps[.]exercises[.]ch[0-9]+', m)))"


@pytest.mark.parametrize("call", ['check("9.1", 0)', 'solution("9.2")', 'check(" 11.3 ", 1)'])
def test_an_exercise_loads_its_own_chapters_module_only(call):
    """check and solution import the module the exercise id names, and no other chapter's: a notebook
    runs (and scripts/notebook_deps.py makes it depend on) its own chapter's exercises."""
    module = "ch11" if "11." in call else "ch09"
    program = f"from attention_steps.exercises import check, solution\n{LOADED}\n{call}\n{LOADED}"
    before, after = _run(program).splitlines()
    assert (before, after) == ("[]", str([f"attention_steps.exercises.{module}"]))


def test_every_exercise_is_registered_by_the_module_its_id_names():
    """Each chapter's module, imported alone, registers exactly the exercises whose id names it (and
    imports no other chapter's module): module_of is where check looks for an exercise."""
    program = (
        "import importlib, pkgutil, re, sys\n"
        "from attention_steps import exercises\n"
        "from attention_steps.exercises import checking, module_of\n"
        "def chapters(): return {m for m in sys.modules if re.fullmatch('attention_steps[.]exercises[.]ch[0-9]+', m)}\n"
        "for m in sorted(m.name for m in pkgutil.iter_modules(exercises.__path__) if re.fullmatch('ch[0-9]+', m.name)):\n"
        "    name = f'attention_steps.exercises.{m}'\n"
        "    before, loaded = set(checking.registry()), chapters()\n"
        "    importlib.import_module(name)\n"
        "    new = sorted(set(checking.registry()) - before)\n"
        "    print(name, [module_of(i) for i in new] == [name] * len(new) and len(new) > 0, sorted(chapters() - loaded - {name}))\n"
    )
    lines = _run(program).splitlines()
    assert len(lines) == 13
    assert all(line.endswith(" True []") for line in lines), lines


def test_an_unknown_keyword_names_the_accepted_ones():
    with pytest.raises(TypeError, match="got the keyword argument.* X; the example arguments it accepts: ex="):
        check("1.1", [[0]], X=np.eye(2))
    with pytest.raises(TypeError, match="fixed example"):
        check("1.3", 1, ex=i_love())


# ---- claims the exercise cells make


def test_the_naive_softmax_gives_nan_on_exercise_4_2s_scores():
    from attention_steps.exercises.ch04 import SMALL_SCORES

    with np.errstate(all="ignore"):
        assert np.isnan(softmax_naive(np.array(SMALL_SCORES))).all()


def test_the_new_query_looks_mostly_at_i():
    a = solution("4.1")
    assert a[0] > a[1]


def test_animal_gives_most_of_z_it():
    from attention_steps.exercises.ch08 import I_IT
    from attention_steps.sentence import sentence_trace

    z = sentence_trace()[1].head(0).Z[I_IT]
    assert np.linalg.norm(solution("8.1")) > 0.5 * np.linalg.norm(z)


def test_reversing_the_source_reverses_the_weights_and_keeps_z():
    from attention_steps.examples import translation
    from attention_steps.multihead import trace_attention

    t = translation()
    head = trace_attention(t.X_tgt, t.W_Q, t.W_K, t.W_V, X_kv=t.X_src).head(0)
    i = t.position_predicting("猫")
    assert np.allclose(solution("10.2"), head.A[i][::-1])
    assert np.allclose(solution("10.3"), head.Z[i])


def test_5_3s_weight_is_not_one_half():
    """With the target 0.5 the weight on "I" equals the weight on "love", and the mistake cannot be named."""
    assert abs(solution("5.3") - 0.5) > 0.1


def test_the_typed_facts_of_the_new_exercise_cells():
    from attention_steps.examples import X_NEW
    from attention_steps.exercises.ch06 import FEWER_HEADS, QUERY
    from attention_steps.heads import small_layer

    ex = i_love()
    # 3.1: "the 3 in x_new takes row 3 of W_Q three times and the 1 adds row 4", "√d_k = √3"
    assert X_NEW.tolist() == [0, 0, 3, 1] and ex.W_Q.shape[1] == 3
    # 4.3: "each row sums to 0"
    np.testing.assert_allclose(np.asarray(solution("4.3")).sum(axis=1), 0, atol=1e-12)
    # 5.1: "its columns 1 and 3 carry the weight on I, column 2 the weight on love"
    a, z = solution("4.1"), solution("5.1")
    np.testing.assert_allclose(z, [a[0], a[1], a[0]])
    # 6.4: "the last query is row index 5 (or -1)", "2 heads instead of four"
    layer = small_layer()
    assert QUERY == len(layer.tokens) - 1 == 5 and FEWER_HEADS == 2 and layer.num_heads == 4


# ====================================================== chapter by chapter
# (each exercise's right answer worked out independently of the core, and the mistakes its checker must name)
# ------------------------------------------------------------------ chapters 1–2
EX = i_love()
ARTICLE_Q = np.array([[2, 0, 1], [0, 2, 1]])  # as the second source article prints it
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
    if registry()[exercise].whole:  # a count (1.3): a whole number off, not a fraction (refused as such)
        delta = float(np.ceil(delta))
    answer[index] += delta
    checking.reset_tries()
    check(exercise, answer)  # the first wrong try: the hint follows with the second
    feedback = check(exercise, answer)
    assert not feedback.ok
    if index:  # a code index (from 0), said to be one, then the same entry counted from 1
        maths = ", ".join(str(i + 1) for i in index)
        counted = "(" + maths + ")" if len(index) > 1 else maths
        where = f"{NAMES[exercise]}[{', '.join(map(str, index))}] in code (entry {counted} counting from 1)"
    else:
        where = NAMES[exercise]
    if "the answer you get when you" in str(feedback):  # a wrong entry that is also a common mistake: named
        return
    direction = "too big" if delta > 0 else "too small"  # never the expected value
    assert f"{where} is" in str(feedback), str(feedback)
    assert direction in str(feedback) or "wrong sign" in str(feedback), str(feedback)
    assert "Hint:" in str(feedback)


@pytest.mark.parametrize("exercise", RIGHT)
def test_ch01_02_unanswered_and_wrong_shape(exercise):
    assert "Not answered yet" in str(check(exercise, ...))
    wrong_shape = np.zeros(np.shape(RIGHT[exercise]) + (2,))
    feedback = check(exercise, wrong_shape)
    assert not feedback.ok and "should be" in str(feedback)


# ------------------------------------------------------------------ chapters 3–4
def test_ch03_04_expected_answers_are_computed_independently():
    from attention_steps.examples import X_NEW
    from attention_steps.exercises.ch04 import JACOBIAN_A, SMALL_SCORES

    ex = i_love()
    s_new = (X_NEW @ ex.W_Q) @ (ex.X @ ex.W_K).T / np.sqrt(3)
    np.testing.assert_allclose(solution("3.1"), s_new)
    np.testing.assert_allclose(solution("4.1"), np.exp(s_new) / np.exp(s_new).sum())
    assert solution("3.2") == pytest.approx(64 * 4 * 4)
    assert solution("3.3") == pytest.approx(1 / 8)
    shifted = np.array(SMALL_SCORES) - max(SMALL_SCORES)
    np.testing.assert_allclose(solution("4.2"), np.exp(shifted) / np.exp(shifted).sum())
    a = np.array(JACOBIAN_A)
    np.testing.assert_allclose(solution("4.3"), np.diag(a) - np.outer(a, a))


@pytest.mark.parametrize("ex", ["3.1", "3.2", "3.3", "4.1", "4.2", "4.3"])
def test_ch03_04_right_answer_passes_and_unanswered_says_so(ex):
    assert check(ex, solution(ex)).ok
    assert check(ex, np.round(np.asarray(solution(ex), dtype=float), 4)).ok  # typed to 4 decimals
    feedback = check(ex, ...)
    assert not feedback.ok and "Not answered" in str(feedback)


@pytest.mark.parametrize(
    "ex,wrong,names,hidden",
    [
        ("3.1", [2.31, 3.0], ["s_new[1]", "too big"], ["1.155", "1.15"]),  # one entry wrong
        ("3.1", [4, 2], ["forget the scaling"], ["2.309", "2.31"]),  # did not scale at all
        ("3.2", 64, ["as if σ were 1"], ["1024", "1,024"]),  # used the standard result
        ("3.2", 64 * 2 * 2, ["use σ where the formula has σ²"], ["1024", "1,024"]),
        ("3.3", 1 / 64, ["variance instead of the standard deviation"], ["0.125", "0.12", "0.13"]),
        ("3.3", 1 / np.sqrt(8), ["the standard deviation of q·k / d_k is 0.3536", "too big"], ["0.125", "0.12"]),
        ("4.2", [1.0, 0.0, 0.0], ["softmax(s)[0]", "too big"], ["0.6652", "0.665"]),
        ("4.3", np.diag(np.array([0.7, 0.2, 0.1]) * [0.3, 0.8, 0.9]), ["keep only the diagonal"], ["-0.14"]),
    ],
)
def test_ch03_04_wrong_answer_names_the_entry_or_the_mistake_and_hides_the_answer(ex, wrong, names, hidden):
    feedback = check(ex, wrong)
    assert not feedback.ok
    for name in names:
        assert name in str(feedback), (name, str(feedback))
    for value in hidden:
        assert value not in str(feedback), (value, str(feedback))


def test_ch04_wrong_shape_is_reported():
    feedback = check("4.3", [0.23, -0.23])
    assert not feedback.ok and "should be a 3 × 3 matrix" in str(feedback) and "a list of 2 numbers" in str(feedback)


# ------------------------------------------------------------------ chapter 5
def test_ch05_solution_is_a_new_querys_output():
    from attention_steps import trace_attention
    from attention_steps.examples import X_NEW  # 5.1 asks for a new query's output

    ex = i_love()
    t = trace_attention(ex.X, ex.W_Q, ex.W_K, ex.W_V)
    s = (X_NEW @ ex.W_Q) @ t.K.T / np.sqrt(3)
    np.testing.assert_allclose(solution("5.1"), np.exp(s) / np.exp(s).sum() @ t.V)


# ------------------------------------------------------------------ chapter 8
def test_ch08_a_wrong_share_names_the_entry_and_hides_the_answer():
    tokens, t = sentence_trace()
    head = t.head(0)
    right = head.A[tokens.index("it"), tokens.index("animal")] * head.V[tokens.index("animal")]
    wrong = right.copy()
    wrong[1] += 0.3  # the "animate" entry
    feedback = str(check("8.1", wrong))
    assert 'entry 2 of the share of "animal" in z_it ([1] in code)' in feedback and "too big" in feedback, feedback
    assert "entry 1 of" not in feedback
    assert f"{right[1]:.3f}" not in feedback and f"{right[1]:.2f}" not in feedback


def test_ch08_the_share_from_the_transposed_weight_is_named():
    tokens, t = sentence_trace()
    head = t.head(0)
    wrong = head.A[tokens.index("animal"), tokens.index("it")] * head.V[tokens.index("animal")]
    assert "the row is the query" in str(check("8.1", wrong))


def test_ch08_memory_in_bytes_instead_of_mib_is_caught():
    in_bytes = ch08.MEMORY_N**2 * 4
    feedback = check("8.2", in_bytes)
    assert not feedback.ok and "give bytes, not MiB" in str(feedback)
    assert "(MB) instead of" in str(check("8.2", ch08.MEMORY_N**2 * 4 / 1e6))
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
    assert "forget the mask" in str(feedback) and "expected" not in str(feedback)
    assert "mask after the softmax" in str(check("9.1", np.where(causal_mask(3), softmax(EX1_S), 0)))


def test_ch09_2_first_row_is_the_first_value():
    Z = solution("9.2")
    np.testing.assert_array_equal(Z[0], [1.0, 0.0, 1.0])  # v for "I" in the source article's example
    np.testing.assert_allclose(np.round(Z[1], 2), [0.36, 0.64, 0.36])  # "love", as without the mask


def test_ch10_1_transposed_shape_is_caught():
    feedback = check("10.1", (8, 12, 7))
    assert not feedback.ok and "swap rows and columns" in str(feedback)


def test_ch11_1_forgetting_to_rescale_is_caught():
    # Adding the new block's terms without shrinking the old ℓ by exp(2 − 4).
    m = EX_SCORES.max()
    no_rescale = np.exp(EX_SCORES[:2] - EX_SCORES[:2].max()).sum() + np.exp(EX_SCORES[2:] - m).sum()
    feedback = check("11.1", [m, no_rescale])
    assert not feedback.ok and "without rescaling the old ℓ" in str(feedback)


def test_ch12_expected_answers_are_worked_out_without_the_backward():
    """The chapter's exercises against gradients written out entry by entry (not with attention_steps.backward)."""
    from attention_steps.exercises.ch12 import EX1_A, EX1_DZ, EX2_A, EX2_G, EX3_DZ

    dV = np.array([[sum(EX1_A[i, j] * EX1_DZ[i, c] for i in range(3)) for c in range(2)] for j in range(3)])
    np.testing.assert_allclose(solution("12.1"), dV)
    ga = float(EX2_G @ EX2_A)
    np.testing.assert_allclose(solution("12.2"), [a * (g - ga) for a, g in zip(EX2_A, EX2_G)])
    assert abs(float(np.sum(solution("12.2")))) < 1e-12  # softmax's gradient sums to 0
    ex = i_love()
    Q, K, V = ex.X @ ex.W_Q, ex.X @ ex.W_K, ex.X @ ex.W_V
    a = softmax(Q @ K.T / np.sqrt(3))  # "love" is row 1 (code index)
    g = EX3_DZ[1] @ V.T  # dA's row for "love": the loss reads z_love, column 2
    ds = a[1] * (g - g @ a[1])
    dq_love = (ds / np.sqrt(3)) @ K
    np.testing.assert_allclose(solution("12.3"), np.stack([np.zeros(3), dq_love]), atol=1e-12)
    assert "forget the 1/√d_k" in str(check("12.3", np.stack([np.zeros(3), ds @ K])))


def test_ch13_expected_answers_are_worked_out_without_the_core():
    """13.1 row by row (the strongest key of each of the five rows); 13.2 from Adam's first step, m̂ = g, r̂ = g²."""
    from attention_steps.exercises.ch13 import EX1_A_IT, EX1_REFERENT, EX2_G, EX2_LR, EX2_THETA

    peaks = [max(range(11), key=lambda j: row[j]) for row in EX1_A_IT.tolist()]
    assert peaks == [1, 5, 7, 5, 1] and list(EX1_REFERENT) == [1, 1, 5, 5, 5]
    assert solution("13.1") == pytest.approx(2 / 5)
    step = [EX2_LR * g / (abs(g) + 1e-8) for g in EX2_G]  # about lr against the sign of g, whatever its size
    np.testing.assert_allclose(solution("13.2"), EX2_THETA - np.array(step), atol=1e-12)
    assert not check("13.2", EX2_THETA - EX2_LR * EX2_G).ok  # a plain gradient step


# ------------------------------------------------------------------ in Chinese (i18n)
def chinese_lines(feedback) -> list[str]:
    """The feedback's lines that are not Chinese (each should be: a word of Chinese at least)."""
    return [line for line in feedback.lines if not CJK.search(line)]


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_in_chinese_every_verdict_mistake_and_hint_is_chinese(exercise_id):
    exercise = registry()[exercise_id]
    with language("zh_CN"):
        correct = check(exercise_id, solution(exercise_id))
        assert correct.ok and str(correct).startswith("正确"), str(correct)
        assert str(check(exercise_id, ...)).startswith("还没有作答")
        for mistake in exercise.mistakes:
            checking.reset_tries()
            feedback = check(exercise_id, mistake.answer(**exercise.book_inputs()))
            assert _(mistake.what) != mistake.what and _(mistake.what) in str(feedback), str(feedback)
            assert "提示：" not in str(feedback) and "会给出提示" in str(feedback), str(feedback)
            feedback = check(exercise_id, mistake.answer(**exercise.book_inputs()))
            assert f"提示：{_(exercise.hint)}" in str(feedback), str(feedback)
        for answer in wrong_answers(exercise_id):
            feedback = check(exercise_id, answer)
            assert not chinese_lines(feedback), (answer, str(feedback))
            assert "Not quite" not in str(feedback) and "Hint:" not in str(feedback), str(feedback)


def test_in_chinese_a_wrong_entry_is_named_with_its_direction():
    wrong = np.array(solution("1.1"), dtype=float)
    wrong[1, 2] += 2
    with language("zh_CN"):
        feedback = str(check("1.1", wrong))
        assert f"代码中的 V[1, 2]（从 1 数起是元素 (2, 3)）是 {wrong[1, 2]:g}：太大了。" in feedback, feedback
        wrong[1, 2] -= 4
        assert "太小了" in str(check("1.1", wrong))
        assert "符号反了" in str(check("11.2", -float(solution("11.2")) - 1))
        share = str(check("8.1", np.zeros(4) + 5))
        assert "z_it 中来自“animal”的部分的元素 1（代码中为 [0]）" in share, share


def test_in_chinese_bad_input_and_a_changed_example_are_explained():
    ex = i_love()
    with language("zh_CN"):
        assert str(check("1.3", "1024")).startswith("不是数值：你的答案（权重参数的个数）是字符串 '1024'")
        assert str(check("1.1", "1024")).startswith("不是矩阵：你的答案（V）是字符串 '1024'；V 应当是一个 2 × 3 的矩阵")
        assert "在 [0][2] 处是布尔值 True" in str(check("1.1", [[1, 0, True], [0, 1, 0]]))
        assert "参差不齐" in str(check("1.1", [[1, 0, 1], [0, 1]]))
        assert "应当是一个 2 × 3 的矩阵" in str(check("1.1", np.zeros((3, 2))))
        mine = dataclasses.replace(ex, W_V=ex.W_V * 2)
        assert "你的 ex 与书中的示例不同" in str(check("1.1", mine.X @ mine.W_V, ex=mine))
        with pytest.raises(TypeError, match="exercise_id 必须是加了引号的字符串"):
            check(3.1, [1, 2])
        with pytest.raises(KeyError, match="不是一道练习"):
            check("99.9", 0)


def test_the_language_is_read_when_the_feedback_is_made_not_at_import(monkeypatch):
    """The hints are defined at import (N_), translated when shown: set_language later still applies."""
    monkeypatch.delenv(i18n.ENV, raising=False)
    hint = registry()["6.1"].hint
    check("6.1", 1)  # a first wrong try: the hint comes with the next
    assert f"Hint: {hint}" in str(check("6.1", 1))
    monkeypatch.setattr(i18n, "_current", [])
    i18n.set_language("zh_CN")
    assert f"提示：{_(hint)}" in str(check("6.1", 1))
    i18n.set_language("en")
    assert f"Hint: {hint}" in str(check("6.1", 1))


# ------------------------------------------------------------------ what a learner's review found
def test_6_4_a_layer_rebuilt_with_2_heads_is_the_books_example():
    """6.4 asks to split the toy layer into 2 heads: small_layer(num_heads=2) has the same matrices."""
    from attention_steps.heads import small_layer

    two = small_layer(num_heads=2)
    feedback = check("6.4", solution("6.4"), layer=two)
    assert feedback.ok and "differs" not in str(feedback), str(feedback)
    four_head_scale = registry()["6.4"].mistakes[2]
    assert "four-head" in four_head_scale.what
    assert four_head_scale.what in str(check("6.4", four_head_scale.answer(layer=small_layer()), layer=two))
    other = small_layer(num_heads=2, seed=4)  # other matrices: a changed example, said so
    assert "differs from the book's example" in str(check("6.4", solution("6.4", layer=other), layer=other))


def test_7_3s_hint_gives_head_2s_rows_of_w_o_exactly():
    from attention_steps import trace_attention
    from attention_steps.heads import small_layer

    hint = registry()["7.3"].hint
    assert "rows d_v up to (not including) 2·d_v" in hint and "layer.W_O[d_v : 2 * d_v]" in hint
    layer = small_layer()
    t = trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads)
    d_v = t.d_v
    np.testing.assert_allclose(t.Y - t.Z_heads[1] @ layer.W_O[d_v : 2 * d_v], solution("7.3"))


def test_10_2s_question_asks_only_what_the_checker_grades():
    import json

    from conftest import BOOK

    cells = json.loads((BOOK / "10_cross_attention.ipynb").read_text(encoding="utf-8"))["cells"]
    page = [c for c in cells if "slide-only" not in c.get("metadata", {}).get("tags", [])]  # not the deck's words
    (question,) = ["".join(c["source"]) for c in page if "".join(c["source"]).startswith("**Exercise 10.2.**")]
    assert "?" not in question, question  # the weights are graded; the row is a step towards them


def test_feedback_carries_every_language_for_the_books_editions():
    """The book runs a check once (the intro's demonstration): its output holds the feedback in
    every language, and the Chinese edition shows the Chinese (book/_ext/i18n_edition.py)."""
    from attention_steps.i18n import METADATA_KEY

    feedback = check("1.1", [[1, 0, 1], [0, 1, 1]])
    data, metadata = feedback._repr_mimebundle_()
    assert data["text/plain"] == str(feedback) and data["text/plain"].startswith("Not quite")
    chinese = metadata[METADATA_KEY]["text/plain"]["zh_CN"]
    assert chinese.startswith("不对") and chinese.count("\n") == str(feedback).count("\n")
    assert "不对" in metadata[METADATA_KEY]["text/html"]["zh_CN"]
    checking.reset_tries()  # the same first try, in the Chinese edition
    with language("zh_CN"):
        assert check("1.1", [[1, 0, 1], [0, 1, 1]])._repr_mimebundle_()[1][METADATA_KEY]["text/plain"]["en"] == str(
            feedback
        )


# ------------------------------------------------------------------ the checker's wording
@pytest.mark.parametrize(
    ("shape", "words"),
    [
        ((2, 3), "a 2 × 3 matrix (2 rows of 3 numbers)"),
        ((1, 6), "a 1 × 6 matrix (1 row of 6 numbers)"),
        ((6, 1), "a 6 × 1 matrix (6 rows of 1 number)"),
        ((8, 6), "an 8 × 6 matrix (8 rows of 6 numbers)"),
        ((11, 2), "an 11 × 2 matrix (11 rows of 2 numbers)"),
        ((18, 3), "an 18 × 3 matrix"),
        ((80, 4), "an 80 × 4 matrix"),
        ((83, 4), "an 83 × 4 matrix"),
        ((800, 4), "an 800 × 4 matrix"),
        ((11000, 4), "an 11000 × 4 matrix"),
        ((18000, 4), "an 18000 × 4 matrix"),
        ((8000000, 4), "an 8000000 × 4 matrix"),
        ((110, 4), "a 110 × 4 matrix"),
        ((180, 4), "a 180 × 4 matrix"),
        ((1100, 4), "a 1100 × 4 matrix"),
        ((1, 1), "a 1 × 1 matrix (1 row of 1 number)"),
        ((1,), "a list of 1 number"),
        ((3,), "a list of 3 numbers"),
        ((), "one number"),
    ],
)
def test_a_shape_is_said_with_the_right_article_and_plurals(shape, words):
    from attention_steps.exercises.checking import _shape_words

    assert _shape_words(shape).startswith(words), _shape_words(shape)
    with language("zh_CN"):
        said = _shape_words(shape)
        assert CJK.search(said) and "{" not in said, said


def test_chinese_shapes_need_no_plural_forms():
    from attention_steps.exercises.checking import _shape_words

    with language("zh_CN"):
        assert _shape_words((1, 6)) == "一个 1 × 6 的矩阵（1 行，每行 6 个数）"
        assert _shape_words((8, 1)) == "一个 8 × 1 的矩阵（8 行，每行 1 个数）"
        assert _shape_words((1,)) == "一个包含 1 个数的列表"


def test_two_entries_are_both_one_entry_is_its_one():
    assert str(check("11.1", solution("11.1"))).startswith("Correct: both entries match")
    assert str(check_answer([1.0], [1.0])).startswith("Correct: its one entry matches")
    assert str(check_answer([1, 2, 3], [1, 2, 3])).startswith("Correct: all 3 entries match")
    assert str(check_answer([5.0, 5.0], [1.0, 2.0])).startswith("Not quite: both entries are off.")
    with language("zh_CN"):
        assert str(check("11.1", solution("11.1"))).startswith("正确：两个元素都")


def test_a_ragged_row_of_one_entry_is_singular():
    feedback = str(check("1.1", [[1, 0, 1], [0]]))
    assert "[1] has 1 entry" in feedback and "[0] has 3 entries" in feedback, feedback


def test_a_number_typed_as_a_string_is_told_to_drop_the_quotes():
    feedback = str(check("1.3", "1024"))
    assert feedback.startswith("Not a number: your answer (the number of weights) has the string '1024'"), feedback
    assert "write the number itself, without quotes" in feedback


@pytest.mark.parametrize(
    ("exercise_id", "answer", "words"),
    [
        ("1.1", "1024", ["Not a matrix: your answer (V) is the string '1024'", "V should be a 2 × 3 matrix"]),
        ("1.1", "[[1, 0, 1], [0, 1, 1]]", ["Not a matrix", "the string '[[1, 0, 1], [0, 1, 1]]'", "list of rows"]),
        ("4.2", "0.6 0.2 0.2", ["Not a list of numbers", "the string '0.6 0.2 0.2'", "a list of 3 numbers"]),
    ],
)
def test_a_matrix_typed_as_a_string_is_told_a_matrix_is_expected(exercise_id, answer, words):
    feedback = check(exercise_id, answer)
    assert not feedback.ok
    for word in words:
        assert word in str(feedback), str(feedback)
    assert "write the number itself" not in str(feedback)


WHOLE = ["1.3", "6.1", "6.2", "7.1", "7.2", "8.3", "9.3", "10.1", "11.4"]


def test_the_exercises_that_count_are_marked_whole():
    assert sorted(i for i in EXERCISES if registry()[i].whole) == sorted(WHOLE)
    for exercise_id in WHOLE:  # their answers are whole numbers, so the refusal never refuses the answer
        want = np.asarray(solution(exercise_id), dtype=float)
        np.testing.assert_array_equal(want, np.round(want))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("exercise_id", WHOLE)
def test_a_count_with_a_fraction_is_refused_as_such(exercise_id, lang):
    want = np.asarray(solution(exercise_id), dtype=float)
    near = want.copy()
    near.flat[-1] += 0.4  # within the tolerance of 0.5: it used to pass
    with language(lang):
        feedback = check(exercise_id, near)
        assert not feedback.ok, str(feedback)
        assert str(feedback).startswith({"en": "Not a whole number", "zh_CN": "不是整数"}[lang]), str(feedback)
        assert not leaked(exercise_id, near), str(feedback)
        assert check(exercise_id, want + 0.0).ok  # a float that is whole is fine


def test_9_3_refuses_130816_4():
    feedback = str(check("9.3", 130816.4))
    assert "Not a whole number" in feedback and "130,816.4" in feedback and "a count is a whole number" in feedback
    assert "130,816 " not in feedback + " " and "130816 " not in feedback + " "


WEIGHTS = ["4.1", "4.2", "5.3", "6.4", "9.1", "10.2"]


def test_the_exercises_on_weights_are_marked():
    assert sorted(i for i in EXERCISES if registry()[i].weights) == sorted(WEIGHTS)
    for exercise_id in WEIGHTS:
        want = np.asarray(solution(exercise_id), dtype=float)
        assert ((want >= 0) & (want <= 1)).all()


@pytest.mark.parametrize("exercise_id", WEIGHTS)
def test_a_weight_outside_0_1_is_told_the_range(exercise_id):
    want = np.asarray(solution(exercise_id), dtype=float)
    for value, words, chinese in (
        (
            25,
            "is 25: too big for a weight, which always lies between 0 and 1",
            "是 25：作为权重太大了，权重总在 0 到 1 之间",
        ),
        (-0.5, "is -0.5: too small for a weight, which always lies between 0 and 1", "作为权重太小了"),
    ):
        wrong = want.copy()
        wrong.flat[0] = value
        assert words in str(check(exercise_id, wrong)), str(check(exercise_id, wrong))
        with language("zh_CN"):
            assert chinese in str(check(exercise_id, wrong)), str(check(exercise_id, wrong))
    inside = want.copy()
    inside.flat[0] = 0.999 if inside.flat[0] < 0.9 else 0.001  # a weight, just the wrong one: no range
    assert "between 0 and 1" not in str(check(exercise_id, inside))


# ------------------------------------------------------------------ hints grow with the tries
def _one_entry_off(exercise_id):
    wrong = np.array(solution(exercise_id), dtype=float)
    wrong.flat[-1] += 0.3
    return wrong


@pytest.mark.parametrize("exercise_id", ["7.3", "10.2", "9.2"])
def test_the_first_wrong_try_gets_the_mistake_and_the_second_the_recipe(exercise_id):
    exercise = registry()[exercise_id]
    hint = f"Hint: {exercise.hint}"
    first = check(exercise_id, _one_entry_off(exercise_id))
    assert not first.ok and str(first).startswith("Not quite") and "is off" in str(first), str(first)
    assert hint not in str(first) and first.lines[-1] == "If your next try is wrong too, a hint will follow."
    assert checking.wrong_tries(exercise_id) == 1
    mistake = exercise.mistakes[0].answer(**exercise.book_inputs())  # another wrong answer: the second try
    second = check(exercise_id, mistake)
    assert exercise.mistakes[0].what in str(second) and second.lines[-1] == hint, str(second)
    assert hint in str(check(exercise_id, _one_entry_off(exercise_id)))  # and every try after it


def test_a_correct_answer_starts_the_count_again_and_an_unanswered_cell_is_no_try():
    wrong = _one_entry_off("7.3")
    check("7.3", ...)
    assert checking.wrong_tries("7.3") == 0
    assert "Hint:" not in str(check("7.3", wrong))
    check("7.3", None)
    assert "Hint:" in str(check("7.3", wrong))
    assert check("7.3", solution("7.3")).ok and checking.wrong_tries("7.3") == 0
    assert "Hint:" not in str(check("7.3", wrong))


def test_each_exercise_counts_its_own_tries():
    check("10.2", _one_entry_off("10.2"))
    assert "Hint:" not in str(check("9.2", _one_entry_off("9.2")))
    assert "Hint:" in str(check("10.2", _one_entry_off("10.2")))


def test_every_language_sees_the_same_try():
    """One check is one try: the other languages' feedback (the book's other edition) is the same try's."""
    first = check("7.3", _one_entry_off("7.3"))
    ((_lang, chinese),) = first.other
    assert "提示：" not in "\n".join(chinese) and chinese[-1] == "如果下一次还不对，会给出提示。"
    second = check("7.3", _one_entry_off("7.3"))
    assert dict(second.other)["zh_CN"][-1].startswith("提示：")
    assert checking.wrong_tries("7.3") == 2


def test_a_fresh_kernel_starts_with_no_tries():
    program = (
        "from attention_steps.exercises import check, solution\n"
        "import numpy as np\n"
        "wrong = np.array(solution('9.2')) + 0.3\n"
        "print(any(line.startswith('Hint:') for line in check('9.2', wrong).lines))\n"
        "print(any(line.startswith('Hint:') for line in check('9.2', wrong).lines))\n"
    )
    assert _run(program).split() == ["False", "True"]


def test_the_chinese_names_a_mistake_in_a_whole_sentence():
    """ "不对：这正是这样做得到的答案：…" was not Chinese one would write."""
    from attention_steps.exercises.ch09 import EX1_S

    with language("zh_CN"):
        feedback = check("9.1", softmax(EX1_S))  # forget the mask
        assert feedback.lines[0] == "不对：你的答案正是犯了这个错误时得到的结果：忘了掩码。", feedback.lines
        assert "这正是这样做" not in str(feedback)
        both = check("5.2", solution("5.2") * 0 + 1)  # any wrong answer: the frame of a second mistake too
        assert "这也是这样做" not in str(both)
    catalogue = i18n.catalogue("zh_CN")
    assert (
        catalogue["It is also the answer you get when you {mistake}."]
        == "犯了下面这个错误也会得到同样的结果：{mistake}。"
    )


def test_8_1_on_a_changed_sentence():
    """8.1 checks against the learner's head: the review's sentence (same length, "dog" where "animal" was)
    is checked; a sentence of another length says the exercise reads the book's sentence's "it" and "animal"."""
    from attention_steps.sentence import sentence_trace

    head = sentence_trace("The dog didn't cross the road because it was too tired.")[1].head(0)
    assert check("8.1", head.A[7, 1] * head.V[1], head=head).ok
    other = sentence_trace("the dog was tired because it didn't cross the road")[1].head(0)
    feedback = check("8.1", other.A[5, 1] * other.V[1], head=other)
    assert not feedback.ok
    said = " ".join(feedback.lines)
    for words in ('row "it" (token 8)', "11 tokens", "10 × 10", "tokens = tokenize(SENTENCE)"):
        assert words in said, said
