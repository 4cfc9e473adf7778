"""Glued numbers inside translated text: a workaround for a MyST-NB bug.

The bug (MyST-NB 1.4.0, myst-parser 3.0.1, Sphinx 7.4.7, Jupyter Book 1.0.4)
-----------------------------------------------------------------------------
Sphinx translates a page by parsing each translated message (msgstr) on its own,
as a small document whose source ends in ``<translated>``. Since MyST-NB's fix
for translated notebooks (executablebooks/MyST-NB issue #587, "Does not work with
Sphinx's internationalization workflow", fixed by pull request #600, "Support
translated notebooks"), MyST-NB parses such a message with the plain MyST parser
(``myst_nb.sphinx_.Parser.parse``: ``if ... document.current_source.endswith(
"<translated>"): return super().parse(...)``). That small document has no notebook
renderer, so every glue role in a translated message fails:

- ``{glue:text}`key``` -> "No key 'key' found in glue data for this document";
- ``{glue:text}`page.ipynb::key``` -> "Pending glue reference document not found",
  because ``env.relfn2path`` is given the translated message's pseudo source path.

Every number in this book is glued, so without a fix the Chinese pages would lose
every number (and the build, run with -W, fails). No upstream issue for glue in
translated messages was found in the MyST-NB tracker (searched 2026-12-01); #587/#600
is the change that creates the situation.

The workaround
--------------
The notebook renderer that MyST-NB makes while it parses the page itself (it holds
the page's glue data) is kept for the duration of the page's read, and handed to the
translated messages' documents before they are parsed. The glue roles then find
their data exactly as they do in the English page: same keys, same formats, same
numbers. Nothing is done for English builds (no message is translated there).

When can it go? ``tests/test_i18n_glue.py::test_upstream_still_needs_the_workaround``
parses a translated message with a glue role with this extension's patch removed;
it fails (telling us to delete this file and its line in _config.yml) once MyST-NB
resolves glue in translated text by itself.
"""

from __future__ import annotations

from typing import Any

_KEY = "i18n_glue_renderer"
_PATCHED = "_i18n_glue_original_parse"


class _KeepRenderer(dict):
    """A document's attributes that remember the notebook renderer MyST-NB pops at
    the end of its parse (``document.attributes.pop("nb_renderer")``)."""

    def __init__(self, data: dict, temp_data: dict) -> None:
        super().__init__(data)
        self._temp_data = temp_data

    def pop(self, key: Any, *default: Any) -> Any:
        if key == "nb_renderer" and key in self:
            self._temp_data[_KEY] = self[key]
        return super().pop(key, *default)


def _patched_parse(original):
    def parse(self, inputstring: str, document) -> None:
        env = getattr(document.settings, "env", None)
        if env is None:
            return original(self, inputstring, document)
        if document.current_source and document.current_source.endswith("<translated>"):
            renderer = env.temp_data.get(_KEY)
            if renderer is None or "nb_renderer" in document.attributes:
                return original(self, inputstring, document)
            document.attributes["nb_renderer"] = renderer
            try:
                return original(self, inputstring, document)
            finally:
                document.attributes.pop("nb_renderer", None)
        # The page itself: keep its renderer for the translated messages that follow.
        env.temp_data.pop(_KEY, None)
        document.attributes = _KeepRenderer(document.attributes, env.temp_data)
        try:
            return original(self, inputstring, document)
        finally:
            document.attributes = dict(document.attributes)

    parse.__wrapped__ = original
    return parse


def install() -> None:
    """Patch MyST-NB's Sphinx parser (idempotent)."""
    from myst_nb.sphinx_ import Parser

    if not hasattr(Parser, _PATCHED):
        setattr(Parser, _PATCHED, Parser.parse)
        Parser.parse = _patched_parse(Parser.parse)


def uninstall() -> None:
    """Undo install() (the test that watches upstream uses it)."""
    from myst_nb.sphinx_ import Parser

    if hasattr(Parser, _PATCHED):
        Parser.parse = getattr(Parser, _PATCHED)
        delattr(Parser, _PATCHED)


def setup(app):
    install()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
