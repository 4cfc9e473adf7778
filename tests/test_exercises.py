"""Every registered exercise, whatever its chapter: the core's answer passes, an
unanswered cell says so, a wrong entry is named with by how much and the hint,
and a wrong shape is reported. Chapter test files add the chapter's own
common mistakes on top."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps.exercises import check, registry, solution

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
        assert f"in code (entry {'(' + maths + ')' if len(index) > 1 else maths} counting from 1) is" in str(feedback), str(feedback)
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
