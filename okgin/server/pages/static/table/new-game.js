// A new game against the computer: the table forgets the last one's hand and result, and asks
// the server to deal with these rules and opponents (by default the player's own). One the
// player chose (New game, Rematch) puts focus on the new hand once it is dealt.
import * as Settings from "../settings.js";
import { focusHandOnDeal } from "./focus.js";
import { forgetting, send, table } from "./table.js";

export function newGame(rules = Settings.currentRules(), opponents = Settings.options.levels) {
  forgetting.all(true);
  send({ type: "new", rules, opponents });
}
export function chooseNewGame(rules, opponents) {
  const state = table.state();
  focusHandOnDeal(state ? state.game : null);
  newGame(rules, opponents);
}
