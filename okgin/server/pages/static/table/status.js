// The table in sentences: the status line (whose turn, and what the player may do), a deal,
// and each move as the live region reads it.
import * as Cards from "../cards.js";
import { $, setText } from "../dom.js";
import * as Words from "../words.js";
import { can, ginCards, knockCard } from "./moves.js";
import { choice, drawing, table } from "./table.js";

const { name, says } = Words;

export function statusText() {
  const state = table.state(), v = state.view;
  if (state.final) return `${says(state.final.winner, "win")} the game!`;
  if (v.result) return "The hand is over.";
  if (v.seat !== null && v.to_act === v.seat) {
    const key = Words.key, touch = Words.touchOnly();
    if (choice.ginChoice) return touch ? "Go gin: tap the card to discard." : "Go gin: choose the card to discard (← →, Enter), or Escape.";
    if (v.phase === "offer") return `Your turn: take the upcard${key("D")} or pass${key("S")}.`;
    if (v.phase === "draw") return `Your turn: draw from the stock${key("S")} or take the discard${key("D")}.`;
    if (v.phase === "last-chance") return `Last chance: take the discard to knock${key("D")}, or pass${key("S")}.`;
    const end = can("big-gin") ? `, or go Big Gin${key("G")}` : ginCards().length ? `, or go gin${key("G")}`
      : knockCard() ? `, or knock${key("K")}` : "";
    return touch ? `Your turn: tap a card twice to discard it${end}.` : `Your turn: discard a card (Enter twice)${end}.`;
  }
  return `${name(v.to_act)} ${v.to_act === v.seat ? "are" : "is"} playing…`;
}
drawing.add("status", () => setText($("status"), statusText()));

export function dealText() {
  const state = table.state(), v = state.view;
  const spade = v.multiplier === 2 ? " It is a spade: this hand counts double." : "";
  return `Hand ${state.hand_number}: ${says(v.dealer, "deal")}. The upcard is the ${Cards.name(v.upcard)}: ` +
    `the knock limit is ${Words.limit(v.knock_limit)}.${spade} ${statusText()}`;
}
// The move `event` in words; `before`, the state before it, knows the card taken.
export function describe(event, before) {
  if (event === "deal") return dealText();
  if (event === "reshuffle") return "The discard pile is shuffled into a new stock.";
  const [seatText, verb, card] = event.split(" ");
  const seat = Number(seatText);
  if (verb === "draw") return says(seat, "draw", "from the stock.");
  if (verb === "take") {
    const top = before && before.view.discards.at(-1);
    return says(seat, "take", top ? `the ${Cards.name(top)}.` : "the discard.");
  }
  if (verb === "pass") return says(seat, "pass") + ".";
  if (verb === "discard") return says(seat, "discard", `the ${Cards.name(card)}.`);
  const result = table.state().view.result;
  const gin = result && result.outcome === "gin" && result.knocker === seat;
  if (verb === "knock" && gin) return says(seat, "go", `gin, discarding the ${Cards.name(card)}.`);
  if (verb === "knock") return says(seat, "knock", `and ${Words.verb(seat, "discard")} the ${Cards.name(card)}.`);
  if (verb === "big-gin") return says(seat, "go", "Big Gin!");
  return event;
}
