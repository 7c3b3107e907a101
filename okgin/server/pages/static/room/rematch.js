// A rematch is an offer (docs/web.md#rooms): the first yes offers it, the others answer Accept
// or Leave the table, and the server deals the next game once every person seated has said yes
// (a computer player always does). The room frame's `rematch` lists the seats that said yes,
// the offer's first; this module turns it into the line and the buttons each person sees.
import { h } from "../dom.js";
import { list } from "../words.js";

const who = (room, seat, you) => (seat === you ? "you" : room.seats[seat].name);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The people seated who have not said yes yet (their seat numbers).
function waiting(room) {
  const yes = room.rematch || [];
  return room.seats.map((seat, index) => [seat, index])
    .filter(([seat, index]) => seat.kind === "person" && !yes.includes(index)).map(([, index]) => index);
}

// "Ann offers a rematch and Bob said yes: waiting for Cy." (null: no offer stands).
export function offerText(room, you) {
  const yes = room.rematch || [];
  if (room.phase !== "finished" || !yes.length) return null;
  const [first, ...rest] = yes;
  const said = [`${who(room, first, you)} ${first === you ? "offer" : "offers"} a rematch`,
    ...rest.map((seat) => `${who(room, seat, you)} said yes`)];
  const left = waiting(room);
  const end = you !== null && left.includes(you) ? ". Accept, or leave the table."
    : `: waiting for ${list(left.map((seat) => who(room, seat, you)))}.`;
  return capital(list(said)) + end;
}

// The line, for the game-over screen and the room's panel (null: nothing to say).
export function offerLine(room, you) {
  const text = offerText(room, you);
  return text ? h("p", { class: "rematch-line room-end", role: "status", text }) : null;
}

// The buttons for a person seated at a game's end: Offer a rematch (none offered yet) or
// Accept (another offered), and Leave the table; only Leave once they said yes.
export function answerButtons(room, you, { yes, leave }) {
  if (you === null || room.tournament || room.phase !== "finished") return [];
  const said = (room.rematch || []).includes(you);
  const buttons = [];
  if (!said) {
    buttons.push(h("button", { type: "button", class: "primary room-end", "data-key": "rematch",
      text: (room.rematch || []).length ? "Accept" : "Offer a rematch", on: yes }));
  }
  buttons.push(h("button", { type: "button", class: "room-end", "data-key": "leave-table",
    text: "Leave the table", on: leave }));
  return buttons;
}
