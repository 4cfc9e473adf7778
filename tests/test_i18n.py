"""The Chinese edition: catalogues, twins, the language switch, the numbers.

The rules, which widen as chapters are translated:

- Every page of the English book has a twin at the same path under _build/html/zh_CN/.
  A page whose catalogue is not yet complete is built too, showing the English text
  under a notice (book/_ext/i18n_edition.py), so every link and switch works.
- The documents listed in locale/zh_CN/complete.txt (now every page of the book;
  a chapter joins when its catalogue is done) must have every message translated and
  none fuzzy, their catalogue must hold every message of the current English text
  (a changed English sentence fails here until it is translated again), their
  Chinese page shows no untranslated paragraph, and the numbers on the Chinese page
  are the English page's numbers.
- Every page of both editions has the language switch to its twin, and <html lang>.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from i18n_edition import EDITIONS, complete_documents

from attention_steps.i18n import read_po
from conftest import HTML, ROOT
from scripts.build_lang import markup, markup_mismatches
from scripts.build_lang import nothing_to_translate as _nothing_to_translate

LANG = "zh_CN"
ZH = HTML / LANG
CATALOGUES = ROOT / "locale" / LANG / "LC_MESSAGES"
COMPLETE = complete_documents(LANG)
CJK = re.compile(r"[\u3400-\u9fff]")


def _pages(root: Path) -> list[str]:
    """Page names (book/intro, search, ...) of one edition's HTML pages."""
    skip = {"_static", "_sources", "_images", "slides", LANG}
    return sorted(
        str(p.relative_to(root).with_suffix(""))
        for p in root.rglob("*.html")
        if not skip & set(p.relative_to(root).parts[:-1]) and p.name != "index.html"
    )


def _soup(path: Path) -> BeautifulSoup:
    if not path.exists():
        pytest.fail(f"{path} is not built: run `bash scripts/build.sh`")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_complete_documents_are_named_and_exist():
    assert COMPLETE, "locale/zh_CN/complete.txt lists no document"
    for doc in COMPLETE:
        assert (CATALOGUES / f"{doc}.po").exists(), f"{doc} is declared complete but has no catalogue"
        assert list(ROOT.glob(f"{doc}.*")), f"{doc} is declared complete but is not a page of the book"


@pytest.mark.parametrize("doc", COMPLETE)
def test_complete_catalogue_has_no_untranslated_or_fuzzy_message(doc):
    entries = read_po(CATALOGUES / f"{doc}.po")
    fuzzy = [m for m, (_, f) in entries.items() if f]
    missing = [m for m, (s, f) in entries.items() if not s and not f and not _nothing_to_translate(m)]
    assert not fuzzy, f"{doc}: fuzzy translations (the English changed; translate again): {fuzzy[:3]}"
    assert not missing, f"{doc}: untranslated messages: {missing[:3]}"


