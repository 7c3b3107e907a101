// Motion and sound: copies of cards fly between the stock, the pile and the hands, so a
// player sees where every card went; short sounds are synthesized (no audio files).
import * as Cards from "./cards.js";
import * as Settings from "./settings.js";
// How long one card takes to fly, by opponent speed; "instant" still shows the move.
const DURATIONS = { slow: 650, normal: 420, fast: 260, instant: 160 };
const log = []; // the last flights, for the browser tests: {what, card, from, to, ms}

const reduced = () => document.body.classList.contains("reduce");
const duration = () => (reduced() ? 1 : DURATIONS[Settings.options.speed] ?? 420);

// A snapshot of where things are before the table is redrawn: the cards leave from here.
function rect(el) { return el ? el.getBoundingClientRect() : null; }

// Fly a copy of a card (face up with `code`, else a back) from the rectangle `from` onto
// the element `to`, which stays hidden until the copy lands.
// `end`, the rectangle of `to` measured beforehand, lets a caller measure many targets before
// adding any copy: reading layout after each write would lay the page out once per card.
function fly(what, from, to, code = null, { delay = 0, reveal = true, fromName = "", toName = "", end = null } = {}) {
  const ms = duration();
  log.push({ what, card: code, from: fromName, to: toName, ms });
  while (log.length > 80) log.shift();
  if (!from || !to || ms <= 1) return Promise.resolve();
  end = end || to.getBoundingClientRect();
  if (!end.width) return Promise.resolve();
  const card = code ? Cards.face(code) : Cards.back();
  card.classList.add("flying");
  card.setAttribute("aria-hidden", "true");
  Object.assign(card.style, { left: `${end.left}px`, top: `${end.top}px`,
    width: `${end.width}px`, height: `${end.height}px` });
  // Hidden until the copy lands, unless it holds the focus: a hidden element drops it to <body>.
  if (reveal && !to.contains(document.activeElement)) to.classList.add("arriving");
  document.getElementById("flying").append(card);
  const dx = from.left - end.left, dy = from.top - end.top, scale = from.width / end.width || 1;
  const animation = card.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
    { transform: "translate(0, 0) scale(1)" },
  ], { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  return animation.finished.catch(() => {}).then(() => {
    card.remove();
    to.classList.remove("arriving");
  });
}

// A brief glow on an element (a pass, the knock limit being fixed).
function pulse(el, delay = 0) {
  if (!el || reduced()) return Promise.resolve();
  const a = el.animate([{ boxShadow: "0 0 0 0 #f2c14e" }, { boxShadow: "0 0 0 8px #f2c14e00" }],
    { duration: Math.max(duration() * 1.5, 300), delay });
  return a.finished.catch(() => {});
}

// -- sound (off by default) ---------------------------------------------------------------
let audio = null;
const TUNES = {
  draw: [[520, 0, .06, "triangle"]],
  discard: [[330, 0, .08, "square"]],
  knock: [[160, 0, .09, "sine"], [160, .14, .09, "sine"]],
  gin: [[523, 0, .12, "triangle"], [659, .1, .12, "triangle"], [784, .2, .2, "triangle"]],
};
// Browsers start audio only from a person's gesture: open (or wake) it on a click or a key.
function unlock() {
  if (!Settings.options.sound || !window.AudioContext) return;
  audio = audio || new AudioContext();
  if (audio.state === "suspended") audio.resume();
}
document.addEventListener("pointerdown", unlock);
document.addEventListener("keydown", unlock);
function sound(name) {
  if (!Settings.options.sound || !TUNES[name] || !window.AudioContext) return;
  audio = audio || new AudioContext();
  const now = audio.currentTime;
  for (const [freq, at, length, type] of TUNES[name]) {
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.12, now + at);
    gain.gain.exponentialRampToValueAtTime(0.001, now + at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + length + 0.02);
  }
}

const stagger = () => (reduced() ? 0 : duration() / 8);
export { fly, pulse, rect, sound, duration, log, stagger };
