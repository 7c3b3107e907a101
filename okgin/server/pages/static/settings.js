// Options and house rules, kept in the browser (localStorage), and their panels.
import * as HouseRules from "./houserules.js";
import { COMPUTERS } from "./words.js";
const OPTIONS_KEY = "okgin.options", RULES_KEY = "okgin.rules";
const SPEEDS = { slow: 1400, normal: 800, fast: 250, instant: 0 };
const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const defaults = { coach: false, fourColour: false, large: false, reduceMotion: reduce, sound: false,
  speed: "normal", levels: ["normal"] };
const load = (key, fallback) => {
  try { return { ...fallback, ...JSON.parse(localStorage.getItem(key) || "{}") }; }
  catch { return { ...fallback }; }
};
const options = load(OPTIONS_KEY, defaults);
let rules = load(RULES_KEY, {});
let catalogue = null; // fields and presets from /api/rules
const listeners = [];

function saveOptions() {
  localStorage.setItem(OPTIONS_KEY, JSON.stringify(options));
  applyLook();
  listeners.forEach((fn) => fn(options));
}
function applyLook() {
  document.body.classList.toggle("four", !!options.fourColour);
  document.body.classList.toggle("large", !!options.large);
  document.body.classList.toggle("reduce", !!options.reduceMotion);
}

function fillOptions() {
  const form = document.getElementById("options-form");
  for (const key of ["coach", "fourColour", "large", "reduceMotion", "sound"]) form.elements[key].checked = !!options[key];
  form.elements.speed.value = options.speed;
  form.elements.count.value = String(options.levels.length);
  drawLevels();
}
function drawLevels() {
  const box = document.getElementById("levels");
  box.replaceChildren();
  options.levels.forEach((level, i) => {
    const label = document.createElement("label");
    label.textContent = `${COMPUTERS[i]} `;
    const select = document.createElement("select");
    select.name = `level${i}`;
    // the server's levels (/api/rules); until they come, only the level chosen
    for (const value of catalogue ? catalogue.levels : [level]) select.add(new Option(value[0].toUpperCase() + value.slice(1), value));
    select.value = level;
    select.addEventListener("change", () => { options.levels[i] = select.value; saveOptions(); });
    label.append(select);
    box.append(label, " ");
  });
}
function bindOptions() {
  const form = document.getElementById("options-form");
  form.addEventListener("change", (event) => {
    const el = event.target;
    if (el.type === "checkbox") options[el.name] = el.checked;
    else if (el.name === "speed") options.speed = el.value;
    else if (el.name === "count") {
      const n = Number(el.value);
      options.levels = Array.from({ length: n }, (_, i) => options.levels[i] || "normal");
      drawLevels();
    } else return;
    saveOptions();
  });
}

// House rules: the preset plus the fields changed from it. HouseRules draws the panel.
const DEFAULT_PRESET = "oklahoma-big-gin"; // 003's game: Big Gin 31, a shutout doubles the score
function currentRules() {
  const preset = rules.preset || DEFAULT_PRESET;
  return { ...rules, preset, players: options.levels.length + 1 };
}
function saveRules(next) {
  rules = next;
  localStorage.setItem(RULES_KEY, JSON.stringify(rules));
}
function drawRules() {
  if (catalogue) HouseRules.draw(catalogue, rules, options.levels.length + 1);
}
async function bindRules() {
  const response = await fetch("/api/rules");
  catalogue = await response.json();
  drawLevels();
  HouseRules.bind(catalogue, {
    rules: () => rules, save: saveRules, players: () => options.levels.length + 1,
    start: () => newGameListeners.forEach((fn) => fn()), preset: DEFAULT_PRESET,
  });
  drawRules();
}
const newGameListeners = [];

function init() {
  applyLook();
  bindOptions();
  bindRules();
}
const delay = () => SPEEDS[options.speed] ?? 800;
const onChange = (fn) => listeners.push(fn);
const onNewGame = (fn) => newGameListeners.push(fn);
export { options, init, fillOptions, drawRules, currentRules, delay, onChange, onNewGame };
