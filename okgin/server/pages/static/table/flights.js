// Each move's motion on the table: where every card was before the redraw, and the flight of
// the card (or the deal's cards) from there to where it went (motion.js flies them).
import { $ } from "../dom.js";
import * as Motion from "../motion.js";
import { handCards } from "./focus.js";
import { newestCard } from "./hand.js";
import { table } from "./table.js";

// Where things are, measured before the table is redrawn: the cards leave from here.
export function where() {
  if (!table.state()) return null;
  const hand = new Map(handCards().map((c) => [c.dataset.card, c.getBoundingClientRect()]));
  const fans = new Map([...document.querySelectorAll(".opponent")].map((o) =>
    [Number(o.dataset.seat), o.querySelector(".fan").getBoundingClientRect()]));
  const top = $("discard").querySelector(".card");
  return { hand, fans, stock: $("stock").getBoundingClientRect(), discard: Motion.rect(top || $("discard")) };
}
const fanCard = (seat) => document.querySelector(`.opponent[data-seat="${seat}"] .fan .card:last-child`);
const handCard = (code) => handCards().find((c) => c.dataset.card === code);

// The flight of the move `event` (a new hand's deal when `fresh`), from `places`; `before` is
// the state before it.
export async function animate(event, fresh, places, before) {
  if (fresh) return dealMotion();
  if (!event || !places || event === "reshuffle") return;
  const state = table.state();
  const [seatText, verb, card] = event.split(" ");
  const seat = Number(seatText), mine = seat === state.view.seat;
  const top = $("discard").querySelector(".card");
  if (verb === "pass") { Motion.sound("discard"); return Motion.pulse(document.querySelector(`.score[data-seat="${seat}"]`)); }
  if (verb === "draw") {
    Motion.sound("draw");
    return Motion.fly("draw", places.stock, mine ? handCard(newestCard()) : fanCard(seat), null,
      { fromName: "stock", toName: mine ? "hand" : `seat ${seat}` });
  }
  if (verb === "take") {
    Motion.sound("draw");
    const taken = before.view.discards.at(-1);
    const to = mine ? handCard(taken) : document.querySelector(`.opponent[data-seat="${seat}"] .known .card:last-child`) || fanCard(seat);
    return Motion.fly("take", places.discard, to, taken, { fromName: "discard", toName: mine ? "hand" : `seat ${seat}` });
  }
  if (verb === "discard" || verb === "knock") {
    Motion.sound(verb === "knock" ? (state.view.result && state.view.result.outcome === "gin" ? "gin" : "knock") : "discard");
    const from = mine ? places.hand.get(card) : places.fans.get(seat);
    return Motion.fly(verb, from, top || $("discard"), card, { fromName: mine ? "hand" : `seat ${seat}`, toName: "discard" });
  }
  if (verb === "big-gin") Motion.sound("gin");
}
async function dealMotion() {
  const v = table.state().view;
  const stock = $("stock").getBoundingClientRect();
  const step = Motion.stagger();
  const seats = v.hand_sizes.map((_, s) => s);
  const fans = new Map(seats.map((s) => [s, document.querySelectorAll(`.opponent[data-seat="${s}"] .fan .card`)]));
  const hand = handCards();
  const top = $("discard").querySelector(".card");
  const deal = []; // every card's flight, measured before any copy is added
  for (let round = 0; round < Math.max(...v.hand_sizes); round++) {
    for (const seat of seats) {
      if (round >= v.hand_sizes[seat]) continue;
      const to = seat === v.seat ? hand[round] : fans.get(seat)[round];
      deal.push(["deal", to, null, seat === v.seat ? "hand" : `seat ${seat}`]);
    }
  }
  deal.push(["upcard", top, v.upcard, "discard"]);
  const ends = deal.map(([, to]) => to && to.getBoundingClientRect());
  const flights = deal.map(([what, to, code, toName], i) =>
    Motion.fly(what, stock, to, code, { delay: step * i, fromName: "stock", toName, end: ends[i] }));
  await Promise.all(flights);
  // The upcard fixes the knock limit: a copy goes to the limit box, which lights up.
  await Motion.fly("limit", Motion.rect(top), $("limit"), v.upcard, { reveal: false, fromName: "discard", toName: "limit" });
  await Motion.pulse($("limit"));
}
