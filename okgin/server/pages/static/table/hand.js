// The player's hand: its order (the player's own, by rank, by suit, or the melds), the marks on
// each card (in a meld, just drawn, lifted, a gin's discard), fitting it to its room, and
// tapping, lifting, putting back and moving a card.
import * as Cards from "../cards.js";
import { $, h, setNodes } from "../dom.js";
import { bindCard } from "./drag.js";
import { focusCard, handCards } from "./focus.js";
import { act, can, discard, ginCards } from "./moves.js";
import { announce, choice, drawing, forgetting, table } from "./table.js";

let order = [], sortMode = "melds";
let newest = null, previousHand = []; // the card last added to the hand, and the hand before
// The hand's buttons, kept while their cards stay in the hand: a redraw creates only new cards.
const cardButtons = new Map();
let fitted = "";

// A new game, or a new hand: the player's order starts again (a new game's also sorts by melds).
forgetting.add((game) => {
  order = [];
  if (game) sortMode = "melds";
});
export function sortBy(mode) {
  sortMode = mode;
  if (mode !== "melds") syncOrder(table.state().view.hand);
  drawHand();
}
// Hand order: the player's own order, kept across states; new cards go at the end.
export function syncOrder(hand) {
  order = order.filter((c) => hand.includes(c));
  for (const c of hand) if (!order.includes(c)) order.push(c);
  if (sortMode === "rank") order.sort(Cards.byRank);
  if (sortMode === "suit") order.sort(Cards.bySuit);
}
function groups() {
  const arr = table.state().view.arrangement;
  if (sortMode === "melds") {
    const melds = arr.melds.map((m) => ({ meld: true, cards: m }));
    const loose = [...arr.unmatched].sort(Cards.bySuit);
    return [...melds, { meld: false, cards: loose }];
  }
  return [{ meld: false, cards: order }];
}
// The card this seat just took from the stock or the pile (marked until it discards).
function drawnCard() {
  const v = table.state().view;
  if (v.seat === null || v.phase !== "discard" || v.to_act !== v.seat) return null;
  if (v.taken) return v.taken;
  const last = v.history.at(-1) || "";
  return last.startsWith(`${v.seat} draw`) ? newest : null;
}
function trackNewest(hand) {
  const added = hand.filter((c) => !previousHand.includes(c));
  if (added.length === 1) newest = added[0];
  previousHand = [...hand];
}
// The card just drawn into this seat's hand (where a draw's flight lands).
export const newestCard = () => newest;

export function drawHand() {
  const state = table.state(), v = state.view, lifted = choice.lifted;
  trackNewest(v.hand);
  v.drawn = drawnCard();
  const inMeld = new Set((v.arrangement ? v.arrangement.melds : []).flat());
  const near = new Set(state.coach ? state.coach.near_melds.flat() : []);
  const melds = v.arrangement ? v.arrangement.melds.length : 0;
  const best = v.after_discard !== null;
  const dead = !v.arrangement ? null : best ? v.after_discard : v.arrangement.deadwood;
  setNodes($("deadwood"), JSON.stringify([dead, best, melds]), () => (dead === null ? [] : ["Deadwood ",
    h("b", {}, String(dead)), `${best ? " after your best discard" : ""} · ${melds} meld${melds === 1 ? "" : "s"}`]));
  const box = $("hand");
  if (v.seat === null) { box.replaceChildren(); cardButtons.clear(); return; }
  const gins = choice.ginChoice ? ginCards() : [];
  const wanted = groups();
  const flat = [];
  wanted.forEach((group, g) => {
    const div = box.children[g] || box.appendChild(document.createElement("div"));
    const cls = "group" + (group.meld ? " meld" : "");
    if (div.className !== cls) div.className = cls;
    if (group.meld) { div.setAttribute("role", "group"); div.setAttribute("aria-label", "meld"); }
    else { div.removeAttribute("role"); div.removeAttribute("aria-label"); }
    group.cards.forEach((code, i) => {
      const card = cardButton(code);
      const extra = [];
      card.classList.toggle("in-meld", inMeld.has(code));
      if (inMeld.has(code)) extra.push("in a meld");
      card.classList.toggle("drawn", code === v.drawn);
      if (code === v.drawn) extra.push(v.taken ? "just taken" : "just drawn");
      card.classList.toggle("lifted", code === lifted);
      if (code === lifted) extra.push("lifted");
      card.classList.toggle("gin-choice", gins.includes(code));
      if (gins.includes(code)) extra.push("discard to go gin");
      card.classList.toggle("near", near.has(code));
      card.classList.remove("dragging", "drop-before");
      const label = extra.length ? `${Cards.name(code)}, ${extra.join(", ")}` : Cards.name(code);
      if (card.getAttribute("aria-label") !== label) card.setAttribute("aria-label", label);
      card.setAttribute("aria-pressed", String(code === lifted));
      card.tabIndex = -1;
      // Moved only when out of place: a card moved in the document loses its focus.
      if (div.children[i] !== card) div.insertBefore(card, div.children[i] || null);
      flat.push(card);
    });
    while (div.children.length > group.cards.length) div.lastChild.remove();
  });
  while (box.children.length > wanted.length) box.lastChild.remove();
  for (const code of cardButtons.keys()) if (!v.hand.includes(code)) cardButtons.delete(code);
  choice.focusIndex = Math.min(choice.focusIndex, flat.length - 1);
  if (flat.length) flat[Math.max(choice.focusIndex, 0)].tabIndex = 0;
  // Laid out again only when its shape changed: a state that leaves the hand alone costs no layout.
  refit();
}
drawing.add("hand", drawHand);

