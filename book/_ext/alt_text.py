"""Alt text computed in a notebook reaches the built page.

myst-nb takes an image's alt text only from static cell metadata
(`mystnb: image: alt:`) and ignores the `alt` a cell puts in its output's
metadata, e.g. `display(fig, metadata={"image/png": {"alt": ...}})`, which is
what `attention_steps.figures.show_figure` does so alt text can name computed shapes and
values. This wraps myst-nb's image renderer to honour that too.
"""

from __future__ import annotations

from myst_nb.core.render import NbElementRenderer


def _with_output_alt(render_image):
    def render(self, data):
        nodes = render_image(self, data)
        alt = data.output_metadata.get(data.mime_type, {}).get("alt")
        if alt:
            for node in nodes:
                node["alt"] = str(alt)
        return nodes

    render.__wrapped__ = render_image
    return render


def setup(app):
    if not hasattr(NbElementRenderer.render_image, "__wrapped__"):
        NbElementRenderer.render_image = _with_output_alt(NbElementRenderer.render_image)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
