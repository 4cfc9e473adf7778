"""The MyST the chapters are written in, as the plain Markdown and HTML that Jupyter renders.

The book (myst-nb) understands glue roles and directives, dropdowns, admonitions,
figures, `{doc}` links and labels; nbconvert's slides, JupyterLab, VS Code and
Colab do not. Two editions need them resolved from the same notebook:

- the slides (scripts/build_slides.py), which render dropdowns as `<details>`,
  embed images as data URIs and link other chapters to their decks;
- the learner edition, which links other chapters to their
  notebooks and may render notes and dropdowns differently.

So what differs between them is a parameter of `MystConverter` (how a dropdown,
an admonition, an image and a link to another document render), and what is
the book's own is taken from myst-nb itself: how a `{glue:text}` value is
formatted (`myst_nb.core.variables.format_plain_text`), which mime type of a
glued output is shown (myst-nb's render priority for HTML), and how glued
outputs are found in a cell (`myst_nb.ext.glue.extract_glue_data_cell`).

    from scripts.myst_convert import MystConverter, glue_outputs
    convert = MystConverter(glue_outputs(nb), name="03_scaling", link=lambda stem, anchor: f"{stem}.ipynb")
    markdown = convert(cell.source)

The MyST is read by the book's own parser (myst-parser's markdown-it, with the
extensions _config.yml enables), not by patterns: a role inside inline code or a
directive inside a code block stays code, as on the page. The conversion edits
the source only where the parser found something to resolve (a role, a
directive, a target, a link to another document) and leaves every other
character as the author wrote it. A value written in where a line starts is
escaped where Markdown would read it as markup (`2.` at the start of a line
would open a numbered list: it is written `2\\.`).

Importing this module is cheap; myst-nb (about two seconds to import) and
myst-parser are loaded the first time a notebook is converted.
"""

from __future__ import annotations

import base64
import copy
import functools
import html
import mimetypes
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"  # where the chapters' figure paths are relative to

# One renderer per thing the editions show differently.
Dropdown = Callable[[str, str], str]  # (title, converted body) -> Markdown/HTML
Admonition = Callable[[str, str, str], str]  # (kind such as "note", title, converted body) -> Markdown/HTML
Image = Callable[[str, str], str]  # (path as written in the notebook, alt text) -> Markdown/HTML
DocLink = Callable[[str, str], str]  # (document stem such as "03_scaling", anchor or "") -> href


# --------------------------------------------------------------------------- the book's own pieces
@functools.cache
def parser():
    """myst-parser's markdown-it parser with the book's extensions (_config.yml's `parse:` section).

    Each inline token the conversion replaces (a role, a link) records where it is in its
    inline's source, `token.meta["span"] = (start, end)`: markdown-it keeps no positions
    below the block level, so every inline rule is wrapped to note them."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    extensions = config.get("parse", {}).get("myst_enable_extensions", [])
    md = create_md_parser(MdParserConfig(enable_extensions=set(extensions)), RendererHTML)
    for rule in list(md.inline.ruler.__rules__):
        md.inline.ruler.at(rule.name, _noting_spans(rule.fn), {"alt": rule.alt})
    return md


def _noting_spans(rule):
    def noted(state, silent):
        start, count = state.pos, len(state.tokens)
        found = rule(state, silent)
        if found and not silent:
            for token in state.tokens[count:]:  # a link's label was tokenized inside: its tokens have theirs
                token.meta.setdefault("span", (start, state.pos))
        return found

    return noted


@functools.cache
def _myst_nb():
    """myst-nb's glue extraction, text formatting and render priority (imported once, when first needed)."""
    from myst_nb.core.render import base_render_priority
    from myst_nb.core.variables import format_plain_text
    from myst_nb.ext.glue import extract_glue_data_cell

    priority = base_render_priority()["html"]
    return extract_glue_data_cell, format_plain_text, sorted(priority, key=lambda mime: priority[mime])


def glue_outputs(nb) -> dict[str, dict]:
    """Every value a notebook glued: key -> {mime type: data}, found as myst-nb finds them.

    The notebook is not changed (myst-nb's extraction edits the cell it reads: it is given a copy)."""
    extract = _myst_nb()[0]
    found = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            for key, output in extract(copy.deepcopy(cell)):
                found[key] = dict(output["data"])
    return found


