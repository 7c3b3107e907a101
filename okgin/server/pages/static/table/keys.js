// The table's keys (the Keys dialog lists them): ← → through the hand (with Shift, moving the
// card), Escape puts back, S D K G H play, ? opens the list.
import { coachAllowed } from "../coach-choice.js";
import { $ } from "../dom.js";
import { focusCard, handCards } from "./focus.js";
import { moveCard, putBack } from "./hand.js";
import { act, can, gin, knock } from "./moves.js";
import { choice, send, table } from "./table.js";

export function openKeys() {
  if ($("keys").open) return;
  document.querySelectorAll("dialog[open]").forEach((d) => d.close());
  $("keys").showModal();
}

function onKey(e) {
  if (e.key === "?" && !e.target.closest("input, select, textarea")) { e.preventDefault(); openKeys(); return; }
  if (e.target.closest && e.target.closest("dialog")) return; // dialogs handle their own keys
  if (!table.state() || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest("input, select, textarea")) return;
  const cards = handCards();
  const inHand = e.target.closest && e.target.closest("#hand");
  if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && cards.length) {
    e.preventDefault();
    const current = inHand ? cards.indexOf(e.target) : choice.focusIndex;
    const next = Math.max(0, Math.min(cards.length - 1, (current < 0 ? 0 : current) + (e.key === "ArrowRight" ? 1 : -1)));
    if (e.shiftKey && inHand) { moveCard(e.target.dataset.card, next > current ? next + 1 : next); return; }
    choice.focusIndex = next;
    focusCard(cards[next].dataset.card);
    return;
  }
  if (e.key === "Escape") { if (putBack()) e.preventDefault(); return; }
  const key = e.key.toLowerCase();
  const keys = { s: () => (can("draw") ? act("draw") : act("pass")), d: () => act("take"),
    h: () => coachAllowed() && send({ type: "hint" }), k: knock, g: gin };
  if (keys[key]) { e.preventDefault(); keys[key](); }
}
export const listenToKeys = () => document.addEventListener("keydown", onKey);
