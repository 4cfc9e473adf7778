"""The book's figures: matrices as labelled heatmaps with their shapes.

Colour-blind-safe throughout: the sequential map is cividis, the diverging map
is PuOr, and categorical colours are the Okabe–Ito palette. Every function
returns the matplotlib Figure so a chapter can `glue` it or let it display.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from . import i18n  # translated labels (issue 11)

# Okabe–Ito: distinguishable under every common colour-vision deficiency.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
}
CYCLE = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "black")]
SEQUENTIAL = "cividis"  # weights, probabilities: 0 … 1
DIVERGING = "PuOr_r"  # signed values: scores, projections


def use_book_style() -> None:
    """Matplotlib defaults for every figure in the book (readable on a phone and a projector)."""
    plt.rcParams.update(
        {
            "figure.dpi": 110,
            "savefig.dpi": 110,
            "figure.figsize": (6.4, 3.6),
            "font.size": 11,
            "axes.titlesize": 12,
            "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.constrained_layout.use": True,
        }
    )


use_book_style()


def shape_label(name: str, M: np.ndarray) -> str:
    """'Q  (2 × 3)': a matrix's name with its shape."""
    return f"{name}  ({' × '.join(str(s) for s in np.shape(M))})"


def _label_matrix_axes(ax, M: np.ndarray, name: str, row_labels, col_labels) -> None:
    """Title a matrix plot with its name and shape, label rows and columns, drop the frame.

    Without labels, rows and columns are numbered from 1, as the book's maths
    numbers them (entry (i, j) of the figure is M[i-1, j-1] in code).
    """
    ax.set_title(shape_label(name, M))
    ax.set_xticks(range(M.shape[1]), labels=col_labels if col_labels is not None else range(1, M.shape[1] + 1))
    ax.set_yticks(range(M.shape[0]), labels=row_labels if row_labels is not None else range(1, M.shape[0] + 1))
    if col_labels is not None and max(len(str(c)) for c in col_labels) > 4:
        ax.tick_params(axis="x", labelrotation=45)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def _write_in_cell(ax, image, i: int, j: int, value: float, text: str) -> None:
    """Write `text` in cell (i, j), black on light colours and white on dark ones."""
    shade = image.cmap(image.norm(value))
    light = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] > 0.55
    ax.text(j, i, text, ha="center", va="center", color="black" if light else "white", fontsize=10)


def heatmap(
    M,
    name: str,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    ax=None,
    annotate: bool | None = None,
    fmt: str = "{:.2f}",
    cmap: str | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
    colorbar: bool = False,
):
    """Draw matrix M (rows × cols) as a heatmap titled with its name and shape.

    Entries are written in the cells when the matrix is small (annotate=None
    decides by size). Signed matrices get the diverging map centred on 0,
    non-negative ones the sequential map. Returns the Figure.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    if ax is None:
        rows, cols = M.shape
        _, ax = plt.subplots(figsize=(min(1.0 + 0.55 * cols, 8.0), min(0.9 + 0.45 * rows, 7.0)))
    signed = M.min() < 0
    if cmap is None:
        cmap = DIVERGING if signed else SEQUENTIAL
    if signed and vmin is None and vmax is None:
        bound = float(np.abs(M).max()) or 1.0
        vmin, vmax = -bound, bound
    image = ax.imshow(M, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    _label_matrix_axes(ax, M, name, row_labels, col_labels)
    if annotate is None:
        annotate = M.size <= 64
    if annotate:
        for (i, j), value in np.ndenumerate(M):
            _write_in_cell(ax, image, i, j, value, fmt.format(value))
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return ax.figure


def matrix_equation(terms: Sequence, *, fmt: str = "{:.2f}", height: float = 2.6):
    """Draw e.g. X · W_Q = Q side by side.

    `terms` mixes (name, M) or (name, M, row_labels, col_labels) tuples with
    operator strings such as "·", "=", "÷ √3". Returns the Figure.
    """
    # An operator gets a narrow column; a matrix one as wide as its columns.
    ratios = [
        0.35 + 0.08 * len(t) if isinstance(t, str) else 0.6 + 0.55 * np.atleast_2d(t[1]).shape[1] for t in terms
    ]
    fig, axes = plt.subplots(1, len(terms), figsize=(min(sum(ratios), 10.0), height), width_ratios=ratios)
    for ax, term in zip(np.atleast_1d(axes), terms):
        if isinstance(term, str):
            ax.axis("off")
            ax.text(0.5, 0.5, term, ha="center", va="center", fontsize=16)
            continue
        name, M, *labels = term
        rows, cols = (labels + [None, None])[:2]
        heatmap(M, name, row_labels=rows, col_labels=cols, ax=ax, fmt=fmt, annotate=True)
    return fig


def weight_bars(weights, labels: Sequence[str], *, title: str = "", ax=None, highlight: int | None = None):
    """One query's attention weights as bars (they sum to 1). Returns the Figure."""
    weights = np.asarray(weights, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(min(1.2 + 0.6 * len(weights), 8.0), 2.8))
    colors = [OKABE_ITO["blue"]] * len(weights)
    if highlight is not None:
        colors[highlight] = OKABE_ITO["vermillion"]
    ax.bar(range(len(weights)), weights, color=colors)
    ax.set_xticks(range(len(weights)), labels=labels, rotation=45 if max(map(len, labels)) > 4 else 0)
    ax.set_ylim(0, 1)
    ax.set_ylabel(i18n._("weight"))
    if title:
        ax.set_title(title)
    for i, w in enumerate(weights):
        ax.text(i, w + 0.02, f"{w:.2f}", ha="center", fontsize=9)
    return ax.figure


