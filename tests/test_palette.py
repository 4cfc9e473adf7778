"""One palette: a strategy, a head and a token keep one colour in figures, explorers and notes."""

import ast
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from attention_steps import palette  # noqa: E402
from attention_steps.explorers import data, widgets  # noqa: E402
from attention_steps.explorers.fallback import dk_figure  # noqa: E402
from attention_steps.palette import OKABE_ITO, STRATEGY_STYLES, head_colour  # noqa: E402
from attention_steps.scaling import STRATEGIES  # noqa: E402
from attention_steps.sentence import sentence_trace  # noqa: E402

BOOK = Path(__file__).resolve().parent.parent / "book"
JS = BOOK / "attention_steps" / "explorers" / "js"


def test_every_strategy_has_one_style():
    assert set(STRATEGY_STYLES) == set(STRATEGIES)
    colours = [s.colour for s in STRATEGY_STYLES.values()]
    assert len(set(colours)) == len(colours), "two strategies share a colour"


def test_the_explorers_take_strategy_and_head_colours_from_the_palette():
    states = data.dk_states(n_queries=20, d_k_values=(1, 4))
    assert states["strategy_styles"] == {
        k: {"colour": s.colour_name, "dash": s.svg_dash} for k, s in STRATEGY_STYLES.items()
    }
    heads = data.who_attends_states(*sentence_trace(), head_names=["a", "b", "c"])["head_colours"]
    assert [OKABE_ITO[name] for name in heads] == [head_colour(r) for r in range(len(heads))]
    # No table of strategy or head colours of its own left in the explorers' JavaScript: they read the data.
    for name in ("dk.js", "who_attends.js"):
        text = (JS / name).read_text(encoding="utf-8")
        assert not re.search(r"(none|d_k|sqrt_d_k)\s*:\s*\{\s*colour", text), name
        assert "purple" not in text, name


def test_the_static_explorer_figure_draws_each_strategy_in_its_colour():
    states = data.dk_states(n_queries=20, d_k_values=(1, 4))
    fig, _ = dk_figure(states, 0, "d_k")
    drawn = {line.get_label(): matplotlib.colors.to_hex(line.get_color()).upper() for line in fig.axes[0].lines}
    for key, label in STRATEGIES.items():
        assert drawn[label] == STRATEGY_STYLES[key].colour.upper(), key


def test_the_chapter_3_figure_draws_each_strategy_in_its_colour():
    from attention_steps.figures.scaling import strategy_curves
    from attention_steps.scaling import strategy_sweep

    fig = strategy_curves(strategy_sweep([1, 4], n_queries=20), n_keys=8)
    drawn = {line.get_label(): matplotlib.colors.to_hex(line.get_color()).upper() for line in fig.axes[0].lines}
    for style in STRATEGY_STYLES.values():
        assert drawn[style.tex_label] == style.colour.upper()


def test_speaker_notes_name_each_strategy_by_its_palette_colour():
    # Chapter 3's notes say which colour each strategy is drawn in: the palette's colour name.
    nb = json.loads((BOOK / "03_scaling.ipynb").read_text(encoding="utf-8"))
    notes = "\n".join(
        "".join(c["source"])
        for c in nb["cells"]
        if c.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes"
    )
    said = dict(re.findall(r"(no scaling|÷ d_k|÷ √d_k|Without scaling) \(([a-z ]+)\)", notes))
    assert said, "chapter 3's notes no longer name the strategies' colours; update this test"
    names = {"÷ d_k": "d_k", "÷ √d_k": "sqrt_d_k", "Without scaling": "none", "no scaling": "none"}
    for label, colour in said.items():
        assert colour == STRATEGY_STYLES[names[label]].colour_name, (label, colour)


def test_heads_keep_their_colour():
    assert head_colour(0) == OKABE_ITO["blue"] and head_colour(1) == OKABE_ITO["orange"]


# --- One definition: every colour name used exists, no colour value outside palette.py ---

ROOT = BOOK.parent
TABLES = {name: getattr(palette, name) for name in ("OKABE_ITO", "ON_LIGHT_PAGE", "ON_DARK_PAGE", "FIGURE", "SLIDES")}
SOURCES = [
    f
    for folder in ("book", "scripts", "tests")
    for f in sorted((ROOT / folder).rglob("*"))
    if f.suffix in {".py", ".js", ".css", ".html", ".ipynb"}
    and f.is_file()
    and not {"_build", "__pycache__", ".ipynb_checkpoints", "node_modules"} & set(f.relative_to(ROOT).parts)
]


