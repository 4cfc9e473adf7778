"""scripts/myst_convert.py: the chapters' MyST as plain Markdown/HTML, for the slides and the learner edition.

Unit tests of each piece on small made-up cells, then the one that matters most:
every `{glue:text}` number the converter writes is the number the built book shows.
"""

from __future__ import annotations

import base64
import json
import re

import nbformat
import pytest
from bs4 import BeautifulSoup

from conftest import BOOK, HTML, ROOT
from scripts import myst_convert
from scripts.myst_convert import (
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


# --------------------------------------------------------------------------- read by the book's parser
def commonmark(markdown: str):
    """The tokens a CommonMark renderer (with tables, as Jupyter's) makes of the converted Markdown."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(markdown)


def rendered_text(markdown: str) -> str:
    """The text a CommonMark renderer shows (inline code included), each block's on a line of its own."""
    return "\n".join(
        "".join("\n" if c.type in ("softbreak", "hardbreak") else c.content for c in t.children or [])
        for t in commonmark(markdown)
        if t.type == "inline"
    )


def ordered_lists(tokens) -> int:
    return sum(t.type == "ordered_list_open" for t in tokens)


NUMBERS = {"s11": {"text/plain": "2"}, "s12": {"text/plain": "1"}, "s21": {"text/plain": "2"}}
NUMBERS["s22"] = {"text/plain": "3"}


def test_a_value_that_starts_a_line_before_a_dot_is_not_a_list_marker():
    """Chapter 2's scores: the book reads one paragraph; a line starting "1." or "3." made a numbered list
    in Jupyter, the 1 was lost and the 3 shown as "2."."""
    source = (
        '"I" scores its own key {glue:text}`s11:.0f` and the key of "love"\n'
        '{glue:text}`s12:.0f`. "love" scores "I" {glue:text}`s21:.0f` and itself\n'
        "{glue:text}`s22:.0f`. These are raw scores."
    )
    out = MystConverter(NUMBERS, name="02_scores")(source)
    assert out.split("\n")[1:] == ['1\\. "love" scores "I" 2 and itself', "3\\. These are raw scores."]
    assert ordered_lists(commonmark(out)) == 0
    assert rendered_text(out) == (
        '"I" scores its own key 2 and the key of "love"\n1. "love" scores "I" 2 and itself\n3. These are raw scores.'
    )


@pytest.mark.parametrize(
    "source",
    [
        "The largest is\n{glue:text}`s12`) and the smallest",  # a ")" after the value
        "A score of\n{glue:text}`s22`.",  # the value and its full stop alone on a line
        "- entry (1, 2) is\n  {glue:text}`s12:.0f`;\n- entry (2, 1) is\n  {glue:text}`s21:.0f`.",  # in a list item
        "1. **First.** The score is\n   {glue:text}`s22:.0f`. The next",  # in a numbered list's item
        "{glue:text}`s12`. is the first word",  # at the paragraph's start
    ],
)
def test_no_written_in_value_opens_a_list_the_source_has_not(source):
    out = MystConverter(NUMBERS, name="demo")(source)
    assert ordered_lists(commonmark(out)) == ordered_lists(myst_convert.parser().parse(source))
    assert sum(t.type == "list_item_open" for t in commonmark(out)) == sum(
        t.type == "list_item_open" for t in myst_convert.parser().parse(source)
    )


def test_a_line_the_author_started_with_a_number_is_left_as_written():
    """Only a line a value now starts is escaped: the source's own lists and text stay as they are."""
    source = "1. first\n2. second\n\nThe year\n2024. Not a list: a paragraph cannot be cut by 2."
    assert convert(source) == source


def test_a_glued_value_with_markup_characters_shows_as_itself():
    glue = {"w": {"text/plain": "'*W_Q* [1] a|b $x$'"}}
    out = MystConverter(glue, name="demo")("| value |\n|---|\n| {glue:text}`w` |\n\nAnd {glue:text}`w`.")
    assert rendered_text(out).split("\n")[-2:] == ["*W_Q* [1] a|b $x$", "And *W_Q* [1] a|b $x$."]


def test_a_role_inside_inline_code_is_code():
    """The page shows the role as written (it is code); the converter expanded it."""
    assert convert("Write ``{glue:text}`pi:.2f` `` in the text.") == "Write ``{glue:text}`pi:.2f` `` in the text."
    assert convert("Write `{glue:text}` then the key.") == "Write `{glue:text}` then the key."


def test_code_text_that_looks_like_a_role_is_not_eaten():
    """`x = {a}` is code; then `b` ... the converter read `{a}`b`` as a role and dropped it."""
    assert convert("Set `x = {a}`b` and go on.") == "Set `x = {a}`b` and go on."
    assert rendered_text(convert("Set `x = {a}`b` and go on.")) == "Set x = {a}b` and go on."


def test_a_directive_fence_inside_a_code_block_is_code():
    source = "```text\n:::{dropdown} Solution\n{glue:text}`pi`\n:::\n```"
    assert convert(source) == source


def test_a_colon_line_inside_a_dropdowns_code_block_does_not_close_the_dropdown():
    """A dropdown fenced with four colons holds a code block showing `:::`: all of it is the dropdown's."""
    source = (
        "::::{dropdown} Solution\nWrite:\n\n```md\n:::{note}\nx\n:::\n```\n\nIt is {glue:text}`pi:.1f`.\n::::\nAfter."
    )
    out = convert(source)
    assert out == details("Solution", "Write:\n\n```md\n:::{note}\nx\n:::\n```\n\nIt is 3.1.") + "\nAfter."


def test_code_block_directive_keeps_its_code_as_written():
    source = '```{code-block} python\nprint("{glue:text}`pi`")\n```'
    assert convert(source) == '```python\nprint("{glue:text}`pi`")\n```'
    assert convert("````{code-block}\n```\n````") == "````\n```\n````"  # a fence its body cannot close


def test_myst_lines_inside_code_stay():
    source = "```text\n(label)=\n% not a comment\n+++\n```"
    assert convert(source) == source


def test_a_directive_in_a_list_item_keeps_the_items_indentation():
    out = convert("- Answer:\n\n  :::{dropdown} Why\n  Because {glue:text}`pi:.1f`.\n  :::\n- Next")
    assert out == "- Answer:\n\n  <details>\n  <summary>Why</summary>\n\n  Because 3.1.\n\n  </details>\n- Next"
    assert sum(t.type == "list_item_open" for t in commonmark(out)) == 2


def fake_glue(nb, value=None) -> dict[str, dict[str, str]]:
    """A value for every key a notebook\'s text uses: `value`, or each a different whole number; glued maths
    for {glue:math}, a glued table for {glue}."""
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    glue = {}
    keys = r"\{glue:text\}`([^`:]+)|\{glue:math\}\s+(\S+)|\{glue(?::md|:any)?\}[ `]*([\w-]+)"
    for n, m in enumerate(re.finditer(keys, text)):
        shown = value or str(n + 1)
        if m.group(1):
            glue[m.group(1)] = {"text/plain": shown}
        elif m.group(2):
            glue[m.group(2)] = {"text/latex": f"$$x_{{{shown}}}$$", "text/plain": "<Math>"}
        else:
            glue[m.group(3)] = {"text/markdown": f"| a |\n|---|\n| {shown} |", "text/plain": "x"}
    return glue


def markdown_cells(stem: str) -> list[tuple[int, str]]:
    nb = json.loads((BOOK / f"{stem}.ipynb").read_text())
    return [(i, "".join(c["source"])) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"], nb


NOTEBOOKS = [p.stem for p in sorted(BOOK.glob("*.ipynb"))]


@pytest.mark.parametrize("stem", NOTEBOOKS)
def test_every_chapter_converts_with_no_list_the_book_has_not(stem):
    """Each markdown cell of the chapter, every value 1 (the one number whose "1." cuts a paragraph into a
    list): rendered by CommonMark, it has exactly the numbered lists the book's parser reads in its source."""
    cells, nb = markdown_cells(stem)
    myst = MystConverter(fake_glue(nb, "1"), name=stem, image=linked_image)
    for i, source in cells:
        out = myst(source)
        book = myst_convert.parser().parse(source)
        inside = [myst_convert.parser().parse(t.content) for t in book if t.type == "colon_fence"]  # a dropdown's
        wanted = ordered_lists(book) + sum(ordered_lists(tokens) for tokens in inside)
        assert ordered_lists(commonmark(out)) == wanted, f"cell {i}: {out}"


@pytest.mark.parametrize("stem", NOTEBOOKS)
def test_every_chapter_shows_every_value_as_the_book_formats_it(stem):
    """Each markdown cell with made-up values, each a different number: the CommonMark rendering shows each
    `{glue:text}` value as myst-nb formats it."""
    cells, nb = markdown_cells(stem)
    glue = fake_glue(nb)
    myst = MystConverter(glue, name=stem, image=linked_image)
    for i, source in cells:
        shown = rendered_text(myst(source))
        for m in re.finditer(r"\{glue:text\}`([^`]+)`", source):
            key, _, fmt = m.group(1).partition(":")
            value = myst_convert.format_glue_text(glue[key]["text/plain"], fmt)
            assert re.search(rf"(?<![\d.]){re.escape(value)}(?!\d)", shown), f"cell {i}: {value} not in {shown}"


# --------------------------------------------------------------------------- against the built book
def chapters() -> list[str]:
    return [p.stem for p in sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))]


