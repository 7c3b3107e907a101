// Play online (/play-online): join the pool with the chosen rules and seats, look in every
// second (each look keeps our place), offer the computer player once the server says so, and
// go to the table (/r/<room>, where our seat is found by our player) once seated.

const form = document.getElementById("seek");
const waiting = document.getElementById("waiting");
const status = document.getElementById("seek-status");
const cancel = document.getElementById("seek-cancel");
const computer = document.getElementById("seek-computer");
const error = document.getElementById("seek-error");
const csrf = form.querySelector('input[name="csrf"]').value;
const LOOK_MS = 1000;

let seeker = null;
let timer = null;
let pressKey = null; // the key of a press of Seek not yet answered

// getRandomValues, not randomUUID: the page may be served over plain HTTP on a home network.
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

async function call(path, body = {}) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
  } catch {
    return { error: "the server cannot be reached: trying again", unreachable: true };
  }
  let answer = {};
  try {
    answer = await response.json();
  } catch { // not our answer (a proxy's page: the server behind it gone)
    answer = { error: `the server answered ${response.status}`, unreachable: true };
  }
  return answer;
}

function showError(text) {
  error.textContent = text;
  error.hidden = !text;
}

function stop() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  seeker = null;
  waiting.hidden = true;
  computer.hidden = true;
  form.hidden = false;
}

function show(answer) {
  if (answer.error) { // refused (nothing changed): while waiting, the next look tries again
    showError(answer.error);
    if (!seeker) stop();
    return seeker !== null;
  }
  if (answer.state === "seated") {
    status.textContent = "Seated: going to your table…";
    location.assign(`/r/${answer.room}`);
    return false;
  }
  if (answer.state === "gone" || answer.state === "cancelled") {
    stop();
    if (answer.state === "gone") showError(answer.message);
    return false;
  }
  showError("");
  seeker = answer.seeker;
  form.hidden = true;
  waiting.hidden = false;
  const waited = Math.floor(answer.waited);
  status.textContent = answer.state === "pairing"
    ? "A table is being made for you…"
    : `Waiting ${waited} s · your rating ${answer.rating} · players within ${answer.window} points`
      + (answer.offer ? " · nobody yet: you may play a computer player instead" : "");
  computer.hidden = !answer.offer;
  return true;
}

async function look() {
  timer = null;
  const mine = seeker;
  if (!mine) return;
  const answer = await call(`/play-online/seek/${mine}`);
  if (seeker !== mine) return; // cancelled (or seated) while this look was on its way
  if (show(answer) && seeker) timer = setTimeout(look, LOOK_MS);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const fields = new FormData(form);
  const [rules, seats] = fields.get("choice").split("/");
  // The press's key is kept until the server answers it: pressing again after a lost answer
  // (the server unreachable) is the same seek, never a second place in the pool.
  pressKey = pressKey || newKey();
  const answer = await call("/play-online/seek", { rules, seats: Number(seats), name: fields.get("name"),
                                                   bots: fields.get("bots") === "on", key: pressKey });
  if (!answer.unreachable) pressKey = null;
  if (show(answer)) timer = setTimeout(look, LOOK_MS);
});

// Play is disabled in the page until now: pressed before this script ran, it sent the form as
// a plain GET and seeked nothing.
document.getElementById("seek-play").disabled = false;

cancel.addEventListener("click", async () => {
  if (!seeker) return;
  const answer = await call(`/play-online/seek/${seeker}/cancel`);
  if (!answer.error) show(answer);
  else showError(answer.error);
});

computer.addEventListener("click", async () => {
  if (!seeker) return;
  computer.disabled = true;
  const answer = await call(`/play-online/seek/${seeker}/computer`);
  computer.disabled = false;
  if (!answer.error) show(answer);
  else showError(answer.error);
});
