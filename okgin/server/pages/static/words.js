// Words for the table, from the point of view of the seat this page plays ("You" or a name).
import * as Cards from "./cards.js";
import { PRESETS } from "./houserules.js";
let state = null;
// Computer players' names, in the order seats take them: the same list as COMPUTER_NAMES in
// okgin/server/rooms/room.py (a browser test holds them equal).
const COMPUTERS = ["Ruby", "Sam", "Kit", "Olive", "Max", "Ada"];
const use = (s) => { state = s; };
const me = () => (state && state.view ? state.view.seat : null);
const name = (seat) => (seat === me() ? "You" : state.names[seat]);
// The same inside a sentence ("Ruby knocks and you undercut"), and as an owner: "your melds",
// "Ruby's melds"; standing alone: "Ruby's less yours".
const who = (seat) => (seat === me() ? "you" : state.names[seat]);
const whose = (seat) => (seat === me() ? "your" : `${state.names[seat]}'s`);
const theirs = (seat) => (seat === me() ? "yours" : `${state.names[seat]}'s`);
// "You pass", "Ruby passes": third person for everyone but the reader.
function verb(seat, base) {
  if (seat === me()) return base;
  if (base === "go") return "goes";
  if (base === "have") return "has";
  return /(s|sh|ch|x)$/.test(base) ? base + "es" : base + "s";
}
const says = (seat, base, rest = "") => `${name(seat)} ${verb(seat, base)}${rest ? " " + rest : ""}`;
const OUTCOMES = { gin: "Gin", "big-gin": "Big Gin", knock: "Knock", undercut: "Undercut", void: "Void hand" };
const limit = (n) => (n === 0 ? "gin only" : String(n));

// "Bob", "Bob and Sam", "Bob, Cat and Sam".
const list = (items) => (items.length < 3 ? items.join(" and ")
  : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
// A message as a sentence a player reads: a capital first, a full stop last. The server's
// messages come in lower case (as Python's errors do), to be read as part of a sentence.
function sentence(text) {
  const t = String(text).trim();
  if (!t) return t;
  const capital = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capital) ? capital : capital + ".";
}
// Cards written as symbols ("Q♠", "10♥") read as the table says them ("queen of spades").
const SUIT_LETTERS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };
const spoken = (text) => String(text).replace(/(^|[^\w])(10|[2-9AJQK])([♣♦♥♠])/g,
  (_, before, rank, suit) => before + Cards.name((rank === "10" ? "T" : rank) + SUIT_LETTERS[suit]));

const CARD_SYMBOL = /[♣♦♥♠]/;
// Put `text` in `el`: as it is, or, when it writes cards as symbols, shown as written and
// read in words (a screen reader reads "Q♠" as a letter and a symbol).
function write(el, text) {
  if (!CARD_SYMBOL.test(text)) { el.textContent = text; return el; }
  const seen = document.createElement("span"), heard = document.createElement("span");
  seen.setAttribute("aria-hidden", "true");
  seen.textContent = text;
  heard.className = "visually-hidden";
  heard.textContent = spoken(text);
  el.replaceChildren(seen, heard);
  return el;
}

// A device used by touch alone (a coarse pointer and no fine one) is told no keys.
const touchOnly = () => !!window.matchMedia && matchMedia("(pointer: coarse)").matches &&
  !matchMedia("(any-pointer: fine)").matches;
const key = (k) => (touchOnly() ? "" : ` (${k})`);

// The rules in a header: the preset's name ("Oklahoma Gin with Big Gin"), and whether house
// rules change it beyond the target and the number of players.
function rulesName(rules) {
  const preset = typeof rules === "string" ? rules : (rules && rules.preset) || "oklahoma";
  const named = PRESETS[preset];
  const base = named ? named.replace(/\s*\(.*\)$/, "") : preset;
  const changed = rules && typeof rules === "object" &&
    Object.keys(rules).some((k) => !["preset", "target", "players"].includes(k));
  return changed ? `${base}, with house rules` : base;
}
// "You against Bob, Cat and Sam — Oklahoma Gin for 2 to 4 players — first to 100"; a
// spectator sees every name; `who` replaces the names (a room's lobby).
function tagline({ names = [], seat = null, rules, target, who = null }) {
  const others = names.filter((_, s) => s !== seat);
  const people = who || (seat === null ? list(others) : `You against ${list(others)}`);
  return `${people} — ${rulesName(rules)} — first to ${target}`;
}
export { use, me, name, who, whose, theirs, verb, says, limit, OUTCOMES, COMPUTERS, list, sentence, spoken, write, touchOnly, key,
  rulesName, tagline };
