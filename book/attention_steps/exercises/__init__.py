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

from .checking import Exercise, Feedback, check_answer, register, registry


def check(exercise_id: str, answer) -> Feedback:
    """Compare `answer` with exercise `exercise_id`'s expected answer and explain."""
    exercises = registry()
    if exercise_id not in exercises:
        known = ", ".join(sorted(exercises)) or "none"
        raise KeyError(f"no exercise {exercise_id!r}; known exercises: {known}")
    return exercises[exercise_id].check(answer)


def solution(exercise_id: str):
    """The expected answer, computed by the core (shown in the solution dropdowns)."""
    return registry()[exercise_id].expected()


# Register every chapter's exercises.
for _module in pkgutil.iter_modules(__path__):
    if _module.name.startswith("ch"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["check", "solution", "check_answer", "Exercise", "Feedback", "register", "registry"]
