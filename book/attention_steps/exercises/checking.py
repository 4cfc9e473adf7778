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
  the argument, what was given and what was expected;
- help grows with the tries: the first wrong try of an exercise names the mistake (or the entries
  that are off) only, and says a hint will follow; the hint, the exercise's recipe, comes from the
  second wrong try on. The count is per exercise and per kernel (`wrong_tries`); a correct answer
  starts it again, and so does a fresh kernel. An unanswered cell is not a try.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass

import numpy as np

from ..i18n import N_, _, ngettext
from ..palette import OKABE_ITO

_REGISTRY: dict[str, Exercise] = {}
# The wrong tries of each exercise (by id) in this kernel since its last correct answer: the hint
# is shown from the second on. exercises.check counts them (record_try); Exercise.check reads them.
_WRONG_TRIES: dict[str, int] = {}


def wrong_tries(exercise_id: str) -> int:
    """How many wrong tries exercise `exercise_id` has had since its last correct answer (in this kernel)."""
    return _WRONG_TRIES.get(exercise_id, 0)


def record_try(exercise_id: str, answer, ok: bool) -> None:
    """Count one try of exercise `exercise_id`: a correct answer starts the count again, an unanswered
    cell (`...` or None) is not a try, anything else is a wrong try."""
    if ok:
        _WRONG_TRIES.pop(exercise_id, None)
    elif answer is not ... and answer is not None:
        _WRONG_TRIES[exercise_id] = wrong_tries(exercise_id) + 1


def reset_tries() -> None:
    """Forget every exercise's tries, as a fresh kernel does."""
    _WRONG_TRIES.clear()


