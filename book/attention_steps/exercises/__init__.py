"""Check-yourself exercises: the reader writes an answer, a checker says what is
right or wrong (which entry is off, by how much, a hint), never a bare assert.

    from attention_steps.exercises import check
    check("1.1", my_Q)

Each chapter registers its exercises in its own module: exercise "N.k" lives in
chNN.py (chapter 9's in ch09.py), and `check` and `solution` import only that
module, when first asked for one of its exercises. So a notebook runs its own
chapter's exercise module and no other (scripts/notebook_deps.py reads the ids
of its check and solution calls to know which). An exercise knows how to
compute its expected answer with the core, so no answer is typed into a
notebook; the examples it reads live in attention_steps.examples.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import replace

from ..i18n import LANGUAGES, _, current, language
from . import checking
from .checking import Exercise, Feedback, Mistake, check_answer, register


def module_of(exercise_id: str) -> str:
    """The module that registers exercise `exercise_id`: "9.1" -> "attention_steps.exercises.ch09"."""
    chapter = exercise_id.strip().partition(".")[0]
    return f"{__name__}.ch{int(chapter):02d}" if chapter.isdecimal() else ""


def _load(module: str) -> None:
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:  # the chapter's module exists but imports something missing
            raise


def registry() -> dict[str, Exercise]:
    """Every exercise of the book, by id (imports every chapter's exercise module)."""
    for module in pkgutil.iter_modules(__path__):
        if re.fullmatch(r"ch\d+", module.name):
            _load(f"{__name__}.{module.name}")
    return checking.registry()


def _exercise(exercise_id):
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
    if module_of(exercise_id):
        _load(module_of(exercise_id))
    exercises = checking.registry()
    if exercise_id.strip() not in exercises:
        exercises = registry()  # say which exercises there are
        known = ", ".join(sorted(exercises, key=lambda i: [int(p) for p in i.split(".")])) or "none"
        raise KeyError(
            _("exercise_id {id} is not an exercise; known exercises: {known}").format(id=repr(exercise_id), known=known)
        )
    return exercises[exercise_id.strip()]


def check(exercise_id: str, answer=..., **example) -> Feedback:
    """Compare `answer` with exercise `exercise_id`'s expected answer and explain, without giving it away.

    Exercises computed from a notebook's example take it as keyword arguments, as the exercise
    cell shows (`check("4.1", my_weights, ex=ex)`): if the learner changed the example, the
    answer is checked against theirs and the feedback says so. The first wrong try of an exercise
    gets the mistake only, the next ones the hint too (checking.wrong_tries counts them).
    """
    exercise = _exercise(exercise_id)
    feedback = exercise.check(answer, **example)
    # the same check said in the other languages, for the book's other editions
    other = []
    for lang in LANGUAGES:
        if lang != current():
            with language(lang):
                other.append((lang, exercise.check(answer, **example).lines))
    checking.record_try(exercise.id, answer, feedback.ok)  # once, after every language's feedback
    return replace(feedback, other=tuple(other))


def solution(exercise_id: str, **example):
    """The expected answer, computed by the core (shown in the solution dropdowns)."""
    exercise = _exercise(exercise_id)
    exercise.accepts(example)
    inputs = exercise.book_inputs()
    inputs.update(example)
    return exercise.expected(**inputs)


__all__ = ["Exercise", "Feedback", "Mistake", "check", "check_answer", "module_of", "register", "registry", "solution"]
