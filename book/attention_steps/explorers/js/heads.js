// attention-explorer: heads  (the browser tests find this explorer's page by this line)
// Heads (chapter 6). Traits: data (every state, from
// attention_steps.explorers.data.heads_states), h_index.

function render({ model, el }) {
  const data = model.get("data");
  const tokens = data.tokens;
  const root = explorerRoot("heads", "ase-heads-explorer");
  const slider = rangeControl({
    name: "h",
    labelHtml: t(data, "Number of heads <i>h</i> (d<sub>model</sub> = {d_model})", { d_model: data.d_model }),
    count: data.head_counts.length,
    index: model.get("h_index"),
    valueText: (i) => `h = ${data.head_counts[i]}`,
    onChange: (i) => { model.set("h_index", i); model.save_changes(); },
  });
  const numbers = numbersBlock();
  const grids = h("div", { class: "ase-heads-states" });
  const key = h("p", { class: "ase-key" });
  root.append(h("div", { class: "ase-controls" }, [slider.root]), numbers.root, key, grids);
  el.append(root);

  key.textContent = t(data, "Rows: queries; columns: keys; both in sentence order ({tokens}). Lighter cells carry more weight; each row sums to 1.", {
    tokens: listOf(data, tokens),
  });
  // One grid of maps per number of heads, built once (in idle time, or on first use)
  // and kept in the page, laid out, all in the same place and invisible but the
  // current one (explorers.css): a change hides one grid and shows another, no layout.
  const built = new Map();
  const gridOf = (i) => {
    if (built.has(i)) return built.get(i);
    const st = data.states[i];
    // Fewer heads, bigger maps; from 8 heads on they are thumbnails without token labels.
    const thumbnails = st.h >= 8;
    const grid = h("div", { class: "ase-heads", "data-h": st.h });
    grid.style.setProperty("--ase-cell", st.h <= 1 ? "260px" : st.h <= 4 ? "170px" : "90px");
    grid.innerHTML = st.maps.map((m, r) =>
      `<figure class="ase-head" data-head="${r + 1}"><figcaption>${t(data, "head {n} · d<sub>k</sub> = {d_k}", { n: r + 1, d_k: st.d_k })}</figcaption><div class="ase-drawing">` +
      heatmapSvg({
        matrix: m, rows: tokens, cols: tokens, palette: data.palette, annotate: st.h <= 4, tokenLabels: !thumbnails,
        label: t(data, "Head {n} of {h}: attention weights of {tokens} tokens over {tokens} tokens; each token's largest weight: {weights}", {
          n: r + 1, h: st.h, tokens: tokens.length,
          weights: listOf(data, m.map((row, q) => `${tokens[q]} → ${tokens[row.indexOf(Math.max(...row))]} ${fmt(Math.max(...row), 2)}`)),
        }),
      }) + "</div></figure>").join("");
    grids.append(grid);
    built.set(i, grid);
    return grid;
  };

  let shown = null;
  function redraw() {
    const i = model.get("h_index"), st = data.states[i];
    root.dataset.h = st.h;
    slider.show(i);
    const grid = gridOf(i);
    if (grid !== shown) {
      if (shown) shown.classList.remove("ase-current");
      grid.classList.add("ase-current");
      shown = grid;
    }
    numbers.show([
      { key: "h", label: t(data, "heads <i>h</i>"), value: st.h, text: String(st.h) },
      { key: "d_k", label: t(data, "each head's d<sub>k</sub> = d<sub>model</sub> / h"), value: st.d_k, text: `${data.d_model} / ${st.h} = ${st.d_k}` },
    ]);
  }

  redraw();
  const i0 = model.get("h_index");
  warm(data.states.map((_, i) => i).sort((a, b) => Math.abs(a - i0) - Math.abs(b - i0)).map((i) => () => gridOf(i)));
  return listen(model, ["h_index"], redraw);
}

export default { render };
