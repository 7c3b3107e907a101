// The coach panel, the warning before a risky discard, and the review after a hand.
// It joins the table through the table object (table/table.js): each state drawn, the server's
// answers, a check before each discard, and a button in the result dialog. The analysis is
// worked out by the server.
import * as Cards from "./cards.js";
import { $, h } from "./dom.js";
import * as Settings from "./settings.js";
import { table } from "./table/table.js";
import * as Words from "./words.js";

const RISKY = new Set(["feed", "break-meld", "pass-gin", "pass-knock"]);
let analysis = null, asked = null, asking = 0, reviewId = 0, reviewHand = 0;

const link = document.createElement("link");
link.rel = "stylesheet";
link.href = "/static/coach.css";
document.head.append(link);
const nav = document.querySelector("header nav");
if (nav) {
  const stats = document.createElement("a");
  stats.href = "/stats";
  stats.textContent = "Statistics";
  nav.append(stats);
}

// On a phone the panel would sit below the fold: a button beside the sort buttons opens it over
// the top of the table instead (table.css), between the header and the hand's head, so it covers
// neither the Menu nor its own button nor the hand; its Close button (or Escape) shuts it.
const toggle = document.createElement("button");
toggle.type = "button";
toggle.id = "coach-toggle";
toggle.textContent = "Coach";
toggle.setAttribute("aria-controls", "coach");
toggle.setAttribute("aria-expanded", "false");
const sorts = document.querySelector(".hand-head .sorts");
if (sorts) sorts.append(toggle);
function openPanel(open) {
  document.body.classList.toggle("coach-open", open);
  toggle.setAttribute("aria-expanded", String(open));
  if ($("coach")) $("coach").tabIndex = open ? 0 : -1; // a panel that scrolls, by keys too
  placePanel();
}
// The room the open panel may take on a phone: below the header, above the hand's head.
function placePanel() {
  const box = $("coach"), header = document.querySelector("header.top"), head = document.querySelector(".hand-head");
  if (!box || !header || !head || !document.body.classList.contains("coach-open")) return;
  const top = Math.max(0, header.getBoundingClientRect().bottom);
  box.style.setProperty("--coach-top", `${Math.round(top)}px`);
  box.style.setProperty("--coach-height", `${Math.max(0, Math.floor(head.getBoundingClientRect().top - top - 4))}px`);
}
window.addEventListener("resize", placePanel);
window.addEventListener("scroll", placePanel, { passive: true });
function closeButton() {
  const close = el("button", "Close", "coach-close");
  close.type = "button";
  close.id = "coach-close";
  close.setAttribute("aria-label", "Close the coach");
  close.addEventListener("click", () => { openPanel(false); toggle.focus(); });
  return close;
}
toggle.addEventListener("click", () => openPanel(!document.body.classList.contains("coach-open")));
document.addEventListener("keydown", (event) => {
  const inside = event.target === toggle || (event.target.closest && event.target.closest("#coach"));
  if (event.key !== "Escape" || !inside || !document.body.classList.contains("coach-open")) return;
  event.stopPropagation();
  openPanel(false);
  toggle.focus();
}, true);

const on = () => !!Settings.options.coach;
const state = () => table.state();
const keyOf = (s) => `${s.game}:${s.hand_number}:${s.view.history.length}:${s.view.phase}`;
const myTurn = (s) => s && !s.view.result && s.view.to_act === s.view.seat;
function ask(type, extra = {}) {
  return table.send({ type, ...extra });
}
// An element holding `text` as Words.write puts it (cards in words for a screen reader).
const el = (tag, text, cls) => {
  const e = h(tag, cls ? { class: cls } : {});
  if (text !== undefined) Words.write(e, text);
  return e;
};
const short = (c) => Cards.short(c);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const signed = (n) => { const r = Math.round(n); return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : "0"; };
// The coach's own terms, said in words where they are used (docs/coach.md): a folded line a
// player opens when "about +38 points" or "2 live outs of 2" needs saying.
const EXPLAINED = {
  points: ["What “about +38 points” means",
    "What the move is worth: the points it brings you on average, less the other players', over " +
    "the deals the coach thinks likely from what you have seen. Higher is better; below 0 the move " +
    "is expected to cost you points."],
  outs: ["What “live outs” means",
    "Outs are the cards that would turn the two cards into a meld. An out is live while it can " +
    "still come to you: not in the discard pile, not in your hand and not known to be in another " +
    "player's hand (a card they took from the pile). “2 live outs of 2”: both cards that complete it are still live."],
};
const unfolded = new Set(); // the explanations the player opened stay open as the panel redraws
function explain(topic) {
  const [summary, text] = EXPLAINED[topic];
  const box = h("details", { class: "coach-explain", "data-topic": topic }, h("summary", { text: summary }), h("p", { text }));
  box.open = unfolded.has(topic);
  box.addEventListener("toggle", () => (box.open ? unfolded.add(topic) : unfolded.delete(topic)));
  return box;
}

