// The game page: one WebSocket to the server, which holds the game; this page only shows
// the view of its seat (state.view.seat; null for a spectator) and sends the player's choices.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const GAME_KEY = "okgin.game";
  let socket = null, state = null, lifted = null, order = [], sortMode = "melds", ginChoice = false;
  let nextId = 1, focusIndex = 0, queue = [], pumping = false, resultShown = null, lastShown = 0;
  let lastResult = null; // the state whose end-of-hand screen was last shown (reopened by "Last hand")
  const { name, says } = Words;

  // -- connection ------------------------------------------------------------------------
  const TOKEN_KEY = "okgin.token";  // this browser's seat token for its game against the computer
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The room or game in the URL lets a proxy send every page of one room to one process.
    const room = (location.pathname.match(/^\/r\/([^/]+)/) || [])[1], game = localStorage.getItem(GAME_KEY);
    const route = room ? `?room=${encodeURIComponent(room)}` : game ? `?game=${encodeURIComponent(game)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws${route}`);
    socket.addEventListener("open", () => {
      // room.js (a room's page, /r/<code>) opens the room itself; hooks: docs/web.md.
      document.dispatchEvent(new CustomEvent("okgin:open", { detail: { send } }));
      const game = localStorage.getItem(GAME_KEY);
      if (document.body.dataset.room) { /* room.js has sent "enter" */ }
      else if (newWhileAway) { send(newWhileAway); newWhileAway = null; }  // the player's choice wins
      else if (game) send({ type: "join", game, token: localStorage.getItem(TOKEN_KEY) || undefined });
      else newGame();
      send({ type: "options", coach: !!Settings.options.coach });
    });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      document.dispatchEvent(new CustomEvent("okgin:close"));
      setStatus("Connection lost: reconnecting…");
      setTimeout(connect, 1000);
    });
  }
  // Messages whose answer (ack or error) the page waits for: its own, and room.js's room controls.
  const NUMBERED = ["act", "next", "hint", "advice", "review", "sit", "computer", "clear", "start", "rematch", "leave",
                    "stake"];
  function send(message) {
    // Ids only grow on a connection (the server refuses a replay), so this is their one source.
    if (NUMBERED.includes(message.type)) message.id = nextId++;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else if (message.type === "new") newWhileAway = message;  // Rematch or New game while reconnecting
    return message.id;
  }
  let newWhileAway = null;
  function newGame(rules = Settings.currentRules(), opponents = Settings.options.levels) {
    queue = []; lifted = null; order = []; resultShown = null; sortMode = "melds";
    if ($("result").open) $("result").close();
    send({ type: "new", rules, opponents });
  }
  function receive(message) {
    document.dispatchEvent(new CustomEvent("okgin:message", { detail: message }));
    if (message.type === "joined") {
      if (message.solo) localStorage.setItem(GAME_KEY, message.game);
      if (message.solo && message.token) localStorage.setItem(TOKEN_KEY, message.token);
      return;
    }
    if (message.type === "state") { queue.push(message); pump(); return; }
    if (message.type === "hint") { announce(Words.spoken(message.text), true); return; }
    if (message.type === "error") {
      if (["no_game", "bad_token"].includes(message.code) && !document.body.dataset.room) {
        localStorage.removeItem(GAME_KEY); newGame(); return;
      }
      announce(Words.sentence(message.message), true);
    }
  }

  // States are shown one at a time: other players' moves at the chosen pace, each card's flight.
  async function pump() {
    if (pumping) return;
    pumping = true;
    while (queue.length) {
      const mover = seatOf(queue[0].event);
      if (mover !== null && mover !== queue[0].view.seat) {
        const wait = lastShown + Settings.delay() - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await show(queue.shift());
      lastShown = performance.now();
    }
    pumping = false;
    markTurn();
  }
  // Whose move it is, on <body>, for styles and for the browser tests.
  function markTurn() {
    const v = state.view;
    const mine = v.seat !== null && v.to_act === v.seat && !queue.length;
    document.body.dataset.turn = state.final ? "over" : v.result ? "hand-over" : mine ? "you" : "others";
    document.body.dataset.phase = v.phase;
  }
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const seatOf = (event) => (event && /^\d/.test(event) ? Number(event.split(" ")[0]) : null);

  // -- showing the state ----------------------------------------------------------------
  async function show(message) {
    const before = state;
    const fresh = !state || state.game !== message.game || state.hand_number !== message.hand_number;
    const places = where();
    state = message;
    Words.use(state);
    const view = state.view;
    view.hand = view.hand || []; // a spectator has no hand and no moves
    view.legal = view.legal || [];
    if (fresh) { order = []; lifted = null; resultShown = null; ginChoice = false; }
    document.body.dataset.turn = "others";
    document.body.dataset.seq = String(Number(document.body.dataset.seq || 0) + 1);
    document.body.classList.toggle("spectator", view.seat === null);
    syncOrder(view.hand);
    if (lifted && !view.hand.includes(lifted)) lifted = null;
    const hadFocus = focusInTable();
    $("play").setAttribute("aria-busy", "false");
    drawAll();
    // The card this seat just drew or took is hidden while its copy flies in: focus waits on a
    // card in sight and moves to it once it lands.
    const landing = hadFocus && /^\d+ (draw|take)$/.test(message.event || "") && seatOf(message.event) === view.seat
      ? handCards().find((c) => c.classList.contains("drawn")) : null;
    const holder = keepFocus(hadFocus, landing);
    if (fresh) announce(dealText());
    else if (message.event) announce(describe(message.event, before));
    document.dispatchEvent(new CustomEvent("okgin:state", { detail: state }));
    await animate(message.event, fresh, places, before);
    if (landing) land(landing, holder);
    if (view.result && resultShown !== state.hand_number) showResult();
    if (!view.result && $("result").open) keepResult();
  }
  // A hand's end screen stays when another player deals the next hand, until its reader closes
  // it or the new hand needs them: then it folds into the "Last hand" button (drawActions).
  function keepResult() {
    if (myTurn()) { $("result").close(); announce("Your turn. The last hand's result is under Last hand."); return; }
    pastResult();
  }
  function pastResult() {
    const buttons = $("result-buttons");
    if (buttons.dataset.past === "yes") return;
    buttons.dataset.past = "yes";
    buttons.replaceChildren(button("Back to the table", () => $("result").close(), true));
  }
  function showLast() {
    Words.use(lastResult);
    Result.render(lastResult);
    Words.use(state);
    delete $("result-buttons").dataset.past;
    pastResult();
    $("result").showModal();
    $("result-buttons").querySelector("button").focus();
  }
  function drawAll() {
    const v = state.view;
    drawScores(); drawOpponents(); drawMiddle(); drawHand(); drawActions(); drawSheet();
    setText($("status"), statusText());
    setText($("tagline"), Words.tagline({ names: state.names, seat: v.seat, rules: state.rules, target: v.target }));
    document.body.classList.toggle("touch", Words.touchOnly());
    $("howto-link").href = `/how-to-play?game=${encodeURIComponent(state.game)}`;
  }
  function dealText() {
    const v = state.view;
    const spade = v.multiplier === 2 ? " It is a spade: this hand counts double." : "";
    return `Hand ${state.hand_number}: ${says(v.dealer, "deal")}. The upcard is the ${Cards.name(v.upcard)}: ` +
      `the knock limit is ${Words.limit(v.knock_limit)}.${spade} ${statusText()}`;
  }
  // Who took what: the pile replayed from the history, so taken cards are known by seat.
  function pileStory() {
    const v = state.view;
    const pile = [{ card: v.upcard, by: null }];
    const held = new Map(); // card -> seat that took it from the pile and still holds it
    for (const entry of v.history) {
      const [seatText, verb, card] = entry.split(" ");
      const seat = Number(seatText);
      if (verb === "take" && pile.length) held.set(pile.pop().card, seat);
      else if (verb === "discard" || verb === "knock") { pile.push({ card, by: seat }); held.delete(card); }
      else if (entry === "reshuffle") pile.splice(0, pile.length - 1);
    }
    return { pile, held };
  }
  function describe(event, before) {
    if (event === "deal") return dealText();
    if (event === "reshuffle") return "The discard pile is shuffled into a new stock.";
    const [seatText, verb, card] = event.split(" ");
    const seat = Number(seatText);
    if (verb === "draw") return says(seat, "draw", "from the stock.");
    if (verb === "take") {
      const top = before && before.view.discards.at(-1);
      return says(seat, "take", top ? `the ${Cards.name(top)}.` : "the discard.");
    }
    if (verb === "pass") return says(seat, "pass") + ".";
    if (verb === "discard") return says(seat, "discard", `the ${Cards.name(card)}.`);
    const gin = state.view.result && state.view.result.outcome === "gin" && state.view.result.knocker === seat;
    if (verb === "knock" && gin) return says(seat, "go", `gin, discarding the ${Cards.name(card)}.`);
    if (verb === "knock") return says(seat, "knock", `and ${Words.verb(seat, "discard")} the ${Cards.name(card)}.`);
    if (verb === "big-gin") return says(seat, "go", "Big Gin!");
    return event;
  }
  function statusText() {
    const v = state.view;
    if (state.final) return `${says(state.final.winner, "win")} the game!`;
    if (v.result) return "The hand is over.";
    if (v.seat !== null && v.to_act === v.seat) {
      const key = Words.key, touch = Words.touchOnly();
      if (ginChoice) return touch ? "Go gin: tap the card to discard." : "Go gin: choose the card to discard (← →, Enter), or Escape.";
      if (v.phase === "offer") return `Your turn: take the upcard${key("D")} or pass${key("S")}.`;
      if (v.phase === "draw") return `Your turn: draw from the stock${key("S")} or take the discard${key("D")}.`;
      if (v.phase === "last-chance") return `Last chance: take the discard to knock${key("D")}, or pass${key("S")}.`;
      const end = can("big-gin") ? `, or go Big Gin${key("G")}` : ginCards().length ? `, or go gin${key("G")}`
        : knockCard() ? `, or knock${key("K")}` : "";
      return touch ? `Your turn: tap a card twice to discard it${end}.` : `Your turn: discard a card (Enter twice)${end}.`;
    }
    return `${name(v.to_act)} ${v.to_act === v.seat ? "are" : "is"} playing…`;
  }
  function announce(text, polite = false) {
    const p = document.createElement("p");
    p.textContent = text;
    $("live").append(p);
    while ($("live").children.length > 5) $("live").firstChild.remove();
    if (polite) $("status").textContent = text;
  }
  function setStatus(text) { $("status").textContent = text; }

  // -- focus: never left on <body> after a redraw ----------------------------------------
  function focusInTable() {
    const a = document.activeElement;
    return !a || a === document.body || !!a.closest("#table");
  }
  // Returns the element focus is on afterwards. `landing`, a card about to fly in, is passed over.
  function keepFocus(hadFocus, landing = null) {
    const a = document.activeElement;
    if (!hadFocus || document.querySelector("dialog[open]")) return a;
    if (a && a !== document.body && a.isConnected && !a.disabled && a !== landing) return a;
    const cards = handCards().filter((c) => c !== landing);
    const v = state.view;
    const fresh = cards.find((c) => c.dataset.card === v.drawn);
    const target = fresh || cards[Math.max(0, Math.min(focusIndex, cards.length - 1))] || $("actions").querySelector("button") || $("new-game");
    if (target) { if (target.closest("#hand")) { cards.forEach((c) => (c.tabIndex = -1)); target.tabIndex = 0; } target.focus(); }
    return document.activeElement;
  }
  // The drawn card has landed: focus moves onto it, unless the player has moved focus meanwhile.
  function land(card, holder) {
    const a = document.activeElement;
    if (!card.isConnected || document.querySelector("dialog[open]")) return;
    if (a === holder || !a || a === document.body) focusCard(card.dataset.card);
  }

  // -- scores, opponents, piles -----------------------------------------------------------
  function progressShown() {
    return !!state.won && state.won.some((w, s) => w !== state.totals[s]);
  }
  // Elements built from data: strings become text nodes, never markup (a name is data).
  function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    el.append(...children);
    return el;
  }
  const HIDDEN = { "aria-hidden": "true" };
  // A redraw writes only what changed: an unchanged box costs no style or layout work while a
  // card is flying (a rebuilt table there missed frames: docs/performance.md). `key` is what the
  // box shows; `build` makes its children when that changed.
  const shown = new WeakMap();
  function setNodes(el, key, build) {
    if (shown.get(el) === key) return false;
    shown.set(el, key);
    el.replaceChildren(...build());
    return true;
  }
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  function keyed(box, selector, seats, make) {
    // The children of `box` for these seats, in order, reusing those already drawn.
    const old = new Map([...box.querySelectorAll(selector)].map((el) => [el.dataset.seat, el]));
    const els = seats.map((seat) => old.get(String(seat)) || make(seat));
    els.forEach((el, i) => { if (box.children[i] !== el) box.insertBefore(el, box.children[i] || null); });
    while (box.children.length > els.length) box.lastChild.remove();
    return els;
  }
  function seatBox(className) {
    return (seat) => { const div = document.createElement("div"); div.className = className; div.dataset.seat = String(seat); return div; };
  }
  function drawScores() {
    const v = state.view;
    const seats = state.names.map((_, s) => s);
    keyed($("scores"), ".score", seats, seatBox("score")).forEach((div, seat) => {
      div.classList.toggle("turn", v.to_act === seat && !v.result);
      const progress = progressShown(), dealer = v.dealer === seat;
      const key = JSON.stringify([name(seat), dealer, state.totals[seat], progress && state.won[seat], v.target]);
      setNodes(div, key, () => {
        const parts = [h("span", { class: "who" }, name(seat))];
        if (dealer) parts.push(" ", h("small", { class: "dealer" }, "dealer"));
        parts.push(" ", h("b", {}, String(state.totals[seat])), h("span", { class: "visually-hidden" }, " points"));
        if (progress) {
          const bar = h("i");
          bar.style.width = `${Math.min(100, Math.round((100 * state.won[seat]) / v.target))}%`;
          parts.push(h("span", { class: "progress" }, `${state.won[seat]} of ${v.target} toward the target`),
            h("span", { class: "bar", ...HIDDEN }, bar));
        }
        return parts;
      });
    });
  }
  function drawOpponents() {
    const { held } = pileStory();
    const seats = state.view.hand_sizes.map((_, s) => s).filter((s) => s !== state.view.seat);
    keyed($("opponents"), ".opponent", seats, seatBox("opponent")).forEach((div, i) => {
      const seat = seats[i], count = state.view.hand_sizes[seat];
      const levels = state.seat_levels || [null, ...state.levels];
      const level = levels[seat] ? ` · ${levels[seat]}` : "";
      const known = [...held].filter(([, s]) => s === seat).map(([c]) => c);
      // Only what changed is redrawn: a draw adds one back to the fan, nothing else.
      if (!div.firstChild) {
        div.append(h("div", { class: "name" }), h("div", { class: "fan", role: "img" }),
          h("div", { class: "known", role: "group", hidden: "" }));
      }
      const [label, fan, took] = div.children;
      const text = `${name(seat)}${level} · ${count} cards`;
      if (label.textContent !== text) label.textContent = text;
      fan.setAttribute("aria-label", `${name(seat)}'s hand: ${count} cards`);
      while (fan.children.length > count) fan.lastChild.remove();
      while (fan.children.length < count) { const b = Cards.back(); b.removeAttribute("role"); b.removeAttribute("aria-label"); fan.append(b); }
      const knownKey = known.join(" ");
      if (took.dataset.cards === knownKey) return;
      took.dataset.cards = knownKey;
      took.hidden = !known.length;
      took.setAttribute("aria-label", `${name(seat)} took from the pile: ${known.map(Cards.name).join(", ")}`);
      took.replaceChildren(h("span", { class: "known-label", ...HIDDEN }, "Took"));
      known.forEach((c) => { const el = Cards.face(c); el.classList.add("small"); took.append(el); });
    });
  }
  function can(action) { return state.view.legal.includes(action); }
  function myTurn() { return state.view.seat !== null && state.view.to_act === state.view.seat && !state.view.result; }
  function drawMiddle() {
    const v = state.view;
    $("stock-count").textContent = v.stock_count;
    $("stock").setAttribute("aria-label", `Stock, ${v.stock_count} cards` +
      (can("draw") ? `: draw${Words.key("S")}` : can("pass") ? `: pass${Words.key("S")}` : ""));
    $("stock").setAttribute("aria-disabled", String(!(can("draw") || can("pass"))));
    $("stock").classList.toggle("hot", can("draw"));
    const pile = $("discard");
    const top = v.discards.at(-1);
    const pileKey = `${top}|${can("take")}`;
    if (pile.dataset.shown === pileKey) { /* the same top card, as takeable as before */ }
    else if (top) {
      pile.dataset.shown = pileKey;
      pile.replaceChildren();
      const card = Cards.face(top, "button");
      card.setAttribute("aria-label", `Discard pile: ${Cards.name(top)}` + (can("take") ? `: take${Words.key("D")}` : ""));
      card.setAttribute("aria-disabled", String(!can("take")));
      card.classList.toggle("hot", can("take"));
      card.addEventListener("click", () => act("take"));
      pile.append(card);
    } else { pile.dataset.shown = pileKey; pile.replaceChildren(); }
    $("pile-open").textContent = `Look through the pile (${v.discards.length})`;
    const spade = v.multiplier === 2;
    setNodes($("limit"), JSON.stringify([v.knock_limit, v.upcard, spade]), () => [
      h("small", HIDDEN, "Knock limit"), h("b", HIDDEN, v.knock_limit === 0 ? "Gin only" : String(v.knock_limit)),
      h("small", HIDDEN, `upcard ${Cards.short(v.upcard)}`), ...(spade ? [h("span", { class: "spade", ...HIDDEN }, "♠ ×2")] : []),
      h("span", { class: "visually-hidden" }, `Knock limit ${Words.limit(v.knock_limit)}, set by the upcard, the ` +
        `${Cards.name(v.upcard)}${spade ? ". Spades double: this hand scores double." : "."}`)]);
  }
  function drawPileViewer() {
    const list = $("pile-list");
    list.replaceChildren();
    const { pile } = pileStory();
    if (!pile.length) { const li = document.createElement("li"); li.textContent = "The pile is empty."; list.append(li); }
    [...pile].reverse().forEach(({ card, by }, i) => {
      const li = document.createElement("li");
      const el = Cards.face(card);
      el.classList.add("small");
      li.append(el, ` ${Cards.name(card)} — ${by === null ? "the upcard" : `discarded by ${name(by)}`}${i === 0 ? " (on top)" : ""}`);
      list.append(li);
    });
  }

  // -- the hand -------------------------------------------------------------------------
  // Hand order: the player's own order, kept across states; new cards go at the end.
  function syncOrder(hand) {
    order = order.filter((c) => hand.includes(c));
    for (const c of hand) if (!order.includes(c)) order.push(c);
    if (sortMode === "rank") order.sort(Cards.byRank);
    if (sortMode === "suit") order.sort(Cards.bySuit);
  }
  function groups() {
    const arr = state.view.arrangement;
    if (sortMode === "melds") {
      const melds = arr.melds.map((m) => ({ meld: true, cards: m }));
      const loose = [...arr.unmatched].sort(Cards.bySuit);
      return [...melds, { meld: false, cards: loose }];
    }
    return [{ meld: false, cards: order }];
  }
  function drawnCard() {
    // The card this seat just took from the stock or the pile (marked until it discards).
    const v = state.view;
    if (v.seat === null || v.phase !== "discard" || v.to_act !== v.seat) return null;
    if (v.taken) return v.taken;
    const last = v.history.at(-1) || "";
    return last.startsWith(`${v.seat} draw`) ? newest : null;
  }
  let newest = null, previousHand = [];
  function trackNewest(hand) {
    const added = hand.filter((c) => !previousHand.includes(c));
    if (added.length === 1) newest = added[0];
    previousHand = [...hand];
  }
  function drawHand() {
    const v = state.view;
    trackNewest(v.hand);
    v.drawn = drawnCard();
    const inMeld = new Set((v.arrangement ? v.arrangement.melds : []).flat());
    const near = new Set(state.coach ? state.coach.near_melds.flat() : []);
    const melds = v.arrangement ? v.arrangement.melds.length : 0;
    const best = v.after_discard !== null;
    const dead = !v.arrangement ? null : best ? v.after_discard : v.arrangement.deadwood;
    setNodes($("deadwood"), JSON.stringify([dead, best, melds]), () => (dead === null ? [] : ["Deadwood ",
      h("b", {}, String(dead)), `${best ? " after your best discard" : ""} · ${melds} meld${melds === 1 ? "" : "s"}`]));
    const box = $("hand");
    if (v.seat === null) { box.replaceChildren(); cardButtons.clear(); return; }
    const gins = ginChoice ? ginCards() : [];
    const wanted = groups();
    const flat = [];
    wanted.forEach((group, g) => {
      const div = box.children[g] || box.appendChild(document.createElement("div"));
      const cls = "group" + (group.meld ? " meld" : "");
      if (div.className !== cls) div.className = cls;
      if (group.meld) { div.setAttribute("role", "group"); div.setAttribute("aria-label", "meld"); }
      else { div.removeAttribute("role"); div.removeAttribute("aria-label"); }
      group.cards.forEach((code, i) => {
        const card = cardButton(code);
        const extra = [];
        card.classList.toggle("in-meld", inMeld.has(code));
        if (inMeld.has(code)) extra.push("in a meld");
        card.classList.toggle("drawn", code === v.drawn);
        if (code === v.drawn) extra.push(v.taken ? "just taken" : "just drawn");
        card.classList.toggle("lifted", code === lifted);
        if (code === lifted) extra.push("lifted");
        card.classList.toggle("gin-choice", gins.includes(code));
        if (gins.includes(code)) extra.push("discard to go gin");
        card.classList.toggle("near", near.has(code));
        card.classList.remove("dragging", "drop-before");
        const label = extra.length ? `${Cards.name(code)}, ${extra.join(", ")}` : Cards.name(code);
        if (card.getAttribute("aria-label") !== label) card.setAttribute("aria-label", label);
        card.setAttribute("aria-pressed", String(code === lifted));
        card.tabIndex = -1;
        // Moved only when out of place: a card moved in the document loses its focus.
        if (div.children[i] !== card) div.insertBefore(card, div.children[i] || null);
        flat.push(card);
      });
      while (div.children.length > group.cards.length) div.lastChild.remove();
    });
    while (box.children.length > wanted.length) box.lastChild.remove();
    for (const code of cardButtons.keys()) if (!v.hand.includes(code)) cardButtons.delete(code);
    focusIndex = Math.min(focusIndex, flat.length - 1);
    if (flat.length) flat[Math.max(focusIndex, 0)].tabIndex = 0;
    // Laid out again only when its shape changed: a state that leaves the hand alone costs no layout.
    if (handShape() !== fitted) fitHand();
  }
  // The hand's buttons, kept while their cards stay in the hand: a redraw creates only new cards.
  const cardButtons = new Map();
  let fitted = "";
  function cardButton(code) {
    let card = cardButtons.get(code);
    if (!card) { card = Cards.face(code, "button"); bindCard(card, code); cardButtons.set(code, card); }
    return card;
  }
  // Spread the hand: no overlap when there is room, else just enough to fit one row. Where one
  // row would hide much of each card (a phone holding 10 or 11), two rows of whole cards instead:
  // every corner readable, every card a full-size target for a finger.
  // Its shape: the groups' sizes and the room it has (a side column or a resize changes that).
  const handShape = () => `${[...$("hand").children].map((g) => g.children.length)}|${$("hand").clientWidth}|` +
    `${document.body.classList.contains("large")}`;
  function fitHand() {
    const box = $("hand");
    fitted = handShape();
    const cards = handCards();
    box.classList.remove("rows");
    box.style.setProperty("--overlap", "0px");
    if (!cards.length) return;
    const room = box.clientWidth;
    const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    const needed = [...box.children].reduce((sum, g) => sum + g.getBoundingClientRect().width + gap, -gap);
    const joins = cards.length - box.children.length;
    if (needed > room && joins > 0) {
      const width = cards[0].getBoundingClientRect().width;
      const overlap = Math.min(width * 0.72, Math.ceil((needed - room) / joins) + 1);
      const perRow = Math.floor((room + gap) / (width + gap));
      if (overlap > width * 0.3 && 2 * perRow >= cards.length) box.classList.add("rows");
      else box.style.setProperty("--overlap", `${overlap}px`);
    }
  }
  function handCards() { return [...$("hand").querySelectorAll(".card")]; }

  function tapCard(code) {
    const v = state.view;
    focusIndex = handCards().findIndex((el) => el.dataset.card === code);
    if (ginChoice && ginCards().includes(code)) { act(`knock ${code}`); return; }
    if (lifted === code && can(`discard ${code}`)) { act(`discard ${code}`); return; }
    if (lifted === code && v.phase === "discard" && code === v.taken) {
      announce("You can't throw back the card you just took from the discard pile.", true);
    }
    lifted = lifted === code ? null : code;
    drawHand(); drawActions(); focusCard(code);
  }
  function focusCard(code) {
    const el = handCards().find((e) => e.dataset.card === code);
    if (el) { handCards().forEach((e) => (e.tabIndex = -1)); el.tabIndex = 0; el.focus(); }
  }
  function putBack() {
    if (ginChoice) { ginChoice = false; drawHand(); drawActions(); setStatus(statusText()); announce("Gin cancelled."); return true; }
    if (!lifted) return false;
    const code = lifted;
    lifted = null;
    drawHand(); drawActions(); focusCard(code);
    announce(`The ${Cards.name(code)} is back in your hand.`);
    return true;
  }

  // Press and hold, or drag, to move a card within the hand.
  function bindCard(el, code) {
    let start = null, timer = null, dragging = false, lastPointer = null;
    const beginDrag = () => { dragging = true; el.classList.add("dragging"); el.setPointerCapture?.(lastPointer); };
    el.addEventListener("pointerdown", (e) => {
      start = { x: e.clientX, y: e.clientY };
      lastPointer = e.pointerId;
      timer = setTimeout(() => beginDrag(), 450);
    });
    el.addEventListener("pointermove", (e) => {
      lastPointer = e.pointerId;
      if (!start) return;
      if (!dragging && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 12) { clearTimeout(timer); beginDrag(); }
      if (dragging) markDrop(e.clientX);
    });
    el.addEventListener("pointerup", (e) => {
      clearTimeout(timer);
      if (dragging) { e.preventDefault(); dropAt(code, e.clientX); el.dataset.dragged = "1"; }
      start = null; dragging = false;
    });
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press moves the card
    el.addEventListener("pointercancel", () => { clearTimeout(timer); start = null; dragging = false; drawHand(); });
    el.addEventListener("click", () => {
      if (el.dataset.dragged) { delete el.dataset.dragged; return; }
      tapCard(code);
    });
  }
  function dropIndex(x) {
    const cards = handCards();
    const i = cards.findIndex((c) => { const r = c.getBoundingClientRect(); return x < r.left + r.width / 2; });
    return i < 0 ? cards.length : i;
  }
  function markDrop(x) {
    const cards = handCards();
    cards.forEach((c) => c.classList.remove("drop-before"));
    const i = dropIndex(x);
    if (cards[i]) cards[i].classList.add("drop-before");
  }
  function dropAt(code, x) { moveCard(code, dropIndex(x)); }
  function moveCard(code, index) {
    const current = handCards().map((c) => c.dataset.card);
    const from = current.indexOf(code);
    current.splice(from, 1);
    current.splice(index > from ? index - 1 : index, 0, code);
    order = current; sortMode = "custom";
    drawHand(); focusCard(code);
    announce(`Moved the ${Cards.name(code)} to place ${current.indexOf(code) + 1}.`);
  }

  // -- actions --------------------------------------------------------------------------
  function act(action) {
    if (!state || !can(action)) return;
    lifted = null; ginChoice = false;
    send({ type: "act", action });
  }
  function endOptions(gin) {
    const options = state.view.knock_options || {};
    return Object.keys(options).filter((c) => (gin ? options[c] === 0 : options[c] > 0))
      .sort((a, b) => options[a] - options[b] || Cards.points(b) - Cards.points(a));
  }
  const ginCards = () => endOptions(true);
  function knockCard() {
    // The lifted card if it can knock, else the one leaving the least deadwood.
    const cards = endOptions(false);
    return lifted && cards.includes(lifted) ? lifted : cards[0] || null;
  }
  function knock() {
    if (can("big-gin")) return act("big-gin");
    const card = knockCard();
    if (card) return act(`knock ${card}`);
    if (ginCards().length) return gin();
    announce(myTurn() && state.view.phase === "discard"
      ? `You cannot knock: your deadwood is over the knock limit of ${Words.limit(state.view.knock_limit)}.`
      : "You can knock only when it is your turn to discard.", true);
  }
  function gin() {
    if (can("big-gin")) return act("big-gin");
    const cards = ginCards();
    if (!cards.length) { announce("You cannot go gin with this hand.", true); return; }
    if (lifted && cards.includes(lifted)) return act(`knock ${lifted}`);
    if (cards.length === 1) return act(`knock ${cards[0]}`);
    // Several discards go gin: the player chooses which.
    ginChoice = true; lifted = null;
    drawHand(); drawActions(); setStatus(statusText());
    announce(`Go gin by discarding one of: ${cards.map(Cards.name).join(", ")}. Choose it and press Enter, or Escape.`);
    focusCard(cards[0]);
  }
  function button(label, onClick, primary = false, key = "") {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (primary) b.className = "primary";
    if (key && !Words.touchOnly()) {
      b.setAttribute("aria-keyshortcuts", key);
      const k = document.createElement("kbd");
      k.setAttribute("aria-hidden", "true");
      k.textContent = key;
      b.append(" ", k);
    }
    b.addEventListener("click", onClick);
    return b;
  }
  function drawActions() {
    const box = $("actions");
    box.replaceChildren();
    const v = state.view;
    if (v.result) { box.append(button(state.final ? "Show the final tally" : "Show the result", showResult, true)); return; }
    if (myTurn()) drawTurn(box, v);
    if (lastResult && document.body.dataset.room) box.append(button("Last hand", showLast));
  }
  function drawTurn(box, v) {
    const top = v.discards.at(-1);
    if (can("take") && (v.phase === "offer" || v.phase === "last-chance"))
      box.append(button(`Take the ${Cards.name(top)}`, () => act("take"), true, "D"));
    if (can("pass")) box.append(button("Pass", () => act("pass"), false, "S"));
    if (v.phase === "draw") {
      box.append(button("Draw from the stock", () => act("draw"), true, "S"));
      if (can("take")) box.append(button(`Take the ${Cards.name(top)}`, () => act("take"), false, "D"));
    }
    if (v.phase === "discard") drawEndings(box);
    box.append(button("Hint", () => send({ type: "hint" }), false, "H"));
  }
  function drawEndings(box) {
    const discard = button(lifted ? `Discard the ${Cards.name(lifted)}` : "Discard (lift a card first)",
      () => lifted && act(`discard ${lifted}`), true);
    discard.disabled = !lifted || !can(`discard ${lifted}`);
    box.append(discard);
    if (can("big-gin")) box.append(button("Big Gin", () => act("big-gin"), true, "G"));
    const gins = ginCards();
    gins.slice(0, 4).forEach((c, i) =>
      box.append(button(`Gin, discarding the ${Cards.name(c)}`, () => act(`knock ${c}`), true, i === 0 ? "G" : "")));
    const k = knockCard();
    if (k) box.append(button(`Knock, discarding the ${Cards.name(k)}`, () => act(`knock ${k}`), true, "K"));
  }
  function drawSheet() {
    setNodes($("sheet"), JSON.stringify([state.names, Words.me(), state.sheet]), () => {
      const running = state.names.map(() => 0);
      const signed = (p) => (p ? (p > 0 ? "+" : "−") + Math.abs(p) : "0");
      const rows = state.sheet.map((line) => {
        line.points.forEach((p, s) => (running[s] += p));
        const what = line.outcome === "void" ? "void" : `${Words.OUTCOMES[line.outcome]} (${name(line.winner)})`;
        return h("tr", {}, h("th", { scope: "row" }, `Hand ${line.hand}`), h("td", {}, what), ...line.points.map((p, s) =>
          h("td", {}, signed(p), h("span", { class: "visually-hidden" }, " points,"), " ", h("small", {}, `total ${running[s]}`))));
      });
      if (!rows.length) rows.push(h("tr", {}, h("td", { colspan: String(state.names.length + 2) }, "No hands scored yet.")));
      const heads = state.names.map((_, s) => h("th", { scope: "col" }, name(s)));
      return [h("table", {},
        h("caption", { class: "visually-hidden" }, "Score sheet: each hand's points and the running totals"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Result"), ...heads)),
        h("tbody", {}, ...rows))];
    });
  }

  // -- motion: where each card came from and went --------------------------------------
  function where() {
    if (!state) return null;
    const hand = new Map(handCards().map((c) => [c.dataset.card, c.getBoundingClientRect()]));
    const fans = new Map([...document.querySelectorAll(".opponent")].map((o) =>
      [Number(o.dataset.seat), o.querySelector(".fan").getBoundingClientRect()]));
    const top = $("discard").querySelector(".card");
    return { hand, fans, stock: $("stock").getBoundingClientRect(), discard: Motion.rect(top || $("discard")) };
  }
  const fanCard = (seat) => document.querySelector(`.opponent[data-seat="${seat}"] .fan .card:last-child`);
  const handCard = (code) => handCards().find((c) => c.dataset.card === code);
  async function animate(event, fresh, places, before) {
    if (fresh) return dealMotion();
    if (!event || !places || event === "reshuffle") return;
    const [seatText, verb, card] = event.split(" ");
    const seat = Number(seatText), mine = seat === state.view.seat;
    const top = $("discard").querySelector(".card");
    if (verb === "pass") { Motion.sound("discard"); return Motion.pulse(document.querySelector(`.score[data-seat="${seat}"]`)); }
    if (verb === "draw") {
      Motion.sound("draw");
      return Motion.fly("draw", places.stock, mine ? handCard(newest) : fanCard(seat), null,
        { fromName: "stock", toName: mine ? "hand" : `seat ${seat}` });
    }
    if (verb === "take") {
      Motion.sound("draw");
      const taken = before.view.discards.at(-1);
      const to = mine ? handCard(taken) : document.querySelector(`.opponent[data-seat="${seat}"] .known .card:last-child`) || fanCard(seat);
      return Motion.fly("take", places.discard, to, taken, { fromName: "discard", toName: mine ? "hand" : `seat ${seat}` });
    }
    if (verb === "discard" || verb === "knock") {
      Motion.sound(verb === "knock" ? (state.view.result && state.view.result.outcome === "gin" ? "gin" : "knock") : "discard");
      const from = mine ? places.hand.get(card) : places.fans.get(seat);
      return Motion.fly(verb, from, top || $("discard"), card, { fromName: mine ? "hand" : `seat ${seat}`, toName: "discard" });
    }
    if (verb === "big-gin") Motion.sound("gin");
  }
  async function dealMotion() {
    const v = state.view;
    const stock = $("stock").getBoundingClientRect();
    const step = Motion.stagger();
    const seats = v.hand_sizes.map((_, s) => s);
    const fans = new Map(seats.map((s) => [s, document.querySelectorAll(`.opponent[data-seat="${s}"] .fan .card`)]));
    const hand = handCards();
    const top = $("discard").querySelector(".card");
    const deal = []; // every card's flight, measured before any copy is added
    for (let round = 0; round < Math.max(...v.hand_sizes); round++) {
      for (const seat of seats) {
        if (round >= v.hand_sizes[seat]) continue;
        const to = seat === v.seat ? hand[round] : fans.get(seat)[round];
        deal.push(["deal", to, null, seat === v.seat ? "hand" : `seat ${seat}`]);
      }
    }
    deal.push(["upcard", top, v.upcard, "discard"]);
    const ends = deal.map(([, to]) => to && to.getBoundingClientRect());
    const flights = deal.map(([what, to, code, toName], i) =>
      Motion.fly(what, stock, to, code, { delay: step * i, fromName: "stock", toName, end: ends[i] }));
    await Promise.all(flights);
    // The upcard fixes the knock limit: a copy goes to the limit box, which lights up.
    await Motion.fly("limit", Motion.rect(top), $("limit"), v.upcard, { reveal: false, fromName: "discard", toName: "limit" });
    await Motion.pulse($("limit"));
  }

  // -- end of a hand, end of the game ---------------------------------------------------
  function showResult() {
    resultShown = state.hand_number;
    lastResult = state;
    const spoken = Result.render(state);
    const buttons = $("result-buttons");
    buttons.replaceChildren();
    delete buttons.dataset.past;
    if (state.final) {
      // Rematch: the same rules and opponents as the game just played.
      buttons.append(button("Rematch", () => { $("result").close(); newGame(state.rules, state.levels); }, true));
      buttons.append(button("New game", () => { $("result").close(); newGame(); }));
    } else {
      buttons.append(button("Next hand", () => { $("result").close(); send({ type: "next" }); }, true));
    }
    buttons.append(button("Close", () => $("result").close()));
    if (!$("result").open) $("result").showModal();
    buttons.querySelector("button").focus();
    $("result-body").scrollTop = 0; // the screen opens at its top: the winner and the tally first
    const outcome = state.view.result.outcome;
    if (outcome === "gin" || outcome === "big-gin") Motion.sound("gin");
    announce(spoken);
    document.dispatchEvent(new CustomEvent("okgin:hand-over", { detail: state }));
  }

  // -- keyboard -------------------------------------------------------------------------
  function onKey(e) {
    if (e.key === "?" && !e.target.closest("input, select, textarea")) { e.preventDefault(); openKeys(); return; }
    if (e.target.closest && e.target.closest("dialog")) return; // dialogs handle their own keys
    if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest("input, select, textarea")) return;
    const cards = handCards();
    const inHand = e.target.closest && e.target.closest("#hand");
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && cards.length) {
      e.preventDefault();
      const current = inHand ? cards.indexOf(e.target) : focusIndex;
      const next = Math.max(0, Math.min(cards.length - 1, (current < 0 ? 0 : current) + (e.key === "ArrowRight" ? 1 : -1)));
      if (e.shiftKey && inHand) { moveCard(e.target.dataset.card, next > current ? next + 1 : next); return; }
      focusIndex = next;
      focusCard(cards[next].dataset.card);
      return;
    }
    if (e.key === "Escape") { if (putBack()) e.preventDefault(); return; }
    const key = e.key.toLowerCase();
    const keys = { s: () => (can("draw") ? act("draw") : act("pass")), d: () => act("take"),
      h: () => send({ type: "hint" }), k: knock, g: gin };
    if (keys[key]) { e.preventDefault(); keys[key](); }
  }
  document.addEventListener("keydown", onKey);
  function openKeys() {
    if ($("keys").open) return;
    document.querySelectorAll("dialog[open]").forEach((d) => d.close());
    $("keys").showModal();
  }

  // -- panels ---------------------------------------------------------------------------
  function gameInProgress() { return state && !state.final && !(state.sheet.length === 0 && state.view.history.length === 0); }
  function askNewGame() {
    // In a room a new game is the room's to deal: room.js offers Rematch or Leave table instead.
    if (document.body.dataset.room) { document.dispatchEvent(new CustomEvent("okgin:new-game")); return; }
    gameInProgress() ? $("confirm").showModal() : newGame();
  }
  $("new-game").addEventListener("click", askNewGame);
  $("confirm").addEventListener("close", () => { if ($("confirm").returnValue === "new") newGame(); });
  $("open-options").addEventListener("click", () => { Settings.fillOptions(); $("options").showModal(); });
  $("open-rules").addEventListener("click", () => { Settings.drawRules(); $("rules").showModal(); });
  $("open-keys").addEventListener("click", openKeys);
  $("pile-open").addEventListener("click", () => { drawPileViewer(); $("pile").showModal(); });
  $("menu-toggle").addEventListener("click", () => {
    const open = $("menu-toggle").getAttribute("aria-expanded") !== "true";
    $("menu-toggle").setAttribute("aria-expanded", String(open));
    document.body.classList.toggle("menu-open", open);
  });
  $("stock").addEventListener("click", () => (can("draw") ? act("draw") : act("pass")));
  $("sort-rank").addEventListener("click", () => { sortMode = "rank"; syncOrder(state.view.hand); drawHand(); });
  $("sort-suit").addEventListener("click", () => { sortMode = "suit"; syncOrder(state.view.hand); drawHand(); });
  $("sort-melds").addEventListener("click", () => { sortMode = "melds"; drawHand(); });
  // Closing a dialog must not leave focus on <body>: back to the hand, or the menu.
  document.querySelectorAll("dialog").forEach((d) => d.addEventListener("close", () => setTimeout(() => {
    if (document.querySelector("dialog[open]")) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const card = handCards()[Math.max(0, focusIndex)];
    (card || $("new-game")).focus();
  })));
  new ResizeObserver(() => { if (state && handShape() !== fitted) fitHand(); }).observe($("hand"));
  Settings.onChange((options) => {
    send({ type: "options", coach: !!options.coach });
    if (state) drawHand();
  });
  Settings.onNewGame(() => askNewGame());
  window.Okgin = { send, state: () => state, announce };
  document.body.classList.toggle("touch", Words.touchOnly());
  Settings.init();
  // Connect once the page is parsed, so every script listening to the hooks (room.js, coach.js,
  // loaded after this one) hears the socket's first events.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
  else connect();
})();
