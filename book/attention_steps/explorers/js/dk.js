// attention-explorer: dk  (the browser tests find this explorer's page by this line)
// d_k and softmax saturation (chapter 3). Traits: data (every state, from
// attention_steps.explorers.data.dk_states), d_k_index, strategy.

/** A gradient size: 3 decimals, or 2 significant figures in e-notation below 0.001 (a
 * saturated softmax passes back 1e-6 and less, which 3 decimals would show as 0). */
function fmtGradient(x) {
  return x >= 0.001 || x === 0 ? fmt(x) : Number(x).toExponential(1).replaceAll("-", "−");
}

function render({ model, el }) {
  const data = model.get("data");
  const STYLE = data.strategy_styles; // {strategy: {colour (a name), dash}}: attention_steps.palette.STRATEGY_STYLES
  const root = explorerRoot("dk", "ase-dk");
  // The strategies' names are data (attention_steps.scaling.STRATEGIES), shown in the page's language.
  const strategies = data.strategies.map((o) => ({ ...o, label: t(data, o.label) }));
  const labelOf = (s) => strategies.find((o) => o.key === s).label;
  const outside = {
    below: (percent) => t(data, "◀ {percent}% below", { percent }),
    above: (percent) => t(data, "{percent}% above ▶", { percent }),
  };

  const slider = rangeControl({
    name: "d_k",
    labelHtml: t(data, "Key width d<sub>k</sub>"),
    count: data.d_k.length,
    index: model.get("d_k_index"),
    valueText: (i) => `d_k = ${data.d_k[i]}`,
    onChange: (i) => { model.set("d_k_index", i); model.save_changes(); },
  });
  const strategy = radioGroup({
    name: "strategy",
    legendText: t(data, "Divide q·k by"),
    options: strategies,
    value: model.get("strategy"),
    onChange: (key) => { model.set("strategy", key); model.save_changes(); },
  });
  const scores = panel(t(data, "Scores of all queries: raw q·k and scaled s"));
  const weights = panel(t(data, "One query's weights over its keys"));
  const curve = panel(t(data, "Largest weight (average over queries) against d<sub>k</sub>"));
  const numbers = numbersBlock();
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: t(data, "The numbers that matter") }), numbers.root]);
  const key = legend(strategies.map((s) => ({ label: s.label, colour: STYLE[s.key].colour, dash: STYLE[s.key].dash })));
  curve.root.append(key);

  root.append(
    h("div", { class: "ase-controls" }, [slider.root, strategy.root]),
    h("div", { class: "ase-panels" }, [scores.root, weights.root, numbersPanel, curve.root])
  );
  el.append(root);

  const cache = drawingCache();
  // The three drawings of state (i, s), as markup.
  const scoresSvg = (i, s) => {
    const d_k = data.d_k[i], raw = data.raw[i], st = data.states[s][i];
    const label = labelOf(s);
    return (
      svgOpen(320, 190, t(data, "Histograms at d_k = {d_k}: raw scores have standard deviation {raw_std}; after {strategy} the scores have standard deviation {std}, {percent}% of them outside ±{limit}.", {
        d_k, raw_std: fmt(raw.std, 2), strategy: label, std: fmt(st.std, 2),
        percent: fmt(100 * (st.hist.below + st.hist.above), 0), limit: short(st.hist.limit),
      })) +
      histRows(raw, { x0: 8, width: 304, top: 18, height: 52, colour: "sky", outside,
        title: t(data, "raw q·k  (std {std})", { std: fmt(raw.std, 2) }) }) +
      histRows(st.hist, { x0: 8, width: 304, top: 116, height: 52, colour: STYLE[s].colour, outside,
        title: t(data, "scaled s, {strategy}  (std {std})", { strategy: label, std: fmt(st.std, 2) }) }) +
      "</svg>"
    );
  };
  const weightsSvg = (i, s) => {
    const d_k = data.d_k[i], st = data.states[s][i];
    const top = st.weights.indexOf(Math.max(...st.weights));
    return barsSvg({
      values: st.weights, labels: data.keys, highlight: top,
      label: t(data, "Weights of one query over {n} keys at d_k = {d_k}, {strategy}: {weights}", {
        n: data.n_keys, d_k, strategy: labelOf(s), weights: listOf(data, data.keys.map((k, j) => `${k} ${fmt(st.weights[j], 2)}`)),
      }),
    });
  };
  const curveSvg = (i, s) => {
    const d_k = data.d_k[i], st = data.states[s][i];
    const last = data.d_k[data.d_k.length - 1];
    const series = strategies.map((o) => ({
      label: o.label, colour: STYLE[o.key].colour, dash: STYLE[o.key].dash, current: o.key === s,
      values: data.states[o.key].map((x) => x.mean_max_weight),
    }));
    return linesSvg({
      xLabels: data.d_k.map(String), series, marker: { series: strategies.findIndex((o) => o.key === s), index: i },
      xTitle: "d_k", yTitle: t(data, "largest weight"),
      floor: { value: 1 / data.n_keys, label: t(data, "uniform 1/{n}", { n: data.n_keys }) },
      label: t(data, "Average largest weight against d_k: {series}. Marked: {strategy} at d_k = {d_k}, {value}.", {
        series: clausesOf(data, series.map((x) => t(data, "{strategy}: {first} at d_k = {d_k_first} to {last} at d_k = {d_k_last}", {
          strategy: x.label, first: fmt(x.values[0], 2), d_k_first: data.d_k[0], last: fmt(x.values[x.values.length - 1], 2), d_k_last: last,
        }))),
        strategy: labelOf(s), d_k, value: fmt(st.mean_max_weight, 2),
      }),
    });
  };
  const draw = (i, s) => [
    [scores.drawing, cache(`scores ${i} ${s}`, () => scoresSvg(i, s))],
    [weights.drawing, cache(`weights ${i} ${s}`, () => weightsSvg(i, s))],
    [curve.drawing, cache(`curve ${i} ${s}`, () => curveSvg(i, s))],
  ];

  function redraw() {
    const i = model.get("d_k_index"), s = model.get("strategy");
    const d_k = data.d_k[i], st = data.states[s][i];
    const label = labelOf(s);
    root.dataset.dK = d_k;
    root.dataset.strategy = s;
    slider.show(i);
    strategy.show(s);
    for (const [container, node] of draw(i, s)) showDrawing(container, node);

    numbers.show([
      { key: "d_k", label: t(data, "d<sub>k</sub>, scaling"), value: d_k, text: t(data, "{d_k}, {strategy}", { d_k, strategy: label }) },
      { key: "max_weight", label: t(data, "largest weight (this query)"), value: st.max_weight, text: fmt(st.max_weight) },
      { key: "entropy", label: t(data, "entropy (uniform: {ln} nats)", { ln: fmt(data.ln_n, 2) }), value: st.entropy,
        text: t(data, "{value} nats", { value: fmt(st.entropy) }) },
      { key: "gradient", label: t(data, "gradient ‖∂a/∂(q·k)‖ (this query)"), value: st.gradient, text: fmtGradient(st.gradient) },
      { key: "mean_max_weight", label: t(data, "largest weight, average of {n} queries", { n: data.n_queries }),
        value: st.mean_max_weight, text: fmt(st.mean_max_weight) },
      { key: "median_gradient", label: t(data, "gradient ‖∂a/∂(q·k)‖, median of {n} queries", { n: data.n_queries }),
        value: st.median_gradient, text: fmtGradient(st.median_gradient) },
    ]);
  }

  redraw();
  // Every other state, in idle time: the current d_k's neighbours first.
  const i0 = model.get("d_k_index");
  const states = data.strategies.flatMap((o) => data.d_k.map((_, i) => [i, o.key]));
  states.sort((a, b) => Math.abs(a[0] - i0) - Math.abs(b[0] - i0));
  warm(states.map(([i, s]) => () => draw(i, s)));
  return listen(model, ["d_k_index", "strategy"], redraw);
}

export default { render };