@dataclass(frozen=True)
class Feedback:
    """What a checker found: `ok`, and the lines that explain it."""

    ok: bool
    lines: tuple[str, ...]
    # The same feedback in the other languages, (language, lines) pairs: the book runs each
    # check once and every edition shows its own (exercises.check fills it in).
    other: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return "\n".join(self.lines)

    __repr__ = __str__

    def _html(self, lines: tuple[str, ...]) -> str:
        colour = OKABE_ITO["green" if self.ok else "vermillion"]
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines[1:])
        return (
            f'<div class="exercise-feedback" role="status" style="border-left:4px solid {colour};padding-left:.6em">'
            f"<strong>{html.escape(lines[0])}</strong>{f'<ul>{items}</ul>' if items else ''}</div>"
        )

    def _repr_html_(self) -> str:
        return self._html(self.lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Text and HTML, with the other languages' in the metadata (attention_steps.i18n)."""
        from ..i18n import METADATA_KEY

        data = {"text/plain": str(self), "text/html": self._html(self.lines)}
        if not self.other:
            return data
        other = dict(self.other)
        metadata = {
            METADATA_KEY: {
                "text/plain": {lang: "\n".join(lines) for lang, lines in other.items()},
                "text/html": {lang: self._html(lines) for lang, lines in other.items()},
            }
        }
        return data, metadata


@dataclass(frozen=True)
class Mistake:
    """A common mistake: what it is, and the answer it gives (computed from the exercise's inputs).

    `what` completes "this is the answer you get when you …" in English; mark it and `hint`
    with `N_()` (they are translated where the feedback is shown)."""

    what: str
    answer: Callable[..., object]
    hint: str = ""


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id, what the answer is called, how to compute it, its common mistakes, a hint.

    `inputs` maps the names of the example's objects (as the notebook calls them) to functions
    giving the book's values; `expected` and every mistake's `answer` take them as keyword
    arguments. An exercise with no inputs has a fixed answer. `free` names the example's fields
    the exercise asks the learner to change (6.4: `layer.num_heads`): a learner's example that
    differs only there is the book's example. `whole`: the answer counts something (a number of
    weights, a shape), so a value with a fraction is refused as such, whatever the tolerance.
    `weights`: the answer is attention weights (probabilities), so an entry outside [0, 1] is told
    the range.
    """

    id: str
    name: str
    expected: Callable[..., object]
    hint: str = ""
    atol: float = 0.01
    mistakes: tuple[Mistake, ...] = ()
    inputs: Mapping[str, Callable[[], object]] = field(default_factory=dict)
    free: tuple[str, ...] = ()
    whole: bool = False
    weights: bool = False

    def accepts(self, example: Mapping[str, object]) -> None:
        """Raise a TypeError naming the accepted example arguments if `example` has others."""
        unknown = sorted(set(example) - set(self.inputs))
        if unknown:
            allowed = ", ".join(f"{name}=" for name in self.inputs)
            message = (
                _("check({id}, ...) got the keyword argument(s) {unknown}; the example arguments it accepts: {allowed}")
                if allowed
                else _(
                    "check({id}, ...) got the keyword argument(s) {unknown}; the example arguments it accepts: "
                    "none (this exercise has a fixed example)"
                )
            )
            raise TypeError(message.format(id=repr(self.id), unknown=", ".join(unknown), allowed=allowed))

    def book_inputs(self) -> dict[str, object]:
        return {name: make() for name, make in self.inputs.items()}

    def check(self, answer, **example) -> Feedback:
        """The feedback on `answer`, its hint shown if the exercise has had a wrong try already
        (`wrong_tries`; exercises.check counts the tries, this only reads the count)."""
        self.accepts(example)
        inputs = self.book_inputs()
        notes = []
        changed = []
        for name, given in example.items():
            if _differs(name, given, inputs[name], free=self.free):
                changed.append(name)
                inputs[name] = given
        if changed:
            names = ", ".join(changed)
            notes.append(
                (
                    _("Your {names} differs from the book's example: checked against your {names}, not the book's.")
                    if len(changed) == 1
                    else _("Your {names} differ from the book's example: checked against your {names}, not the book's.")
                ).format(names=names)
            )
            try:
                expected = self.expected(**inputs)
            except (ValueError, TypeError, IndexError) as error:
                return Feedback(
                    False,
                    (
                        _("Your {names} cannot be used for exercise {id}: {error}").format(
                            names=names, id=self.id, error=error
                        ),
                        *notes,
                    ),
                )
        else:
            expected = self.expected(**inputs)
        wrong = []
        for mistake in self.mistakes:
            try:
                wrong.append((mistake, mistake.answer(**inputs)))
            except (ValueError, TypeError, IndexError, ZeroDivisionError):
                continue  # this mistake is not possible on the learner's example
        feedback = check_answer(
            answer,
            expected,
            name=self.name,
            atol=self.atol,
            hint=self.hint,
            mistakes=wrong,
            whole=self.whole,
            weights=self.weights,
            show_hint=wrong_tries(self.id) >= 1,
        )
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
            _("the example argument {name}= should be an array of numbers; got {type}").format(
                name=name, type=type(value).__name__
            )
        ) from None


def _differs(name: str, given, book, free: tuple[str, ...] = ()) -> bool:
    """Whether the learner's example `given` differs from the book's, leaving out the fields in `free`."""
    mine, theirs = _arrays(name, given), _arrays(name, book)
    if mine.keys() != theirs.keys():
        raise TypeError(
            _("the example argument {name}= should be like the book's {book}; got {type}").format(
                name=name, book=type(book).__name__, type=type(given).__name__
            )
        )
    return any(
        mine[k].shape != theirs[k].shape or not np.allclose(mine[k], theirs[k], rtol=0, atol=1e-9)
        for k in mine
        if k not in free
    )


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


def _problem(value, name: str, path: str = "", expected_shape: tuple[int, ...] = ()) -> str | None:
    """The sentence saying why `value` (the answer called `name`) is not a number or a rectangular
    nesting of numbers, or None if it is. Each case is one whole sentence, with and without the
    place (`path`, such as [0][2]) where the culprit is. A whole answer given as a string where a
    list or a matrix (`expected_shape`) is expected is told so, with the shape it should have."""

    def say(here: str, anywhere: str, **values) -> str:
        return (_(here) if path else _(anywhere)).format(name=name, path=path, **values)

    if value is ... or value is None:
        return say(
            N_("Not a number: your answer ({name}) still has {what} at {path}; replace it with a number."),
            N_("Not a number: your answer ({name}) still has {what}; replace it with a number."),
            what="..." if value is ... else "None",
        )
    if isinstance(value, (bool, np.bool_)):
        return say(
            N_(
                "Not a number: your answer ({name}) has the boolean {value} at {path}; write a number "
                "(True and False are not numbers here)."
            ),
            N_(
                "Not a number: your answer ({name}) has the boolean {value}; write a number "
                "(True and False are not numbers here)."
            ),
            value=value,
        )
    if isinstance(value, (str, bytes)) and not path and expected_shape:
        message = (
            _(
                "Not a list of numbers: your answer ({name}) is the string {value}; {name} should be {shape}: "
                "write the numbers without quotes, in a list [a, b, …] or a NumPy array."
            )
            if len(expected_shape) == 1
            else _(
                "Not a matrix: your answer ({name}) is the string {value}; {name} should be {shape}: "
                "write it without quotes, as a list of rows [[a, b, …], …] or a NumPy array."
            )
        )
        return message.format(name=name, value=_describe(value), shape=_shape_words(expected_shape))
    if isinstance(value, (str, bytes)):
        return say(
            N_(
                "Not a number: your answer ({name}) has the string {value} at {path}; write the number itself, "
                "without quotes."
            ),
            N_("Not a number: your answer ({name}) has the string {value}; write the number itself, without quotes."),
            value=_describe(value),
        )
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        return say(
            N_("Not a number: your answer ({name}) has the complex number {value} at {path}; the answer is real."),
            N_("Not a number: your answer ({name}) has the complex number {value}; the answer is real."),
            value=repr(value),
        )
    if isinstance(value, numbers.Real):
        return None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biuf":
            return _problem(value.tolist(), name, path) if value.dtype.kind == "b" else None
        return _problem(value.tolist(), name, path)
    if isinstance(value, (list, tuple)):
        shapes = []
        for i, item in enumerate(value):
            problem = _problem(item, name, f"{path}[{i}]")
            if problem:
                return problem
            shapes.append(np.shape(item))
        if len(set(shapes)) > 1:
            lengths = _(", ").join(_row_length(f"{path}[{i}]", value[i], shape) for i, shape in enumerate(shapes))
            return say(
                N_(
                    "Not a number: your answer ({name}) is a ragged list at {path}: its rows have different lengths "
                    "({lengths}); every row needs the same number of entries."
                ),
                N_(
                    "Not a number: your answer ({name}) is a ragged list: its rows have different lengths "
                    "({lengths}); every row needs the same number of entries."
                ),
                lengths=lengths,
            )
        return None
    return say(
        N_(
            "Not a number: your answer ({name}) is a {type} at {path} ({value}); write a number, a list of numbers "
            "or a NumPy array."
        ),
        N_(
            "Not a number: your answer ({name}) is a {type} ({value}); write a number, a list of numbers "
            "or a NumPy array."
        ),
        type=type(value).__name__,
        value=_describe(value),
    )


def _row_length(path: str, row, shape: tuple) -> str:
    if not shape:
        return _("{path} has one number").format(path=path)
    return ngettext("{path} has {n} entry", "{path} has {n} entries", len(row)).format(path=path, n=len(row))


def _says_an(n: int) -> bool:
    """Whether the English number `n` is said with a vowel first (eight, eleven, eighteen, eighty, eight
    hundred, eleven thousand …), so that it takes "an": its leading group of three digits is 8…, 11 or 18."""
    digits = str(abs(int(n)))
    lead = digits[: len(digits) % 3 or 3]
    return lead.startswith("8") or lead in ("11", "18")


def _shape_words(shape: tuple[int, ...]) -> str:
    if shape == ():
        return _("one number")
    if len(shape) == 1:
        return ngettext("a list of {n} number", "a list of {n} numbers", shape[0]).format(n=shape[0])
    if len(shape) == 2:
        rows, cols = shape
        message = (
            _("an {rows} × {cols} matrix ({row_count} of {row_length})")
            if _says_an(rows)
            else _("a {rows} × {cols} matrix ({row_count} of {row_length})")
        )
        return message.format(
            rows=rows,
            cols=cols,
            row_count=ngettext("{n} row", "{n} rows", rows).format(n=rows),
            row_length=ngettext("{n} number", "{n} numbers", cols).format(n=cols),
        )
    return _("an array of shape {shape}").format(shape=shape)


def _same(got: np.ndarray, want: np.ndarray, atol: float) -> bool:
    return got.shape == want.shape and bool(np.all(np.isclose(got, want, rtol=1e-9, atol=atol)))


def _where(name: str, index: tuple) -> str:
    """Which entry: its code index (from 0), said to be one, and its count from 1.
    `name` is the English name (a phrase has a space: "the shape of A"); it is shown translated."""
    shown = _(name)
    if not index:
        return shown
    code = f"[{', '.join(str(int(i)) for i in index)}]"
    maths = ", ".join(str(int(i) + 1) for i in index)
    entry = f"({maths})" if len(index) > 1 else maths
    if " " in name:  # a phrase, not a variable: "entry 2 of the weights … ([1] in code)"
        return _("entry {entry} of {name} ({code} in code)").format(entry=entry, name=shown, code=code)
    return _("{name}{code} in code (entry {entry} counting from 1)").format(entry=entry, name=shown, code=code)


def _number(value: float) -> str:
    """The learner's value as they typed it: whole numbers in full, others to 4 significant digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.4g}"


