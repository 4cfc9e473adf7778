"""Translated words on screen: figure labels, explorer controls, checker feedback.

One mechanism for everything the code puts on screen (the pages' prose is translated
by Sphinx from locale/<lang>/LC_MESSAGES/book/*.po; see docs/chinese-edition.md):

- In Python, wrap an English string in ``_()``: ``ax.set_ylabel(_("weight"))``. It
  returns the string in the current language, English if the catalogue has no
  (or only a fuzzy) translation. English text is the key, as in gettext.
- The catalogues are ``attention_steps/locale/<lang>/*.po`` (standard gettext .po
  files, inside the package so that a pip-installed package has them too), one file
  per area (figures, explorers, checker), and a module's own messages in
  ``locale/<lang>/<its path>.po`` (each chapter's exercises: ``exercises/ch09.po``, so
  that a change to one re-runs only that chapter's notebook), read together as one catalogue
  (by Babel). A word that needs two translations gets a ``msgctxt`` in the catalogue and is
  shown with ``pgettext(context, message)``. A message with a count is
  ``ngettext("{n} row", "{n} rows", n)``: its catalogue entry has a ``msgid_plural`` and one
  ``msgstr[k]`` per plural form of the language (Chinese has one), chosen by the language's
  plural rule (Babel's, as the catalogue's ``Plural-Forms`` header states it).
- Text defined at import time and shown later (the exercises' hints and named
  mistakes) is marked with ``N_()`` where it is written and passed through
  ``_()`` where it is shown.
- The current language is ``$ATTENTION_LANG`` (``zh_CN`` or ``en``, default ``en``),
  or ``set_language("zh_CN")`` in a notebook, or ``with language("zh_CN"): ...``.
- JavaScript (the explorers) gets every language's strings at once in its data,
  ``for_javascript()``, and picks the page's language (``<html lang>``) or the
  kernel's (``lang``): the book's single execution serves both editions.
- Figures and their Chinese labels are attention_steps.figures' job (``show_figure``); how
  one execution carries every language for the book's editions is the book's
  (book/editions.py), not this package's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "zh_CN")
ENV = "ATTENTION_LANG"
LOCALE = Path(__file__).resolve().parent / "locale"
# where an output keeps what it says in the other languages (the checker's feedback here, the
# book's figures and glued words in book/editions.py, which every edition reads)
METADATA_KEY = "attention_steps/i18n"

_current: list[str] = []


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r} (from ${ENV} or set_language)")
    return lang


def current() -> str:
    """The language strings are shown in now."""
    return _current[-1] if _current else _check(os.environ.get(ENV) or "en")


def set_language(lang: str) -> None:
    """Show strings in `lang` from now on (in this kernel)."""
    _current[:] = [_check(lang)]


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Show strings in `lang` inside the block."""
    _current.append(_check(lang))
    try:
        yield
    finally:
        _current.pop()


# Keys of a catalogue, in gettext's own form (a compiled .mo file's, and Python's gettext module's):
# an entry with a context is keyed "context\x04message", so two entries that differ only by their
# msgctxt are two keys; a plural entry is keyed by its singular message and holds its forms
# joined by "\x00" (msgstr[0] first).
CONTEXT = "\x04"
PLURAL_FORMS = "\x00"


def read_po(path: Path) -> dict[str, tuple[str, bool]]:
    """key -> (msgstr, fuzzy) of a gettext .po or .pot file, read by Babel (the header and
    obsolete entries left out). The key is the msgid, ``f"{msgctxt}{CONTEXT}{msgid}"`` for an
    entry with a context; a plural entry (msgid_plural) is keyed by its singular msgid and its
    msgstr is its forms joined by PLURAL_FORMS. A file Babel cannot read is an error naming it."""
    from babel.messages.pofile import PoFileError
    from babel.messages.pofile import read_po as babel_read_po

    path = Path(path)
    with path.open("rb") as f:
        try:
            messages = babel_read_po(f, ignore_obsolete=True, abort_invalid=True)
        except PoFileError as e:
            raise ValueError(f"{path}: {e}") from e
    entries: dict[str, tuple[str, bool]] = {}
    for m in messages:
        msgid = m.id[0] if m.pluralizable else m.id
        if not msgid:  # the header
            continue
        msgstr = PLURAL_FORMS.join(m.string) if m.pluralizable else m.string
        key = f"{m.context}{CONTEXT}{msgid}" if m.context is not None else msgid
        entries[key] = (msgstr or "", m.fuzzy)
    return entries


