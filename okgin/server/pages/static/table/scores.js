// The scores: each seat's name, the dealer, its total and, where the target counts points won
// (penalty scoring), its progress toward the target; for a spectator, the watchers' odds (each
// seat's chance to win the hand and the game as they stood a move ago: docs/watching.md).
import { $, h, keyed, seatBox, setNodes } from "../dom.js";
import { name } from "../words.js";
import { drawing, table } from "./table.js";

const HIDDEN = { "aria-hidden": "true" };
const ODDS_TITLE = "Chances a move ago, worked out from what every watcher sees";
const percent = (p) => `${Math.round(100 * p)}%`;

function progressShown(state) {
  return !!state.won && state.won.some((w, s) => w !== state.totals[s]);
}
function drawScores() {
  const state = table.state(), v = state.view;
  const seats = state.names.map((_, s) => s);
  keyed($("scores"), ".score", seats, seatBox("score")).forEach((div, seat) => {
    div.classList.toggle("turn", v.to_act === seat && !v.result);
    const progress = progressShown(state), dealer = v.dealer === seat;
    const odds = v.seat === null && state.odds ? [state.odds.hand[seat], state.odds.match[seat]] : null;
    const key = JSON.stringify([name(seat), dealer, state.totals[seat], progress && state.won[seat], v.target, odds]);
    setNodes(div, key, () => {
      const parts = [h("span", { class: "who" }, name(seat))];
      if (dealer) parts.push(" ", h("small", { class: "dealer" }, "dealer"));
      parts.push(" ", h("b", {}, String(state.totals[seat])), h("span", { class: "visually-hidden" }, " points"));
      if (progress) {
        const bar = h("i");
        bar.style.width = `${Math.min(100, Math.round((100 * state.won[seat]) / v.target))}%`;
        parts.push(h("span", { class: "progress" }, `${state.won[seat]} of ${v.target} toward the target`),
          h("span", { class: "bar", ...HIDDEN }, bar));
      }
      if (odds) {
        parts.push(h("span", { class: "odds", title: ODDS_TITLE },
          h("span", {}, `hand ${percent(odds[0])}`), " ", h("span", {}, `game ${percent(odds[1])}`)));
      }
      return parts;
    });
  });
}
drawing.add("scores", drawScores);
