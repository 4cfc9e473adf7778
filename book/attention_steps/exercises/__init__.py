"""Check-yourself exercises: the reader writes an answer, a checker says what is
right or wrong (which entry is off, by how much, a hint), never a bare assert.

    from attention_steps.exercises import check
    check("1.1", my_Q)

Each chapter registers its exercises in its own module (ch01.py, ...): an
exercise knows how to compute its expected answer with the core, so no answer
is typed into a notebook.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

from ..i18n import LANGUAGES, _, current, language
from .checking import Exercise, Feedback, Mistake, check_answer, register, registry


def _exercise(exercise_id):
    exercises = registry()
    known = ", ".join(sorted(exercises, key=lambda i: [int(p) for p in i.split(".")])) or "none"
    if isinstance(exercise_id, bool) or not isinstance(exercise_id, str):
        if isinstance(exercise_id, (int, float)) and not isinstance(exercise_id, bool):
            raise TypeError(
                _(
                    'exercise_id must be a string in quotes, like check("{id}", ...); got the number {id} ({type}), '
                    "and a number cannot tell 3.1 from 3.10"
                ).format(id=repr(exercise_id), type=type(exercise_id).__name__)
            )
        raise TypeError(
            _('exercise_id must be a string such as "3.1"; got {value} ({type})').format(
                value=repr(exercise_id), type=type(exercise_id).__name__
            )
        )
    if exercise_id.strip() not in exercises:
        raise KeyError(
            _("exercise_id {id} is not an exercise; known exercises: {known}").format(id=repr(exercise_id), known=known)
        )
    return exercises[exercise_id.strip()]


def check(exercise_id: str, answer=..., **example) -> Feedback:
    """Compare `answer` with exercise `exercise_id`'s expected answer and explain, without giving it away.

    Exercises computed from a notebook's example take it as keyword arguments, as the exercise
    cell shows (`check("4.1", my_weights, ex=ex)`): if the learner changed the example, the
    answer is checked against theirs and the feedback says so.
    """
    exercise = _exercise(exercise_id)
    feedback = exercise.check(answer, **example)
    # the same check said in the other languages, for the book's other editions
    other = []
    for lang in LANGUAGES:
        if lang != current():
            with language(lang):
                other.append((lang, exercise.check(answer, **example).lines))
    return replace(feedback, other=tuple(other))


def solution(exercise_id: str, **example):
    """The expected answer, computed by the core (shown in the solution dropdowns)."""
    exercise = _exercise(exercise_id)
    exercise.accepts(example)
    inputs = exercise.book_inputs()
    inputs.update(example)
    return exercise.expected(**inputs)


# Register every chapter's exercises.
for _module in pkgutil.iter_modules(__path__):
    if _module.name.startswith("ch"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["Exercise", "Feedback", "Mistake", "check", "check_answer", "register", "registry", "solution"]
