// The House rules panel: every rule in players' words, numbers checked as they are typed;
// a bad value is refused beside its field and nothing already chosen is lost. The game's Rules
// dialog and a tournament's form (/t) both show it.
const PRESETS = {
  "oklahoma-big-gin": "Oklahoma Gin with Big Gin (this site's game)",
  oklahoma: "Oklahoma Gin, classic (no Big Gin)",
  "oklahoma-multiplayer": "Oklahoma Gin for 2 to 4 players (penalty scoring)",
  "oklahoma-reshuffle": "Oklahoma Gin, reshuffle the pile when the stock runs out",
  gin: "Standard Gin Rummy (knock with 10 or less)",
};
const YES_NO = [[true, "Yes"], [false, "No"]];
// Each rule: its words, and either choices [value, words] or a number's range.
const FIELDS = {
  target: { label: "Game ends at", min: 1, max: 100000, unit: "points" },
  knock_limit: { label: "Knock limit", choices: [["upcard", "Set by the upcard"], [0, "Gin only"],
    ...Array.from({ length: 10 }, (_, i) => [i + 1, `${i + 1} or less`])] },
  ace_upcard: { label: "An ace upcard means", choices: [["gin", "Gin only"], ["one", "Knock with 1"]] },
  spade_double: { label: "A spade upcard doubles the hand", choices: YES_NO },
  gin_bonus: { label: "Gin bonus", min: 0, max: 1000 },
  big_gin_bonus: { label: "Big Gin bonus", min: 0, max: 1000, blank: "no Big Gin" },
  undercut_bonus: { label: "Undercut bonus", min: 0, max: 1000 },
  knock_bonus: { label: "Knock bonus", min: 0, max: 1000 },
  scoring: { label: "Scoring", choices: [["difference", "The winner scores the difference"],
    ["penalty", "The others lose their deadwood"]] },
  undercut_penalty: { label: "An undercut knocker loses", min: 0, max: 1000 },
  hand_bonus: { label: "Bonus per hand won", min: 0, max: 1000 },
  game_bonus: { label: "Bonus for winning the game", min: 0, max: 1000 },
  shutout: { label: "A player who won no hands", choices: [
    ["double-score", "Has the winner's score doubled"], ["double-bonus", "Doubles the game bonus"],
    ["none", "Nothing extra"]] },
  boxes: { label: "Boxes", choices: [[null, "No boxes"], [20, "20 a box"], [25, "25 a box"]] },
  hand_size: { label: "Cards dealt", min: 3, max: 24, blank: "10, or 7 for 3–4 players" },
  last_chance_knock: { label: "Last chance to knock on the final discard", choices: YES_NO },
  stock_end: { label: "When the stock runs out", choices: [["void", "The hand is void"],
    ["reshuffle", "Shuffle the pile into a new stock"]] },
  dealer: { label: "Next dealer", choices: [["alternate", "The deal passes on"], ["winner", "The hand's winner deals"]] },
};
let ctx = null, catalogue = null;
const errors = new Map(); // field name -> message, for values refused