def is_glue_record(output) -> bool:
    """True for the output `glue()` records (it is shown where the text pastes it, not under its cell)."""
    return bool(output.get("metadata", {}).get("scrapbook"))


def format_glue_text(text: str, fmt: str) -> str:
    """`{glue:text}`key:fmt`` as the book shows it (myst-nb's formatting of the glued text/plain)."""
    return _myst_nb()[1](text, fmt)


# --------------------------------------------------------------------------- renderers to choose from
def details(title: str, body: str) -> str:
    """A dropdown as an HTML disclosure: closed until clicked, in every Jupyter front end and in reveal.js."""
    return f"<details>\n<summary>{html.escape(title)}</summary>\n\n{body}\n\n</details>"


def admonition_div(kind: str, title: str, body: str) -> str:
    """An admonition as the book's HTML (`div.admonition.note` with a title paragraph), for a stylesheet."""
    return f'<div class="admonition {kind}">\n<p class="admonition-title">{html.escape(title)}</p>\n\n{body}\n\n</div>'


def admonition_quote(kind: str, title: str, body: str) -> str:
    """An admonition as a Markdown block quote with a bold title: readable with no stylesheet at all."""
    lines = [f"**{title}**", "", *body.split("\n")]
    return "\n".join(f"> {line}".rstrip() for line in lines)


def embed_image(base: Path = BOOK) -> Image:
    """Images as data URIs (one self-contained file, as a deck is); a path that is not a file is left as written."""

    def render(src: str, alt: str) -> str:
        path = base / src
        if path.is_file():
            mime = mimetypes.guess_type(path.name)[0] or "image/png"
            src = f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode()}"
        return f'<img src="{src}" alt="{html.escape(alt, quote=True)}">'

    return render


def linked_image(src: str, alt: str) -> str:
    """Images by their relative path (a notebook that stays beside its assets/ folder)."""
    return f'<img src="{html.escape(src, quote=True)}" alt="{html.escape(alt, quote=True)}">'


def book_page(stem: str, anchor: str) -> str:
    """A link to another document as its page in the built book, next to the current one."""
    return f"{stem}.html" + (f"#{anchor}" if anchor else "")


# --------------------------------------------------------------------------- writing plain Markdown
# Where a line starts with these, CommonMark reads a block: a numbered or bulleted list item, a
# heading, a quote, a setext underline, a code fence. A value written in at a line's start is
# followed by whatever the source had after the role ("." in "{glue:text}`n`. The next ..."), so
# the line is checked once the value is in.
LINE_START = [
    (re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)"), r"\1\\\2"),  # 2. / 2)  ->  2\. / 2\)
    (re.compile(r"^(\s*)([-+*]|#{1,6})(?=\s|$)"), r"\1\\\2"),
    (re.compile(r"^(\s*)(>|=+\s*$|-+\s*$|`{3,}|~{3,})"), r"\1\\\2"),
]
INLINE_MARKUP = re.compile(r"([\\`*_\[\]|$~])")  # what would start emphasis, code, a link, maths, a table cell


def escape_line_start(line: str) -> str:
    """`line` with a backslash where its start would be read as a list marker, heading, quote, ..."""
    for pattern, replacement in LINE_START:
        line = pattern.sub(replacement, line, count=1)
    return line


def escape_text(text: str) -> str:
    """Plain text (a glued value) as Markdown that shows exactly it: HTML and inline markup escaped."""
    return INLINE_MARKUP.sub(r"\\\1", html.escape(text))


def _fence(body: str, char: str = "`") -> str:
    """A code fence longer than any run of `char` in `body`, so the body cannot close it."""
    runs = [len(m) for m in re.findall(rf"{re.escape(char)}+", body)]
    return char * max(3, max(runs, default=0) + 1)


# --------------------------------------------------------------------------- the converter
DIRECTIVE = re.compile(r"^\{([^}\s]+)\}[ \t]*(.*)$")  # a fence's info string `{name} argument`
OPTION = re.compile(r"^\s*:[\w-]+:")


