// unoformal show: steps through the trace embedded in this page (no network, no library).
// Every value from the data is put into the page with textContent or as an attribute
// value, never parsed as markup: a record's text shows literally and runs nothing.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
  const ui = { steps: data.steps || [], at: 0, view: data.view_as || "", trace: null };

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }

  function show(value) {
    if (value === null || value === undefined) return "-";
    if (value === true) return "yes";
    if (value === false) return "no";
    return String(value);
  }

  // A card code (R5, Y+2, W+4 ...) as a small colored card, with a space after it so
  // that the page's text (a copy, a search, a screen reader) reads cards as words.
  function card(code, extra) {
    const color = COLORS[code.charAt(0)] || "wild";
    const node = el("span", "card " + color + (extra ? " " + extra : ""), code);
    node.title = code;
    const both = document.createDocumentFragment();
    both.appendChild(node);
    both.appendChild(document.createTextNode(" "));
    return both;
  }

  function back() {
    return el("span", "card back", "");
  }

  // Cards in `now` that were not in `before` (as multisets), by position in `now`.
  function added(now, before) {
    const left = {};
    for (const c of before || []) left[c] = (left[c] || 0) + 1;
    return now.map(function (c) {
      if (left[c]) { left[c] -= 1; return false; }
      return true;
    });
  }

  function removed(now, before) {
    const left = {};
    for (const c of now) left[c] = (left[c] || 0) + 1;
    return (before || []).filter(function (c) {
      if (left[c]) { left[c] -= 1; return false; }
      return true;
    });
  }

  // ------------------------------------------------------------------ the table

  const FIELDS = [
    ["round", "round"], ["to_play", "to play"], ["phase", "phase"],
    ["direction", "direction"], ["color", "color"], ["top", "top card"],
    ["draw_pile", "draw pile"], ["discard_pile", "discard pile"],
    ["pending", "pending draws"], ["pending_kind", "pending card"],
    ["uno_pending", "UNO window"], ["drawn", "drawn card"], ["dealer", "dealer"],
    ["winner", "round winner"], ["round_points", "round points"],
    ["game_winner", "game winner"],
  ];

  function tableInfo(state, prev) {
    const list = el("dl", "info");
    for (const [key, name] of FIELDS) {
      const changed = prev && show(prev[key]) !== show(state[key]);
      const row = el("div", "field" + (changed ? " changed" : ""));
      row.dataset.field = key;
      row.appendChild(el("dt", "", name));
      const dd = el("dd", "", "");
      if (key === "top" && state.top) dd.appendChild(card(state.top));
      else if (key === "drawn" && state.drawn && canSee(state.to_play)) dd.appendChild(card(state.drawn));
      else if (key === "drawn" && state.drawn) dd.textContent = "a card (hidden)";
      else dd.textContent = show(state[key]);
      row.appendChild(dd);
      list.appendChild(row);
    }
    return list;
  }

  // What the seat chosen in "view as" may see: the same parts of a step that a seat's
  // own page keeps (unoformal/show/seat.py, which marks them in the data).
  function canSee(seat) {
    return ui.view === "" || ui.view === seat;
  }

  // A label [rule, branch, words, only]: `only` names the one seat that may know it ran
  // ("" for none: the referee's alone), null for every seat.
  function knows(label) {
    return label.length < 4 || label[3] === null || canSee(label[3]);
  }

  function seat(name, state, prev, current) {
    const hand = state.hands[name];
    const before = prev ? prev.hands[name] : null;
    // HIDDEN-1's house rule: a hand of fewer cards than open_below is face up to all
    const mine = canSee(name) || hand.length < ((data.table || {}).open_below || 0);
    const changed = prev && (mine ? removed(hand, before).length + added(hand, before)
      .filter(Boolean).length > 0 : hand.length !== before.length);
    const box = el("section", "seat" + (current ? " current" : "") + (changed ? " changed" : ""));
    box.dataset.seat = name;
    const head = el("h3", "", name);
    head.appendChild(el("span", "count", hand.length + (hand.length === 1 ? " card" : " cards")));
    const scoreChanged = prev && prev.scores[name] !== state.scores[name];
    head.appendChild(el("span", "score" + (scoreChanged ? " changed" : ""), "score " + state.scores[name]));
    box.appendChild(head);
    const cards = el("div", "hand", "");
    if (mine) {
      const fresh = added(hand, before);
      hand.forEach(function (c, i) { cards.appendChild(card(c, prev && fresh[i] ? "new" : "")); });
      const gone = removed(hand, before);
      if (prev && gone.length) cards.appendChild(el("span", "gone", "gave " + gone.join(" ")));
    } else {
      for (let i = 0; i < hand.length; i += 1) cards.appendChild(back());
    }
    box.appendChild(cards);
    return box;
  }

  function board(state, prev) {
    const node = el("div", "board", "");
    node.appendChild(tableInfo(state, prev));
    const seats = el("div", "seats", "");
    for (const name of data.players || Object.keys(state.hands)) {
      seats.appendChild(seat(name, state, prev, name === state.to_play && !state.round_over));
    }
    node.appendChild(seats);
    return node;
  }

  // ------------------------------------------------------------------ one step

  function words(rule) {
    const all = (data.table && data.table.words) || {};
    return all[rule] || "";
  }

  function rules(labels) {
    const list = el("ul", "rules", "");
    list.id = "rules";
    for (const [rule, branch, text] of labels.filter(knows)) {
      const item = el("li", "", "");
      item.appendChild(el("b", "rule-id", rule));
      item.appendChild(el("span", "branch", " " + branch + (text ? ": " + text : "")));
      item.appendChild(el("div", "words", words(rule)));
      list.appendChild(item);
    }
    return list;
  }

  // The mover's own words, or to another seat the ruling alone (its `public` part).
  function refusal(refused, actor) {
    if (!canSee(actor) && refused.public) refused = refused.public;
    const box = el("div", "refused", "");
    box.id = "refused";
    box.appendChild(el("b", "", "refused" + (refused.rule ? " (breaks " + refused.rule + ")" : "")));
    box.appendChild(el("div", "", refused.message));
    if (refused.rule) box.appendChild(el("div", "words", words(refused.rule)));
    for (const c of refused.causes || []) box.appendChild(el("div", "words", c + ": " + words(c)));
    return box;
  }

  function revealed(step) {
    const r = step.reveal;
    if (!r || !(ui.view === "" || ui.view === r.to)) return null;
    const box = el("div", "reveal", "");
    box.id = "reveal";
    const who = ui.view === "" ? r.of + "'s hand was shown to " + r.to : "you (" + r.to + ") saw " + r.of + "'s hand";
    box.appendChild(el("b", "", "CHAL-1: " + who + ", once, at this step: "));
    for (const c of r.hand) box.appendChild(card(c));
    return box;
  }

  function action(step) {
    const box = el("div", "action", "");
    const head = el("h2", "", "");
    head.id = "action";
    head.textContent = step.action === null ? (ui.at === 0 ? "the deal" : "a new round dealt") : step.action;
    box.appendChild(head);
    if (step.refused) box.appendChild(refusal(step.refused, step.actor));
    const seen = revealed(step);
    if (seen) box.appendChild(seen);
    box.appendChild(rules(step.labels));
    return box;
  }

  function render() {
    const step = ui.steps[ui.at];
    const prev = ui.at > 0 ? ui.steps[ui.at - 1].state : null;
    const view = document.getElementById("step");
    view.replaceChildren(action(step), board(step.state, step.refused ? null : prev));
    document.getElementById("step-label").textContent =
      "step " + ui.at + " of " + (ui.steps.length - 1);
    const slider = document.getElementById("slider");
    slider.max = String(ui.steps.length - 1);
    slider.value = String(ui.at);
  }

  function go(to) {
    ui.at = Math.max(0, Math.min(ui.steps.length - 1, to));
    render();
  }

  // ------------------------------------------------------------------ controls

  function button(id, text, title, to) {
    const b = el("button", "", text);
    b.id = id;
    b.type = "button";
    b.title = title;
    b.addEventListener("click", function () { go(to()); });
    return b;
  }

  function viewAs() {
    const label = el("label", "", "view as ");
    const pick = el("select", "", "");
    pick.id = "view-as";
    const seats = data.view_as ? [data.view_as] : (data.players || []);
    if (!data.view_as) pick.appendChild(new Option("everyone (referee)", ""));
    for (const name of seats) pick.appendChild(new Option(name + " (HIDDEN-1)", name));
    pick.value = ui.view;
    pick.addEventListener("change", function () { ui.view = pick.value; render(); });
    label.appendChild(pick);
    label.title = "HIDDEN-1: " + words("HIDDEN-1");
    return label;
  }

  function controls() {
    const bar = el("nav", "controls", "");
    bar.appendChild(button("first", "|◀", "first step (Home)", function () { return 0; }));
    bar.appendChild(button("prev", "◀", "previous step (←)", function () { return ui.at - 1; }));
    const slider = el("input", "", null);
    slider.id = "slider";
    slider.type = "range";
    slider.min = "0";
    slider.addEventListener("input", function () { go(Number(slider.value)); });
    bar.appendChild(slider);
    bar.appendChild(button("next", "▶", "next step (→)", function () { return ui.at + 1; }));
    bar.appendChild(button("last", "▶|", "last step (End)", function () { return ui.steps.length - 1; }));
    bar.appendChild(el("span", "", "")).id = "step-label";
    bar.appendChild(viewAs());
    return bar;
  }

  function keys(event) {
    if (event.target && event.target.tagName === "SELECT") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) go(ui.at + moves[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(ui.steps.length - 1);
    else return;
    event.preventDefault();
  }

  // ------------------------------------------------------------------ heading

  function heading() {
    const head = el("header", "", "");
    head.appendChild(el("h1", "", data.title));
    if (data.source) head.appendChild(el("p", "source", data.source));
    const t = data.table || {};
    head.appendChild(el("p", "variant", "rules " + show(t.name) + (t.description ? ": " + t.description : "")));
    if (t.changes && t.changes.length) {
      const list = el("ul", "changes", "");
      list.id = "changes";
      for (const c of t.changes) {
        list.appendChild(el("li", "", c.rule + " " + c.key + " = " + JSON.stringify(c.value) +
          " (classic: " + JSON.stringify(c.classic) + ")"));
      }
      const more = el("details", "", "");
      more.open = t.changes.length <= 4;
      more.appendChild(el("summary", "", "differs from classic: " + t.changes.length +
        (t.changes.length === 1 ? " value" : " values")));
      more.appendChild(list);
      head.appendChild(more);
    }
    if (data.meta !== undefined && data.meta !== null) {
      head.appendChild(el("pre", "meta", JSON.stringify(data.meta, null, 1))).id = "meta";
    }
    return head;
  }

  // A finding (a counterexample, a mismatch): what it is, and the states side by side.
  function finding() {
    const f = data.finding;
    const box = el("section", "finding", "");
    box.id = "finding";
    box.appendChild(el("h2", "", f.heading));
    for (const line of f.lines) box.appendChild(el("p", "", line));
    for (const rule of f.rules || []) box.appendChild(el("p", "words", rule + ": " + words(rule)));
    if (f.sides && f.sides.length) {
      const pair = el("div", "pair", "");
      for (const side of f.sides) {
        const half = el("div", "side", "");
        half.id = side.id;
        half.appendChild(el("h3", "", side.title));
        const against = side.against === null ? null : f.sides[side.against].state;
        if (side.state) half.appendChild(board(side.state, against));
        else half.appendChild(el("p", "refused", side.note));
        pair.appendChild(half);
      }
      box.appendChild(pair);
    }
    return box;
  }

  // ------------------------------------------------------------------ graphs

  function graph() {
    const g = data.graph;
    const box = el("section", "graph", "");
    box.appendChild(el("h2", "", g.heading));
    for (const line of g.lines) box.appendChild(el("p", "", line));
    const legend = el("p", "legend", "");
    for (const [role, text] of Object.entries(g.legend)) {
      const key = el("span", "key " + role.replace(/ /g, "-"), text);
      legend.appendChild(key);
    }
    box.appendChild(legend);
    const pic = svg("svg", { width: g.width, height: g.height, viewBox: "0 0 " + g.width + " " + g.height });
    pic.id = "graph";
    const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
    marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z" }));
    const defs = svg("defs");
    defs.appendChild(marker);
    pic.appendChild(defs);
    const at = {};
    for (const n of g.nodes) at[n.id] = n;
    for (const e of g.edges) pic.appendChild(edge(at[e.s], at[e.d], e));
    for (const n of g.nodes) pic.appendChild(node(n));
    const wrap = el("div", "scroll", "");
    wrap.appendChild(pic);
    box.appendChild(wrap);
    return box;
  }

  // An arrow from box to box: forwards from the right side to the left side, backwards
  // the other way round, within one column as a bow on the right.
  function edge(s, d, e) {
    const half = data.graph.box[0] / 2;
    const group = svg("g", { class: "edge" + (e.witness ? " witness" : "") });
    let x1 = s.x + half, x2 = d.x - half, bow = 0;
    if (d.x < s.x) { x1 = s.x - half; x2 = d.x + half; }
    else if (d.x === s.x) { x2 = d.x + half; bow = 30 + Math.abs(d.y - s.y) / 8; }
    const cx = (x1 + x2) / 2 + bow, cy = (s.y + d.y) / 2;
    group.appendChild(svg("path", { d: "M " + x1 + " " + s.y + " Q " + cx + " " + cy + " " + x2 + " " + d.y,
      fill: "none", "marker-end": "url(#arrow)" }));
    const t = svg("text", { x: cx - bow / 2, y: cy - 3, "text-anchor": "middle" });
    t.textContent = e.label;
    group.appendChild(t);
    return group;
  }


  function node(n) {
    const [w, h] = data.graph.box;
    const group = svg("g", { class: "node " + n.role.replace(/ /g, "-") + (n.witness ? " witness" : ""),
      transform: "translate(" + (n.x - w / 2) + "," + (n.y - h / 2) + ")", tabindex: 0 });
    group.dataset.id = String(n.id);
    group.appendChild(svg("rect", { width: w, height: h, rx: 4 }));
    n.lines.forEach(function (line, i) {
      const t = svg("text", { x: 4, y: 12 + 11 * i });
      t.textContent = line;
      group.appendChild(t);
    });
    group.addEventListener("click", function () { follow(n.id); });
    group.addEventListener("keydown", function (ev) { if (ev.key === "Enter") follow(n.id); });
    return group;
  }

  // The trace of the path from its deal to state `id` (the BFS tree's parents).
  function follow(id) {
    const g = data.graph;
    const path = [];
    for (let at = id; at >= 0; at = g.parent[at][0]) path.unshift(at);
    ui.steps = path.map(function (sid) {
      const p = g.parent[sid];
      return { action: p[1], actor: null, labels: p[2], state: g.states[sid], reveal: p[3] || null, refused: null };
    });
    document.querySelectorAll(".node.selected").forEach(function (x) { x.classList.remove("selected"); });
    const chosen = document.querySelector('.node[data-id="' + id + '"]');
    if (chosen) chosen.classList.add("selected");
    document.getElementById("trace-title").textContent = "state #" + id + ": the path from its deal";
    go(path.length - 1);
  }

  // ------------------------------------------------------------------ the page

  function main() {
    document.title = "unoformal show: " + data.title;
    const app = document.getElementById("app");
    app.appendChild(heading());
    if (data.finding) app.appendChild(finding());
    if (data.graph) app.appendChild(graph());
    const trace = el("section", "trace", "");
    trace.appendChild(el("h2", "", data.trace_title || "step by step")).id = "trace-title";
    trace.appendChild(controls());
    trace.appendChild(el("div", "", "")).id = "step";
    app.appendChild(trace);
    document.addEventListener("keydown", keys);
    if (data.graph && data.graph.focus !== null) follow(data.graph.focus);
    else if (ui.steps.length) go(data.start || 0);
    document.body.dataset.ready = "yes";
  }

  main();
}());
