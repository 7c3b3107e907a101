// Rooms: "Play with friends", the lobby at /r/<code>, seats, the host's controls, who is away,
// the stake in play chips and the pool's split, the reconnect banner, quick phrases, the rematch
// and leaving the table. It joins the table through the table object (table/table.js): the
// socket's opening, messages and loss, the header's New game and the buttons at a game's end;
// it never draws the table itself.
import { coachChoice, coachLine } from "./coach-choice.js";
import { $, h, patch } from "./dom.js";
import { showBubble } from "./room/bubbles.js";
import { publicChoice, publicLine, sitFromList } from "./room/listing.js";
import { drawClock } from "./room/clock.js";
import { leaverLines, leftWords } from "./room/leavers.js";
import { answerButtons, offerLine, offerText } from "./room/rematch.js";
import { chipsSplit, stakeParts } from "./room/stake.js";
import * as Settings from "./settings.js";
import { table } from "./table/table.js";
import * as Words from "./words.js";

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{4,40})$/);
const code = match ? match[1] : null;
const tokenKey = (room) => `okgin.room.${room}`;
let room = null, you = null, ticking = null;
// The player's display name (docs/players.md), the same on every device; else this browser's last.
const playerName = () => document.querySelector('meta[name="okgin-name"]')?.content ||
  localStorage.getItem("okgin.name") || "";
// A refusal stands beside the control it answers (keyed, so a redraw keeps it) until that
// control is used again; `pending` maps a request's id to its control's key.
const errors = new Map(), pending = new Map();
let readyAt = new Map(); // seat -> when (page clock, ms) the host may let a computer play it

const tournamentLink = () => `/t/${encodeURIComponent(room.tournament)}`;
const sitAt = (seat, name) => request({ type: "sit", seat, name }, `sit-${seat}`);
// The table's send numbers the messages (ids only grow on a socket), so answers find their control.
function request(message, key) {
  errors.delete(key);
  const id = table.send(message);
  if (id !== undefined) pending.set(id, key);
}
const { sentence } = Words; // one way to make a message a sentence, for every script
// The control (an element or several) gets its refusal just after it, linked by aria-describedby.
function withError(key, ...controls) {
  if (!errors.has(key)) return controls;
  const id = `error-${key}`;
  for (const control of controls) {
    control.setAttribute("aria-describedby", id);
    if (control.tagName === "INPUT") control.setAttribute("aria-invalid", "true");
  }
  return [...controls, h("span", { id, class: "field-error room-error", text: errors.get(key) })];
}

// -- on the ordinary page: "Play with friends" ------------------------------------------
function offerRooms() {
  const nav = document.querySelector("header nav");
  if (!nav) return;
  const dialog = h("dialog", { id: "friends", "aria-labelledby": "friends-title" });
  const name = h("input", { id: "friends-name", name: "name", maxlength: "20", autocomplete: "nickname" });
  const seats = h("select", { id: "friends-seats", name: "seats" },
    ...[2, 3, 4].map((n) => h("option", { value: String(n), text: `${n} players` })));
  const timer = h("select", { id: "friends-timer", name: "timer" },
    h("option", { value: "", text: "No turn timer" }),
    ...[30, 60, 120].map((n) => h("option", { value: String(n), text: `${n} seconds a turn` })));
  const coach = coachChoice(), listed = publicChoice();
  const create = h("button", { type: "button", id: "friends-create", text: "Create the table", on: () => {
    if (!name.value.trim()) { name.focus(); return; }
    localStorage.setItem("okgin.name", name.value.trim());
    const rules = Settings.currentRules();
    request({ type: "create", name: name.value, players: Number(seats.value), rules,
              timer: timer.value ? Number(timer.value) : null, coach: coach.coach(), listed: listed.open() });
  } });
  name.value = playerName();
  dialog.append(h("h2", { id: "friends-title", text: "Play with friends" }),
    h("p", { text: "You get a link to send; friends open it, type their name and sit down. " +
                    "Empty seats can be filled with computer players." }),
    h("label", { class: "opt" }, h("b", { text: "Your name" }), " ", name),
    h("label", { class: "opt" }, h("b", { text: "Seats" }), " ", seats),
    h("label", { class: "opt" }, h("b", { text: "Turn timer" }), " ", timer), coach.control, listed.control,
    h("p", { class: "small", text: "The house rules you chose apply; a stake in play chips is set in the lobby." }),
    h("div", { class: "dialog-buttons" },
      h("button", { type: "button", text: "Cancel", on: () => dialog.close() }), create));
  document.body.append(dialog);
  nav.prepend(h("button", { type: "button", id: "play-friends", text: "Play with friends",
                             on: () => dialog.showModal() }));
  if (location.hash === "#friends") dialog.showModal();  // the site frame's "Play with friends"
}