// -- the panel ----------------------------------------------------------------------
table.onState((s) => {
  if (!on()) { draw(s); return; }
  if (myTurn(s) && asked !== keyOf(s)) {
    asked = keyOf(s);
    analysis = null;
    asking = ask("advice");
  }
  draw(s);
});
table.onMessage((m) => {
  if ((m.type === "advice" && m.id === asking) || (m.type === "review" && m.id === reviewId)) again = 0;
  if (m.type === "advice" && m.id === asking) { analysis = { key: asked, ...m }; draw(state()); }
  if (m.type === "review" && m.id === reviewId) showReview(m);
  if (m.type === "error" && m.id === reviewId) {
    if (!askAgain(m, () => { reviewId = ask("review", { hand: reviewHand }); })) showReview({ error: m.message });
  }
  if (m.type === "error" && m.id === asking) {
    const key = asked;
    if (askAgain(m, () => { if (asked === key) asking = ask("advice"); })) return;
    analysis = { key: asked, suggestion: { text: m.message }, discards: [], near_melds: [], warnings: [] };
    draw(state());
  }
});
Settings.onChange(() => { asked = null; const s = state(); if (s) draw(s); });

// The coach's questions are limited (2 a second, 10 at once: docs/server/security.md); the
// panel's own advice can use them up when a player moves fast. A question refused for that is
// asked again a second later, a few times, instead of showing the player the refusal.
const AGAIN_MS = 1000, AGAIN_TIMES = 4;
let again = 0;
function askAgain(m, send) {
  if (m.code !== "rate_limited" || again >= AGAIN_TIMES) { again = 0; return false; }
  again += 1;
  setTimeout(send, AGAIN_MS);
  return true;
}

function current(s) { return analysis && s && analysis.key === keyOf(s) ? analysis : null; }
function draw(s) {
  const box = $("coach");
  if (!box) return;
  box.hidden = !on() || !s;
  document.body.classList.toggle("coach-on", !box.hidden);
  if (box.hidden) openPanel(false);
  box.dataset.risky = "";
  if (box.hidden) return;
  const head = el("div", undefined, "coach-head");
  head.append(el("h2", "Coach"), closeButton());
  box.replaceChildren(head);
  placePanel(); // the hand's head may have moved since the panel opened
  const a = current(s);
  if (myTurn(s) && !a) box.append(el("p", "Thinking…", "coach-wait"));
  if (a && a.suggestion) box.append(el("p", a.suggestion.text, "coach-suggestion"));
  if (a && a.suggestion && a.suggestion.values && !a.discards.length) {
    // The draws weighed, best first: the suggestion always heads them (a discard's worth is
    // in its row of the table below).
    const list = el("ul", undefined, "weighed");
    for (const v of a.suggestion.values) list.append(el("li", `${capital(v.words)}: about ${signed(v.worth)} points`));
    box.append(el("p", "The moves weighed, over likely deals:"), list, explain("points"));
  }
  if (a) drawAnalysis(box, a, s);
  else if (s.coach) drawCheap(box, s.coach);
}
function drawAnalysis(box, a, s) {
  if (a.discards.length) {
    box.append(el("p", "What each discard leaves:"));
    const list = el("ul", undefined, "leaves");
    for (const row of a.discards.slice(0, 6)) {
      const wants = row.wanted.map((w) => `${s.names[w.seat]} could meld it in ${Math.round(w.share * 100)}%`)
        .join(", ");
      const end = row.gin ? " — gin" : row.knock ? " — you can knock" : "";
      const worth = row.worth === null || row.worth === undefined ? "" : ` (about ${signed(row.worth)} points)`;
      list.append(el("li", `Discard the ${short(row.card)}${worth}: ${row.deadwood} deadwood left, ` +
        `${row.melds.length} meld${row.melds.length === 1 ? "" : "s"} kept${end}; ${wants} of likely hands`));
    }
    box.append(list);
    if (a.discards.slice(0, 6).some((row) => row.worth !== null && row.worth !== undefined)) box.append(explain("points"));
  }
  const outs = a.near_melds.slice(0, 4);
  if (outs.length) {
    const list = el("ul", undefined, "outs");
    for (const near of outs)
      list.append(el("li", `${near.cards.map(short).join(" ")}: ${near.live.length} live out` +
        `${near.live.length === 1 ? "" : "s"} of ${near.outs.length}` +
        (near.live.length ? ` (${near.live.map(short).join(" ")})` : "")));
    box.append(el("p", "Near-melds and the cards still live:"), list, explain("outs"));
  }
  const shown = a.warnings.filter((w) => w.kind !== "break-meld");
  if (shown.length) {
    const list = el("ul", undefined, "warn");
    for (const w of shown) list.append(el("li", `⚠ ${w.text}`));
    box.append(list);
  }
  box.dataset.risky = [...new Set(a.discards.map((r) => r.card).filter((c) => risks(a, c).length))].join(" ");
}
function drawCheap(box, c) {
  if (c.tips.length) {
    const list = el("ul");
    for (const tip of c.tips) list.append(el("li", tip));
    box.append(list);
  }
  if (c.warnings.length) {
    const list = el("ul", undefined, "warn");
    for (const w of c.warnings) list.append(el("li", `⚠ ${w}`));
    box.append(list);
  }
}

