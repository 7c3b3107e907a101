// The other seats: each one's name and level, its hand face down, and the cards it took from
// the pile and still holds, face up.
import * as Cards from "../cards.js";
import { $, h, keyed, seatBox } from "../dom.js";
import { name } from "../words.js";
import { pileStory } from "./piles.js";
import { drawing, table } from "./table.js";

const HIDDEN = { "aria-hidden": "true" };

function drawOpponents() {
  const state = table.state();
  const { held } = pileStory();
  const seats = state.view.hand_sizes.map((_, s) => s).filter((s) => s !== state.view.seat);
  keyed($("opponents"), ".opponent", seats, seatBox("opponent")).forEach((div, i) => {
    const seat = seats[i], count = state.view.hand_sizes[seat];
    const levels = state.seat_levels || [null, ...state.levels];
    const level = levels[seat] ? ` · ${levels[seat]}` : "";
    const known = [...held].filter(([, s]) => s === seat).map(([c]) => c);
    // Only what changed is redrawn: a draw adds one back to the fan, nothing else.
    if (!div.firstChild) {
      div.append(h("div", { class: "name" }), h("div", { class: "fan", role: "img" }),
        h("div", { class: "known", role: "group", hidden: "" }));
    }
    const [label, fan, took] = div.children;
    const text = `${name(seat)}${level} · ${count} cards`;
    if (label.textContent !== text) label.textContent = text;
    fan.setAttribute("aria-label", `${name(seat)}'s hand: ${count} cards`);
    while (fan.children.length > count) fan.lastChild.remove();
    while (fan.children.length < count) { const b = Cards.back(); b.removeAttribute("role"); b.removeAttribute("aria-label"); fan.append(b); }
    const knownKey = known.join(" ");
    if (took.dataset.cards === knownKey) return;
    took.dataset.cards = knownKey;
    took.hidden = !known.length;
    took.setAttribute("aria-label", `${name(seat)} took from the pile: ${known.map(Cards.name).join(", ")}`);
    took.replaceChildren(h("span", { class: "known-label", ...HIDDEN }, "Took"));
    known.forEach((c) => { const el = Cards.face(c); el.classList.add("small"); took.append(el); });
  });
}
drawing.add("opponents", drawOpponents);