// -- in a room ----------------------------------------------------------------------------
const panel = h("section", { id: "room", "aria-label": "Table", hidden: "" });
const banner = h("div", { id: "reconnect", role: "alert", hidden: "" }, "Connection lost: reconnecting…");
const said = h("div", { id: "said" }); // the last phrases, in words (each shown as a bubble: room/bubbles.js)

function seatRow(seat, index) {
  const row = h("li", { class: "seat", "data-seat": String(index) });
  const host = you === room.host && you !== null;
  const who = seat.kind === "empty" ? "Empty seat"
    : seat.left ? leftWords(room, seat, index)
    : seat.kind === "computer" ? `${seat.name} (computer, ${seat.level})` : seat.name;
  row.append(h("span", { class: "who", text: who + (index === room.host ? " · host" : "") +
                                              (index === you ? " · you" : "") }));
  if (seat.away) row.append(h("span", { class: "away", text: seat.stand_in
    ? ` · away: the computer plays for now (${seat.stand_in})` : " · away" }));
  if (room.phase === "lobby" && seat.kind === "empty" && you === null) {
    const key = `sit-${index}`;
    const name = h("input", { class: "seat-name", "aria-label": "Your name", placeholder: "Your name",
                                maxlength: "20", "data-key": `name-${index}` });
    name.value = playerName();
    const sitDown = h("button", { type: "button", class: "sit", text: "Take this seat", "data-key": key, on: () => {
      localStorage.setItem("okgin.name", name.value.trim());
      request({ type: "sit", seat: index, name: name.value }, key);
    } });
    row.append(...withError(key, name, sitDown));
  }
  if (host && room.phase === "lobby" && seat.kind !== "person") row.append(levelControl(index, seat));
  if (host && room.phase === "playing" && seat.away && !seat.stand_in && index !== you) row.append(...standIn(index));
  return row;
}

// The host may let a computer play an away seat once its player has been away long enough:
// until then the button is disabled and a countdown beside it says how long (see tick()).
function standIn(index) {
  const key = `stand-in-${index}`;
  const button = h("button", { type: "button", class: "stand-in", text: "Let the computer play", "data-key": key,
                                on: () => request({ type: "computer", seat: index, level: "normal" }, key) });
  const countdown = h("span", { id: `takeover-${index}`, class: "takeover", "data-seat": String(index) });
  const controls = withError(key, button);
  button.setAttribute("aria-describedby", [countdown.id, button.getAttribute("aria-describedby")].filter(Boolean).join(" "));
  return [...controls, countdown];
}

function levelControl(index, seat) {
  const level = h("select", { class: "level", "aria-label": `Computer level for seat ${index + 1}`, "data-key": `level-${index}` },
    ...room.levels.map((l) => h("option", { value: l, text: l })));
  level.value = seat.level || "normal";
  const key = `computer-${index}`;
  const add = h("button", { type: "button", class: "add-computer", "data-key": key,
    text: seat.kind === "computer" ? "Change" : "Add computer player",
    on: () => request({ type: "computer", seat: index, level: level.value }, key) });
  const box = h("span", { class: "controls" }, level, ...withError(key, add));
  if (seat.kind === "computer") {
    box.append(h("button", { type: "button", class: "remove", text: "Remove", "data-key": `clear-${index}`,
                              on: () => request({ type: "clear", seat: index }, `clear-${index}`) }));
  }
  return box;
}

