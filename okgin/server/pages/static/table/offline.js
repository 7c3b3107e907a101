// A lost connection, shown: a banner under the header (a room's page has its own, room.js) and
// every button that would send a move disabled (the stock, the pile, the action buttons, Next
// hand), also those drawn while the connection is down; a move by key or by tapping a card is
// refused with a sentence (moves.js). All comes back when the socket opens again.
import { $, h } from "../dom.js";
import { focusCard, handCards } from "./focus.js";
import { choice, inRoom } from "./table.js";

const SENDING = "#actions button, #stock, #discard button, #result-buttons button[data-sends]";
const HOLDERS = ["actions", "discard", "result-buttons"];
const banner = h("div", { id: "offline", role: "alert", hidden: "" },
  "Connection lost: reconnecting… Your moves are back as soon as the table is.");
let lost = false;

export const offline = () => lost;

function hold() {
  const focused = document.activeElement;
  for (const b of document.querySelectorAll(SENDING)) {
    if (b.disabled) continue;
    b.disabled = true;
    b.dataset.offline = "held";
  }
  // A disabled button drops the focus to <body>: it goes to the hand instead.
  if (focused && focused.dataset && focused.dataset.offline === "held") {
    const cards = handCards();
    if (cards.length) focusCard(cards[Math.max(0, Math.min(choice.focusIndex, cards.length - 1))].dataset.card);
  }
}
const watcher = new MutationObserver(() => { if (lost) hold(); });

export function connectionLost() {
  if (!lost) {
    lost = true;
    document.body.classList.add("offline");
    if (!inRoom()) {
      if (!banner.isConnected) document.querySelector("header").after(banner);
      banner.hidden = false;
    }
    HOLDERS.forEach((id) => $(id) && watcher.observe($(id), { childList: true }));
  }
  hold();
}
export function connectionBack() {
  if (!lost) return;
  lost = false;
  watcher.disconnect();
  document.body.classList.remove("offline");
  banner.hidden = true;
  for (const b of document.querySelectorAll("[data-offline=held]")) {
    b.disabled = false;
    delete b.dataset.offline;
  }
}
