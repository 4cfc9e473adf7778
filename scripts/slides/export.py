"""nbconvert's reveal.js exporter with our template (template/), every asset served from the slides' vendor/.

A language's decks other than English sit in a folder of their own (slides.folder) and load
the same vendor/, one folder up; their `<html lang>` is the language's tag (zh-CN)."""

from __future__ import annotations

from . import HERE, _, language, up
from .notebook import REMOVE_CELL, REMOVE_INPUT, REMOVE_OUTPUT

# Slide size: 16:9, as classroom projectors are. Reveal scales it to the screen.
REVEAL = {"theme": "white", "transition": "fade", "number": "c/t", "width": "1280", "height": "720"}


def vendor(lang: str) -> str:
    """Where a deck of `lang` finds the slides' vendor/ folder."""
    return up(lang) + "vendor"


def exporter(lang: str = "en"):
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    assets = vendor(lang)
    c = Config()
    c.SlidesExporter.extra_template_basedirs = [str(HERE)]
    c.SlidesExporter.template_name = "template"
    c.SlidesExporter.reveal_url_prefix = f"{assets}/reveal.js"
    c.SlidesExporter.reveal_theme = REVEAL["theme"]
    c.SlidesExporter.reveal_transition = REVEAL["transition"]
    c.SlidesExporter.reveal_number = REVEAL["number"]
    c.SlidesExporter.reveal_width = REVEAL["width"]
    c.SlidesExporter.reveal_height = REVEAL["height"]
    c.SlidesExporter.mathjax_url = f"{assets}/mathjax2/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    c.SlidesExporter.jquery_url = f"{assets}/jquery.min.js"
    c.SlidesExporter.require_js_url = f"{assets}/require.js"
    c.SlidesExporter.widget_renderer_url = f"{assets}/html-manager/embed-amd.js"
    c.SlidesExporter.exclude_input_prompt = True
    c.SlidesExporter.exclude_output_prompt = True
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = REMOVE_CELL
    c.TagRemovePreprocessor.remove_input_tags = REMOVE_INPUT
    c.TagRemovePreprocessor.remove_all_outputs_tags = REMOVE_OUTPUT
    return SlidesExporter(config=c)


def export(exp, nb, title: str, lang: str = "en") -> str:
    """The deck's HTML (the template's own assets from `vendor(lang)`, as the exporter's), `<html lang>` the
    language's tag. nbconvert's `language_code` takes ISO 639-1 codes only ("zh", not "zh-CN", which
    Chromium needs to pick the Simplified Chinese glyphs): the tag is set here instead."""
    nb.metadata["title"] = title
    with language(lang):  # what a slider in a deck says of its keys (locale/<lang>/chrome.po translates it)
        keys = _(
            "In the slides, ↑ and ↓ (or + and −) move this slider; Page Down, Space and → go to the next slide, "
            "Esc opens the overview."
        )
        dark_key = _("Dark theme (on and off)")  # reveal's help (press ?) lists the key
    resources = {
        "metadata": {"name": title},
        "vendor": vendor(lang),
        "language": lang,
        "slider_keys": keys,
        "dark_key": dark_key,
    }
    body, _resources = exp.from_notebook_node(nb, resources=resources)
    return body.replace('<html lang="en">', f'<html lang="{lang.replace("_", "-")}">', 1)
