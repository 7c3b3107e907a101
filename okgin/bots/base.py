"""The one interface every computer player has: given a seat's view, return one action."""

from __future__ import annotations

from typing import Protocol

from okgin.actions import PlayerAction
from okgin.view import SeatView


class Player(Protocol):
    """A computer player. It sees only ``view`` (its legal actions are ``view.legal``)."""

    name: str

    def act(self, view: SeatView) -> PlayerAction:
        """Choose one of ``view.legal``."""
        ...
