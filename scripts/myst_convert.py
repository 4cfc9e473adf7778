"""The MyST the chapters are written in, as the plain Markdown and HTML that Jupyter renders.

The book (myst-nb) understands glue roles and directives, dropdowns, admonitions,
figures, `{doc}` links and labels; nbconvert's slides, JupyterLab, VS Code and
Colab do not. Two editions need them resolved from the same notebook:

- the slides (scripts/build_slides.py), which render dropdowns as `<details>`,
  embed images as data URIs and link other chapters to their decks;
- the learner edition (issue 10), which links other chapters to their
  notebooks and may render notes and dropdowns differently.

So what differs between them is a parameter of `MystConverter` (how a dropdown,
an admonition, an image and a link to another document render), and what is
the book's own is taken from myst-nb itself: how a `{glue:text}` value is
formatted (`myst_nb.core.variables.format_plain_text`), which mime type of a
glued output is shown (myst-nb's render priority for HTML), and how glued
outputs are found in a cell (`myst_nb.ext.glue.extract_glue_data_cell`).

    from myst_convert import MystConverter, glue_outputs
    convert = MystConverter(glue_outputs(nb), name="03_scaling", link=lambda stem, anchor: f"{stem}.ipynb")
    markdown = convert(cell.source)

Importing this module is cheap; myst-nb (about two seconds to import) is
loaded the first time a notebook is converted.
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

BOOK = Path(__file__).resolve().parent.parent / "book"  # where the chapters' figure paths are relative to

# One renderer per thing the editions show differently.
Dropdown = Callable[[str, str], str]  # (title, converted body) -> Markdown/HTML
Admonition = Callable[[str, str, str], str]  # (kind such as "note", title, converted body) -> Markdown/HTML
Image = Callable[[str, str], str]  # (path as written in the notebook, alt text) -> Markdown/HTML
DocLink = Callable[[str, str], str]  # (document stem such as "03_scaling", anchor or "") -> href


# --------------------------------------------------------------------------- myst-nb's own pieces
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


# --------------------------------------------------------------------------- the converter
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

    ROLE = re.compile(r"\{([a-zA-Z][\w:+-]*)\}`([^`]*)`")
    FENCE = re.compile(r"^(\s*)(:{3,}|`{3,}|~{3,})\{([^}\s]+)\}[ \t]*(.*)$")
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
    DOCUMENT = (".ipynb", ".md", "")  # suffixes of a link to another document (rather than a file)

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
            return html.escape(data[mime])
        return data[mime]

    # -- roles
    def role(self, match: re.Match) -> str:
        name, text = match.group(1), match.group(2)
        titled = re.fullmatch(r"(.*?)\s*<([^>]+)>", text, re.S)
        if name == "glue:text":
            key, _, fmt = text.rpartition(":") if ":" in text else (text, "", "")
            return html.escape(format_glue_text(self.data(key).get("text/plain", ""), fmt))
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
        options, lines = {}, body.split("\n")
        while lines and re.match(r"^\s*:[\w-]+:", lines[0]):
            key, _, value = lines.pop(0).strip()[1:].partition(":")
            options[key] = value.strip()
        body = self.convert("\n".join(lines)).strip("\n")
        if name == "dropdown":
            return self.dropdown(argument or "More", body)
        if name in self.ADMONITIONS:
            title = argument if name in ("admonition", "topic", "sidebar") or argument else name.capitalize()
            return self.admonition(name, title, body)
        if name == "math":
            return f"$$\n{body}\n$$"
        if name in ("glue", "glue:", "glue:any", "glue:figure", "glue:md"):
            caption = f"\n\n{body}" if body else ""
            # blank lines around the glued output: Markdown inside an HTML block is not parsed (a
            # glued table showed as its raw pipes)
            return f'<div class="glued">\n\n{self.glued(argument)}\n\n</div>{caption}'
        if name == "glue:math":
            value = self.data(argument).get("text/latex", "").strip().strip("$")
            return f"$$\n{value}\n$$"
        if name in ("figure", "image"):
            caption = f"\n\n{body}" if name == "figure" and body else ""
            return self.image(argument, options.get("alt", body or argument)) + caption
        if name in ("code-block", "code", "code-cell", "sourcecode"):
            return f"```{argument}\n{body}\n```"
        if name in ("toctree", "tableofcontents", "bibliography", "glossary"):
            return ""
        if name in ("epigraph", "pull-quote", "highlights"):
            return "\n".join("> " + line for line in body.splitlines())
        if name == "tab-item":
            return f"**{argument}**\n\n{body}"
        return body  # tab-set, grid, card, div, ... : their content

    def convert(self, text: str) -> str:
        """One markdown cell's MyST source as plain Markdown/HTML."""
        out, lines, i = [], text.split("\n"), 0
        while i < len(lines):
            line = lines[i]
            fence = self.FENCE.match(line)
            if fence:
                _, marks, name, argument = fence.groups()
                close = re.compile(rf"^\s*{re.escape(marks[0])}{{{len(marks)},}}\s*$")
                j = i + 1
                while j < len(lines) and not close.match(lines[j]):
                    j += 1
                body = "\n".join(lines[i + 1 : j])
                if body.startswith("---\n"):  # YAML options block
                    head, _, rest = body[4:].partition("\n---")
                    body = "\n".join(f":{k}: {v}" for k, v in (yaml.safe_load(head) or {}).items()) + rest
                out.append(self.directive(name, argument.strip(), body))
                i = j + 1
                continue
            if re.match(r"^\s*\([^)\s]+\)=\s*$", line) or re.match(r"^\s*%", line) or line.strip() == "+++":
                i += 1  # (label)= targets, % comments, +++ block breaks
                continue
            out.append(line)
            i += 1
        text = "\n".join(out)
        text = re.sub(r"(\$\$)[ \t]*\([^)\s]+\)[ \t]*$", r"\1", text, flags=re.M)  # $$ ... $$ (label)
        text = self.ROLE.sub(self.role, text)
        # Markdown links to other documents go where `link` says.
        return re.sub(r"\]\(([^)\s]+)\)", lambda m: f"]({self.href(m.group(1))})", text)


def labels_of(notebooks: Mapping[str, object]) -> dict[str, tuple[str, str]]:
    """Every `(label)=` target in these notebooks (stem -> notebook): label -> (stem, anchor)."""
    found = {}
    for stem, nb in notebooks.items():
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                for label in re.findall(r"^\s*\(([^)\s]+)\)=\s*$", source, flags=re.M):
                    found[label] = (stem, label)
    return found
