"""The checking machinery behind `attention_steps.exercises.check`.

The rules the feedback follows (tests/test_exercises.py checks each):

- it never shows the expected answer, nor anything derived from it (no "expected 1024", no
  difference "off by +2" that gives it back): a wrong entry is named with the learner's own value
  and a direction (too big, too small, wrong sign);
- it names a common mistake when the answer is what that mistake gives (each exercise lists its
  mistakes as functions of the same inputs, computed with the core);
- an exercise computed from an example (matrices of the notebook) accepts the learner's example as
  keyword arguments, `check("4.1", my_row, S=S)`: if it differs from the book's, the feedback says
  so and the answer is checked against the learner's example;
- bad input (a string, a boolean, a ragged list, an id given as a number) gets a message that names
  the argument, what was given and what was expected.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass

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
class Mistake:
    """A common mistake: what it is, and the answer it gives (computed from the exercise's inputs)."""

    what: str
    answer: Callable[..., object]
    hint: str = ""


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id, what the answer is called, how to compute it, its common mistakes, a hint.

    `inputs` maps the names of the example's objects (as the notebook calls them) to functions
    giving the book's values; `expected` and every mistake's `answer` take them as keyword
    arguments. An exercise with no inputs has a fixed answer.
    """

    id: str
    name: str
    expected: Callable[..., object]
    hint: str = ""
    atol: float = 0.01
    mistakes: tuple[Mistake, ...] = ()
    inputs: Mapping[str, Callable[[], object]] = field(default_factory=dict)

    def accepts(self, example: Mapping[str, object]) -> None:
        """Raise a TypeError naming the accepted example arguments if `example` has others."""
        unknown = sorted(set(example) - set(self.inputs))
        if unknown:
            allowed = ", ".join(f"{name}=" for name in self.inputs) or "none (this exercise has a fixed example)"
            raise TypeError(
                f"check({self.id!r}, ...) got the keyword argument(s) {', '.join(unknown)}; "
                f"the example arguments it accepts: {allowed}"
            )

    def book_inputs(self) -> dict[str, object]:
        return {name: make() for name, make in self.inputs.items()}

    def check(self, answer, **example) -> Feedback:
        self.accepts(example)
        inputs = self.book_inputs()
        notes = []
        changed = []
        for name, given in example.items():
            if _differs(name, given, inputs[name]):
                changed.append(name)
                inputs[name] = given
        if changed:
            names = " and ".join(changed)
            notes.append(
                f"Your {names} {'differs' if len(changed) == 1 else 'differ'} from the book's example: "
                f"checked against your {names}, not the book's."
            )
            try:
                expected = self.expected(**inputs)
            except (ValueError, TypeError, IndexError) as error:
                return Feedback(False, (f"Your {names} cannot be used for exercise {self.id}: {error}", *notes))
        else:
            expected = self.expected(**inputs)
        wrong = []
        for mistake in self.mistakes:
            try:
                wrong.append((mistake, mistake.answer(**inputs)))
            except (ValueError, TypeError, IndexError, ZeroDivisionError):
                continue  # this mistake is not possible on the learner's example
        feedback = check_answer(answer, expected, name=self.name, atol=self.atol, hint=self.hint, mistakes=wrong)
        return Feedback(feedback.ok, (feedback.lines[0], *notes, *feedback.lines[1:]))


def _arrays(name: str, value) -> dict[str, np.ndarray]:
    """The numbers that define an example object: its array fields (a dataclass) or itself (an array)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {
            f"{name}.{f.name}": np.asarray(getattr(value, f.name))
            for f in fields(value)
            if isinstance(getattr(value, f.name), (np.ndarray, int, float))
        }
    try:
        return {name: np.asarray(value, dtype=float)}
    except (TypeError, ValueError):
        raise TypeError(
            f"the example argument {name}= should be an array of numbers; got {type(value).__name__}"
        ) from None


def _differs(name: str, given, book) -> bool:
    mine, theirs = _arrays(name, given), _arrays(name, book)
    if mine.keys() != theirs.keys():
        raise TypeError(
            f"the example argument {name}= should be like the book's {type(book).__name__}; got {type(given).__name__}"
        )
    return any(mine[k].shape != theirs[k].shape or not np.allclose(mine[k], theirs[k], rtol=0, atol=1e-9) for k in mine)


def register(exercise: Exercise) -> Exercise:
    """Add an exercise to the registry (ids are unique across the book)."""
    if exercise.id in _REGISTRY:
        raise ValueError(f"exercise id {exercise.id!r} is registered twice")
    _REGISTRY[exercise.id] = exercise
    return exercise


def registry() -> dict[str, Exercise]:
    return dict(_REGISTRY)


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _problem(value, path: str = "") -> str | None:
    """Why `value` is not a number or a rectangular nesting of numbers, or None if it is."""
    where = f" at {path}" if path else ""
    if value is ... or value is None:
        return f"still has {'...' if value is ... else 'None'}{where}; replace it with a number"
    if isinstance(value, (bool, np.bool_)):
        return f"has the boolean {value}{where}; write a number (True and False are not numbers here)"
    if isinstance(value, (str, bytes)):
        return f"has the string {_describe(value)}{where}; write the number itself, without quotes"
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        return f"has the complex number {value!r}{where}; the answer is real"
    if isinstance(value, numbers.Real):
        return None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biuf":
            return _problem(value.tolist(), path) if value.dtype.kind == "b" else None
        return _problem(value.tolist(), path)
    if isinstance(value, (list, tuple)):
        shapes = []
        for i, item in enumerate(value):
            problem = _problem(item, f"{path}[{i}]")
            if problem:
                return problem
            shapes.append(np.shape(item))
        if len(set(shapes)) > 1:
            lengths = ", ".join(
                f"{path}[{i}] has {len(value[i]) if shape else 'one number'}{'' if not shape else ' entries'}"
                for i, shape in enumerate(shapes)
            )
            return f"is a ragged list{where}: its rows have different lengths ({lengths}); every row needs the same number of entries"
        return None
    return (
        f"is a {type(value).__name__}{where} ({_describe(value)}); write a number, a list of numbers or a NumPy array"
    )


def _shape_words(shape: tuple[int, ...]) -> str:
    if shape == ():
        return "one number"
    if len(shape) == 1:
        return f"a list of {shape[0]} number{'s' if shape[0] != 1 else ''}"
    if len(shape) == 2:
        return f"a {shape[0]} × {shape[1]} matrix ({shape[0]} rows of {shape[1]} numbers)"
    return "an array of shape " + str(shape)


def _same(got: np.ndarray, want: np.ndarray, atol: float) -> bool:
    return got.shape == want.shape and bool(np.all(np.isclose(got, want, rtol=1e-9, atol=atol)))


def _where(name: str, index: tuple) -> str:
    """Which entry: its code index (from 0), said to be one, and its count from 1."""
    if not index:
        return name
    code = f"[{', '.join(str(int(i)) for i in index)}]"
    maths = ", ".join(str(int(i) + 1) for i in index)
    entry = f"entry {'(' + maths + ')' if len(index) > 1 else maths}"
    if " " in name:  # a phrase, not a variable: "entry 2 of the weights … ([1] in code)"
        return f"{entry} of {name} ({code} in code)"
    return f"{name}{code} in code ({entry} counting from 1)"


def _number(value: float) -> str:
    """The learner's value as they typed it: whole numbers in full, others to 4 significant digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.4g}"


def _direction(got: float, want: float) -> str:
    if want != 0 and got != 0 and np.sign(got) != np.sign(want):
        return "has the wrong sign"
    return "is too big" if got > want else "is too small"


def check_answer(
    answer, expected, *, name: str = "your answer", atol: float = 0.01, hint: str = "", mistakes=()
) -> Feedback:
    """Compare an answer with the expected value and say what differs, without showing the expected value.

    `answer` may be `...` (not answered yet), a number, a nested list or an array. `mistakes`
    holds (Mistake, the answer it gives) pairs: an answer equal to one is named as that mistake.
    Otherwise up to three wrong entries are named with the learner's value and a direction; the
    hint follows.
    """
    hint_lines = (f"Hint: {hint}",) if hint else ()
    if answer is ... or answer is None:
        return Feedback(False, (f"Not answered yet: replace the ... with {name}.",))
    problem = _problem(answer)
    if problem:
        return Feedback(False, (f"Not a number: your answer ({name}) {problem}.",))
    got = np.asarray(answer, dtype=float)
    want = np.asarray(expected, dtype=float)
    if not np.all(np.isfinite(got)):
        bad = [_where(name, tuple(i)) for i in np.argwhere(~np.isfinite(got))[:3]] if got.ndim else [name]
        return Feedback(
            False,
            (
                f"Not quite: {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} NaN or infinite.",
                (
                    "A softmax computed without subtracting the row's maximum overflows (or underflows "
                    "to 0 / 0) like this."
                ),
                *hint_lines,
            ),
        )
    if _same(got, want, atol):
        what = "the value matches" if want.ndim == 0 else f"all {want.size} entries match"
        return Feedback(True, (f"Correct: {what} to within {atol:g}.",))
    named = [
        mistake
        for mistake, wrong in mistakes
        if not _same(np.asarray(wrong, dtype=float), want, atol) and _same(got, np.asarray(wrong, dtype=float), atol)
    ]
    if named:  # two mistakes can give the same numbers: name them all
        first, *others = named
        return Feedback(
            False,
            (
                f"Not quite: this is the answer you get when you {first.what}.",
                *(f"It is also the answer you get when you {other.what}." for other in others),
                *(m.hint for m in named if m.hint),
                *hint_lines,
            ),
        )
    if got.shape != want.shape:
        lines = [f"Not quite: {name} should be {_shape_words(want.shape)}; yours is {_shape_words(got.shape)}."]
        if got.ndim == 2 and got.shape == want.T.shape and _same(got.T, want, atol):
            lines.append(
                "Your matrix is the transpose of the answer: rows and columns are swapped "
                "(for example Kᵀ Q instead of Q Kᵀ)."
            )
        return Feedback(False, (*lines, *hint_lines))
    if want.ndim == 2 and want.shape[0] == want.shape[1] and _same(got.T, want, atol):
        return Feedback(
            False,
            (
                (
                    "Not quite: your matrix is the transpose of the answer: rows and columns are swapped "
                    "(for example Kᵀ Q instead of Q Kᵀ, or a sum over the wrong axis)."
                ),
                *hint_lines,
            ),
        )
    if want.size > 1 and np.any(want != 0) and _same(-got, want, atol):
        return Feedback(False, ("Not quite: every entry has the wrong sign.", *hint_lines))
    if want.ndim >= 1 and want.size > 1 and _same(got[..., ::-1], want, atol) and want.ndim == 1:
        return Feedback(False, ("Not quite: your entries are in reverse order.", *hint_lines))
    off = ~np.isclose(got, want, rtol=1e-9, atol=atol)
    lines = [
        f"Not quite: {int(off.sum())} of {want.size} entr{'y' if want.size == 1 else 'ies'} "
        f"{'is' if off.sum() == 1 else 'are'} off."
        if want.ndim
        else "Not quite."
    ]
    nonzero = (want != 0) & (got != 0)
    if want.size > 1 and off.sum() == want.size and nonzero.all():
        ratio = got / want
        if np.allclose(ratio, ratio.flat[0], rtol=1e-6):
            lines.append("Every entry is off by the same factor: look at a scaling step (a division or a missing one).")
    for index in list(zip(*np.nonzero(off)))[:3] if want.ndim else [()]:
        lines.append(f"{_where(name, index)} is {_number(got[index])}: it {_direction(got[index], want[index])}.")
    if off.sum() > 3:
        lines.append(f"… and {int(off.sum()) - 3} more.")
    return Feedback(False, (*lines, *hint_lines))
