// Quick phrases as bubbles: "Bob: Good game" shown for a few seconds by the sender's seat (its
// score on the table, on every screen size), in a layer of its own above the table that never
// takes a tap; read out once (the layer is a polite live region).
import { h } from "../dom.js";

const SHOWN_MS = 4000;
const layer = h("div", { id: "bubbles", "aria-live": "polite" });

function anchor(seat) {
  return document.querySelector(`#scores .score[data-seat="${seat}"]`);
}

// Places the bubble under its seat's score, kept inside the window.
function place(bubble, seat) {
  const at = anchor(seat);
  const box = at ? at.getBoundingClientRect() : { left: 8, bottom: 8, width: 0 };
  const width = bubble.offsetWidth;
  const left = Math.min(Math.max(4, box.left + box.width / 2 - width / 2), window.innerWidth - width - 4);
  bubble.style.left = `${Math.max(4, left) + window.scrollX}px`;
  bubble.style.top = `${box.bottom + 6 + window.scrollY}px`;
}

export function showBubble(seat, name, phrase) {
  if (!layer.isConnected) document.body.append(layer);
  layer.querySelector(`.bubble[data-seat="${seat}"]`)?.remove(); // one bubble a seat: the newest
  const bubble = h("p", { class: "bubble", "data-seat": String(seat), text: `${name}: ${phrase}` });
  layer.append(bubble);
  place(bubble, seat);
  setTimeout(() => bubble.remove(), SHOWN_MS);
}
