// Press and hold, or drag, to move a card within the hand; a click that was no drag is a tap.
import { handCards } from "./focus.js";

function dropIndex(x) {
  const cards = handCards();
  const i = cards.findIndex((c) => { const r = c.getBoundingClientRect(); return x < r.left + r.width / 2; });
  return i < 0 ? cards.length : i;
}
function markDrop(x) {
  const cards = handCards();
  cards.forEach((c) => c.classList.remove("drop-before"));
  const i = dropIndex(x);
  if (cards[i]) cards[i].classList.add("drop-before");
}

// The card `el` (showing `code`): `tap()` on a click, `drop(index)` when dragged to the place
// `index` of the hand, `cancel()` when the drag is cancelled.
export function bindCard(el, { tap, drop, cancel }) {
  let start = null, timer = null, dragging = false, lastPointer = null;
  const beginDrag = () => { dragging = true; el.classList.add("dragging"); el.setPointerCapture?.(lastPointer); };
  el.addEventListener("pointerdown", (e) => {
    start = { x: e.clientX, y: e.clientY };
    lastPointer = e.pointerId;
    timer = setTimeout(() => beginDrag(), 450);
  });
  el.addEventListener("pointermove", (e) => {
    lastPointer = e.pointerId;
    if (!start) return;
    if (!dragging && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 12) { clearTimeout(timer); beginDrag(); }
    if (dragging) markDrop(e.clientX);
  });
  el.addEventListener("pointerup", (e) => {
    clearTimeout(timer);
    if (dragging) { e.preventDefault(); drop(dropIndex(e.clientX)); el.dataset.dragged = "1"; }
    start = null; dragging = false;
  });
  el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press moves the card
  el.addEventListener("pointercancel", () => { clearTimeout(timer); start = null; dragging = false; cancel(); });
  el.addEventListener("click", () => {
    if (el.dataset.dragged) { delete el.dataset.dragged; return; }
    tap();
  });
}
