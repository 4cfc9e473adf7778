"""Accessibility of the built book, in Chromium with every other host blocked.

- axe-core (pinned in package.json, copied to _build/vendor/tests/ by
  scripts/vendor_assets.py and never served by the book) finds no serious or
  critical violation on any page, with the reader's system set to light and to dark;
- the book follows that system setting (prefers-color-scheme);
- the explorers' drawings keep WCAG AA contrast in both modes (axe does not
  measure SVG): text 4.5:1, marks and control edges 3:1;
- formulas are not Tab stops, and a skip link reaches an explorer's first
  control in four key presses;
- glued numbers are set like the words around them, figures sit on a white
  card in dark mode, search shows one box and plain-text snippets.

Every wait is for a condition, with an explicit bound.
"""

from __future__ import annotations

import json

import pytest

from conftest import HTML, LANDED, MATH_DONE, ROOT, SETTLED

AXE = ROOT / "_build" / "vendor" / "tests" / "axe.min.js"
WAIT = 60_000  # ms: generous, for a loaded 2-core machine

# The book's pages: chapters, intro, index, search, general index. _static/ and
# _sources/ hold assets; slides/ are the decks (tests/test_slides.py).
PAGES = sorted(
    str(p.relative_to(HTML))
    for p in HTML.rglob("*.html")
    if p.relative_to(HTML).parts[0] not in ("slides",)
    and not any(
        part.startswith("_") for part in p.relative_to(HTML).parts
    )  # also zh_CN/_static/: the Chinese edition has its own asset folders
)
SCHEMES = ["light", "dark"]
EXPLORERS = {
    "dk": "book/03_scaling.html",
    "temperature": "book/04_softmax.html",
    "heads": "book/06_multi_head.html",
    "who-attends": "book/08_whole_layer.html",
    "training": "book/13_learning_to_attend.html",
    "sentence": "book/13_learning_to_attend.html",
}

RUN_AXE = """async () => {
  const limit = new Promise((_, reject) => setTimeout(() => reject(new Error('axe did not finish in 120 s')), 120000));
  const result = await Promise.race([axe.run(document, {resultTypes: ['violations']}), limit]);
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id} (${v.help}): ` +
      v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' -> ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | '));
}"""

# WCAG contrast of an explorer's SVG against the page behind it: text 4.5:1,
# marks drawn at full opacity 3:1 (faded, weight-coded lines and the heatmap's
# colour scale are read against each other, not the page), control edges and
# the focus ring 3:1.
SVG_CONTRAST = """(root) => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const over = (fg, bg, a) => ({r: fg.r * a + bg.r * (1 - a), g: fg.g * a + bg.g * (1 - a), b: fg.b * a + bg.b * (1 - a)});
  let bg = null;
  for (let e = root; e && !bg; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0.99) bg = c;
  }
  bg = bg || {r: 255, g: 255, b: 255};
  const opacity = (el) => { let o = 1; for (let x = el; x && x !== root; x = x.parentElement) o *= Number(getComputedStyle(x).opacity); return o; };
  const bad = [];
  let texts = 0, marks = 0;
  for (const t of root.querySelectorAll('svg text')) {
    const fill = parse(getComputedStyle(t).fill);
    // A heatmap cell's number is written on the cell: measure it against the cell (the path of
    // the cells of one colour, which the numbers written on those cells follow).
    let cell = t.previousElementSibling;
    while (cell && cell.tagName === 'text') cell = cell.previousElementSibling;
    const under = t.classList.contains('ase-cell') ? parse(getComputedStyle(cell).fill) : bg;
    const r = ratio(over(fill, under, opacity(t) * fill.a), under);
    texts += 1;
    if (r < 4.5) bad.push(`text "${t.textContent}" ${r.toFixed(2)}:1`);
  }
  for (const m of root.querySelectorAll('svg rect, svg path, svg line')) {
    if (m.classList.contains('ase-grid') || m.closest('.ase-head')) continue;
    // Filled marks: rects and the bar charts' paths (.ase-bars, all bars of a colour in one path).
    const cs = getComputedStyle(m), filled = m.tagName === 'rect' || m.classList.contains('ase-bars');
    const c = parse(filled ? cs.fill : cs.stroke);
    if (!c) continue;
    if (opacity(m) * c.a * Number(filled ? cs.fillOpacity : cs.strokeOpacity) < 0.999) continue;
    marks += m.classList.contains('ase-bars') ? (m.getAttribute('d').match(/z/g) || []).length : 1;  // a path: its bars
    const r = ratio(c, bg);
    if (r < 3) bad.push(`${m.tagName} ${filled ? cs.fill : cs.stroke} ${r.toFixed(2)}:1`);
  }
  for (const c of root.querySelectorAll('.ase-choice, .ase-token')) {
    const r = ratio(parse(getComputedStyle(c).borderTopColor), bg);
    if (r < 3) bad.push(`edge of "${c.textContent.trim()}" ${r.toFixed(2)}:1`);
  }
  // The focus ring of the focused control (the test focuses the first one).
  const focused = document.activeElement, ring = focused.closest('.ase-choice') || focused;
  const ringStyle = getComputedStyle(ring);
  const ringRatio = ringStyle.outlineStyle === 'none' ? 0 : ratio(parse(ringStyle.outlineColor), bg);
  if (ringRatio < 3) bad.push(`focus ring ${ringStyle.outlineStyle} ${ringStyle.outlineColor} ${ringRatio.toFixed(2)}:1`);
  return {bad: [...new Set(bad)], texts, marks, background: `rgb(${bg.r}, ${bg.g}, ${bg.b})`};
}"""


