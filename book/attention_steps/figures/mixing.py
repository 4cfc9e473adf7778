"""Chapter 5's figures (mixing): each output as stacked pieces of the value rows, and the
convex hull every output lands in.

The drawing functions return a matplotlib Figure; the `show_` ones are what the chapter
calls, one line per figure: each draws its figure and says what it shows (the alt text, in
the current language) from the same numbers (`figures.show_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from ..i18n import _
from ..palette import OKABE_ITO, key_colour
from . import show_figure
from .plotting import matrix_equation, stacked_bars


def contribution_bars(A, V, tokens: Sequence[str], *, value_name: str = "v", output_name: str = "z"):
    """Each value row v_j as bars, then each output z_i = Σ_j a_ij v_j as stacked bars
    whose pieces a_ij v_j keep key j's colour. A (n, n_k), V (n_k, d_v); small n only.
    Returns the Figure."""
    A, V = np.asarray(A, dtype=float), np.asarray(V, dtype=float)
    n_q, n_k = A.shape
    d_v = V.shape[1]
    colours = [key_colour(j) for j in range(n_k)]
    fig, axes = plt.subplots(1, n_k + n_q, figsize=(min(6.4, 1.5 * (n_k + n_q) + 0.4), 2.9), sharey=True)
    x = np.arange(d_v)
    low, high = min(0.0, V.min()), max(0.0, V.max())
    for j, ax in enumerate(axes[:n_k]):
        ax.bar(x, V[j], color=colours[j], width=0.7)
        ax.set_title(f"{value_name} ({tokens[j]})", fontsize=10)
    for i, ax in enumerate(axes[n_k:]):
        stacked_bars(
            ax,
            x,
            A[i][:, None] * V,
            colours,
            [
                _("{share} of {value} ({token})").format(share=f"{A[i, j]:.0%}", value=value_name, token=tokens[j])
                for j in range(n_k)
            ],
        )
        ax.set_title(f"{output_name} ({tokens[i]})", fontsize=10, fontweight="bold")
    for ax in axes:
        ax.set_xticks(x, labels=[str(c + 1) for c in x])  # columns numbered from 1, as in the text
        ax.set_ylim(low - 0.05 * (high - low), high + 0.12 * (high - low))
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel(_("column"))
    axes[0].set_ylabel(_("value"))
    handles = [
        matplotlib.patches.Patch(color=colours[j], label=_("from {token}").format(token=tokens[j])) for j in range(n_k)
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(n_k, 4), frameon=False, fontsize=9)
    return fig


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2-D points in counter-clockwise order (Andrew's monotone chain)."""
    pts = sorted(map(tuple, np.unique(points, axis=0)))
    if len(pts) < 3:
        return np.array(pts)

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and np.cross(np.subtract(out[-1], out[-2]), np.subtract(p, out[-2])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


def hull_plot(
    V,
    Z,
    key_labels: Sequence[str],
    query_labels: Sequence[str] | None = None,
    *,
    ax=None,
    title: str = "",
    box: bool = False,
    probe=None,
    probe_label: str = "",
):
    """2-D value rows V (n_k, 2) as large labelled points with their convex hull shaded,
    and outputs Z (n_q, 2) as small points (labelled if `query_labels` is given):
    every z_i lands inside the hull. `box` draws the bounding box of V dashed; `probe`
    (a point (2,)) is marked with a cross and `probe_label`. Returns the Figure."""
    V, Z = np.asarray(V, dtype=float), np.asarray(Z, dtype=float)
    if ax is None:
        ax = plt.subplots(figsize=(3.4, 3.2))[1]  # (not `_, ax`: _ is the translation)
    if box:
        (x0, y0), (x1, y1) = V.min(axis=0), V.max(axis=0)
        ax.add_patch(
            matplotlib.patches.Rectangle(
                (x0, y0),
                x1 - x0,
                y1 - y0,
                fill=False,
                linestyle="--",
                edgecolor=OKABE_ITO["black"],
                linewidth=0.9,
                label=_("bounding box"),
            )
        )
    extent = np.vstack([V, Z])  # every point drawn, for the axes limits below
    if probe is not None:
        probe = np.asarray(probe, dtype=float)
        ax.scatter([probe[0]], [probe[1]], s=70, marker="X", color=OKABE_ITO["black"], zorder=5)
        if probe_label:
            ax.annotate(probe_label, tuple(probe), textcoords="offset points", xytext=(-6, 8), ha="right", fontsize=9)
        extent = np.vstack([extent, probe])
    hull = _hull(V)
    if len(hull) >= 3:
        ax.add_patch(
            matplotlib.patches.Polygon(
                hull, closed=True, facecolor=OKABE_ITO["sky"], alpha=0.25, edgecolor=OKABE_ITO["blue"], linewidth=1.2
            )
        )
    else:
        ax.plot(hull[:, 0], hull[:, 1], color=OKABE_ITO["blue"], linewidth=2, alpha=0.6)
    ax.scatter(V[:, 0], V[:, 1], s=90, color=OKABE_ITO["blue"], zorder=3, label=_("value rows v"))
    ax.scatter(Z[:, 0], Z[:, 1], s=45, marker="D", color=OKABE_ITO["vermillion"], zorder=4, label=_("outputs z"))
    span = np.ptp(extent, axis=0).max() or 1.0
    for (x, y), label in zip(V, key_labels):
        ax.annotate(
            f"v ({label})", (x, y), textcoords="offset points", xytext=(6, 6), fontsize=9, color=OKABE_ITO["blue"]
        )
    for (x, y), label in zip(Z, query_labels or ()):
        ax.annotate(
            f"z ({label})",
            (x, y),
            textcoords="offset points",
            xytext=(6, -12),
            fontsize=9,
            color=OKABE_ITO["vermillion"],
        )
    pad = 0.2 * span
    ax.set_xlim(extent[:, 0].min() - pad, extent[:, 0].max() + pad)
    ax.set_ylim(extent[:, 1].min() - pad, extent[:, 1].max() + pad)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(_("column {c}").format(c=1))  # the maths numbers columns from 1: V[:, 0] in code
    ax.set_ylabel(_("column {c}").format(c=2))
    if title:
        ax.set_title(title)
    return ax.figure


# ----------------------------------------------------------------------------- the chapter's figures
def show_weighted_sum(A, V, Z, tokens: Sequence[str]) -> None:
    """Z = A V written out as matrices, rows and columns labelled by the tokens."""
    show_figure(
        lambda: matrix_equation([("A", A, tokens, tokens), "·", ("V", V, tokens, None), "=", ("Z", Z, tokens, None)]),
        alt=lambda: _(
            "A ({a_shape}) times V ({v_shape}) equals Z ({z_shape}); row I of Z is {z_i}, row love is {z_love}"
        ).format(
            a_shape=f"{A.shape[0]}×{A.shape[1]}",
            v_shape=f"{V.shape[0]}×{V.shape[1]}",
            z_shape=f"{Z.shape[0]}×{Z.shape[1]}",
            z_i=np.round(Z[0], 2).tolist(),
            z_love=np.round(Z[1], 2).tolist(),
        ),
    )


def show_contributions(A, V, tokens: Sequence[str]) -> None:
    """The value rows of 'I love', then each output as stacked pieces of them (`contribution_bars`)."""
    show_figure(
        lambda: contribution_bars(A, V, tokens),
        alt=lambda: _(
            "Bar charts: v(I) = {v_i} and v(love) = {v_love}; then z(I) and z(love) as stacked bars. "
            "z(I) is {a11} of v(I) (blue, columns 1 and 3) plus {a12} of v(love) (orange, column 2); "
            "z(love) is {a21} of v(I) plus {a22} of v(love)."
        ).format(
            v_i=V[0].tolist(),
            v_love=V[1].tolist(),
            a11=f"{A[0, 0]:.0%}",
            a12=f"{A[0, 1]:.0%}",
            a21=f"{A[1, 0]:.0%}",
            a22=f"{A[1, 1]:.0%}",
        ),
    )


def show_hulls(V, Z, tokens: Sequence[str], V_tri, Z_tri, corner) -> None:
    """Left, 'I love' in the plane of V's columns 1 and 2: the outputs on the segment between the
    values; right, three 2-D value rows, their outputs inside the triangle and the bounding box's `corner` outside."""

    def draw():
        fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 3.2))
        hull_plot(V[:, :2], Z[:, :2], tokens, tokens, ax=left, title=_("I love: a segment"))
        hull_plot(
            V_tri,
            Z_tri,
            ["a", "b", "c"],
            ax=right,
            title=_("three tokens: a triangle"),
            box=True,
            probe=corner,
            probe_label=_("box corner"),
        )
        return fig

    show_figure(
        draw,
        alt=lambda: _(
            "Left: v(I) at ({v1x}, {v1y}) and v(love) at ({v2x}, {v2y}) joined by a segment; z(I) at ({z1x}, {z1y}) "
            "and z(love) at ({z2x}, {z2y}) lie on it. Right: a triangle of three value rows with "
            "{n_outputs} outputs, all inside it, and its dashed bounding box, whose corner ({cx}, {cy}) "
            "is marked with a cross outside the triangle."
        ).format(
            v1x=f"{V[0, 0]:g}",
            v1y=f"{V[0, 1]:g}",
            v2x=f"{V[1, 0]:g}",
            v2y=f"{V[1, 1]:g}",
            z1x=f"{Z[0, 0]:.2f}",
            z1y=f"{Z[0, 1]:.2f}",
            z2x=f"{Z[1, 0]:.2f}",
            z2y=f"{Z[1, 1]:.2f}",
            n_outputs=len(Z_tri),
            cx=f"{corner[0]:g}",
            cy=f"{corner[1]:g}",
        ),
    )
