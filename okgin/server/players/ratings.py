"""Ratings: openskill's Plackett–Luce by final standing, in two families, computer players fixed.

Pure arithmetic, no store: ``rating_store`` reads a finished game, asks ``rate`` for its
people's new ratings and writes them. Every figure here is published in docs/players.md.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""openskill's defaults: a new player is mu 25, sigma 25/3 (ordinal 0); beta 25/6, tau 25/300."""
FAMILIES = ("two-player", "multi-player")
"""A game's family is its number of seats: 2 is two-player, 3 or 4 multi-player."""
PROVISIONAL = 5
"""A rating is provisional until this many rated games in its family; the leaderboard lists a
player only from then on (and only with a name they chose)."""
SHOWN_NEW = 1500
SHOWN_PER_POINT = 50
"""The rating shown is SHOWN_NEW + SHOWN_PER_POINT × ordinal, rounded: a new player (ordinal 0)
shows 1500, and 400 shown points apart mean what they mean in Elo's scale, the stronger of two
sure players winning 10 games in 11 by openskill's own ``predict_win`` (a gap of 8 in mu: 91%)."""
COMPUTER_WEIGHT = 0.5
"""A game with a computer player at the table moves its people's ratings by this share of
what openskill's update gives (their mu and sigma each go that part of the way)."""
COMPUTER_SIGMA = 1.0
COMPUTER_MU = {"easy": 17.7, "normal": 25.0, "hard": 26.9, "expert": 27.5}
"""The computer players' fixed ratings (they never move): normal at a new player's 25, the others
where openskill's own win probability (``predict_win``, with these sigmas) gives the win rates
docs/bots.md measured: easy 11.5% and hard 62.2% against normal, expert 54.0% against hard (on
200 matches of its tuning seed: not yet measured on an unseen one)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one family, after ``games`` rated games."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The number shown and ranked on: mu - 3 sigma (openskill's ordinal)."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()

    @property
    def shown(self) -> int:
        """The rating as pages show it: on the familiar scale (see ``shown_rating``)."""
        return shown_rating(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


@dataclass(frozen=True, slots=True)
class Entrant:
    """A rated seat of a game: a person's player id, or a computer player's level."""

    player: str | None
    level: str | None
    place: int
    """1 for the winner, then by final score (equal scores share a place)."""


def shown_rating(ordinal: float) -> int:
    """An ordinal on the scale pages show: 1500 for a new player, 50 per point of ordinal.

    >>> shown_rating(0.0), shown_rating(3.44), shown_rating(-1.83)
    (1500, 1672, 1408)
    """
    return round(SHOWN_NEW + SHOWN_PER_POINT * ordinal)


def family(seats: int) -> str:
    """The rating family of a game of ``seats`` seats. Raises ValueError for another count."""
    if seats == 2:
        return FAMILIES[0]
    if seats in (3, 4):
        return FAMILIES[1]
    raise ValueError(f"a rated game has 2 to 4 seats, not {seats}")


def places(winner: int, scores: Sequence[int], left: Collection[int] = ()) -> list[int]:
    """Each seat's final standing: the winner 1st, the others by final score (ties share);
    the seats in ``left`` (who abandoned the game) last of all, sharing the last place, whatever
    the computer player who finished for them scored.

    >>> places(2, [40, 90, 150, 90])
    [4, 2, 1, 2]
    >>> places(2, [40, 90, 150, 90], left={2})
    [3, 1, 4, 1]
    """
    stayed = [s for s in range(len(scores)) if s not in left]
    first = [winner] if winner in stayed else []
    others = [scores[s] for s in stayed if s not in first]

    def place(seat: int) -> int:
        if seat not in stayed:
            return 1 + len(stayed)
        return 1 if seat in first else 1 + len(first) + sum(o > scores[seat] for o in others)

    return [place(seat) for seat in range(len(scores))]


def computer(level: str) -> Rating:
    """A computer player's fixed rating. Raises ValueError for a level with none."""
    if level not in COMPUTER_MU:
        raise ValueError(f"no rating for the computer player {level!r}: the levels are "
                         + ", ".join(COMPUTER_MU))
    return Rating(COMPUTER_MU[level], COMPUTER_SIGMA, 0)


def weight(entrants: Sequence[Entrant]) -> float:
    """The game's weight: 1 between people only, COMPUTER_WEIGHT with any computer at the table."""
    return COMPUTER_WEIGHT if any(e.player is None for e in entrants) else 1.0


def rate(entrants: Sequence[Entrant], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The people's new ratings after a game (``current``: theirs before; missing is new).

    openskill's ``PlackettLuce.rate`` by place, every seat a team of one; with a computer at
    the table each person moves ``weight`` of the way from their rating to openskill's answer.
    Raises ValueError for fewer than two entrants or none a person."""
    if len(entrants) < 2 or all(e.player is None for e in entrants):
        raise ValueError("a rated game needs two seats or more, one of them a person")
    before = [current.get(e.player, Rating()) if e.player is not None else computer(str(e.level))
              for e in entrants]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    share = weight(entrants)
    return {
        e.player: Rating(old.mu + share * (new.mu - old.mu), old.sigma + share * (new.sigma - old.sigma),
                         old.games + 1)
        for e, old, (new,) in zip(entrants, before, after, strict=True) if e.player is not None
    }
