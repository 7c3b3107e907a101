"""What people do to a tournament: the host creates and starts it, players join it.

Each call checks everything first and raises ``TournamentError`` with a player's reason,
storing nothing, when it may not happen; the store's compare-and-set makes two at once safe
(a join that raced another is read again and retried). Blocking: run each in a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from okgin.errors import OkginError
from okgin.server.rooms.room import COMPUTER_NAMES, clean_name, new_code
from okgin.server.store.chips import ChipsError, Short
from okgin.server.store.tournament_store import Entrant, Moved, StoredTournament, TableRow, TournamentStore
from okgin.server.tournaments.plan import next_round
from okgin.server.tournaments.settings import Settings, TournamentError

T = TypeVar("T")
TRIES = 5
"""Times a change that raced another is read again and retried before the player is told."""


class Tournaments:
    """The tournaments' changes made from pages (the director plays their rounds)."""

    def __init__(self, store: TournamentStore,
                 barred: Callable[[str], str | None] = lambda _player: None,
                 is_bot: Callable[[str], bool] = lambda _player: False) -> None:
        self.store = store
        self.barred = barred
        """Why a player may not join (``Moderation.refusal``: banned by the operator), or None."""
        self.is_bot = is_bot
        """Is the player a bot account (``BotAccounts.is_bot``)? It joins only where the host let bots."""

    def create(self, host: str, settings: Settings, name: str) -> str:
        """A new open tournament called ``name`` (``words.read_name``); returns its code (its
        link is ``/t/<code>``)."""
        code = new_code()
        self.store.create(code, host, settings.to_data(), settings.fee, name)
        return code

    def load(self, code: str) -> StoredTournament:
        event = self.store.load(code)
        if event is None:
            raise TournamentError("no such tournament: check the link")
        return event

    def join(self, code: str, player: str, name: object) -> None:
        """``player`` takes the next place under ``name`` (a bot account only where the host
        opened the tournament to bots); the last place taken starts a tournament that starts
        when full."""
        refused = self.barred(player)
        if refused is not None:
            raise TournamentError(refused)
        bot = self.is_bot(player)

        def attempt() -> bool:
            event = self.load(code)
            settings = Settings.from_data(event.data)
            if bot and not settings.bots:
                raise TournamentError("this tournament is not open to bots: "
                                      "its host did not let bot accounts join")
            _must_be_open(event, "you can watch it")
            if any(e.player == player for e in event.entrants):
                raise TournamentError("you have already joined this tournament")
            if len(event.entrants) >= settings.places:
                raise TournamentError("the tournament is full: you can watch it")
            try:
                entrant = Entrant(len(event.entrants), clean_name(name), player=player)
            except OkginError as error:
                raise TournamentError(str(error)) from None
            try:
                self.store.join(code, event.version, entrant, settings.fee)
            except Short as short:
                raise TournamentError(f"the entry fee is {short.stake} chips and you have {short.balance}: "
                                      "you can join another day, or a free tournament") from None
            except ChipsError as error:
                raise TournamentError(str(error)) from None
            return settings.auto and len(event.entrants) + 1 == settings.places

        if _retried(attempt):
            self.start(code, None)

    def leave(self, code: str, player: str) -> None:
        """``player`` withdraws their entry before the start; an entry fee is given back in full."""
        def attempt() -> None:
            event = self.load(code)
            _must_be_open(event, "an entry cannot be withdrawn now")
            if not any(e.player == player for e in event.entrants):
                raise TournamentError("you have not joined this tournament")
            self.store.leave(code, event.version, player)

        _retried(attempt)

    def cancel(self, code: str, by: str) -> None:
        """The host cancels the tournament before its start; every entry fee is given back."""
        def attempt() -> None:
            event = self.load(code)
            if by != event.host:
                raise TournamentError("only the host can cancel the tournament")
            _must_be_open(event, "it can no longer be cancelled")
            self.store.cancel(code, event.version)

        _retried(attempt)

    def start(self, code: str, by: str | None) -> None:
        """Start: the empty places go to computer players and round 1 is paired. ``by``: the
        player asking (only the host may), None when the last place was just taken. Entry fees
        were taken as each person joined; computer players pay none."""
        def attempt() -> None:
            event = self.load(code)
            if by is not None and by != event.host:
                raise TournamentError("only the host can start the tournament")
            if event.status != "open":
                cancelled = event.status == "cancelled"
                raise TournamentError("the tournament was cancelled by its host" if cancelled
                                      else "the tournament has already started")
            settings = Settings.from_data(event.data)
            computers = [_computer(seed, k, settings) for k, seed in
                         enumerate(range(len(event.entrants), settings.places))]
            event.entrants = [*event.entrants, *computers]
            first = next_round(event, settings)
            assert first is not None  # two places or more: a first round always exists
            tables = [TableRow(1, number, new_code(), seats) for number, seats in enumerate(first.tables)]
            self.store.begin_round(code, event.version, 1, first.byes, tables, computers)

        try:
            _retried(attempt)
        except TournamentError:
            if by is not None:
                raise  # (a start when full that another process made first is no error)


def _must_be_open(event: StoredTournament, otherwise: str) -> None:
    if event.status == "cancelled":
        raise TournamentError("the tournament was cancelled by its host")
    if event.status != "open":
        raise TournamentError(f"the tournament has started: {otherwise}")


def _computer(seed: int, k: int, settings: Settings) -> Entrant:
    """The ``k``-th computer player filling the empty places: the host's levels in turn."""
    name = COMPUTER_NAMES[k % len(COMPUTER_NAMES)]
    if k >= len(COMPUTER_NAMES):
        name += f" {k // len(COMPUTER_NAMES) + 1}"
    return Entrant(seed, name, level=settings.levels[k % len(settings.levels)])


def _retried(attempt: Callable[[], T]) -> T:
    for _ in range(TRIES - 1):
        try:
            return attempt()
        except Moved:
            continue
    try:
        return attempt()
    except Moved:
        raise TournamentError("the tournament is busy: try again") from None
