"""An executed chapter notebook in another language, from the book's translation catalogues.

Sphinx translates the book's pages (locale/<lang>/LC_MESSAGES/book/<stem>.po); the slides
are made from the notebooks by nbconvert, which knows no catalogue. So the slides
(scripts/build_slides.py --lang zh_CN) translate the executed notebook itself, with the
same catalogues, before they convert it:

- A markdown cell is cut into the messages Sphinx's gettext builder extracts from it:
  each paragraph, heading, list item, table cell and definition, a directive's title
  and, inside a directive (a dropdown, an admonition), its own paragraphs; each as its
  MyST source with its line breaks as spaces. The cut is made by myst-parser's own
  markdown-it parser with the book's extensions, so it is the book's. Each message is
  replaced in place by its translation; the markup around it (list markers, table pipes,
  fences, maths blocks, which Sphinx does not translate either) stays.
- The deck's own words are not on the book's pages (they are tagged `remove-cell`), so
  Sphinx never sees them: the speaker notes and the slide text written for the deck
  (`is_deck_words`) have catalogues of their own, locale/<lang>/LC_MESSAGES/notes/<stem>.po,
  which `scripts/build_lang.py update` makes with the same cut (`notes_messages`) and
  checks like the book's.
- Outputs said in every language (figures, glued words, the checker's feedback; see
  editions.translation) are swapped for the language's. A Markdown output (a
  table of the core's) is translated like a cell: myst-nb parses it into the page, so its
  messages are in the page's catalogue.

A message with no translation is reported, not guessed: `translate` returns the
messages it could not translate and the slides' build stops on them.

    from scripts.translate_notebook import translate
    nb, missing = translate(executed_nb, "zh_CN", "03_scaling")
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from attention_steps.i18n import read_po
from editions import translation

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"

EXTENSIONS = ("dollarmath", "amsmath", "colon_fence", "deflist", "substitution")  # _config.yml's parse: section
# Directives whose argument is not words: a glued figure's or value's key, a code cell's language.
NOT_A_TITLE = re.compile(r"^(glue(:\w+)?|code-cell|code-block|code|math|eval-rst)$")
_DIRECTIVE = re.compile(r"^\{([\w:-]+)\}\s*(.*)$")
_OPTION = re.compile(r"^:[\w-]+:")
GLUE_RECORD = "application/papermill.record/"  # myst-nb's glue() keeps the glued data under this prefix


@dataclass(frozen=True)
class Message:
    """One translatable piece of a markdown cell: its text as a catalogue's msgid, and where it is
    (the source lines it spans, from `first`, and those lines' part of the message)."""

    msgid: str
    first: int
    lines: tuple[str, ...]


@functools.cache
def _parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(MdParserConfig(enable_extensions=set(EXTENSIONS)), RendererHTML)


def msgid(text: str) -> str:
    """A message as Sphinx's gettext builder writes it: its lines joined by spaces."""
    return re.sub(r"\s*\n\s*", " ", text).strip()


def messages(source: str, offset: int = 0) -> list[Message]:
    """The messages of a markdown cell's source, in order (see the module's docstring)."""
    found = []
    for token in _parser().parse(source):
        if token.map is None:
            continue
        start = token.map[0] + offset
        if token.type == "inline" and token.content.strip():
            found.append(Message(msgid(token.content), start, tuple(token.content.split("\n"))))
        elif token.type in ("fence", "colon_fence"):
            directive = _DIRECTIVE.match(token.info.strip())
            if not directive:
                continue  # a code block
            name, argument = directive.groups()
            if argument and not NOT_A_TITLE.match(name):
                found.append(Message(msgid(argument), start, (argument,)))
            body = token.content.split("\n")
            options = 0
            while options < len(body) and _OPTION.match(body[options]):
                options += 1
            if not NOT_A_TITLE.match(name) or name.startswith("glue"):  # a glued figure's caption is words
                found += messages("\n".join(body[options:]), start + 1 + options)
    return found


def has_words(text: str) -> bool:
    """Words to translate, not only maths, code, roles and numbers (the one test of it: the slides'
    translation and scripts/build_lang.py's catalogues, which drop the others)."""
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\\[a-zA-Z]+|\{[^}]*\}", " ", text, flags=re.DOTALL)
    return bool(re.search(r"[A-Za-z]{2,}", text))


