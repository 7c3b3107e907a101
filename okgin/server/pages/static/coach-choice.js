// The coach at a friends' table: the host's choice when making the room ("coach allowed"), the
// lobby's line saying it in words, and whether this table allows the coach at all (a game
// against the computer always, a tournament's table never). A game with the coach allowed is
// not rated (docs/players.md); the server refuses the coach's questions where it is off.
import { h } from "./dom.js";
import { table } from "./table/table.js";

let allowed = true; // until a room frame says otherwise (a game against the computer has it)
table.onMessage((m) => {
  if (m.type === "room") allowed = m.coach !== false;
});
export const coachAllowed = () => allowed;

// The room form's checkbox; `coach()` reads it.
export function coachChoice() {
  const box = h("input", { type: "checkbox", id: "friends-coach", name: "coach" });
  const control = h("label", { class: "opt" }, box, " ",
    h("b", { text: "Coach allowed" }), " (Hint and advice; then the games are not rated)");
  return { control, coach: () => box.checked };
}

// The lobby's line: the table's coach, in words.
export function coachLine(room) {
  const text = room.coach
    ? "The coach is allowed at this table: Hint and advice are on, and its games are not rated."
    : "No coach at this table: its games are rated.";
  return h("p", { id: "coach-line", text });
}
