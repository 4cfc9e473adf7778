"""attention_steps.i18n: the one mechanism for words the code puts on screen."""

from __future__ import annotations

import ast
import re
import warnings

import matplotlib
import pytest

from attention_steps import figures, i18n
from attention_steps.figures.plotting import weight_bars
from attention_steps.i18n import _, for_javascript, language, read_po
from conftest import BOOK

matplotlib.use("Agg")

# _("…") in Python and notebooks (read by ast), t(data, "…") or t(data, "… {name} …", {name: …}) in the
# explorers' JavaScript (one string literal: a message is never put together from pieces). Babel's
# JavaScript extractor is no help there: it misses a t() inside another t()'s values.
JS_CALL = re.compile(r"""\bt\(data,\s*"((?:[^"\\]|\\.)*)"\s*[,)]""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MARKERS = ("_", "N_", "ngettext")  # the calls that mark a message (ngettext's first argument: the singular)


def _messages_in_python(source: str) -> set[str]:
    """The message of every _("…"), N_("…") and ngettext("…", "…", n) call (i18n._ too; a plural
    message is keyed by its singular, as its catalogue entry is) in Python `source`, read by ast:
    adjacent literals are one message, a raw string or an escape reads as Python reads it, and a
    call inside an f-string is found too. A call whose message is not a literal has none to find."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            func, message = node.func, node.args[0]
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in MARKERS and isinstance(message, ast.Constant) and isinstance(message.value, str):
                found.add(message.value)
    return found


def _strings_in_code() -> set[str]:
    """The messages the package and the notebooks put on screen (their translations: the package's catalogues)."""
    import json

    from IPython.core.inputtransformer2 import TransformerManager

    sources = [p.read_text(encoding="utf-8") for p in (BOOK / "attention_steps").rglob("*.py")]
    cell = TransformerManager()  # a notebook cell as IPython runs it: its magics become Python
    for nb in BOOK.glob("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        sources += [cell.transform_cell("".join(c["source"])) for c in cells if c["cell_type"] == "code"]
    found = {message for text in sources for message in _messages_in_python(text)}
    for js in (BOOK / "attention_steps" / "explorers" / "js").glob("*.js"):
        found |= {m.replace('\\"', '"') for m in JS_CALL.findall(js.read_text(encoding="utf-8"))}
    return found


def _production_strings() -> set[str]:
    """The messages the book's production adds around the chapters (their translations: locale/<lang>/chrome.po):
    the pages' (book/_ext/, book/assets/book.js's tr("…")), the decks' and handouts', the learner edition's cells."""
    scripts = BOOK.parent / "scripts"
    paths = [*(BOOK / "_ext").glob("*.py"), *(scripts / "slides").glob("*.py"), *scripts.glob("build_*.py")]
    found = {message for p in paths for message in _messages_in_python(p.read_text(encoding="utf-8"))}
    page_script = (BOOK / "assets" / "book.js").read_text(encoding="utf-8")
    found |= {m.replace('\\"', '"') for m in re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', page_script)}
    return found


def _data_labels() -> set[str]:
    """Names the explorers' data carries in English and shows translated (t(data, name) in
    their JavaScript, _(name) in their static figures): the strategies, the heads' roles and chapter 13's
    models (the sentence builder's model switch)."""
    from attention_steps.learning_studies import CHAPTER_MODELS
    from attention_steps.scaling import STRATEGIES
    from attention_steps.sentence import HEAD_NAMES

    names = [*STRATEGIES.values(), *HEAD_NAMES, *CHAPTER_MODELS]
    return {name for name in names if re.search(r"[a-z]{2}", name.replace("d_k", ""))}


def test_the_javascript_finds_messages_with_and_without_values():
    code = 't(data, "largest weight") + t(data, "entropy (uniform: {ln} nats)", { ln: fmt(x, 2) }) + t(data, o.label)'
    assert JS_CALL.findall(code) == ["largest weight", "entropy (uniform: {ln} nats)"]


def test_the_python_finds_messages_as_python_reads_them():
    code = r"""
x = _("two "
      "lines")
label = f"{_('in an f-string')} = {x}"
i18n._(r"$\sqrt{d_k}$"), N_("a,\nb")
_(name)  # _("a comment")
ngettext("{n} row", "{n} rows", n)
"""
    assert _messages_in_python(code) == {"two lines", "in an f-string", "$\\sqrt{d_k}$", "a,\nb", "{n} row"}


def test_every_string_on_screen_has_a_chinese_translation():
    strings = _strings_in_code() | _data_labels()
    assert {"weight", "weight of “it”", "The numbers that matter", "no scaling", "coreference"} <= strings
    assert "entropy (uniform: {ln} nats)" in strings  # a message with a value, found in the JavaScript
    catalogue = i18n.read_catalogue("zh_CN")
    missing = sorted(s for s in strings if not catalogue.get(s, ("", True))[0] or catalogue[s][1])
    assert not missing, f"add these to a file in attention_steps/locale/zh_CN/: {missing}"


def test_every_word_the_production_adds_has_a_chinese_translation_outside_the_package():
    from scripts import chrome

    strings = _production_strings()
    assert {"{section} (continued)", "PDF handout", "The whole course ({n} chapters in one deck)"} <= strings
    assert {"Enlarge figure", "Close"} <= strings  # the page script's
    produced = read_po(chrome.catalogue_path("zh_CN"))
    missing = sorted(s for s in strings if not produced.get(s, ("", True))[0] or produced[s][1])
    assert not missing, f"add these to locale/zh_CN/chrome.po: {missing}"
    unused = sorted(set(produced) - strings)
    assert not unused, f"locale/zh_CN/chrome.po translates what no production code shows: {unused}"


def test_the_package_carries_no_catalogue_of_the_production_words():
    """The pip package's catalogues hold what the package and the notebooks show, nothing only the book's
    pages, decks or learner cells show (those are in locale/<lang>/chrome.po)."""
    shown = _strings_in_code() | _data_labels()
    only_production = sorted(m for m in _production_strings() - shown if m in i18n.read_catalogue("zh_CN"))
    assert not only_production, f"move these to locale/zh_CN/chrome.po: {only_production}"
    assert not list(i18n.LOCALE.rglob("pages.po"))


def test_translations_keep_their_messages_placeholders():
    """A value's {name} in the English message is in its translation, and no other: the code
    fills in by name (str.format in Python, t()'s third argument in JavaScript)."""
    wrong = {
        msgid: msgstr
        for msgid, (msgstr, _fuzzy) in i18n.read_catalogue("zh_CN").items()
        if msgstr and sorted(set(PLACEHOLDER.findall(msgid))) != sorted(set(PLACEHOLDER.findall(msgstr)))
    }
    assert not wrong, wrong


def _marked_by_file() -> dict[str, set[str]]:
    """Every file that puts words on screen -> the messages it marks: _("…") / N_("…") in Python
    (read by ast) and the notebooks' code, t(data, "…") in the explorers, tr("…") in the page script."""
    import json

    root = BOOK.parent
    found: dict[str, set[str]] = {}
    texts = {p: p.read_text(encoding="utf-8") for p in [*BOOK.rglob("*.py"), *(root / "scripts").rglob("*.py")]}
    for nb in BOOK.glob("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        texts[nb] = "\n".join(re.sub(r"(?m)^\s*[%!].*$", "", c) for c in code)
    for path, text in texts.items():
        tree = ast.parse(text)
        found[path.relative_to(root).as_posix()] = {
            n.args[0].value
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in MARKERS
            and n.args
            and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)
        }
    for js in [*(BOOK / "attention_steps" / "explorers" / "js").glob("*.js"), BOOK / "assets" / "book.js"]:
        text = js.read_text(encoding="utf-8")
        calls = JS_CALL.findall(text) + re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', text)
        found[js.relative_to(root).as_posix()] = {m.replace('\\"', '"') for m in calls}
    return found


def test_a_modules_own_catalogue_holds_only_messages_that_module_marks():
    """locale/<lang>/exercises/ch09.po is chapter 9's exercises' alone: scripts/notebook_deps.py makes only
    the notebook that runs exercises/ch09.py depend on it, and the decks' stamps leave it out. That is
    right only if no other code shows its messages: a message two modules mark goes in an area's
    catalogue (checker.po), shared by every notebook."""
    marked = _marked_by_file()
    own = [p for p in i18n.catalogue_files("zh_CN") if p.parent != i18n.LOCALE / "zh_CN"]
    assert {p.relative_to(i18n.LOCALE / "zh_CN").as_posix() for p in own} >= {
        f"exercises/ch{n:02d}.po" for n in range(1, 14)
    }
    wrong = {}
    for po in own:
        module = "book/attention_steps/" + po.relative_to(i18n.LOCALE / "zh_CN").with_suffix(".py").as_posix()
        assert module in marked, f"{po.name}: there is no module {module} whose catalogue it would be"
        for msgid in read_po(po):
            users = sorted(f for f, messages in marked.items() if msgid in messages)
            if users != [module]:
                wrong[f"{po.relative_to(i18n.LOCALE)}: {msgid[:60]!r}"] = users
    assert not wrong, f"move these to an area's catalogue (checker.po) or unmark them elsewhere: {wrong}"


def test_a_message_translated_two_ways_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "zh_CN").mkdir()
    (tmp_path / "zh_CN" / "a.po").write_text('msgid "weight"\nmsgstr "权重"\n', encoding="utf-8")
    (tmp_path / "zh_CN" / "b.po").write_text('msgid "weight"\nmsgstr "重量"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    with pytest.raises(ValueError, match=r"'weight' is translated twice.*a\.po.*b\.po"):
        i18n.read_catalogue("zh_CN")


def test_translation_follows_the_current_language(monkeypatch):
    monkeypatch.delenv(i18n.ENV, raising=False)
    assert _("weight") == "weight"
    with language("zh_CN"):
        assert _("weight") == "权重"
        assert _("a string nobody translated") == "a string nobody translated"
    monkeypatch.setenv(i18n.ENV, "zh_CN")
    assert _("weight") == "权重"


def test_a_language_that_does_not_exist_is_named_in_the_error(monkeypatch):
    with pytest.raises(ValueError, match=r"language must be one of .*'fr'"):
        i18n.set_language("fr")
    monkeypatch.setenv(i18n.ENV, "zh")
    with pytest.raises(ValueError, match=r"ATTENTION_LANG"):
        _("weight")


def test_fuzzy_and_obsolete_translations_are_not_used(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n\n'
        '#, fuzzy\nmsgid "old"\nmsgstr "旧"\n\n'
        'msgid ""\n"two "\n"lines"\nmsgstr "两行"\n\n'
        '#~ msgid "gone"\n#~ msgstr "没了"\n',
        encoding="utf-8",
    )
    assert read_po(po) == {"old": ("旧", True), "two lines": ("两行", False)}


def test_two_entries_that_differ_only_by_context_are_both_kept(tmp_path, monkeypatch):
    """One English word, two meanings (msgctxt): each keeps its translation, the one without a
    context stays under its msgid, and pgettext finds the other."""
    (tmp_path / "zh_CN").mkdir()
    (tmp_path / "zh_CN" / "a.po").write_text(
        'msgid "head"\nmsgstr "头"\n\n'
        'msgctxt "attention"\nmsgid "head"\nmsgstr "注意力头"\n\n'
        'msgctxt "body"\nmsgid "head"\nmsgstr "头部"\n',
        encoding="utf-8",
    )
    entries = read_po(tmp_path / "zh_CN" / "a.po")
    assert entries == {
        "head": ("头", False),
        f"attention{i18n.CONTEXT}head": ("注意力头", False),
        f"body{i18n.CONTEXT}head": ("头部", False),
    }
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        with language("zh_CN"):
            assert (_("head"), i18n.pgettext("attention", "head"), i18n.pgettext("body", "head")) == (
                "头",
                "注意力头",
                "头部",
            )
            assert i18n.pgettext("a context nobody used", "head") == "head"
    finally:
        i18n.catalogue.cache_clear()


def test_a_plural_entry_is_read(tmp_path, monkeypatch):
    """msgid_plural: keyed by the singular, every form kept (msgstr[0] is what _() shows)."""
    (tmp_path / "zh_CN").mkdir()
    po = tmp_path / "zh_CN" / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: zh_CN\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "{n} head"\nmsgid_plural "{n} heads"\nmsgstr[0] "{n} 个头"\nmsgstr[1] "{n} 个头们"\n\n'
        'msgid "weight"\nmsgstr "权重"\n',
        encoding="utf-8",
    )
    entries = read_po(po)
    assert entries == {"{n} head": (f"{{n}} 个头{i18n.PLURAL_FORMS}{{n}} 个头们", False), "weight": ("权重", False)}
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        with language("zh_CN"):
            assert (_("{n} head"), _("weight")) == ("{n} 个头", "权重")
            # Chinese has one plural form (Babel's rule, nplurals=1): every count takes msgstr[0]
            assert {i18n.ngettext("{n} head", "{n} heads", n) for n in (0, 1, 2, 8)} == {"{n} 个头"}
            assert i18n.ngettext("{n} tail", "{n} tails", 2) == "{n} tails"  # untranslated: the English
        assert [i18n.ngettext("{n} head", "{n} heads", n) for n in (0, 1, 2)] == ["{n} heads", "{n} head", "{n} heads"]
    finally:
        i18n.catalogue.cache_clear()


def test_a_catalogue_that_cannot_be_read_is_named(tmp_path):
    po = tmp_path / "broken.po"
    po.write_text('msgid "weight"\nmsgstr "权重"\nthis is not a po line\n', encoding="utf-8")
    with pytest.raises(ValueError, match="broken.po"):
        read_po(po)


def test_javascript_gets_every_language_at_once():
    data = for_javascript()
    assert data["lang"] in i18n.LANGUAGES
    assert data["strings"]["zh_CN"]["largest weight"] == "最大权重"


def _with_values(label: str) -> str:
    """`label` with 4 for each {placeholder} outside its maths ($\\sqrt{d_k}$ keeps its braces)."""
    parts = label.split("$")
    return "$".join(re.sub(r"\{\w*\}", "4", p) if k % 2 == 0 else p for k, p in enumerate(parts))


def test_chinese_labels_are_drawn_with_a_cjk_font_not_boxes(caplog):
    """Matplotlib warns 'Glyph … missing from font(s)' for every character it draws as a box,
    and logs 'findfont: Failed to find font weight bold' (a notebook's stderr, which fails
    the book's build) when the bold face is missing."""
    assert figures.use_cjk_font(), "no CJK font: scripts/setup.sh installs fonts-noto-cjk"
    labels = [s for s, _fuzzy in i18n.read_catalogue("zh_CN").values()]
    import matplotlib.pyplot as plt

    plain = [s for s in labels if "$" not in s]
    maths = [s for s in labels if "$" in s]  # mathtext: one label each, as the figures draw them
    assert maths, "the catalogue has no label with maths: this test would not see mathtext's boxes"

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with language("zh_CN"):
            fig = weight_bars([0.5, 0.5], ["我", "猫"], title="；".join(plain))
            fig.axes[0].set_xlabel("粗体 bold", fontweight="bold")
            for k, label in enumerate(maths):
                fig.text(0, k / len(maths), _with_values(label))
            figures.cjk_mathtext(fig)  # as figures.drawn does before drawing
            fig.canvas.draw()
    plt.close("all")
    # Matplotlib logs "Glyph … missing from font(s)" (text) or "Font 'default' does not have a
    # glyph" (mathtext) for a box; the book's build fails on it (a notebook's stderr).
    bad = [r.getMessage() for r in caplog.records if "findfont" in r.getMessage() or "glyph" in r.getMessage().lower()]
    assert not bad, bad[:5]
