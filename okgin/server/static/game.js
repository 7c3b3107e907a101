// The game page: one WebSocket to the server, which holds the game; this page only shows
// the seat's view and sends the person's choices.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const GAME_KEY = "okgin.game";
  let socket = null, state = null, lifted = null, order = [], sortMode = "melds";
  let nextId = 1, focusIndex = 0, queue = [], pumping = false, resultShown = null, lastShown = 0;
  const pending = new Map();

  // -- connection ------------------------------------------------------------------------
  const TOKEN_KEY = "okgin.token";  // this browser's seat token for its game against the computer
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.addEventListener("open", () => {
      // room.js (a room's page, /r/<code>) opens the room itself; hooks: docs/web.md.
      document.dispatchEvent(new CustomEvent("okgin:open", { detail: { send } }));
      const game = localStorage.getItem(GAME_KEY);
      if (document.body.dataset.room) { /* room.js has sent "enter" */ }
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
  function send(message) {
    // Ids only grow on a connection (the server refuses a replay), so this is their one source.
    if (["act", "next", "hint", "advice", "review"].includes(message.type)) message.id = nextId++;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    return message.id;
  }
  function newGame() {
    queue = []; lifted = null; order = []; resultShown = null; sortMode = "melds";
    $("result").open && $("result").close();
    send({ type: "new", rules: Settings.currentRules(), opponents: Settings.options.levels });
  }
  function receive(message) {
    document.dispatchEvent(new CustomEvent("okgin:message", { detail: message }));
    if (message.type === "joined") {
      if (message.solo) localStorage.setItem(GAME_KEY, message.game);
      if (message.solo && message.token) localStorage.setItem(TOKEN_KEY, message.token);
      return;
    }
    if (message.type === "state") { queue.push(message); pump(); return; }
    if (message.type === "hint") { announce(message.text, true); return; }
    if (message.type === "error") {
      if (/^(no such game|that seat token)/.test(message.message) && !document.body.dataset.room) {
        localStorage.removeItem(GAME_KEY); newGame(); return;
      }
      announce(message.message, true);
    }
  }

  // Computer players' moves are shown one at a time, at the chosen speed.
  async function pump() {
    if (pumping) return;
    pumping = true;
    while (queue.length) {
      const mover = seatOf(queue[0].event);
      if (mover !== null && mover !== 0) {
        const wait = lastShown + Settings.delay() - performance.now();
        if (wait > 0) await sleep(wait);
      }
      show(queue.shift());
      lastShown = performance.now();
    }
    pumping = false;
    markTurn();
  }
  // Whose move it is, on <body>, for styles and for the browser tests.
  function markTurn() {
    const v = state.view;
    const turn = state.final ? "over" : v.result ? "hand-over" : v.to_act === 0 && !queue.length ? "you" : "others";
    document.body.dataset.turn = turn;
    document.body.dataset.phase = v.phase;
  }
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const seatOf = (event) => (event && /^\d/.test(event) ? Number(event.split(" ")[0]) : null);

  // -- showing the state ----------------------------------------------------------------
  function show(message) {
    const fresh = !state || state.game !== message.game || state.hand_number !== message.hand_number;
    state = message;
    const view = state.view;
    if (fresh) { order = []; lifted = null; resultShown = null; }
    document.body.dataset.turn = "others";
    document.body.dataset.seq = String(Number(document.body.dataset.seq || 0) + 1);
    syncOrder(view.hand);
    if (lifted && !view.hand.includes(lifted)) lifted = null;
    if (message.event) announce(describe(message.event));
    $("table").setAttribute("aria-busy", "false");
    drawScores(); drawOpponents(); drawMiddle(); drawHand(); drawActions(); drawSheet();
    $("status").textContent = statusText();
    $("tagline").textContent = `You against ${state.names.slice(1).join(" and ")} — ` +
      `the up-card sets the knock limit — first to ${view.target}`;
    $("howto-link").href = `/how-to-play?game=${encodeURIComponent(state.game)}`;
    if (view.result && resultShown !== state.hand_number) showResult();
    if (!view.result && $("result").open) $("result").close();
    document.dispatchEvent(new CustomEvent("okgin:state", { detail: state }));
  }
  const name = (seat) => state.names[seat];
  function describe(event) {
    if (event === "deal") return `Hand ${state.hand_number} is dealt. The knock limit is ${limitText()}.`;
    const [seatText, verb, card] = event.split(" ");
    const who = name(Number(seatText));
    const you = seatText === "0";
    const s = (word) => (you ? word : word + "s");
    if (verb === "draw") return `${who} ${s("draw")} from the stock.`;
    if (verb === "take") return `${who} ${s("take")} the ${Cards.name(state.view.picked[Number(seatText)].at(-1) || "AS")}.`;
    if (verb === "pass") return `${who} ${s("pass")}.`;
    if (verb === "discard") return `${who} ${s("discard")} the ${Cards.name(card)}.`;
    if (verb === "knock") return `${who} ${you ? "knock" : "knocks"}.`;
    if (verb === "big-gin") return `${who} ${you ? "go" : "goes"} Big Gin!`;
    return event;
  }
  function limitText() {
    const v = state.view;
    return v.knock_limit === 0 ? "gin only" : String(v.knock_limit);
  }
  function statusText() {
    const v = state.view;
    if (state.final) return `${name(state.final.winner)} ${state.final.winner === 0 ? "win" : "wins"} the game!`;
    if (v.result) return "The hand is over.";
    if (v.to_act === 0) {
      if (v.phase === "offer") return "Your turn: take the upcard or pass.";
      if (v.phase === "draw") return "Your turn: draw from the stock or take the discard.";
      if (v.phase === "last-chance") return "Last chance: take the discard to knock, or pass.";
      return "Your turn: discard a card (tap it twice), or knock.";
    }
    return `${name(v.to_act)} is playing…`;
  }
  function announce(text, polite = false) {
    const p = document.createElement("p");
    p.textContent = text;
    $("live").append(p);
    while ($("live").children.length > 5) $("live").firstChild.remove();
    if (polite) $("status").textContent = text;
  }
  function setStatus(text) { $("status").textContent = text; }

  function drawScores() {
    const box = $("scores");
    box.innerHTML = "";
    state.names.forEach((who, seat) => {
      const div = document.createElement("div");
      div.className = "score" + (state.view.to_act === seat ? " turn" : "");
      div.innerHTML = `${who}${state.view.dealer === seat ? " (dealer)" : ""}: <b>${state.totals[seat]}</b>`;
      div.setAttribute("aria-label", `${who}: ${state.totals[seat]} points`);
      box.append(div);
    });
  }
  function drawOpponents() {
    const box = $("opponents");
    box.innerHTML = "";
    state.view.hand_sizes.forEach((count, seat) => {
      if (seat === 0) return;
      const div = document.createElement("div");
      div.className = "opponent";
      div.innerHTML = `<div class="name">${name(seat)} · ${state.levels[seat - 1]} · ${count} cards</div>`;
      const fan = document.createElement("div");
      fan.className = "fan";
      fan.setAttribute("aria-label", `${name(seat)}'s hand: ${count} face-down cards`);
      fan.setAttribute("role", "group");
      for (let i = 0; i < count; i++) fan.append(Cards.back());
      div.append(fan);
      box.append(div);
    });
  }
  function can(action) { return state.view.legal.includes(action); }
  function drawMiddle() {
    const v = state.view;
    $("stock-count").textContent = v.stock_count;
    $("stock").setAttribute("aria-label", `Stock, ${v.stock_count} cards` + (can("draw") ? ": draw (S)" : ""));
    $("stock").disabled = !(can("draw") || can("pass"));
    $("stock").classList.toggle("hot", can("draw"));
    const pile = $("discard");
    pile.innerHTML = "";
    const top = v.discards.at(-1);
    if (top) {
      const card = Cards.face(top, "button");
      card.setAttribute("aria-label", `Discard pile: ${Cards.name(top)}` + (can("take") ? ": take (D)" : ""));
      card.disabled = !can("take");
      card.classList.toggle("hot", can("take"));
      card.addEventListener("click", () => act("take"));
      pile.append(card);
    }
    const spade = v.multiplier === 2
      ? `<span class="spade" aria-label="Spades double: this hand scores double">♠ ×2</span>` : "";
    $("limit").innerHTML = `<small>Knock limit</small><b>${v.knock_limit === 0 ? "Gin only" : v.knock_limit}</b>` +
      `<small>upcard ${Cards.short(v.upcard)}</small>${spade}`;
    $("limit").setAttribute("aria-label", `Knock limit ${limitText()}, set by the ${Cards.name(v.upcard)}` +
      (v.multiplier === 2 ? "; spades double" : ""));
  }

  // Hand order: the person's own order, kept across states; new cards go at the end.
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
  function drawHand() {
    const v = state.view;
    const inMeld = new Set(v.arrangement.melds.flat());
    const near = new Set(state.coach ? state.coach.near_melds.flat() : []);
    const melds = v.arrangement.melds.length;
    $("deadwood").innerHTML = v.after_discard === null
      ? `Deadwood <b>${v.arrangement.deadwood}</b> · ${melds} meld${melds === 1 ? "" : "s"}`
      : `Deadwood <b>${v.after_discard}</b> after your best discard · ${melds} meld${melds === 1 ? "" : "s"}`;
    const box = $("hand");
    box.innerHTML = "";
    const flat = [];
    for (const group of groups()) {
      const div = document.createElement("div");
      div.className = "group" + (group.meld ? " meld" : "");
      if (group.meld) div.setAttribute("aria-label", "meld");
      for (const code of group.cards) {
        const card = Cards.face(code, "button");
        const extra = [];
        if (inMeld.has(code)) { extra.push("in a meld"); card.classList.add("in-meld"); }
        if (code === v.taken) { card.classList.add("taken"); extra.push("just taken"); }
        if (code === lifted) { card.classList.add("lifted"); extra.push("lifted"); }
        if (near.has(code)) card.classList.add("near");
        if (extra.length) card.setAttribute("aria-label", `${Cards.name(code)}, ${extra.join(", ")}`);
        card.setAttribute("aria-pressed", String(code === lifted));
        card.tabIndex = -1;
        bindCard(card, code);
        div.append(card);
        flat.push(card);
      }
      box.append(div);
    }
    focusIndex = Math.min(focusIndex, flat.length - 1);
    if (flat.length) flat[Math.max(focusIndex, 0)].tabIndex = 0;
  }
  function handCards() { return [...$("hand").querySelectorAll(".card")]; }

  function tapCard(code) {
    const v = state.view;
    focusIndex = handCards().findIndex((el) => el.dataset.card === code);
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

  // Press and hold, or drag, to move a card within the hand.
  function bindCard(el, code) {
    let start = null, timer = null, dragging = false;
    el.addEventListener("pointerdown", (e) => {
      start = { x: e.clientX, y: e.clientY };
      timer = setTimeout(() => beginDrag(), 450);
    });
    const beginDrag = () => { dragging = true; el.classList.add("dragging"); el.setPointerCapture?.(lastPointer); };
    let lastPointer = null;
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
    lifted = null;
    send({ type: "act", action });
  }
  function knockOptions() {
    return state.view.legal.filter((a) => a.startsWith("knock ")).map((a) => a.split(" ")[1]);
  }
  function knockCard(gin) {
    // The lifted card if it can end the hand that way, else the first that can.
    const options = state.view.knock_options || {};
    const cards = knockOptions().filter((c) => (gin ? options[c] === 0 : options[c] > 0));
    if (lifted && cards.includes(lifted)) return lifted;
    return cards.sort((a, b) => options[a] - options[b])[0] || null;
  }
  function button(label, onClick, primary = false, key = "") {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (primary) b.className = "primary";
    if (key) b.setAttribute("aria-keyshortcuts", key);
    b.addEventListener("click", onClick);
    return b;
  }
  function drawActions() {
    const box = $("actions");
    box.innerHTML = "";
    const v = state.view;
    if (v.result) {
      box.append(button("Show the result", showResult, true));
      return;
    }
    if (v.to_act !== 0) return;
    if (can("take") && (v.phase === "offer" || v.phase === "last-chance"))
      box.append(button(`Take the ${Cards.short(v.discards.at(-1))}`, () => act("take"), true, "D"));
    if (can("pass")) box.append(button("Pass", () => act("pass"), false, "S"));
    if (v.phase === "draw") {
      box.append(button("Draw from the stock", () => act("draw"), true, "S"));
      if (can("take")) box.append(button(`Take the ${Cards.short(v.discards.at(-1))}`, () => act("take"), false, "D"));
    }
    if (v.phase === "discard") {
      const discard = button(lifted ? `Discard the ${Cards.short(lifted)}` : "Discard",
        () => lifted && act(`discard ${lifted}`), true);
      discard.disabled = !lifted || !can(`discard ${lifted}`);
      box.append(discard);
      const gin = knockCard(true), knock = knockCard(false);
      if (gin) box.append(button(`Gin (discard the ${Cards.short(gin)})`, () => act(`knock ${gin}`), true));
      if (knock) box.append(button(`Knock (discard the ${Cards.short(knock)})`, () => act(`knock ${knock}`), true));
      if (can("big-gin")) box.append(button("Big Gin", () => act("big-gin"), true));
    }
    box.append(button("Hint", () => send({ type: "hint" }), false, "H"));
  }
  function drawSheet() {
    const rows = [];
    const running = state.names.map(() => 0);
    for (const line of state.sheet) {
      line.points.forEach((p, s) => (running[s] += p));
      const what = line.outcome === "void" ? "void" : `${line.outcome} (${name(line.winner)})`;
      rows.push(`<tr><td>${line.hand}</td><td>${what}</td>${line.points.map((p, s) =>
        `<td>${p ? (p > 0 ? "+" : "") + p : "–"} <small>${running[s]}</small></td>`).join("")}</tr>`);
    }
    $("sheet").innerHTML = `<table><thead><tr><th>Hand</th><th>Result</th>${state.names.map((n) =>
      `<th>${n}</th>`).join("")}</tr></thead><tbody>${rows.join("") || "<tr><td colspan=4>No hands scored yet.</td></tr>"}</tbody></table>`;
  }

  // -- end of a hand, end of the game ---------------------------------------------------
  function cardsRow(codes, laid = new Set()) {
    const div = document.createElement("div");
    div.className = "group";
    for (const code of codes) {
      const el = Cards.face(code);
      el.classList.add("small");
      if (laid.has(code)) { el.classList.add("laid"); el.setAttribute("aria-label", `${Cards.name(code)}, laid off`); }
      div.append(el);
    }
    return div;
  }
  function outcomeText(r) {
    if (r.outcome === "void") return "The stock ran out: no score, the same dealer deals again.";
    const k = name(r.knocker), w = name(r.winner);
    const verbs = r.knocker === 0
      ? { knock: "knock", gin: "go gin", "big-gin": "go Big Gin", undercut: "knock" }
      : { knock: "knocks", gin: "goes gin", "big-gin": "goes Big Gin", undercut: "knocks" };
    let text = `${k} ${verbs[r.outcome]}`;
    if (r.outcome === "undercut") text += ` and ${w} ${r.winner === 0 ? "undercut" : "undercuts"}`;
    return `${text}. ${w} ${r.winner === 0 ? "score" : "scores"} ${r.points[r.winner]}.`;
  }
  function showResult() {
    const r = state.view.result;
    resultShown = state.hand_number;
    const body = $("result-body");
    body.innerHTML = "";
    const head = document.createElement("p");
    head.className = "outcome";
    head.textContent = outcomeText(r);
    body.append(head);
    const laidBy = new Map(r.layoffs.map(([seat, cards]) => [seat, new Set(cards)]));
    r.shown.forEach((shown, seat) => {
      const sec = document.createElement("section");
      sec.className = "shown";
      sec.innerHTML = `<h3>${name(seat)}${seat === r.knocker ? " (knocked)" : ""}: deadwood ${r.deadwood[seat]}</h3>`;
      const row = document.createElement("div");
      row.className = "cards";
      const melds = seat === r.knocker && r.knocker_melds.length ? r.knocker_melds : shown.melds;
      const laidAll = new Set([...laidBy.values()].flatMap((s) => [...s]));
      melds.forEach((m) => row.append(cardsRow(m, seat === r.knocker ? laidAll : new Set())));
      if (shown.unmatched.length) {
        const dead = cardsRow(shown.unmatched);
        dead.setAttribute("aria-label", "deadwood");
        row.append(dead);
      }
      sec.append(row);
      if (laidBy.has(seat)) {
        const p = document.createElement("p");
        p.textContent = `Laid off: ${[...laidBy.get(seat)].map(Cards.short).join(" ")}`;
        sec.append(p);
      }
      body.append(sec);
    });
    r.working.forEach((w, seat) => {
      if (!w) return;
      const p = document.createElement("p");
      p.className = "working";
      p.textContent = `${name(seat)}: ${w}`;
      body.append(p);
    });
    const totals = document.createElement("p");
    totals.textContent = "Totals: " + state.names.map((n, s) => `${n} ${state.totals[s]}`).join(", ");
    body.append(totals);
    if (state.final) body.append(finalTable());
    const buttons = $("result-buttons");
    buttons.innerHTML = "";
    if (state.final) buttons.append(button("New game", () => { $("result").close(); newGame(); }, true));
    else buttons.append(button("Next hand", () => { $("result").close(); send({ type: "next" }); }, true));
    buttons.append(button("Close", () => $("result").close()));
    if (!$("result").open) $("result").showModal();
    announce(head.textContent + " " + r.working.filter(Boolean).join(" "));
    document.dispatchEvent(new CustomEvent("okgin:hand-over", { detail: state }));
  }
  function finalTable() {
    const f = state.final;
    const div = document.createElement("div");
    div.id = "final";
    const row = (label, key) => `<tr><th>${label}</th>${f.seats.map((s) => `<td>${s[key]}</td>`).join("")}</tr>`;
    div.innerHTML = `<h3>${name(f.winner)} ${f.winner === 0 ? "win" : "wins"} the game${f.shutout ? " — a shutout!" : ""}</h3>` +
      `<table><thead><tr><th></th>${state.names.map((n) => `<th>${n}</th>`).join("")}</tr></thead><tbody>` +
      row("Points from hands", "points") + row("Hands won", "hands_won") + row("Hand bonuses", "hand_bonus") +
      row("Game bonus", "game_bonus") + row("Shutout", "shutout_bonus") + row("Boxes", "box_bonus") +
      row("Final score", "score") + `</tbody></table>`;
    return div;
  }

  // -- keyboard -------------------------------------------------------------------------
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("dialog")) return; // dialogs handle their own keys
    if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
    const cards = handCards();
    const inHand = e.target.closest && e.target.closest("#hand");
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && cards.length) {
      e.preventDefault();
      const current = inHand ? cards.indexOf(e.target) : focusIndex;
      const step = e.key === "ArrowRight" ? 1 : -1;
      const next = Math.max(0, Math.min(cards.length - 1, (current < 0 ? 0 : current) + step));
      if (e.shiftKey && inHand) { moveCard(e.target.dataset.card, next > current ? next + 1 : next); return; }
      focusIndex = next;
      focusCard(cards[next].dataset.card);
      return;
    }
    const key = e.key.toLowerCase();
    if (key === "s") { e.preventDefault(); can("draw") ? act("draw") : act("pass"); }
    else if (key === "d") { e.preventDefault(); act("take"); }
    else if (key === "h") { e.preventDefault(); send({ type: "hint" }); }
  });

  // -- panels ---------------------------------------------------------------------------
  function gameInProgress() { return state && !state.final && state.hand_number > 0 && !(state.sheet.length === 0 && state.view.history.length === 0); }
  $("new-game").addEventListener("click", () => (gameInProgress() ? $("confirm").showModal() : newGame()));
  $("confirm").addEventListener("close", () => { if ($("confirm").returnValue === "new") newGame(); });
  $("open-options").addEventListener("click", () => { Settings.fillOptions(); $("options").showModal(); });
  $("open-rules").addEventListener("click", () => { Settings.drawRules(); $("rules").showModal(); });
  $("stock").addEventListener("click", () => (can("draw") ? act("draw") : act("pass")));
  $("sort-rank").addEventListener("click", () => { sortMode = "rank"; syncOrder(state.view.hand); drawHand(); });
  $("sort-suit").addEventListener("click", () => { sortMode = "suit"; syncOrder(state.view.hand); drawHand(); });
  $("sort-melds").addEventListener("click", () => { sortMode = "melds"; drawHand(); });
  Settings.onChange((options) => {
    send({ type: "options", coach: !!options.coach });
    if (state) drawHand();
  });
  window.Okgin = { send, state: () => state, announce };
  Settings.init();
  connect();
})();
