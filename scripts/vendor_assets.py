"""Copy the browser assets installed by npm into _build/vendor/.

The book (and the slides) serve these files themselves, so no page asks another
host for MathJax, require.js, the widget manager or anywidget. Versions are
pinned in package.json / package-lock.json; run `npm ci` first.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
OUT = ROOT / "_build" / "vendor"

WIDGETS = {
    "require.js": "requirejs/require.js",
    "html-manager": "@jupyter-widgets/html-manager/dist",  # embed-amd.js and its fonts
    "anywidget/index.js": "anywidget/dist/index.js",  # the AMD build the widget manager loads
}
# destination (under _build/vendor) -> source (under node_modules)
COPIES = {
    **{f"book/{dest}": src for dest, src in WIDGETS.items()},
    "book/mathjax": "mathjax/es5",  # MathJax 3, for the book
    **{f"slides/{dest}": src for dest, src in WIDGETS.items()},
    "slides/reveal.js": "reveal.js",  # reveal.js 4: 5 and 6 moved the plugin paths nbconvert uses
    "slides/mathjax2": "mathjax2",  # MathJax 2.7, which nbconvert's slide template expects
    "slides/jquery.min.js": "jquery/dist/jquery.min.js",
    # axe-core, for the accessibility tests only: no page of the book or the slides loads it.
    "tests/axe.min.js": "axe-core/axe.min.js",
}
# Source maps, tests and the CommonJS / non-AMD bundles are never loaded by a page.
SKIP = shutil.ignore_patterns(
    "*.map", "test", "unpacked", "*.md", "package.json", "examples", "node_modules", "embed.js", "libembed-amd.js"
)


def main() -> int:
    missing = [src for src in COPIES.values() if not (NODE / src).exists()]
    if missing:
        print(f"vendor_assets: missing {', '.join(missing)} under node_modules; run `npm ci` first", file=sys.stderr)
        return 1
    # The lock file pins every version, so its hash says whether a copy is current.
    stamp, lock = OUT / ".package-lock.sha256", hashlib.sha256((ROOT / "package-lock.json").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == lock and all((OUT / d).exists() for d in COPIES):
        print(f"vendor_assets: {OUT.relative_to(ROOT)}/ is up to date")
        return 0
    for dest, src in COPIES.items():
        source, target = NODE / src, OUT / dest
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=SKIP)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    stamp.write_text(lock)
    print(f"vendor_assets: browser assets ready in {OUT.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
