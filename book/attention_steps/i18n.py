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
- Figures: ``show_figure(build, alt)`` draws the figure once per language from the
  same data (``build`` is called under each language) and displays the current
  language's PNG with the others in the output's metadata; the Chinese edition of
  the book shows the Chinese PNG (book/_ext/i18n_edition.py). Same execution, same
  numbers, labels in each language.
- Chinese text in matplotlib needs a CJK font: ``use_cjk_font()`` (run by plotting.use_book_style / book_style, not on import)
  adds Noto Sans CJK SC (Debian's fonts-noto-cjk, installed by scripts/setup.sh) to
  ``font.family`` after the book's font: matplotlib draws each glyph the first font
  lacks with the next, so Latin text keeps its font and no Chinese glyph is a box.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "zh_CN")
ENV = "ATTENTION_LANG"
LOCALE = Path(__file__).resolve().parent / "locale"
METADATA_KEY = "attention_steps/i18n"  # read by book/_ext/i18n_edition.py
CJK_FONT = "Noto Sans CJK SC"

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


# ----------------------------------------------------------------------------- fonts
def _cjk_font_files() -> list[str]:
    """Noto Sans CJK's files (regular and bold), from Debian's path or fontconfig."""
    folder = Path("/usr/share/fonts/opentype/noto")
    if not (folder / "NotoSansCJK-Regular.ttc").exists() and shutil.which("fc-match"):
        out = subprocess.run(
            ["fc-match", "-f", "%{file}", f"{CJK_FONT}:lang=zh-cn"], capture_output=True, text=True, check=False
        )
        if out.returncode != 0 or "CJK" not in out.stdout:
            return []
        folder = Path(out.stdout.strip()).parent
    return [str(p) for p in sorted(folder.glob("NotoSansCJK-*.tt[cf]"))]


def use_cjk_font() -> bool:
    """Let matplotlib draw Chinese: Noto Sans CJK SC as a fallback font. False if none is installed."""
    import matplotlib
    from matplotlib import font_manager

    known = {getattr(f, "fname", "") for f in font_manager.fontManager.ttflist}
    for path in _cjk_font_files():
        if path not in known:
            font_manager.fontManager.addfont(path)  # a .ttc adds every face, SC among them
    if not any(f.name == CJK_FONT for f in font_manager.fontManager.ttflist):
        return False
    # Matplotlib falls back font by font along font.family (a generic family such as
    # "sans-serif" counts as one font): the CJK font after the book's, for the glyphs it lacks.
    family = matplotlib.rcParams["font.family"]
    family = [family] if isinstance(family, str) else list(family)
    if CJK_FONT not in family:
        matplotlib.rcParams["font.family"] = [*family, CJK_FONT]
    return True


