// Showing one state: every part of the table redrawn (each writes only what changed), the move
// told and flown, focus kept, and the hand's result shown when it ends.
import { $, setText } from "../dom.js";
import * as Words from "../words.js";
import { animate, where } from "./flights.js";
import { focusInTable, handCards, keepFocus, land } from "./focus.js";
import { syncOrder } from "./hand.js";
import { followResult } from "./result-dialog.js";
import { dealText, describe } from "./status.js";
import { announce, choice, drawing, forgetting, setShown, table, tell } from "./table.js";
import "./actions.js";
import "./opponents.js";
import "./piles.js";
import "./scores.js";
import "./sheet.js";

// The seat whose move `event` is ("1 draw"), or null for the deal or a reshuffle.
export const seatOf = (event) => (event && /^\d/.test(event) ? Number(event.split(" ")[0]) : null);

export function drawAll() {
  const state = table.state(), v = state.view;
  drawing.redraw("scores", "opponents", "middle", "hand", "actions", "sheet", "status");
  setText($("tagline"), Words.tagline({ names: state.names, seat: v.seat, rules: state.rules, target: v.target }));
  document.body.classList.toggle("touch", Words.touchOnly());
  $("howto-link").href = `/how-to-play?game=${encodeURIComponent(state.game)}`;
}

export async function show(message) {
  const before = table.state();
  const fresh = !before || before.game !== message.game || before.hand_number !== message.hand_number;
  const places = where();
  setShown(message);
  Words.use(message);
  const view = message.view;
  view.hand = view.hand || []; // a spectator has no hand and no moves
  view.legal = view.legal || [];
  if (fresh) forgetting.all(false);
  document.body.dataset.turn = "others";
  document.body.dataset.seq = String(Number(document.body.dataset.seq || 0) + 1);
  document.body.classList.toggle("spectator", view.seat === null);
  syncOrder(view.hand);
  if (choice.lifted && !view.hand.includes(choice.lifted)) choice.lifted = null;
  const hadFocus = focusInTable();
  $("play").setAttribute("aria-busy", "false");
  drawAll();
  // The card this seat just drew or took is hidden while its copy flies in: focus waits on a
  // card in sight and moves to it once it lands.
  const landing = hadFocus && /^\d+ (draw|take)$/.test(message.event || "") && seatOf(message.event) === view.seat
    ? handCards().find((c) => c.classList.contains("drawn")) : null;
  const holder = keepFocus(hadFocus, landing);
  if (fresh) announce(dealText());
  else if (message.event) announce(describe(message.event, before));
  tell("state", message);
  await animate(message.event, fresh, places, before);
  if (landing) land(landing, holder);
  followResult();
}
