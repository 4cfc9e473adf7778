"""The book in two languages from one source.

The English book is built into _build/html/, the Chinese one (language=zh_CN,
scripts/build_lang.py) into _build/html/zh_CN/, both from the same notebooks and
the same execution cache. This extension gives both editions:

- a language switch in every page's header: a plain link (so it works with the
  keyboard and without JavaScript) to the same page in the other language;
- ``<html lang>`` as a language tag ("zh-CN"), not Sphinx's "zh_CN";
- on a Chinese page whose catalogue is not declared complete
  (locale/zh_CN/complete.txt) a notice that the page is not translated yet; its
  untranslated paragraphs show the English text;
- for a translated edition: the notebooks' outputs (images) written to the English
  build's _build/jupyter_execute, and a check that every notebook comes from the
  execution cache (``i18n_require_cached``): one execution serves both editions;
- figures drawn in both languages in one execution (book/editions.py, attention_steps.figures.show_figure
  puts the translated PNGs in the output's metadata): a translated edition shows
  its own language's PNG, with the same numbers, since it is the same figure;
- a translated edition's launch buttons (Binder, Colab) open its own learner
  notebooks: `<lang>/book/NN.ipynb` on the `learner` branch (scripts/build_learner.py
  --lang puts them in _build/learner/<lang>/, which the Pages workflow pushes there);
- a translated edition's interface in its own language: the theme's, Sphinx's and
  myst-nb's words (``THEME_WORDS``, ``CONFIG_WORDS``) from the production's catalogue.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Path(__file__).resolve().parent / "templates"
# Every edition: (Sphinx language, BCP 47 tag, the language's own name, output folder under _build/html).
EDITIONS = [("en", "en", "English", ""), ("zh_CN", "zh-CN", "中文", "zh_CN")]


def _edition(lang: str | None):
    for edition in EDITIONS:
        if edition[0] == (lang or "en"):
            return edition
    raise ValueError(f"i18n_edition: language {lang!r} is not one of {[e[0] for e in EDITIONS]}")


def complete_documents(lang: str) -> list[str]:
    """The documents whose catalogue for `lang` is declared complete (locale/<lang>/complete.txt)."""
    path = ROOT / "locale" / lang / "complete.txt"
    if not path.exists():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def twin_href(pagename: str, this_lang: str, other_lang: str) -> str:
    """The relative link from `pagename` in one edition to the same page in another."""
    _, _, _, here = _edition(this_lang)
    _, _, _, there = _edition(other_lang)
    up = "../" * (pagename.count("/") + (1 if here else 0))
    return f"{up}{there + '/' if there else ''}{pagename}.html"


@cache
def _catalogue(lang: str, docname: str, mtime: float) -> dict[str, str]:
    """The usable translations of `docname`'s catalogue (an entry with a msgctxt is keyed apart, as
    attention_steps.i18n.read_po keys it, so it never stands in for the plain message)."""
    from attention_steps.i18n import read_po

    entries = read_po(ROOT / "locale" / lang / "LC_MESSAGES" / f"{docname}.po")
    return {msgid: msgstr for msgid, (msgstr, fuzzy) in entries.items() if msgstr and not fuzzy}


def _translated(lang: str, docname: str, message: str) -> str:
    """`message` as the catalogue of `docname` translates it (the message itself if it does not)."""
    path = ROOT / "locale" / lang / "LC_MESSAGES" / f"{docname}.po"
    if not path.exists():
        return message
    return _catalogue(lang, docname, path.stat().st_mtime).get(message, message)


def _translate_toc_captions(app, doctree) -> None:
    """The parts' captions (_toc.yml) in the root page's catalogue: sphinx-external-toc inserts
    the toctrees after Sphinx has translated the page, so Sphinx leaves them in English."""
    from sphinx import addnodes

    lang = app.config.language or "en"
    if lang == "en":
        return
    for node in doctree.findall(addnodes.toctree):
        if node.get("caption"):
            node["caption"] = _translated(lang, app.env.docname, node["caption"])


def N_(message: str) -> str:
    """Marks a message for the production's catalogue (locale/<lang>/chrome.po); returns it as is."""
    return message


