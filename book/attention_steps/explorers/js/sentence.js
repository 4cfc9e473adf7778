// attention-explorer: sentence  (the browser tests find this explorer's page by this line)
// The sentence builder (chapter 13). Traits: data (every sentence of the corpus as each model
// reads it, from attention_steps.explorers.data.sentence_states), animal, place, adjective, model.

function render({ model, el }) {
  const data = model.get("data");
  const root = explorerRoot("sentence", "ase-sentence");
  const nP = data.places.length, nJ = data.adjectives.length;
  const indexOf = (a, p, j) => (data.animals.indexOf(a) * nP + data.places.indexOf(p)) * nJ + data.adjectives.indexOf(j);
  const chosen = () => ({ animal: model.get("animal"), place: model.get("place"), adjective: model.get("adjective") });
  const HELD = t(data, "(held out)");

  // Three native selects, each with its label; an option is marked "(held out)" when, with the
  // other two choices, it makes a sentence the model never saw in training.
  const slots = [
    { key: "animal", list: data.animals, label: t(data, "Animal") },
    { key: "place", list: data.places, label: t(data, "Place") },
    { key: "adjective", list: data.adjectives, label: t(data, "Adjective") },
  ];
  const selects = {};
  const controls = slots.map((s) => {
    const id = uniqueId(s.key);
    const select = h("select", { id, "data-control": s.key });
    const option = (w) => h("option", { value: w, text: w });
    if (s.key === "adjective") {
      for (const [kind, label] of [["animal", t(data, "fits an animal")], ["place", t(data, "fits a place")]])
        select.append(h("optgroup", { label }, data.adjectives.filter((_, j) => data.kinds[j] === kind).map(option)));
    } else select.append(...s.list.map(option));
    select.addEventListener("change", () => { model.set(s.key, select.value); model.save_changes(); });
    selects[s.key] = select;
    return h("div", { class: "ase-select" }, [h("label", { for: id, text: s.label }), select]);
  });
  const models = data.models.map((m) => ({ key: m.name, label: t(data, m.name) }));
  const switcher = radioGroup({
    name: "model", legendText: t(data, "Model"), options: models, value: model.get("model"),
    onChange: (key) => { model.set("model", key); model.save_changes(); },
  });
  const legendNote = h("p", { class: "ase-key", text: t(data, "{held}: with the other two choices, a sentence the model never saw in training.", { held: HELD }) });
  const sentence = h("p", { class: "ase-said", "aria-live": "polite" });
  const status = h("p", { class: "ase-key ase-status" });
  const numbers = numbersBlock();
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: t(data, "The model's answer") }), numbers.root]);
  const panels = h("div", { class: "ase-panels" });
  root.append(
    h("div", { class: "ase-controls" }, [...controls, switcher.root]),
    legendNote, sentence, status, panels
  );
  el.append(root);

  const modelOf = (name) => data.models.find((m) => m.name === name);
  const wordsOf = (c) => data.words.map((w) => (w === "{animal}" ? c.animal : w === "{place}" ? c.place : w === "{adjective}" ? c.adjective : w));
  const answerWord = (m, value, words) => (m.answers === "pointer" ? words[value] : (m.answers === "pronoun" ? data.labels : data.nouns)[value]);
  const rowName = (row) => row.pointing
    ? t(data, "layer {layer}, pointing: its answer", { layer: row.layer })
    : t(data, "layer {layer}, head {head}", { layer: row.layer, head: row.head });
  const inPairs = (pairs, a, b) => pairs.some(([x, y]) => x === a && y === b);

  // The panels of one model: one per layer and head, built again when the model changes.
  let built = null;
  const cache = drawingCache();
  function panelsOf(name) {
    if (built && built.name === name) return built;
    const m = modelOf(name);
    const list = m.rows.map((row) => panel(esc(rowName(row))));
    panels.replaceChildren(numbersPanel, ...list.map((p) => p.root));
    built = { name, list };
    return built;
  }
  const barsOf = (m, k, r, words) => {
    const w = m.A_it[k][r], top = w.indexOf(Math.max(...w));
    return barsSvg({
      values: w, labels: words, highlight: top, height: 180,
      label: t(data, "{row}: the weights “it” gives each word: {weights}", {
        row: rowName(m.rows[r]), weights: listOf(data, words.map((x, j) => `${x} ${fmt(w[j], 2)}`)),
      }),
    });
  };

  function redraw() {
    const c = chosen(), name = model.get("model"), m = modelOf(name);
    const k = indexOf(c.animal, c.place, c.adjective), words = wordsOf(c), held = Boolean(data.held_out[k]);
    root.dataset.sentence = words.join(" ");
    root.dataset.model = name;
    root.dataset.heldOut = String(held);
    switcher.show(name);
    // Each select shows the choice, and marks the options that would make a held-out sentence.
    for (const s of slots) {
      const select = selects[s.key];
      if (select.value !== c[s.key]) select.value = c[s.key];
      for (const o of select.querySelectorAll("option")) {
        const other = { ...c, [s.key]: o.value };
        const text = data.held_out[indexOf(other.animal, other.place, other.adjective)] ? t(data, "{word} (held out)", { word: o.value }) : o.value;
        if (o.textContent !== text) o.textContent = text;
      }
    }
    const referent = data.referents[k];
    sentence.innerHTML = words.map((w, j) => j === data.it ? `<em>${esc(w)}</em>` : j === referent ? `<strong>${esc(w)}</strong>` : esc(w)).join(" ");
    const why = [];
    if (inPairs(data.noun_pairs, c.animal, c.place))
      why.push(t(data, "the {animal} and the {place} never meet in training", { animal: c.animal, place: c.place }));
    if (inPairs(data.referent_adjectives, words[referent], c.adjective))
      why.push(t(data, "the {noun} is never “{adjective}” in training", { noun: words[referent], adjective: c.adjective }));
    status.textContent = held
      ? t(data, "Held out, never seen in training: {why}.", { why: clausesOf(data, why) })
      : t(data, "A training sentence: the model has seen it.");
    const answer = answerWord(m, m.answer[k], words), expected = answerWord(m, m.expected[k], words);
    const right = m.answer[k] === m.expected[k];
    numbers.show([
      { key: "referent", label: t(data, "“it” refers to"), value: words[referent], text: `“${words[referent]}”` },
      { key: "expected", label: t(data, "the right answer"), value: expected, text: `“${expected}”` },
      { key: "answer", label: t(data, "the model answers"), value: answer, text: `“${answer}”` },
      { key: "right", label: t(data, "right?"), value: String(right), text: right ? t(data, "right") : t(data, "wrong") },
    ]);
    const { list } = panelsOf(name);
    list.forEach((p, r) => showDrawing(p.drawing, cache(`${name} ${k} ${r}`, () => barsOf(m, k, r, words))));
  }

  redraw();
  return listen(model, ["animal", "place", "adjective", "model"], redraw);
}

export default { render };
