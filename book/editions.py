"""The book's production inside its notebooks' kernels: what one execution records so that every
edition is made from it (the English and Chinese pages, the decks, the handouts, the learner's
notebooks).

A chapter's first cell imports its glue from here (``from editions import glue, glue_words``),
which also makes every figure the chapter shows drawn in every language. None of this is in the
pip package (attention_steps): a learner's notebook runs without it, as the learner edition's
build replaces that import with small stand-ins (scripts/build_learner.py).

- ``glue(name, value, display=False)`` is myst-nb's: a number the page's text shows.
- ``glue_words(name, words)`` glues a phrase said in every language: ``words()`` is called
  under each language; the current one is the glued value (text/plain, as myst_nb.glue stores
  a string), the others travel in the output's metadata, and the Chinese edition's glue roles
  read theirs (book/_ext/i18n_edition.py).
- Figures: ``attention_steps.figures.show_figure(build, alt)`` draws ``build()`` under each
  language (`figure_bundle`) and displays the current language's PNG with the others in the
  output's metadata; the Chinese edition shows the Chinese PNG, with its alt text and width.
- ``translation(metadata, mime, lang)`` reads an output's other languages back: one reading
  for every edition (book/_ext/i18n_edition.py for the pages, scripts/translate_notebook.py for
  the decks and the learner's Chinese notebooks).
"""

from __future__ import annotations

from collections.abc import Callable

from myst_nb import glue  # noqa: F401  (re-exported: a chapter imports its glue from here)

from attention_steps import figures
from attention_steps.i18n import LANGUAGES, METADATA_KEY, current, language

# The mime prefix of a glue record, as myst_nb.ext.glue.GLUE_PREFIX spells it (tests/test_i18n_core.py
# checks they agree).
GLUE_MIME_PREFIX = "application/papermill.record/"


def figure_bundle(build: Callable[[], object], alt: Callable[[], str] | str) -> tuple[dict, dict]:
    """Draw `build()` once per language; the display data and metadata for the current one.

    `build` makes a matplotlib Figure from data already computed (call the core outside it);
    `alt` is the alt text, or a function giving it in the current language. Returns (data,
    metadata) for IPython.display.display(..., raw=True)."""
    figures.use_cjk_font()  # the figures are drawn in Chinese too: a CJK fallback font
    drawn = {}
    for lang in LANGUAGES:
        with language(lang):
            drawn[lang] = figures.drawn(build, alt)  # (png, width, alt)
    here = current()
    others = [lang for lang in LANGUAGES if lang != here]
    data, metadata = figures.bundle(*drawn[here])
    metadata[METADATA_KEY] = {
        "image/png": {lang: drawn[lang][0] for lang in others},
        "width": {lang: drawn[lang][1] for lang in others},
        "alt": {lang: drawn[lang][2] for lang in others},
    }
    return data, metadata


def show_in_every_language(build: Callable[[], object], alt: Callable[[], str] | str) -> None:
    """Display a figure drawn in every language (see figure_bundle)."""
    from IPython.display import display

    data, metadata = figure_bundle(build, alt)
    display(data, metadata=metadata, raw=True)


figures.draw_with(show_in_every_language)


def glue_words(name: str, words: Callable[[], str]) -> None:
    """Glue (myst-nb) a phrase said in every language (see the module's docstring). Numbers stay
    plain `glue(...)`."""
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
    (it is already in `lang`, or says the same in every language)."""
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
