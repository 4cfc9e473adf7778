"""The words the book's production adds around the chapters, in the reader's language.

The slides link under each page's title and the figure dialog's buttons (book/_ext/,
book/assets/book.js), the decks' and handouts' titles and links (scripts/slides/,
build_slides, build_handouts), the cells and notes the learner edition adds (build_learner):

    from scripts.chrome import _, language
    with language("zh_CN"):
        _("PDF handout")  # "PDF 讲义"

Their translations are in ``locale/<lang>/chrome.po``, beside the pages' own catalogues
(``locale/<lang>/LC_MESSAGES``), read by Babel as the package's are (attention_steps.i18n.read_po).
They are not in the package: a learner's Python never shows them. The current language is
the package's (``language``, ``set_language``, ``$ATTENTION_LANG``), so one ``with language(...)``
serves a page's words from both.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from attention_steps.i18n import LANGUAGES, N_, current, language, read_po  # noqa: F401  (re-exported)
from scripts.build_paths import ROOT


def catalogue_path(lang: str) -> Path:
    """`lang`'s catalogue of the production's words: locale/<lang>/chrome.po."""
    return ROOT / "locale" / lang / "chrome.po"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The usable translations (not fuzzy, not empty) of the production's words in `lang`; English has none."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    if lang == "en":
        return {}
    return {k: v for k, (v, fuzzy) in read_po(catalogue_path(lang)).items() if v and not fuzzy}


def _(message: str) -> str:
    """`message` (English) in the current language; English when chrome.po does not translate it."""
    return catalogue(current()).get(message, message)