def show(fig, alt: str) -> None:
    """Display `fig` with alt text (read by screen readers, shown if the image fails) and close it.

    The alt text travels in the output's metadata, which myst-nb turns into the
    <img alt="..."> of the built page; closing the figure stops Jupyter from
    drawing it a second time.
    """
    from IPython.display import display

    if not alt or not alt.strip():
        raise ValueError("alt text must describe the figure for readers who cannot see it")
    display(fig, metadata={"image/png": {"alt": alt}})
    plt.close(fig)


# ----------------------------------------------------------------------------- chapters 5–7 (mixing, heads)
def _key_colours(n: int) -> list[str]:
    return [CYCLE[j % len(CYCLE)] for j in range(n)]


def contribution_bars(A, V, tokens: Sequence[str], *, value_name: str = "v", output_name: str = "z"):
    """Each value row v_j as bars, then each output z_i = Σ_j a_ij v_j as stacked bars
    whose pieces a_ij v_j keep key j's colour. A (n, n_k), V (n_k, d_v); small n only.
    Returns the Figure."""
    A, V = np.asarray(A, dtype=float), np.asarray(V, dtype=float)
    n_q, n_k = A.shape
    d_v = V.shape[1]
    colours = _key_colours(n_k)
    fig, axes = plt.subplots(1, n_k + n_q, figsize=(min(6.4, 1.5 * (n_k + n_q) + 0.4), 2.9), sharey=True)
    x = np.arange(d_v)
    low, high = min(0.0, V.min()), max(0.0, V.max())
    for j, ax in enumerate(axes[:n_k]):
        ax.bar(x, V[j], color=colours[j], width=0.7)
        ax.set_title(f"{value_name} ({tokens[j]})", fontsize=10)
    for i, ax in enumerate(axes[n_k:]):
        up, down = np.zeros(d_v), np.zeros(d_v)
        for j in range(n_k):
            piece = A[i, j] * V[j]
            base = np.where(piece >= 0, up, down)
            ax.bar(x, piece, bottom=base, color=colours[j], width=0.7, edgecolor="white", linewidth=0.6,
                   label=f"{A[i, j]:.0%} of {value_name} ({tokens[j]})")  # fmt: skip
            up, down = up + np.clip(piece, 0, None), down + np.clip(piece, None, 0)
        ax.set_title(f"{output_name} ({tokens[i]})", fontsize=10, fontweight="bold")
    for ax in axes:
        ax.set_xticks(x, labels=[str(c + 1) for c in x])  # columns numbered from 1, as in the text
        ax.set_ylim(low - 0.05 * (high - low), high + 0.12 * (high - low))
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel("column")
    axes[0].set_ylabel("value")
    handles = [matplotlib.patches.Patch(color=colours[j], label=f"from {tokens[j]}") for j in range(n_k)]
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