# ----------------------------------------------------------------------------- figures
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def cjk_mathtext(fig) -> None:
    """Let a label that mixes maths and Chinese ("$d_k$ = 4（标准差 2.0）") draw its Chinese.

    Matplotlib draws such a label with mathtext, which takes the words outside $…$ from
    the label's first font only (no fallback along font.family): the book's font, which
    has no Chinese, so every Chinese glyph would be a box. Those labels get the CJK font
    first (it has Latin letters and digits too); the maths keeps mathtext's fonts, and
    every other label its own font."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        s = text.get_text()
        if "$" in s and _CJK.search(s):
            text.set_fontfamily([CJK_FONT])


def _png(fig) -> tuple[str, int]:
    """The figure drawn sharp (png.sharp_png: twice its displayed width) and that width."""
    from .png import sharp_png

    png, width = sharp_png(fig)
    return base64.b64encode(png).decode("ascii"), width


def figure_bundle(build: Callable[[], object], alt: Callable[[], str] | str) -> tuple[dict, dict]:
    """Draw `build()` once per language; the display data and metadata for the current one.

    `build` makes a matplotlib Figure from data already computed (call the core
    outside it); `alt` is the alt text, or a function giving it in the current
    language. Returns (data, metadata) for IPython.display.display(..., raw=True).
    """
    import matplotlib.pyplot as plt

    use_cjk_font()  # the figures are drawn in Chinese too: a CJK fallback font
    pngs: dict[str, str] = {}
    widths: dict[str, int] = {}
    alts: dict[str, str] = {}
    for lang in LANGUAGES:
        with language(lang):
            fig = build()
            cjk_mathtext(fig)
            try:
                pngs[lang], widths[lang] = _png(fig)
            finally:
                plt.close(fig)
            alts[lang] = alt() if callable(alt) else alt
    if not all(a and a.strip() for a in alts.values()):
        raise ValueError("alt text must describe the figure for readers who cannot see it")
    here = current()
    others = {lang: pngs[lang] for lang in LANGUAGES if lang != here}
    data = {"image/png": pngs[here], "text/plain": f"<Figure: {alts[here][:60]}>"}
    metadata = {
        "image/png": {"alt": alts[here], "width": widths[here]},
        METADATA_KEY: {
            "image/png": others,
            "alt": {lang: alts[lang] for lang in LANGUAGES if lang != here},
            "width": {lang: widths[lang] for lang in LANGUAGES if lang != here},
        },
    }
    return data, metadata


# The mime prefix of a glue record, as myst_nb.ext.glue.GLUE_PREFIX spells it (tests/test_i18n_core.py
# checks they agree). Written out here because a learner's environment has the package, not myst-nb.
GLUE_MIME_PREFIX = "application/papermill.record/"


def glue_words(name: str, words: Callable[[], str]) -> None:
    """Glue (myst-nb) a phrase said in every language: `words()` is called under each
    language, the current one is the glued value (text/plain, as myst_nb.glue stores a
    string), the others travel in the output's metadata, and the Chinese edition's glue
    roles read theirs (book/_ext/i18n_glue.py). Numbers stay plain `glue(...)`."""
    from IPython.display import display

    said = {}
    for lang in LANGUAGES:
        with language(lang):
            said[lang] = words()
    if not all(isinstance(v, str) and v.strip() for v in said.values()):
        raise ValueError(f"glue_words({name!r}): words() must give a non-empty string in every language, got {said}")
    here = current()
    display(
        {GLUE_MIME_PREFIX + "text/plain": repr(said[here])},
        raw=True,
        metadata={
            "scrapbook": {"name": name, "mime_prefix": GLUE_MIME_PREFIX},
            METADATA_KEY: {"text/plain": {lang: repr(v) for lang, v in said.items() if lang != here}},
        },
    )


def translation(metadata: dict, mime: str, lang: str) -> tuple[object, dict] | None:
    """What an output said in every language shows in `lang`, for one mime type.

    `metadata` is the output's (figure_bundle, glue_words and the checker's feedback put the
    other languages under METADATA_KEY). Returns (content, the mime type's metadata to use:
    alt text and displayed width for a figure), or None when the output has nothing for `lang`
    (it is already in `lang`, or says the same in every language). One reading of the
    metadata for every edition: the book's (book/_ext/i18n_edition.py) and the slides'
    (scripts/translate_notebook.py)."""
    said = (metadata or {}).get(METADATA_KEY) or {}
    content = (said.get(mime) or {}).get(lang)
    if content is None:
        return None
    extra = dict((metadata or {}).get(mime) or {})
    for field in ("alt", "width"):  # a figure's alt text and displayed width in that language
        value = (said.get(field) or {}).get(lang)
        if value:
            extra[field] = value
    return content, extra


def show_figure(build: Callable[[], object], alt: Callable[[], str] | str) -> None:
    """Display a figure drawn in every language (see figure_bundle)."""
    from IPython.display import display

    data, metadata = figure_bundle(build, alt)
    display(data, metadata=metadata, raw=True)
