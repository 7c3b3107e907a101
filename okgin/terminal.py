"""`okgin play`: a game to the target in the terminal, you (seat 0) against the computer."""

from __future__ import annotations

import random
from collections.abc import Callable

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take, parse_action
from okgin.bots import make_player
from okgin.errors import OkginError
from okgin.hand import Hand, Phase, play_chance
from okgin.match import Match
from okgin.melds import arrangement_of_mask
from okgin.rules import preset
from okgin.view import SeatView, seat_view

NAMES = ("You", "Ruby", "Sam", "Alex")
HELP = """Type one of:
  s or draw            take the top card of the stock
  d or take            take the top discard (or the first upcard)
  pass                 pass the first upcard
  7S or discard 7S     discard a card (ranks A 2-9 T J Q K, suits C D H S)
  knock 7S             discard 7S and knock (gin when nothing is left unmatched)
  big-gin              all eleven cards meld (where the rules have Big Gin)
  quit                 leave the game"""


def play_in_terminal(
    rules_name: str, opponent: str, seed: int | None,
    read: Callable[[str], str] = input, write: Callable[[str], None] = print,
) -> int:
    """Play a whole match; returns the exit status (0, or 130 when the player quits)."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    bots = [make_player(opponent, random.Random(rng.random())) for _ in range(rules.players - 1)]
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    names = NAMES[: rules.players]
    write(f"Oklahoma Gin ({rules.preset}), first to {rules.target}. Type help for the moves.")
    while not match.over:
        hand = match.deal_next(rng)
        deals = "deal" if hand.dealer == 0 else "deals"  # "You deal", "Ruby deals"
        write(f"\n{names[hand.dealer]} {deals}. The upcard is {hand.deal.upcard}: " + _limit(hand))
        while not hand.over:
            play_chance(hand, rng)
            seat = hand.to_act
            if seat is None:
                break
            view = seat_view(hand, seat, match.totals, match.won)
            if seat != 0:
                action = bots[seat - 1].act(view)
                write(f"{names[seat]}: {str(action).split(' ', 1)[1]}")
                match.apply(action)
                continue
            mine = _ask(view, read, write)
            if mine is None:
                return 130
            try:
                match.apply(mine)
            except OkginError as error:
                write(f"  {error}. Allowed now: {_allowed(view)}")
        _show_result(hand, names, match, write)
    assert match.final is not None
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, match.final.scores, strict=True))
    write(f"\n{names[match.final.winner]} won the game. Final scores with bonuses: {scores}")
    return 0


def _limit(hand: Hand) -> str:
    text = "gin only" if hand.knock_limit == 0 else f"knock with {hand.knock_limit} or less"
    return text + (", and this hand counts double." if hand.multiplier == 2 else ".")


def _ask(view: SeatView, read: Callable[[str], str], write: Callable[[str], None]) -> PlayerAction | None:
    shown = arrangement_of_mask(view.hand_mask)
    top = view.discards[-1] if view.discards else None
    write(
        f"\nStock {view.stock_count}, discard {top or '-'}. Your hand: {shown} "
        f"(deadwood {shown.deadwood})"
    )
    prompt = {
        Phase.OFFER: f"Take the {top} or pass? ",
        Phase.LAST_CHANCE: f"Last chance: take the {top} to knock, or pass? ",
        Phase.DRAW: "Draw (s) or take the discard (d)? ",
        Phase.DISCARD: "Discard which card? ",
    }.get(view.phase, "> ")
    while True:
        try:
            text = read(prompt).strip()
        except EOFError:
            return None
        if text in ("quit", "q"):
            return None
        if text in ("help", "?", "h"):
            write(HELP)
            continue
        try:
            action = _parse(text, view)
        except OkginError as error:
            write(f"  {error}")
            continue
        return action


def _parse(text: str, view: SeatView) -> PlayerAction:
    words = text.lower().split()
    shortcuts = {"s": "draw", "d": "take", "gin": "knock"}
    if words and words[0] in shortcuts:
        words[0] = shortcuts[words[0]]
    if len(words) == 1 and words[0] not in ("draw", "take", "pass", "big-gin"):
        words = ["discard", *words]
    action = parse_action(f"{view.seat} {' '.join(words)}")
    if isinstance(action, Knock):
        return action
    if not isinstance(action, Pass | Take | Draw | Discard | BigGin):
        raise OkginError(f"{text!r} is not a move")
    return action


def _allowed(view: SeatView) -> str:
    verbs = sorted({str(a).split()[1] for a in view.legal})
    return ", ".join(verbs)


def _show_result(hand: Hand, names: tuple[str, ...], match: Match, write: Callable[[str], None]) -> None:
    result = hand.result
    assert result is not None
    for seat, shown in enumerate(result.shown):
        write(f"  {names[seat]}: {shown} (deadwood {result.deadwood[seat]})")
    for seat, cards in result.layoffs:
        write(f"  {names[seat]} lays off {' '.join(map(str, cards))}")
    if result.winner is None:
        write("The stock ran out: no score, and the same dealer deals again.")
    else:
        working = result.working[result.winner] or str(result.points[result.winner])
        write(f"{result.outcome.capitalize()}: {names[result.winner]} scores {working}.")
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, match.totals, strict=True))
    write(f"Scores: {totals}")
