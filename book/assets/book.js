// The book's own page script (loaded with `defer` on every page): keyboard and
// screen-reader fixes to the theme's markup, a skip link to a chapter's
// explorer, and search snippets in plain words.
(function () {
  "use strict";

  // Words this script puts on the page, in the page's language: a translated edition sets
  // window.ATTENTION_STRINGS from the core's catalogues (book/_ext/i18n_edition.py, pages.po).
  const STRINGS = window.ATTENTION_STRINGS || {};
  function tr(message, values) {
    const text = STRINGS[message] || message;
    return values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : text;
  }

  // ---------------------------------------------------------------- search snippets
  // Sphinx builds each result's snippet from the page's HTML as it is on disk:
  // hidden code cells and math still as TeX ("\(\sqrt{d_k}\)"). Drop what the
  // reader does not see and write math as plain text before the snippet is cut.
  const SYMBOLS = {
    cdot: "·", times: "×", div: "÷", top: "ᵀ", to: "→", infty: "∞", approx: "≈",
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", neq: "≠", in: "∈", sum: "Σ",
    ldots: "…", dots: "…", cdots: "⋯", quad: " ", qquad: " ", mid: "|", lVert: "‖", rVert: "‖",
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", theta: "θ", lambda: "λ",
    mu: "μ", pi: "π", sigma: "σ", tau: "τ", phi: "φ", Sigma: "Σ", partial: "∂", prime: "′",
  };

  /** TeX as a reader would say it in plain text: \frac{a}{b} -> a/b, \sqrt{d_k} -> √d_k. */
  function texToText(tex) {
    let s = tex.trim().replace(/^\\\(|\\\)$|^\\\[|\\\]$|^\$\$?|\$\$?$/g, "");
    s = s.replace(/\\(?:begin|end)\{[^}]*\}/g, " ").replace(/\\\\/g, "; ").replace(/&/g, " ");
    s = s.replace(/\\(?:left|right|big|Big|bigl|bigr|Bigl|Bigr|displaystyle|,|;|!)/g, "");
    s = s.replace(/\^\{?\\top\}?/g, "ᵀ");
    for (let i = 0; i < 3; i++) {
      s = s.replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)");
      s = s.replace(/\\sqrt\{([^{}]*)\}/g, "√$1");
      s = s.replace(/\\(?:operatorname|mathrm|mathbf|mathit|text|textrm|mathcal|boldsymbol)\{([^{}]*)\}/g, "$1");
    }
    s = s.replace(/\\mathbb\{R\}/g, "ℝ");
    s = s.replace(/\\([A-Za-z]+)/g, (m, name) => (name in SYMBOLS ? SYMBOLS[name] : name));
    s = s.replace(/[{}]/g, "").replace(/\(([A-Za-z0-9_]+)\)\/\(([A-Za-z0-9_]+)\)/g, "$1/$2");
    return s.replace(/\s+/g, " ").trim();
  }

  function plainSearchText() {
    if (typeof Search === "undefined" || !Search.htmlToText) return;
    const original = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      // Hidden code (and its "Show code cell source" toggle), scripts, explorer
      // data, the launch/download buttons and the table of contents printed on paper.
      doc.querySelectorAll("details.hide, .cell_input, script, style, .bd-header-article, #jb-print-docs-body")
        .forEach((e) => e.remove());
      doc.querySelectorAll(".math").forEach((e) => {
        e.textContent = " " + texToText(e.textContent) + " ";
      });
      // Runs of blank lines and indentation would use up the snippet's 240 characters.
      return original(doc.documentElement.outerHTML, anchor).replace(/\s+/g, " ");
    };
  }
  plainSearchText();
  window.bookTexToText = texToText; // for the tests

  // ---------------------------------------------------------------- the theme's buttons
  function fixThemeButtons() {
    // Two navigation landmarks the theme's templates name in English: named in the page's language.
    document.querySelectorAll('nav.bd-docs-nav[aria-label="Main"]').forEach((n) => n.setAttribute("aria-label", tr("Main")));
    document.querySelectorAll('#jb-print-toc nav[aria-label="Page"]').forEach((n) => n.setAttribute("aria-label", tr("Page")));
    // "Search" as the accessible name of a button that shows "Search Ctrl+K":
    // let the visible text name it (WCAG 2.5.3, label in name).
    document.querySelectorAll(".search-button-field[aria-label]").forEach((b) => b.removeAttribute("aria-label"));
    // myst-nb names every code toggle "Toggle hidden content" while it shows
    // "Show code cell source": the visible words name it instead.
    document.querySelectorAll('details.hide > summary[aria-label="Toggle hidden content"]').forEach((s) => s.removeAttribute("aria-label"));
    // The colour-mode button's icons carry titles of their own; the button's
    // name is its aria-label. (Font Awesome may have turned the <i> into <svg> already.)
    document.querySelectorAll(".theme-switch-button i, .theme-switch-button svg").forEach((icon) => {
      icon.removeAttribute("title");
      icon.querySelectorAll("title").forEach((t) => t.remove());
      icon.removeAttribute("aria-labelledby");
      icon.setAttribute("aria-hidden", "true");
    });
  }

  // ---------------------------------------------------------------- skip to the explorer
  // The theme's "Skip to main content" link is the first Tab stop. On a page
  // with an explorer a second link goes straight to it.
  function addExplorerSkipLink() {
    const view = document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]');
    const skip = document.getElementById("pst-skip-link");
    if (!view || !skip) return;
    // The output, not the whole cell: the next Tab after the jump is the
    // explorer's first control, not the cell's "Show code cell source".
    const output = view.closest(".cell_output") || view.parentElement;
    if (!output.id) output.id = "explorer";
    output.setAttribute("tabindex", "-1"); // the link moves focus here
    const link = document.createElement("a");
    link.href = "#" + output.id;
    link.className = "skip-to-explorer";
    link.textContent = tr("Skip to the interactive explorer");
    skip.append(" ", link);
  }

  // ---------------------------------------------------------------- figures on a phone
  // A figure narrower than its picture (every figure on a 375 px phone) shrinks its labels
  // below a readable size. Its "Enlarge figure" button (or a tap on the figure) shows the
  // picture at its own size in a dialog that scrolls: labels as drawn (>= 11 px), Escape or
  // "Close" closes it, and focus goes back to the button.
  const FIGURE_ZOOM = 1.25;
  let zoomDialog = null;
  let zoomOpener = null;

  function figureDialog() {
    if (zoomDialog) return zoomDialog;
    zoomDialog = document.createElement("dialog");
    zoomDialog.className = "figure-zoom";
    zoomDialog.setAttribute("aria-label", tr("Figure at full size"));
    const bar = document.createElement("div");
    bar.className = "figure-zoom-bar";
    const hint = document.createElement("span");
    hint.textContent = tr("Scroll to see all of it.");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "figure-zoom-close";
    close.textContent = tr("Close");
    close.addEventListener("click", () => zoomDialog.close());
    bar.append(hint, close);
    const view = document.createElement("div");
    view.className = "figure-zoom-view";
    view.tabIndex = 0; // arrow keys scroll it
    view.setAttribute("role", "group");
    view.setAttribute("aria-label", tr("The figure at full size; it scrolls"));
    zoomDialog.append(bar, view);
    zoomDialog.addEventListener("click", (e) => { if (e.target === zoomDialog) zoomDialog.close(); }); // the backdrop
    // Escape closes it whatever has focus inside (Chromium's own Escape can need a second press).
    zoomDialog.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        zoomDialog.close();
      }
    });
    zoomDialog.addEventListener("close", () => {
      view.replaceChildren();
      if (zoomOpener) zoomOpener.focus();
    });
    document.body.append(zoomDialog);
    return zoomDialog;
  }

  // The width a figure is drawn for (its style's, from the notebook output's metadata: the
  // picture has twice as many pixels, for sharpness), else the picture's own.
  function drawnWidth(img) {
    return parseFloat(img.style.width) || img.naturalWidth;
  }

  function openFigure(img, opener) {
    const dialog = figureDialog();
    const copy = document.createElement("img");
    copy.src = img.currentSrc || img.src;
    copy.alt = img.alt;
    // A quarter larger than drawn: the figures' smallest labels (7 pt at 110 CSS px per inch, 10.7 px) reach 13 px.
    copy.style.width = Math.round(drawnWidth(img) * FIGURE_ZOOM) + "px";
    copy.style.maxWidth = "none";
    dialog.querySelector(".figure-zoom-view").replaceChildren(copy);
    zoomOpener = opener;
    dialog.showModal();
    dialog.querySelector(".figure-zoom-close").focus();
  }

  function figureButtons() {
    document.querySelectorAll(".bd-content .cell_output img, .bd-content figure img").forEach((img) => {
      // not an explorer's still picture (for print and no-JavaScript readers; hidden while the explorer runs)
      const output = img.closest(".cell_output");
      if (img.closest(".ase-explorer") || (output && output.querySelector(".ase-explorer, script[type='application/vnd.jupyter.widget-view+json']"))) {
        img.dataset.zoom = "explorer";
        return;
      }
      if (img.dataset.zoom) return;
      img.dataset.zoom = "1";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "figure-zoom-button";
      button.textContent = tr("Enlarge figure");
      button.setAttribute("aria-label", img.alt ? tr("Enlarge figure: {alt}", { alt: img.alt }) : tr("Enlarge figure"));
      button.hidden = true;
      button.addEventListener("click", () => openFigure(img, button));
      img.addEventListener("click", () => { if (!button.hidden) openFigure(img, button); });
      img.after(button);
      const update = () => {
        const shown = img.getBoundingClientRect().width;
        const shrunk = img.naturalWidth > 0 && shown > 0 && shown < drawnWidth(img) - 1; // not when hidden
        button.hidden = !shrunk;
        img.classList.toggle("figure-zoomable", shrunk);
      };
      if (img.complete) update();
      else img.addEventListener("load", update);
      new ResizeObserver(update).observe(img);
    });
  }

  // ---------------------------------------------------------------- wide display maths
  // MathJax 3 does not break lines: an equation wider than a phone's column scrolls in its
  // box. Mark those (a shadow shows there is more) and let the keyboard scroll them.
  function markWideMaths() {
    // An inline formula longer than a line (chapter 1's ‖x_i − x_j‖² = … on a phone) cannot
    // wrap either: it becomes a box of the column's width that scrolls.
    document.querySelectorAll('mjx-container:not([display="true"])').forEach((m) => {
      m.classList.remove("math-scrolls-inline");
      const column = m.closest("p, li, td, th, dd, div");
      if (column && m.getBoundingClientRect().width > column.getBoundingClientRect().width + 1) {
        m.classList.add("math-scrolls-inline");
      }
    });
    document.querySelectorAll('mjx-container[display="true"], mjx-container.math-scrolls-inline').forEach((m) => {
      const wide = m.scrollWidth > m.clientWidth + 1;
      m.classList.toggle("math-scrolls", wide);
      // Only a box that scrolls is a Tab stop (formulas are not): keyboard users can scroll it.
      if (wide && !("scrollFocus" in m.dataset)) {
        m.dataset.scrollFocus = m.getAttribute("tabindex") || "";
        m.tabIndex = 0;
      } else if (!wide && "scrollFocus" in m.dataset) {
        if (m.dataset.scrollFocus) m.setAttribute("tabindex", m.dataset.scrollFocus);
        else m.removeAttribute("tabindex");
        delete m.dataset.scrollFocus;
      }
    });
  }
  function watchWideMaths() {
    const start = () => { markWideMaths(); window.addEventListener("resize", markWideMaths); };
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(start);
    else window.addEventListener("load", () => (window.MathJax && MathJax.startup && MathJax.startup.promise
      ? MathJax.startup.promise.then(start) : start()));
  }

  // ---------------------------------------------------------------- the language switch
  // The switch is a plain link to the same page in the other edition (it works without
  // JavaScript); with it, the link also keeps the reader's place: the section being read (both
  // editions give a section the same id) and a search's query (search.html?q=...).
  function readingSection() {
    let id = "";
    // document order: a section before its subsections, so the last one above the line is the deepest
    for (const section of document.querySelectorAll("main section[id]")) {
      if (section.getBoundingClientRect().top > 96) break;
      id = section.id;
    }
    return id;
  }
  function keepPlaceOnSwitch() {
    // Kept as the page scrolls: focusing the switch in the sticky header scrolls the page (by the
    // theme's scroll-padding) before the focus event, and the scroll event comes after it, so on
    // focus `reading` is still the section the reader was reading.
    let reading = readingSection();
    let pending = false;
    window.addEventListener("scroll", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { reading = readingSection(); pending = false; });
    }, { passive: true });
    document.querySelectorAll("a.lang-switch__link").forEach((link) => {
      const base = link.getAttribute("href").split("#")[0].split("?")[0];
      const aim = (section) => {
        link.setAttribute("href", base + location.search + (section ? "#" + section : location.hash));
      };
      link.addEventListener("pointerdown", () => aim(readingSection()));
      link.addEventListener("focus", () => aim(reading));
    });
  }

  function ready() {
    keepPlaceOnSwitch();
    watchWideMaths();
    fixThemeButtons();
    addExplorerSkipLink();
    figureButtons();
    // Font Awesome swaps each <i> for an <svg> with a <title> of its own when it
    // gets round to it, sometimes after "load": fix the buttons again after every swap.
    document.querySelectorAll(".theme-switch-button").forEach((button) =>
      new MutationObserver(fixThemeButtons).observe(button, { childList: true, subtree: true }));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  window.addEventListener("load", fixThemeButtons); // after Font Awesome has swapped its icons
})();
