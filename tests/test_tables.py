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
