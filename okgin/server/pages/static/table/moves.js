// The player's moves: what the state allows, and sending one (a discard first asks the
// contributors' checks, the coach's warning among them).
import * as Cards from "../cards.js";
import * as Words from "../words.js";
import { focusCard } from "./focus.js";
import { offline } from "./offline.js";
import { announce, choice, discardHeld, drawing, send, table } from "./table.js";

export const can = (action) => table.state().view.legal.includes(action);
export function myTurn() {
  const v = table.state().view;
  return v.seat !== null && v.to_act === v.seat && !v.result;
}

export function act(action) {
  if (!table.state() || !can(action)) return;
  if (offline()) { announce("The connection is lost: reconnecting. Your move was not sent.", true); return; }
  choice.lifted = null; choice.ginChoice = false;
  send({ type: "act", action });
}
// The player discards `card` (tapped again when lifted, or the Discard button).
export function discard(card) {
  if (!can(`discard ${card}`) || discardHeld(card)) return;
  act(`discard ${card}`);
}

function endOptions(gin) {
  const options = table.state().view.knock_options || {};
  return Object.keys(options).filter((c) => (gin ? options[c] === 0 : options[c] > 0))
    .sort((a, b) => options[a] - options[b] || Cards.points(b) - Cards.points(a));
}
export const ginCards = () => endOptions(true);
// The lifted card if it can knock, else the one leaving the least deadwood.
export function knockCard() {
  const cards = endOptions(false);
  return choice.lifted && cards.includes(choice.lifted) ? choice.lifted : cards[0] || null;
}
export function knock() {
  if (can("big-gin")) return act("big-gin");
  const card = knockCard();
  if (card) return act(`knock ${card}`);
  if (ginCards().length) return gin();
  const v = table.state().view;
  announce(myTurn() && v.phase === "discard"
    ? `You cannot knock: your deadwood is over the knock limit of ${Words.limit(v.knock_limit)}.`
    : "You can knock only when it is your turn to discard.", true);
}
export function gin() {
  if (can("big-gin")) return act("big-gin");
  const cards = ginCards();
  if (!cards.length) { announce("You cannot go gin with this hand.", true); return; }
  if (choice.lifted && cards.includes(choice.lifted)) return act(`knock ${choice.lifted}`);
  if (cards.length === 1) return act(`knock ${cards[0]}`);
  // Several discards go gin: the player chooses which.
  choice.ginChoice = true; choice.lifted = null;
  drawing.redraw("hand", "actions", "status");
  announce(`Go gin by discarding one of: ${cards.map(Cards.name).join(", ")}. Choose it and press Enter, or Escape.`);
  focusCard(cards[0]);
}
