"""Accessibility audit of every slide deck: axe-core (pinned in package.json, copied to
_build/vendor/tests/ by scripts/vendor_assets.py) reports no serious or critical violation,
with the reader's system set to light and to dark (the decks use reveal's white theme in both).

reveal.js shows one slide at a time and hides the others (axe skips what is hidden), so the
audit steps through the deck and audits each slide while it is shown.
"""

from __future__ import annotations

import pytest
from test_accessibility import AXE, RUN_AXE
from test_slides import DECKS, IS_READY, READY, expected

from conftest import SETTLED, TIMEOUT_MS

SCHEMES = ["light", "dark"]

# Step through the deck as a teacher does and audit each slide while it is shown (axe skips
# what is hidden, and reveal hides every slide but the current one).
AUDIT_EVERY_SLIDE = """async (limit) => {
  Reveal.configure({transition: 'none'});
  const found = [];
  let audited = 0;
  for (let k = 0; k < Math.min(limit, Reveal.getTotalSlides()); k++) {
    if (k) Reveal.next();
    while (Reveal.availableFragments().next) Reveal.nextFragment();
    const slide = Reveal.getCurrentSlide();
    if (window.MathJax && MathJax.Hub) await new Promise(r => MathJax.Hub.Queue(['Rerender', MathJax.Hub, slide], r));
    const result = await axe.run(slide, {resultTypes: ['violations']});
    audited++;
    result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').forEach(v =>
      found.push(`slide ${k + 1}: ${v.impact} ${v.id} (${v.help}): ` +
        v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' -> ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | ')));
  }
  return {audited, found};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("deck", DECKS)
def test_deck_passes_axe_in_both_modes(slides_url, offline_page, deck, scheme):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: scripts/vendor_assets.py copies it from node_modules/axe-core")
    p = offline_page(viewport={"width": 1280, "height": 720}, color_scheme=scheme)
    page = p.page
    page.goto(f"{slides_url}/{deck}.html", wait_until="load")
    page.wait_for_function(IS_READY, timeout=TIMEOUT_MS)
    assert page.evaluate(READY), f"{deck}: reveal.js never became ready"
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(RUN_AXE)  # the page as it opens: the first slide and the page's own parts
    assert violations == [], f"{deck} ({scheme}):\n" + "\n".join(violations)
    limit = 1 if deck.endswith("course") else 10_000  # the course deck repeats the chapters' slides
    audit = page.evaluate(AUDIT_EVERY_SLIDE, limit)
    assert audit["audited"] == min(limit, expected(deck))
    assert audit["found"] == [], f"{deck} ({scheme}):\n" + "\n".join(audit["found"])