# The interface's words that the installed catalogues leave in English on a Chinese page, or give in
# another usage: Sphinx 7.4's and pydata-sphinx-theme's zh catalogues have no "Link to this heading",
# "Color mode", "System Settings"; sphinx-book-theme's zh_CN has none of its header buttons' words and
# "列印成 PDF" (Taiwan's usage) for "Print to PDF"; its sidebar toggles are hard-coded English
# (executablebooks/sphinx-book-theme#998: templates/theme/ marks them for translation). Ours come
# first, the installed catalogues after them: tests/test_reader_chinese.py finds none of these in
# English on a Chinese page and tells when an upstream catalogue has them all.
THEME_WORDS = (
    N_("Link to this heading"),
    N_("Color mode"),
    N_("System Settings"),
    N_("Print to PDF"),
    N_("Source repositories"),
    N_("Repository"),
    N_("Open issue"),
    N_("Launch interactive content"),
    N_("Launch on"),
    N_("logo"),
    N_("Toggle primary sidebar"),
    N_("Toggle secondary sidebar"),
)
# The configuration's words a page shows: {option: English}, _config.yml's (or jupyter-book's) values.
# myst-nb's prompts are "Show code cell {type}" with {type} filled in English: the book hides code
# cells' source only (hide-input), so a translated edition names that.
CONFIG_WORDS = {
    "author": N_("The Attention, Step by Step authors"),
    "nb_code_prompt_show": N_("Show code cell source"),
    "nb_code_prompt_hide": N_("Hide code cell source"),
    "html_theme_options.search_bar_text": N_("Search this book..."),
}


class _Words:
    """A gettext translator that looks in `words` first, then in the translator it falls back to."""

    def __init__(self, words: dict[str, str], fallback):
        self._words, self._fallback = words, fallback

    def gettext(self, message):
        return self._words.get(message) or self._fallback.gettext(message)

    def ngettext(self, singular, plural, n):
        return self._fallback.ngettext(singular, plural, n)

    def __getattr__(self, name):  # pgettext, npgettext, info, charset ...
        return getattr(self._fallback, name)


def _translate_interface(app, config) -> None:
    """A translated edition's interface words: our catalogue's ahead of Sphinx's and the themes'
    (for the templates too, which take `app.translator` when the builder starts), and the
    configuration's words translated."""
    lang = config.language or "en"
    if lang == "en":
        return
    from sphinx import locale

    from scripts.chrome import catalogue

    words = {k: v for k, v in catalogue(lang).items() if k in THEME_WORDS}
    for domain in ("sphinx", "booktheme"):
        prior = locale.translators.get(("general", domain)) or locale.NullTranslations()
        locale.translators["general", domain] = _Words(words, prior)
    app.translator = locale.translators["general", "sphinx"]
    translated = catalogue(lang)
    for option, english in CONFIG_WORDS.items():
        if option.startswith("html_theme_options."):
            config.html_theme_options[option.split(".", 1)[1]] = translated.get(english, english)
        else:
            setattr(config, option, translated.get(english, english))


def _translate_title(app, config) -> None:
    lang = config.language or "en"
    if lang != "en" and config.html_title:
        # the book's title, as the root page's catalogue translates its heading
        config.html_title = _translated(lang, config.root_doc, config.html_title)


def _config_inited(app, config) -> None:
    config.templates_path.append(str(TEMPLATES))
    config.templates_path.insert(0, str(TEMPLATES / "theme"))  # ahead of the themes' own components
    config.html_static_path.append(str(Path(__file__).resolve().parent / "static"))
    options = config.html_theme_options
    end = list(options.get("article_header_end") or ["article-header-buttons.html"])
    if "lang-switch.html" not in end:
        end.insert(0, "lang-switch.html")
    options["article_header_end"] = end
    _, _, _, there = _edition(config.language)
    if there:  # the launch buttons open <path_to_docs>/<pagename>.ipynb: this edition's learner notebooks
        options["path_to_docs"] = "/".join(p for p in (there, (options.get("path_to_docs") or "").strip("/")) if p)


