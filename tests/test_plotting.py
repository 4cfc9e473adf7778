"""The shared plotting base: the book's style only when asked, and heatmap's cell text options."""

import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from attention_steps.figures.heads import heads_heatmaps, weight_label  # noqa: E402
from attention_steps.figures.plotting import BOOK_STYLE, attention_map, book_style, heatmap  # noqa: E402

BOOK = Path(__file__).resolve().parent.parent / "book"


def test_importing_the_figures_leaves_matplotlib_settings_alone():
    # Importing the plotting module must not change matplotlib's global settings (it once did).
    code = (
        "import matplotlib; before = dict(matplotlib.rcParams); "
        "import attention_steps.figures.plotting, attention_steps.figures.heads, attention_steps.figures.scaling, "
        "attention_steps.figures.mixing, attention_steps.figures.masks, attention_steps.figures.projection, "
        "attention_steps.figures.longcontext, attention_steps.explorers; "
        "changed = [k for k, v in matplotlib.rcParams.items() if before[k] != v]; print(changed); "
        "assert not changed"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=BOOK, capture_output=True)


def test_book_style_applies_inside_the_block_only():
    before = plt.rcParams["font.size"]
    with book_style():
        assert plt.rcParams["font.size"] == BOOK_STYLE["font.size"]
        fig, _ = plt.subplots()
        assert fig.get_dpi() == BOOK_STYLE["figure.dpi"]
    assert plt.rcParams["font.size"] == before
    plt.close(fig)


def test_heatmap_writes_the_label_it_is_given_in_the_size_asked():
    fig = heatmap(np.array([[0.02, 0.5], [1.0, 0.3]]), "A", label=weight_label, fontsize=12)
    texts = fig.axes[0].texts
    assert [t.get_text() for t in texts] == ["", ".5", "1", ".3"]
    assert {t.get_fontsize() for t in texts} == {12}
    plt.close(fig)


def test_heads_heatmaps_labels_weights_for_a_projector_and_explains_blank_cells():
    A = np.array([[[0.02, 0.98], [0.5, 0.5]]])
    fig = heads_heatmaps(A, ["a", "b"])
    assert [t.get_text() for t in fig.axes[0].texts] == ["", "1", ".5", ".5"]
    assert any("blank cell" in t.get_text() for t in fig.texts)
    plt.close(fig)
    fig = heads_heatmaps(A, ["a", "b"], fmt="{:.2f}")
    assert [t.get_text() for t in fig.axes[0].texts] == ["0.02", "0.98", "0.50", "0.50"]
    assert not fig.texts
    plt.close(fig)


def test_attention_map_without_annotation_writes_no_weight():
    A = np.full((3, 3), 1 / 3)
    fig = attention_map(A, ["a", "b", "c"], annotate=False, highlight=(0, 1))
    assert not fig.axes[0].texts
    plt.close(fig)
    fig = attention_map(A, ["a", "b", "c"], threshold=0.3)
    assert len(fig.axes[0].texts) == 9
    plt.close(fig)


def test_no_notebook_turns_off_cell_labels_with_a_threshold_above_one():
    for path in BOOK.glob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "threshold=2.0" not in text and "threshold=1.0" not in text, path.name
