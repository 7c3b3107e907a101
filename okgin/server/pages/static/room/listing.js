// Open tables (docs/web.md): the host's choice when making a room ("Open table": listed on the
// Tables page, /tables, for anyone to join), the lobby's line saying so, and the list's one
// click: /r/<code>#sit takes the first free seat under the player's name (without a name known
// yet, the page goes to that seat's name field for it).
import { h } from "../dom.js";

// The room form's checkbox; `open()` reads it.
export function publicChoice() {
  const box = h("input", { type: "checkbox", id: "friends-public", name: "public" });
  const control = h("label", { class: "opt" }, box, " ",
    h("b", { text: "Open table" }), " (listed on Tables for anyone to join; else by its link only)");
  return { control, open: () => box.checked };
}

// The lobby's line for an open table (a private one says nothing: it is the default).
export function publicLine(room) {
  if (!room.listed || room.phase !== "lobby") return null;
  return h("p", { id: "public-line" }, "An open table: anyone may join it from ",
    h("a", { href: "/tables", text: "Tables" }), " until its seats are filled.");
}

// Arriving by the list's Join (#sit): once, at the first room frame, sit at the first free seat.
let fromList = location.hash === "#sit";
export function sitFromList(room, you, name, sit) {
  if (!fromList) return;
  fromList = false;
  history.replaceState(null, "", location.pathname);
  const free = room.seats.findIndex((seat) => seat.kind === "empty");
  if (you !== null || room.phase !== "lobby" || free < 0) return;
  if (name) { sit(free, name); return; }
  const field = document.querySelector(`#seats .seat[data-seat="${free}"] .seat-name`);
  if (field) field.focus();
}
