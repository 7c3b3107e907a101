// States are shown one at a time: other players' moves at the chosen pace, each after the last
// one's flight; whose move it is marked on <body> once the queue is empty.
import * as Settings from "../settings.js";
import { seatOf, show } from "./show.js";
import { forgetting, table } from "./table.js";

let queue = [], pumping = false, lastShown = 0;
forgetting.add((game) => { if (game) queue = []; });

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// A state from the server, shown in its turn.
export function queueState(message) {
  queue.push(message);
  pump();
}
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
  const state = table.state(), v = state.view;
  const mine = v.seat !== null && v.to_act === v.seat && !queue.length;
  document.body.dataset.turn = state.final ? "over" : v.result ? "hand-over" : mine ? "you" : "others";
  document.body.dataset.phase = v.phase;
}