def open_page(offline_page, site, path, scheme="light", width=1280):
    """The page at `path`, typeset, its explorer (if any) drawn."""
    p = offline_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    p.page.set_default_timeout(WAIT)
    p.page.goto(f"{site}/{path}", wait_until="load", timeout=WAIT)
    p.page.wait_for_function(LANDED, timeout=WAIT)  # index.html redirects: let it land
    p.page.wait_for_function(MATH_DONE, timeout=WAIT)
    p.page.wait_for_function(SETTLED, timeout=WAIT)
    if p.page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count():
        p.page.locator(".ase-explorer").first.wait_for(state="visible", timeout=WAIT)
    return p


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("page_path", PAGES or ["(book not built)"])
def test_page_is_offline_clean_and_passes_axe_in_both_modes(site, offline_page, page_path, scheme):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: scripts/vendor_assets.py copies it from node_modules/axe-core")
    p = open_page(offline_page, site, page_path, scheme)
    page = p.page
    # The theme follows the reader's system setting until the reader picks a mode.
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    # The colour-mode button's icons are named by book.js only once Font Awesome has
    # swapped them (a race on a busy machine): wait for the state axe is to judge.
    page.wait_for_function(
        "[...document.querySelectorAll('.theme-switch-button i, .theme-switch-button svg')]"
        ".every((e) => e.getAttribute('aria-hidden') === 'true' && !e.querySelector('title'))",
        timeout=WAIT,
    )
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(RUN_AXE)
    assert violations == [], f"{page_path} ({scheme}):\n" + "\n".join(violations)
    # A glued number is set like the words around it (myst-nb makes it bold).
    bold = page.evaluate("""() => [...document.querySelectorAll('span.pasted-text')]
      .filter(s => getComputedStyle(s).fontWeight !== getComputedStyle(s.parentElement).fontWeight)
      .map(s => s.parentElement.textContent.trim().slice(0, 60))""")
    assert bold == [], f"{page_path}: glued numbers in a different weight from their sentence: {bold}"
    if scheme == "dark":  # figures are drawn on white: a white card, not dimmed
        dimmed = page.evaluate("""() => [...document.querySelectorAll('article img')]
          .filter(i => i.offsetParent && (getComputedStyle(i).backgroundColor !== 'rgb(255, 255, 255)'
                                           || getComputedStyle(i).filter !== 'none'))
          .map(i => i.getAttribute('src'))""")
        assert dimmed == [], f"{page_path}: figures without a white card in dark mode: {dimmed}"
    # The same visit makes tests/test_browser.py's offline checks (one visit per page and scheme).
    from test_browser import assert_offline_clean

    assert_offline_clean(p, f"{page_path} ({scheme})")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_explorer_drawing_contrast(site, offline_page, kind, scheme):
    p = open_page(offline_page, site, EXPLORERS[kind], scheme)
    root = p.page.locator(f".ase-explorer[data-explorer='{kind}']").first
    p.page.keyboard.press("Tab")  # keyboard focus, so that :focus-visible applies
    root.locator("[data-control]").first.focus()
    result = root.evaluate(SVG_CONTRAST)
    page_bg = {"light": "rgb(255, 255, 255)", "dark": "rgb(18, 18, 18)"}[scheme]
    assert result["background"] == page_bg, f"the {kind} explorer is not drawn on the page ({result['background']})"
    assert result["texts"] > 5 and (result["marks"] > 5 or kind == "heads"), result  # it did measure something
    assert result["bad"] == [], f"{kind} ({scheme}): {result['bad']}"


