"""Sphinx glue that keeps every page loadable offline and free of console errors."""

from __future__ import annotations

import hashlib
from pathlib import Path


def _drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    """Drop repeated <script> entries from a page.

    Under Sphinx 7.4 some extensions (sphinx-thebe, sphinx-togglebutton) register
    their inline configuration once for the app and once for the builder, so it
    is emitted twice; the second `const THEBE_JS_URL` is a SyntaxError in the page.
    """
    seen, unique = set(), []
    for script in context.get("script_files", []):
        # The builder's copy has filename "" where the app's has None.
        key = (script.filename or "", tuple(sorted(script.attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def _static_digest(app) -> str:
    """A hash of our own static files (the vendored ones are pinned by package-lock.json)."""
    h = hashlib.sha256()
    for folder in app.config.html_static_path:
        root = Path(app.confdir, folder)
        if "vendor" in root.parts:
            h.update(str(root).encode())
            continue
        for f in sorted(root.rglob("*")):
            if f.is_file():
                h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()


def _rebuild_when_assets_change(app, env, added, changed, removed):
    """Sphinx copies static files only when some page is rewritten, so an edited
    CSS or JS file alone would never reach _build/html; rewrite every page then."""
    digest = _static_digest(app)
    if getattr(env, "offline_assets_digest", None) == digest:
        return []
    env.offline_assets_digest = digest
    return sorted(env.found_docs)


def setup(app):
    app.connect("env-get-outdated", _rebuild_when_assets_change)
    # Late priority: run after every extension has added its scripts.
    app.connect("html-page-context", _drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
