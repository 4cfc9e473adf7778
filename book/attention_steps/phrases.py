"""Words that the notebooks glue into the book's sentences, in the current language.

A glued value is usually a number, the same in every edition. A few glued values are
words that depend on a computed result ("exactly", or "to within 1e-16" if rounding
ever shows), or lists ("1 and 3"). These functions say them in the current language
(attention_steps.i18n), and the book's ``glue_words`` (book/editions.py) glues them in every language at once,
so each edition of the book reads its own words from the one execution.
"""

from __future__ import annotations

from collections.abc import Sequence

from .i18n import _


def closeness(error: float) -> str:
    """How close a computed value is to the one it should equal: "exactly" when the
    largest difference is 0, else "to within 1e-16"."""
    return _("exactly") if error == 0 else _("to within {error}").format(error=f"{error:.0e}")


def exactly_zero(value: float) -> str:
    """A value that should be 0: "exactly 0", else the value itself (1.2e-17)."""
    return _("exactly 0") if value == 0 else f"{value:.1e}"


def same_or_difference(difference: float) -> str:
    """Two results that should agree: "exactly the same", else by how much they differ."""
    return _("exactly the same") if difference == 0 else _("they differ by {d}").format(d=f"{difference:.0e}")


def _series(items: Sequence[object], pattern: str) -> str:
    words = [str(i) for i in items]
    if not words:
        raise ValueError("a list to say needs at least one item, got none")
    if len(words) == 1:
        return words[0]
    items = words[0]
    for word in words[1:-1]:
        items = _("{first}, {next}").format(first=items, next=word)
    return pattern.format(items=items, last=words[-1])


def and_list(items: Sequence[object]) -> str:
    """ "1 and 3", "1, 2 and 3" (Chinese: "1 和 3", "1、2 和 3")."""
    return _series(items, _("{items} and {last}"))


def or_list(items: Sequence[object]) -> str:
    """ "4, 2 or 1" (Chinese: "4、2 或 1")."""
    return _series(items, _("{items} or {last}"))


def head_name(r: int) -> str:
    """The name of the sentence layer's head r (0-based): "broad" (Chinese: "广泛")."""
    from .sentence import HEAD_NAMES

    if not 0 <= r < len(HEAD_NAMES):
        raise ValueError(f"head index r must be 0 to {len(HEAD_NAMES) - 1} (0-based), got {r}")
    return _(HEAD_NAMES[r])
