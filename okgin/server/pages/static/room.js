// Rooms: "Play with friends", the lobby at /r/<code>, seats, the host's controls, who is away,
// the reconnect banner, quick phrases and the rematch. It talks to the server through game.js's
// events (okgin:open, okgin:message, okgin:close) and never draws the table itself.
"use strict";
(() => {
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{4,40})$/);
  const code = match ? match[1] : null;
  const tokenKey = (room) => `okgin.room.${room}`;
  const LEVELS = ["easy", "normal", "hard"];
  let send = null, room = null, you = null, ticking = null;

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "on") node.addEventListener("click", value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  };
  // No ids: game.js numbers its own messages on this socket, and ids may only grow.
  const request = (message) => send && send(message);

  // -- on the ordinary page: "Play with friends" ------------------------------------------
  function offerRooms() {
    const nav = document.querySelector("header nav");
    if (!nav) return;
    const dialog = el("dialog", { id: "friends", "aria-labelledby": "friends-title" });
    const name = el("input", { id: "friends-name", name: "name", maxlength: "20", autocomplete: "nickname" });
    const seats = el("select", { id: "friends-seats", name: "seats" },
      ...[2, 3, 4].map((n) => el("option", { value: String(n), text: `${n} players` })));
    const timer = el("select", { id: "friends-timer", name: "timer" },
      el("option", { value: "", text: "No turn timer" }),
      ...[30, 60, 120].map((n) => el("option", { value: String(n), text: `${n} seconds a turn` })));
    const create = el("button", { type: "button", id: "friends-create", text: "Create the table", on: () => {
      if (!name.value.trim()) { name.focus(); return; }
      localStorage.setItem("okgin.name", name.value.trim());
      const rules = typeof Settings !== "undefined" ? Settings.currentRules() : "oklahoma";
      request({ type: "create", name: name.value, players: Number(seats.value), rules,
                timer: timer.value ? Number(timer.value) : null });
    } });
    name.value = localStorage.getItem("okgin.name") || "";
    dialog.append(el("h2", { id: "friends-title", text: "Play with friends" }),
      el("p", { text: "You get a link to send; friends open it, type their name and sit down. " +
                      "Empty seats can be filled with computer players." }),
      el("label", { class: "opt" }, el("b", { text: "Your name" }), " ", name),
      el("label", { class: "opt" }, el("b", { text: "Seats" }), " ", seats),
      el("label", { class: "opt" }, el("b", { text: "Turn timer" }), " ", timer),
      el("p", { class: "small", text: "The house rules you chose apply." }),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", text: "Cancel", on: () => dialog.close() }), create));
    document.body.append(dialog);
    nav.prepend(el("button", { type: "button", id: "play-friends", text: "Play with friends",
                               on: () => dialog.showModal() }));
  }

  // -- in a room ----------------------------------------------------------------------------
  const panel = el("section", { id: "room", "aria-label": "Table", hidden: "" });
  const banner = el("div", { id: "reconnect", role: "alert", hidden: "" }, "Connection lost: reconnecting…");
  const said = el("div", { id: "said", "aria-live": "polite" });

  function seatRow(seat, index) {
    const row = el("li", { class: "seat", "data-seat": String(index) });
    const host = you === room.host && you !== null;
    const who = seat.kind === "empty" ? "Empty seat"
      : seat.kind === "computer" ? `${seat.name} (computer, ${seat.level})` : seat.name;
    row.append(el("span", { class: "who", text: who + (index === room.host ? " · host" : "") +
                                                (index === you ? " · you" : "") }));
    if (seat.away) row.append(el("span", { class: "away", text: seat.stand_in
      ? ` · away: the computer plays for now (${seat.stand_in})` : " · away" }));
    if (room.phase === "lobby" && seat.kind === "empty" && you === null) {
      const name = el("input", { class: "seat-name", "aria-label": "Your name", placeholder: "Your name",
                                  maxlength: "20" });
      name.value = localStorage.getItem("okgin.name") || "";
      row.append(name, el("button", { type: "button", class: "sit", text: "Take this seat", on: () => {
        localStorage.setItem("okgin.name", name.value.trim());
        request({ type: "sit", seat: index, name: name.value });
      } }));
    }
    if (host && room.phase === "lobby" && seat.kind !== "person") row.append(levelControl(index, seat));
    if (host && room.phase === "playing" && seat.away && !seat.stand_in && index !== you) {
      row.append(el("button", { type: "button", class: "stand-in", text: "Let the computer play",
                                on: () => request({ type: "computer", seat: index, level: "normal" }) }));
    }
    return row;
  }

  function levelControl(index, seat) {
    const level = el("select", { class: "level", "aria-label": `Computer level for seat ${index + 1}` },
      ...LEVELS.map((l) => el("option", { value: l, text: l })));
    level.value = seat.level || "normal";
    const add = el("button", { type: "button", class: "add-computer",
      text: seat.kind === "computer" ? "Change" : "Add computer player",
      on: () => request({ type: "computer", seat: index, level: level.value }) });
    const box = el("span", { class: "controls" }, level, add);
    if (seat.kind === "computer") {
      box.append(el("button", { type: "button", class: "remove", text: "Remove",
                                on: () => request({ type: "clear", seat: index }) }));
    }
    return box;
  }

  function draw() {
    panel.hidden = false;
    document.body.dataset.roomPhase = room.phase;
    const link = `${location.origin}/r/${room.code}`;
    const input = el("input", { id: "room-link", readonly: "", value: link, "aria-label": "Invite link" });
    const copy = el("button", { type: "button", id: "copy-link", text: "Copy link", on: async () => {
      input.select();
      try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch { /* selected */ }
    } });
    const parts = [el("h2", { text: room.phase === "lobby" ? "Waiting for players" : "At the table" })];
    if (room.phase === "lobby") parts.push(el("p", { class: "invite" }, "Invite friends: ", input, " ", copy));
    parts.push(el("ul", { id: "seats" }, ...room.seats.map(seatRow)));
    const buttons = el("div", { class: "room-buttons" });
    if (room.phase === "lobby" && you === room.host) {
      buttons.append(el("button", { type: "button", id: "start-game", text: "Start game",
                                    on: () => request({ type: "start" }) }));
    }
    if (room.phase === "lobby" && you === null) parts.push(el("p", { text: "Take a seat, or watch." }));
    if (room.phase === "finished" && you !== null) {
      buttons.append(el("button", { type: "button", id: "rematch", text: "Rematch",
                                    on: () => request({ type: "rematch" }) }));
    }
    if (you !== null) {
      buttons.append(...room.phrases.map((p) => el("button", { type: "button", class: "phrase", text: p,
                                                               on: () => request({ type: "say", phrase: p }) })));
    }
    parts.push(buttons, el("p", { id: "turn-timer", hidden: "" }), said);
    panel.replaceChildren(...parts);
    tick();
  }

  function tick() {
    clearInterval(ticking);
    const line = document.getElementById("turn-timer");
    if (!room.deadline || !line) return;
    const update = () => {
      const left = Math.max(0, Math.round(room.deadline - Date.now() / 1000));
      line.hidden = false;
      line.textContent = `${left} seconds left for this turn`;
    };
    update();
    ticking = setInterval(update, 1000);
  }

  function receive(message) {
    if (message.type === "room") {
      banner.hidden = true;
      room = message;
      you = message.you;
      if (code) draw();
    } else if (message.type === "joined" && message.room && !message.solo) {
      if (message.token) localStorage.setItem(tokenKey(message.room), message.token);
      if (!code) location.assign(`/r/${message.room}`);
    } else if (message.type === "said") {
      said.prepend(el("p", { text: `${message.name}: ${message.phrase}` }));
      while (said.children.length > 4) said.lastChild.remove();
    } else if (message.type === "error" && code && message.message.startsWith("that seat token")) {
      localStorage.removeItem(tokenKey(code));
      request({ type: "enter", room: code });
    } else if (message.type === "error" && code && message.message.startsWith("no such room")) {
      panel.hidden = false;
      panel.replaceChildren(el("h2", { text: "No such table" }),
        el("p", { text: "Check the link, or " }, el("a", { href: "/", text: "play against the computer" })));
    }
  }

  document.addEventListener("okgin:open", (event) => {
    send = event.detail.send;
    if (!code) return;
    const token = localStorage.getItem(tokenKey(code));
    request({ type: "enter", room: code, ...(token ? { token } : {}) });
  });
  document.addEventListener("okgin:message", (event) => receive(event.detail));
  // At the end of a room's game the result's Rematch keeps the room and its seats (not a new solo game).
  document.addEventListener("okgin:hand-over", (event) => {
    if (!code || !event.detail.final) return;
    for (const old of document.querySelectorAll("#result-buttons button")) {
      if (old.textContent !== "Rematch") continue;
      const button = el("button", { type: "button", class: "primary", text: "Rematch", on: () => {
        document.getElementById("result").close();
        request({ type: "rematch" });
      } });
      old.replaceWith(button);
    }
  });
  document.addEventListener("okgin:close", () => { if (code) banner.hidden = false; });

  // Marked now, not at DOMContentLoaded: game.js's socket may open before the parser is done
  // (a later script still loading), and it must already know this page belongs to a room.
  if (code) document.body.dataset.room = code;
  const start = () => {
    if (code) {
      document.querySelector("header").after(banner);
      // Beside the table on a wide screen; on a phone folded into the header's Menu (table.css).
      (document.getElementById("side") || document.querySelector("main")).prepend(panel);
    } else {
      offerRooms();
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
