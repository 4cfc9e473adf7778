"""The cost of the n × n matrix: against the source articles' table, against brute-force
counts, and with clear errors on bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_steps import trace_attention
from attention_steps.costs import (
    ARTICLE_LENGTHS,
    PRECISIONS,
    attention_bytes,
    attention_entries,
    bytes_per_entry,
    crossover_length,
    format_bytes,
    format_count,
    memory_table,
    quadratic_share,
    stage_costs,
    table_markdown,
    total_multiply_adds,
)

# The source articles' table as printed: n, entries, memory at FP16 ("MB"/"GB" meaning 2²⁰/2³⁰ bytes).
SEED_TABLE = [
    (512, 262e3, 1e3, 0.5, 2**20, 0.1),
    (4096, 16.7e6, 0.1e6, 32, 2**20, 1),
    (32768, 1.07e9, 0.01e9, 2, 2**30, 1),
    (128000, 16.4e9, 0.1e9, 31, 2**30, 1),
]


@pytest.mark.parametrize("n, entries, entries_digit, memory, unit, memory_digit", SEED_TABLE)
def test_memory_table_matches_the_source_articles_to_their_printed_precision(
    n, entries, entries_digit, memory, unit, memory_digit
):
    row = next(r for r in memory_table() if r.n == n)
    # The source articles truncate 16,777,216 to 16.7M but rounds 16,384,000,000 to 16.4B:
    # agreement within one unit of its last printed digit covers both.
    assert abs(row.entries - entries) < entries_digit
    assert abs(row.bytes / unit - memory) <= memory_digit / 2


def test_default_table_is_the_source_articles_lengths_at_fp16():
    rows = memory_table()
    assert [r.n for r in rows] == list(ARTICLE_LENGTHS) == [512, 4096, 32768, 128000]
    assert all(r.bytes == 2 * r.n**2 for r in rows)


def test_formatted_table_values():
    texts = [(r.n_text, r.entries_text, r.bytes_text) for r in memory_table()]
    assert texts == [
        ("512", "262K", "0.5 MiB"),
        ("4,096", "16.8M", "32 MiB"),
        ("32,768", "1.07B", "2 GiB"),
        ("128,000", "16.4B", "30.5 GiB"),
    ]


def test_markdown_table_has_a_row_per_length():
    md = table_markdown(memory_table())
    lines = md.splitlines()
    assert len(lines) == 2 + len(ARTICLE_LENGTHS)
    assert "| 128,000 | 16.4B | 30.5 GiB |" in lines
    assert "FP16" in lines[0]


def test_fp32_doubles_fp16():
    assert bytes_per_entry("fp32") == PRECISIONS["FP32"] == 4
    for n in ARTICLE_LENGTHS:
        assert attention_bytes(n, "FP32") == 2 * attention_bytes(n) == attention_bytes(n, 4)
    assert memory_table(bytes_per_entry="FP32")[0].bytes_text == "1 MiB"


@given(st.integers(1, 10**6), st.sampled_from([1, 2, 4, 8]))
def test_bytes_are_entries_times_size(n, size):
    assert attention_entries(n) == n * n
    assert attention_bytes(n, size) == n * n * size


def test_entries_equal_the_size_of_the_traced_matrix():
    rng = np.random.default_rng(3)
    n, d = 7, 4
    t = trace_attention(rng.normal(size=(n, d)), *rng.normal(size=(3, d, d)), num_heads=2)
    assert t.A[0].size == attention_entries(n)
    assert t.A[0].astype(np.float16).nbytes == attention_bytes(n, "FP16")


@pytest.mark.parametrize(
    "value, text",
    [(0, "0"), (999, "999"), (1000, "1K"), (262144, "262K"), (16_777_216, "16.8M"), (10**9, "1B"), (2.5e12, "2.5T")],
)
def test_format_count(value, text):
    assert format_count(value) == text


@pytest.mark.parametrize(
    "value, text",
    [
        (0, "0 B"),
        (100, "100 B"),
        (512, "0.5 KiB"),
        (2**19, "0.5 MiB"),
        (2**25, "32 MiB"),
        (2**31, "2 GiB"),
        (2**41, "2 TiB"),
    ],
)
def test_format_bytes(value, text):
    assert format_bytes(value) == text


def test_format_bytes_in_a_chosen_unit():
    assert format_bytes(2**30, "MiB") == "1,024 MiB"
    assert format_bytes(2**19, "KiB") == "512 KiB"


def _counted_matmul(a_rows, inner, b_cols) -> int:
    """Multiply-adds of a naive triple loop over (a_rows × inner)(inner × b_cols)."""
    count = 0
    for _ in range(a_rows):
        for _ in range(b_cols):
            for _ in range(inner):
                count += 1
    return count


@pytest.mark.parametrize("n, d", [(1, 1), (3, 2), (5, 4), (2, 6)])
def test_stage_counts_match_a_naive_loop(n, d):
    stages = {s.stage: s for s in stage_costs(n, d)}
    assert stages["projections Q, K, V"].count == 3 * _counted_matmul(n, d, d)
    assert stages["scores QKᵀ"].count == _counted_matmul(n, d, n)
    assert stages["weighted sum AV"].count == _counted_matmul(n, n, d)
    assert stages["output projection"].count == _counted_matmul(n, d, d)
    assert stages["scale and softmax"].count == n * n
    assert stages["scale and softmax"].kind == "elementwise operations"


def test_source_articles_five_steps_leave_out_w_o():
    assert [s.stage for s in stage_costs(4, 2, output_projection=False)][-1] == "weighted sum AV"
    assert total_multiply_adds(4, 2) - total_multiply_adds(4, 2, output_projection=False) == 4 * 2 * 2


@given(st.integers(1, 4096), st.integers(1, 1024))
def test_quadratic_terms_balance_the_projections_at_the_crossover(n, d):
    share = quadratic_share(n, d)
    assert 0 < share < 1
    # 2n²d against 4nd²: the n² terms take more than half exactly when n > 2d.
    assert (share > 0.5) == (n > crossover_length(d))
    assert (share == 0.5) == (n == crossover_length(d))


def test_long_sequences_are_dominated_by_the_n_squared_terms():
    assert quadratic_share(128000, 512) > 0.99
    assert quadratic_share(16, 512) < 0.05
    assert crossover_length(512) == 1024
    assert crossover_length(512, output_projection=False) == 768


BAD = [
    (lambda: attention_entries(0), ValueError, ["n", "positive", "0"]),
    (lambda: attention_entries(-5), ValueError, ["n", "-5"]),
    (lambda: attention_entries(4.5), TypeError, ["n", "integer", "4.5"]),
    (lambda: attention_entries("512"), TypeError, ["n", "'512'"]),
    (lambda: attention_bytes(8, "FP12"), ValueError, ["precision", "FP16", "'FP12'"]),
    (lambda: attention_bytes(8, 2.0), TypeError, ["bytes_per_entry", "2.0"]),
    (lambda: attention_bytes(8, 0), ValueError, ["bytes_per_entry", "0"]),
    (lambda: memory_table(512), TypeError, ["ns", "512"]),
    (lambda: memory_table([]), ValueError, ["ns", "empty"]),
    (lambda: memory_table([512, 0]), ValueError, ["ns[1]", "n", "0"]),
    (lambda: memory_table([512, 1e3]), TypeError, ["ns[1]", "1000.0"]),
    (lambda: format_count(-1), ValueError, ["count", "-1"]),
    (lambda: format_bytes(float("nan")), ValueError, ["size", "nan"]),
    (lambda: format_bytes("big"), TypeError, ["size", "'big'"]),
    (lambda: format_bytes(10, "MB"), ValueError, ["unit", "MiB", "'MB'"]),
    (lambda: stage_costs(0, 8), ValueError, ["n", "0"]),
    (lambda: stage_costs(8, None), TypeError, ["d", "None"]),
    (lambda: table_markdown([]), TypeError, ["rows", "memory_table"]),
]


@pytest.mark.parametrize("call, error, words", BAD, ids=[" ".join(b[2][:2]) for b in BAD])
def test_bad_input_gives_a_clear_error(call, error, words):
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value), f"{word!r} missing from: {info.value}"


def test_stages_markdown_lists_every_stage():
    from attention_steps.costs import stages_markdown

    md = stages_markdown(stage_costs(4096, 512))
    assert "| scores QKᵀ | O(n²·d) | 8.59B |" in md
    assert "| scale and softmax | O(n²) | 16.8M (elementwise) |" in md
    assert len(md.splitlines()) == 2 + 5
    wide = stages_markdown(stage_costs(4096, 512), products=True)
    assert "| scores QKᵀ | Q (n×d) · Kᵀ (d×n) | O(n²·d) | 8.59B |" in wide
    with pytest.raises(TypeError, match="stage_costs"):
        stages_markdown([])


def test_chapter_11_explains_the_source_articles_rounding():
    # Chapter 11: their 16.7M is 16,777,216 cut short (16.8M rounded); their "31 GB" is 30.5 GiB
    # rounded to a whole number, 32.8 GB in decimal units; their "MB"/"GB" are binary units.
    rows = {r.n: r for r in memory_table()}
    assert rows[4096].entries == 16_777_216 and rows[4096].entries_text == "16.8M"
    assert f"{int(rows[4096].entries / 1e5) / 10}M" == "16.7M"
    last = rows[128000]
    assert last.bytes_text == "30.5 GiB" and round(last.bytes / 2**30) == 31
    assert f"{last.bytes / 1e9:.1f}" == "32.8"
    assert rows[512].bytes == 2**19 and rows[4096].bytes == 32 * 2**20 and rows[32768].bytes == 2 * 2**30
