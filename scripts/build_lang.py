"""Build the book in another language, and keep its translation catalogues up to date.

    .venv/bin/python -m scripts.build_lang html zh_CN     # the Chinese edition into _build/html/zh_CN/
    .venv/bin/python -m scripts.build_lang gettext [DIR]  # message templates (.pot) into _build/gettext/ (or DIR)
                                                          # (the pages' in book/, the speaker notes' in notes/)
    .venv/bin/python -m scripts.build_lang update zh_CN   # gettext, then merge into locale/zh_CN/**/*.po
    .venv/bin/python -m scripts.build_lang status zh_CN   # translated / fuzzy / untranslated per catalogue
    .venv/bin/python -m scripts.build_lang check zh_CN    # every translation keeps its message's markup

scripts/build.sh runs `html` for every language in $ATTENTION_LANGS after the English
book (default "en zh_CN"; `ATTENTION_LANGS=en bash scripts/build.sh` builds English
only).

One execution for both editions: the same Sphinx configuration as the English build
(Jupyter Book reads _config.yml for both), with `language` set and the execution
cache pointed at the English build's (_build/.jupyter_cache). The English build runs
first and fills the cache, so this build executes nothing; if a notebook is missing
from the cache (the English build was skipped or failed), this one stops rather than
run it a second time. Its doctrees live apart (_build/.doctrees-<lang>), since
the same page reads differently in each language.

Incremental like the English build: a fingerprint of everything it reads (the
English book's fingerprint, the catalogues) is recorded after a successful build,
and the next build skips Sphinx when nothing changed.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
LOCALE = ROOT / "locale"


def _stamp(lang: str) -> Path:
    return BUILD / f".book-inputs-{lang}.sha256"


def fingerprint(lang: str) -> str:
    """The English book's inputs (scripts/book_fingerprint.py) plus this language's
    catalogues and this script; built pages of this language must exist."""
    from scripts import book_fingerprint

    h = hashlib.sha256(book_fingerprint.fingerprint().encode())
    h.update(Path(__file__).read_bytes())
    for path in sorted((LOCALE / lang).rglob("*")):
        if path.is_file() and path.suffix != ".mo":
            h.update(str(path.relative_to(ROOT)).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    out = BUILD / "html" / lang
    pages = [out / "index.html"] + [out / f"{p}.html" for p in book_fingerprint._toc_pages()]
    h.update("\n".join(f"{p.relative_to(BUILD)} {p.exists()}" for p in pages).encode())
    return h.hexdigest()


def _sphinx(builder: str, outdir: Path, doctrees: Path, overrides: dict) -> int:
    from jupyter_book.sphinx import build_sphinx

    overrides = {
        # what `jupyter-book build . -n` passes
        "external_toc_path": str(ROOT / "_toc.yml"),
        "latex_individualpages": False,
        "nitpicky": True,
        # the English build's cache: one execution of each notebook for every edition
        "nb_execution_cache_path": str(BUILD / ".jupyter_cache"),
        **overrides,
    }
    result = build_sphinx(
        ROOT,
        outdir,
        noconfig=True,
        path_config=str(ROOT / "_config.yml"),
        confoverrides=overrides,
        doctreedir=doctrees,
        builder=builder,
        warningiserror=True,
        keep_going=True,
        quiet=True,
    )
    return 0 if result == 0 else 1


def build_html(lang: str) -> int:
    if not (LOCALE / lang / "LC_MESSAGES").is_dir():
        print(f"build_lang: no catalogues for {lang!r} under {LOCALE.relative_to(ROOT)}/", file=sys.stderr)
        return 1
    stamp = _stamp(lang)
    if stamp.exists() and stamp.read_text().strip() == fingerprint(lang):
        print(f"build_lang: nothing the {lang} edition reads changed since its last build; Sphinx skipped")
        return 0
    stamp.unlink(missing_ok=True)
    doctrees = BUILD / f".doctrees-{lang}"
    # "off" would drop outputs; "cache" with a full cache executes nothing. A notebook
    # missing from the cache would run here: i18n_edition refuses that (one execution).
    status = _sphinx("html", BUILD / "html" / lang, doctrees, {"language": lang, "i18n_require_cached": True})
    if status:
        import shutil

        shutil.rmtree(doctrees, ignore_errors=True)  # see build.sh: a failed page must be read again
        print(f"build_lang: the {lang} edition did not build; see the messages above", file=sys.stderr)
        return status
    stamp.write_text(fingerprint(lang) + "\n")
    return 0


def gettext(out: Path = BUILD / "gettext") -> int:
    """The message templates into `out` (its doctrees beside it: two runs into two folders do not
    clash, as the tests' parallel workers may run it at once)."""
    status = _sphinx("gettext", out, out.parent / f".doctrees-{out.name}", {})
    if not status:
        notes_templates(out / "notes")
        from scripts.slides.lesson import template

        template(out)  # the 90-minute lesson's words: locale/<lang>/LC_MESSAGES/lesson.po
    return status


def notes_templates(folder: Path) -> list[Path]:
    """One template per deck of its own words' messages, speaker notes and slide-only text
    (folder/<stem>.pot): the book's pages do not show them, so Sphinx does not extract them; the slides translate them from
    locale/<lang>/LC_MESSAGES/notes/<stem>.po (scripts/translate_notebook.py)."""
    import json

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from scripts.slides.chapters import chapters
    from scripts.translate_notebook import notes_messages

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in chapters():
        catalogue = Catalog(project="Attention, Step by Step: speaker notes", fuzzy=False)
        for message in notes_messages(json.loads(path.read_text(encoding="utf-8"))):
            catalogue.add(message, locations=[(str(path.relative_to(ROOT)), 0)])
        target = folder / f"{path.stem}.pot"
        with target.open("wb") as f:
            write_po(f, catalogue, width=100, omit_header=False)
        written.append(target)
    return written


def nothing_to_translate(msgid: str) -> bool:
    """Maths, code, numbers and symbols only (a formula, the shapes in the notation table, a
    measured time in a glued table): Sphinx shows such a message as it is. A display formula is
    one of these even with words in it (\\text{ weights}): Sphinx drops a translated maths block
    from the page (measured with this stack), so it stays as written."""
    from scripts.translate_notebook import has_words

    return not has_words(msgid)


def update(lang: str) -> int:
    """gettext, sphinx-intl update, then drop the messages with nothing to translate (computed
    numbers change from run to run and would churn the catalogues)."""
    from babel.messages.pofile import read_po, write_po

    status = gettext()
    if status:
        return status
    status = subprocess.call(
        [
            str(Path(sys.executable).parent / "sphinx-intl"),
            "update",
            "-p",
            str(BUILD / "gettext"),
            "-d",
            str(LOCALE),
            "-l",
            lang,
            "-w",
            "100",
        ],
        cwd=ROOT,
    )
    if status:
        return status
    for po in sorted((LOCALE / lang / "LC_MESSAGES").rglob("*.po")):
        with po.open("rb") as f:
            catalogue = read_po(f)
        drop = [m.id for m in catalogue if m.id and nothing_to_translate(m.id)]
        for msgid in drop:
            del catalogue[msgid]
        # Babel flags "50 % of" as python-format and "{x}" as python-brace-format; Sphinx
        # formats neither, and `msgfmt --check-format` then rejects a correct translation.
        for m in catalogue:
            m.flags -= {"python-format", "python-brace-format"}
        with po.open("wb") as f:
            write_po(f, catalogue, width=100, ignore_obsolete=False)
    return 0


# What a translation must carry over unchanged: glued numbers and other roles, maths,
# code, link targets. A translation that drops `{glue:text}`ch3_dk`` loses a number.
# words in maths ("\\text{ weights}"), not a name in a subscript (d_{\\text{model}})
_TEXT = re.compile(r"(?<![_^]\{)\\text\{([^{}]*)\}")
_ROLE = re.compile(r"\{[A-Za-z][\w:-]*\}`[^`]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]+\$", re.DOTALL)
_CODE = re.compile(r"`[^`]+`")
_TARGET = re.compile(r"\]\(([^)\s]+)\)|<(https?://[^>]+)>")


def markup(text: str) -> list[str]:
    """The pieces of `text` a translation keeps verbatim, sorted: roles (glue, doc, ref ...),
    maths, code spans and link targets."""
    # A cross-reference's link text is translated ({doc}`第 3 章 <03_scaling>`): its target is kept.
    found = [re.sub(r"`.*<([^<>]+)>`$", r"`<\1>`", r) if not r.startswith("{glue") else r for r in _ROLE.findall(text)]
    text = _ROLE.sub(" ", text)
    # maths is kept verbatim but for the words of its \\text{...}, which are translated
    found += [_TEXT.sub(r"\\text{}", m) for m in _MATH.findall(text)]
    text = _MATH.sub(" ", text)
    found += _CODE.findall(text)
    found += [a or b for a, b in _TARGET.findall(text)]
    return sorted(found)


def markup_mismatches(lang: str) -> list[str]:
    """One line per translated message whose markup differs from its English message's."""
    from babel.messages.pofile import read_po

    problems = []
    for po in sorted((LOCALE / lang / "LC_MESSAGES").rglob("*.po")):
        with po.open("rb") as f:
            catalogue = read_po(f)
        for m in catalogue:
            if not (m.id and m.string) or m.fuzzy:
                continue
            english, translated = markup(m.id), markup(m.string)
            if english != translated:
                lost = sorted(set(english) - set(translated)) or english
                added = sorted(set(translated) - set(english)) or translated
                problems.append(
                    f"{po.relative_to(LOCALE / lang / 'LC_MESSAGES')}:{m.lineno}: "
                    f"the English has {lost}, the translation {added} ({m.id[:60]!r})"
                )
    return problems


def check(lang: str) -> int:
    problems = markup_mismatches(lang)
    for line in problems:
        print(line)
    print(f"build_lang: {len(problems)} translations change their message's markup", file=sys.stderr)
    return 1 if problems else 0


def status(lang: str) -> int:
    from babel.messages.pofile import read_po

    for po in sorted((LOCALE / lang / "LC_MESSAGES").rglob("*.po")):
        with po.open("rb") as f:
            cat = read_po(f)
        msgs = [m for m in cat if m.id]
        done = sum(1 for m in msgs if m.string and not m.fuzzy)
        fuzzy = sum(1 for m in msgs if m.fuzzy)
        print(f"{po.relative_to(LOCALE / lang / 'LC_MESSAGES')}: {done}/{len(msgs)} translated, {fuzzy} fuzzy")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) in (2, 3) and argv[1] == "gettext":
        return gettext(Path(argv[2]).resolve()) if len(argv) == 3 else gettext()
    if len(argv) == 3 and argv[1] in {"html", "update", "status", "check"}:
        return {"html": build_html, "update": update, "status": status, "check": check}[argv[1]](argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
