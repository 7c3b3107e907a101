// Focus: never left on <body> after a redraw, on the card the keys are on, onto a drawn card
// once its flight lands, and onto the new hand after a new game the player chose.
import { $ } from "../dom.js";
import { choice, table } from "./table.js";

export function handCards() { return [...$("hand").querySelectorAll(".card")]; }
export function focusCard(code) {
  const el = handCards().find((e) => e.dataset.card === code);
  if (el) { handCards().forEach((e) => (e.tabIndex = -1)); el.tabIndex = 0; el.focus(); }
}
export function focusInTable() {
  const a = document.activeElement;
  return !a || a === document.body || !!a.closest("#table");
}
// Returns the element focus is on afterwards. `landing`, a card about to fly in, is passed over.
export function keepFocus(hadFocus, landing = null) {
  const a = document.activeElement;
  if (!hadFocus || document.querySelector("dialog[open]")) return a;
  if (a && a !== document.body && a.isConnected && !a.disabled && a !== landing) return a;
  const cards = handCards().filter((c) => c !== landing);
  const v = table.state().view;
  const fresh = cards.find((c) => c.dataset.card === v.drawn);
  const target = fresh || cards[Math.max(0, Math.min(choice.focusIndex, cards.length - 1))] ||
    $("actions").querySelector("button") || $("new-game");
  if (target) { if (target.closest("#hand")) { cards.forEach((c) => (c.tabIndex = -1)); target.tabIndex = 0; } target.focus(); }
  return document.activeElement;
}
// The drawn card has landed: focus moves onto it, unless the player has moved focus meanwhile.
export function land(card, holder) {
  const a = document.activeElement;
  if (!card.isConnected || document.querySelector("dialog[open]")) return;
  if (a === holder || !a || a === document.body) focusCard(card.dataset.card);
}
// Closing a dialog must not leave focus on <body>: back to the hand, or the menu.
export function afterDialogs() {
  document.querySelectorAll("dialog").forEach((d) => d.addEventListener("close", () => setTimeout(() => {
    if (document.querySelector("dialog[open]")) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const card = handCards()[Math.max(0, choice.focusIndex)];
    (card || $("new-game")).focus();
  })));
}
// After New game or Rematch (new-game.js): once the new game's first state is drawn, focus
// goes to its hand, not left on the button that asked for it (the header's New game).
let newFrom; // the game a chosen new game replaces (undefined: none asked for)
export function focusHandOnDeal(game) { newFrom = game; }
table.onState((state) => {
  if (newFrom === undefined || state.game === newFrom || document.querySelector("dialog[open]")) return;
  const card = handCards()[0];
  if (!card) return;
  newFrom = undefined;
  choice.focusIndex = 0;
  focusCard(card.dataset.card);
});
