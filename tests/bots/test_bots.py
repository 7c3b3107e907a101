"""Computer players: legal play at every level and preset, fair play, and known choices."""

from __future__ import annotations

import dataclasses
import gc
import random
from collections.abc import Iterator

import pytest
from deals import deal, draw_and_discard, opening, play

from okgin.actions import Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots import LEVELS, Player, make_player
from okgin.bots.guess import Guesser
from okgin.bots.judge import Judge
from okgin.bots.knock_search import HORIZON as HARD_HORIZON
from okgin.bots.knowledge import completers, knowledge_of
from okgin.bots.normal import NormalPlayer
from okgin.bots.rollout import Table, World, finish_turn
from okgin.cards import DECK, Card, mask_of, parse_cards
from okgin.errors import OkginError
from okgin.hand import STOCK_FLOOR, Deal, Hand, Phase
from okgin.match import Match
from okgin.melds import deadwood_of_mask
from okgin.rules import PRESET_NAMES, Rules, preset
from okgin.runner import play_hand, play_match
from okgin.view import SeatView, seat_view

HANDS = 200
SEARCHING_HANDS = 30
"""Hands for `hard` and `expert`, which share their code (``CloseSearchPlayer``) and search every
close move even at 8 guesses: 200 hands of `oklahoma` took `hard` 23 s beside a running sim,
where `normal` took 0.9 s (the suite must stay within about 15 minutes under load)."""


class Checked:
    """Wraps a player and fails the test on any action outside ``view.legal``."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.decisions = 0

    def act(self, view: SeatView) -> PlayerAction:
        action = self.player.act(view)
        assert action in view.legal, f"{self.name} played {action}, not in {view.legal}"
        self.decisions += 1
        return action


def _player(level: str, seed: int) -> Player:
    # `hard` searches only 8 guessed deals per look-ahead, so the test stays quick
    return make_player(level, random.Random(seed), budget=8)


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.slow
def test_every_level_plays_seeded_hands_of_every_preset_legally(level: str, rules_name: str) -> None:
    rules = preset(rules_name)
    rng = random.Random(f"{level}/{rules_name}")
    ended = 0
    hands = SEARCHING_HANDS if level in ("hard", "expert") else HANDS
    for number in range(hands):
        # the level in one seat, then in every seat, against the baselines
        others = ["simple", "random", level]
        players = [
            Checked(_player(level if seat == number % rules.players else others[(number + seat) % 3],
                            number * 10 + seat))
            for seat in range(rules.players)
        ]
        hand = Hand(rules, number % rules.players, Deal.shuffle(rules, rng))
        play_hand(hand, players, rng)
        assert hand.over and hand.result is not None
        ended += hand.result.outcome != "void"
        assert sum(p.decisions for p in players) > 0
    assert ended > hands // 4  # most hands end by a knock, not a stock run out


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_levels_play_a_whole_match_of_three_and_four(level: str, players: int) -> None:
    rules = preset("oklahoma-reshuffle").replace(players=players, target=60)
    seated = [Checked(_player(level, seat)) for seat in range(players)]
    match = play_match(seated, Match(rules), random.Random(players))
    assert match.final is not None and max(match.won) >= 60


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(OkginError, match="the players are random, simple, easy, normal, hard, expert"):
        make_player("master")


# -- fair play ------------------------------------------------------------------------------


def _reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through references (not through code)."""
    seen = {id(root)}
    todo = [root]
    while todo:
        item = todo.pop()
        yield item
        for child in gc.get_referents(item):
            if isinstance(child, type | type(gc) | type(_reachable)) or id(child) in seen:
                continue
            seen.add(id(child))
            todo.append(child)


def _graph(view: SeatView) -> list[object]:
    """Everything reachable from ``view``, through references and dataclass fields alike."""
    out: list[object] = []
    todo: list[object] = [view]
    seen: set[int] = set()
    while todo:
        item = todo.pop()
        for obj in _reachable(item):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            out.append(obj)
            if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
                todo.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
    return out


def _public_cards(view: SeatView) -> set[Card]:
    cards = set(view.hand) | set(view.discards) | {view.upcard}
    for picked in view.picked:
        cards |= set(picked)
    for action in view.history:
        if isinstance(action, Discard):
            cards.add(action.card)
    return cards


