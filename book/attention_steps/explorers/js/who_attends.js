// attention-explorer: who-attends  (the browser tests find this explorer's page by this line)
// Who attends to whom (chapter 8). Traits: data (every head's weights, from
// attention_steps.explorers.data.who_attends_states), token (the chosen query).

function render({ model, el }) {
  const data = model.get("data");
  const tokens = data.tokens;
  const root = explorerRoot("who-attends", "ase-who");
  const groupId = uniqueId("tokens");
  // Each head's name in the page's language: "head 1: coreference" (the role, data.head_names[r],
  // from attention_steps.sentence.HEAD_NAMES), or "head 1" when the heads have no roles.
  const headNames = data.A.map((_, r) => {
    const role = (data.head_names || [])[r];
    return role ? t(data, "head {n}: {role}", { n: r + 1, role: t(data, role) }) : t(data, "head {n}", { n: r + 1 });
  });

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
    h("p", { id: groupId, class: "ase-picker-label", html: t(data, "Choose the query token (arrow keys or click):") }),
    ...buttons,
  ]);
  const numbers = numbersBlock();
  const HEAD_COLOURS = data.head_colours; // one name per head: attention_steps.palette.head_colour_names
  const headColour = (r) => HEAD_COLOURS[r % HEAD_COLOURS.length];
  const lines = panel(t(data, "Lines from the chosen token to every token, one colour per head"), "ase-lines-panel");
  lines.root.append(legend(headNames.map((name, r) => ({ label: name, colour: headColour(r) }))));
  const heads = data.A.map((_, r) => panel(esc(headNames[r])));
  const numbersPanel = h("figure", { class: "ase-panel" }, [h("figcaption", { text: t(data, "Where each head looks most") }), numbers.root]);
  root.append(picker, h("div", { class: "ase-panels" }, [lines.root, numbersPanel, ...heads.map((p) => p.root)]));
  el.append(root);

  function redraw() {
    const q = model.get("token");
    root.dataset.token = tokens[q];
    buttons.forEach((b, i) => {
      b.setAttribute("aria-pressed", String(i === q));
      b.tabIndex = i === q ? 0 : -1;
    });
    const tops = data.A.map((A) => A[q].indexOf(Math.max(...A[q])));
    for (const [container, node] of draw(q)) showDrawing(container, node);
    numbers.show([
      { key: "token", label: t(data, "query token"), value: tokens[q], text: `“${tokens[q]}”` },
      ...data.A.map((A, r) => ({
        key: `head${r + 1}`, label: esc(headNames[r]), value: A[q][tops[r]],
        text: `“${tokens[tops[r]]}” ${fmt(A[q][tops[r]], 2)}`,
      })),
    ]);
  }

  const cache = drawingCache();
  const headSvg = (q, r) => {
    const w = data.A[r][q], top = w.indexOf(Math.max(...w));
    return barsSvg({
      values: w, labels: tokens, highlight: top, height: 180,
      label: t(data, "{head}: weights of “{token}” over the sentence: {weights}", {
        head: headNames[r], token: tokens[q], weights: listOf(data, tokens.map((k, j) => `${k} ${fmt(w[j], 2)}`)),
      }),
    });
  };
  const draw = (q) => {
    const tops = data.A.map((A) => A[q].indexOf(Math.max(...A[q])));
    return [
      [lines.drawing, cache(`lines ${q}`, () => linksSvg(q, tops))],
      ...heads.map((p, r) => [p.drawing, cache(`head ${r} ${q}`, () => headSvg(q, r))]),
    ];
  };

  /** Tokens in two columns, a line from query q to each key per head: thicker and darker for more weight. */
  function linksSvg(q, tops) {
    const row = 21, top = 10, width = 320, height = top + row * tokens.length;
    const xl = 128, xr = 192, y = (i) => top + row * i + row / 2;
    let out = svgOpen(width, height, t(data, "Lines from “{token}” to every token; {heads}", {
      token: tokens[q],
      heads: clausesOf(data, headNames.map((name, r) => t(data, "{head}: strongest to “{token}” ({weight})", {
        head: name, token: tokens[tops[r]], weight: fmt(data.A[r][q][tops[r]], 2),
      }))),
    }));
    tokens.forEach((t, i) => {
      const bold = i === q ? ' font-weight="700"' : "";
      out += `<text x="${xl - 6}" y="${y(i) + 4}" text-anchor="end" class="ase-tick"${bold} opacity="${i === q ? 1 : 0.7}">${esc(t)}</text>`;
      out += `<text x="${xr + 6}" y="${y(i) + 4}" text-anchor="start" class="ase-tick">${esc(t)}</text>`;
    });
    data.A.forEach((A, r) => {
      const spread = (r - (data.h - 1) / 2) * 3;
      A[q].forEach((w, j) => {
        if (w < 0.01) return; // under 1 %: invisible anyway
        out += `<line x1="${xl}" y1="${y(q)}" x2="${xr}" y2="${(y(j) + spread).toFixed(2)}" class="ase-stroke-${headColour(r)}" ` +
          `stroke-width="${(0.75 + 7 * w).toFixed(2)}" stroke-opacity="${(0.25 + 0.75 * w).toFixed(3)}" stroke-linecap="round"/>`;
      });
    });
    return out + "</svg>";
  }

  redraw();
  const q0 = model.get("token");
  warm(tokens.map((_, q) => q).sort((a, b) => Math.abs(a - q0) - Math.abs(b - q0)).map((q) => () => draw(q)));
  return listen(model, ["token"], redraw);
}

export default { render };
