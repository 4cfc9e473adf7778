"""scripts/translate_notebook.py: a markdown cell cut into Sphinx's messages and put back translated."""

from __future__ import annotations

import pytest

from scripts.translate_notebook import messages, translate_markdown, translate_outputs

ZH = {
    "A paragraph on two lines.": "两行的一段。",
    "First item": "第一项",
    "second item, with `code` and $x$": "第二项，含 `code` 和 $x$",
    "Heading": "标题",
    "Solution 3.1": "答案 3.1",
    "Inside the dropdown.": "下拉框里面。",
    "stage": "步骤",
    "order": "量级",
}


def test_messages_are_the_paragraphs_items_cells_and_directive_titles_with_line_breaks_as_spaces():
    source = "# Heading\n\nA paragraph\non two lines.\n\n- First item\n- second item\n\n:::{dropdown} Solution 3.1\nInside the dropdown.\n:::\n"
    assert [m.msgid for m in messages(source)] == [
        "Heading",
        "A paragraph on two lines.",
        "First item",
        "second item",
        "Solution 3.1",
        "Inside the dropdown.",
    ]


def test_a_cell_is_translated_in_place_keeping_its_markup():
    source = (
        "## Heading\n\nA paragraph\non two lines.\n\n- First item\n- second item, with `code` and $x$\n\n"
        "$$\nS = QK^\\top\n$$\n\n| stage | order |\n|---|---|\n| stage | order |\n\n"
        ":::{dropdown} Solution 3.1\n:open:\nInside the dropdown.\n:::\n"
    )
    translated, missing = translate_markdown(source, ZH.get)
    assert missing == []
    assert translated == (
        "## 标题\n\n两行的一段。\n\n- 第一项\n- 第二项，含 `code` 和 $x$\n\n"
        "$$\nS = QK^\\top\n$$\n\n| 步骤 | 量级 |\n|---|---|\n| 步骤 | 量级 |\n\n"
        ":::{dropdown} 答案 3.1\n:open:\n下拉框里面。\n:::\n"
    )


def test_a_message_with_no_translation_is_reported_and_left_as_it_is():
    translated, missing = translate_markdown("# Unknown\n\nNot in the catalogue.\n\n$x$ 42\n", ZH.get)
    assert missing == ["Unknown", "Not in the catalogue."]  # maths and numbers alone are not words
    assert translated == "# Unknown\n\nNot in the catalogue.\n\n$x$ 42\n"


def test_a_glued_figure_keeps_its_key_and_translates_its_caption():
    source = "```{glue:figure} ch9_ex1_A\n:figwidth: 300px\n\nInside the dropdown.\n```\n"
    assert [m.msgid for m in messages(source)] == ["Inside the dropdown."]
    assert translate_markdown(source, ZH.get)[0] == source.replace("Inside the dropdown.", "下拉框里面。")


def test_outputs_said_in_every_language_are_swapped_for_the_language():
    from attention_steps.i18n import METADATA_KEY

    cell = {
        "outputs": [
            {
                "output_type": "display_data",
                "data": {"image/png": "EN", "text/plain": "<Figure>"},
                "metadata": {
                    "image/png": {"alt": "weights", "width": 400},
                    METADATA_KEY: {"image/png": {"zh_CN": "ZH"}, "alt": {"zh_CN": "权重"}, "width": {"zh_CN": 420}},
                },
            },
            {
                "output_type": "display_data",
                "data": {"application/papermill.record/text/plain": "'and'"},
                "metadata": {"scrapbook": {"name": "w"}, METADATA_KEY: {"text/plain": {"zh_CN": "'和'"}}},
            },
            {"output_type": "stream", "name": "stdout", "text": "unchanged"},
        ]
    }
    translate_outputs(cell, "zh_CN")
    figure, glued, stream = cell["outputs"]
    assert figure["data"]["image/png"] == "ZH"
    assert figure["metadata"]["image/png"] == {"alt": "权重", "width": 420}
    assert glued["data"]["application/papermill.record/text/plain"] == "'和'"
    assert stream["text"] == "unchanged"


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_the_slides_name_an_unknown_language(lang):
    from scripts.slides import folder

    with pytest.raises(ValueError, match=r"language must be one of .*'zh_CN'.*got '" + lang):
        folder(lang)
