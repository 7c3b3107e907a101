"""The leaderboard, profile and statistics pages on PostgreSQL with 100,000 players and 1,000,000
rated games (a benchmark, not a test).

    nice -n 10 .venv/bin/python bench/bench_leaderboard.py
    nice -n 10 .venv/bin/python bench/bench_leaderboard.py --players 100000 --games 1000000 --fetches 300

Starts a throwaway PostgreSQL (tests/support/real_servers.py), makes the store at the schema's head,
and fills it inside the server (``INSERT … SELECT`` over ``generate_series``, the fastest bulk
load there is: no row crosses the wire): the players, 1,000,000 rated games (70% two-player,
two seats; 30% multi-player, three or four), a seat row and a rating-history row for each
player of each game (players drawn by a hash of the game's number), each player's current
rating in each family they played, with ``games`` their count of rated games, and the counts
per tenth of a rating (``rating_counts``). The ratings' values are drawn at random, not worked
out by openskill (the pages' cost does not depend on them). Then it runs VACUUM ANALYZE, as
autovacuum would, and fetches each page ``--fetches`` times through the real app (the ASGI app
of ``create_app``, called in-process by httpx, cookies and session middleware included), each
time as one of 200 players drawn at random with a session of their own, one request at a
time, and prints p50, p95 and p99 per page.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from real_servers import Postgres

from okgin.server import create_app
from okgin.server.players.identity import Players

PAGES = ("/leaderboard", "/profile", "/stats")


def fill(dsn: str, players: int, games: int) -> float:
    """Fill the store in the server; returns the seconds it took."""
    started = time.perf_counter()
    # Distinct players at one table: the seats' draws step by a prime apart, wrapped.
    player = "'p' || (((abs(hashint4(g)::bigint) + s * 24989) % {players}) + 1)"
    statements = [
        f"INSERT INTO players (id, created, name) SELECT 'p' || i, 0, 'Player ' || i "
        f"FROM generate_series(1, {players}) i",
        f"INSERT INTO rated_games (game, rated, family, preset, solo, seats) SELECT 'g' || g, g, "
        "CASE WHEN g % 10 < 7 THEN 'two-player' ELSE 'multi-player' END, "
        "CASE WHEN g % 10 < 7 THEN (ARRAY['oklahoma', 'oklahoma-big-gin', 'gin'])[g % 3 + 1] "
        "ELSE 'oklahoma-multiplayer' END, g % 5 = 0, "
        f"CASE WHEN g % 10 < 7 THEN 2 ELSE 3 + g % 2 END FROM generate_series(1, {games}) g",
        f"INSERT INTO game_players (game, seat, player) SELECT 'g' || g, s, {player} "
        f"FROM generate_series(1, {games}) g, generate_series(0, 3) s "
        "WHERE s < CASE WHEN g % 10 < 7 THEN 2 ELSE 3 + g % 2 END",
        "INSERT INTO rating_history (player, game, family, rated, place, weight, mu, sigma, ordinal) "
        "SELECT gp.player, gp.game, r.family, r.rated, gp.seat + 1, CASE WHEN r.solo THEN 0.5 ELSE 1 END, "
        "20 + random() * 10, 2 + random() * 4, random() * 30 FROM game_players gp "
        "JOIN rated_games r ON r.game = gp.game",
        "INSERT INTO ratings (player, family, mu, sigma, ordinal, bucket, games, updated) "
        "SELECT player, family, mu, sigma, mu - 3 * sigma, floor((mu - 3 * sigma) * 10), games, updated FROM "
        "(SELECT player, family, 20 + random() * 15 AS mu, 1 + random() * 7 AS sigma, count(*) AS games, "
        "max(rated) AS updated FROM rating_history GROUP BY player, family) drawn",
        "INSERT INTO rating_counts (family, bucket, players) SELECT family, bucket, count(*) FROM ratings "
        "GROUP BY family, bucket",
    ]
    with psycopg.connect(dsn, autocommit=True) as db:
        for statement in statements:
            db.execute(statement.format(players=players))  # type: ignore[arg-type]
        db.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


def counts(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn) as db:
        return {table: int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # type: ignore[index]
                for table in ("players", "rated_games", "game_players", "rating_history", "ratings",
                              "rating_counts")}


async def fetch_all(app: object, cookies: list[str], fetches: int) -> tuple[dict[str, list[float]],
                                                                           dict[str, float]]:
    """Each page's wall times, and its CPU time in this process (the app and its worker
    threads, not PostgreSQL) per fetch."""
    times: dict[str, list[float]] = {page: [] for page in PAGES}
    cpu = dict.fromkeys(PAGES, 0.0)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    rng = random.Random(1)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
        for page in PAGES:  # a few to warm the pool and the caches, not counted
            for cookie in cookies[:5]:
                (await web.get(page, cookies={"okgin_session": cookie})).raise_for_status()
        for _ in range(fetches):
            for page in PAGES:
                cookie = rng.choice(cookies)
                started, used = time.perf_counter(), time.process_time()
                answer = await web.get(page, cookies={"okgin_session": cookie})
                times[page].append(time.perf_counter() - started)
                cpu[page] += time.process_time() - used
                answer.raise_for_status()
    return times, {page: total / fetches for page, total in cpu.items()}


def explained(dsn: str, player: str) -> dict[str, float]:
    """PostgreSQL's own execution time (EXPLAIN ANALYZE, ms) of the pages' ratings queries, for
    one player, each the median of 21 runs."""
    from sqlalchemy.dialects import postgresql

    from okgin.server.players.rating_store import leaderboard_query, standings_query

    made = {"leaderboard (top 100, one family)": leaderboard_query("two-player", 100),
            "your place and rating (both families)": standings_query(player)}
    found = {}
    with psycopg.connect(dsn) as db:
        for name, statement in made.items():
            compiled = statement.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True})
            runs = []
            for _ in range(21):
                plan = db.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {compiled}").fetchone()[0]  # type: ignore[index]
                runs.append(float(plan[0]["Execution Time"]))
            found[name] = statistics.median(runs)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--fetches", type=int, default=300, help="fetches of each page")
    args = parser.parse_args()
    postgres = Postgres().start()
    try:
        url = postgres.fresh_database()
        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        app = create_app(url, idle_hours=None)
        took = fill(dsn, args.players, args.games)
        print(f"filled in {took:.1f} s: " + ", ".join(f"{n:,} {t}" for t, n in counts(dsn).items()))
        players = Players(app.state.store.engine)
        rng = random.Random(2)
        cookies = [players.new_session(f"p{rng.randint(1, args.players)}", "bench", None)[1]
                   for _ in range(200)]
        times, cpu = asyncio.run(fetch_all(app, cookies, args.fetches))
        print(f"{'page':<14}{'fetches':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'app CPU ms':>12}")
        for page, seconds in times.items():
            cuts = statistics.quantiles([s * 1000 for s in seconds], n=100)
            print(f"{page:<14}{len(seconds):>8}{cuts[49]:>9.1f}{cuts[94]:>9.1f}{cuts[98]:>9.1f}"
                  f"{cpu[page] * 1000:>12.1f}")
        for name, ms in explained(dsn, f"p{rng.randint(1, args.players)}").items():
            print(f"PostgreSQL's execution time, {name}: {ms:.2f} ms (median of 21)")
        app.state.store.close()
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
