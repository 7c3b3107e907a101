// A new game against the computer: the table forgets the last one's hand and result, and asks
// the server to deal with these rules and opponents (by default the player's own).
import * as Settings from "../settings.js";
import { forgetting, send } from "./table.js";

export function newGame(rules = Settings.currentRules(), opponents = Settings.options.levels) {
  forgetting.all(true);
  send({ type: "new", rules, opponents });
}
