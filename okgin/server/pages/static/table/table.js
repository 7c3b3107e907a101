// The table object: what the other parts of the page (the coach, a room) may use of the table,
// and the little the table's own modules share. The coach and the room contribute buttons and
// warnings here, by name; none of them reads the table's labels or relies on listener order.
import { send } from "../connection.js";
import { $, h } from "../dom.js";

let shown = null; // the state on the table (the last one shown)
const listeners = { open: [], message: [], state: [], handOver: [], close: [] };
const discardChecks = [], resultButtons = [];
let room = null; // { code, newGame, gameOverButtons } on a room's page (table.inRoom)

// The player's choice in progress, shared by the hand, its buttons and the keys: the card lifted
// (to discard), whether a gin's discard is being chosen, and the card the keys are on.
export const choice = { lifted: null, ginChoice: false, focusIndex: 0 };

// What each module forgets when a new hand is dealt (`game` false) or a new game is asked for
// (`game` true).
const forgetters = [() => { choice.lifted = null; choice.ginChoice = false; }];
export const forgetting = {
  add: (forget) => forgetters.push(forget),
  all: (game) => forgetters.forEach((forget) => forget(game)),
};

// The table's renderers by name ("hand", "actions", "status"...), so a module redraws a part
// without importing the module that draws it.
const renderers = new Map();
export const drawing = {
  add: (name, draw) => renderers.set(name, draw),
  redraw: (...names) => names.forEach((name) => renderers.get(name)()),
};

// Speaks `text` in the live region (its last five sentences kept); `polite`, also in the status line.
export function announce(text, polite = false) {
  const live = $("live");
  live.append(h("p", { text }));
  while (live.children.length > 5) live.firstChild.remove();
  if (polite) $("status").textContent = text;
}
export { send };
export function setStatus(text) { $("status").textContent = text; }
export function setShown(state) { shown = state; }
export const tell = (kind, detail) => listeners[kind].forEach((fn) => fn(detail));

export const table = {
  // Sends a message to the server; returns its id (numbered messages), by which its answer is known.
  send,
  // The state shown on the table (null before the first).
  state: () => shown,
  // Speaks a sentence in the live region (and, `polite`, writes it in the status line).
  announce,
  // fn(state) after each state is drawn.
  onState: (fn) => listeners.state.push(fn),
  // fn(message) for every message from the server, before the table handles it.
  onMessage: (fn) => listeners.message.push(fn),
  // fn() when the socket opens (before the table joins its game), fn() when it closes.
  onOpen: (fn) => listeners.open.push(fn),
  onClose: (fn) => listeners.close.push(fn),
  // fn(state) when the result dialog shows a hand's result.
  onHandOver: (fn) => listeners.handOver.push(fn),
  // check(card) before the player's discard of `card` (the lifted card tapped again, or the
  // Discard button) is sent: true when it holds the discard back (and sends it later, or not).
  beforeDiscard: (check) => discardChecks.push(check),
  // make(state): buttons placed first in the result dialog, before the table's own.
  addResultButtons: (make) => resultButtons.push(make),
  // On a room's page (/r/<code>): the header's New game (and House rules' start) calls
  // `newGame` instead of starting a game against the computer, and at a game's end the result
  // dialog offers `gameOverButtons(state)` in place of Rematch and New game (then its Close).
  inRoom: (code, { newGame, gameOverButtons }) => {
    room = { code, newGame, gameOverButtons };
    document.body.dataset.room = code;
  },
};

export const inRoom = () => room;
// Whether a contributor holds back the discard of `card`.
export const discardHeld = (card) => discardChecks.some((check) => check(card));
export const contributedButtons = (state) => resultButtons.flatMap((make) => make(state));