// A number field's text, checked: [value, null] or [null, message].
function check(name, text, players) {
  const spec = FIELDS[name];
  const max = name === "hand_size" ? Math.floor(48 / players) : spec.max;
  const t = text.trim();
  if (t === "" && spec.blank) return [null, null];
  if (!/^\d+$/.test(t) || Number(t) < spec.min || Number(t) > max) {
    return [null, `${spec.label}: enter a whole number from ${spec.min} to ${max}` +
      (spec.blank ? `, or leave it blank for ${spec.blank}` : "") + "."];
  }
  return [Number(t), null];
}
function control(name, spec, value) {
  let input;
  if (spec.choices) {
    input = document.createElement("select");
    const known = spec.choices.map(([v]) => JSON.stringify(v));
    const choices = known.includes(JSON.stringify(value)) ? spec.choices : [...spec.choices, [value, String(value)]];
    choices.forEach(([v, words], i) => { input.add(new Option(words, String(i))); input.options[i].dataset.value = JSON.stringify(v); });
    input.value = String(choices.findIndex(([v]) => JSON.stringify(v) === JSON.stringify(value)));
    input.readValue = () => JSON.parse(input.selectedOptions[0].dataset.value);
  } else {
    input = document.createElement("input");
    input.type = "number";
    input.min = String(spec.min);
    input.max = String(name === "hand_size" ? Math.floor(48 / ctx.players()) : spec.max);
    input.step = "1";
    input.inputMode = "numeric";
    if (spec.blank) input.placeholder = spec.blank;
    input.value = value === null ? "" : String(value);
  }
  input.name = name;
  input.id = `rule-${name}`;
  // Inside a page's own form (a tournament's) the panel's fields are not sent: only the JSON
  // that ctx.save keeps is (an empty form attribute gives a control no form).
  if (ctx.outsideForm) input.setAttribute("form", "");
  return input;
}
function field(name, base, rules) {
  const spec = FIELDS[name];
  const value = name in rules ? rules[name] : base[name];
  const wrap = document.createElement("div");
  wrap.className = "rule";
  const label = document.createElement("label");
  label.htmlFor = `rule-${name}`;
  label.textContent = spec.label + (spec.unit ? ` (${spec.unit})` : "") + (spec.blank ? ` (blank: ${spec.blank})` : "");
  const input = control(name, spec, value);
  const error = document.createElement("span");
  error.className = "field-error";
  error.id = `rule-${name}-error`;
  input.setAttribute("aria-describedby", error.id);
  input.addEventListener("change", () => update(name, input, error, base));
  wrap.append(label, input, error);
  return wrap;
}
function update(name, input, error, base) {
  let value = null, message = null;
  if (input.readValue) value = input.readValue();
  else [value, message] = check(name, input.value, ctx.players());
  error.textContent = message || "";
  input.setAttribute("aria-invalid", String(!!message));
  if (message) { errors.set(name, message); return; } // refused: the last good value stays
  errors.delete(name);
  const next = { ...ctx.rules() };
  if (JSON.stringify(value) === JSON.stringify(base[name])) delete next[name];
  else next[name] = value;
  ctx.save(next);
  document.getElementById("rules-error").textContent = "";
}
function draw(cat, rules) {
  catalogue = cat;
  const preset = rules.preset || ctx.preset;
  const base = catalogue.presets[preset];
  errors.clear();
  document.getElementById("preset").value = preset;
  document.getElementById("preset-text").textContent = catalogue.descriptions[preset];
  document.getElementById("rules-error").textContent = "";
  const box = document.getElementById("rule-fields");
  box.replaceChildren();
  const skip = ctx.skip || [];  // rules the page asks for elsewhere (a tournament's match target)
  for (const name of Object.keys(FIELDS)) if (name in base && !skip.includes(name)) box.append(field(name, base, rules));
}
function start() {
  if (errors.size) {
    const [name, message] = errors.entries().next().value;
    document.getElementById("rules-error").textContent = `Not started: ${message}`;
    document.getElementById(`rule-${name}`).focus();
    return;
  }
  document.getElementById("rules").close();
  ctx.start();
}
function bind(cat, context) {
  catalogue = cat; ctx = context;
  const select = document.getElementById("preset");
  if (!select.options.length) {  // the game's panel fills its own; a tournament's form comes filled
    for (const name of Object.keys(catalogue.presets)) select.add(new Option(PRESETS[name] || name, name));
  }
  select.addEventListener("change", () => { ctx.save({ preset: select.value }); draw(catalogue, ctx.rules()); });
  document.getElementById("rules-reset").addEventListener("click", () => {
    ctx.save({ preset: ctx.rules().preset || ctx.preset });
    draw(catalogue, ctx.rules());
  });
  document.getElementById("rules-start")?.addEventListener("click", start);  // the game's panel only
}
export { bind, draw, PRESETS };