def _page_script_strings(app) -> None:
    """The words book/assets/book.js puts on the page (its tr("…") calls), in this edition's
    language, from the production's catalogue (locale/<lang>/chrome.po): an inline script before it sets ATTENTION_STRINGS."""
    import json

    lang = app.config.language or "en"
    if lang == "en":
        return
    from scripts.chrome import catalogue

    script = (ROOT / "book" / "assets" / "book.js").read_text(encoding="utf-8")
    wanted = set(re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', script))
    strings = {k: v for k, v in catalogue(lang).items() if k in wanted}
    app.add_js_file(None, body=f"window.ATTENTION_STRINGS = {json.dumps(strings, ensure_ascii=False)};", priority=400)


def _builder_inited(app) -> None:
    _page_script_strings(app)
    lang = app.config.language or "en"
    if lang == "en" or not hasattr(app.env, "mystnb_config"):
        return
    # myst-nb writes outputs to <outdir>/../jupyter_execute, i.e. _build/html/jupyter_execute
    # for this edition: use the English build's folder beside the shared cache instead.
    cache = Path(app.env.mystnb_config.execution_cache_path)
    app.env.mystnb_config = app.env.mystnb_config.copy(output_folder=str(cache.parent / "jupyter_execute"))


def _require_cached(app, env, docnames) -> None:
    """A translated edition executes nothing: every notebook it reads must be in the cache."""
    if not app.config.i18n_require_cached:
        return
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(env.mystnb_config.execution_cache_path)
    missing = []
    for docname in docnames:
        path = Path(env.doc2path(docname))
        if path.suffix != ".ipynb":
            continue
        try:
            cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            missing.append(str(path.relative_to(ROOT)))
    if missing:
        raise RuntimeError(
            "i18n_edition: not in the execution cache (build the English book first, "
            f"bash scripts/build.sh): {', '.join(missing)}"
        )


def _switch_context(app, pagename, templatename, context, doctree) -> None:
    """The switch's links and the page's language tag. Early (priority 100): the PyData theme
    drops header templates that render empty, and renders them to find out."""
    lang = app.config.language or "en"
    _, tag, _, _ = _edition(lang)
    context["language"] = tag  # <html lang="zh-CN">
    links = []
    for other, other_tag, name, _ in EDITIONS:
        if other == lang:
            continue
        href = html.escape(twin_href(pagename, lang, other))
        links.append(f'<a class="lang-switch__link" href="{href}" hreflang="{other_tag}" lang="{other_tag}">{name}</a>')
    context["lang_switch_links"] = links


def _page_context(app, pagename, templatename, context, doctree) -> None:
    lang = app.config.language or "en"
    body = context.get("body")
    if lang != "en" and body and pagename in app.env.all_docs and pagename not in complete_documents(lang):
        notice = (
            '<div class="admonition note i18n-untranslated" lang="zh-CN"><p>本页尚未译成中文，'
            "下面是英文原文；数字和图与英文版相同。</p></div>\n"
        )
        context["body"] = notice + body


def _edition_language(document) -> str | None:
    """The language of the edition a document is read for (None outside Sphinx)."""
    env = getattr(document.settings, "env", None)
    return env.config.language if env is not None else None


def _patch_render_image() -> None:
    """A translated edition shows an output in its own language when the output carries it
    (editions.translation): the PNG drawn for its language with that language's
    alt text and width, and the text and HTML of the checker's feedback (exercises.Feedback)."""
    from myst_nb.core.render import NbElementRenderer

    if getattr(NbElementRenderer.render_image, "_i18n", False):
        return
    for name in ("render_image", "render_text_plain", "render_text_html"):
        setattr(NbElementRenderer, name, _translated_output(getattr(NbElementRenderer, name)))


def _translated_output(original):
    """A renderer of one mime type that shows the output's translation for the edition's language."""
    from dataclasses import replace

    from editions import translation

    def render(self, data):
        lang = _edition_language(self.renderer.document)
        found = translation(data.output_metadata, data.mime_type, lang) if lang else None
        if found is not None:
            content, extra = found
            data = replace(data, content=content, output_metadata={**data.output_metadata, data.mime_type: extra})
        return original(self, data)

    render._i18n = True
    return render


def _patch_glue_words() -> None:
    """A translated edition reads the phrases glued in its language (editions.glue_words
    puts them in the output's metadata), in glue roles and directives alike."""
    from dataclasses import replace

    from myst_nb.ext.glue import directives, roles

    from editions import translation

    original = roles.retrieve_glue_data
    if getattr(original, "_i18n", False):
        return

    def retrieve_glue_data(document, key):
        result = original(document, key)
        lang = _edition_language(document)
        found = translation(result.metadata or {}, "text/plain", lang) if lang else None
        if found is not None:
            result = replace(result, data={**result.data, "text/plain": found[0]})
        return result

    retrieve_glue_data._i18n = True
    roles.retrieve_glue_data = directives.retrieve_glue_data = retrieve_glue_data


def setup(app):
    import sys

    sys.path.insert(0, str(ROOT / "book"))  # the core, and how an output carries its translations (editions)
    sys.path.insert(0, str(ROOT))  # the production's words (scripts.chrome)
    app.add_config_value("i18n_require_cached", False, "env")
    # Sphinx does not see a change to an extension's code: this one's source and template are
    # part of the configuration, so a change to them rewrites every page (the switch is in each).
    # So is the list of complete documents: a page that joins it loses its "not translated" notice.
    import hashlib

    sources = [Path(__file__), TEMPLATES / "lang-switch.html", Path(__file__).resolve().parent / "static" / "i18n.css"]
    sources += sorted((ROOT / "locale").glob("*/complete.txt"))
    app.add_config_value(
        "i18n_edition_source", hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest(), "html"
    )
    # the header's items: before the theme reads its options
    app.connect("config-inited", _config_inited)
    app.connect("config-inited", _translate_interface)
    app.connect("config-inited", _translate_title, priority=900)  # after sphinx_external_toc sets root_doc
    app.connect("builder-inited", _builder_inited, priority=900)  # after myst-nb's
    app.connect("env-before-read-docs", _require_cached)
    app.connect("doctree-read", _translate_toc_captions)
    app.add_css_file("i18n.css")
    app.connect("html-page-context", _switch_context, priority=100)
    app.connect("html-page-context", _page_context, priority=600)  # after slides_link
    _patch_render_image()
    _patch_glue_words()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
