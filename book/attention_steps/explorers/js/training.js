// attention-explorer: training  (the browser tests find this explorer's page by this line)
// Learning to point (chapter 13). Traits: data (every checkpoint, from
// attention_steps.explorers.data.training_states), step_index.

/** 10 to a power, as printed: 10⁻⁶, 10⁰, 10¹. */
function powerOfTen(k) {
  const sup = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
  return "10" + String(k).split("").map((c) => sup[c]).join("");
}

/** A loss as printed: 3 significant figures, in e-notation below 0.01. */
function fmtLoss(x) {
  return (x >= 0.01 ? Number(x).toPrecision(3) : Number(x).toExponential(2)).replaceAll("-", "−");
}

function render({ model, el }) {
  const data = model.get("data");
  const root = explorerRoot("training", "ase-training");
  const total = data.total_steps;
  const slider = rangeControl({
    name: "step",
    labelHtml: t(data, "Training step"),
    count: data.steps.length,
    index: model.get("step_index"),
    valueText: (i) => t(data, "step {step} of {total}", { step: data.steps[i], total }),
    onChange: (i) => { model.set("step_index", i); model.save_changes(); },
  });
  const curve = panel(t(data, "Loss so far (log scale), marked at the step"), "ase-loss-panel");
  const pair = data.sentences.map((words) => panel(esc(t(data, "“… too {adjective}”: the weights “it” gives each word", { adjective: words[words.length - 1] }))));
  const numbers = numbersBlock();
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: t(data, "The numbers that matter") }), numbers.root]);
  const key = h("p", { class: "ase-key", text: t(data, "The bar in the accent colour is where “it” points: the model's answer. The referent's name is in bold.") });
  root.append(
    h("div", { class: "ase-controls" }, [slider.root]),
    h("div", { class: "ase-panels" }, [curve.root, numbersPanel, ...pair.map((p) => p.root)]),
    key
  );
  el.append(root);

  // The loss axis: whole powers of ten around every loss of the run.
  const logs = data.loss.filter((x) => x > 0).map(Math.log10);
  const lo = Math.floor(Math.min(...logs)), hi = Math.ceil(Math.max(...logs));
  const verdict = (r, answer) => (answer === data.referents[r] ? t(data, "right") : t(data, "wrong"));
  const pointsTo = (r, st) => data.sentences[r][st.answer[r]];

  const lossSvg = (i) => {
    const step = data.steps[i];
    const width = 320, height = 190, left = 62, right = 10, top = 12, bottom = 40;
    const plotW = width - left - right, plotH = height - top - bottom;
    const x = (s) => left + (plotW * (s - 1)) / Math.max(1, total - 1);
    const y = (v) => top + plotH * (hi - Math.log10(Math.max(v, 10 ** lo))) / Math.max(1, hi - lo);
    const label = step
      ? t(data, "The loss of the first {step} of {total} steps on a log scale, from {first} at step 1 to {now} at step {step}.", {
          step, total, first: fmtLoss(data.loss[0]), now: fmtLoss(data.loss[step - 1]),
        })
      : t(data, "Before training: no step taken yet, no loss measured.");
    let out = svgOpen(width, height, label);
    const every = Math.max(1, Math.ceil((hi - lo) / 4));
    for (let k = hi; k >= lo; k -= every) {
      out += `<line x1="${left}" x2="${width - right}" y1="${y(10 ** k).toFixed(2)}" y2="${y(10 ** k).toFixed(2)}" class="ase-grid"/>`;
      out += `<text x="${left - 4}" y="${(y(10 ** k) + 4).toFixed(2)}" text-anchor="end" class="ase-tick">${powerOfTen(k)}</text>`;
    }
    for (const s of [1, Math.round(total / 2), total]) {
      out += `<text x="${x(s).toFixed(2)}" y="${height - bottom + 16}" text-anchor="middle" class="ase-tick">${s}</text>`;
    }
    out += `<text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle" class="ase-label">${esc(t(data, "training step"))}</text>`;
    out += `<text x="12" y="${top + plotH / 2}" text-anchor="middle" class="ase-label" transform="rotate(-90 12 ${top + plotH / 2})">${esc(t(data, "loss"))}</text>`;
    // The curve so far; one path and one marker in every state (a change of step rewrites attributes).
    const d = data.loss.slice(0, Math.max(step, 1)).map((v, k) => `${k ? "L" : "M"}${x(k + 1).toFixed(2)} ${y(v).toFixed(2)}`).join("");
    out += `<path d="${d}" fill="none" class="ase-stroke-blue ase-loss" stroke-width="2" stroke-opacity="${step ? 1 : 0}"/>`;
    const mx = x(Math.max(step, 1)), my = y(data.loss[Math.max(step, 1) - 1]);
    out += `<circle cx="${mx.toFixed(2)}" cy="${my.toFixed(2)}" r="6" fill="none" stroke="currentColor" stroke-width="2" class="ase-marker" opacity="${step ? 1 : 0}"/>`;
    return out + "</svg>";
  };
  const barsOf = (i, r) => {
    const st = data.states[i], words = data.sentences[r], w = st.weights[r];
    return barsSvg({
      values: w, labels: words, highlight: st.answer[r], height: 180,
      label: t(data, "Step {step}, “… too {adjective}”: “it” points to “{word}” ({verdict}); its weights: {weights}", {
        step: st.step, adjective: words[words.length - 1], word: pointsTo(r, st), verdict: verdict(r, st.answer[r]),
        weights: listOf(data, words.map((k, j) => `${k} ${fmt(w[j], 2)}`)),
      }),
    });
  };
  const cache = drawingCache();
  const draw = (i) => [
    [curve.drawing, cache(`loss ${i}`, () => lossSvg(i))],
    ...pair.map((p, r) => [p.drawing, cache(`bars ${i} ${r}`, () => boldReferent(barsOf(i, r), r))]),
  ];
  /** The referent's name under its bar in bold (the labels are the drawing's last texts, in word order). */
  function boldReferent(markup, r) {
    const n = data.sentences[r].length;
    let k = 0;
    return markup.replace(/<text ([^>]*class="ase-tick"[^>]*)>/g, (whole, attrs) => {
      k += 1;
      // the first three ticks are the y axis (0, 0.5, 1); then the n word labels
      const word = k - 4;
      return word === data.referents[r] && word < n ? `<text ${attrs} font-weight="700">` : whole;
    });
  }

  function redraw() {
    const i = model.get("step_index"), st = data.states[i], step = data.steps[i];
    root.dataset.step = step;
    slider.show(i);
    for (const [container, node] of draw(i)) showDrawing(container, node);
    numbers.show([
      { key: "step", label: t(data, "training step"), value: step, text: t(data, "{step} of {total}", { step, total }) },
      {
        key: "loss", label: t(data, "loss of the last step"), value: step ? data.loss[step - 1] : "",
        text: step ? fmtLoss(data.loss[step - 1]) : t(data, "none yet"),
      },
      ...data.sentences.map((words, r) => ({
        key: `answer${r + 1}`,
        label: esc(t(data, "“… too {adjective}”: “it” points to", { adjective: words[words.length - 1] })),
        value: st.answer[r],
        text: t(data, "“{word}” {weight}, {verdict}", { word: pointsTo(r, st), weight: fmt(st.weights[r][st.answer[r]], 2), verdict: verdict(r, st.answer[r]) }),
      })),
    ]);
  }

  redraw();
  const i0 = model.get("step_index");
  warm(data.steps.map((_, i) => i).sort((a, b) => Math.abs(a - i0) - Math.abs(b - i0)).map((i) => () => draw(i)));
  return listen(model, ["step_index"], redraw);
}

export default { render };