def hull_plot(V, Z, key_labels: Sequence[str], query_labels: Sequence[str] | None = None, *, ax=None, title: str = "",
              box: bool = False, probe=None, probe_label: str = ""):  # fmt: skip
    """2-D value rows V (n_k, 2) as large labelled points with their convex hull shaded,
    and outputs Z (n_q, 2) as small points (labelled if `query_labels` is given):
    every z_i lands inside the hull. `box` draws the bounding box of V dashed; `probe`
    (a point (2,)) is marked with a cross and `probe_label`. Returns the Figure."""
    V, Z = np.asarray(V, dtype=float), np.asarray(Z, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(3.4, 3.2))
    if box:
        (x0, y0), (x1, y1) = V.min(axis=0), V.max(axis=0)
        ax.add_patch(matplotlib.patches.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, linestyle="--",
                                                  edgecolor=OKABE_ITO["black"], linewidth=0.9, label="bounding box"))  # fmt: skip
    extent = np.vstack([V, Z])  # every point drawn, for the axes limits below
    if probe is not None:
        probe = np.asarray(probe, dtype=float)
        ax.scatter([probe[0]], [probe[1]], s=70, marker="X", color=OKABE_ITO["black"], zorder=5)
        if probe_label:
            ax.annotate(probe_label, tuple(probe), textcoords="offset points", xytext=(-6, 8), ha="right", fontsize=9)
        extent = np.vstack([extent, probe])
    hull = _hull(V)
    if len(hull) >= 3:
        ax.add_patch(matplotlib.patches.Polygon(hull, closed=True, facecolor=OKABE_ITO["sky"], alpha=0.25,
                                                edgecolor=OKABE_ITO["blue"], linewidth=1.2))  # fmt: skip
    else:
        ax.plot(hull[:, 0], hull[:, 1], color=OKABE_ITO["blue"], linewidth=2, alpha=0.6)
    ax.scatter(V[:, 0], V[:, 1], s=90, color=OKABE_ITO["blue"], zorder=3, label="value rows v")
    ax.scatter(Z[:, 0], Z[:, 1], s=45, marker="D", color=OKABE_ITO["vermillion"], zorder=4, label="outputs z")
    span = np.ptp(extent, axis=0).max() or 1.0
    for (x, y), label in zip(V, key_labels):
        ax.annotate(f"v ({label})", (x, y), textcoords="offset points", xytext=(6, 6), fontsize=9,
                    color=OKABE_ITO["blue"])  # fmt: skip
    for (x, y), label in zip(Z, query_labels or ()):
        ax.annotate(f"z ({label})", (x, y), textcoords="offset points", xytext=(6, -12), fontsize=9,
                    color=OKABE_ITO["vermillion"])  # fmt: skip
    pad = 0.2 * span
    ax.set_xlim(extent[:, 0].min() - pad, extent[:, 0].max() + pad)
    ax.set_ylim(extent[:, 1].min() - pad, extent[:, 1].max() + pad)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("column 1")  # the maths numbers columns from 1: V[:, 0] in code
    ax.set_ylabel("column 2")
    if title:
        ax.set_title(title)
    return ax.figure