def _off_entry(where: str, got: float, want: float, weights: bool = False) -> str:
    """The sentence naming a wrong entry, its value and its direction (never `want`); a weight
    outside [0, 1] (`weights`) is told the range."""
    if weights and got > 1:
        message = _("{where} is {value}: too big for a weight, which always lies between 0 and 1.")
    elif weights and got < 0:
        message = _("{where} is {value}: too small for a weight, which always lies between 0 and 1 (never below 0).")
    elif want != 0 and got != 0 and np.sign(got) != np.sign(want):
        message = _("{where} is {value}: it has the wrong sign.")
    elif got > want:
        message = _("{where} is {value}: it is too big.")
    else:
        message = _("{where} is {value}: it is too small.")
    return message.format(where=where, value=_number(got))


def _whole_number(value: float) -> str:
    """A learner's value that is not whole, in full (130,816.4, not 1.308e+05)."""
    return f"{float(value):,.10g}"


def check_answer(
    answer,
    expected,
    *,
    name: str = N_("your answer"),
    atol: float = 0.01,
    hint: str = "",
    mistakes=(),
    whole: bool = False,
    weights: bool = False,
    show_hint: bool = True,
) -> Feedback:
    """Compare an answer with the expected value and say what differs, without showing the expected value.

    `answer` may be `...` (not answered yet), a number, a nested list or an array. `mistakes`
    holds (Mistake, the answer it gives) pairs: an answer equal to one is named as that mistake.
    Otherwise up to three wrong entries are named with the learner's value and a direction; the
    hint follows. Every line is in the current language (i18n): `name`, `hint` and the mistakes'
    texts are given in English and translated here. `whole`: the answer is a count, and a value
    with a fraction is refused as such (before any comparison, so it says nothing of the answer).
    `weights`: the answer is attention weights, and an entry outside [0, 1] is told the range.
    `show_hint`: whether a wrong answer gets the hint (an exercise's first wrong try does not: it
    is told a hint follows a second).
    """
    if not hint:
        hint_lines: tuple[str, ...] = ()
    elif show_hint:
        hint_lines = (_("Hint: {hint}").format(hint=_(hint)),)
    else:
        hint_lines = (_("If your next try is wrong too, a hint will follow."),)
    shown = _(name)
    if answer is ... or answer is None:
        return Feedback(False, (_("Not answered yet: replace the ... with {name}.").format(name=shown),))
    want = np.asarray(expected, dtype=float)
    problem = _problem(answer, shown, expected_shape=want.shape)
    if problem:
        return Feedback(False, (problem,))
    got = np.asarray(answer, dtype=float)
    if not np.all(np.isfinite(got)):
        bad = [_where(name, tuple(i)) for i in np.argwhere(~np.isfinite(got))[:3]] if got.ndim else [shown]
        return Feedback(
            False,
            (
                (
                    _("Not quite: {entries} is NaN or infinite.")
                    if len(bad) == 1
                    else _("Not quite: {entries} are NaN or infinite.")
                ).format(entries=_(", ").join(bad)),
                _(
                    "A softmax computed without subtracting the row's maximum overflows (or underflows "
                    "to 0 / 0) like this."
                ),
                *hint_lines,
            ),
        )
    named = [
        mistake
        for mistake, wrong in mistakes
        if not _same(np.asarray(wrong, dtype=float), want, atol) and _same(got, np.asarray(wrong, dtype=float), atol)
    ]
    fraction = ~np.isclose(got, np.round(got), rtol=0, atol=1e-6) if whole else np.zeros(got.shape, bool)
    if fraction.any() and not named:  # a count with a fraction (a named mistake's answer is named instead)
        if got.ndim == 0:
            line = _(
                "Not a whole number: your answer ({name}) is {value}, but it counts something, and a count is a "
                "whole number."
            ).format(name=shown, value=_whole_number(got))
        else:
            index = tuple(np.argwhere(fraction)[0])
            line = _(
                "Not a whole number: {where} is {value}, but {name} counts things, and a count is a whole number."
            ).format(where=_where(name, index), value=_whole_number(got[index]), name=shown)
        return Feedback(False, (line,))
    if _same(got, want, atol):
        if want.ndim == 0:
            return Feedback(True, (_("Correct: the value matches to within {atol}.").format(atol=f"{atol:g}"),))
        if want.size == 1:
            message = _("Correct: its one entry matches to within {atol}.")
        elif want.size == 2:
            message = _("Correct: both entries match to within {atol}.")
        else:
            message = _("Correct: all {n} entries match to within {atol}.")
        return Feedback(True, (message.format(n=want.size, atol=f"{atol:g}"),))
    if named:  # two mistakes can give the same numbers: name them all
        first, *others = named
        return Feedback(
            False,
            (
                _("Not quite: this is the answer you get when you {mistake}.").format(mistake=_(first.what)),
                *(
                    _("It is also the answer you get when you {mistake}.").format(mistake=_(other.what))
                    for other in others
                ),
                *(_(m.hint) for m in named if m.hint),
                *hint_lines,
            ),
        )
    if got.shape != want.shape:
        lines = [
            _("Not quite: {name} should be {expected_shape}; yours is {your_shape}.").format(
                name=shown, expected_shape=_shape_words(want.shape), your_shape=_shape_words(got.shape)
            )
        ]
        if got.ndim == 2 and got.shape == want.T.shape and _same(got.T, want, atol):
            lines.append(
                _(
                    "Your matrix is the transpose of the answer: rows and columns are swapped "
                    "(for example Kᵀ Q instead of Q Kᵀ)."
                )
            )
        return Feedback(False, (*lines, *hint_lines))
    if want.ndim == 2 and want.shape[0] == want.shape[1] and _same(got.T, want, atol):
        return Feedback(
            False,
            (
                _(
                    "Not quite: your matrix is the transpose of the answer: rows and columns are swapped "
                    "(for example Kᵀ Q instead of Q Kᵀ, or a sum over the wrong axis)."
                ),
                *hint_lines,
            ),
        )
    if want.size > 1 and np.any(want != 0) and _same(-got, want, atol):
        return Feedback(False, (_("Not quite: every entry has the wrong sign."), *hint_lines))
    if want.ndim >= 1 and want.size > 1 and _same(got[..., ::-1], want, atol) and want.ndim == 1:
        return Feedback(False, (_("Not quite: your entries are in reverse order."), *hint_lines))
    off = ~np.isclose(got, want, rtol=1e-9, atol=atol)
    n_off = int(off.sum())
    if not want.ndim:
        first = _("Not quite.")
    elif want.size == 1:
        first = _("Not quite: 1 of 1 entry is off.")
    elif want.size == 2 and n_off == 2:
        first = _("Not quite: both entries are off.")
    elif n_off == 1:
        first = _("Not quite: 1 of {size} entries is off.").format(size=want.size)
    else:
        first = _("Not quite: {off} of {size} entries are off.").format(off=n_off, size=want.size)
    lines = [first]
    nonzero = (want != 0) & (got != 0)
    if want.size > 1 and n_off == want.size and nonzero.all():
        ratio = got / want
        if np.allclose(ratio, ratio.flat[0], rtol=1e-6):
            lines.append(
                _("Every entry is off by the same factor: look at a scaling step (a division or a missing one).")
            )
    for index in list(zip(*np.nonzero(off)))[:3] if want.ndim else [()]:
        lines.append(_off_entry(_where(name, index), got[index], want[index], weights=weights))
    if n_off > 3:
        lines.append(_("… and {n} more.").format(n=n_off - 3))
    return Feedback(False, (*lines, *hint_lines))
