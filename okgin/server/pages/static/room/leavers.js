// Who left the table, in words (docs/web.md#rooms): a seat's own line, and the line every page
// at the table adds when a person leaves. Between games a table of three or four closes up
// without the seats of those who left (the room frame's `closing`: the seats the next game is
// dealt without), so after the deal a leaver is found by name, not by seat number.

// The seat row's words for a person who left (null: the seat's person is still there).
export function leftWords(room, seat, index) {
  if (!seat.left) return null;
  return (room.closing || []).includes(index) ? `${seat.name} left the table: the next game is dealt without them`
    : `${seat.name} left the table: the computer plays (${seat.level})`;
}

// The lines to add for the people who left between frame `before` and frame `after`.
export function leaverLines(before, after) {
  if (!before || before.code !== after.code) return [];
  const closed = after.seats.length < before.seats.length; // closed up at the deal
  const lines = [];
  before.seats.forEach((was, index) => {
    if (index === before.you || was.kind !== "person") return;
    const seat = closed ? after.seats.find((s) => s.name === was.name) : after.seats[index];
    const text = !seat ? `${was.name} left the table.`
      : !seat.left ? (after.phase === "lobby" && seat.kind === "empty" ? `${was.name} left the table.` : null)
      : (after.closing || []).includes(index) ? `${seat.name} left the table: the next game is dealt without them.`
      : `${seat.name} left the table: a computer player plays the seat.`;
    if (text) lines.push(text);
  });
  return lines;
}