function draw() {
  // A redraw keeps what the player typed and where their focus was.
  const focused = document.activeElement && panel.contains(document.activeElement)
    ? document.activeElement.dataset.key : null;
  const kept = ".seat-name, select.level, .stake-field";
  const typed = new Map([...panel.querySelectorAll(kept)].map((i) => [i.dataset.key, i.value]));
  drawPanel();
  for (const input of panel.querySelectorAll(kept)) {
    if (typed.has(input.dataset.key)) input.value = typed.get(input.dataset.key);
  }
  const again = focused && panel.querySelector(`[data-key="${focused}"]`);
  if (again) again.focus();
  tick();
}

function drawPanel() {
  panel.hidden = false;
  document.body.dataset.roomPhase = room.phase;
  document.title = `Oklahoma Gin — a table for ${room.seats.length} with friends`;
  // The header from the room's own rules and target, until the table (game.js) says who plays.
  if (room.phase === "lobby" || !table.state()) {
    $("tagline").textContent = Words.tagline({ who: `A table for ${room.seats.length}`,
      rules: room.rules, target: room.target });
  }
  const link = `${location.origin}/r/${room.code}`;
  const input = h("input", { id: "room-link", readonly: "", value: link, "aria-label": "Invite link", "data-key": "link" });
  const copy = h("button", { type: "button", id: "copy-link", text: "Copy link", "data-key": "copy", on: async () => {
    input.select();
    try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch { /* selected */ }
  } });
  const parts = [h("h2", { text: room.phase === "lobby" ? "Waiting for players" : "At the table" })];
  if (room.phase === "lobby") parts.push(h("p", { class: "invite" }, "Invite friends: ", input, " ", copy), rulesLine());
  parts.push(h("ul", { id: "seats" }, ...room.seats.map(seatRow)));
  const [line, box] = stakeParts(room, you, { withError, request });
  if (line) parts.push(line);
  if (room.phase === "lobby" && !room.tournament) parts.push(coachLine(room), ...[publicLine(room)].filter(Boolean));
  const buttons = h("div", { class: "room-buttons" });
  if (room.phase === "lobby" && you === room.host) {
    buttons.append(...withError("start", h("button", { type: "button", id: "start-game", text: "Start game",
                                class: "primary", "data-key": "start", on: () => request({ type: "start" }, "start") })));
  }
  if (you === null) parts.push(watcherLine());
  if (room.tournament) {
    // A tournament's table plays one match: its page has the standings and the next round.
    parts.push(h("p", { class: "tournament" }, h("a", { id: "tournament-link", href: tournamentLink(),
      text: room.phase === "finished" ? "Back to the tournament" : "The tournament's standings" })));
  } else if (room.phase === "finished") {
    const offer = offerLine(room, you);
    if (offer) parts.push(offer);
    buttons.append(...withError("rematch", ...rematchButtons()));
  }
  if (you !== null) {
    buttons.append(...room.phrases.map((p) => h("button", { type: "button", class: "phrase", text: p, "data-key": `say-${p}`,
                                                             on: () => request({ type: "say", phrase: p }) })));
  }
  // The host's stake box after the buttons: Start game stays in the window on a phone.
  parts.push(buttons, ...(box ? [box] : []), h("p", { id: "turn-timer", hidden: "" }), said);
  patch(panel, parts);
}

// The lobby says the rules and the target in words before anyone sits (and links How to play).
function rulesLine() {
  const rules = typeof room.rules === "string" ? room.rules : JSON.stringify(room.rules);
  return h("p", { id: "room-rules" }, `The rules: ${Words.rulesName(room.rules)}, first to ${room.target} points`,
    room.timer ? `, ${room.timer} seconds a turn. ` : ". ",
    h("a", { href: `/how-to-play?rules=${encodeURIComponent(rules)}`, target: "_blank", rel: "noopener",
             text: "How these rules play" }));
}
// What a spectator is told: a seat to take, a full table, or a game they watch.
function watcherLine() {
  const full = !room.seats.some((seat) => seat.kind === "empty");
  const text = room.phase !== "lobby" ? "You are watching this table."
    : full ? "The table is full: you can watch the game from here." : "Take a seat, or watch.";
  return h("p", { id: "watcher-line", text });
}
// A game over: Offer a rematch or Accept, and Leave the table (room/rematch.js).
function rematchButtons() {
  return answerButtons(room, you, {
    yes: () => request({ type: "rematch" }, "rematch"), // the game-over screen stays, to follow the answers
    leave: () => { if ($("result").open) $("result").close(); askLeave(); },
  });
}