def test_no_hidden_card_or_hand_is_reachable_from_a_view() -> None:
    rules = Rules()
    rng = random.Random(3)
    hand = Hand(rules, 1, Deal.shuffle(rules, rng))
    players = [make_player("simple", random.Random(s)) for s in range(2)]
    for _ in range(14):  # a few turns in: discards, maybe takes
        seat = hand.to_act
        assert seat is not None
        hand.apply(players[seat].act(seat_view(hand, seat)))
    view = seat_view(hand, 0)
    graph = _graph(view)
    assert not [o for o in graph if isinstance(o, Hand | Match | Deal)]
    seen_cards = {o for o in graph if isinstance(o, Card)}
    assert seen_cards <= _public_cards(view)
    hidden = set(hand.cards_of(1)) | set(hand.stock())
    assert not seen_cards & hidden - _public_cards(view)
    masks = {o for o in graph if isinstance(o, int) and not isinstance(o, bool)}
    assert hand.hand_mask(1) not in masks
    assert mask_of(hand.stock()) not in masks
    # the search does find a leak: a view smuggling the hand, or one hidden card
    leaky = dataclasses.replace(view, history=(*view.history, hand))  # type: ignore[arg-type]
    assert [o for o in _graph(leaky) if isinstance(o, Hand)] == [hand]
    card = hand.stock()[0]
    leaky = dataclasses.replace(view, picked=((card,), ()))
    assert card in {o for o in _graph(leaky) if isinstance(o, Card)} - _public_cards(view)


def test_a_spy_player_finds_no_hidden_card_during_real_play() -> None:
    found: list[Card] = []

    class Spy:
        name = "spy"

        def __init__(self) -> None:
            self.inner = NormalPlayer(random.Random(1))

        def act(self, view: SeatView) -> PlayerAction:
            public = _public_cards(view)
            found.extend(o for o in _graph(view) if isinstance(o, Card) and o not in public)
            return self.inner.act(view)

    rules = Rules()
    rng = random.Random(9)
    for number in range(6):
        hand = Hand(rules, number % 2, Deal.shuffle(rules, rng))
        play_hand(hand, [Spy(), make_player("hard", random.Random(2), budget=8)], rng)
    assert found == []


