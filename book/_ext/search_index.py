"""Keep hidden code out of the search index.

Sphinx indexes every word of a page, including the source of code cells that
the page hides behind "Show code cell source" (myst-nb's hide-input). A reader
who searched for a word found pages where that word is nowhere to be seen. This
extension hands Sphinx's indexer a copy of each page without the hidden parts;
the snippets shown with the results are cleaned the same way in
book/assets/book.js.
"""

from __future__ import annotations

from sphinx.search import IndexBuilder

_feed = IndexBuilder.feed


def _hidden(doctree) -> list:
    # myst-nb wraps a hidden cell input (or a hidden output) in a HideCodeCellNode.
    return [n for n in doctree.findall() if type(n).__name__ == "HideCodeCellNode"]


def _feed_visible(self, docname, filename, title, doctree):
    if _hidden(doctree):
        doctree = doctree.deepcopy()  # the page itself keeps its cells
        for node in _hidden(doctree):
            node.parent.remove(node)
    return _feed(self, docname, filename, title, doctree)


def setup(app):
    IndexBuilder.feed = _feed_visible
    return {"parallel_read_safe": True, "parallel_write_safe": True}
