"""scripts/myst_convert.py: the chapters' MyST as plain Markdown/HTML, for the slides and the learner edition.

Unit tests of each piece on small made-up cells, then the one that matters most:
every `{glue:text}` number the converter writes is the number the built book shows.
"""

from __future__ import annotations

import base64
import html
import json
import re

import myst_convert
import nbformat
import pytest
from bs4 import BeautifulSoup
from myst_convert import (
    MystConverter,
    admonition_div,
    admonition_quote,
    details,
    embed_image,
    glue_outputs,
    is_glue_record,
    labels_of,
    linked_image,
)

from conftest import BOOK, HTML, ROOT

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nnot really").decode()
GLUE = {
    "pi": {"text/plain": "3.14159"},
    "big": {"text/plain": "1234567"},
    "word": {"text/plain": "'tired'"},  # a str's repr, as glue() records it
    "fig": {"image/png": PNG, "text/plain": "<Figure size 640x480 with 1 Axes>"},
    "table": {"text/markdown": "| a | b |\n|---|---|\n| {math}`x` | 1 |", "text/plain": "..."},
    "eq": {"text/latex": "$$\\frac{1}{\\sqrt{d_k}}$$", "text/plain": "..."},
    "frame": {"text/html": "<table><tr><td>1</td></tr></table>", "text/plain": "   0\n0  1"},
}


def convert(text: str, **kwargs) -> str:
    return MystConverter(GLUE, name="demo", **kwargs)(text)


# --------------------------------------------------------------------------- glue
@pytest.mark.parametrize(
    ("role", "shown"),
    [
        ("{glue:text}`pi:.2f`", "3.14"),
        ("{glue:text}`pi:.0%`", "314%"),
        ("{glue:text}`big:,`", "1,234,567"),
        ("{glue:text}`big:,.0f`", "1,234,567"),
        ("{glue:text}`pi:.1e`", "3.1e+00"),
        ("{glue:text}`pi`", "3.14159"),
        ("{glue:text}`word`", "tired"),  # the repr's quotes go, as in the book
    ],
)
def test_glue_text_is_formatted_as_myst_nb_formats_it(role, shown):
    from myst_nb.core.variables import format_plain_text

    key, _, fmt = role.split("`")[1].partition(":")
    assert convert(f"x = {role}.") == f"x = {shown}."
    assert shown == format_plain_text(GLUE[key]["text/plain"], fmt or "s")


def test_a_key_nobody_glued_is_an_error_naming_the_notebook_and_the_key():
    with pytest.raises(KeyError, match=r"demo: glue key 'nope' is used in the text but never glued"):
        convert("{glue:text}`nope:.2f`")
    with pytest.raises(KeyError, match="'nope'"):
        convert("```{glue:math} nope\n```")


def test_glued_figure_is_embedded_in_the_mime_type_the_book_would_show():
    out = convert("```{glue} fig\n```")
    assert f'src="data:image/png;base64,{PNG}"' in out
    assert 'alt="&lt;Figure size 640x480 with 1 Axes&gt;"' in out
    assert convert("{glue}`frame`") == GLUE["frame"]["text/html"]  # HTML before plain text, as myst-nb's priority


def test_glued_markdown_is_converted_too_and_glued_math_is_display_math():
    assert "$x$" in convert("```{glue:md} table\n:format: myst\n```")
    assert convert("```{glue:math} eq\n```") == "$$\n\\frac{1}{\\sqrt{d_k}}\n$$"


def test_glue_outputs_finds_records_and_leaves_the_notebook_as_it_was():
    cell = nbformat.v4.new_code_cell("glue('pi', 3.14159)")
    record = nbformat.v4.new_output(
        "display_data",
        data={"application/papermill.record/text/plain": "3.14159"},
        metadata={"scrapbook": {"name": "pi", "mime_prefix": "application/papermill.record/"}},
    )
    shown = nbformat.v4.new_output("stream", text="hello\n")
    cell.outputs = [shown, record]
    nb = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_markdown_cell("text")])
    before = json.dumps(nb, sort_keys=True)
    assert glue_outputs(nb) == {"pi": {"text/plain": "3.14159"}}
    assert json.dumps(nb, sort_keys=True) == before
    assert [is_glue_record(o) for o in cell.outputs] == [False, True]


# --------------------------------------------------------------------------- roles and links
def test_doc_links_go_where_the_caller_says_with_the_documents_title():
    to_notebook = lambda stem, anchor: f"{stem}.ipynb" + (f"#{anchor}" if anchor else "")  # noqa: E731
    titles = {"10_cross_attention": "Cross-attention"}
    assert convert("See {doc}`10_cross_attention`.", link=to_notebook, titles=titles) == (
        "See [Cross-attention](10_cross_attention.ipynb)."
    )
    assert convert("{doc}`chapter 2 <02_scores>`", link=to_notebook) == "[chapter 2](02_scores.ipynb)"
    assert convert("{doc}`02_scores`") == "[02_scores](02_scores.html)"  # no title known: the stem
    # Markdown links to other notebooks too; a web address, an anchor and a file stay as they are.
    assert (
        convert("[a](03_scaling.ipynb#var) [b](https://x.org/a.ipynb) [c](#top) [d](assets/f.png)", link=to_notebook)
        == "[a](03_scaling.ipynb#var) [b](https://x.org/a.ipynb) [c](#top) [d](assets/f.png)"
    )


