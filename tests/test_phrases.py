"""attention_steps.phrases: the words the book glues, in every edition's language (tests/test_editions.py glues them)."""

from __future__ import annotations

import pytest

from attention_steps import phrases
from attention_steps.i18n import language
from attention_steps.sentence import HEAD_NAMES


def test_phrases_in_english_and_chinese():
    assert phrases.and_list([1, 3]) == "1 and 3"
    assert phrases.and_list([1, 2, 3]) == "1, 2 and 3"
    assert phrases.or_list([4, 2, 1]) == "4, 2 or 1"
    assert phrases.and_list([7]) == "7"
    assert phrases.closeness(0) == "exactly" and phrases.closeness(2.2e-16) == "to within 2e-16"
    assert phrases.exactly_zero(0.0) == "exactly 0" and phrases.exactly_zero(1.2e-17) == "1.2e-17"
    assert phrases.same_or_difference(0) == "exactly the same"
    with language("zh_CN"):
        assert phrases.and_list([1, 2, 3]) == "1、2 和 3"
        assert phrases.or_list([4, 2, 1]) == "4、2 或 1"
        assert phrases.closeness(0) == "精确相等" and phrases.closeness(2.2e-16) == "误差不超过 2e-16"
        assert phrases.exactly_zero(1.2e-17) == "1.2e-17"  # a number reads the same in both


def test_every_head_has_a_name_in_every_language():
    with language("zh_CN"):
        names = [phrases.head_name(r) for r in range(len(HEAD_NAMES))]
    assert all(n not in HEAD_NAMES for n in names), names
    with pytest.raises(ValueError, match=r"head index r must be 0 to 2 \(0-based\), got 3"):
        phrases.head_name(3)


def test_an_empty_list_is_named_in_the_error():
    with pytest.raises(ValueError, match="at least one item"):
        phrases.and_list([])
