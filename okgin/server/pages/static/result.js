// The end-of-hand screen (melds, deadwood and laid-off cards told apart, the worked sums)
// and the game-over screen (the final tally). game.js decides when; this draws.
"use strict";
const Result = (() => {
  const { name, verb, says } = Words;

  function outcomeText(r, points) {
    if (r.outcome === "void") return "The stock ran out: no score, and the same dealer deals again.";
    const k = r.knocker, w = r.winner;
    const did = { knock: says(k, "knock"), undercut: says(k, "knock"), gin: says(k, "go", "gin"),
      "big-gin": says(k, "go", "Big Gin") }[r.outcome];
    const under = r.outcome === "undercut" ? ` and ${name(w)} ${verb(w, "undercut")}` : "";
    return `${did}${under}. ${says(w, "score")} ${points}.`;
  }
  function title(state) {
    const r = state.view.result;
    if (state.final) return "Game over";
    return `Hand ${state.hand_number}: ${Words.OUTCOMES[r.outcome]}`;
  }

  function cardsGroup(codes, kind, label, laid = new Map()) {
    const div = document.createElement("div");
    div.className = `group ${kind}`;
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", label);
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.setAttribute("aria-hidden", "true");
    tag.textContent = kind === "meld" ? "meld" : "deadwood";
    div.append(tag);
    for (const code of codes) {
      const el = Cards.face(code);
      el.classList.add("small");
      if (laid.has(code)) {
        el.classList.add("laid");
        el.setAttribute("aria-label", `${Cards.name(code)}, laid off by ${name(laid.get(code))}`);
        const mark = document.createElement("span");
        mark.className = "laid-mark";
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = "laid off";
        el.append(mark);
      }
      div.append(el);
    }
    return div;
  }
  function seatRole(r, seat) {
    if (seat !== r.knocker) return "";
    return { knock: "knocked", undercut: "knocked", gin: "went gin", "big-gin": "went Big Gin" }[r.outcome] || "";
  }
  function seatSection(r, seat) {
    const laid = new Map(r.layoffs.flatMap(([s, cards]) => cards.map((c) => [c, s])));
    const sec = document.createElement("section");
    sec.className = "shown";
    const h = document.createElement("h3");
    const role = seatRole(r, seat);
    h.textContent = `${name(seat)}${role ? ` (${role})` : ""}: deadwood ${r.deadwood[seat]}`;
    sec.append(h);
    const row = document.createElement("div");
    row.className = "cards";
    const shown = r.shown[seat];
    const melds = seat === r.knocker && r.knocker_melds.length ? r.knocker_melds : shown.melds;
    melds.forEach((m) => row.append(cardsGroup(m, "meld", `meld: ${m.map(Cards.name).join(", ")}`,
      seat === r.knocker ? laid : new Map())));
    if (shown.unmatched.length) {
      row.append(cardsGroup(shown.unmatched, "deadwood",
        `deadwood, ${r.deadwood[seat]} points: ${shown.unmatched.map(Cards.name).join(", ")}`));
    }
    sec.append(row);
    const mine = r.layoffs.filter(([s]) => s === seat).flatMap(([, cards]) => cards);
    if (mine.length) {
      const p = document.createElement("p");
      p.className = "laid-text";
      p.textContent = `${says(seat, "lay")} off ${mine.map((c) => "the " + Cards.name(c)).join(", ")} ` +
        `on ${name(r.knocker) === "You" ? "your" : name(r.knocker) + "'s"} melds.`;
      sec.append(p);
    }
    return sec;
  }
  function working(state, r) {
    const box = document.createElement("div");
    box.className = "workings";
    r.working.forEach((w, seat) => {
      if (!w) return;
      const p = document.createElement("p");
      p.className = "working";
      p.textContent = `${name(seat)}: ${w}`;
      box.append(p);
    });
    return box;
  }
  function totals(state) {
    const p = document.createElement("p");
    p.className = "totals";
    const target = state.view.target;
    p.textContent = "Totals: " + state.names.map((_, s) => {
      const won = state.won ? state.won[s] : state.totals[s];
      return `${name(s)} ${state.totals[s]}` + (won !== state.totals[s] ? ` (${won} of ${target} toward the target)` : "");
    }).join(", ") + ".";
    return p;
  }
  // An element holding text: names and numbers are never read as markup.
  function make(tag, text = "", attrs = {}) {
    const el = document.createElement(tag);
    el.textContent = text;
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    return el;
  }
  const winnerText = (f) => `${says(f.winner, "win")} the game${f.shutout ? ": a shutout!" : "."}`;
  function finalTable(state) {
    const f = state.final;
    const div = make("div", "", { id: "final" });
    const row = (label, values) => {
      const tr = make("tr");
      tr.append(make("th", label, { scope: "row" }), ...values.map((v) => make("td", String(v))));
      return tr;
    };
    const head = make("tr");
    head.append(make("td"), ...state.names.map((_, s) => make("th", name(s), { scope: "col" })));
    const body = make("tbody");
    const rows = [["Points from hands", "points"], ["Hands won", "hands_won"], ["Hand bonuses", "hand_bonus"],
      ["Game bonus", "game_bonus"], ["Shutout", "shutout_bonus"], ["Boxes", "box_bonus"], ["Final score", "score"]];
    body.append(...rows.map(([label, key]) => row(label, f.seats.map((s) => s[key]))));
    // With penalty scoring the target counts points won, not the running total: say so.
    if (state.won && state.won.some((w, s) => w !== state.totals[s])) {
      body.append(row(`Won toward the target (${state.view.target})`, state.won));
    }
    const table = make("table");
    const thead = make("thead");
    thead.append(head);
    table.append(make("caption", "Final tally", { class: "visually-hidden" }), thead, body);
    div.append(make("h3", winnerText(f)), table);
    return div;
  }

  // Fill the result dialog; returns the sentence to announce.
  function render(state) {
    const r = state.view.result;
    document.getElementById("result-title").textContent = title(state);
    const body = document.getElementById("result-body");
    body.replaceChildren();
    const head = document.createElement("p");
    head.className = "outcome";
    head.textContent = outcomeText(r, r.outcome === "void" ? 0 : r.points[r.winner]);
    body.append(head);
    if (state.final) body.append(finalTable(state)); // the game's end first, then its last hand
    if (r.outcome !== "void") r.shown.forEach((_, seat) => body.append(seatSection(r, seat)));
    body.append(working(state, r), totals(state));
    const over = state.final ? `Game over: ${winnerText(state.final)} ` : "";
    return over + head.textContent + " " + r.working.filter(Boolean).join(" ");
  }
  return { render, title };
})();
