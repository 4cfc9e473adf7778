// Shared drawing helpers for the explorers. Prepended to each explorer's own
// module (anywidget loads one ES module per widget, so there are no imports).
//
// Nothing here computes a number that is shown: every value comes from the
// state the NumPy core computed in Python. These helpers only place it.

const SVG_NS = "http://www.w3.org/2000/svg";
let explorerCount = 0;

/** A page-unique id, so several explorers (or views of one) never share labels. */
function uniqueId(prefix) {
  explorerCount += 1;
  return `ase-${prefix}-${explorerCount}-${Math.random().toString(36).slice(2, 7)}`;
}

/** Create an HTML element: h("p", {class: "x"}, ["text", child]). */
function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "text") node.textContent = v;
    else if (k === "html") node.innerHTML = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of [].concat(children)) node.append(child);
  return node;
}

/** A label in the kernel's language if it is not English ($ATTENTION_LANG), else in the
 * page's (<html lang="zh-CN"> in the book's Chinese edition). attention_steps.i18n puts every
 * language's strings in data.i18n, so the one saved widget serves both editions.
 * A message with values names them, and the translation places them where its language
 * wants them: t(data, "entropy (uniform: {ln} nats)", {ln: fmt(data.ln_n, 2)}). The values
 * are put in as they are: escape one (esc) where the message is markup. */
function t(data, message, values) {
  const i18n = (data && data.i18n) || {};
  const kernel = i18n.lang || "en";
  const lang = kernel !== "en" ? kernel : (document.documentElement.lang || "en").replace("-", "_");
  const text = ((i18n.strings || {})[lang] || {})[message] || message;
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** Items of a list in a sentence, with the page language's separator: "a, b" or "a，b". */
function listOf(data, items) {
  return items.join(t(data, ", "));
}

/** Clauses of a sentence, with the page language's separator: "a; b" or "a；b". */
function clausesOf(data, items) {
  return items.join(t(data, "; "));
}

/** Escape text for SVG/HTML markup. */
function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** A number as printed: fixed decimals, with a true minus sign. */
function fmt(x, digits = 3) {
  return Number(x).toFixed(digits).replace("-", "−");
}

/** A short number: 64, 0.05, 1.5 (no trailing zeros). */
function short(x) {
  return String(Number(x)).replace("-", "−");
}

/** Opening tag of a scalable SVG drawing with an accessible name. */
function svgOpen(width, height, label) {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}" class="ase-svg">`;
}

/*
 * Colours: a mark is drawn in a palette colour by its name (attention_steps.palette.OKABE_ITO),
 * as the class ase-fill-<name> or ase-stroke-<name>; the stylesheet holds the values, and two of
 * them follow the page (darker on a light page). Only the heatmaps' cividis shades come as values.
 */

/**
 * Bars for weights in [0, ymax]: one per label, its value written above it.
 * `highlight` is an index drawn in the accent colour (or -1).
 */
function barsSvg({ values, labels, highlight = -1, ymax = 1, width = 320, height = 170, label }) {
  const left = 34, right = 6, top = 18, bottom = 38;
  const n = values.length, plotW = width - left - right, plotH = height - top - bottom;
  const slot = plotW / n, barW = Math.max(2, slot * 0.7);
  const y = (v) => top + plotH * (1 - Math.min(v, ymax) / ymax);
  const small = n > 10 || slot < 24;
  const rotateAll = slot < 40 && labels.some((t) => t.length > 3);
  let out = svgOpen(width, height, label);
  for (const t of [0, 0.5, 1]) {
    out += `<line x1="${left}" x2="${width - right}" y1="${y(t * ymax)}" y2="${y(t * ymax)}" class="ase-grid"/>`;
    out += `<text x="${left - 4}" y="${y(t * ymax) + 4}" text-anchor="end" class="ase-tick">${short(t * ymax)}</text>`;
  }
  // The bars are two paths (the highlighted one and the others) and the texts come after
  // them in a fixed order, so every state has the same elements and a change of state only
  // rewrites attributes and text (showDrawing).
  const w = barW.toFixed(2);
  let plain = "", accent = "", numbers = "", names = "";
  values.forEach((v, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    const bar = `M${x.toFixed(2)} ${y(v).toFixed(2)}h${w}v${(y(0) - y(v)).toFixed(2)}h-${w}z`;
    if (i === highlight) accent += bar;
    else plain += bar;
    if (!small || i === highlight)
      numbers += `<text x="${(x + barW / 2).toFixed(2)}" y="${(y(v) - 3).toFixed(2)}" text-anchor="middle" class="ase-value">${fmt(v, 2)}</text>`;
    const rotate = rotateAll; // all or none: a level label beside slanted ones collides with them
    const lx = x + barW / 2, ly = height - bottom + 15;
    names += `<text x="${lx.toFixed(2)}" y="${ly}" text-anchor="${rotate ? "end" : "middle"}" class="ase-tick"${
      rotate ? ` transform="rotate(-35 ${lx.toFixed(2)} ${ly})"` : ""
    }>${esc(labels[i])}</text>`;
  });
  out += `<path d="${plain || "M0 0"}" class="ase-bars ase-fill-blue"/>`;
  out += `<path d="${accent || "M0 0"}" class="ase-bars ase-fill-vermillion"/>`;
  return out + numbers + names + "</svg>";
}

