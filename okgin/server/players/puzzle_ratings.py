"""Puzzle ratings: the player against the puzzle, openskill's Plackett–Luce, both moving.

An answer is a game of two: the player wins when their move is the puzzle's answer, the puzzle
wins when it is not. Pure arithmetic, no store (``puzzle_store`` claims the attempt and writes
the figures). A player's puzzle rating is shown on the games' scale (``shown_rating``) and is
provisional for their first ``PROVISIONAL`` puzzles, as a game rating is for its first games.
"""

from __future__ import annotations

from okgin.server.players.ratings import MODEL, PROVISIONAL, Rating

__all__ = ["PROVISIONAL", "Rating", "rate_answer"]


def rate_answer(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one answer (``games``: answers counted).

    >>> after, _ = rate_answer(Rating(), Rating(), True)
    >>> after.mu > 25 and after.games == 1
    True
    """
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in (player, puzzle)]
    (mine,), (its,) = MODEL.rate(teams, ranks=[1.0, 2.0] if solved else [2.0, 1.0])
    return (Rating(mine.mu, mine.sigma, player.games + 1), Rating(its.mu, its.sigma, puzzle.games + 1))
