// On a phone the open Menu shows a room's panel (phrases, seats) too: over the table, from the
// header's foot down to the hand's head at most (table.css, docs/web.md#on-a-phone), so the
// table moves not at all and the hand and its buttons stay in reach. This measures that room:
// `--menu-top` and `--menu-room-height` on the body, as coach.js does for the coach.
const LEAST = 96; // px: the panel's height when the hand's head is almost under the header

export function placeMenuPanel() {
  const header = document.querySelector("header.top"), head = document.querySelector(".hand-head");
  if (!header || !head || !document.body.classList.contains("menu-open")) return;
  const top = Math.max(0, header.getBoundingClientRect().bottom);
  const room = Math.floor(head.getBoundingClientRect().top - top - 4);
  document.body.style.setProperty("--menu-top", `${Math.round(top)}px`);
  document.body.style.setProperty("--menu-room-height", `${Math.max(LEAST, room)}px`);
}

addEventListener("resize", placeMenuPanel);
addEventListener("scroll", placeMenuPanel, { passive: true });