// Once a second: the turn timer, and each away seat's countdown to a computer player.
function tick() {
  clearInterval(ticking);
  const line = $("turn-timer");
  const countdowns = [...panel.querySelectorAll(".takeover")];
  drawClock(room);
  if ((!room.deadline || !line) && !countdowns.length) return;
  const update = () => {
    const left = drawClock(room); // at the seat whose turn it is, on every screen
    if (line) line.hidden = left === null;
    if (left !== null && line) line.textContent = `${left} seconds left for this turn`;
    for (const countdown of countdowns) {
      const seat = Number(countdown.dataset.seat);
      const wait = Math.max(0, Math.ceil(((readyAt.get(seat) || 0) - Date.now()) / 1000));
      countdown.textContent = wait ? ` A computer player may take over in ${wait} s.`
        : ` ${room.seats[seat].name} has been away long enough: a computer player may take over now.`;
      countdown.closest(".seat").querySelector(".stand-in").disabled = wait > 0;
    }
  };
  update();
  ticking = setInterval(update, 1000);
}

// -- leaving the table ------------------------------------------------------------------
// In a room the header's New game (and the game-over screen) offer only what the room allows:
// a rematch's answer when the game is over, and Leave table, confirmed here.
const leaveDialog = h("dialog", { id: "leave", "aria-labelledby": "leave-title" });
let opener = null;
// Closing it gives focus back to what opened it (never to <body>).
leaveDialog.addEventListener("close", () => setTimeout(() => {
  if (document.querySelector("dialog[open]") || (document.activeElement && document.activeElement !== document.body)) return;
  const back = opener && opener.isConnected && !opener.closest("dialog") ? opener : $("new-game");
  if (back) back.focus();
}));
function askLeave() {
  if (!room || leaveDialog.open) return;
  opener = document.activeElement;
  const seated = you !== null;
  const after = !seated ? "You stop watching this table."
    : room.phase === "lobby" ? "Your seat is emptied for someone else to take."
    : room.phase === "finished" ? "A computer player takes your seat (it says yes to any rematch), and the others are told."
    : "A computer player takes your seat for the rest of the game, and the others are told.";
  const buttons = h("div", { class: "dialog-buttons" });
  const yes = seated && room.phase === "finished" && !room.tournament && !(room.rematch || []).includes(you);
  if (yes) {
    buttons.append(h("button", { type: "button", class: "primary", text: (room.rematch || []).length ? "Accept the rematch" : "Offer a rematch", on: () => {
      leaveDialog.close(); request({ type: "rematch" }, "rematch");
    } }));
  }
  buttons.append(h("button", { type: "button", text: "Stay at the table", on: () => leaveDialog.close() }),
    ...withError("leave", h("button", { type: "button", id: "leave-confirm", text: "Leave table", on: leave })));
  leaveDialog.replaceChildren(h("h2", { id: "leave-title", text: "Leave the table?" }),
    h("p", { text: `${after} To play against the computer, leave the table first.` }), buttons);
  document.querySelectorAll("dialog[open]").forEach((d) => d.close());
  leaveDialog.showModal();
}
function leave() {
  if (you === null) { location.assign("/"); return; }
  request({ type: "leave" }, "leave");
}
function left() {
  localStorage.removeItem(tokenKey(code));
  location.assign("/");
}
// Who left since the last frame: a line at the table, read out (the seat row says it too).
function tellLeavers(before, after) {
  for (const text of leaverLines(before, after)) said.prepend(h("p", { class: "left-line", text }));
}

