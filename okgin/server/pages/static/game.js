// The game page: one WebSocket to the server, which holds the game; this page only shows the
// view of its seat (state.view.seat; null for a spectator) and sends the player's choices.
// This module wires the connection to the table (static/table/) and the header's controls; the
// coach (coach.js) and a room (room.js) join in through the table object (table/table.js).
import { connect } from "./connection.js";
import { $ } from "./dom.js";
import * as Motion from "./motion.js";
import * as Result from "./result.js";
import * as Settings from "./settings.js";
import * as Words from "./words.js";
import { afterDialogs } from "./table/focus.js";
import { refit, sortBy } from "./table/hand.js";
import { listenToKeys, openKeys } from "./table/keys.js";
import { markMenuRow } from "./table/menu-more.js";
import { placeMenuPanel } from "./table/menu-panel.js";
import { act, can } from "./table/moves.js";
import { chooseNewGame, newGame } from "./table/new-game.js";
import { connectionBack, connectionLost } from "./table/offline.js";
import { queueState } from "./table/pacing.js";
import { drawPileViewer } from "./table/piles.js";
import { announce, drawing, inRoom, send, setStatus, table, tell } from "./table/table.js";

const GAME_KEY = "okgin.game", TOKEN_KEY = "okgin.token"; // this browser's game against the computer

function opened({ newWhileAway }) {
  connectionBack();
  tell("open"); // a room's page (/r/<code>) enters the room itself
  const game = localStorage.getItem(GAME_KEY);
  if (inRoom()) { /* room.js has sent "enter" */ }
  else if (newWhileAway) send(newWhileAway); // the player's choice wins
  else if (game) send({ type: "join", game, token: localStorage.getItem(TOKEN_KEY) || undefined });
  else newGame();
  send({ type: "options", coach: !!Settings.options.coach });
}
function receive(message) {
  tell("message", message);
  if (message.type === "joined") {
    if (message.solo) localStorage.setItem(GAME_KEY, message.game);
    if (message.solo && message.token) localStorage.setItem(TOKEN_KEY, message.token);
    return;
  }
  if (message.type === "state") { queueState(message); return; }
  if (message.type === "hint") { announce(Words.spoken(message.text), true); return; }
  if (message.type === "error") {
    if (["no_game", "bad_token"].includes(message.code) && !inRoom()) {
      localStorage.removeItem(GAME_KEY); newGame(); return;
    }
    announce(Words.sentence(message.message), true);
  }
}
function closed() {
  tell("close");
  setStatus("Connection lost: reconnecting…");
  connectionLost(); // the banner (a room shows its own) and the move buttons disabled
}

// -- the header and the table's own controls ------------------------------------------------
function gameInProgress() {
  const state = table.state();
  return state && !state.final && !(state.sheet.length === 0 && state.view.history.length === 0);
}
function askNewGame() {
  // In a room a new game is the room's to deal: room.js offers Rematch or Leave table instead.
  const room = inRoom();
  if (room) { room.newGame(); return; }
  gameInProgress() ? $("confirm").showModal() : chooseNewGame();
}
$("new-game").addEventListener("click", askNewGame);
$("confirm").addEventListener("close", () => { if ($("confirm").returnValue === "new") chooseNewGame(); });
$("open-options").addEventListener("click", () => { Settings.fillOptions(); $("options").showModal(); });
$("open-rules").addEventListener("click", () => { Settings.drawRules(); $("rules").showModal(); });
$("open-keys").addEventListener("click", openKeys);
$("pile-open").addEventListener("click", () => { drawPileViewer(); $("pile").showModal(); });
$("menu-toggle").addEventListener("click", () => {
  const open = $("menu-toggle").getAttribute("aria-expanded") !== "true";
  $("menu-toggle").setAttribute("aria-expanded", String(open));
  document.body.classList.toggle("menu-open", open);
  placeMenuPanel();
});
markMenuRow($("game-nav"));
$("stock").addEventListener("click", () => (can("draw") ? act("draw") : act("pass")));
$("sort-rank").addEventListener("click", () => sortBy("rank"));
$("sort-suit").addEventListener("click", () => sortBy("suit"));
$("sort-melds").addEventListener("click", () => sortBy("melds"));
listenToKeys();
afterDialogs();
new ResizeObserver(() => { if (table.state()) refit(); }).observe($("hand"));
Settings.onChange((options) => {
  send({ type: "options", coach: !!options.coach });
  if (table.state()) drawing.redraw("hand");
});
Settings.onNewGame(() => askNewGame());
// For the browser tests and a console only (no module of the page reads it): the table object
// and the modules the tests read.
window.Okgin = { ...table, Settings, Words, Result, Motion };
document.body.classList.toggle("touch", Words.touchOnly());
Settings.init();
// Connect once every module script (room.js, coach.js, after this one) has run and joined the
// table, so each hears the socket's first messages: DOMContentLoaded comes after the last of
// them. (While this one runs the document is already "interactive", and a socket opened now
// could open while room.js is still being fetched: a room's page then never entered its room.)
const start = () => connect({ open: opened, message: receive, close: closed });
if (document.readyState === "complete") start();
else document.addEventListener("DOMContentLoaded", start);