class MystConverter:
    """One notebook's MyST markdown cells as plain Markdown/HTML.

    glue       what the notebook glued (`glue_outputs(nb)`); a key the text uses but
               nobody glued is an error naming the notebook and the key
    name       the notebook's name, for error messages
    link       href of another document (a `{doc}` role or a `[text](other.ipynb)` link)
    titles     document stem -> title, the text of a `{doc}` link written without one
               (as Sphinx shows the document's title); an unknown stem shows the stem
    labels     label -> (document stem, anchor), where a `{ref}` points; an unknown
               label shows the role's text with no link
    dropdown, admonition, image: how those render (see the functions above)
    """

    ADMONITIONS = {
        "note",
        "tip",
        "hint",
        "important",
        "warning",
        "caution",
        "attention",
        "danger",
        "error",
        "seealso",
        "admonition",
        "margin",
        "sidebar",
        "aside",
        "topic",
    }
    CODE = {"code-block", "code", "code-cell", "sourcecode"}
    DOCUMENT = (".ipynb", ".md", "")  # suffixes of a link to another document (rather than a file)
    REMOVED = {"myst_target", "myst_line_comment", "myst_block_break", "front_matter"}  # (label)=, % ..., +++

    def __init__(
        self,
        glue: Mapping[str, Mapping[str, str]],
        *,
        name: str = "notebook",
        link: DocLink = book_page,
        titles: Mapping[str, str] | None = None,
        labels: Mapping[str, tuple[str, str]] | None = None,
        dropdown: Dropdown = details,
        admonition: Admonition = admonition_div,
        image: Image | None = None,
    ):
        self.glue, self.name, self.link = glue, name, link
        self.titles, self.labels = dict(titles or {}), labels
        self.dropdown, self.admonition, self.image = dropdown, admonition, image or embed_image()

    def __call__(self, text: str) -> str:
        return self.convert(text)

    # -- links
    def href(self, target: str) -> str:
        """Where a link target written in the notebook points in the output."""
        path, _, anchor = target.partition("#")
        if not path:
            return f"#{anchor}" if anchor else "#"
        if path.startswith(("http://", "https://", "mailto:")) or Path(path).suffix not in self.DOCUMENT:
            return target
        return self.link(Path(path).stem, anchor)

    # -- glue
    def data(self, key: str) -> Mapping[str, str]:
        if key not in self.glue:
            raise KeyError(f"{self.name}: glue key {key!r} is used in the text but never glued")
        return self.glue[key]

    def glued(self, key: str) -> str:
        """`{glue}`/`{glue:any}`: the glued output in the mime type myst-nb would show in HTML."""
        data = self.data(key)
        mime = next((m for m in _myst_nb()[2] if m in data), None)
        if mime is None:
            raise ValueError(f"{self.name}: glue key {key!r} has no output a page can show (it has {sorted(data)})")
        if mime.startswith("image/"):
            payload = data[mime] if mime != "image/svg+xml" else base64.b64encode(data[mime].encode()).decode()
            alt = html.escape(data.get("text/plain", key), quote=True)
            return f'<img src="data:{mime};base64,{payload}" alt="{alt}">'
        if mime == "text/markdown":
            return self.convert(data[mime])  # myst-nb parses glued Markdown as MyST
        if mime == "text/plain":
            return escape_text(data[mime])
        return data[mime]

    # -- roles
    def role(self, name: str, text: str) -> str:
        """A role `{name}`text`` as Markdown (a glued value is text: escaped)."""
        titled = re.fullmatch(r"(.*?)\s*<([^>]+)>", text, re.S)
        if name == "glue:text":
            key, _, fmt = text.rpartition(":") if ":" in text else (text, "", "")
            return escape_text(format_glue_text(self.data(key).get("text/plain", ""), fmt))
        if name in ("glue", "glue:", "glue:any", "glue:md"):
            return self.glued(text)
        if name == "math":
            return f"${text}$"
        if name in ("sub", "sup"):
            return f"<{name}>{text}</{name}>"
        if name == "ref" and self.labels is not None:
            label = titled.group(2) if titled else text
            shown = titled.group(1) if titled else text
            if label in self.labels:
                stem, anchor = self.labels[label]
                return f"[{shown}]({self.link(stem, anchor)})"
            return shown
        if name in ("doc", "ref", "any", "download") and titled:
            return f"[{titled.group(1)}]({self.href(titled.group(2))})"
        if name == "doc":
            stem = Path(text).stem
            return f"[{self.titles.get(stem, stem)}]({self.href(text)})"
        if name == "abbr":
            return re.sub(r"\s*\(.*\)$", "", text)
        if name in ("eq", "numref", "ref", "term", "index", "cite"):
            return titled.group(1) if titled else text
        return text

    # -- directives
    def directive(self, name: str, argument: str, body: str) -> str:
        """A directive (its name, the rest of its first line, the lines inside its fence) as Markdown/HTML."""
        lines = body.split("\n")
        options = {}
        if lines and lines[0].strip() == "---":  # a YAML options block
            end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
            if end is not None:
                options = {str(k): str(v) for k, v in (yaml.safe_load("\n".join(lines[1:end])) or {}).items()}
                lines = lines[end + 1 :]
        while lines and OPTION.match(lines[0]):
            key, _, value = lines.pop(0).strip()[1:].partition(":")
            options[key] = value.strip()
        raw = "\n".join(lines).strip("\n")
        if name in self.CODE:
            fence = _fence(raw)
            return f"{fence}{argument}\n{raw}\n{fence}"  # code: shown as written
        if name == "math":
            return f"$$\n{raw}\n$$"
        if name == "glue:math":
            value = self.data(argument).get("text/latex", "").strip().strip("$")
            return f"$$\n{value}\n$$"
        if name in ("toctree", "tableofcontents", "bibliography", "glossary"):
            return ""
        body = self.convert(raw).strip("\n")
        if name == "dropdown":
            return self.dropdown(self.inline_text(argument) if argument else "More", body)
        if name in self.ADMONITIONS:
            title = argument if name in ("admonition", "topic", "sidebar") or argument else name.capitalize()
            return self.admonition(name, self.inline_text(title), body)
        if name in ("glue", "glue:", "glue:any", "glue:figure", "glue:md"):
            caption = f"\n\n{body}" if body else ""
            # blank lines around the glued output: Markdown inside an HTML block is not parsed (a
            # glued table showed as its raw pipes)
            return f'<div class="glued">\n\n{self.glued(argument)}\n\n</div>{caption}'
        if name in ("figure", "image"):
            caption = f"\n\n{body}" if name == "figure" and body else ""
            return self.image(argument, options.get("alt", body or argument)) + caption
        if name in ("epigraph", "pull-quote", "highlights"):
            return "\n".join("> " + line for line in body.splitlines())
        if name == "tab-item":
            return f"**{argument}**\n\n{body}"
        return body  # tab-set, grid, card, div, ... : their content

    # -- inline text
    def inline_text(self, text: str) -> str:
        """A line of inline MyST (a directive's title) with its roles resolved."""
        tokens = parser().parseInline(text)
        return self.inline(tokens[0]) if tokens else text

    def inline(self, token, at_line_start: bool = False) -> str:
        """An inline token's source with its roles resolved and its links to other documents redirected."""
        return "\n".join(self.inline_lines(token, at_line_start))

    def inline_lines(self, token, at_line_start: bool = False) -> list[str]:
        """`inline(token)` cut at the source's line breaks: one string per line of the token's source
        (a written-in value with line breaks of its own keeps them inside its line's string).

        at_line_start: each line of the token starts a line of the output (a paragraph's); a line
        that now starts with a written-in value is escaped where it would read as markup."""
        src = token.content
        edits = []  # (start, end, replacement, a written-in value) in src
        for child in token.children or []:
            span = child.meta.get("span")
            if span is None:
                continue
            start, end = span
            if child.type == "myst_role":
                edits.append((start, end, self.role(child.meta["name"], child.content), True))
            elif child.type == "link_open":  # [label](target "title"): the target may point elsewhere
                label_end = src.rfind("](", start, end)
                found = re.match(r"\s*(<[^>\n]*>|[^\s)]+)", src[label_end + 2 : end]) if label_end >= 0 else None
                if found:
                    raw = found.group(1)
                    target = raw[1:-1] if raw.startswith("<") else raw
                    href = self.href(target)
                    if href != target:
                        at = label_end + 2 + found.start(1)
                        edits.append((at, at + len(raw), f"<{href}>" if " " in href else href, False))
        lines, offset = [], 0
        for line in src.split("\n"):
            out, last, value_first = [], 0, False
            for start, end, text, value in sorted(edits):
                if offset <= start < offset + len(line) + 1:
                    start, end = start - offset, min(end - offset, len(line))
                    value_first |= value and not line[:start].strip()
                    out.append(line[last:start] + text)
                    last = end
            out.append(line[last:])
            line_out = "".join(out)
            lines.append(escape_line_start(line_out) if at_line_start and value_first else line_out)
            offset += len(line) + 1
        return lines

    # -- blocks
    def convert(self, text: str) -> str:
        """One markdown cell's MyST source as plain Markdown/HTML."""
        lines = text.split("\n")
        whole: dict[int, tuple[int, list[str]]] = {}  # first line -> (end line, its replacement lines)
        within: dict[int, list[tuple[int, int, str]]] = {}  # line -> (start, end, replacement)
        cursor: dict[int, int] = {}
        previous = None
        for token in parser().parse(text):
            previous, kind = token.type, previous
            if token.map is None:
                continue
            first, end = token.map[0], max(token.map[1], token.map[0] + 1)
            if token.type in self.REMOVED:
                whole[first] = (end, [])
            elif token.type == "math_block_label":  # $$ ... $$ (label): the label goes
                last = lines[end - 1]
                whole[end - 1] = (end, [re.sub(r"(\$\$)[ \t]*\([^)\s]+\)[ \t]*$", r"\1", last)])
            elif token.type in ("fence", "colon_fence") and DIRECTIVE.match(token.info.strip()):
                name, argument = DIRECTIVE.match(token.info.strip()).groups()
                out = self.directive(name, argument.strip(), token.content.rstrip("\n")).split("\n")
                prefix = lines[first][: len(lines[first]) - len(lines[first].lstrip(" \t>-+*0123456789.)"))]
                if prefix:  # inside a list item or a quote: the same indentation on every line
                    rest = re.sub(r"[^>\s]", " ", prefix)
                    out = [prefix + out[0]] + [(rest + line).rstrip() if line else rest.rstrip() for line in out[1:]]
                whole[first] = (end, out)
            elif token.type == "inline":
                paragraph = kind == "paragraph_open"
                for k, (old, line) in enumerate(zip(token.content.split("\n"), self.inline_lines(token, paragraph))):
                    row, part, changed = first + k, old.strip(), line.strip() != old.strip()
                    if not part or row >= len(lines):
                        continue
                    at = lines[row].find(part, cursor.get(row, 0))
                    if at < 0 and "|" in part:  # a table cell: its \| came back as |
                        part = part.replace("|", "\\|")
                        at = lines[row].find(part, cursor.get(row, 0))
                    if at < 0:
                        if changed:
                            raise ValueError(f"{self.name}: cannot find {part!r} in line {row + 1}: {lines[row]!r}")
                        continue
                    cursor[row] = at + len(part)  # (a table row holds several cells)
                    if changed:
                        within.setdefault(row, []).append((at, at + len(part), line.strip()))
        out, row = [], 0
        while row < len(lines):
            if row in whole:
                end, replacement = whole[row]
                out += replacement
                row = end
                continue
            line = lines[row]
            for start, end, new in sorted(within.get(row, []), reverse=True):
                line = line[:start] + new + line[end:]
            out.append(line)
            row += 1
        return "\n".join(out)


def labels_of(notebooks: Mapping[str, object]) -> dict[str, tuple[str, str]]:
    """Every `(label)=` target in these notebooks (stem -> notebook): label -> (stem, anchor)."""
    found = {}
    for stem, nb in notebooks.items():
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                if "=" in source:  # (a target needs one; most cells need no parse)
                    for token in parser().parse(source):
                        if token.type == "myst_target":
                            found[token.content] = (stem, token.content)
    return found
