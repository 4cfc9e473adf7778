"""One example-layer record: every example layer runs through the core the same way."""

import numpy as np

from attention_steps import causal_mask, trace_attention
from attention_steps.examples import ExampleLayer, i_love
from attention_steps.heads import small_layer
from attention_steps.sentence import sentence_layer, sentence_trace


def test_every_example_layer_is_one_record_with_trace():
    for layer in (i_love(), small_layer(), sentence_layer()):
        assert isinstance(layer, ExampleLayer)
        t = layer.trace()
        expected = trace_attention(layer.X, *layer.weights, num_heads=layer.num_heads)
        assert np.array_equal(t.A, expected.A) and t.num_heads == layer.num_heads


def test_trace_takes_a_mask_and_another_input():
    layer = sentence_layer()
    n = len(layer.tokens)
    masked = layer.trace(mask=causal_mask(n))
    assert np.array_equal(masked.A, sentence_trace(mask=causal_mask(n))[1].A)
    assert (np.triu(masked.A[0], k=1) == 0).all()
    ex = i_love()
    assert ex.d_k == 3 and ex.trace(X=ex.X[::-1]).X.tolist() == ex.X[::-1].tolist()


def test_the_translation_example_labels_its_chinese_words_in_the_figures_language():
    """Pinyin in an English figure (any font draws it), the characters in a Chinese one."""
    from attention_steps.examples import translation
    from attention_steps.i18n import language

    t = translation()
    assert t.input_labels == ("<s>", "wǒ", "ài", "māo") and t.prediction_labels[2] == "ài → māo"
    with language("zh_CN"):
        assert t.input_labels == ("<s>", "我", "爱", "猫") and t.prediction_labels[2] == "爱 → 猫"
