// The end-of-hand screen (melds, deadwood and laid-off cards told apart, the worked sums)
// and the game-over screen (the final tally). The table's result dialog decides when; this draws.
import * as Cards from "./cards.js";
import { h } from "./dom.js";
import * as Words from "./words.js";

const { name, verb, says } = Words;

function outcomeText(r, points) {
  if (r.outcome === "void") return "The stock ran out: no score, and the same dealer deals again.";
  const k = r.knocker, w = r.winner;
  const did = { knock: says(k, "knock"), undercut: says(k, "knock"), gin: says(k, "go", "gin"),
    "big-gin": says(k, "go", "Big Gin") }[r.outcome];
  const under = r.outcome === "undercut" ? ` and ${name(w)} ${verb(w, "undercut")}` : "";
  return `${did}${under}. ${says(w, "score")} ${points}.`;
}
export function title(state) {
  const r = state.view.result;
  if (state.final) return "Game over";
  return `Hand ${state.hand_number}: ${Words.OUTCOMES[r.outcome]}`;
}

function cardsGroup(codes, kind, label, laid = new Map()) {
  const div = h("div", { class: `group ${kind}`, role: "group", "aria-label": label },
    h("span", { class: "tag", "aria-hidden": "true", text: kind === "meld" ? "meld" : "deadwood" }));
  for (const code of codes) {
    const el = Cards.face(code);
    el.classList.add("small");
    if (laid.has(code)) {
      el.classList.add("laid");
      el.setAttribute("aria-label", `${Cards.name(code)}, laid off by ${name(laid.get(code))}`);
      el.append(h("span", { class: "laid-mark", "aria-hidden": "true", text: "laid off" }));
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
  const role = seatRole(r, seat);
  const sec = h("section", { class: "shown" },
    h("h3", { text: `${name(seat)}${role ? ` (${role})` : ""}: deadwood ${r.deadwood[seat]}` }));
  const row = h("div", { class: "cards" });
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
    sec.append(h("p", { class: "laid-text", text: `${says(seat, "lay")} off ${mine.map((c) => "the " + Cards.name(c)).join(", ")} ` +
      `on ${name(r.knocker) === "You" ? "your" : name(r.knocker) + "'s"} melds.` }));
  }
  return sec;
}
function working(r) {
  const box = h("div", { class: "workings" });
  r.working.forEach((w, seat) => { if (w) box.append(h("p", { class: "working", text: `${name(seat)}: ${w}` })); });
  return box;
}
function totals(state) {
  const target = state.view.target;
  return h("p", { class: "totals", text: "Totals: " + state.names.map((_, s) => {
    const won = state.won ? state.won[s] : state.totals[s];
    return `${name(s)} ${state.totals[s]}` + (won !== state.totals[s] ? ` (${won} of ${target} toward the target)` : "");
  }).join(", ") + "." });
}
const winnerText = (f) => `${says(f.winner, "win")} the game${f.shutout ? ": a shutout!" : "."}`;
function finalTable(state) {
  const f = state.final;
  const row = (label, values) => h("tr", {}, h("th", { scope: "row", text: label }),
    ...values.map((v) => h("td", { text: String(v) })));
  const head = h("tr", {}, h("td"), ...state.names.map((_, s) => h("th", { scope: "col", text: name(s) })));
  const rows = [["Points from hands", "points"], ["Hands won", "hands_won"], ["Hand bonuses", "hand_bonus"],
    ["Game bonus", "game_bonus"], ["Shutout", "shutout_bonus"], ["Boxes", "box_bonus"], ["Final score", "score"]];
  const body = h("tbody", {}, ...rows.map(([label, key]) => row(label, f.seats.map((s) => s[key]))));
  // With penalty scoring the target counts points won, not the running total: say so.
  if (state.won && state.won.some((w, s) => w !== state.totals[s])) {
    body.append(row(`Won toward the target (${state.view.target})`, state.won));
  }
  const table = h("table", {}, h("caption", { class: "visually-hidden", text: "Final tally" }), h("thead", {}, head), body);
  return h("div", { id: "final" }, h("h3", { text: winnerText(f) }), table);
}

// Fill the result dialog; returns the sentence to announce.
export function render(state) {
  const r = state.view.result;
  document.getElementById("result-title").textContent = title(state);
  const body = document.getElementById("result-body");
  const head = h("p", { class: "outcome", text: outcomeText(r, r.outcome === "void" ? 0 : r.points[r.winner]) });
  body.replaceChildren(head);
  if (state.final) body.append(finalTable(state)); // the game's end first, then its last hand
  if (r.outcome !== "void") r.shown.forEach((_, seat) => body.append(seatSection(r, seat)));
  body.append(working(r), totals(state));
  const over = state.final ? `Game over: ${winnerText(state.final)} ` : "";
  return over + head.textContent + " " + r.working.filter(Boolean).join(" ");
}
