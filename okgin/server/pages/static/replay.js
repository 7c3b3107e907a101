// The replay viewer: a finished game (or an uploaded record) move by move, every hand face up.
// Keys: ← back, → forward, Home the deal, End the last move. The move is read out (live region).
// ?hand=N&move=M (the review's links) opens at hand N after its move M. A step where a seat is to
// play links to the analysis board at that seat's position (its hand, the moves every player saw).
import * as Cards from "./cards.js";
import { $, h } from "./dom.js";

let data = null, hand = 0, step = 0;

function load(promise) {
  promise.then(async (response) => {
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || "the record could not be read");
    if (!body.hands.length) throw new Error("the record has no finished hand to replay");
    data = body;
    $("replay-error").textContent = "";
    $("replay-hand").replaceChildren(...data.hands.map((h, i) => new Option(`Hand ${h.number}`, String(i))));
    $("viewer").hidden = false;
    // A review links here at one move: ?hand=N&move=M opens hand N after its move M.
    const asked = new URLSearchParams(location.search);
    const at = data.hands.findIndex((h) => String(h.number) === asked.get("hand"));
    show(Math.max(0, at), at >= 0 ? Number(asked.get("move")) || 0 : 0);
    $("replay-forward").focus();
  }).catch((error) => { $("replay-error").textContent = error.message; });
}

function show(h, s) {
  hand = h;
  const steps = data.hands[hand].steps;
  step = Math.max(0, Math.min(steps.length - 1, s));
  const at = steps[step];
  $("replay-hand").value = String(hand);
  $("replay-jump").max = String(steps.length - 1);
  $("replay-jump").value = String(step);
  $("replay-jump").setAttribute("aria-valuetext", `move ${step} of ${steps.length - 1}`);
  $("replay-position").textContent = `Move ${step} of ${steps.length - 1}`;
  $("replay-move").textContent = at.words;
  $("replay-back").disabled = step === 0;
  $("replay-first").disabled = step === 0;
  $("replay-forward").disabled = step === steps.length - 1;
  $("replay-last").disabled = step === steps.length - 1;
  drawTable(at);
  linkBoard(data.hands[hand], at);
}

// The analysis board's address for the seat to play at step `at` of hand `played` (none after
// the hand's end, past a reshuffle, or for house rules the board does not take).
function linkBoard(played, at) {
  const link = $("replay-analyse");
  const moves = played.moves.slice(0, at.move);
  const none = !data.board || at.to_act === null || moves.some((m) => m.startsWith("reshuffle"));
  $("replay-board").hidden = none; // the paragraph: the link itself is a 44 px control on touch
  if (none) return;
  const seat = at.to_act;
  link.href = "/analysis?" + new URLSearchParams({
    rules: data.rules, players: String(data.players), target: String(data.target), seat: String(seat), dealer: String(played.dealer),
    upcard: played.upcard, hand: at.hands[seat].join(" "), moves: moves.join("\n"), scores: played.scores.join(" "),
  }) + "#board-analysis";
  link.textContent = `Analyse this position for ${data.names[seat]} on the board`;
}

function row(codes, label) {
  return h("div", { class: "replay-row", role: "group", "aria-label": label }, ...codes.map((code) => {
    const card = Cards.face(code);
    card.classList.add("small");
    return card;
  }));
}

function drawTable(at) {
  const parts = at.hands.map((cards, seat) => h("section", { class: "replay-seat" },
    h("h2", { text: `${data.names[seat]}${at.to_act === seat ? " — to play" : ""}`, ...(at.to_act === seat ? { class: "to-act" } : {}) }),
    row(cards, `${data.names[seat]}'s cards: ${cards.map(Cards.name).join(", ")}`)));
  const top = at.discards.at(-1);
  parts.push(h("section", { class: "replay-seat" },
    h("h2", { text: `Discard pile (${at.discards.length}) · stock ${at.stock_count}` }),
    row(at.discards.slice(-8), `Discard pile, top card ${top ? Cards.name(top) : "none"}`)));
  $("replay-table").replaceChildren(...parts);
}

const move = (delta) => data && show(hand, step + delta);
$("replay-first").addEventListener("click", () => data && show(hand, 0));
$("replay-back").addEventListener("click", () => move(-1));
$("replay-forward").addEventListener("click", () => move(1));
$("replay-last").addEventListener("click", () => data && show(hand, Infinity));
$("replay-jump").addEventListener("input", () => data && show(hand, Number($("replay-jump").value)));
$("replay-hand").addEventListener("change", () => data && show(Number($("replay-hand").value), 0));
document.addEventListener("keydown", (event) => {
  if (!data || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("select, input[type=range]")) return;
  const keys = { ArrowLeft: () => move(-1), ArrowRight: () => move(1),
    Home: () => show(hand, 0), End: () => show(hand, Infinity) };
  if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
});

const game = $("viewer").dataset.game;
if (game) load(fetch(`/api/games/${encodeURIComponent(game)}/replay`));
const source = $("viewer").dataset.source; // a daily deal's five deals (/daily/<date>/replay/<code>)
if (source) load(fetch(source));
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (file) load(fetch("/api/replay", { method: "POST", body: await file.text(),
    headers: { "Content-Type": "application/json" } }));
});
