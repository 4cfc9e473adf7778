// attention-explorer: temperature  (the browser tests find this explorer's page by this line)
// Temperature (chapter 4). Traits: data (every state, from
// attention_steps.explorers.data.temperature_states), temperature_index.

function render({ model, el }) {
  const data = model.get("data");
  const T = data.temperatures;
  const root = explorerRoot("temperature", "ase-temperature");

  const slider = rangeControl({
    name: "temperature",
    labelHtml: t(data, "Temperature <i>T</i> (log steps)"),
    count: T.length,
    index: model.get("temperature_index"),
    valueText: (i) => `T = ${short(T[i])}`,
    onChange: (i) => { model.set("temperature_index", i); model.save_changes(); },
  });
  const weights = panel(t(data, "Weights softmax(s / <i>T</i>) for the scores s = ({scores})", {
    scores: data.scores.map((x) => short(Number(x.toPrecision(3)))).join(", "),
  }));
  const curve = panel(t(data, "As <i>T</i> grows: largest weight falls, entropy rises"));
  const numbers = numbersBlock();
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: t(data, "The numbers that matter") }), numbers.root]);
  const lines = [
    { label: t(data, "largest weight"), colour: "blue", dash: "" },
    { label: t(data, "entropy ÷ ln n (1 = uniform)"), colour: "orange", dash: "6 3" },
  ];
  curve.root.append(legend(lines));
  root.append(
    h("div", { class: "ase-controls" }, [slider.root]),
    h("div", { class: "ase-panels" }, [weights.root, numbersPanel, curve.root])
  );
  el.append(root);

  root.dataset.scores = JSON.stringify(data.scores);
  const cache = drawingCache();
  const weightsSvg = (i) => {
    const st = data.states[i], top = st.weights.indexOf(Math.max(...st.weights));
    return barsSvg({
      values: st.weights, labels: data.labels, highlight: top,
      label: t(data, "Weights at T = {T}: {weights}", {
        T: short(T[i]), weights: listOf(data, data.labels.map((k, j) => `${k} ${fmt(st.weights[j], 2)}`)),
      }),
    });
  };
  const curveSvg = (i) => {
    const series = [
      { ...lines[0], values: data.states.map((s) => s.max_weight), current: true },
      { ...lines[1], values: data.states.map((s) => s.entropy / data.ln_n) },
    ];
    return linesSvg({
      xLabels: T.map(short), series, marker: { series: 0, index: i }, xTitle: t(data, "temperature T (log scale)"), yTitle: "", tickEvery: 4,
      label: t(data, "Largest weight against temperature, from {first} at T = {T_first} to {last} at T = {T_last}; marked at T = {T}.", {
        first: fmt(series[0].values[0], 2), T_first: short(T[0]),
        last: fmt(series[0].values[T.length - 1], 2), T_last: short(T[T.length - 1]), T: short(T[i]),
      }),
    });
  };
  const draw = (i) => [
    [weights.drawing, cache(`weights ${i}`, () => weightsSvg(i))],
    [curve.drawing, cache(`curve ${i}`, () => curveSvg(i))],
  ];

  function redraw() {
    const i = model.get("temperature_index"), st = data.states[i];
    root.dataset.temperature = T[i];
    slider.show(i);
    for (const [container, node] of draw(i)) showDrawing(container, node);
    numbers.show([
      { key: "temperature", label: t(data, "temperature <i>T</i>"), value: T[i], text: short(T[i]) },
      { key: "max_weight", label: t(data, "largest weight"), value: st.max_weight, text: fmt(st.max_weight) },
      { key: "entropy", label: t(data, "entropy (uniform: {ln} nats)", { ln: fmt(data.ln_n, 2) }), value: st.entropy,
        text: t(data, "{value} nats", { value: fmt(st.entropy) }) },
      { key: "gradient", label: t(data, "gradient size ‖∂a/∂s‖ = ‖J‖ / <i>T</i>"), value: st.gradient, text: fmt(st.gradient) },
    ]);
  }

  redraw();
  const i0 = model.get("temperature_index");
  warm(T.map((_, i) => i).sort((a, b) => Math.abs(a - i0) - Math.abs(b - i0)).map((i) => () => draw(i)));
  return listen(model, ["temperature_index"], redraw);
}

export default { render };