@pytest.mark.book
@pytest.mark.parametrize("stem", chapters())
def test_every_glued_number_is_the_one_the_built_book_shows(stem):
    """In page order, each `{glue:text}` the converter writes equals the book's `span.pasted-text`."""
    page = HTML / "book" / f"{stem}.html"
    if not page.exists():
        pytest.fail(f"{page} is not built: the build is incomplete (bash scripts/build.sh)")
    from scripts import build_slides

    nb, _ = build_slides.executed(ROOT / "book" / f"{stem}.ipynb")
    myst = MystConverter(glue_outputs(nb), name=stem)
    ours = [
        rendered_text(myst.convert(role))  # as a Markdown renderer shows it ("\\[1, 0\\]" is "[1, 0]")
        for cell in nb.cells
        if cell.cell_type == "markdown" and "remove-cell" not in cell.metadata.get("tags", [])
        for role in re.findall(r"\{glue:text\}`[^`]*`", cell.source)
    ]
    spans = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select("span.pasted-text")
    book = [span.get_text() for span in spans]
    assert ours, f"{stem} glues no text: the test checks nothing"
    # Sphinx's smartquotes curls the book's apostrophes ("didn’t"); the numbers are untouched.
    assert ours == [s.replace("\u2019", "'") for s in book]


def test_importing_the_module_does_not_import_myst_nb():
    """A build with nothing to do imports build_slides (and so this module) and must stay quick."""
    import subprocess
    import sys

    code = "import sys, scripts.myst_convert; print('myst_nb' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert myst_convert.BOOK == BOOK
