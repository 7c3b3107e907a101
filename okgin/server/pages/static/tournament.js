// The tournaments' form (its House rules panel) and a tournament's page: its live part (status,
// your table, standings, rounds) fetched again every two seconds until the tournament is
// finished. The server escapes every name; the fragment is parsed as a document and its nodes
// moved in (never innerHTML).
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

const house = document.getElementById("house");
if (house) rulesPanel(house);
const live = document.getElementById("live");
if (live) follow(live);
