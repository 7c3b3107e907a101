"""How to play, written from the rules in force: each paragraph reads the rule it explains."""

from __future__ import annotations

from okgin.rules import Rules


def how_to_play(rules: Rules) -> list[tuple[str, str]]:
    """(heading, paragraph) pairs describing ``rules`` to a player."""
    each = rules.cards_each
    opponents = "your opponent" if rules.players == 2 else "the other players"
    parts = [
        ("The deal", f"{rules.players} players, {each} cards each; the first dealer is chosen at "
         f"random, then {_dealer(rules)} (after a void hand, the same dealer deals again). The next "
         "card starts the discard pile. The player after the dealer may take it or pass; then "
         "each other player in turn; if all pass, the player after the dealer draws from the stock."),
        ("Your turn", "Take the top card of the stock or the discard pile, then discard one card. "
         "You can't throw back a card you just took from the discard pile."),
        ("Melds", "Three or four cards of the same rank (a set), or three or more in a row of the "
         "same suit (a run). Aces are low: A-2-3 is a run, Q-K-A is not."),
        ("Deadwood", "The cards not in a meld. Aces count 1, picture cards 10, the rest their number."),
        ("The knock limit", _knock_limit(rules)),
    ]
    if rules.spade_double:
        parts.append(("Spades double", "If the first upcard is a spade, everything scored in that "
                      "hand counts double."))
    lay = "lays" if rules.players == 2 else "lay"  # "your opponent lays", "the other players lay"
    parts.append(("Knocking", f"With deadwood at or under the knock limit you may knock as you "
                  f"discard. {opponents.capitalize()} then {lay} off any cards they can on your melds, "
                  "and the deadwood is compared. " + _knock_score(rules)))
    gin = f"All {each} cards in melds after discarding. You score {rules.gin_bonus} plus "
    gin += ("the others' deadwood" if rules.scoring == "difference"
            else "points; the others lose their deadwood")
    parts.append(("Gin", gin + ", and nobody may lay off."))
    if rules.big_gin_bonus is not None:
        parts.append(("Big Gin", f"All {each + 1} cards in melds right after you draw: "
                      f"{rules.big_gin_bonus} plus the others' deadwood."))
    parts.append(("Undercut", f"If a defender's deadwood is equal to or less than the knocker's, "
                  f"the defender wins {rules.undercut_bonus} plus the difference."
                  + (f" The knocker also loses {rules.undercut_penalty}." if rules.undercut_penalty else "")))
    parts.append(("End of the stock", _stock_end(rules)))
    parts.append(("Winning", _winning(rules)))
    if rules.boxes:
        parts.append(("Boxes", f"An undercut earns one box and gin two (doubled on a spade deal); "
                      f"each box is worth {rules.boxes} at the end of the game."))
    parts.append(("Choosing a card", "Tap a card to lift it, tap it again to discard it, or use the "
                  "button. Press and hold (or drag) a card to move it in your hand."))
    parts.append(("Keyboard", "← → move through your hand, Enter lifts or discards the card, Escape "
                  "puts it back, S stock (or pass), D discard pile, K knock, G gin, H hint, ? all the "
                  "keys. Escape also closes a panel."))
    parts.append(("Just for fun", "Oklahoma Gin is played here for entertainment only: there is no "
                  "wagering, no real money and no prizes of any kind."))
    return parts


def _dealer(rules: Rules) -> str:
    return "the winner of each hand deals" if rules.dealer == "winner" else "the deal passes to the left"


def _knock_limit(rules: Rules) -> str:
    if rules.knock_limit != "upcard":
        return f"You may knock with {rules.knock_limit} deadwood or less."
    ace = "you may only go Gin" if rules.ace_upcard == "gin" else "you may knock with 1"
    return ("The first upcard of each hand sets it: a 2 to 10 at its number, a picture card at 10. "
            f"An ace means {ace}. The limit stays for the whole hand, even once the card is taken.")


def _knock_score(rules: Rules) -> str:
    if rules.scoring == "difference":
        bonus = f" plus {rules.knock_bonus}" if rules.knock_bonus else ""
        return f"The knocker scores the difference{bonus}."
    return f"The knocker scores {rules.knock_bonus}; the others lose their deadwood less the knock."


def _stock_end(rules: Rules) -> str:
    if rules.stock_end == "reshuffle":
        return ("When only two cards are left, the discard pile (all but its top card) is shuffled "
                "once to make a new stock; the second time the hand ends with no score.")
    last = (" The next player may still take the final discard to knock." if rules.last_chance_knock
            else "")
    return ("When only two cards are left and the player who drew discards without knocking, the "
            "hand ends with no score and the same dealer deals again." + last)


def _winning(rules: Rules) -> str:
    text = f"The first to {rules.target} wins the game"
    bonuses = []
    if rules.game_bonus:
        bonuses.append(f"{rules.game_bonus} for the game")
    if rules.hand_bonus:
        bonuses.append(f"{rules.hand_bonus} for every hand won")
    if bonuses:
        text += ", with " + " and ".join(bonuses)
    text += "."
    if rules.shutout == "double-bonus":
        text += " If the loser scored nothing all game, the game bonus is doubled."
    elif rules.shutout == "double-score":
        text += " A player who won no hands at all has the winner's score doubled against them."
    return text