/**
 * A histogram of fractions on [-limit, limit]; `below`/`above` are the
 * fractions outside the window, written at the edges by `outside.below(percent)` and
 * `outside.above(percent)` (the words in the page's language). `colour`: a palette colour's name.
 */
function histRows(hist, { x0, width, top, height, colour, title, outside }) {
  const n = hist.fractions.length, peak = Math.max(...hist.fractions, 1e-12), slot = width / n;
  let out = `<text x="${x0}" y="${top - 5}" class="ase-label">${esc(title)}</text>`;
  // All bars one path (a change of state rewrites one attribute, not one element per bar).
  const barW = Math.max(slot - 0.6, 0.5).toFixed(2);
  let d = "";
  hist.fractions.forEach((f, i) => {
    const bh = (height * f) / peak;
    if (bh > 0) d += `M${(x0 + i * slot).toFixed(2)} ${(top + height - bh).toFixed(2)}h${barW}v${bh.toFixed(2)}h-${barW}z`;
  });
  out += `<path d="${d || "M0 0"}" class="ase-bars ase-fill-${colour}"/>`;
  const base = top + height;
  out += `<line x1="${x0}" x2="${x0 + width}" y1="${base}" y2="${base}" class="ase-axis"/>`;
  for (const [t, anchor] of [[-hist.limit, "start"], [0, "middle"], [hist.limit, "end"]]) {
    const x = x0 + ((t + hist.limit) / (2 * hist.limit)) * width;
    out += `<line x1="${x}" x2="${x}" y1="${base}" y2="${base + 3}" class="ase-axis"/>`;
    out += `<text x="${x}" y="${base + 15}" text-anchor="${anchor}" class="ase-tick">${short(Number(t.toPrecision(3)))}</text>`;
  }
  for (const [f, side] of [[hist.below, "below"], [hist.above, "above"]]) {
    if (f < 0.005) continue; // under half a percent would print as 0%
    const x = side === "below" ? x0 : x0 + width;
    out += `<text x="${x}" y="${top + 10}" text-anchor="${side === "below" ? "start" : "end"}" class="ase-overflow">${esc(
      outside[side](fmt(100 * f, 0))
    )}</text>`;
  }
  return out;
}

/**
 * Lines over the slider's positions (x = index, evenly spaced) with y in [0, ymax],
 * and a ring on `marker = {series, index}`. A series: {values, colour (a palette name), dash, current}.
 */