def test_changing_a_view_does_not_change_the_hand() -> None:
    rules = Rules()
    hand = Hand(rules, 1, Deal.shuffle(rules, random.Random(4)))
    view = seat_view(hand, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand_mask = 0  # type: ignore[misc]
    object.__setattr__(view, "hand_mask", (1 << 52) - 1)
    assert hand.hand_mask(0).bit_count() == 10
    assert seat_view(hand, 0).hand_mask == hand.hand_mask(0)


# -- what the players know and choose ------------------------------------------------------


def _deal(mine: str, theirs: str, upcard: str) -> Deal:
    hands = (tuple(parse_cards(mine)), tuple(parse_cards(theirs)))
    used = {*hands[0], *hands[1], Card.parse(upcard)}
    stock = tuple(c for c in DECK if c not in used)
    return Deal(hands, Card.parse(upcard), stock)


def test_knowledge_follows_takes_and_discards() -> None:
    deal = _deal("7H 8H 2C 3D 4S 9C JD QS KH AS", "5C 6C 7C 2H 3H 4H 9S TS JS KD", "9H")
    hand = Hand(Rules(), 1, deal)
    hand.apply(Take(0))
    hand.apply(Discard(0, Card.parse("KH")))
    hand.apply(Draw(1))
    know = knowledge_of(seat_view(hand, 1))
    assert know.held[0] == Card.parse("9H").mask
    assert know.discarded[0] == Card.parse("KH").mask
    assert know.hidden == (9, 0)
    assert know.unknown.bit_count() == hand.stock_count + 9
    assert not know.unknown & (mask_of(hand.cards_of(1)) | Card.parse("9H").mask)


def test_completers_are_the_cards_that_make_a_meld() -> None:
    hand = mask_of(parse_cards("7H 8H 5C 5D KS"))
    assert completers(hand) == mask_of(parse_cards("6H 9H 5H 5S"))


def test_guesses_fill_each_hand_and_keep_the_known_cards() -> None:
    rules = Rules()
    rng = random.Random(5)
    hand = Hand(rules, 1, Deal.shuffle(rules, rng))
    players = [make_player("normal", random.Random(s)) for s in range(2)]
    for _ in range(9):
        seat = hand.to_act
        assert seat is not None
        hand.apply(players[seat].act(seat_view(hand, seat)))
    view = seat_view(hand, hand.to_act or 0)
    know = knowledge_of(view)
    guesser = Guesser(know, [c.index for c in view.discards])
    other = 1 - view.seat
    for _ in range(50):
        world = guesser.world(rng)
        assert world.hands[view.seat] == view.hand_mask
        assert world.hands[other].bit_count() == hand.hand_size(other)
        assert world.hands[other] & know.held[other] == know.held[other]
        assert len(world.stock) == hand.stock_count
        everything = world.hands[0] | world.hands[1] | mask_of(view.discards)
        everything |= sum(1 << c for c in world.stock)
        assert everything == (1 << 52) - 1


def test_normal_takes_the_upcard_that_makes_a_set() -> None:
    deal = _deal("9C 9D 2C 3D 4S 6H JD QS KH AS", "5C 6C 7C 2H 3H 4H 9S TS JS KD", "9H")
    hand = Hand(Rules(), 1, deal)
    assert NormalPlayer(random.Random(0)).act(seat_view(hand, 0)) == Take(0)


def test_normal_hard_and_expert_go_gin_when_they_can() -> None:
    deal = _deal("AC 2C 3C 5D 6D 7D 9H TH JH KS", "5C 6C 7C 2H 3H 4H 9S TS JS KD", "QH")
    hand = Hand(Rules(), 1, deal)
    hand.apply(Take(0))  # QH makes the hearts run 9-10-J-Q: discard KS for gin
    view = seat_view(hand, 0)
    for level in ("normal", "hard", "expert"):
        assert make_player(level, random.Random(0)).act(view) == Knock(0, Card.parse("KS"))


def test_normal_hard_and_expert_take_the_last_chance_that_lets_them_knock() -> None:
    """000's last chance (``last_chance_knock``): two cards left, seat 1 may take the 8♣ seat 0
    threw, but only to knock. Taking it and throwing the 9♠ leaves 8 deadwood under the 9♦'s
    limit of 9, and seat 0's 21 (12 after it lays the 9♥ off) lose to it; a pass voids the
    hand. `normal`'s usual draw rule counts on a stock draw that cannot come (the 9♥ would
    make a run) and passed; the coach's trusted move took."""
    the_deal = deal(
        ["4D 5D 6D 8S 8D 8H 6S 2D 9H 4H", "2C 3C 4C 7D 7H 7S TH JH QH 9S"], "9D", at={28: "8C"}
    )
    rules = preset("oklahoma").replace(last_chance_knock=True)
    hand = play(rules, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, 29))
    assert (hand.phase, hand.to_act, hand.stock_count) == (Phase.LAST_CHANCE, 1, 2)
    view = seat_view(hand, 1)
    for level in ("normal", "hard", "expert"):
        assert make_player(level, random.Random(0)).act(view) == Take(1), level
    for level in LEVELS:  # no preset turns the rule on: every level's answer is legal here too
        assert make_player(level, random.Random(0)).act(view) in view.legal, level
    hand.apply(Take(1))
    for level in ("normal", "hard", "expert"):
        assert make_player(level, random.Random(0)).act(seat_view(hand, 1)) == Knock(1, Card.parse("9S"))


def test_a_card_the_opponent_visibly_wants_costs_more_to_throw() -> None:
    # seat 1 takes the 9H upcard, then the 8H seat 0 throws: the 7H and TH now feed it
    deal = _deal("8H 2C 3C 5D 6D 7D AS 7H TH KC", "5C 6C 7C 2H 3H 9D 9C TS KS KD", "9H")
    hand = Hand(Rules(), 0, deal)
    hand.apply(Take(1))
    hand.apply(Discard(1, Card.parse("KD")))
    hand.apply(Draw(0))
    hand.apply(Discard(0, Card.parse("8H")))
    hand.apply(Take(1))
    hand.apply(Discard(1, Card.parse("KS")))
    hand.apply(Draw(0))
    view = seat_view(hand, 0)
    know = knowledge_of(view)
    assert know.held[1] == mask_of(parse_cards("8H 9H"))
    judge = Judge(know, view.stock_count)
    for risky in ("7H", "TH"):
        assert judge.feed_cost(Card.parse(risky).index) > judge.feed_cost(Card.parse("KC").index) + 2
    action = NormalPlayer(random.Random(0)).act(view)
    assert isinstance(action, Discard) and str(action.card) not in ("7H", "TH")