def translate_markdown(source: str, lookup) -> tuple[str, list[str]]:
    """`source` with every message replaced by `lookup(msgid)` (None: no translation);
    returns (translated source, the messages with words that had no translation)."""
    lines = source.split("\n")
    edits: dict[int, list[tuple[int, int, str]]] = {}  # line -> (start, end, replacement)
    cursor: dict[int, int] = {}  # line -> where the next search in it starts
    missing = []
    for message in messages(source):
        translated = lookup(message.msgid)
        if translated is None or translated == message.msgid:
            if translated is None and has_words(message.msgid):
                missing.append(message.msgid)
            # still advance the cursors past this message (a table row holds several)
            translated = None
        for k, part in enumerate(message.lines):
            row = message.first + k
            part = part.strip()
            at = lines[row].find(part, cursor.get(row, 0)) if part else -1
            if at < 0:
                if part and translated is not None:
                    raise ValueError(f"translate_notebook: cannot find {part!r} in line {row + 1}: {lines[row]!r}")
                continue
            cursor[row] = at + len(part)
            if translated is not None:
                edits.setdefault(row, []).append((at, at + len(part), translated if k == 0 else ""))
    emptied = set()
    for row, changes in edits.items():
        line = lines[row]
        for start, end, text in sorted(changes, reverse=True):
            line = line[:start] + text + line[end:]
        if not line.strip():
            emptied.add(row)  # a continuation line of a message now said on its first line
        lines[row] = line
    return "\n".join(line for row, line in enumerate(lines) if row not in emptied), missing


def is_notes(cell) -> bool:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes"


# A markdown cell tagged `slide-only` (and `remove-cell`, which keeps it off the book's page) is slide
# text written for the deck: a slide says an idea in a title and a few short lines, where the page
# explains it in paragraphs (which the deck then skips: `slide_type: skip`). The learner's edition
# leaves it out, like the notes.
SLIDE_ONLY = "slide-only"


def is_slide_only(cell) -> bool:
    return SLIDE_ONLY in cell.get("metadata", {}).get("tags", [])


def is_deck_words(cell) -> bool:
    """The deck's own words, in no other edition: its speaker notes and its slide-only text."""
    return is_notes(cell) or is_slide_only(cell)


def _source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def notes_messages(nb) -> list[str]:
    """The messages of a notebook's deck words (speaker notes, slide-only text), in order, once each
    (the notes catalogue's msgids)."""
    seen: dict[str, None] = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown" and is_deck_words(cell):
            for message in messages(_source(cell)):
                if has_words(message.msgid):
                    seen.setdefault(message.msgid)
    return list(seen)


@functools.cache
def _catalogue(path: Path, mtime: float) -> dict[str, str]:
    return {msgid: msgstr for msgid, (msgstr, fuzzy) in read_po(path).items() if msgstr and not fuzzy}


def catalogue(lang: str, area: str, stem: str) -> dict[str, str]:
    """msgid -> translation of locale/<lang>/LC_MESSAGES/<area>/<stem>.po (area: book or notes);
    fuzzy messages are not translations yet."""
    path = LOCALE / lang / "LC_MESSAGES" / area / f"{stem}.po"
    return _catalogue(path, path.stat().st_mtime) if path.exists() else {}


def translate_outputs(cell, lang: str) -> None:
    """The cell's outputs in `lang` where they carry it (editions.translation)."""
    for output in cell.get("outputs", []):
        data, metadata = output.get("data"), output.get("metadata") or {}
        if not data:
            continue
        for key in list(data):
            mime = key.removeprefix(GLUE_RECORD)
            found = translation(metadata, mime, lang)
            if found is not None:
                data[key] = found[0]
                if found[1] and key == mime:
                    output.setdefault("metadata", {})[mime] = found[1]


def translate(nb, lang: str, stem: str) -> tuple[object, list[str]]:
    """A copy of executed notebook `nb` (chapter `stem`) in `lang`; and its untranslated messages."""
    nb = copy.deepcopy(nb)
    book, notes = catalogue(lang, "book", stem), catalogue(lang, "notes", stem)
    missing = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            table = notes if is_deck_words(cell) else book
            cell["source"], lost = translate_markdown(_source(cell), table.get)
            missing += lost
        elif cell["cell_type"] == "code":
            translate_outputs(cell, lang)
            for output in cell.get("outputs", []):  # a table the core writes as Markdown: the page's messages
                data = output.get("data") or {}
                for key in [k for k in data if k.removeprefix(GLUE_RECORD) == "text/markdown"]:  # shown or glued
                    text = data[key] if isinstance(data[key], str) else "".join(data[key])
                    data[key], lost = translate_markdown(text, book.get)
                    missing += lost
    return nb, missing


class Untranslated(SystemExit):
    """An edition in another language has messages its catalogues do not translate."""


def translated(nb, lang: str, stem: str, who: str):
    """Executed notebook `nb` (chapter `stem`) in `lang` for the builder `who` (its name starts the message);
    English as it is; stops with `Untranslated` on a message with no translation."""
    if lang == "en":
        return nb
    nb, missing = translate(nb, lang, stem)
    if missing:
        raise Untranslated(
            f"{who}: {stem} has {len(missing)} messages with no {lang} translation (run "
            f"`python -m scripts.build_lang update {lang}` and translate them in locale/{lang}/LC_MESSAGES/): "
            + "; ".join(repr(m[:70]) for m in missing[:5])
        )
    return nb
