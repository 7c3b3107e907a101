// Options and house rules, kept in the browser (localStorage), and their panels.
"use strict";
const Settings = (() => {
  const OPTIONS_KEY = "okgin.options", RULES_KEY = "okgin.rules";
  const SPEEDS = { slow: 1400, normal: 800, fast: 250, instant: 0 };
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const defaults = { coach: false, fourColour: false, large: false, reduceMotion: reduce,
    speed: "normal", levels: ["normal"] };
  const load = (key, fallback) => {
    try { return { ...fallback, ...JSON.parse(localStorage.getItem(key) || "{}") }; }
    catch { return { ...fallback }; }
  };
  const options = load(OPTIONS_KEY, defaults);
  let rules = load(RULES_KEY, {});
  let catalogue = null; // fields and presets from /api/rules
  const LABELS = {
    hand_size: "Cards dealt (blank: 10, or 7 for 3–4 players)", knock_limit: "Knock limit (upcard or a number)",
    ace_upcard: "Ace upcard", spade_double: "Spade upcard doubles", gin_bonus: "Gin bonus",
    undercut_bonus: "Undercut bonus", big_gin_bonus: "Big Gin bonus (blank: none)", knock_bonus: "Knock bonus",
    scoring: "Scoring", undercut_penalty: "Undercut penalty", target: "Game ends at", hand_bonus: "Bonus per hand won",
    game_bonus: "Game bonus", shutout: "Shutout", boxes: "Box value (blank: no boxes)",
    last_chance_knock: "Last chance to knock", stock_end: "End of the stock", dealer: "Next dealer",
  };
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
    for (const key of ["coach", "fourColour", "large", "reduceMotion"]) form.elements[key].checked = !!options[key];
    form.elements.speed.value = options.speed;
    form.elements.count.value = String(options.levels.length);
    drawLevels();
  }
  function drawLevels() {
    const box = document.getElementById("levels");
    box.innerHTML = "";
    const names = ["Ruby", "Sam", "Olive"];
    options.levels.forEach((level, i) => {
      const label = document.createElement("label");
      label.textContent = `${names[i]} `;
      const select = document.createElement("select");
      select.name = `level${i}`;
      for (const value of ["easy", "normal", "hard"]) select.add(new Option(value[0].toUpperCase() + value.slice(1), value));
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

  // House rules: the preset plus the fields changed from it.
  function currentRules() {
    const preset = rules.preset || "oklahoma";
    return { preset, ...rules, players: options.levels.length + 1 };
  }
  function ruleValue(field, text) {
    if (field.name === "knock_limit") return text === "upcard" ? "upcard" : Number(text);
    if (field.type.includes("bool")) return text === "true";
    if (field.choices.length) return text;
    if (text === "" || text === "none") return null;
    return Number(text);
  }
  function drawRules() {
    if (!catalogue) return;
    const preset = rules.preset || "oklahoma";
    const base = catalogue.presets[preset];
    document.getElementById("preset").value = preset;
    document.getElementById("preset-text").textContent = catalogue.descriptions[preset];
    const box = document.getElementById("rule-fields");
    box.innerHTML = "";
    for (const field of catalogue.fields) {
      if (field.name === "players") continue; // set by the number of computer players
      const value = field.name in rules ? rules[field.name] : base[field.name];
      const label = document.createElement("label");
      label.append(LABELS[field.name] || field.name.replaceAll("_", " "));
      let input;
      const choices = field.type.includes("bool") ? ["true", "false"] : field.choices;
      if (choices.length) {
        input = document.createElement("select");
        for (const c of choices) input.add(new Option(c, c));
      } else {
        input = document.createElement("input");
        input.type = "text";
        input.inputMode = field.name === "knock_limit" ? "text" : "numeric";
        input.placeholder = field.type.includes("None") ? "none" : "";
      }
      input.name = field.name;
      input.value = value === null ? "" : String(value);
      input.addEventListener("change", () => {
        rules[field.name] = ruleValue(field, input.value);
        if (JSON.stringify(rules[field.name]) === JSON.stringify(base[field.name])) delete rules[field.name];
        localStorage.setItem(RULES_KEY, JSON.stringify(rules));
      });
      label.append(input);
      box.append(label);
    }
  }
  async function bindRules() {
    const response = await fetch("/api/rules");
    catalogue = await response.json();
    const select = document.getElementById("preset");
    for (const name of Object.keys(catalogue.presets)) select.add(new Option(name, name));
    select.addEventListener("change", () => {
      rules = { preset: select.value };
      localStorage.setItem(RULES_KEY, JSON.stringify(rules));
      drawRules();
    });
    document.getElementById("rules-reset").addEventListener("click", () => {
      rules = { preset: rules.preset || "oklahoma" };
      localStorage.setItem(RULES_KEY, JSON.stringify(rules));
      drawRules();
    });
    drawRules();
  }

  function init() {
    applyLook();
    bindOptions();
    bindRules();
  }
  return {
    options, init, fillOptions, drawRules, currentRules,
    delay: () => SPEEDS[options.speed] ?? 800,
    onChange: (fn) => listeners.push(fn),
  };
})();
