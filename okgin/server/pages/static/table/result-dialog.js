// The result dialog: each hand's end (drawn by result.js) with its buttons (Next hand, or at the
// game's end Rematch and New game, or what the room offers), the buttons the coach contributes,
// and the last hand's result kept under "Last hand" when the table moves on.
import { $, button } from "../dom.js";
import * as Motion from "../motion.js";
import * as Result from "../result.js";
import * as Words from "../words.js";
import { myTurn } from "./moves.js";
import { chooseNewGame } from "./new-game.js";
import { announce, contributedButtons, forgetting, inRoom, send, table, tell } from "./table.js";

let resultShown = null; // the hand number whose result was shown
let lastResult = null; // the state whose end-of-hand screen was last shown (reopened by "Last hand")

forgetting.add((game) => {
  resultShown = null;
  if (game && $("result").open) $("result").close();
});
export const hasLastResult = () => lastResult !== null;

// After a state is drawn: its result shown once, or an open result folded away.
export function followResult() {
  const state = table.state();
  if (state.view.result && resultShown !== state.hand_number) showResult();
  if (!state.view.result && $("result").open) keepResult();
}

// The buttons at a game's end: the room's if the table is a room's, else Rematch (the same
// rules and opponents as the game just played) and New game.
function gameOverButtons(state) {
  const room = inRoom();
  if (room) return room.gameOverButtons(state);
  const close = () => $("result").close();
  return [button("Rematch", () => { close(); chooseNewGame(state.rules, state.levels); }, true),
    button("New game", () => { close(); chooseNewGame(); })];
}
export function showResult() {
  const state = table.state();
  resultShown = state.hand_number;
  lastResult = state;
  const spoken = Result.render(state);
  const buttons = $("result-buttons");
  delete buttons.dataset.past;
  const close = () => $("result").close();
  const own = state.final ? gameOverButtons(state)
    : [button("Next hand", () => { close(); send({ type: "next" }); }, true)];
  if (!state.final) own[0].dataset.sends = "next"; // disabled while the connection is lost (offline.js)
  own.push(button("Close", close));
  buttons.replaceChildren(...contributedButtons(state), ...own);
  openOver(state, own[0]);
  const outcome = state.view.result.outcome;
  if (outcome === "gin" || outcome === "big-gin") Motion.sound("gin");
  announce(spoken);
  tell("handOver", state);
}
// The result opens with ``first`` focused, at its top (the winner and the tally first), but
// never over a dialog the person opened (Play with friends, Options, Keys...): it waits until
// that one is closed, and opens then if the table still shows that state.
function openOver(state, first) {
  const result = $("result");
  const other = [...document.querySelectorAll("dialog[open]")].find((d) => d !== result);
  if (other) {
    const still = () => lastResult === state && resultShown === state.hand_number && table.state().view.result;
    other.addEventListener("close", () => { if (still()) openOver(state, first); }, { once: true });
    return;
  }
  if (!result.open) result.showModal();
  first.focus();
  $("result-body").scrollTop = 0;
}
// A hand's end screen stays when another player deals the next hand, until its reader closes
// it or the new hand needs them: then it folds into the "Last hand" button (actions.js).
function keepResult() {
  if (myTurn()) { $("result").close(); announce("Your turn. The last hand's result is under Last hand."); return; }
  pastResult();
}
function pastResult() {
  const buttons = $("result-buttons");
  if (buttons.dataset.past === "yes") return;
  buttons.dataset.past = "yes";
  buttons.replaceChildren(button("Back to the table", () => $("result").close(), true));
}
export function showLast() {
  Words.use(lastResult);
  Result.render(lastResult);
  Words.use(table.state());
  delete $("result-buttons").dataset.past;
  pastResult();
  $("result").showModal();
  $("result-buttons").querySelector("button").focus();
}
