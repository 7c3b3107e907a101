// The end-of-hand screen (melds, deadwood and laid-off cards told apart, the worked sums with
// each term named) and, at the game's end, the game-over screen (tally.js). The table's result
// dialog decides when; this draws.
import * as Cards from "./cards.js";
import { h } from "./dom.js";
import * as Tally from "./tally.js";
import * as Words from "./words.js";

const { name, who, whose, theirs, verb, says } = Words;

function outcomeText(r, points) {
  if (r.outcome === "void") return "The stock ran out: no score, and the same dealer deals again.";
  const k = r.knocker, w = r.winner;
  const did = { knock: says(k, "knock"), undercut: says(k, "knock"), gin: says(k, "go", "gin"),
    "big-gin": says(k, "go", "Big Gin") }[r.outcome];
  const under = r.outcome === "undercut" ? ` and ${who(w)} ${verb(w, "undercut")}` : "";
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
      el.setAttribute("aria-label", `${Cards.name(code)}, laid off by ${who(laid.get(code))}`);
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
      `on ${whose(r.knocker)} melds.` }));
  }
  return sec;
}
// What a term of a sum is: its name from the server ("undercut bonus"), a deadwood term
// saying whose deadwood it is and what it is measured against.
function termWords(t) {
  if (t.of === null || t.of === undefined) return t.name;
  if (t.against === null || t.against === undefined) return `${whose(t.of)} ${t.name}`;
  return `${t.name} (${theirs(t.of)} less ${theirs(t.against)})`;
}
// Each number of a seat's sum beside its name: "25 undercut bonus", "+ 9 − 5 deadwood
// difference (Ruby's less yours)", "× 2 spade double".
function namedTerms(r, terms) {
  const list = h("ul", { class: "terms", "aria-label": "What each number is" });
  terms.forEach((t, i) => {
    const sign = i === 0 ? "" : t.text.startsWith("−") ? "− " : "+ ";
    const text = i > 0 && t.text.startsWith("−") ? t.text.slice(1) : t.text;
    list.append(h("li", {}, h("span", { class: "n", text: sign + text }), " ", termWords(t)));
  });
  if (r.multiplier !== 1) {
    const why = r.multiplier_name ? `${r.multiplier_name}: the first upcard was a spade` : "the hand counts double";
    list.append(h("li", {}, h("span", { class: "n", text: `× ${r.multiplier}` }), " ", why));
  }
  return list;
}
function working(r) {
  const box = h("div", { class: "workings" });
  r.working.forEach((w, seat) => {
    if (!w) return;
    box.append(h("p", { class: "working", text: `${name(seat)}: ${w}` }));
    const terms = r.terms && r.terms[seat];
    if (terms && terms.length) box.append(namedTerms(r, terms));
  });
  return box;
}
function totals(state) {
  const target = state.view.target;
  return h("p", { class: "totals", text: "Totals: " + state.names.map((_, s) => {
    const won = state.won ? state.won[s] : state.totals[s];
    return `${who(s)} ${state.totals[s]}` + (won !== state.totals[s] ? ` (${won} of ${target} toward the target)` : "");
  }).join(", ") + "." });
}

// Fill the result dialog; returns the sentence to announce.
export function render(state) {
  const r = state.view.result;
  document.getElementById("result-title").textContent = title(state);
  const body = document.getElementById("result-body");
  const head = h("p", { class: "outcome", text: outcomeText(r, r.outcome === "void" ? 0 : r.points[r.winner]) });
  body.replaceChildren(head);
  if (state.final) body.append(Tally.gameOver(state)); // the game's end first, then its last hand
  if (r.outcome !== "void") r.shown.forEach((_, seat) => body.append(seatSection(r, seat)));
  body.append(working(r), totals(state));
  const over = state.final ? `Game over: ${Tally.winnerText(state.final)} ` : "";
  return over + head.textContent + " " + r.working.filter(Boolean).join(" ");
}
