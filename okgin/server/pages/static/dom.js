// The page's one way to find and build elements. Strings become text nodes, never markup (a
// name is data), so every page works under the `default-src 'self'` policy.
import { touchOnly } from "./words.js";

export const $ = (id) => document.getElementById(id);

// An element: `attrs` are attributes, but for `text` (its text) and `on` (a click listener);
// `children` are nodes or strings.
const listened = new WeakSet(); // elements given a click listener by h()
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") { node.addEventListener("click", value); listened.add(node); }
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// A button of the table: its label, what a click does, whether it is the primary choice, and
// its key (shown and announced, unless the device is touch only).
export function button(label, onClick, primary = false, key = "") {
  const b = h("button", { type: "button", text: label, on: onClick, ...(primary ? { class: "primary" } : {}) });
  if (key && !touchOnly()) {
    b.setAttribute("aria-keyshortcuts", key);
    b.append(" ", h("kbd", { "aria-hidden": "true", text: key }));
  }
  return b;
}

// A redraw writes only what changed: an unchanged box costs no style or layout work while a
// card is flying (a rebuilt table there missed frames: docs/performance.md). `key` is what the
// box shows; `build` makes its children when that changed.
const shown = new WeakMap();
export function setNodes(el, key, build) {
  if (shown.get(el) === key) return false;
  shown.set(el, key);
  el.replaceChildren(...build());
  return true;
}
export const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };

// Make `box`'s children the `fresh` nodes, keeping each node already drawn that is the same
// (isEqualNode): a click whose press and release straddle a redraw (another player's move
// arriving) lands on the button kept, where a rebuilt one would lose it, and focus stays. A
// changed element whose tag and attributes are the same, with no click listener, keeps its
// shell and is patched within.
export function patch(box, fresh) {
  const old = [...box.childNodes];
  if (old.length !== fresh.length) { box.replaceChildren(...fresh); return; }
  old.forEach((node, i) => {
    const next = fresh[i];
    if (node.isEqualNode(next)) return;
    if (sameShell(node, next)) patch(node, [...next.childNodes]);
    else node.replaceWith(next);
  });
}
function sameShell(a, b) {
  if (a.nodeType !== Node.ELEMENT_NODE || b.nodeType !== Node.ELEMENT_NODE || a.tagName !== b.tagName) return false;
  if (listened.has(a) || listened.has(b) || a.attributes.length !== b.attributes.length) return false;
  return [...a.attributes].every((attr) => b.getAttribute(attr.name) === attr.value);
}

// The children of `box` for these seats, in order, reusing those already drawn (each made by
// `make(seat)`, marked data-seat).
export function keyed(box, selector, seats, make) {
  const old = new Map([...box.querySelectorAll(selector)].map((el) => [el.dataset.seat, el]));
  const els = seats.map((seat) => old.get(String(seat)) || make(seat));
  els.forEach((el, i) => { if (box.children[i] !== el) box.insertBefore(el, box.children[i] || null); });
  while (box.children.length > els.length) box.lastChild.remove();
  return els;
}
export const seatBox = (className) => (seat) => h("div", { class: className, "data-seat": String(seat) });