def python_sources():
    """(file, source) of every Python file and notebook code cell."""
    for f in SOURCES:
        if f.suffix == ".py":
            yield f, f.read_text(encoding="utf-8")
        elif f.suffix == ".ipynb":
            for cell in json.loads(f.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "code":
                    yield f, "".join(cell["source"])


def test_every_palette_name_python_uses_exists():
    # OKABE_ITO["blue"], FIGURE["off" if x else "masked"], palette.X, from .palette import X
    missing = []
    for f, text in python_sources():
        try:
            tree = ast.parse(text)
        except SyntaxError:  # a notebook cell with a magic: nothing of the palette's in those
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in TABLES:
                for key in ast.walk(node.slice):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        if key.value not in TABLES[node.value.id]:
                            missing.append(f"{f.name}: {node.value.id}[{key.value!r}]")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "palette":
                if not hasattr(palette, node.attr):
                    missing.append(f"{f.name}: palette.{node.attr}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "palette":
                missing += [f"{f.name}: import {a.name}" for a in node.names if not hasattr(palette, a.name)]
    for style in palette.STRATEGY_STYLES.values():
        if style.colour_name not in palette.OKABE_ITO:
            missing.append(f"STRATEGY_STYLES: {style.colour_name}")
    assert not missing, f"colour names the palette does not have: {missing}"


def defined(css: str) -> set[str]:
    return set(re.findall(r"--ase-([a-z0-9-]+)\s*:", css))


def used(css: str) -> set[str]:
    return set(re.findall(r"var\(--ase-([a-z0-9-]+)", css))


def test_every_colour_the_explorers_draw_by_name_has_a_value():
    css = widgets.stylesheet()
    js = "\n".join(f.read_text(encoding="utf-8") for f in sorted(JS.glob("*.js")))
    set_by_js = set(re.findall(r'setProperty\("--ase-([a-z0-9-]+)"', js))  # sizes, not colours
    assert used(css) <= defined(css) | set_by_js, f"var(--ase-…) with no value: {used(css) - defined(css) - set_by_js}"
    # A mark is drawn in a colour by its class, ase-fill-<name> or ase-stroke-<name>: each needs its rule.
    # The names come from the JavaScript (literal classes and `colour: "sky"`) and from the data.
    names = set(re.findall(r"ase-(?:fill|stroke)-([a-z][a-z0-9-]*)", js)) | set(re.findall(r'colour: "([^"]+)"', js))
    names |= {s["colour"] for s in data.dk_states(n_queries=20, d_k_values=(1, 4))["strategy_styles"].values()}
    names |= set(data.who_attends_states(*sentence_trace(), head_names=["a", "b", "c"])["head_colours"])
    names |= set(palette.CYCLE_NAMES)
    for name in sorted(names):
        for kind in ("fill", "stroke"):
            assert f".ase-{kind}-{name} {{" in css, f"the explorers draw in {name!r}: no .ase-{kind}-{name} rule"
    # The light-page shades and the dark-page shades name the same things.
    assert set(palette.ON_DARK_PAGE) <= set(palette.ON_LIGHT_PAGE)


def test_every_colour_the_slides_name_has_a_value():
    from scripts.slides.assets import HERE as SLIDES_HERE
    from scripts.slides.assets import palette_css

    for name in ("slides.css", "index.html"):
        text = palette_css() + (SLIDES_HERE / name).read_text(encoding="utf-8")
        assert used(text) <= defined(text), f"{name}: var(--ase-…) with no value: {used(text) - defined(text)}"


def test_every_colour_the_book_pages_name_has_a_value():
    """The pages' own style sheets (book/assets/book.css, the language switch's) may name the palette's colours
    only as the explorers' style sheet defines them (`palette.css_variables`, which every page with an explorer
    loads): a colour renamed in palette.py fails here, not silently on the page."""
    from conftest import BOOK

    css = widgets.stylesheet()
    for sheet in [BOOK / "assets" / "book.css", *sorted((BOOK / "_ext" / "static").glob("*.css"))]:
        text = sheet.read_text(encoding="utf-8")
        assert used(text) <= defined(css), (
            f"{sheet.name}: var(--ase-…) the palette does not define: {used(text) - defined(css)}"
        )
    assert used("a { color: var(--ase-blue) }") == {"blue"}  # the scan sees a use


# A colour value: #rgb, #rgba, #rrggbb, #rrggbbaa, or rgb()/rgba() with numbers.
COLOUR = re.compile(r"(?<![\w&#])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![\w-])|\brgba?\(\s*[\d.][^)]*\)")
# The values allowed outside palette.py, each with its reason.
ALLOWED = {
    ("book/assets/book.css", "#fff"): "the white card under a figure in dark mode: the PNGs are drawn on white",
    ("book/assets/book.css", "rgb(0 0 0 / 60%)"): "the backdrop behind a zoomed figure, a shadow, not a colour",
    ("book/assets/book.css", "rgb(0 0 0 / 25%)"): "the shadow at the edge of maths that scrolls",
    ("tests/test_accessibility.py", "rgb(255, 255, 255)"): "the browser's reading of the white page and card",
    ("tests/test_accessibility.py", "rgb(18, 18, 18)"): "the browser's reading of the theme's dark page",
}
OTHERS = {
    "tests/hosts/host_like.css": "imitates VS Code's and Colab's own colours, not the book's",
    "tests/test_palette.py": "this test: the values allowed above and the scan's own examples below",
}


def colour_values(f: Path) -> list[str]:
    """The colour values in a file's code: not in comments or docstrings (they cite issues as #587)."""
    text = f.read_text(encoding="utf-8")
    if f.suffix in (".py", ".ipynb"):
        sources = [t for g, t in python_sources() if g == f]
        found = []
        for source in sources:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                found += COLOUR.findall(source)
                continue
            docstrings = {
                id(n.body[0].value)
                for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and n.body
                and isinstance(n.body[0], ast.Expr)
                and isinstance(n.body[0].value, ast.Constant)
            }
            for n in ast.walk(tree):
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
                    found += COLOUR.findall(n.value)
        return found
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", "", text, flags=re.S)
    if f.suffix == ".js":
        text = re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)
    return COLOUR.findall(text)


def test_no_colour_value_outside_the_palette():
    stray = []
    for f in SOURCES:
        rel = f.relative_to(ROOT).as_posix()
        if rel == "book/attention_steps/palette.py" or rel in OTHERS:
            continue
        stray += [f"{rel}: {value}" for value in colour_values(f) if (rel, value) not in ALLOWED]
    assert not stray, "colours belong in attention_steps/palette.py (CSS: var(--ase-<name>)):\n" + "\n".join(stray)


def test_the_scan_finds_a_colour_value():
    # The scan above would pass on a broken pattern: it must see each kind of literal, and not an issue number.
    assert COLOUR.findall('fill="#E69F00" a:#fff; rgba(0, 114, 178, 0.1) rgb(0 0 0 / 25%)') == [
        "#E69F00",
        "#fff",
        "rgba(0, 114, 178, 0.1)",
        "rgb(0 0 0 / 25%)",
    ]
    assert COLOUR.findall("sphinx#1810 &#123; #text var(--ase-blue) rgba(var(--ase-blue-rgb), 0.1)") == []


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two "#RRGGBB" colours."""

    def luminance(hex_colour: str) -> float:
        c = [v / 255 for v in palette.rgb(hex_colour)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_dark_slide_theme_changes_only_slide_colours_and_reads_from_the_back():
    """The decks' dark theme (press d) overrides the light theme's own names only (code, figures and
    explorers keep their light cards), and its text, headings and notes boxes keep AAA-size contrast
    (7:1 for text, 4.5:1 for the large headings' and links' accent)."""
    dark = palette.SLIDES_DARK
    assert set(dark) <= set(palette.SLIDES) | {"slide-accent"}, set(dark) - set(palette.SLIDES)
    assert _contrast(dark["slide-ink"], dark["slide-paper"]) >= 7
    assert _contrast(dark["slide-ink"], dark["slide-note"]) >= 7
    assert _contrast(dark["slide-accent"], dark["slide-paper"]) >= 4.5
    assert _contrast(dark["slide-accent"], dark["slide-note"]) >= 4.5
    light = palette.SLIDES
    assert _contrast(light["slide-code-ink"], light["slide-code"]) >= 7  # code's own text, in either theme