def heads_heatmaps(A, tokens: Sequence[str], *, name: str = "A", ncols: int | None = None, fmt: str | None = None,
                   titles: Sequence[str] | None = None):  # fmt: skip
    """Every head's attention map A⁽ʳ⁾ side by side on one 0…1 colour scale.

    A (h, n_q, n_k); rows are queries, columns keys, both labelled by `tokens`.
    `ncols` defaults to 2 for 4 heads (readable on a phone), else up to 4. Returns the Figure.
    `fmt` (e.g. "{:.2f}") writes every weight; by default the weights are written large enough
    for a projector, with one decimal and no leading zero (.8), 1 for a full weight, and
    weights below 0.05 left blank (a footnote says so).
    """
    A = np.asarray(A, dtype=float)
    if A.ndim == 2:
        A = A[None]
    h, n_q, n_k = A.shape
    ncols = ncols or (2 if h == 4 else min(h, 4))
    nrows = -(-h // ncols)
    side = min(6.4 / ncols, 0.45 * n_k + 0.9)
    fig, axes = plt.subplots(nrows, ncols, figsize=(side * ncols, side * nrows + 0.3), squeeze=False)
    blanks = False
    for r, ax in enumerate(axes.flat):
        if r >= h:
            ax.axis("off")
            continue
        heatmap(A[r], f"{name}⁽{r + 1}⁾", row_labels=tokens, col_labels=tokens, ax=ax, fmt=fmt or "{:.1f}",
                vmin=0.0, vmax=1.0, cmap=SEQUENTIAL, annotate=n_q * n_k <= 64)  # fmt: skip
        for text, value in zip(ax.texts, A[r].flat):
            if fmt is None:
                text.set_text(_weight_label(value))
                blanks |= value < 0.05
            text.set_fontsize((10 if n_k > 4 else 12) if fmt is None else (7 if n_k > 4 else 9))
        ax.tick_params(labelsize=9)
        ax.title.set_fontsize(11)
        if titles is not None:
            ax.set_title(titles[r], fontsize=11)
    if blanks and any(ax.texts for ax in axes.flat):
        fig.text(0.5, 0.0, "blank cell: weight < 0.05", ha="center", va="top", fontsize=9)  # below the tick labels
    return fig


def _weight_label(w: float) -> str:
    """A weight in 0…1 as a projector reads it: '' below 0.05, '1' from 0.95, else '.8'."""
    if w < 0.05:
        return ""
    return "1" if w >= 0.95 else f"{w:.1f}".lstrip("0")


def grouped_bars(values: dict, group_labels: Sequence[str], *, ylabel: str = "", title: str = "", ax=None,
                 reference: tuple[float, str] | None = None, fmt: str = "{:.2f}", legend: bool = True):  # fmt: skip
    """Bars of several series side by side for each group, e.g. {"÷ √d_k": [...], "÷ √d_model": [...]}
    per head; `reference` = (y, label) draws a dashed line (a uniform distribution, say). Returns the Figure."""
    if ax is None:
        _, ax = plt.subplots(figsize=(min(1.0 + 0.9 * len(group_labels), 6.4), 2.8))
    width = 0.8 / len(values)
    x = np.arange(len(group_labels))
    for k, (label, ys) in enumerate(values.items()):
        bars = ax.bar(x + (k - (len(values) - 1) / 2) * width, ys, width, label=label, color=CYCLE[k])
        for bar, y in zip(bars, ys):
            ax.text(bar.get_x() + bar.get_width() / 2, y, fmt.format(y), ha="center", va="bottom", fontsize=7)
    if reference is not None:
        ax.axhline(reference[0], color="black", linestyle="--", linewidth=0.9)
        ax.text(-0.5, reference[0], reference[1], ha="left", va="bottom", fontsize=8)
    ax.set_xticks(x, labels=group_labels)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(frameon=False, fontsize=8, loc="upper left")
    return ax.figure


def sharpness_bars(series: dict, n_keys: int, group_labels: Sequence[str], *, group_name: str = "head"):
    """Two panels, mean largest weight and mean entropy per group, for each series
    {label: object with .mean_max_weight and .mean_entropy}; dashed lines mark the
    uniform distribution over n_keys keys. Returns the Figure."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 3.0))
    grouped_bars({k: s.mean_max_weight for k, s in series.items()}, group_labels, ax=left, legend=False,
                 ylabel="mean largest weight", reference=(1 / n_keys, "uniform"))  # fmt: skip
    grouped_bars({k: s.mean_entropy for k, s in series.items()}, group_labels, ax=right, legend=False,
                 ylabel="mean entropy (nats)", reference=(float(np.log(n_keys)), "uniform"))  # fmt: skip
    for ax in (left, right):
        ax.set_xlabel(group_name)
        ax.margins(y=0.15)
    fig.legend(*left.get_legend_handles_labels(), loc="outside lower center", ncol=len(series), frameon=False)
    return fig


# ----------------------------------------------------------------------------- pipeline and directions
# (added for the introduction and chapters 1–2)

# The seven stages as boxes: key -> (x, y, label, default shape, stage number). Inside the
# dashed frame every symbol is head r's, so it carries (r) (the book's notation convention).
_PIPELINE = {
    "X": (5.0, 16.0, r"$X$", r"$n \times d_{\mathrm{model}}$", 0),
    "Q": (1.75, 13.6, r"$Q^{(r)} = XW_Q^{(r)}$", r"$n \times d_k$", 1),
    "K": (5.0, 13.6, r"$K^{(r)} = XW_K^{(r)}$", r"$n \times d_k$", 1),
    "V": (8.25, 13.6, r"$V^{(r)} = XW_V^{(r)}$", r"$n \times d_v$", 1),
    "QK": (3.4, 11.5, r"$Q^{(r)}K^{(r)\top}$", r"$n \times n$", 2),
    "S": (3.4, 9.4, r"$S^{(r)} = Q^{(r)}K^{(r)\top} / \sqrt{d_k}$", r"$n \times n$", 3),
    "A": (3.4, 7.3, r"$A^{(r)} = \mathrm{softmax}(S^{(r)})$", r"$n \times n$, rows sum to 1", 4),
    "Z": (5.6, 5.2, r"$Z^{(r)} = A^{(r)}V^{(r)}$", r"$n \times d_v$", 5),
    "Zcat": (5.6, 3.1, r"$Z_{\mathrm{cat}} = [Z^{(1)} \cdots Z^{(h)}]$", r"$n \times h d_v$", 6),
    "Y": (5.6, 1.0, r"$Y = Z_{\mathrm{cat}} W^O$", r"$n \times d_{\mathrm{model}}$", 7),
}
_PIPELINE_WIDTH = {"X": 4.2, "Q": 3.0, "K": 3.0, "V": 3.0, "QK": 5.4, "S": 5.4, "A": 5.4, "Z": 6.0, "Zcat": 7.6, "Y": 6.0}
_PIPELINE_EDGES = [("X", "Q"), ("X", "K"), ("X", "V"), ("Q", "QK"), ("K", "QK"), ("QK", "S"), ("S", "A"),
                   ("A", "Z"), ("V", "Z"), ("Z", "Zcat"), ("Zcat", "Y")]  # fmt: skip
PIPELINE_STAGES = ("projection", "scores", "scaling", "softmax", "weighted sum", "multi-head concat", "output projection")


def pipeline_diagram(*, highlight: int | None = None, shapes: dict[str, str] | None = None):
    """Self-attention from X to Y as boxes and arrows, top to bottom, each box
    with its formula, its shape and its stage number (1 … 7, the chapters).

    `highlight` (a stage number) draws that stage's boxes in vermillion and
    greys the rest ("you are here"). `shapes` overrides the shape text of boxes
    keyed "X", "Q", "K", "V", "QK", "S", "A", "Z", "Zcat", "Y". Tall and narrow
    so it reads on a phone. Returns the Figure.
    """
    if highlight is not None and highlight not in range(1, 8):
        raise ValueError(f"highlight must be a stage number 1 … 7 or None, got {highlight!r}")
    unknown = set(shapes or {}) - set(_PIPELINE)
    if unknown:
        raise ValueError(f"shapes has unknown box(es) {sorted(unknown)}; boxes are {list(_PIPELINE)}")
    shapes = {key: spec[3] for key, spec in _PIPELINE.items()} | dict(shapes or {})
    fig, ax = plt.subplots(figsize=(4.6, 7.8))
    ax.set_xlim(-0.4, 10.4)
    ax.set_ylim(0.0, 17.0)
    ax.axis("off")
    # One head's stages (1–5) sit inside a dashed frame: the part repeated h times.
    ax.add_patch(matplotlib.patches.FancyBboxPatch(
        (-0.1, 4.35), 10.2, 10.15, boxstyle="round,pad=0.05,rounding_size=0.3",
        fill=False, linestyle=(0, (4, 3)), edgecolor="#777777", linewidth=1.0))  # fmt: skip
    ax.text(10.25, 9.4, "one head r; repeated for r = 1 … h", rotation=90, ha="left", va="center",
            fontsize=9.5, color="#555555")  # fmt: skip
    for a, b in _PIPELINE_EDGES:
        xa, ya, *_ = _PIPELINE[a]
        xb, yb, *_ = _PIPELINE[b]
        if b == "Z":  # arrive straight from above, beside each other
            xb = xa
        elif a in ("Q", "K"):
            xb = xb + (-0.9 if a == "Q" else 0.9)
        ax.annotate("", xy=(xb, yb + 0.62), xytext=(xa, ya - 0.62),
                    arrowprops={"arrowstyle": "-|>", "color": "#444444", "linewidth": 1.3, "shrinkA": 0, "shrinkB": 0})  # fmt: skip
    for key, (x, y, label, _, stage) in _PIPELINE.items():
        on = highlight is None or stage == highlight
        edge = OKABE_ITO["vermillion"] if highlight is not None and on else OKABE_ITO["blue"]
        width = _PIPELINE_WIDTH[key]
        ax.add_patch(matplotlib.patches.FancyBboxPatch(
            (x - width / 2, y - 0.6), width, 1.2, boxstyle="round,pad=0.02,rounding_size=0.25",
            facecolor="white" if on else "#f2f2f2", edgecolor=edge if on else "#bbbbbb",
            linewidth=2.4 if highlight is not None and on else 1.4))  # fmt: skip
        ink = "black" if on else "#999999"
        ax.text(x, y + 0.2, label, ha="center", va="center", fontsize=11 if key in ("Q", "K", "V") else 12.5, color=ink)
        ax.text(x, y - 0.33, shapes[key], ha="center", va="center", fontsize=10, color="#555555" if on else "#aaaaaa")
        if stage and (key not in ("K", "V")):
            cx = x - width / 2 - 0.05
            ax.text(cx, y + 0.55, str(stage), ha="center", va="center", fontsize=9, color="white", fontweight="bold",
                    bbox={"boxstyle": "circle,pad=0.25", "facecolor": edge if on else "#bbbbbb", "edgecolor": "none"})  # fmt: skip
    return fig


def dot_product_panels(a, others: Sequence, *, names: Sequence[str] | None = None):
    """One small panel per vector b in `others`: arrows a and b from the origin,
    titled with a · b. For 2-D vectors (the seed's [1, 0] against [1, 0], [0, 1],
    [-1, 0]). Returns the Figure."""
    a = np.asarray(a, dtype=float)
    others = [np.asarray(b, dtype=float) for b in others]
    if a.shape != (2,) or any(b.shape != (2,) for b in others):
        raise ValueError(f"dot_product_panels draws 2-D vectors, got a {a.shape} and {[b.shape for b in others]}")
    names = list(names) if names is not None else ["b"] * len(others)
    fig, axes = plt.subplots(1, len(others), figsize=(min(1.7 * len(others), 6.4), 2.2))
    limit = 1.45 * max(np.abs(np.concatenate([a, *others])).max(), 1.0)
    for ax, b, name in zip(np.atleast_1d(axes), others, names):
        ax.set_xlim(-limit, limit)
        ax.set_ylim(-limit, limit)
        ax.set_aspect("equal")
        ax.axhline(0, color="#dddddd", linewidth=0.8, zorder=0)
        ax.axvline(0, color="#dddddd", linewidth=0.8, zorder=0)
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        for vec, colour, offset in ((a, OKABE_ITO["blue"], 0.0), (b, OKABE_ITO["vermillion"], 0.06)):
            ax.annotate("", xy=vec + offset, xytext=(offset, offset),
                        arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 2.2, "shrinkA": 0, "shrinkB": 0})  # fmt: skip
        ax.text(*(a + [0, -0.22 * limit]), "a", color=OKABE_ITO["blue"], ha="center", va="center", fontsize=12)
        ax.text(*(b + [0.12 * limit * (b[1] != 0), 0.2 * limit * (b[1] == 0)]), "b", color=OKABE_ITO["vermillion"],
                ha="center", va="center", fontsize=12)  # fmt: skip
        ax.set_title(f"{name}\na · b = {float(a @ b):g}".replace("= -", "= −"), fontsize=12)
    return fig


# ----------------------------------------------------------------------------- chapter 8 (the whole layer)
def attention_map(A, tokens: Sequence[str], *, key_tokens: Sequence[str] | None = None, title: str = "",
                  highlight: tuple[int, int] | None = None, threshold: float = 0.15, ax=None):  # fmt: skip
    """One head's weights A (n, n_k) as a heatmap on a fixed 0…1 scale, rows
    (queries) labelled by `tokens`, columns (keys) by `key_tokens` (the same
    tokens unless given, as in cross-attention).

    For a sentence-sized n only weights ≥ `threshold` are written in the cells
    (so the pattern reads at a glance); `highlight` = (i, j) outlines cell
    (i, j), e.g. ("it", "animal"), and writes every weight of row i. Returns the Figure.
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2:
        raise ValueError(f"attention_map draws one head's A (n, n_k), got shape {A.shape}")
    n_q, n_k = A.shape
    if ax is None:
        # Small cells on a narrow figure: the labels stay legible when a phone shrinks it.
        _, ax = plt.subplots(figsize=(min(6.4, 1.5 + 0.32 * n_k), min(6.4, 1.4 + 0.3 * n_q)))
    heatmap(A, "A", row_labels=list(tokens), col_labels=list(tokens if key_tokens is None else key_tokens), ax=ax,
            annotate=False, cmap=SEQUENTIAL, vmin=0.0, vmax=1.0)  # fmt: skip
    ax.set_title(title or shape_label("A", A))
    ax.set_xlabel("key j (attended to)")
    ax.set_ylabel("query i (attending)")
    ax.tick_params(labelsize=9)
    row = None if highlight is None else highlight[0]
    for (i, j), value in np.ndenumerate(A):
        if value >= threshold or i == row:
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7.5, color="black" if value > 0.55 else "white")  # fmt: skip
    if highlight is not None:
        i, j = highlight
        ax.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                                  edgecolor=OKABE_ITO["vermillion"], linewidth=2.4))  # fmt: skip
    return ax.figure