def test_hard_counts_on_two_draws_ahead_where_normal_counts_on_three() -> None:
    hand = Hand(Rules(), 1, _deal("7H 8H 4C 4D 2S 3S AS KC QD JD", "5C 6C 7C 2H 3H 9D 9C TS KS KH", "9H"))
    know = knowledge_of(seat_view(hand, 0))
    loose = mask_of(parse_cards("7H 8H 4C 4D 2S 3S AS KC QD JD"))
    normal, hard = Judge(know, 31), Judge(know, 31, HARD_HORIZON)
    assert (normal.horizon, hard.horizon) == (3.0, 2.0)
    assert normal.draw_gain(loose) > 0
    assert hard.value(loose) - normal.value(loose) == pytest.approx(normal.draw_gain(loose))
    assert Judge(know, STOCK_FLOOR + 3, HARD_HORIZON).horizon == 1.5  # three draws left for two


def test_no_player_module_names_the_hand_or_builds_views() -> None:
    import ast
    from pathlib import Path

    import okgin.bots

    folder = Path(okgin.bots.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 for alias in node.names}
        assert not names & {"Hand", "Deal", "Match", "seat_view", "play_hand"}, path.name


def test_normal_knocks_early_but_not_late_with_the_same_deadwood() -> None:
    # the stock's top card is the 8C: after throwing the KS, 8 deadwood at a limit of 10
    deal = _deal("AC 2C 3C 5D 6D 7D 9H TH JH KS", "4C 5C 6C 7C 2H 3H 4H 9S TS JS", "QD")
    hand = Hand(Rules(), 1, deal)
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    hand.apply(Draw(0))
    early = seat_view(hand, 0)
    assert Card.parse("8C") in early.hand
    normal = NormalPlayer(random.Random(0))
    assert normal.act(early) == Knock(0, Card.parse("KS"))
    # nine opponent turns later the same hand risks an undercut: play on
    late = dataclasses.replace(early, history=early.history + (Draw(1),) * 9)
    assert normal.act(late) == Discard(0, Card.parse("KS"))
    # ... unless the stock is about to run out and the hand would be void
    assert normal.act(dataclasses.replace(late, stock_count=3)) == Knock(0, Card.parse("KS"))


def test_a_seat_that_has_drawn_long_is_guessed_a_better_hand() -> None:
    rules = Rules()
    hand = Hand(rules, 1, Deal.shuffle(rules, random.Random(6)))
    know = knowledge_of(seat_view(hand, 0))
    pile = [hand.discards[-1].index]
    fresh = Guesser(know, pile)
    seasoned = Guesser(dataclasses.replace(know, draws=(0, 10)), pile)
    rng = random.Random(1)

    def mean_deadwood(guesser: Guesser) -> float:
        return sum(deadwood_of_mask(guesser.world(rng).hands[1]) for _ in range(300)) / 300

    assert mean_deadwood(seasoned) < mean_deadwood(fresh) - 10


def test_a_play_out_for_gin_knocks_only_with_gin_until_the_stock_runs_low() -> None:
    """The `hard` look-ahead's gin plan: the seat playing for gin passes up an ordinary knock
    (it discards and plays on), knocks with gin, and knocks as soon as it may near the end."""
    mine = mask_of(parse_cards("7H 8H 9H 4C 4D 4S 2S 3S AS KC 5D"))  # 5 deadwood after the K♣
    theirs = mask_of(parse_cards("2C 6C 8C TC QD 2H 4H JH 6S QS"))
    rest = [c.index for c in DECK if not (mine | theirs) >> c.index & 1]
    quick = Table(preset("oklahoma"), 10, 1)
    for_gin = Table(preset("oklahoma"), 10, 1, gin_seeker=0)

    def world(stock: int) -> World:
        return World([mine, theirs], rest[:stock], [])

    assert finish_turn(quick, world(20), 0, -1) is not None  # knocks at once
    waiting = world(20)
    assert finish_turn(for_gin, waiting, 0, -1) is None  # plays on
    king = parse_cards("KC")[0]
    assert waiting.pile == [king.index] and waiting.hands[0] == mine & ~king.mask
    assert finish_turn(for_gin, world(STOCK_FLOOR + 2), 0, -1) is not None  # the last turns: knocks
    gin = mask_of(parse_cards("7H 8H 9H TH 4C 4D 4S 2S 3S AS KC"))
    gin_world = World([gin, theirs], rest[:20], [])
    points = finish_turn(for_gin, gin_world, 0, -1)
    assert points is not None and points[0] > 0
