// The Tables page (/tables): its live part (the open tables waiting for players, the games being
// played now) fetched again every few seconds and shown when it changed, no reload. The server
// escapes every name; the part is parsed as a document and its nodes moved in (never innerHTML).
// Nothing is fetched while the page is hidden. A redraw keeps the focus on the same Join or
// Watch link when that table is still listed.
const live = document.getElementById("live");
const every = 1000 * (Number(live?.dataset.refresh) || 3);
let shown = null;

function show(text) {
  const focused = live.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
  const doc = new DOMParser().parseFromString(text, "text/html");
  live.replaceChildren(...Array.from(doc.body.childNodes));
  const again = focused && [...live.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === focused);
  if (again) again.focus();
}

async function refresh() {
  if (document.hidden) { setTimeout(refresh, every); return; } // nobody looks: no fetch
  try {
    const answer = await fetch("/tables/live", { cache: "no-store" });
    if (answer.ok) {
      const text = await answer.text();
      if (text !== shown) show(text);
      shown = text;
    }
  } catch (error) {
    // the server is away a moment (a restart): try again at the next tick
  }
  setTimeout(refresh, every);
}

if (live) setTimeout(refresh, every);