def growth_plot(x, series: dict, *, xlabel: str = "", ylabel: str = "", title: str = "", logy: bool = True,
                point_labels: Sequence[str] | None = None, ax=None):  # fmt: skip
    """Curves y(x) on log–log axes (or log x only), e.g. memory of the n × n matrix
    against n; the first series' points can carry text labels. Returns the Figure."""
    x = np.asarray(x, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 3.2))
    for k, (label, y) in enumerate(series.items()):
        ax.plot(x, np.asarray(y, dtype=float), marker="o", color=CYCLE[k], label=label)
        if k == 0 and point_labels is not None:
            for xi, yi, text in zip(x, y, point_labels):
                ax.annotate(text, (xi, yi), textcoords="offset points", xytext=(4, -6), ha="left", va="top",
                            fontsize=9, color=CYCLE[0])  # fmt: skip
    ax.set_xscale("log")
    ax.margins(x=0.15, y=0.15)  # room for the first and last points' labels
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=9)
    return ax.figure


def head_bands(M, name: str, num_heads: int, *, axis: int = 1, row_labels: Sequence[str] | None = None,
               col_labels: Sequence[str] | None = None, fmt: str = "{:.1f}"):  # fmt: skip
    """Heatmap of M with lines between the heads' blocks: columns (axis=1, e.g. Q = X W_Q)
    or rows (axis=0, e.g. W_O), each block labelled r = 1..h. Unlabelled columns and rows
    are numbered from 1, as in the text (column c is code index c − 1). Returns the Figure."""
    M = np.asarray(M, dtype=float)
    size = M.shape[axis] // num_heads
    if row_labels is None:
        row_labels = [str(i + 1) for i in range(M.shape[0])]
    if col_labels is None:
        col_labels = [str(j + 1) for j in range(M.shape[1])]
    fig = heatmap(M, name, row_labels=row_labels, col_labels=col_labels, fmt=fmt)
    ax = fig.axes[0]
    for text in ax.texts:
        text.set_fontsize(8)
    for r in range(num_heads):
        if r:
            (ax.axvline if axis == 1 else ax.axhline)(r * size - 0.5, color="white", linewidth=3)
        middle = r * size + (size - 1) / 2
        if axis == 1:
            ax.text(middle, -0.75, f"head {r + 1}", ha="center", va="bottom", fontsize=9, color=OKABE_ITO["blue"])
        else:
            ax.text(M.shape[1] - 0.4, middle, f"head {r + 1}", ha="left", va="center", fontsize=9,
                    color=OKABE_ITO["blue"])  # fmt: skip
    if axis == 1:
        ax.set_title(ax.get_title(), pad=24)
    return fig


