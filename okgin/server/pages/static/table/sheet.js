// The score sheet: each hand's outcome and points, and the running totals.
import { $, h, setNodes } from "../dom.js";
import * as Words from "../words.js";
import { drawing, table } from "./table.js";

const signed = (p) => (p ? (p > 0 ? "+" : "−") + Math.abs(p) : "0");

function drawSheet() {
  const state = table.state(), name = Words.name;
  setNodes($("sheet"), JSON.stringify([state.names, Words.me(), state.sheet]), () => {
    const running = state.names.map(() => 0);
    const rows = state.sheet.map((line) => {
      line.points.forEach((p, s) => (running[s] += p));
      const what = line.outcome === "void" ? "void" : `${Words.OUTCOMES[line.outcome]} (${name(line.winner)})`;
      return h("tr", {}, h("th", { scope: "row" }, `Hand ${line.hand}`), h("td", {}, what), ...line.points.map((p, s) =>
        h("td", {}, signed(p), h("span", { class: "visually-hidden" }, " points,"), " ", h("small", {}, `total ${running[s]}`))));
    });
    if (!rows.length) rows.push(h("tr", {}, h("td", { colspan: String(state.names.length + 2) }, "No hands scored yet.")));
    const heads = state.names.map((_, s) => h("th", { scope: "col" }, name(s)));
    return [h("table", {},
      h("caption", { class: "visually-hidden" }, "Score sheet: each hand's points and the running totals"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Result"), ...heads)),
      h("tbody", {}, ...rows))];
  });
}
drawing.add("sheet", drawSheet);
