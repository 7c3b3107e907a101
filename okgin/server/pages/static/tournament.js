// The tournaments' form (its House rules panel, its name, its start time in the viewer's own
// time zone) and a tournament's page: its live part (status, your table, standings or bracket,
// rounds) fetched again every two seconds until the tournament is finished. The server escapes
// every name; the fragment is parsed as a document and its nodes moved in (never innerHTML).
// Times come from the server in UTC (<time datetime>) and are shown here in local time.
import * as HouseRules from "./houserules.js";

// The form to make one: its House rules panel writes the hidden field "house".
async function rulesPanel(house) {
  const preset = document.getElementById("preset");
  const table = document.querySelector('.tournament-form [name="table"]');
  let rules = { preset: preset.value };
  try { rules = { ...JSON.parse(house.value || "{}"), preset: preset.value }; } catch (error) { /* sent back refused: start again */ }
  const answer = await fetch("/api/rules");
  const catalogue = await answer.json();
  HouseRules.bind(catalogue, {
    rules: () => rules,
    save: (next) => {
      rules = next;
      const { preset: chosen, ...changed } = next;
      house.value = Object.keys(changed).length ? JSON.stringify(changed) : "";
    },
    players: () => Math.min(4, Math.max(2, Number(table.value) || 2)),
    start: () => {},
    preset: preset.value,
    skip: ["target"],
    outsideForm: true,
  });
  HouseRules.draw(catalogue, rules);
}

// Every <time class=local> in `root`, written in the viewer's time zone (its title keeps UTC).
function localTimes(root) {
  for (const time of root.querySelectorAll("time.local[datetime]")) {
    const when = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) continue;
    time.title = time.textContent;
    time.textContent = when.toLocaleString(undefined, {
      weekday: "short", day: "numeric", month: "short", year: "numeric",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short",
    });
    time.dataset.shown = "local";
  }
}

const FORMATS = { swiss: "Swiss", knockout: "knockout", "round-robin": "round robin" };
const ALONE = { swiss: "Swiss", knockout: "Knockout", "round-robin": "Round robin" };

// The form: the name it gets when left empty follows the format; the start time is typed in
// local time and sent as UTC (the hidden "starts"; without this script the server reads it as UTC).
function createForm(form) {
  const host = form.dataset.host;
  const format = form.querySelector('[name="format"]');
  const name = form.querySelector('[name="name"]');
  const shownDefault = () => {
    const named = host ? `${host}'s ${FORMATS[format.value]}` : ALONE[format.value];
    name.placeholder = named;
    const note = name.closest("p").querySelector("small");
    if (note) note.textContent = `(empty: ${named})`;
  };
  format.addEventListener("change", shownDefault);
  shownDefault();
  const local = form.querySelector("#starts-local");
  const starts = form.querySelector("#starts");
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  document.getElementById("starts-zone").textContent = `(your time${zone ? `, ${zone}` : ""})`;
  form.addEventListener("submit", () => {
    const when = local.value ? new Date(local.value) : null;
    starts.value = when && !Number.isNaN(when.getTime()) ? when.toISOString() : "";
  });
}

// A tournament's page: its live part fetched again until the tournament is finished.
function follow(live) {
  const code = live.dataset.code;
  let shownStatus = (document.getElementById("t-status") || {}).dataset?.status;

  async function refresh() {
    try {
      const answer = await fetch(`/t/${encodeURIComponent(code)}/live`, { cache: "no-store" });
      if (answer.ok) {
        const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
        live.replaceChildren(...Array.from(doc.body.childNodes));
        localTimes(live);
        const status = document.getElementById("t-status")?.dataset.status;
        if (status !== shownStatus && shownStatus === "open") {
          location.reload(); // started: the join and start forms go
          return;
        }
        shownStatus = status;
      }
    } catch (error) {
      // the server is away a moment (a restart): try again at the next tick
    }
    if (shownStatus !== "finished") setTimeout(refresh, 2000);
  }
  if (shownStatus !== "finished") setTimeout(refresh, 2000);
}

localTimes(document);
const form = document.querySelector(".tournament-form");
if (form) createForm(form);
const house = document.getElementById("house");
if (house) rulesPanel(house);
const live = document.getElementById("live");
if (live) follow(live);
