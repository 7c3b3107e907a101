"""The routes of the coach's and a player's own pages: replay viewer, reviews, statistics,
leaderboard, the analysis board, the puzzles."""

from __future__ import annotations

from starlette.routing import BaseRoute, Route

from okgin.server.pages.analysis import analysis_page
from okgin.server.pages.leaderboard import leaderboard_page
from okgin.server.pages.puzzles import puzzle_routes
from okgin.server.pages.review import replay_data, replay_page, replay_upload, review_page
from okgin.server.pages.statistics import stats_page


def coach_routes() -> list[BaseRoute]:
    return [
        Route("/replay", replay_page),
        Route("/games/{game:id}/replay", replay_page),
        Route("/games/{game:id}/review", review_page),
        Route("/api/games/{game:id}/replay", replay_data),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Route("/stats", stats_page),
        Route("/leaderboard", leaderboard_page),
        Route("/analysis", analysis_page),
        *puzzle_routes(),
    ]
