"""nbconvert's reveal.js exporter with our template (template/), every asset served from the deck's vendor/."""

from __future__ import annotations

from . import HERE
from .notebook import REMOVE_CELL, REMOVE_INPUT, REMOVE_OUTPUT

# Slide size: 16:9, as classroom projectors are. Reveal scales it to the screen.
REVEAL = {"theme": "white", "transition": "fade", "number": "c/t", "width": "1280", "height": "720"}


def exporter():
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    c = Config()
    c.SlidesExporter.extra_template_basedirs = [str(HERE)]
    c.SlidesExporter.template_name = "template"
    c.SlidesExporter.reveal_url_prefix = "vendor/reveal.js"
    c.SlidesExporter.reveal_theme = REVEAL["theme"]
    c.SlidesExporter.reveal_transition = REVEAL["transition"]
    c.SlidesExporter.reveal_number = REVEAL["number"]
    c.SlidesExporter.reveal_width = REVEAL["width"]
    c.SlidesExporter.reveal_height = REVEAL["height"]
    c.SlidesExporter.mathjax_url = "vendor/mathjax2/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    c.SlidesExporter.jquery_url = "vendor/jquery.min.js"
    c.SlidesExporter.require_js_url = "vendor/require.js"
    c.SlidesExporter.widget_renderer_url = "vendor/html-manager/embed-amd.js"
    c.SlidesExporter.exclude_input_prompt = True
    c.SlidesExporter.exclude_output_prompt = True
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = REMOVE_CELL
    c.TagRemovePreprocessor.remove_input_tags = REMOVE_INPUT
    c.TagRemovePreprocessor.remove_all_outputs_tags = REMOVE_OUTPUT
    return SlidesExporter(config=c)


def export(exp, nb, title: str) -> str:
    """The deck's HTML."""
    nb.metadata["title"] = title
    body, _ = exp.from_notebook_node(nb, resources={"metadata": {"name": title}})
    return body
