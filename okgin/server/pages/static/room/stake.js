// A room's stake in play chips: the line everyone reads, the host's control in the lobby, and
// each seat's chips from the pool on a staked game's game-over screen (text nodes only).
import { h } from "../dom.js";

function stakeText(room) {
  return `Stake: ${room.stake} chips a person · the pool split ${room.split}, cutoff ${room.cutoff}`;
}

// [the stake's line (or null), the host's box in the lobby (or null)]; `withError` and
// `request` are the room's (a refusal beside its control, a message whose answer finds it).
export function stakeParts(room, you, { withError, request }) {
  const line = room.stake ? h("p", { id: "stake-line", text: stakeText(room) }) : null;
  if (room.phase !== "lobby" || you !== room.host || room.solo) return [line, null];
  const stake = h("input", { id: "stake", class: "stake-field", type: "number", min: "0", max: "1000", step: "1",
                              inputmode: "numeric", "data-key": "stake-value", value: String(room.stake) });
  const split = h("select", { id: "stake-split", class: "stake-field", "data-key": "stake-split" },
    h("option", { value: "scaled", text: "scaled (ours)" }), h("option", { value: "proportional", text: "proportional" }));
  split.value = room.split;
  const cutoff = h("input", { id: "stake-cutoff", class: "stake-field", type: "number", min: "1", max: "500", step: "1",
                               inputmode: "numeric", "data-key": "stake-cutoff", value: String(room.cutoff) });
  const set = h("button", { type: "button", id: "set-stake", text: "Set stake", "data-key": "set-stake", on: () => {
    // Sent as typed (a number when it reads as one): the server checks it and says what is wrong.
    const number = (input) => (input.value.trim() === "" || Number.isNaN(Number(input.value)) ? input.value : Number(input.value));
    request({ type: "stake", stake: number(stake), split: split.value, cutoff: number(cutoff) }, "set-stake");
  } });
  return [line, h("fieldset", { id: "stake-box" }, h("legend", { text: "Play for chips (0: no stake)" }),
    h("label", { class: "opt" }, h("b", { text: "Stake" }), " ", stake, " chips a person"),
    h("label", { class: "opt" }, h("b", { text: "Split" }), " ", split),
    h("label", { class: "opt" }, h("b", { text: "Cutoff" }), " ", cutoff, " penalty points"),
    ...withError("set-stake", set))];
}

// The game-over screen of a staked game: each seat's chips from the pool (null: not staked).
export function chipsSplit(room, game) {
  const chips = room && room.chips;
  if (!chips || chips.game !== game) return null;
  const list = h("ul", { class: "chip-split" }, ...room.seats.map((seat, index) => {
    const share = chips.shares[index];
    return h("li", { "data-seat": String(index), text: share === null || share === undefined
      ? `${seat.name}: no stake (a computer player)` : `${seat.name}: ${share} chips` });
  }));
  return h("section", { id: "chips-result", "aria-label": "Chips" },
    h("h3", { text: `The pool of ${chips.pool} chips` }), list);
}
