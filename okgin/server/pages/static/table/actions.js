// The action buttons under the hand: the turn's choices (take, pass, draw, discard, Big Gin,
// gin, knock, a hint), "Show the result" once a hand is over, and "Last hand" in a room.
import * as Cards from "../cards.js";
import { coachAllowed } from "../coach-choice.js";
import { $, button } from "../dom.js";
import { act, can, discard, ginCards, knockCard, myTurn } from "./moves.js";
import { hasLastResult, showLast, showResult } from "./result-dialog.js";
import { choice, drawing, inRoom, send, table } from "./table.js";

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  const state = table.state(), v = state.view;
  if (v.result) { box.append(button(state.final ? "Show the final tally" : "Show the result", showResult, true)); return; }
  if (myTurn()) drawTurn(box, v);
  if (hasLastResult() && inRoom()) box.append(button("Last hand", showLast));
}
drawing.add("actions", drawActions);

function drawTurn(box, v) {
  const top = v.discards.at(-1);
  if (can("take") && (v.phase === "offer" || v.phase === "last-chance"))
    box.append(button(`Take the ${Cards.name(top)}`, () => act("take"), true, "D"));
  if (can("pass")) box.append(button("Pass", () => act("pass"), false, "S"));
  if (v.phase === "draw") {
    box.append(button("Draw from the stock", () => act("draw"), true, "S"));
    if (can("take")) box.append(button(`Take the ${Cards.name(top)}`, () => act("take"), false, "D"));
  }
  if (v.phase === "discard") drawEndings(box);
  if (coachAllowed()) box.append(button("Hint", () => send({ type: "hint" }), false, "H"));
}
function drawEndings(box) {
  const lifted = choice.lifted;
  const discarding = button(lifted ? `Discard the ${Cards.name(lifted)}` : "Discard (lift a card first)",
    () => lifted && discard(lifted), true);
  discarding.disabled = !lifted || !can(`discard ${lifted}`);
  box.append(discarding);
  if (can("big-gin")) box.append(button("Big Gin", () => act("big-gin"), true, "G"));
  const gins = ginCards();
  gins.slice(0, 4).forEach((c, i) =>
    box.append(button(`Gin, discarding the ${Cards.name(c)}`, () => act(`knock ${c}`), true, i === 0 ? "G" : "")));
  const k = knockCard();
  if (k) box.append(button(`Knock, discarding the ${Cards.name(k)}`, () => act(`knock ${k}`), true, "K"));
}