function receive(message) {
  if (message.type === "room") {
    banner.hidden = true;
    tellLeavers(room, message);
    room = message;
    you = message.you;
    readyAt = new Map(message.seats.map((s, i) => [i, Date.now() + 1000 * (s.takeover_in || 0)]));
    if (code) { draw(); refreshGameOver(); sitFromList(room, you, playerName(), sitAt); }
  } else if ((message.type === "ack" || message.type === "error") && pending.has(message.id)) {
    const key = pending.get(message.id);
    pending.delete(message.id);
    if (message.type === "error") errors.set(key, sentence(message.message));
    else if (key === "leave") left();
    if (room && code) draw();
    if (key === "leave" && message.type === "error" && leaveDialog.open) { leaveDialog.close(); askLeave(); }
  } else if (message.type === "joined" && message.room && !message.solo) {
    if (message.token) localStorage.setItem(tokenKey(message.room), message.token);
    if (!code) location.assign(`/r/${message.room}`);
  } else if (message.type === "said") {
    said.prepend(h("p", { text: `${message.name}: ${message.phrase}` }));
    while (said.children.length > 4) said.lastChild.remove();
    if (code) showBubble(message.seat, message.name, message.phrase);
  } else if (message.type === "error" && code && message.code === "bad_token") {
    localStorage.removeItem(tokenKey(code));
    request({ type: "enter", room: code });
  } else if (message.type === "error" && code && message.code === "no_room") {
    panel.hidden = false;
    panel.replaceChildren(h("h2", { text: "No such table" }),
      h("p", { text: "Check the link, or " }, h("a", { href: "/", text: "play against the computer" })));
  }
}

table.onOpen(() => {
  if (!code) return;
  const token = localStorage.getItem(tokenKey(code));
  request({ type: "enter", room: code, ...(token ? { token } : {}) });
});
table.onMessage(receive);
// At the end of a room's game the result offers what the room allows: a rematch (same room, same
// seats) to offer or accept, and Leave the table; never a new game against the computer.
function gameOverButtons() {
  if (room && room.tournament) return [h("a", { class: "button primary room-end", href: tournamentLink(), text: "Back to the tournament" })];
  if (!room) return [];
  const offer = offerLine(room, you);
  return [...rematchButtons(), ...(offer ? [offer] : [])];
}
// The game-over screen follows the answers to a rematch: its room part drawn again (focus kept
// on the answer buttons), and an offer read out.
let offerSaid = null, phaseSeen = null;
function refreshGameOver() {
  const box = $("result-buttons");
  const dealt = phaseSeen === "finished" && room.phase === "playing";
  phaseSeen = room.phase;
  if (dealt && $("result").open) $("result").close(); // everyone said yes: the rematch is on
  const text = offerText(room, you);
  if (text && text !== offerSaid && room.phase === "finished") table.announce(text);
  offerSaid = text;
  if (!box || !$("result").open || box.dataset.past === "yes" || room.phase !== "finished") return;
  const focused = box.contains(document.activeElement) && document.activeElement.classList.contains("room-end");
  const others = [...box.children].filter((el) => !el.classList.contains("room-end"));
  const close = others.pop();
  patch(box, [...others, ...gameOverButtons(), close]); // unchanged buttons stay (dom.js patch)
  const now = [...box.querySelectorAll(".room-end")];
  if (focused && !now.includes(document.activeElement)) (now.find((el) => el.tagName === "BUTTON") || close).focus();
}
// A staked game's end also shows each seat's chips from the pool.
table.onHandOver((state) => {
  if (!code || !state.final) return;
  const split = chipsSplit(room, state.game);
  if (split) $("result-body").append(split);
});
table.onClose(() => { if (code) banner.hidden = false; });
table.onState(() => { if (code && room) drawClock(room); });

// The table knows before its socket opens that this page belongs to a room.
if (code) table.inRoom(code, { newGame: askLeave, gameOverButtons });
const start = () => {
  if (code) {
    document.querySelector("header").after(banner);
    // Beside the table on a wide screen; on a phone folded into the header's Menu (table.css).
    ($("side") || document.querySelector("main")).prepend(panel);
    document.body.append(leaveDialog);
    const header = $("new-game");
    if (header) header.textContent = "Leave table";
  } else {
    offerRooms();
  }
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