function cardButton(code) {
  let card = cardButtons.get(code);
  if (!card) {
    card = Cards.face(code, "button");
    bindCard(card, { tap: () => tapCard(code), drop: (index) => moveCard(code, index), cancel: drawHand });
    cardButtons.set(code, card);
  }
  return card;
}
// Spread the hand: no overlap when there is room, else just enough to fit one row. Where one
// row would hide much of each card (a phone holding 10 or 11), two rows of whole cards instead:
// every corner readable, every card a full-size target for a finger.
// Its shape: the groups' sizes and the room it has (a side column or a resize changes that).
const handShape = () => `${[...$("hand").children].map((g) => g.children.length)}|${$("hand").clientWidth}|` +
  `${document.body.classList.contains("large")}`;
// Fits the hand again if its shape changed (a redraw, or the window resized).
export function refit() { if (handShape() !== fitted) fitHand(); }
function fitHand() {
  const box = $("hand");
  fitted = handShape();
  const cards = handCards();
  box.classList.remove("rows");
  box.style.setProperty("--overlap", "0px");
  if (!cards.length) return;
  const room = box.clientWidth;
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const needed = [...box.children].reduce((sum, g) => sum + g.getBoundingClientRect().width + gap, -gap);
  const joins = cards.length - box.children.length;
  if (needed > room && joins > 0) {
    const width = cards[0].getBoundingClientRect().width;
    const overlap = Math.min(width * 0.72, Math.ceil((needed - room) / joins) + 1);
    const perRow = Math.floor((room + gap) / (width + gap));
    if (overlap > width * 0.3 && 2 * perRow >= cards.length) box.classList.add("rows");
    else box.style.setProperty("--overlap", `${overlap}px`);
  }
}

function tapCard(code) {
  const v = table.state().view;
  choice.focusIndex = handCards().findIndex((el) => el.dataset.card === code);
  if (choice.ginChoice && ginCards().includes(code)) { act(`knock ${code}`); return; }
  if (choice.lifted === code && can(`discard ${code}`)) { discard(code); return; }
  if (choice.lifted === code && v.phase === "discard" && code === v.taken) {
    announce("You can't throw back the card you just took from the discard pile.", true);
  }
  choice.lifted = choice.lifted === code ? null : code;
  drawing.redraw("hand", "actions");
  focusCard(code);
}
// Escape: the gin's choice cancelled, or the lifted card put back. Whether there was one.
export function putBack() {
  if (choice.ginChoice) {
    choice.ginChoice = false;
    drawing.redraw("hand", "actions", "status");
    announce("Gin cancelled.");
    return true;
  }
  if (!choice.lifted) return false;
  const code = choice.lifted;
  choice.lifted = null;
  drawing.redraw("hand", "actions");
  focusCard(code);
  announce(`The ${Cards.name(code)} is back in your hand.`);
  return true;
}
export function moveCard(code, index) {
  const current = handCards().map((c) => c.dataset.card);
  const from = current.indexOf(code);
  current.splice(from, 1);
  current.splice(index > from ? index - 1 : index, 0, code);
  order = current; sortMode = "custom";
  drawHand(); focusCard(code);
  announce(`Moved the ${Cards.name(code)} to place ${current.indexOf(code) + 1}.`);
}