def test_ref_links_to_its_label_when_the_labels_are_known_and_is_text_otherwise():
    labels = {"intro-notation": ("intro", "intro-notation")}
    assert convert("{ref}`notation <intro-notation>`", labels=labels) == "[notation](intro.html#intro-notation)"
    assert convert("{ref}`notation <elsewhere>`", labels=labels) == "notation"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("(intro-notation)=\n## Notation")])
    assert labels_of({"intro": nb}) == labels


def test_other_roles():
    assert convert("{math}`\\sqrt{d_k}`") == "$\\sqrt{d_k}$"
    assert convert("H{sub}`2`O x{sup}`2`") == "H<sub>2</sub>O x<sup>2</sup>"
    assert convert("{abbr}`MLP (multi-layer perceptron)`") == "MLP"
    assert convert("{eq}`scaled` {term}`query` {token}`x`") == "scaled query x"


# --------------------------------------------------------------------------- directives
DROPDOWN = ":::{dropdown} Solution\nIt is {glue:text}`pi:.1f`.\n:::"


def test_dropdowns_render_as_the_caller_chooses():
    assert convert(DROPDOWN) == details("Solution", "It is 3.1.")
    assert convert(DROPDOWN).startswith("<details>\n<summary>Solution</summary>")
    assert convert(DROPDOWN, dropdown=lambda title, body: f"**{title}:** {body}") == "**Solution:** It is 3.1."
    assert "<summary>More</summary>" in convert(":::{dropdown}\nx\n:::")  # no title: a generic one


def test_admonitions_as_html_or_as_a_block_quote():
    source = "```{note}\nTwo\nlines.\n```"
    assert convert(source) == admonition_div("note", "Note", "Two\nlines.")
    assert '<p class="admonition-title">Note</p>' in convert(source)
    assert convert(source, admonition=admonition_quote) == "> **Note**\n>\n> Two\n> lines."
    assert convert(":::{admonition} Why?\nBecause.\n:::", admonition=admonition_quote).startswith("> **Why?**")


def test_figures_are_embedded_or_linked(tmp_path):
    (tmp_path / "f.png").write_bytes(b"\x89PNG fake")
    source = "```{figure} f.png\n:alt: Four heads\n\nThe caption.\n```"
    out = convert(source, image=embed_image(tmp_path))
    encoded = base64.b64encode(b"\x89PNG fake").decode()
    assert out == f'<img src="data:image/png;base64,{encoded}" alt="Four heads">\n\nThe caption.'
    assert convert(source, image=linked_image).startswith('<img src="f.png" alt="Four heads">')
    assert 'src="missing.png"' in convert("```{image} missing.png\n```", image=embed_image(tmp_path))


def test_myst_only_lines_are_dropped_and_code_stays_code():
    source = "(label)=\n% a comment\n+++\n$$ x $$ (eq-x)\n```{code-block} python\nprint(1)\n```"
    assert convert(source) == "$$ x $$\n```python\nprint(1)\n```"
    assert convert("```{toctree}\n:hidden:\nintro\n```") == ""


def test_a_yaml_options_block_is_read_like_colon_options():
    assert convert("```{figure} x.png\n---\nalt: Heads\n---\nCap.\n```", image=linked_image) == (
        '<img src="x.png" alt="Heads">\n\nCap.'
    )


# --------------------------------------------------------------------------- against the built book
def chapters() -> list[str]:
    return [p.stem for p in sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))]


@pytest.mark.parametrize("stem", chapters())
def test_every_glued_number_is_the_one_the_built_book_shows(stem):
    """In page order, each `{glue:text}` the converter writes equals the book's `span.pasted-text`."""
    page = HTML / "book" / f"{stem}.html"
    if not page.exists():
        pytest.skip(f"{page} is not built")
    import build_slides

    nb, _ = build_slides.executed(ROOT / "book" / f"{stem}.ipynb")
    myst = MystConverter(glue_outputs(nb), name=stem)
    ours = [
        myst.convert(role)
        for cell in nb.cells
        if cell.cell_type == "markdown" and "remove-cell" not in cell.metadata.get("tags", [])
        for role in re.findall(r"\{glue:text\}`[^`]*`", cell.source)
    ]
    spans = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select("span.pasted-text")
    book = [span.get_text() for span in spans]
    assert ours, f"{stem} glues no text: the test checks nothing"
    # Sphinx's smartquotes curls the book's apostrophes ("didn’t"); the numbers are untouched.
    assert [html.unescape(s) for s in ours] == [s.replace("\u2019", "'") for s in book]


def test_importing_the_module_does_not_import_myst_nb():
    """A build with nothing to do imports build_slides (and so this module) and must stay quick."""
    import subprocess
    import sys

    code = "import sys; sys.path.insert(0, 'scripts'); import myst_convert; print('myst_nb' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert myst_convert.BOOK == BOOK
