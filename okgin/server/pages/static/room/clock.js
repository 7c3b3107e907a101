// The turn timer at the table: "23 s" in the score of the seat whose turn it is, on every screen
// size (the room's panel also says it in words on a wide screen). Drawn again each second and
// after every state (a redrawn score loses it).
import { table } from "../table/table.js";

export function drawClock(room) {
  const state = table.state();
  const turn = state && !state.view.result && room && room.phase === "playing" && room.deadline
    ? state.view.to_act : null;
  for (const old of document.querySelectorAll("#scores .seat-clock")) {
    if (turn === null || old.closest(".score").dataset.seat !== String(turn)) old.remove();
  }
  if (turn === null) return null;
  const score = document.querySelector(`#scores .score[data-seat="${turn}"]`);
  if (!score) return null;
  const left = Math.max(0, Math.round(room.deadline - Date.now() / 1000));
  let clock = score.querySelector(".seat-clock");
  if (!clock) {
    clock = document.createElement("span");
    clock.className = "seat-clock";
    clock.title = "Time left for this turn";
    score.append(clock);
  }
  const text = `${left} s`;
  if (clock.textContent !== text) clock.textContent = text;
  clock.classList.toggle("short", left <= 10);
  return left;
}