@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_formulas_are_not_tab_stops_and_the_explorer_is_four_keys_away(site, offline_page, kind):
    p = open_page(offline_page, site, EXPLORERS[kind])
    page = p.page
    formulas = page.evaluate("""() => [...document.querySelectorAll('mjx-container')].map(m => m.tabIndex)""")
    assert len(formulas) > 5, "the page should have formulas"
    assert [t for t in formulas if t >= 0] == [], "formulas are in the Tab order"
    # Tab: "Skip to main content"; Tab: "Skip to the interactive explorer"; Enter; Tab: its first control.
    for key in ["Tab", "Tab"]:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to the interactive explorer"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => { const a = document.activeElement;
      return a.closest('.ase-explorer') ? a.dataset.control || a.tagName : a.outerHTML.slice(0, 80); }""")
    # the page's first explorer's first control (chapter 13's sentence builder follows its training slider)
    first = {"dk": "d_k", "temperature": "temperature", "heads": "h", "who-attends": "token", "training": "step"}
    first = first.get(kind, "step")
    assert focused == first, f"{kind}: four keys from the top land on {focused!r}, not the first control"


def test_one_search_box_on_a_wide_screen_and_on_a_phone(site, offline_page):
    for width in (1280, 375):
        p = open_page(offline_page, site, "book/02_scores.html", width=width)
        shown = p.page.evaluate("""() => [...document.querySelectorAll('.search-button-field, .search-button')]
          .filter(e => e.checkVisibility() && e.getBoundingClientRect().width > 0).length""")
        assert shown == 1, f"{shown} search boxes at {width} px"


def test_search_snippets_are_plain_text_without_hidden_code(site, offline_page):
    p = offline_page(viewport={"width": 1280, "height": 900})
    page = p.page
    page.goto(f"{site}/search.html?q=scaling", wait_until="load", timeout=WAIT)
    page.wait_for_function(
        "() => document.querySelectorAll('#search-results li').length >= 5 && "
        "[...document.querySelectorAll('#search-results li')].every(li => li.querySelector('p.context'))",
        timeout=WAIT,
    )
    snippets = page.evaluate("[...document.querySelectorAll('#search-results li p.context')].map(p => p.textContent)")
    for text in snippets:
        for raw in ["\\(", "\\[", "\\frac", "\\sqrt", "\\operatorname", "import ", "glue(", "Show code cell"]:
            assert raw not in text, f"snippet shows {raw!r}: {text}"
    assert any("√d_k" in t or "d_k" in t for t in snippets), snippets  # math kept, as plain text
    # A word that only appears in hidden code cells matches no page.
    assert "dk_explorer" in (HTML / "book" / "03_scaling.html").read_text(encoding="utf-8")  # it is in a hidden cell
    index = (HTML / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(index[index.index("(") + 1 : index.rindex(")")])["terms"]
    assert terms.get("dk_explor", []) in ([], None), "hidden code is in the search index"
    assert terms.get("softmax"), "the index lost visible words"
    assert p.problems == [], p.problems


def test_math_in_snippets_reads_as_text(site, offline_page):
    """The TeX-to-text rewrite used by the snippets, on the book's own forms."""
    p = open_page(offline_page, site, "search.html")
    cases = {
        "\\(\\div\\sqrt{d_k}\\)": "÷√d_k",
        "\\(\\operatorname{Var}[q\\cdot k] = d_k\\)": "Var[q·k] = d_k",
        "\\(S = QK^\\top/\\sqrt{d_k}\\)": "S = QKᵀ/√d_k",
        "\\(\\frac{1}{n}\\)": "1/n",
    }
    for tex, text in cases.items():
        got = p.page.evaluate("t => window.bookTexToText(t)", tex)
        assert got.replace(" ", "") == text.replace(" ", ""), (tex, got)
