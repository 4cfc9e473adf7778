"""The hand-built sentence example: deterministic, the right shapes, and the
story it is built to tell (it → animal, token i → token i − 1, a broad head)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_steps import multi_head_attention, trace_attention
from attention_steps.sentence import (
    COLUMNS,
    D_MODEL,
    FEATURES,
    HEAD_NAMES,
    NUM_HEADS,
    SENTENCE,
    embed,
    positional_encoding,
    referents,
    sentence_trace,
    strongest_link,
    tokenize,
    weights,
)
from attention_steps.word_order import reorder_words, shuffled_words_change, without_position
from conftest import assert_raises_naming
from reference import multi_head as reference_multi_head


def test_tokenisation_is_simple_and_offline():
    tokens = tokenize()
    assert tokens == ["the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"]
    assert tokenize("The animal... it was TIRED!") == ["the", "animal", "it", "was", "tired"]


def test_shapes():
    tokens, t = sentence_trace()
    n = len(tokens)
    assert t.X.shape == (n, D_MODEL) == (n, len(COLUMNS))
    assert t.A.shape == (NUM_HEADS, n, n) == (len(HEAD_NAMES), n, n)
    assert t.d_k == t.d_v == D_MODEL // NUM_HEADS
    assert t.Z_cat.shape == (n, D_MODEL) and t.Y.shape == (n, D_MODEL)


def test_deterministic():
    (_, a), (_, b) = sentence_trace(), sentence_trace()
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.Y, b.Y)
    assert not np.array_equal(embed(tokenize(), seed=1), a.X)


def test_rows_sum_to_one():
    _, t = sentence_trace()
    np.testing.assert_allclose(t.A.sum(axis=-1), 1.0, atol=1e-12)
    assert (t.A > 0).all()


def test_it_attends_most_to_animal_in_the_coreference_head():
    tokens, t = sentence_trace()
    row = t.head(HEAD_NAMES.index("coreference")).A[tokens.index("it")]
    assert tokens[int(np.argmax(row))] == "animal"
    assert row[tokens.index("animal")] > 0.5
    # "street" is the runner-up: a noun, but not one that can be tired.
    second = np.argsort(row)[-2]
    assert tokens[second] == "street"
    assert strongest_link(t, tokens, "it") == ("animal", pytest.approx(row.max()))


@pytest.mark.parametrize("seed", range(5))
def test_the_story_survives_other_noise_seeds(seed):
    tokens, t = sentence_trace(seed=seed)
    assert strongest_link(t, tokens, "it", head=0)[0] == "animal"


def test_previous_token_head_looks_one_back():
    tokens, t = sentence_trace()
    A = t.head(HEAD_NAMES.index("previous token")).A
    assert [int(np.argmax(A[i])) for i in range(1, len(tokens))] == list(range(len(tokens) - 1))
    assert int(np.argmax(A[0])) == 0  # the first token, with nothing before it, looks at itself


def test_our_head_does_not_read_tired_it_still_picks_animal_for_wide():
    tokens, t = sentence_trace(SENTENCE.replace("tired", "wide"))
    assert strongest_link(t, tokens, "it", head=0)[0] == "animal"  # a trained model would pick "street"


def test_head_numbers_in_the_text_are_code_index_plus_one():
    _, t = sentence_trace()
    for index in range(len(HEAD_NAMES)):
        assert t.head(index).r == index + 1
        np.testing.assert_array_equal(t[f"A^({index + 1})"], t.head(index).A)


def test_broad_head_spreads_its_weight():
    tokens, t = sentence_trace()
    A = t.head(HEAD_NAMES.index("broad")).A
    n = len(tokens)
    assert A.max() < 2 / n  # nothing close to one-hot
    entropy = -(A * np.log(A)).sum(axis=-1)
    assert (entropy > 0.95 * np.log(n)).all()


def test_it_output_carries_animal_features():
    tokens, t = sentence_trace()
    y = dict(zip(COLUMNS, t.Y[tokens.index("it")]))
    assert y["animate"] > 0.5 > abs(y["place"])


def test_trace_agrees_with_the_core_and_an_independent_reference():
    tokens, t = sentence_trace()
    w = weights()
    Y, A = multi_head_attention(t.X, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    np.testing.assert_allclose(Y, t.Y)
    np.testing.assert_allclose(A, t.A)
    Y_ref, A_ref = reference_multi_head(*(M.tolist() for M in (t.X, w.W_Q, w.W_K, w.W_V, w.W_O)), NUM_HEADS)
    np.testing.assert_allclose(Y_ref, t.Y, atol=1e-10)
    np.testing.assert_allclose(A_ref, t.A, atol=1e-12)


def test_same_word_same_vector_except_position():
    tokens = tokenize()
    X = embed(tokens)
    first, second = [i for i, tok in enumerate(tokens) if tok == "the"]
    pos = [COLUMNS.index("pos cos"), COLUMNS.index("pos sin")]
    keep = [c for c in range(D_MODEL) if c not in pos]
    np.testing.assert_array_equal(X[first, keep], X[second, keep])
    np.testing.assert_allclose(X[:, pos], positional_encoding(len(tokens)))
    np.testing.assert_allclose(np.linalg.norm(X[:, pos], axis=1), 1.0)


def test_weights_are_hand_built_shapes():
    w = weights()
    for M in (w.W_Q, w.W_K, w.W_V, w.W_O):
        assert M.shape == (D_MODEL, D_MODEL)
    trace_attention(embed(tokenize()), w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: tokenize(42), TypeError, ["text", "string", "42"]),
        (lambda: tokenize("!!!"), ValueError, ["text", "word", "'!!!'"]),
        (lambda: embed([]), TypeError, ["tokens", "non-empty"]),
        (lambda: tokenize("我 爱 猫"), ValueError, ["text", "a–z", "cannot split '我', '爱', '猫'", "'我 爱 猫'"]),
        (lambda: tokenize("the café"), ValueError, ["text", "cannot split 'é'"]),
        (lambda: tokenize("3 tired animals"), ValueError, ["text", "cannot split '3'"]),
        (
            lambda: embed("the animal"),
            TypeError,
            ["tokens", "the string 'the animal'", "embed(tokenize('the animal'))"],
        ),
        (
            lambda: embed(["the", "zebra", "was", "moon"]),
            ValueError,
            ["tokens", "2 words", "'zebra', 'moon'", "the words it knows: the, animal, didn't", "tired, wide, dog"],
        ),
        (lambda: embed(["the", "zebra"]), ValueError, ["tokens has a word", "'zebra'"]),
        (lambda: strongest_link(sentence_trace()[1], tokenize(), "dog"), ValueError, ["query", "'dog'"]),
        # A changed sentence with a word the layer does not know stops where it is tokenized (chapter 8's
        # first code cell), naming the word and the words it knows, not later at a hidden cell.
        (
            lambda: tokenize("The zebra didn't cross the road because it was too tired."),
            ValueError,
            ["text has a word", "'zebra'", "The zebra didn't", "the words it knows: the, animal", "road"],
        ),
        (lambda: sentence_trace("the zebra was tired"), ValueError, ["text", "'zebra'", "the words it knows"]),
        (lambda: referents("it was the dog"), TypeError, ["tokens", "string", "referents(tokenize('it was the dog'))"]),
        (
            lambda: referents(tokenize("the dog was tired")),
            ValueError,
            ["no pronoun (the known words: 'it')", "no place (the known words: 'street', 'road')", "needs all three"],
        ),
    ],
)
def test_bad_input(call, error, words):
    assert_raises_naming(call, error, words)


def test_wide_is_a_word_of_the_layer_with_no_feature():
    """Chapters 8 and 9 embed "… it was too wide": the word is known (embed refuses unknown words),
    with no feature, as it was embedded when unknown words got none (the chapters' numbers)."""
    tokens = tokenize(SENTENCE.replace("tired", "wide"))
    X = embed(tokens)
    features = X[tokens.index("wide"), : len(FEATURES)]
    assert np.abs(features).max() < 0.5  # noise only, no 1
    np.testing.assert_array_equal(np.delete(X, tokens.index("wide"), axis=0), np.delete(embed(tokenize()), -1, axis=0))


CHANGED = "The dog didn't cross the road because it was too tired."  # a learner's own sentence, with other words


def test_referents_follow_the_sentence():
    """Chapter 8's hidden cells follow "it" to the nouns of the learner's sentence, not the book's words."""
    assert referents(tokenize()) == (7, 1, 5)
    tokens = tokenize(CHANGED)
    assert [tokens[k] for k in referents(tokens)] == ["it", "dog", "road"]
    tokens = tokenize("the road was wide because the cat didn't cross it")
    assert [tokens[k] for k in referents(tokens)] == ["it", "cat", "road"]


def test_a_changed_sentence_runs_through_the_layer():
    """Chapter 8 with the review's sentence: the same layer, run by the chapter's core calls, still
    sends "it" to the animate noun, now "dog"; chapter 9's experiment with a changed last word runs too."""
    tokens = tokenize(CHANGED)
    X = embed(tokens)
    w = weights()
    t = trace_attention(X, w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    assert t.A.shape == (NUM_HEADS, len(tokens), len(tokens))
    assert strongest_link(t, tokens, "it") == ("dog", pytest.approx(t.head(0).A[7, 1]))
    i_it, j_dog, j_road = referents(tokens)
    assert t.head(0).A[i_it, j_dog] > t.head(0).A[i_it, j_road] > 1 / len(tokens)
    # chapter 9: "… it was too tired" against "… it was too <another known word>", with the causal mask
    from attention_steps import causal_mask

    n = len(tokenize())
    for last in ("wide", "road", "cat"):
        Y = [sentence_trace(text, mask=causal_mask(n))[1].Y for text in (SENTENCE, SENTENCE.replace("tired", last))]
        change = np.abs(Y[0] - Y[1]).max(axis=1)
        assert change[-1] > 0 and change[:-1].max() == 0, last


# ---------------------------------------------------------------- word order (chapter 8)
PERM = np.random.default_rng(0).permutation(len(tokenize()))


def test_reorder_words_moves_the_words_and_keeps_the_positions():
    X = embed(tokenize())
    R = reorder_words(X, PERM)
    pos = [COLUMNS.index("pos cos"), COLUMNS.index("pos sin")]
    words = [c for c in range(D_MODEL) if c not in pos]
    np.testing.assert_array_equal(R[:, pos], X[:, pos])
    np.testing.assert_array_equal(R[:, words], X[PERM][:, words])
    np.testing.assert_array_equal(without_position(X)[:, pos], 0.0)
    np.testing.assert_array_equal(without_position(X)[:, words], X[:, words])


def test_word_order_reaches_the_layer_only_through_the_position_columns():
    X = embed(tokenize())
    assert shuffled_words_change(X, PERM) > 0.5  # with positions, the shuffle is noticed
    assert shuffled_words_change(without_position(X), PERM) < 1e-12  # without them, not at all
    # head 2 reads nothing but position: without it every weight is exactly 1/n
    w = weights()
    t = trace_attention(without_position(X), w.W_Q, w.W_K, w.W_V, w.W_O, num_heads=NUM_HEADS)
    np.testing.assert_allclose(t.head(HEAD_NAMES.index("previous token")).A, 1 / len(X), rtol=1e-12)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: reorder_words(np.zeros((3, 5)), [0, 1, 2]), ["X", "(n, 12)"]),
        (lambda: reorder_words(embed(["the", "animal"]), [0, 0]), ["perm", "exactly once"]),
        (lambda: without_position(np.zeros(12)), ["X", "(n, 12)"]),
    ],
)
def test_word_order_bad_input(call, words):
    with pytest.raises(ValueError) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_sentence_is_the_seeds():
    assert SENTENCE == "The animal didn't cross the street because it was too tired"
