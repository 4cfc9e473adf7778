"""A figure as the PNG the book shows: drawn at twice the size it is displayed at.

Its own module so that the figures' display (`figures.show_figure`) and the plotting base
(`plotting`) use it without importing each other.
"""

from __future__ import annotations

# A figure is displayed at figure.dpi CSS pixels per inch and drawn at PIXEL_RATIO times that
# (savefig.dpi): sharp on a high-density screen and when a slide enlarges it on a projector.
# `figures.show_figure` gives the page the displayed width, half the picture's.
PIXEL_RATIO = 2


def sharp_png(fig) -> tuple[bytes, int]:
    """`fig` as a PNG drawn at PIXEL_RATIO × figure.dpi (its whitespace trimmed) and the width
    it is displayed at in CSS pixels: exactly 1/PIXEL_RATIO of the picture's (the picture is
    padded with the figure's background to a multiple of PIXEL_RATIO)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi * PIXEL_RATIO, bbox_inches="tight")
    image = Image.open(io.BytesIO(buf.getvalue()))
    w, h = image.size
    W, H = -(-w // PIXEL_RATIO) * PIXEL_RATIO, -(-h // PIXEL_RATIO) * PIXEL_RATIO
    if (W, H) != (w, h):
        padded = Image.new(image.mode, (W, H), tuple(round(255 * c) for c in fig.get_facecolor()[: len(image.mode)]))
        padded.paste(image, (0, 0))
        buf = io.BytesIO()
        padded.save(buf, format="png")
    return buf.getvalue(), W // PIXEL_RATIO
