"""The checking machinery behind `attention_steps.exercises.check`."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

_REGISTRY: dict[str, Exercise] = {}


@dataclass(frozen=True)
class Feedback:
    """What a checker found: `ok`, and the lines that explain it."""

    ok: bool
    lines: tuple[str, ...]

    def __str__(self) -> str:
        return "\n".join(self.lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = "#009E73" if self.ok else "#D55E00"  # Okabe–Ito green / vermillion
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.lines[1:])
        return (
            f'<div class="exercise-feedback" role="status" style="border-left:4px solid {colour};padding-left:.6em">'
            f"<strong>{html.escape(self.lines[0])}</strong>{f'<ul>{items}</ul>' if items else ''}</div>"
        )


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id, what the answer is called, how to compute it, a hint."""

    id: str
    name: str
    expected: Callable[[], object]
    hint: str = ""
    atol: float = 0.01

    def check(self, answer) -> Feedback:
        return check_answer(answer, self.expected(), name=self.name, atol=self.atol, hint=self.hint)


def register(exercise: Exercise) -> Exercise:
    """Add an exercise to the registry (ids are unique across the book)."""
    if exercise.id in _REGISTRY:
        raise ValueError(f"exercise id {exercise.id!r} is registered twice")
    _REGISTRY[exercise.id] = exercise
    return exercise


def registry() -> dict[str, Exercise]:
    return dict(_REGISTRY)


def check_answer(answer, expected, *, name: str = "your answer", atol: float = 0.01, hint: str = "") -> Feedback:
    """Compare an answer with the expected value, entry by entry, and say what differs.

    `answer` may be `...` (not answered yet), a number, a nested list or an
    array. Up to three wrong entries are named with their value, the expected
    value and the difference; the hint follows.
    """
    if answer is ... or answer is None:
        return Feedback(False, (f"Not answered yet: replace the ... with {name}.",))
    try:
        got = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return Feedback(False, (f"{name} should be numbers, but got {type(answer).__name__}: {answer!r}",))
    want = np.asarray(expected, dtype=float)
    if got.shape != want.shape:
        return Feedback(
            False,
            (
                f"Not quite: {name} has shape {got.shape}, expected {want.shape}.",
                *((f"Hint: {hint}",) if hint else ()),
            ),
        )
    if not np.all(np.isfinite(got)):
        return Feedback(False, (f"Not quite: {name} contains NaN or infinity.",))
    off = ~np.isclose(got, want, rtol=0, atol=atol)
    if not off.any():
        what = "the value matches" if want.ndim == 0 else f"all {want.size} entries match"
        return Feedback(True, (f"Correct: {what} to within {atol:g}.",))
    lines = [f"Not quite: {int(off.sum())} of {want.size} entr{'y' if want.size == 1 else 'ies'} differ."]
    for index in list(zip(*np.nonzero(off)))[:3] if want.ndim else [()]:
        where = name
        if index:  # the code index counts from 0; say which entry that is in the maths' count from 1
            code = f"{name}[{', '.join(str(int(i)) for i in index)}]"
            maths = ", ".join(str(int(i) + 1) for i in index)
            where = f"{code} in code (entry {'(' + maths + ')' if len(index) > 1 else maths} counting from 1)"
        lines.append(f"{where} is {got[index]:.4g}, expected {want[index]:.4g} (off by {got[index] - want[index]:+.3g}).")
    if off.sum() > 3:
        lines.append(f"… and {int(off.sum()) - 3} more.")
    if hint:
        lines.append(f"Hint: {hint}")
    return Feedback(False, tuple(lines))
