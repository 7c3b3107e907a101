// The puzzle page's keys (docs/puzzles.md): ← and → move between the choices and Enter or Space
// chooses (each choice is a real button, so Tab and Enter work without this file too); T takes,
// D draws, P passes; a card's rank then its suit (7 then H; T is a ten) discards that card;
// N is the next puzzle. After an answer the coach's explanation takes the focus.

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
const choices = () => [...document.querySelectorAll("button.choice")];
let rank = "";

function press(button) {
  if (button && !button.disabled) button.click();
}

function move(step) {
  const all = choices();
  if (!all.length) return;
  const at = all.indexOf(document.activeElement);
  all[at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length].focus();
}

function discard(code) {
  return choices().find((b) => b.dataset.card === code && !b.classList.contains("knock"));
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key.toUpperCase();
  if (key === "ARROWRIGHT" || key === "ARROWLEFT") {
    event.preventDefault();
    move(key === "ARROWRIGHT" ? 1 : -1);
    return;
  }
  const next = document.getElementById("next-puzzle");
  if (next) {
    if (key === "N") press(next);
    return;
  }
  if (rank && SUITS.includes(key)) {
    const found = discard(rank + key);
    rank = "";
    if (found) press(found);
    return;
  }
  const simple = choices().find((b) => b.dataset.key && b.dataset.key.toUpperCase() === key);
  if (simple) {
    press(simple);
    return;
  }
  rank = RANKS.includes(key) && key.length === 1 ? key : "";
}

document.addEventListener("keydown", onKey);
const answer = document.getElementById("answer");
if (answer) answer.focus();