@pytest.fixture(scope="session")
def english_messages(tmp_path_factory):
    """The messages of the current English text, extracted by Sphinx's gettext builder once per test
    run: into this run's own folder, shared by its parallel workers, the first of which extracts
    while the others wait on a lock (each extracting its own cost a whole Sphinx build)."""
    import fcntl
    import os

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # this run's folder
    out = shared / "english-messages" / "gettext"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (out.parent / "done").exists():
            result = subprocess.run(
                [sys.executable, "-m", "scripts.build_lang", "gettext", str(out)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
            assert result.returncode == 0, result.stdout + result.stderr
            (out.parent / "done").write_text("extracted\n")
    return out


@pytest.mark.book
@pytest.mark.parametrize("doc", COMPLETE)
def test_complete_catalogue_holds_the_current_english_text(doc, english_messages):
    template = read_po(english_messages / f"{doc}.pot")
    catalogue = read_po(CATALOGUES / f"{doc}.po")
    stale = [m for m in template if not _nothing_to_translate(m) and not catalogue.get(m, ("", True))[0]]
    assert not stale, (
        f"{doc}: the English text has messages the catalogue does not translate; run "
        f"`.venv/bin/python -m scripts.build_lang update {LANG}` and translate them: {stale[:3]}"
    )


def test_markup_is_what_a_translation_keeps_verbatim():
    english = "Dividing by {glue:text}`ch3_sqrt_dk:.3f` gives $S$ ([chapter 2](02_scores.md), `S`)."
    assert markup(english) == sorted(["{glue:text}`ch3_sqrt_dk:.3f`", "$S$", "02_scores.md", "`S`"])
    assert markup("除以 {glue:text}`ch3_sqrt_dk:.3f` 得到 $S$（[第 2 章](02_scores.md)，`S`）。") == markup(english)
    assert markup("除以 {glue:text}`ch3_sqrt_dk` 得到 $S$（[第 2 章](02_scores.md)，`S`）。") != markup(english)
    # words in inline maths may be translated; a name in a subscript is not a word to translate
    assert markup("$$4 d^2 \\text{ weights}$$") == markup("$$4 d^2 \\text{ 个权重}$$")
    assert markup("$d_{\\text{model}}$") != markup("$d_{\\text{模型}}$")
    assert _nothing_to_translate("$d_{\\text{model}}$")
    # a cross-reference's link text is translated, its target kept
    assert (
        markup("{doc}`第 3 章 <03_scaling>`")
        == markup("{doc}`chapter 3 <03_scaling>`")
        != markup("{doc}`第 3 章 <04_softmax>`")
    )


def test_every_translation_keeps_its_messages_glued_numbers_maths_and_code():
    """In every catalogue, finished or not: a translation that drops or edits a glue role
    loses a computed number; one that edits a formula says something else."""
    problems = markup_mismatches(LANG)
    assert not problems, "\n".join(problems[:10])


@pytest.mark.book
def test_every_english_page_has_a_chinese_twin():
    english = _pages(HTML)
    assert "book/intro" in english and "book/glossary" in english
    missing = [p for p in english if not (ZH / f"{p}.html").exists()]
    assert not missing, f"pages with no Chinese twin: {missing}"
    assert (ZH / "index.html").exists()


@pytest.mark.book
@pytest.mark.parametrize("root,lang", [(HTML, "en"), (ZH, LANG)])
def test_every_page_has_html_lang_and_a_switch_to_its_twin(root, lang):
    tags = {e[0]: e[1] for e in EDITIONS}
    pages = _pages(root)
    assert len(pages) >= 15
    for page in pages:
        soup = _soup(root / f"{page}.html")
        assert soup.html.get("lang") == tags[lang], f"{root.name}/{page}: <html lang={soup.html.get('lang')!r}>"
        links = soup.select("nav.lang-switch a[href]")
        assert links, f"{root.name}/{page}: no language switch"
        for a in links:
            target = (root / f"{page}.html").parent / a["href"]
            assert target.resolve().exists(), f"{page}: the switch links to {a['href']}, which is not built"
            other_root = HTML if a["hreflang"] == "en" else HTML / a["hreflang"].replace("-", "_")
            assert target.resolve() == (other_root / f"{page}.html").resolve(), f"{page}: not the same page"
            assert a.get("lang") == a["hreflang"]


def _article(path: Path):
    article = _soup(path).select_one("article.bd-article")
    assert article is not None, f"{path}: no article"
    return article


def _numbers(article) -> Counter:
    text = article.get_text(" ")
    text = text.replace("\u2212", "-")
    return Counter(re.findall(r"-?\d+(?:\.\d+)?", text))


@pytest.mark.book
@pytest.mark.parametrize("doc", COMPLETE)
def test_translated_page_has_the_english_numbers(doc):
    english, chinese = _numbers(_article(HTML / f"{doc}.html")), _numbers(_article(ZH / f"{doc}.html"))
    assert english, f"{doc}: no numbers found on the English page"
    assert chinese == english, (
        f"{doc}: numbers only in English {dict(english - chinese)}, only in Chinese {dict(chinese - english)}"
    )


@pytest.mark.book
@pytest.mark.parametrize("doc", COMPLETE)
def test_translated_page_has_no_english_paragraph(doc):
    article = _article(ZH / f"{doc}.html")
    assert not article.select(".i18n-untranslated"), f"{doc} is complete but shows the not-translated notice"
    left = []
    for node in article.select("p, li > p, h1, h2, h3, dt, th"):
        # code, its outputs, myst-nb's toggle labels and the slides link are not this page's text
        # (the slides link and the checker's feedback are translated in a later step)
        if (
            node.find_parent(class_=["cell_output", "highlight", "slides-link"])
            or node.find_parent("summary")
            or "slides-link" in node.get("class", [])
        ):
            continue
        # code (`trace_attention(X, ...)`) and acronyms (MQA, GQA) read the same in both editions
        text = " ".join(t for t in node.find_all(string=True) if not t.find_parent("code")).strip()
        if not CJK.search(text) and not _nothing_to_translate(re.sub(r"\b[A-Z][A-Z0-9-]+\b", " ", text)):
            left.append(text[:80])
    assert not left, f"{doc}: English text on the Chinese page: {left[:5]}"


UNITS = {"KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "TB", "ms", "ns", "FP16", "FP32", "BF16"}


def _example_words() -> set[str]:
    """The examples' tokens: the same words in both editions (the sentences are data, and chapter 13's
    answers, il and elle, are French in both)."""
    from attention_steps.examples import i_love, translation
    from attention_steps.referents import PRONOUNS
    from attention_steps.sentence import SENTENCE, tokenize

    return {w.lower() for w in [*tokenize(SENTENCE), *i_love().tokens, *translation().source, *PRONOUNS]}


@pytest.mark.book
@pytest.mark.parametrize("doc", [d for d in COMPLETE if (ROOT / f"{d}.ipynb").exists()])
def test_glued_words_on_a_translated_page_are_in_its_language(doc):
    """A glued value is a number, a unit, a token of the examples, or words glued in every
    language (editions.glue_words): never an English phrase in the middle of a Chinese sentence."""
    import ast
    import json

    glue = ROOT / "_build" / "jupyter_execute" / f"{doc}.glue.json"
    if not glue.exists():
        pytest.fail(f"{glue} is not built: run `bash scripts/build.sh`")
    values = json.loads(glue.read_text(encoding="utf-8"))
    used = set(re.findall(r"\{glue:text\}`([^`:]+)", (ROOT / f"{doc}.ipynb").read_text(encoding="utf-8")))
    allowed = _example_words()
    english = []
    for key in sorted(used & set(values)):
        text = values[key]["data"].get("text/plain", "")
        if text[:1] in "'\"" and text[-1:] == text[:1]:
            text = ast.literal_eval(text)  # a glued string is stored as its repr
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in UNITS and w.lower() not in allowed]
        said = (values[key].get("metadata", {}).get("attention_steps/i18n") or {}).get("text/plain") or {}
        if words and not (LANG in said and CJK.search(said[LANG])):
            english.append(f"{key} = {text}")
    assert not english, (
        f"{doc}: English words glued into the Chinese page (use glue_words from book/editions.py): {english}"
    )


@pytest.mark.book
def test_untranslated_chinese_pages_say_so():
    for page in _pages(HTML):
        if not page.startswith("book/"):
            continue
        notice = _soup(ZH / f"{page}.html").select(".i18n-untranslated")
        assert bool(notice) == (page not in COMPLETE), page


@pytest.mark.book
def test_chinese_edition_search_index_has_chinese_words():
    """Sphinx splits Chinese with jieba when it is installed; without it, a whole run of
    Chinese characters is one 'word' and a search for 注意力 finds nothing."""
    import json

    import jieba  # noqa: F401  (requirements.txt)

    text = (ZH / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    terms = set(index["terms"]) | set(index["titleterms"])
    assert {"注意力", "术语表"} <= terms, sorted(t for t in terms if CJK.search(t))[:20]


@pytest.mark.book
def test_chinese_figure_is_drawn_in_chinese_from_the_same_execution():
    """The intro's bar chart (chapter 13's trained model on the tired / wide pair): one execution, two
    PNGs; each edition shows its own, with its alt text and the same two weights."""
    en = _article(HTML / "book/intro.html").select_one('img[alt*="Bars of the weights “it” gives"]')
    zh = _article(ZH / "book/intro.html").select_one('img[alt*="柱状图"]')
    assert en is not None and zh is not None
    assert Path(en["src"]).name != Path(zh["src"]).name
    weights = re.findall(r"puts (\d\.\d\d) on", en["alt"])
    assert len(weights) == 2 and re.findall(r"把 (\d\.\d\d) 放在", zh["alt"]) == weights


NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?%?")


def _figure_outputs():
    """(notebook, English alt, the output's metadata) of every figure the executed book displays,
    from the execution cache both editions are built from."""
    import nbformat
    from jupyter_cache import get_cache

    from scripts.build_paths import CACHE

    if not CACHE.exists():
        pytest.fail(f"no execution cache {CACHE}: run `bash scripts/build.sh`")
    cache = get_cache(CACHE)
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        try:
            record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            pytest.fail(f"{path.name} is not in the execution cache: run `bash scripts/build.sh`")
        for cell in cache.get_cache_bundle(record.pk).nb.cells:
            for output in cell.get("outputs", []):
                if "image/png" in output.get("data", {}):
                    metadata = output.get("metadata", {})
                    yield path.stem, metadata.get("image/png", {}).get("alt", ""), metadata


@pytest.mark.book
def test_every_figure_is_drawn_in_chinese_with_the_english_numbers():
    """Every figure of the book comes from figures.show_figure (drawn in every language by book/editions.py): the output carries the Chinese PNG
    and alt text, drawn in the same execution from the same data. The Chinese alt text is
    Chinese and states the English one's numbers (its words are all that differ)."""
    from attention_steps.i18n import METADATA_KEY

    figures, wrong = 0, []
    for notebook, alt, metadata in _figure_outputs():
        figures += 1
        zh = metadata.get(METADATA_KEY, {})
        zh_alt = zh.get("alt", {}).get(LANG, "")
        if not zh.get("image/png", {}).get(LANG) or not zh.get("width", {}).get(LANG):
            wrong.append((notebook, alt[:60], "no Chinese PNG: show it with figures.show_figure"))
        elif not CJK.search(zh_alt):
            wrong.append((notebook, alt[:60], f"the Chinese alt text is not Chinese: {zh_alt[:60]!r}"))
        elif set(NUMBER.findall(alt)) != set(NUMBER.findall(zh_alt)):
            wrong.append(
                (
                    notebook,
                    alt[:60],
                    f"numbers {sorted(set(NUMBER.findall(alt)))} in English, "
                    f"{sorted(set(NUMBER.findall(zh_alt)))} in Chinese",
                )
            )
    assert figures > 40, f"only {figures} figures in the executed notebooks"
    assert wrong == [], wrong


@pytest.mark.parametrize(
    "page", ["book/intro"] + [f"book/{p.stem}" for p in sorted((ROOT / "book").glob("[01]*.ipynb"))]
)
@pytest.mark.book
def test_every_chinese_page_shows_its_figures_in_chinese(page):
    """The Chinese page has the English page's figures, each with Chinese alt text (and its Chinese
    PNG: the same file as the English one only if the figure has no words), at the width it was drawn for."""
    en = [
        img for img in _article(HTML / f"{page}.html").select(".cell_output img") if img.get("src", "").endswith(".png")
    ]
    zh = [
        img for img in _article(ZH / f"{page}.html").select(".cell_output img") if img.get("src", "").endswith(".png")
    ]
    assert len(zh) == len(en) > 0, (len(en), len(zh))
    for e, z in zip(en, zh):
        assert CJK.search(z.get("alt", "")), (e.get("alt", "")[:60], z.get("alt", "")[:60])
        assert re.search(r"width:\s*[\d.]+px", z.get("style", "")), z.get("alt", "")[:60]


@pytest.mark.parametrize("edition,label", [("", "The numbers that matter"), (f"{LANG}/", "关键数字")])
def test_explorer_labels_follow_the_page_language(site, offline_page, edition, label):
    """The temperature explorer, saved once by the English execution, labels itself in each
    edition's language (attention_steps.i18n.for_javascript, t() in its JavaScript)."""
    from conftest import TIMEOUT_MS

    view = offline_page(viewport={"width": 1280, "height": 900})
    view.page.goto(f"{site}/{edition}book/04_softmax.html", timeout=TIMEOUT_MS)
    panel = view.page.locator(".ase-temperature figcaption", has_text=label)
    panel.first.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert not view.problems and not view.foreign, (view.problems, view.foreign)


EXPLORERS = ["dk", "temperature", "heads", "who-attends", "training", "sentence"]
# What an explorer writes on the Chinese page that is not English: the maths' names
# (d_k, d_model, ln, softmax; "dk" and "dmodel" are d<sub>k</sub> and d<sub>model</sub> as text)
# and "token", which the Chinese text keeps (glossary). The data's tokens are taken out first.
NOT_ENGLISH = re.compile(r"(?<![A-Za-z])(?:d_?k|d_?model|ln|softmax|token)(?![A-Za-z])")
# Every word an explorer shows: labels, captions, legends, the numbers' names and values,
# the words in its drawings, and its accessible names and values.
EXPLORER_WORDS = """r => {
  const words = [];
  const selectors = "label, legend, figcaption, dt, dd, output, li, p, button, svg text";
  for (const e of r.querySelectorAll(selectors)) words.push(["text", e.tagName, e.textContent.trim()]);
  for (const e of [r, ...r.querySelectorAll("*")])
    for (const a of ["aria-label", "aria-valuetext", "title", "alt"])
      if (e.getAttribute(a)) words.push([a, e.tagName, e.getAttribute(a)]);
  const img = r.closest(".cell_output").querySelector("img");
  words.push(["alt", "img", img ? img.getAttribute("alt") : "(no static figure)"]);
  return words.filter(([, , w]) => w);
}"""
# The tokens (and key names) the page's explorers show, from the widget state saved in the page.
EXPLORER_TOKENS = """() => {
  const tokens = new Set();
  for (const s of document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]'))
    for (const model of Object.values(JSON.parse(s.textContent).state || {})) {
      const data = (model.state || {}).data || {};
      for (const k of ["tokens", "labels", "keys"]) (data[k] || []).forEach((t) => tokens.add(String(t)));
    }
  return [...tokens];
}"""


def _english_words(text: str, tokens: list[str]) -> list[str]:
    """The English words left in `text` once the tokens and the maths' names are out."""
    for token in sorted(tokens, key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z']){re.escape(token)}(?![A-Za-z'])", " ", text)
    return re.findall(r"[A-Za-z]{2,}", NOT_ENGLISH.sub(" ", text))


def test_english_words_are_found_in_a_label():
    tokens = ["The", "animal", "didn't", "it"]
    assert _english_words("head 1: coreference", tokens) == ["head", "coreference"]
    assert _english_words("头 1：共指", tokens) == []
    assert _english_words("“it”在整个句子上的权重：The 0.10，animal 0.80，didn't 0.10", tokens) == []
    assert _english_words("每个头的 dk = dmodel / h；查询 token", tokens) == []
    assert _english_words("0.42 nats", tokens) == ["nats"]


@pytest.mark.parametrize("kind", EXPLORERS)
def test_explorers_show_no_english_label_in_the_chinese_edition(site, offline_page, kind):
    """On the Chinese page every word an explorer shows (controls, captions, legends, the numbers'
    names and units, the drawings' titles and accessible names, keyboard hints, and the static
    figure's alt text) is Chinese, a symbol, a number, a maths name, or one of the data's tokens.
    The same saved widget is English on the English page (test_explorers.py reads it there)."""
    from conftest import TIMEOUT_MS

    marker = f"// attention-explorer: {kind} "
    pages = [p for p in _pages(HTML) if marker in (HTML / f"{p}.html").read_text(encoding="utf-8", errors="ignore")]
    assert pages, f"no page of the English book holds the {kind} explorer"
    view = offline_page(viewport={"width": 1280, "height": 900})
    view.page.goto(f"{site}/{LANG}/{pages[0]}.html", timeout=TIMEOUT_MS)
    root = view.page.locator(f".ase-explorer[data-explorer='{kind}']").first
    root.wait_for(timeout=TIMEOUT_MS)
    words, tokens = root.evaluate(EXPLORER_WORDS), view.page.evaluate(EXPLORER_TOKENS)
    assert len(words) > 10 and tokens, (words, tokens)
    english = [(where, tag, text) for where, tag, text in words if _english_words(text, tokens)]
    assert not english, english
    assert sum(bool(CJK.search(text)) for _, _, text in words) > 5, words
    assert not view.problems and not view.foreign, (view.problems, view.foreign)


@pytest.mark.book
def test_chinese_sidebar_shows_the_parts_in_chinese():
    """The parts of _toc.yml are messages of the root page's catalogue."""
    from babel.messages.pofile import read_po

    with (CATALOGUES / "book/intro.po").open("rb") as f:
        catalogue = {m.id: m.string for m in read_po(f) if m.id}
    for page in ("book/intro", "book/01_projection", "book/glossary"):
        captions = [c.get_text(strip=True) for c in _soup(ZH / f"{page}.html").select("nav.bd-links p.caption")]
        assert captions and all(CJK.search(c) for c in captions), (page, captions)
        assert set(captions) <= set(catalogue.values())


@pytest.mark.book
@pytest.mark.parametrize("doc", COMPLETE)
def test_translated_page_shows_no_markdown_markers(doc):
    """A closing ** glued to a Chinese character after a full stop ("**练习 5.1。**练习") is not
    read as bold by MyST: the page shows the asterisks. Catalogues put a space after it."""
    article = _article(ZH / f"{doc}.html")
    for code in article.select("code, pre, script, style, .cell_output"):
        code.decompose()
    text = article.get_text(" ")
    assert "**" not in text, f"{doc}: {text[max(0, text.find('**') - 40) : text.find('**') + 40]!r}"


@pytest.mark.book
def test_the_page_script_speaks_the_editions_language():
    """book/assets/book.js adds a skip link and the figure dialog's words: the Chinese edition
    gives it their translations (window.ATTENTION_STRINGS, before the script runs)."""
    import json

    page = (ZH / "book" / "03_scaling.html").read_text(encoding="utf-8")
    found = re.search(r"window\.ATTENTION_STRINGS = (\{.*?\});", page)
    assert found, "no ATTENTION_STRINGS on the Chinese page"
    strings = json.loads(found.group(1))
    assert strings["Enlarge figure"] == "放大图" and strings["Skip to the interactive explorer"] == "跳到交互式探索器"
    assert page.index("window.ATTENTION_STRINGS") < page.index("book.js")
    assert "ATTENTION_STRINGS =" not in (HTML / "book" / "03_scaling.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the slides' speaker notes
def _notes_catalogues() -> list[Path]:
    return sorted((CATALOGUES / "notes").glob("*.po"))


def test_every_deck_has_a_notes_catalogue_holding_its_current_notes():
    """The speaker notes are not on the pages, so Sphinx does not extract them: their catalogues
    (scripts/translate_notebook.py) must hold every message of the current English notes, translated."""
    import json

    from scripts.slides.chapters import chapters
    from scripts.translate_notebook import notes_messages

    decks = chapters()
    assert {p.stem for p in _notes_catalogues()} == {p.stem for p in decks}
    for path in decks:
        catalogue = read_po(CATALOGUES / "notes" / f"{path.stem}.po")
        stale = [m for m in notes_messages(json.loads(path.read_text())) if not catalogue.get(m, ("", True))[0]]
        assert not stale, (
            f"notes/{path.stem}.po does not translate the current notes; run `.venv/bin/python "
            f"scripts/build_lang.py update {LANG}` and translate: {stale[:3]}"
        )
        fuzzy = [m for m, (_, f) in catalogue.items() if f]
        assert not fuzzy, f"notes/{path.stem}.po: fuzzy translations (the English changed): {fuzzy[:3]}"


def test_a_notes_translation_says_the_same_numbers():
    """A speaker note's numbers are checked against the core in English (tests/test_slides.py);
    the Chinese note must say the same digits."""
    wrong = []
    for po in _notes_catalogues():
        for msgid, (msgstr, _fuzzy) in read_po(po).items():
            if msgstr and Counter(re.findall(r"\d+", msgid)) != Counter(re.findall(r"\d+", msgstr)):
                wrong.append(f"{po.name}: {msgid[:60]!r} -> {msgstr[:60]!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.book
def test_a_deck_translates_every_message_of_its_chapter():
    """scripts/translate_notebook.py cuts a cell into the messages Sphinx extracts: every message of
    every chapter (its cells, notes and Markdown outputs) is found in the catalogues, so no English is
    left on a Chinese slide (the slides' build stops on one too)."""
    from scripts.slides.chapters import chapters
    from scripts.slides.execution import executed
    from scripts.translate_notebook import translate

    for path in chapters():
        nb, _origin = executed(path)  # the book's execution: its Markdown outputs too
        _, missing = translate(nb, LANG, path.stem)
        assert not missing, f"{path.stem}: no translation for {missing[:3]}"