// -- a warning before a risky discard -------------------------------------------------
function risks(a, card) {
  return a.warnings.filter((w) => RISKY.has(w.kind) && (w.card === card || w.card === null));
}
// The table asks before each discard the player makes: a risky one is held for the warning.
table.beforeDiscard((card) => {
  const s = state();
  if (!on() || !myTurn(s) || s.view.phase !== "discard") return false;
  const a = current(s);
  if (!a || !s.view.legal.includes(`discard ${card}`)) return false;
  const found = risks(a, card);
  if (!found.length) return false;
  warn(card, found);
  return true;
});
function warn(card, found) {
  let dialog = $("coach-warning");
  if (!dialog) {
    dialog = el("dialog");
    dialog.id = "coach-warning";
    dialog.setAttribute("aria-labelledby", "coach-warning-title");
    document.body.append(dialog);
  }
  const title = el("h2", `Discard the ${short(card)}?`);
  title.id = "coach-warning-title";
  const list = el("ul", undefined, "warn");
  for (const w of found) list.append(el("li", `⚠ ${w.text}`));
  const keep = el("button", "Keep it");
  keep.type = "button";
  keep.addEventListener("click", () => dialog.close());
  const go = el("button", "Discard anyway", "primary");
  go.type = "button";
  go.addEventListener("click", () => {
    dialog.close();
    table.announce(`Discarded the ${Cards.name(card)} against the coach's warning.`);
    table.send({ type: "act", action: `discard ${card}` });
  });
  const buttons = el("div", undefined, "dialog-buttons");
  buttons.append(keep, go);
  dialog.replaceChildren(title, list, buttons);
  dialog.showModal();
  keep.focus();
}

// -- the review after a hand ----------------------------------------------------------
// The result dialog's first button: a review of the hand, worked out by the server.
table.addResultButtons((s) => {
  const button = el("button", "Review this hand", "review-button");
  button.type = "button";
  button.addEventListener("click", () => {
    button.disabled = true;
    placeReview().replaceChildren(el("p", "Reviewing your decisions…"));
    reviewHand = s.hand_number;
    reviewId = ask("review", { hand: reviewHand });
  });
  return [button];
});
function placeReview() {
  let box = $("review");
  if (!box) {
    box = el("section", undefined, "review");
    box.id = "review";
    box.setAttribute("aria-live", "polite");
    box.setAttribute("aria-label", "Review of the hand");
    $("result-body").append(box);
  }
  return box;
}
function chips(codes, label) {
  // Cards as the review page draws them: the short form seen, the name read out.
  const list = el("ul", undefined, "chips");
  list.setAttribute("aria-label", label);
  for (const code of codes) {
    const item = el("li", undefined, `chip ${"HD".includes(code[1]) ? "red" : "black"}`);
    const seen = el("span", short(code));
    seen.setAttribute("aria-hidden", "true");
    item.append(seen, el("span", Cards.name(code), "visually-hidden"));
    list.append(item);
  }
  return list;
}
function showReview(m) {
  const box = placeReview();
  box.replaceChildren(el("h3", "Your review"));
  if (m.error) { box.append(el("p", m.error)); return; }
  if (!m.mistakes.length) {
    box.append(el("p", `No costly mistakes in your ${m.decisions} decisions.`));
    return;
  }
  // Each mistake as the review page shows it: a small table, named by hand and turn.
  for (const d of m.mistakes) {
    const p = d.position;
    const pile = el("td");
    if (p.discards.length) pile.append(chips([p.discards.at(-1)], "Top of the discard pile"), " ");
    pile.append(`${p.stock_count} cards in the stock`);
    const hand = el("td");
    hand.append(chips(p.hand, "The cards held"));
    const sheet = el("table", undefined, "mistake-table");
    for (const [head, cell] of [
      ["The hand", hand], ["The pile", pile],
      ["You did", el("td", capital(d.chosen_words))], ["Better", el("td", capital(d.suggested_words))],
      ["Cost", el("td", `about ${d.cost.toFixed(1)} points`)], ["Why", el("td", d.reason)]]) {
      const tr = el("tr");
      const th = el("th", head);
      th.scope = "row";
      tr.append(th, cell);
      sheet.append(tr);
    }
    const section = el("section", undefined, "mistake");
    section.append(el("h4", d.when), sheet);
    box.append(section);
  }
}