def catalogue_files(lang: str) -> list[Path]:
    """`lang`'s .po files: the areas' (locale/<lang>/*.po), then the modules' own (locale/<lang>/<package>/<module>.po)."""
    folder = LOCALE / lang
    return sorted(folder.glob("*.po")) + sorted(folder.glob("*/*.po"))


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The usable translations (not fuzzy, not empty) for `lang`, keyed as read_po keys them;
    English has none."""
    _check(lang)
    if lang == "en":
        return {}
    return {k: v for k, (v, fuzzy) in read_catalogue(lang).items() if v and not fuzzy}


def read_catalogue(lang: str) -> dict[str, tuple[str, bool]]:
    """Every entry of `lang`'s .po files (locale/<lang>/*.po and the modules' own, locale/<lang>/*/*.po),
    as read_po gives them. A message translated differently in two files is an error naming both."""
    entries: dict[str, tuple[str, bool]] = {}
    where: dict[str, Path] = {}
    for path in catalogue_files(lang):
        for msgid, entry in read_po(path).items():
            if msgid in entries and entries[msgid][0] and entry[0] and entries[msgid][0] != entry[0]:
                raise ValueError(
                    f"{msgid!r} is translated twice, differently: {entries[msgid][0]!r} in {where[msgid].name}"
                    f" and {entry[0]!r} in {path.name}; keep one"
                )
            if msgid not in entries or not entries[msgid][0]:
                entries[msgid], where[msgid] = entry, path
    return entries


def _(message: str) -> str:
    """`message` (English) in the current language; English when not translated (gettext's
    ``gettext``: for a plural entry, its first form)."""
    return catalogue(current()).get(message, message).split(PLURAL_FORMS)[0]


def pgettext(context: str, message: str) -> str:
    """`message` (English) as translated for `context` (the entry's msgctxt), in the current
    language; English when not translated under that context."""
    return catalogue(current()).get(f"{context}{CONTEXT}{message}", message).split(PLURAL_FORMS)[0]


@cache
def _plural_rule(lang: str) -> Callable[[int], int]:
    """The index of the plural form to use for a count in `lang` (gettext's plural expression, Babel's data)."""
    import gettext

    from babel.messages.plurals import get_plural

    return gettext.c2py(get_plural(lang).plural_expr)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message with a count `n` (English: `singular` when n == 1, else `plural`) in
    the current language, as gettext's ``ngettext``: a translated entry (keyed by `singular`, its
    ``msgstr[k]`` forms) gives the form the language's plural rule picks. The count is still
    filled in by the caller: ``ngettext("{n} row", "{n} rows", n).format(n=n)``."""
    n = int(n)
    english = singular if n == 1 else plural
    translated = catalogue(current()).get(singular)
    if translated is None:
        return english
    forms = translated.split(PLURAL_FORMS)
    index = _plural_rule(current())(n)
    return forms[index] if index < len(forms) and forms[index] else english


def N_(message: str) -> str:
    """Mark `message` for translation where it is defined and return it unchanged (gettext's
    ``gettext_noop``): for text kept in data at import time, such as the exercises' hints,
    and translated with ``_()`` where it is shown, so it follows a language set later.
    tests/test_i18n_core.py finds the strings in ``N_()`` as it finds those in ``_()``."""
    return message


def for_javascript() -> dict:
    """Every language's translations for a front end, and the kernel's language."""
    return {"lang": current(), "strings": {lang: catalogue(lang) for lang in LANGUAGES if lang != "en"}}
