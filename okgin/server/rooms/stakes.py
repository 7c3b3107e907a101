"""A staked room's chips: its stake and prize rule, and its pool's split by okgin.prizes.

Only people stake: a computer player stakes nothing and wins nothing, so a table with computer
seats splits only its people's pool, among its people (docs/rules.md, "Chips at a table").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from okgin.errors import OkginError
from okgin.match import Match
from okgin.prizes import PrizeRules, penalty_points, split_pool
from okgin.server.store.chips import ChipsError, Wallets

MAX_STAKE = 1000
"""The largest stake a table may set: the daily grant, so one day's chips can always play."""
MAX_CUTOFF = 500


class StakeError(OkginError):
    """A stake or prize rule a table cannot have; the message says which and why."""


@dataclass(frozen=True, slots=True)
class TableStakes:
    """A table's stake in chips per person (0: none) and how its pool is split."""

    stake: int = 0
    prizes: PrizeRules = field(default_factory=PrizeRules)

    @classmethod
    def read(cls, stake: object, split: object = "scaled", cutoff: object = 50) -> TableStakes:
        """The stakes a host asked for, checked. Raises StakeError saying what was wrong."""
        if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake <= MAX_STAKE:
            raise StakeError(f"the stake is a whole number of chips from 0 to {MAX_STAKE}, not {stake!r}")
        if split not in ("scaled", "proportional"):
            raise StakeError(f'the split is "scaled" or "proportional", not {split!r}')
        if not isinstance(cutoff, int) or isinstance(cutoff, bool) or not 1 <= cutoff <= MAX_CUTOFF:
            raise StakeError(f"the cutoff is a whole number of penalty points from 1 to {MAX_CUTOFF}, "
                             f"not {cutoff!r}")
        return cls(stake, PrizeRules(cutoff=cutoff, split=split))

    def to_json(self) -> dict[str, Any]:
        return {"stake": self.stake, "split": self.prizes.split, "cutoff": self.prizes.cutoff,
                "winner_percent": self.prizes.winner_percent}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TableStakes:
        if not data:
            return cls()
        prizes = PrizeRules(data["winner_percent"], data["cutoff"], data["split"])
        return cls(int(data["stake"]), prizes)


class CannotPay(ChipsError):
    """A seat cannot pay the table's stake: no player behind it, or too few chips."""


def stake_refusal(name: str, stake: int, balance: int | None) -> CannotPay:
    """The one refusal for a seat that cannot pay ``stake``: ``balance`` None when nobody's
    wallet stands behind it (a program, without a session)."""
    if balance is None:
        return CannotPay(f"{name} has no wallet for chips: a table that plays for chips is for "
                         "players in a browser")
    return CannotPay(f"{name} has {balance} chips, fewer than the stake of {stake}: "
                     "lower the stake, or wait for tomorrow's chips")


def check_stake(wallets: Wallets, player: str | None, name: str, stake: int) -> None:
    """Refuse (``stake_refusal``) a seat whose ``player`` cannot pay ``stake`` now. A check in
    advance only: the start takes the stakes, all or none, and refuses then if chips went."""
    if not stake:
        return
    balance = None if player is None else wallets.balance(player)
    if balance is None or balance < stake:
        raise stake_refusal(name, stake, balance)


def game_penalties(match: Match) -> tuple[int, ...]:
    """Each seat's penalty points over the whole game (okgin.prizes.penalty_points, summed)."""
    total = [0] * match.rules.players
    for hand in match.hands:
        if hand.result is not None:
            for seat, points in enumerate(penalty_points(hand.result, match.rules.undercut_penalty)):
                total[seat] += points
    return tuple(total)


def split_among(
    pool: int, staked: Sequence[int], penalties: Sequence[int], scores: Sequence[int], winner: int,
    prizes: PrizeRules,
) -> dict[int, int]:
    """Each staking seat's chips from ``pool`` (whole chips, adding up to it).

    The pool's winner is the game's winner if they staked, else the staking seat with the fewest
    penalty points (then the highest score, then the first seat); a lone staking seat takes the
    pool back. ``penalties`` and ``scores`` are every seat's, ``staked`` the staking seats."""
    seats = sorted(staked)
    if len(seats) == 1:
        return {seats[0]: pool}
    best = winner if winner in seats else min(seats, key=lambda s: (penalties[s], -scores[s], s))
    chips = split_pool(pool, seats.index(best), [penalties[s] for s in seats], prizes)
    return dict(zip(seats, chips, strict=True))
