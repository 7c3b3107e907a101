// The game-over screen: the winner's headline (won or lost, with a short flourish that reduced
// motion leaves out), the shutout told in words when there was one, and the final tally with
// each row worked out ("1 × 25" hand bonus, "2 × 25" boxes, the final score's sum).
import { h } from "./dom.js";
import * as Words from "./words.js";

const { name, who, whose, says, list } = Words;
const minus = (n) => (n < 0 ? `−${-n}` : String(n));

export const winnerText = (f) => `${says(f.winner, "win")} the game${f.shutout ? ": a shutout!" : "."}`;

// "You win the game!" for the winner, "Ruby wins the game" for the others (and a spectator).
function headline(f) {
  const me = Words.me();
  const mood = me === null ? "watched" : f.winner === me ? "won" : "lost";
  const text = mood === "won" ? "You win the game!" : `${says(f.winner, "win")} the game`;
  return h("h3", { class: `game-winner ${mood}`, "data-mood": mood, text });
}

// Who was shut out and what it did: the rule's own words (docs/rules.md, rule 14).
function shutoutText(state) {
  const f = state.final, rule = f.bonuses && f.bonuses.shutout;
  const others = list(state.names.map((_, s) => s).filter((s) => s !== f.winner).map(who));
  const extra = f.seats[f.winner].shutout_bonus;
  if (rule === "double-bonus") return `A shutout: ${others} scored no points all game, so ${whose(f.winner)} game bonus is doubled (${extra} more).`;
  if (rule === "double-score") return `A shutout: ${others} won no hand, so ${whose(f.winner)} final score is doubled (${extra} more).`;
  return "A shutout.";
}

// How each cell came about, under its number ("" when there is nothing to work out).
function how(key, seat, f) {
  const s = f.seats[seat], b = f.bonuses;
  if (!b) return "";
  if (key === "hand_bonus" && s.hands_won && b.hand) return `${s.hands_won} × ${b.hand}`;
  if (key === "box_bonus" && s.boxes && b.box) return `${s.boxes} box${s.boxes === 1 ? "" : "es"} × ${b.box}`;
  if (key === "shutout_bonus" && s.shutout_bonus) {
    if (b.shutout === "double-bonus") return "the game bonus again";
    const doubled = [s.points, s.hand_bonus, s.game_bonus, s.box_bonus].filter(Boolean).map(minus).join(" + ");
    return `${doubled}, doubled`;
  }
  if (key === "score") {
    const parts = [s.points, s.hand_bonus, s.game_bonus, s.shutout_bonus, s.box_bonus].filter(Boolean);
    return parts.length > 1 ? parts.map(minus).join(" + ").replaceAll("+ −", "− ") : "";
  }
  return "";
}
// The rows a table's rules can fill: no Shutout row when the rules have none, no Boxes row
// without boxes (a frame without `bonuses` shows every row).
function rows(f) {
  const b = f.bonuses;
  const each = (n, what) => (b && n ? ` (${n} ${what})` : "");
  const all = [
    ["Points from hands", "points"], ["Hands won", "hands_won"],
    [`Hand bonuses${each(b && b.hand, "a hand won")}`, "hand_bonus"],
    [`Game bonus${each(b && b.game, "for the winner")}`, "game_bonus"],
    ["Shutout", "shutout_bonus"], [`Boxes${each(b && b.box, "a box")}`, "box_bonus"], ["Final score", "score"]];
  return all.filter(([, key]) => !b || (key !== "shutout_bonus" || b.shutout !== "none" || f.shutout) &&
    (key !== "box_bonus" || b.box !== null));
}
function finalTable(state) {
  const f = state.final;
  const cell = (key, seat) => {
    const worked = how(key, seat, f);
    return h("td", {}, minus(f.seats[seat][key]), ...(worked ? [" ", h("small", { class: "how", text: worked })] : []));
  };
  const head = h("tr", {}, h("td"), ...state.names.map((_, s) => h("th", { scope: "col", text: name(s) })));
  const body = h("tbody", {}, ...rows(f).map(([label, key]) =>
    h("tr", { "data-row": key }, h("th", { scope: "row", text: label }), ...state.names.map((_, s) => cell(key, s)))));
  // With penalty scoring the target counts points won, not the running total: say so.
  if (state.won && state.won.some((w, s) => w !== state.totals[s])) {
    body.append(h("tr", {}, h("th", { scope: "row", text: `Won toward the target (${state.view.target})` }),
      ...state.won.map((w) => h("td", { text: minus(w) }))));
  }
  return h("table", {}, h("caption", { class: "visually-hidden", text: "Final tally" }), h("thead", {}, head), body);
}

export function gameOver(state) {
  const f = state.final;
  const box = h("div", { id: "final" }, headline(f));
  if (f.shutout) box.append(h("p", { class: "shutout", text: shutoutText(state) }));
  box.append(finalTable(state));
  return box;
}
