// attention-explorer: who-attends  (the browser tests find this explorer's page by this line)
// Who attends to whom (chapter 8). Traits: data (every head's weights, from
// attention.explorers.data.who_attends_states), token (the chosen query).

function render({ model, el }) {
  const data = model.get("data");
  const c = data.colours, tokens = data.tokens;
  const root = h("div", { class: "ase-explorer ase-who", "data-explorer": "who-attends" });
  const groupId = uniqueId("tokens");

  // One native button per token. Arrow keys, Home and End move the choice
  // (a roving tabindex keeps the group a single Tab stop); click works too.
  const choose = (i, focus) => {
    model.set("token", i);
    model.save_changes();
    if (focus) buttons[i].focus();
  };
  const buttons = tokens.map((t, i) => {
    const b = h("button", { type: "button", class: "ase-token", "data-control": "token", "data-index": i, text: t });
    b.addEventListener("click", () => choose(i, false));
    b.addEventListener("keydown", (e) => {
      const n = tokens.length, current = model.get("token");
      const next = { ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1, ArrowUp: current - 1, Home: 0, End: n - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      choose((next + n) % n, true);
    });
    return b;
  });
  const picker = h("div", { class: "ase-tokens", role: "group", "aria-labelledby": groupId }, [
    h("p", { id: groupId, class: "ase-picker-label", html: "Choose the query token (arrow keys or click):" }),
    ...buttons,
  ]);
  const numbers = numbersBlock();
  const heads = data.A.map((_, r) => panel(esc(data.head_names[r])));
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: "Where each head looks most" }), numbers.root]);
  root.append(picker, h("div", { class: "ase-panels" }, [...heads.map((p) => p.root), numbersPanel]));
  el.append(root);

  function redraw() {
    const q = model.get("token");
    root.dataset.token = tokens[q];
    buttons.forEach((b, i) => {
      b.setAttribute("aria-pressed", String(i === q));
      b.tabIndex = i === q ? 0 : -1;
    });
    const tops = data.A.map((A) => A[q].indexOf(Math.max(...A[q])));
    heads.forEach((p, r) => {
      const w = data.A[r][q];
      p.drawing.innerHTML = barsSvg({
        values: w, labels: tokens, colours: c, highlight: tops[r], height: 180,
        label: `${data.head_names[r]}: weights of “${tokens[q]}” over the sentence: ` + tokens.map((t, j) => `${t} ${fmt(w[j], 2)}`).join(", "),
      });
    });
    numbers.show([
      { key: "token", label: "query token", value: tokens[q], text: `“${tokens[q]}”` },
      ...data.A.map((A, r) => ({
        key: `head${r + 1}`, label: esc(data.head_names[r]), value: A[q][tops[r]],
        text: `“${tokens[tops[r]]}” ${fmt(A[q][tops[r]], 2)}`,
      })),
    ]);
  }

  redraw();
  return listen(model, ["token"], redraw);
}

export default { render };