def stacked_parts(parts, part_labels: Sequence[str], *, total_label: str = "sum", xlabel: str = "column",
                  title: str = ""):  # fmt: skip
    """Stacked bars: parts (k, d) are k additive pieces of a d-vector, stacked per column
    (positive up, negative down) in Okabe–Ito colours; a black tick marks their sum. The columns are
    numbered from 1, as in the text (column c is code index c − 1). Returns the Figure."""
    parts = np.asarray(parts, dtype=float)
    k, d = parts.shape
    fig, ax = plt.subplots(figsize=(min(6.4, 1.6 + 0.55 * d), 3.0))
    x = np.arange(d)
    up, down = np.zeros(d), np.zeros(d)
    for p in range(k):
        base = np.where(parts[p] >= 0, up, down)
        ax.bar(x, parts[p], bottom=base, width=0.7, color=CYCLE[p % len(CYCLE)], label=part_labels[p],
               edgecolor="white", linewidth=0.5)  # fmt: skip
        up, down = up + np.clip(parts[p], 0, None), down + np.clip(parts[p], None, 0)
    ax.scatter(x, parts.sum(axis=0), marker="_", s=400, color="black", linewidths=2.5, zorder=3, label=total_label)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(x, labels=[str(c + 1) for c in x])
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    fig.legend(loc="outside right center", frameon=False, fontsize=8)
    return fig


