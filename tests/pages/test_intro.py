"""The introduction: its built page (the notation table, the pipeline diagram, the
index convention) and its speaker notes."""

from __future__ import annotations

import re

import pytest
import yaml

from attention_steps import trace_attention
from attention_steps.examples import i_love
from attention_steps.notation import ORIGINAL_TRANSFORMER, layer_shapes
from attention_steps.sentence import tokenize
from conftest import BOOK
from reader import notes, page, prose

pytestmark = pytest.mark.book  # the tier (tests/conftest.py)

EX = i_love()


def test_intro_does_not_credit_the_transformer_with_inventing_self_attention():
    # self-attention predates the Transformer paper, which introduced the architecture
    text = page("intro").text
    assert "that introduced it to" not in text and "that introduced the architecture" in text


def test_pipeline_diagram_labels_one_heads_symbols_with_r():
    # inside the dashed "one head r" frame every symbol is head r's (the notation convention);
    # the diagram once showed Q = XW_Q (all heads, by the convention) with shape n × d_k
    from attention_steps.figures.projection import PIPELINE_BOXES as _PIPELINE
    from attention_steps.figures.projection import pipeline_diagram

    for key in ("Q", "K", "V", "QK", "S", "A", "Z"):
        assert "^{(r)}" in _PIPELINE[key][2], key
    for key in ("X", "Zcat", "Y"):
        assert "(r)" not in _PIPELINE[key][2], key
    pipeline_diagram()
    assert "Q^(r) = X W_Q^(r)" in page("intro").section("the-whole-computation-in-one-picture").html


def test_intro_shows_the_measured_notation():
    section = page("intro").section("notation")
    shapes = layer_shapes(ORIGINAL_TRANSFORMER, n=len(tokenize()))  # the sentence's tokens
    for key in ("X", "W_Q", "W_Q⁽ʳ⁾", "Q", "Q⁽ʳ⁾", "QKᵀ⁽ʳ⁾", "Z⁽ʳ⁾", "Z_cat", "W_O", "W_O⁽ʳ⁾", "Y"):
        assert " × ".join(map(str, shapes[key])) in section.text, key
    assert "without a superscript is the whole layer" in section.text  # the conventions, under the table
    cfg = ORIGINAL_TRANSFORMER
    assert section.glued == [str(cfg.d_model), str(cfg.num_heads), str(cfg.d_k), str(shapes["n"][0])]


def test_intro_states_prerequisites_and_index_convention():
    text = page("intro").text
    for word in ("matrix product", "expectation", "variance", "independence"):
        assert word in text, word
    assert "A[i-1, j-1]" in text and "t.head(r-1)" in text
    # the code convention the text states: a_ij is A[i-1, j-1], head r is t.head(r-1)
    t = trace_attention(EX.X, EX.W_Q, EX.W_K, EX.W_V)
    i, j, r = 2, 1, 1
    assert t.head(r - 1).A[i - 1, j - 1] == t.A[r - 1][1, 0]


def test_numbers_in_the_intro_notes():
    cfg = ORIGINAL_TRANSFORMER
    text = notes("intro")
    assert f"{cfg.d_model} / {cfg.num_heads} = {cfg.d_k}" in text and cfg.d_model // cfg.num_heads == cfg.d_k
    assert f"Two tokens, d_k = {EX.W_Q.shape[1]}" in text and EX.X.shape[0] == 2


def test_intro_counts_seven_stage_chapters():
    toc = yaml.safe_load((BOOK.parent / "_toc.yml").read_text(encoding="utf-8"))
    stages = next(part for part in toc["parts"] if part["caption"] == "The seven stages")
    assert len(stages["chapters"]) == 7
    text = "\n".join(prose("intro") + [notes("intro")])
    assert "seven short chapters" in text.lower() and "seven stages" in text
    assert len(re.findall(r"^\d\. \{doc\}`0[1-7]_", text, flags=re.M)) == 7  # "One chapter per stage"


def test_intro_shows_the_hint_arrive_with_the_second_wrong_try_in_both_languages():
    """The Run paragraph says a second wrong try brings a hint; the two checks under it show that."""
    from bs4 import BeautifulSoup

    from conftest import HTML

    for where, wrong, hint in (("book/intro.html", "Not quite", "Hint:"), ("zh_CN/book/intro.html", "不对", "提示：")):
        soup = BeautifulSoup((HTML / where).read_text(encoding="utf-8"), "html.parser")
        tries = [o.get_text() for o in soup.select("div.cell_output") if wrong in o.get_text()]
        assert len(tries) == 2, (where, tries)
        assert hint not in tries[0] and hint in tries[1], (where, tries)
    assert "a second wrong try also brings a hint" in page("intro").text


def test_intro_reading_times_are_the_chapters_word_counts():
    """ "Reading a chapter's text takes from about 5 to about 15 minutes (its English words at 200 a minute)":
    each chapter's prose (its markdown, speaker notes left out), counted in words, at 200 a minute,
    rounded to 5 minutes. (It once said every chapter "takes a few minutes".)"""
    chapters = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb"))
    assert len(chapters) == 13
    minutes = {c: sum(len(re.findall(r"\S+", cell)) for cell in prose(c)) / 200 for c in chapters}
    about = lambda m: 5 * round(m / 5)  # noqa: E731
    assert about(min(minutes.values())) == 5 and about(max(minutes.values())) == 15, minutes
    text = " ".join(page("intro").text.replace("’", "'").split())
    assert "Reading a chapter's text takes from about 5 to about 15 minutes (its English words at 200 a minute)" in text


def test_the_intro_shows_chapter_13s_trained_model_flip_where_it_looks():
    # the intro promised "change one word and *it* becomes the street": its bars are chapter 13's
    # pointing model (seed 0, the same run), not the hand-built layer, which stays in chapter 8
    from attention_steps.learning_studies import CHAPTER_MODELS, CHAPTER_SEEDS, tired_and_wide, train_referent_model
    from attention_steps.referents import SOURCE, SOURCE_TWIN, referents_corpus

    pair = tired_and_wide(train_referent_model(**CHAPTER_MODELS["pointing"], seed=CHAPTER_SEEDS[0]))
    row = pair["it_row"]
    assert pair["flips"] and all(pair["right"])
    tired, wide = (row[k, pair["expected"][k]] for k in (0, 1))
    text = page("intro").text
    source = "\n".join(prose("intro"))
    assert (
        "{glue:text}`intro_it_tired:.2f`" in source and "{glue:text}`intro_it_wide:.2f`" in source
    )  # glued, not typed
    assert f"puts {tired:.2f} of its weight on “animal”; with “wide”, {wide:.2f} on “street”" in text
    held_out = referents_corpus().held_out
    held_out.index(*SOURCE), held_out.index(*SOURCE_TWIN)  # "neither seen in training" (a KeyError if seen)
    assert "neither seen in training" in text and "in a layer built by hand" in text
    assert "The layer's weights here were built by hand" not in text
