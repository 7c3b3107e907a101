// Words for the table, from the point of view of the seat this page plays ("You" or a name).
"use strict";
const Words = (() => {
  let state = null;
  const use = (s) => { state = s; };
  const me = () => (state && state.view ? state.view.seat : null);
  const name = (seat) => (seat === me() ? "You" : state.names[seat]);
  // "You pass", "Ruby passes": third person for everyone but the reader.
  function verb(seat, base) {
    if (seat === me()) return base;
    if (base === "go") return "goes";
    if (base === "have") return "has";
    return /(s|sh|ch|x)$/.test(base) ? base + "es" : base + "s";
  }
  const says = (seat, base, rest = "") => `${name(seat)} ${verb(seat, base)}${rest ? " " + rest : ""}`;
  const OUTCOMES = { gin: "Gin", "big-gin": "Big Gin", knock: "Knock", undercut: "Undercut", void: "Void hand" };
  const limit = (n) => (n === 0 ? "gin only" : String(n));
  return { use, me, name, verb, says, limit, OUTCOMES };
})();
