// The page's one WebSocket to the server, which holds the game: opened on the room or game in
// the URL (so a proxy sends every page of one room to one process), numbered messages, and a
// new socket a second after one is lost.
let socket = null, nextId = 1;
let newWhileAway = null; // Rematch or New game chosen while reconnecting: sent once open
let handlers = null;

// Messages whose answer (ack or error) the page waits for: the table's, and the room's controls.
const NUMBERED = ["act", "next", "hint", "advice", "review", "sit", "computer", "clear", "start", "rematch", "leave",
                  "stake"];

// Opens the socket: `open({ newWhileAway })` when it opens, `message(m)` for each message,
// `close()` when it is lost (a new one is opened a second later).
export function connect({ open, message, close }) {
  handlers = { open, message, close };
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const room = (location.pathname.match(/^\/r\/([^/]+)/) || [])[1], game = localStorage.getItem("okgin.game");
  const route = room ? `?room=${encodeURIComponent(room)}` : game ? `?game=${encodeURIComponent(game)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws${route}`);
  socket.addEventListener("open", () => {
    const waiting = newWhileAway;
    newWhileAway = null;
    open({ newWhileAway: waiting });
  });
  socket.addEventListener("message", (event) => message(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    close();
    setTimeout(() => connect(handlers), 1000);
  });
}

// Sends `message`; returns its id if it is numbered. Ids only grow on a connection (the server
// refuses a replay), so this is their one source.
export function send(message) {
  if (NUMBERED.includes(message.type)) message.id = nextId++;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else if (message.type === "new") newWhileAway = message;
  return message.id;
}