function linesSvg({ xLabels, series, marker, ymax = 1, width = 320, height = 170, label, xTitle, yTitle, floor, tickEvery }) {
  const left = 42, right = 10, top = 12, bottom = 40;
  const plotW = width - left - right, plotH = height - top - bottom, n = xLabels.length;
  const x = (i) => left + (plotW * i) / (n - 1);
  const y = (v) => top + plotH * (1 - v / ymax);
  let out = svgOpen(width, height, label);
  for (const t of [0, 0.5, 1]) {
    out += `<line x1="${left}" x2="${width - right}" y1="${y(t * ymax)}" y2="${y(t * ymax)}" class="ase-grid"/>`;
    out += `<text x="${left - 4}" y="${y(t * ymax) + 4}" text-anchor="end" class="ase-tick">${short(t * ymax)}</text>`;
  }
  if (floor) {
    out += `<line x1="${left}" x2="${width - right}" y1="${y(floor.value)}" y2="${y(floor.value)}" class="ase-floor"/>`;
    out += `<text x="${left + 4}" y="${y(floor.value) - 3}" text-anchor="start" class="ase-tick">${esc(floor.label)}</text>`;
  }
  const every = tickEvery || Math.ceil((n - 1) / 5);
  xLabels.forEach((t, i) => {
    if (i % every) return;
    out += `<text x="${x(i)}" y="${height - bottom + 16}" text-anchor="middle" class="ase-tick">${esc(t)}</text>`;
  });
  out += `<text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle" class="ase-label">${esc(xTitle)}</text>`;
  out += `<text x="12" y="${top + plotH / 2}" text-anchor="middle" class="ase-label" transform="rotate(-90 12 ${top + plotH / 2})">${esc(yTitle)}</text>`;
  for (const s of series) {
    const d = s.values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(2)} ${y(v).toFixed(2)}`).join("");
    out += `<path d="${d}" fill="none" class="ase-stroke-${s.colour}" stroke-width="${s.current ? 3 : 2}" stroke-dasharray="${s.dash || ""}"/>`;
  }
  if (marker) {
    const s = series[marker.series];
    const mx = x(marker.index), my = y(s.values[marker.index]);
    out += `<circle cx="${mx.toFixed(2)}" cy="${my.toFixed(2)}" r="6" fill="none" stroke="currentColor" stroke-width="2" class="ase-marker"/>`;
    out += `<circle cx="${mx.toFixed(2)}" cy="${my.toFixed(2)}" r="3" class="ase-fill-${s.colour}"/>`;
  }
  return out + "</svg>";
}

/** A legend: a swatch (solid or dashed, in the palette colour named `colour`) and a name per series. */
function legend(series) {
  return h(
    "ul",
    { class: "ase-legend" },
    series.map((s) =>
      h("li", {}, [
        h("span", {
          class: "ase-swatch",
          html: `<svg viewBox="0 0 24 6" aria-hidden="true"><line x1="0" x2="24" y1="3" y2="3" class="ase-stroke-${s.colour}" stroke-width="3" stroke-dasharray="${s.dash || ""}"/></svg>`,
        }),
        s.label,
      ])
    )
  );
}

/**
 * A native range input over `count` positions with a visible label and value.
 * Arrow keys, Page Up/Down, Home and End work because the browser provides them.
 */
function rangeControl({ name, labelHtml, count, index, valueText, onChange }) {
  const id = uniqueId(name);
  const output = h("output", { for: id, class: "ase-value-out" });
  const input = h("input", { type: "range", id, min: 0, max: count - 1, step: 1, value: index, "data-control": name });
  const label = h("label", { for: id, html: labelHtml });
  const root = h("div", { class: "ase-range" }, [h("div", { class: "ase-range-head" }, [label, output]), input]);
  const show = (i) => {
    input.value = String(i);
    output.textContent = valueText(i);
    input.setAttribute("aria-valuetext", valueText(i));
  };
  input.addEventListener("input", () => onChange(Number(input.value)));
  show(index);
  return { root, input, show };
}

/** A group of native radio buttons (arrow keys move between them), styled as a switch. */
function radioGroup({ name, legendText, options, value, onChange }) {
  const group = uniqueId(name);
  const inputs = [];
  const items = options.map((o) => {
    const input = h("input", { type: "radio", name: group, value: o.key, "data-control": name });
    input.checked = o.key === value;
    input.addEventListener("change", () => input.checked && onChange(o.key));
    inputs.push(input);
    return h("label", { class: "ase-choice" }, [input, h("span", { text: o.label })]);
  });
  const root = h("fieldset", { class: "ase-switch" }, [h("legend", { text: legendText }), ...items]);
  const show = (v) => inputs.forEach((i) => (i.checked = i.value === v));
  return { root, show };
}

/**
 * The numbers that matter, as a definition list that is also an aria-live
 * region. Each value carries data-key and data-value (the number as received)
 * so tests can compare what is shown with the core.
 *
 * Each label and its value sit in their own row (a div, which HTML allows
 * around a dt/dd group), so they stay side by side even under a host's own
 * dl/dt/dd rules. The rows are built once; a redraw only changes the values
 * that changed.
 */
function numbersBlock() {
  const root = h("dl", { class: "ase-numbers", "aria-live": "polite", "aria-atomic": "true" });
  let labels = "", values = [];
  const show = (entries) => {
    const now = entries.map((e) => `${e.key}\u0000${e.label}`).join("\u0001");
    if (now !== labels) {
      labels = now;
      values = entries.map((e) => h("dd", { "data-key": e.key }));
      root.replaceChildren(...entries.map((e, k) => h("div", { class: "ase-row" }, [h("dt", { html: e.label }), values[k]])));
    }
    entries.forEach((e, k) => {
      const dd = values[k], value = String(e.value);
      if (dd.dataset.value !== value) dd.dataset.value = value;
      if (dd.textContent !== e.text) dd.textContent = e.text;
    });
  };
  return { root, show };
}

/**
 * Drawings by state, read once: `cache(key, markup)` parses the markup of a state the first
 * time it is asked for and keeps it as a snapshot (plain data: tag, attributes, text,
 * children; see `snapshot`), which showDrawing compares with the drawing on screen. `warm`
 * reads the other states in idle time, so even a first visit is cheap.
 */
function drawingCache() {
  const snapshots = new Map();
  const get = (key, markup) => {
    let shot = snapshots.get(key);
    if (!shot) {
      const t = document.createElement("template");
      t.innerHTML = markup();
      shot = snapshot(t.content.firstElementChild);
      snapshots.set(key, shot);
    }
    return shot;
  };
  return get;
}

/** A parsed node as plain data: {node, name, attrs: [name, value, name, value, …], kids}, a text
 * node as {name: "#text", text}. Comparing two states' snapshots reads nothing from the page. */
function snapshot(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return { name: "#text", text: node.nodeValue };
  const attrs = [];
  for (const a of node.attributes) attrs.push(a.name, a.value);
  const kids = [];
  for (let c = node.firstChild; c; c = c.nextSibling) kids.push(snapshot(c));
  return { node, name: node.nodeName, attrs, kids };
}

/** A new page node for a snapshot. */
function fresh(shot) {
  return shot.name === "#text" ? document.createTextNode(shot.text) : document.importNode(shot.node, true);
}

/** The value of attribute `name` in a snapshot's attribute list (null if it has none). */
function attrOf(attrs, name) {
  for (let k = 0; k < attrs.length; k += 2) if (attrs[k] === name) return attrs[k + 1];
  return null;
}

/**
 * Change the element `live`, which shows snapshot `from`, into snapshot `to` by writing only
 * what differs: the attributes and text of the elements they share, position by position; an
 * element of another kind is replaced, and elements are added or removed at the end. Nothing
 * is read from the page (the two snapshots are compared), and a change of state makes the
 * browser restyle, lay out and repaint only the bars, marks and labels that changed, not a
 * whole new drawing (docs/benchmarks.md).
 */
function patch(live, from, to) {
  const a = from.attrs, b = to.attrs;
  for (let k = 0; k < b.length; k += 2) {
    const old = a[k] === b[k] ? a[k + 1] : attrOf(a, b[k]);
    if (old !== b[k + 1]) live.setAttribute(b[k], b[k + 1]);
  }
  for (let k = 0; k < a.length; k += 2) if (a[k] !== b[k] && attrOf(b, a[k]) === null) live.removeAttribute(a[k]);
  const fk = from.kids, tk = to.kids;
  let l = live.firstChild;
  for (let k = 0; k < tk.length; k++) {
    const f = fk[k], t = tk[k];
    if (!f) live.append(fresh(t));
    else if (f.name !== t.name) {
      const node = fresh(t);
      live.replaceChild(node, l);
      l = node.nextSibling;
    } else {
      if (t.name === "#text") {
        if (f.text !== t.text) l.nodeValue = t.text;
      } else patch(l, f, t);
      l = l.nextSibling;
    }
  }
  while (l) {
    const next = l.nextSibling;
    l.remove();
    l = next;
  }
}

/** Show the drawing `shot` (a snapshot from a drawingCache) in `container`: the first time a
 * copy of it, after that by patching the drawing already there. */
const shownDrawings = new WeakMap(); // container -> the snapshot its drawing shows

function showDrawing(container, shot) {
  const shown = shownDrawings.get(container);
  if (shown === shot) return;
  if (!shown) container.replaceChildren(fresh(shot));
  else patch(container.firstChild, shown, shot);
  shownDrawings.set(container, shot);
}

/** Run `tasks` (functions) one by one when the page is idle. */
function warm(tasks) {
  let k = 0;
  const later = window.requestIdleCallback
    ? (f) => window.requestIdleCallback(f, { timeout: 2000 })
    : (f) => setTimeout(() => f({ timeRemaining: () => 8 }), 50);
  const step = (deadline) => {
    while (k < tasks.length && deadline.timeRemaining() > 2) tasks[k++]();
    if (k < tasks.length) later(step);
  };
  later(step);
}

/**
 * The explorer's outer element. Keys pressed on its controls stay in it: in
 * JupyterLab (4.6) notebook command mode otherwise takes them from a focused
 * slider or button (the arrows move to another cell, Enter edits a cell, A/B/D
 * insert or delete cells). Tried in JupyterLab 4.6.6, `data-lm-suppress-shortcuts`
 * on an ancestor did not keep the arrows (and would mute Shift+Enter too), so
 * the explorer stops the keydown from bubbling up to the notebook. Keys with Ctrl,
 * Alt or Meta, Shift+Enter (run the cell), Escape and Tab still reach it.
 */
function explorerRoot(kind, extraClass) {
  const root = h("div", { class: `ase-explorer ${extraClass}`, "data-explorer": kind });
  root.addEventListener("keydown", (e) => {
    const control = e.target instanceof Element && e.target.closest("input, button, select, textarea, [tabindex]");
    if (!control || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === "Tab" || e.key === "Escape" || (e.shiftKey && e.key === "Enter")) return;
    e.stopPropagation();
  });
  return root;
}

/** A panel: a figure with a caption above its drawing. */
function panel(caption, extraClass = "") {
  const drawing = h("div", { class: "ase-drawing" });
  const root = h("figure", { class: `ase-panel ${extraClass}` }, [h("figcaption", { html: caption }), drawing]);
  return { root, drawing };
}

/** Colour for a weight in [0, 1] from the palette the core sent (cividis). */
function shade(palette, w) {
  const i = Math.max(0, Math.min(palette.length - 1, Math.round(w * (palette.length - 1))));
  return palette[i];
}

/** Black or white text, whichever has the higher contrast on that palette entry (one of them is always ≥ 4.5:1). */
function inkOn(palette, w) {
  const hex = shade(palette, w).replace("#", "");
  const lin = (i) => { const v = parseInt(hex.slice(i, i + 2), 16) / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "black" : "white";
}

/** Subscribe to model changes and return the matching unsubscribe for anywidget's cleanup. */
function listen(model, names, callback) {
  for (const n of names) model.on(`change:${n}`, callback);
  return () => names.forEach((n) => model.off(`change:${n}`, callback));
}

/**
 * A weights matrix as coloured cells (rows: queries, columns: keys), labelled by token.
 * The cells of one colour are one path (a map has at most as many paths as colours,
 * and no node per cell), so a change of drawing costs the browser few nodes to style
 * and paint. Each cell's number, when written, follows the path of its colour.
 * The weights are in the drawing's accessible name (`label`), not in per-cell tooltips.
 */
function heatmapSvg({ matrix, rows, cols, palette, annotate = false, label, cell = 24, tokenLabels = true }) {
  const left = tokenLabels ? 8 + 7.4 * Math.max(...rows.map((t) => t.length)) : 2;
  const top = tokenLabels ? 8 + 6.2 * Math.max(...cols.map((t) => t.length)) : 2;
  const width = left + cell * cols.length + 4, height = top + cell * rows.length + 4;
  let out = svgOpen(width, height, label);
  if (tokenLabels) rows.forEach((t, i) => {
    out += `<text x="${left - 4}" y="${top + cell * i + cell / 2 + 4}" text-anchor="end" class="ase-tick">${esc(t)}</text>`;
  });
  if (tokenLabels) cols.forEach((t, j) => {
    const x = left + cell * j + cell / 2, y = top - 4;
    out += `<text x="${x}" y="${y}" text-anchor="start" class="ase-tick" transform="rotate(-60 ${x} ${y})">${esc(t)}</text>`;
  });
  const bands = new Map(); // colour -> {d, numbers}
  matrix.forEach((row, i) =>
    row.forEach((w, j) => {
      const colour = shade(palette, w);
      if (!bands.has(colour)) bands.set(colour, { d: "", numbers: "" });
      const band = bands.get(colour);
      band.d += `M${left + cell * j} ${top + cell * i}h${cell}v${cell}h-${cell}z`;
      if (annotate)
        band.numbers += `<text x="${left + cell * j + cell / 2}" y="${top + cell * i + cell / 2 + 3.5}" text-anchor="middle" class="ase-cell" style="fill:${inkOn(palette, w)}">${fmt(w, 2).replace(/^0/, "")}</text>`;
    })
  );
  for (const [colour, band] of bands) out += `<path d="${band.d}" fill="${colour}" class="ase-cells"/>${band.numbers}`;
  return out + "</svg>";
}
