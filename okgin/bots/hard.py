"""The `hard` player: the knock search, with its close draws and discards searched too.

`normal`'s judgement sharpened by guessing the other hands (`bots/knock_search.py`: a knock
searched against playing on and playing for gin, the discard the next seat can use least),
then every close draw and discard played out on 160 guessed deals, the knock search's choice
kept unless another move averages 3 points more (`bots/close_search.py`). Until issue 27 this
was `expert`; it decides within `hard`'s 250 ms at the p95 (docs/bots.md).
"""

from __future__ import annotations

from okgin.bots.close_search import CloseSearchPlayer


class HardPlayer(CloseSearchPlayer):
    name = "hard"
    guesses = 160
    knock_guesses = 200
    prior = 3.0


DEFAULT_BUDGET = HardPlayer.guesses
