"""The `expert` player: `hard` with four times the guessed deals at every search.

The same knock search and close-move search as `hard` (`bots/close_search.py`), on 640 guessed
deals for each close decision and 800 for each knock. With four times the guesses the search's
noise is half `hard`'s, so another move replaces the knock search's choice when it averages
1.5 points more, half `hard`'s prior: as sure, in the search's own noise, as `hard` is at 3.
It may take up to 1 s at the p95 (docs/bots.md).
"""

from __future__ import annotations

from okgin.bots.close_search import CloseSearchPlayer


class ExpertPlayer(CloseSearchPlayer):
    name = "expert"
    guesses = 640
    knock_guesses = 800
    prior = 1.5

