"""The one Markdown table writer every chapter table goes through."""

import pytest

from attention_steps.tables import markdown_table


def test_markdown_table_right_aligns_numbers_and_formats_floats():
    assert markdown_table(["n", "share"], [(512, 0.19984), ("1,024", "5.65%")]) == (
        "| n | share |\n|---:|---:|\n| 512 | 0.2 |\n| 1,024 | 5.65% |"
    )


def test_markdown_table_aligns_each_column_as_asked():
    assert markdown_table(["a", "b"], [("x", "y")], align="lr").splitlines()[1] == "|---|---:|"
    with pytest.raises(ValueError, match="one 'l' or 'r' per column"):
        markdown_table(["a", "b"], [], align="l")


# Every core helper that writes a chapter's table, with the page whose catalogue translates its saved output
# (locale/zh_CN/LC_MESSAGES/book/<page>.po) and the header row it writes in English, which the English pages show.
def _helpers():
    from attention_steps.costs import memory_table, stage_costs, stages_markdown, table_markdown
    from attention_steps.kv_cache import SEVEN_B, kv_cache_markdown, kv_cache_table
    from attention_steps.longcontext import compare, comparison_markdown
    from attention_steps.parameters import parameter_count
    from attention_steps.sparse_linear import sparse_markdown

    measured = [compare(64, d=8, block_size=32, repeat=1)]  # measured once, written in each language
    return {
        "memory": (
            "08_whole_layer",
            lambda: table_markdown(memory_table()),
            "| sequence length n | entries n² | memory at FP16 |",
        ),
        "stages": (
            "08_whole_layer",
            lambda: stages_markdown(stage_costs(n=4096, d=512)),
            "| stage | order | multiply-adds |",
        ),
        "parameters": (
            "07_output_projection",
            lambda: parameter_count(512, 8, bias=True).as_markdown(),
            "| matrix | shape | parameters |",
        ),
        "comparison": (
            "11_long_context",
            lambda: comparison_markdown(measured),
            "| n | naive time (s) | naive peak | tiled time (s) | tiled peak | tiled / naive peak | tiled / naive time |",
        ),
        "kv cache": (
            "11_long_context",
            lambda: kv_cache_markdown(kv_cache_table(SEVEN_B, 128_000)),
            "| scheme | K/V heads | per token | 128,000 tokens | of MHA |",
        ),
        "sparse": (
            "11_long_context",
            lambda: sparse_markdown((1024, 16384, 128000)),
            "| n | stride | pairs kept | kept / n√n | kept / n² |",
        ),
    }


def _cells(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table.splitlines()]


@pytest.mark.parametrize("helper", list(_helpers()))
def test_a_table_helper_writes_its_words_in_the_current_language(helper):
    """A learner's notebook in Chinese runs set_language("zh_CN") and then the chapter's code: the tables it
    prints are Chinese, word for word what the page's catalogue makes of the book's saved English table
    (cell by cell; numbers and names it does not translate stay); in English they are as before."""
    import re

    from attention_steps.i18n import language, read_po
    from conftest import ROOT

    page, write, english_header = _helpers()[helper]
    english = write()
    with language("en"):
        assert write() == english
    assert english.splitlines()[0] == english_header  # the English pages do not change
    with language("zh_CN"):
        chinese = write()
    assert re.search(r"[\u4e00-\u9fff]", chinese.splitlines()[0]), chinese
    book = {
        k: v
        for k, (v, fuzzy) in read_po(ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "book" / f"{page}.po").items()
        if v and not fuzzy
    }
    assert _cells(chinese) == [[book.get(cell, cell) for cell in row] for row in _cells(english)]
