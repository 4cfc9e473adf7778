"""Search that finds what the reader sees, as the reader types it.

Sphinx indexes every word of a page, including the source of code cells that
the page hides behind "Show code cell source" (myst-nb's hide-input). A reader
who searched for a word found pages where that word is nowhere to be seen. This
extension hands Sphinx's indexer a copy of each page without the hidden parts;
the snippets shown with the results are cleaned the same way in
book/assets/book.js.

The Chinese edition: Sphinx cuts its pages into words with jieba (多头注意力 into
多头, 注意, 注意力) but the reader's query only at spaces and punctuation, so a term
typed as one run of characters was looked up whole and found nothing; and it
leaves single characters out of the index (键, 值, 头). `ChineseAsTyped` keeps
single characters but for a few function words, and cuts the query as the index
was cut: each run of Chinese characters into the longest terms the index holds.
"""

from __future__ import annotations

import re

from sphinx.search import IndexBuilder
from sphinx.search.zh import SearchChinese

_HAN = re.compile(r"^[\u4e00-\u9fff]$")
# single characters too common to find anything by: particles, conjunctions, pronouns, measure words
_FUNCTION_CHARACTERS = set("的了和是在与及或而把被个这那也都就它其之为以于从对到上下中有不一")

# The query, cut the way the index was: Latin words and numbers as Sphinx's default splitQuery
# cuts them, each run of Chinese characters into the longest terms of the index, left to right
# (a character the index does not hold stays a term of its own).
SPLIT_AS_INDEXED = r"""
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) || {};
  const known = (w) => (index.terms && w in index.terms) || (index.titleterms && w in index.titleterms);
  const out = [];
  for (const chunk of query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)) {
    for (const part of chunk.split(/(\p{Script=Han}+)/u)) {
      if (!part) continue;
      if (!/\p{Script=Han}/u.test(part)) { out.push(part); continue; }
      for (let i = 0; i < part.length; ) {
        let j = Math.min(part.length, i + 8);
        while (j > i + 1 && !known(part.slice(i, j))) j--;
        out.push(part.slice(i, j));
        i = j;
      }
    }
  }
  return out;
};
"""


class ChineseAsTyped(SearchChinese):
    """Sphinx's Chinese search, with single characters indexed and the query cut as the index was."""

    js_splitter_code = SPLIT_AS_INDEXED

    def word_filter(self, stemmed_word: str) -> bool:
        if _HAN.match(stemmed_word):
            return stemmed_word not in _FUNCTION_CHARACTERS
        return super().word_filter(stemmed_word)


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
    app.add_search_language(ChineseAsTyped)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