def masked_heatmap(M, keep, name: str, *, row_labels: Sequence[str] | None = None,
                   col_labels: Sequence[str] | None = None, masked_text: str = "−∞", fmt: str = "{:.2f}",
                   ax=None, vmin: float | None = None, vmax: float | None = None):  # fmt: skip
    """Matrix M (rows × cols) with the cells where `keep` is False greyed out and
    labelled `masked_text` ("−∞" for masked scores, "0" for their weights).

    The kept cells are coloured as `heatmap` would colour them (diverging for
    signed values, sequential otherwise) and written in when the matrix is
    small. Returns the Figure.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    keep = np.broadcast_to(np.asarray(keep, dtype=bool), M.shape)
    if ax is None:
        rows, cols = M.shape
        _, ax = plt.subplots(figsize=(min(1.0 + 0.6 * cols, 6.4), min(0.9 + 0.45 * rows, 6.4)))
    shown = np.ma.masked_array(np.where(keep, M, 0.0), mask=~keep)
    kept = M[keep]
    signed = kept.size and kept.min() < 0
    cmap = matplotlib.colormaps[DIVERGING if signed else SEQUENTIAL].with_extremes(bad="#e4e4e4")
    if signed and vmin is None and vmax is None:
        bound = float(np.abs(kept).max()) or 1.0
        vmin, vmax = -bound, bound
    image = ax.imshow(shown, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    _label_matrix_axes(ax, M, name, row_labels, col_labels)
    if M.size <= 81:
        for (i, j), value in np.ndenumerate(M):
            if not keep[i, j]:
                ax.text(j, i, masked_text, ha="center", va="center", color="#555555", fontsize=10)
                continue
            _write_in_cell(ax, image, i, j, value, fmt.format(value))
    return ax.figure


def tile_diagram(n_blocks: int = 6, current: tuple[int, int] = (2, 3)):
    """The n × n score matrix cut into n_blocks × n_blocks tiles: on the left all of it
    held at once (naive), on the right one query block's row of tiles, with the one tile
    in memory now, `current` = (query block, key block), drawn dark (tiled). Returns the Figure."""
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6))
    qi, kj = current
    for ax, tiled in zip(axes, (False, True)):
        ax.set_xlim(0, n_blocks)
        ax.set_ylim(n_blocks, 0)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        for i in range(n_blocks):
            for j in range(n_blocks):
                if not tiled:
                    colour = OKABE_ITO["vermillion"]
                elif i == qi and j == kj:
                    colour = OKABE_ITO["blue"]
                elif i == qi and j < kj:
                    colour = "#cfe3f1"  # already folded into the running state
                elif i < qi:
                    colour = "#eeeeee"  # finished: only its rows of Z remain
                else:
                    colour = "white"
                ax.add_patch(matplotlib.patches.Rectangle((j, i), 1, 1, facecolor=colour, edgecolor="#888888",
                                                          linewidth=0.8))  # fmt: skip
        ax.set_xlabel("keys j (blocks of b)")
        ax.set_ylabel("queries i (blocks of b)")
    axes[0].set_title("naive: all n × n scores at once", fontsize=10)
    axes[1].set_title("tiled: one b × b tile at a time", fontsize=10)
    axes[1].annotate("", xy=(n_blocks - 0.15, qi + 0.5), xytext=(kj + 1.05, qi + 0.5),
                     arrowprops={"arrowstyle": "->", "color": OKABE_ITO["blue"], "linewidth": 1.5})  # fmt: skip
    return fig


def change_bars(series: dict, labels: Sequence[str], *, xlabel: str = "", title: str = ""):
    """Horizontal bars, one row per label (token), one bar per series: e.g. how much each
    output row moved under two settings. Labels read down the side, so long token lists
    stay legible on a phone; a bar of exactly 0 is marked with a small "0". Returns the Figure."""
    labels = list(labels)
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.36 * len(labels)))
    height = 0.8 / len(series)
    y = np.arange(len(labels))
    for k, (name, values) in enumerate(series.items()):
        values = np.asarray(values, dtype=float)
        offset = (k - (len(series) - 1) / 2) * height
        ax.barh(y + offset, values, height, label=name, color=CYCLE[k])
        for yi, value in zip(y + offset, values):
            if value == 0:
                ax.text(0, yi, " 0", va="center", ha="left", fontsize=9, fontweight="bold", color=CYCLE[k])
    ax.set_yticks(y, labels=labels)
    ax.invert_yaxis()  # first token on top, as in the text
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=len(series), frameon=False,
               fontsize=9)  # fmt: skip
    return fig
