// The stock, the discard pile (and the viewer to look through it), and the knock limit.
import * as Cards from "../cards.js";
import { $, h, setNodes } from "../dom.js";
import * as Words from "../words.js";
import { act, can } from "./moves.js";
import { drawing, table } from "./table.js";

const HIDDEN = { "aria-hidden": "true" };

// Who took what: the pile replayed from the history, so taken cards are known by seat.
export function pileStory() {
  const v = table.state().view;
  const pile = [{ card: v.upcard, by: null }];
  const held = new Map(); // card -> seat that took it from the pile and still holds it
  for (const entry of v.history) {
    const [seatText, verb, card] = entry.split(" ");
    const seat = Number(seatText);
    if (verb === "take" && pile.length) held.set(pile.pop().card, seat);
    else if (verb === "discard" || verb === "knock") { pile.push({ card, by: seat }); held.delete(card); }
    else if (entry === "reshuffle") pile.splice(0, pile.length - 1);
  }
  return { pile, held };
}

function drawMiddle() {
  const v = table.state().view;
  $("stock-count").textContent = v.stock_count;
  $("stock").setAttribute("aria-label", `Stock, ${v.stock_count} cards` +
    (can("draw") ? `: draw${Words.key("S")}` : can("pass") ? `: pass${Words.key("S")}` : ""));
  $("stock").setAttribute("aria-disabled", String(!(can("draw") || can("pass"))));
  $("stock").classList.toggle("hot", can("draw"));
  const pile = $("discard");
  const top = v.discards.at(-1);
  const pileKey = `${top}|${can("take")}`;
  if (pile.dataset.shown === pileKey) { /* the same top card, as takeable as before */ }
  else if (top) {
    pile.dataset.shown = pileKey;
    pile.replaceChildren();
    const card = Cards.face(top, "button");
    card.setAttribute("aria-label", `Discard pile: ${Cards.name(top)}` + (can("take") ? `: take${Words.key("D")}` : ""));
    card.setAttribute("aria-disabled", String(!can("take")));
    card.classList.toggle("hot", can("take"));
    card.addEventListener("click", () => act("take"));
    pile.append(card);
  } else { pile.dataset.shown = pileKey; pile.replaceChildren(); }
  $("pile-open").textContent = `Look through the pile (${v.discards.length})`;
  const spade = v.multiplier === 2;
  setNodes($("limit"), JSON.stringify([v.knock_limit, v.upcard, spade]), () => [
    h("small", HIDDEN, "Knock limit"), h("b", HIDDEN, v.knock_limit === 0 ? "Gin only" : String(v.knock_limit)),
    h("small", HIDDEN, `upcard ${Cards.short(v.upcard)}`), ...(spade ? [h("span", { class: "spade", ...HIDDEN }, "♠ ×2")] : []),
    h("span", { class: "visually-hidden" }, `Knock limit ${Words.limit(v.knock_limit)}, set by the upcard, the ` +
      `${Cards.name(v.upcard)}${spade ? ". Spades double: this hand scores double." : "."}`)]);
}
drawing.add("middle", drawMiddle);

// The pile viewer's list, newest first, each card with who discarded it.
export function drawPileViewer() {
  const { pile } = pileStory();
  const items = [...pile].reverse().map(({ card, by }, i) => {
    const el = Cards.face(card);
    el.classList.add("small");
    return h("li", {}, el, ` ${Cards.name(card)} — ${by === null ? "the upcard" : `discarded by ${Words.name(by)}`}` +
      `${i === 0 ? " (on top)" : ""}`);
  });
  $("pile-list").replaceChildren(...(items.length ? items : [h("li", { text: "The pile is empty." })]));
}
