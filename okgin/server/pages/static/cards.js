// Cards drawn in HTML/CSS: record notation ("7S", "TD") in, elements and words out.
const RANKS = "A23456789TJQK";
const RANK_WORDS = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
const SUITS = { C: ["clubs", "♣"], D: ["diamonds", "♦"], H: ["hearts", "♥"], S: ["spades", "♠"] };

const rankIndex = (code) => RANKS.indexOf(code[0]);
const label = (code) => (code[0] === "T" ? "10" : code[0]);
const name = (code) => `${RANK_WORDS[rankIndex(code)]} of ${SUITS[code[1]][0]}`;
const short = (code) => `${label(code)}${SUITS[code[1]][1]}`;
const points = (code) => Math.min(rankIndex(code) + 1, 10);

function face(code, tag = "div") {
  const el = document.createElement(tag);
  if (tag === "button") el.type = "button";
  el.className = `card suit-${code[1]}` + ("DH".includes(code[1]) ? " red" : "");
  el.dataset.card = code;
  el.setAttribute("aria-label", name(code));
  if (tag !== "button") el.setAttribute("role", "img");
  const sym = SUITS[code[1]][1];
  // The face is drawn by CSS from data attributes: the card's name is its label, and no
  // "Q♥" text competes with "queen of hearts" for a screen reader.
  for (const part of ["corner", "pip", "corner low"]) {
    const span = document.createElement("span");
    span.className = part;
    span.setAttribute("aria-hidden", "true");
    span.dataset.rank = label(code);
    span.dataset.suit = sym;
    el.append(span);
  }
  return el;
}

function back() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "face-down card");
  return el;
}

const byRank = (a, b) => rankIndex(a) - rankIndex(b) || "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]);
const bySuit = (a, b) => "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]) || rankIndex(a) - rankIndex(b);
export { name, short, points, face, back, byRank, bySuit };
