"""Ratings (okgin/server/players/ratings.py, rating_store.py): worked examples checked against
openskill's own functions, each finished game rated once and only then, and an old store upgraded
with its games rated for nobody."""

from __future__ import annotations

import json
import tempfile
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from real_servers import Postgres
from sqlalchemy import create_engine, delete, insert, inspect, select, update
from sqlalchemy.engine import Engine
from test_migrations import old_store

from okgin.server.players.identity import Players
from okgin.server.players.rating_store import RatingStore, bucket, forget
from okgin.server.players.ratings import (
    COMPUTER_MU,
    COMPUTER_SIGMA,
    COMPUTER_WEIGHT,
    Entrant,
    Rating,
    family,
    places,
    rate,
)
from okgin.server.store.migrate import upgrade
from okgin.server.store.schema import (
    abandonments,
    game_players,
    games,
    rated_games,
    rating_counts,
    rating_history,
    ratings,
    rooms,
)
from okgin.server.store.storage import Store, game_row

OS = PlackettLuce()


def _openskill(before: list[Rating], ranks: list[int]) -> list[float]:
    """openskill's own new (mu, sigma) of each seat, one after the other."""
    teams = [[OS.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    return [x for (p,) in OS.rate(teams, ranks=[float(r) for r in ranks]) for x in (p.mu, p.sigma)]


def _flat(ratings: list[Rating]) -> list[float]:
    return [x for r in ratings for x in (r.mu, r.sigma)]


# -- worked examples --------------------------------------------------------------------------


def test_two_new_players_the_winner_gains_what_openskill_gives() -> None:
    new = rate([Entrant("ann", None, 1), Entrant("bob", None, 2)], {})
    assert new["ann"].mu == pytest.approx(27.635389, abs=1e-6)  # openskill 6.2's own figures
    assert new["bob"].mu == pytest.approx(22.364611, abs=1e-6)
    assert new["ann"].sigma == new["bob"].sigma == pytest.approx(8.065901, abs=1e-6)
    assert new["ann"].ordinal == pytest.approx(3.437685, abs=1e-6)
    assert (new["ann"].games, new["bob"].games) == (1, 1)
    assert _flat([new["ann"], new["bob"]]) == pytest.approx(
        _openskill([Rating(), Rating()], [1, 2]))


def test_three_seats_with_ratings_and_a_shared_place_as_openskill_rates_them() -> None:
    before = {"ann": Rating(30.0, 5.0, 12), "bob": Rating(22.0, 7.0, 3), "cy": Rating(25.0, 6.0, 9)}
    seats = places(1, [80, 150, 80])
    assert seats == [2, 1, 2]
    new = rate([Entrant(p, None, s) for p, s in zip(before, seats, strict=True)], before)
    expected = _openskill(list(before.values()), seats)
    assert _flat([new[p] for p in before]) == pytest.approx(expected)
    assert new["bob"].mu > 22.0 and new["ann"].mu < 30.0  # the winner rises, the favourite falls
    assert [new[p].games for p in before] == [13, 4, 10]


def test_four_seats_by_final_standing() -> None:
    seats = places(3, [-20, 95, 40, 160])
    assert seats == [4, 2, 3, 1]
    players = ["a", "b", "c", "d"]
    new = rate([Entrant(p, None, s) for p, s in zip(players, seats, strict=True)], {})
    assert _flat([new[p] for p in players]) == pytest.approx(_openskill([Rating()] * 4, seats))
    assert new["d"].mu > new["b"].mu > new["c"].mu > new["a"].mu


def test_a_computer_opponent_counts_at_reduced_weight_and_never_moves() -> None:
    hard = Rating(COMPUTER_MU["hard"], COMPUTER_SIGMA)
    ann = Rating(25.0, 6.0, 4)
    new = rate([Entrant(None, "hard", 1), Entrant("ann", None, 2)], {"ann": ann})
    assert set(new) == {"ann"}  # the computer player's rating is not written anywhere
    _, _, mu, sigma = _openskill([hard, ann], [1, 2])
    assert COMPUTER_WEIGHT == 0.5
    assert new["ann"].mu == pytest.approx(ann.mu + 0.5 * (mu - ann.mu))
    assert new["ann"].sigma == pytest.approx(ann.sigma + 0.5 * (sigma - ann.sigma))
    assert mu < new["ann"].mu < ann.mu  # half of openskill's loss


def test_the_published_computer_ratings_give_the_measured_win_rates() -> None:
    """docs/bots.md: easy won 11.5% and hard 62.2% against normal, expert 54.0% against hard."""
    def predicted(level: str, against: str) -> float:
        teams = [[OS.rating(mu=COMPUTER_MU[lv], sigma=COMPUTER_SIGMA)] for lv in (level, against)]
        return float(OS.predict_win(teams)[0])

    assert predicted("easy", "normal") == pytest.approx(0.115, abs=0.005)
    assert predicted("hard", "normal") == pytest.approx(0.622, abs=0.005)
    assert predicted("expert", "hard") == pytest.approx(0.540, abs=0.005)


def test_families_places_and_bad_input() -> None:
    assert [family(n) for n in (2, 3, 4)] == ["two-player", "multi-player", "multi-player"]
    with pytest.raises(ValueError, match="2 to 4 seats, not 5"):
        family(5)
    assert places(0, [150, 150]) == [1, 2]  # the winner is first even on equal scores
    with pytest.raises(ValueError, match="one of them a person"):
        rate([Entrant(None, "easy", 1), Entrant(None, "hard", 2)], {})
    with pytest.raises(ValueError, match="no rating for the computer player 'random'"):
        rate([Entrant("ann", None, 1), Entrant(None, "random", 2)], {})


# -- the store: once, and only when finished -----------------------------------------------------


def add_game(engine: Engine, seats: dict[int, str], levels: list[str | None], rules: str = "oklahoma") -> str:
    """An unfinished game whose ``seats`` are these players (the others: ``levels``' computers)."""
    game = uuid.uuid4().hex[:20]
    head = {"format": "okgin-record/1", "rules": rules, "players": [f"p{i}" for i in range(len(levels))]}
    with engine.begin() as db:
        db.execute(insert(games).values(game_row(game, levels, head, 1, time.time())))
        if seats:
            db.execute(insert(game_players),
                       [{"game": game, "seat": s, "player": p} for s, p in seats.items()])
    return game


def finish(engine: Engine, game: str, winner: int, scores: list[int]) -> None:
    with engine.begin() as db:
        db.execute(update(games).where(games.c.id == game).values(
            status="finished", winner=winner, scores=json.dumps(scores), version=games.c.version + 1,
            updated=time.time()))


def snapshot(engine: Engine, people: list[str]) -> dict[tuple[str, str], tuple[float, float, int]]:
    with engine.connect() as db:
        rows = db.execute(select(ratings).where(ratings.c.player.in_(people))).all()
    return {(r.player, r.family): (r.mu, r.sigma, r.games) for r in rows}


@pytest.fixture(scope="module")
def engine() -> Engine:
    folder = tempfile.mkdtemp(prefix="ratings-")
    return Store(f"sqlite:///{folder}/games.db").engine


def test_a_finished_game_is_rated_once_and_its_history_written(engine: Engine) -> None:
    store = RatingStore(engine)
    ann, bob = (Players(engine).new_guest()[0].player for _ in range(2))
    game = add_game(engine, {0: ann, 1: bob}, [None, None])
    assert not store.rate_game(game, solo=False)  # not finished: nothing
    assert snapshot(engine, [ann, bob]) == {}
    finish(engine, game, 1, [40, 152])
    assert store.rate_game(game, solo=False)
    assert not store.rate_game(game, solo=False)  # again (a re-run, another process): nothing
    assert store.rate_unrated(time.time() + 1) == 0  # nor the sweep
    new = rate([Entrant(ann, None, 2), Entrant(bob, None, 1)], {})
    assert snapshot(engine, [ann, bob]) == {(p, "two-player"): (pytest.approx(new[p].mu),
                                                                 pytest.approx(new[p].sigma), 1)
                                             for p in (ann, bob)}
    assert [(p.place, p.seats) for p in store.history(bob)] == [(1, 2)]
    assert [(r.preset, r.solo, r.games, r.won) for r in store.results(ann)] == [("oklahoma", False, 1, 0)]


def test_the_sweep_rates_a_room_game_and_not_one_played_with_the_coach_allowed(engine: Engine) -> None:
    """A solo game (its room gone) had the coach: rated for nobody; so has a game whose room
    allowed the coach; a game of a room without the coach is rated, its computer at half weight."""
    store = RatingStore(engine)
    cy, dan = (Players(engine).new_guest()[0].player for _ in range(2))
    solo = add_game(engine, {0: cy}, [None, "hard", "easy"], rules="oklahoma-multiplayer")
    coached = add_game(engine, {0: cy, 1: dan}, [None, None])
    rated = add_game(engine, {0: cy, 1: dan}, [None, None, "easy"], rules="oklahoma-multiplayer")
    for game, scores in ((solo, [150, 60, 20]), (coached, [150, 60]), (rated, [150, 60, 20])):
        finish(engine, game, 0, scores)
    with engine.begin() as db:
        for code, game, coach in (("room-a", coached, True), ("room-b", rated, False)):
            db.execute(insert(rooms).values(code=code, version=1, created=0.0, updated=0.0, phase="finished",
                                            game=game, data=json.dumps({"coach": coach})))
    assert store.rate_unrated(time.time() + 1) == 3
    with engine.connect() as db:
        families = dict(db.execute(select(rated_games.c.game, rated_games.c.family)).all())
        weight = db.execute(select(rating_history.c.weight).where(rating_history.c.player == cy)).scalar()
    assert (families[solo], families[coached], families[rated]) == (None, None, "multi-player")
    assert [(r.preset, r.solo, r.seats) for r in store.results(cy)] == [("oklahoma-multiplayer", False, 3)]
    assert store.ratings_of(cy)["multi-player"].games == 1 and "two-player" not in store.ratings_of(cy)
    assert weight == 0.5


def test_the_sweep_places_last_who_abandoned_a_play_online_game_as_its_room_was_left(engine: Engine) -> None:
    """A process that stopped before rating a Play online game: the sweep reads from the stored
    room whose seat a computer played at the end (Eve, stood in for, though she won on score)
    and keeps her abandonment; a friends' room with a stand-in counts nobody."""
    store = RatingStore(engine)
    eve, fay, gus, hal = (Players(engine).new_guest()[0].player for _ in range(4))
    online = add_game(engine, {0: eve, 1: fay}, [None, None])
    friends = add_game(engine, {0: gus, 1: hal}, [None, None])
    for game in (online, friends):
        finish(engine, game, 0, [160, 40])
    stood_in = [{"kind": "person", "stand_in": "normal"}, {"kind": "person", "stand_in": None}]
    with engine.begin() as db:
        for code, game, pool in (("room-online", online, True), ("room-friends", friends, False)):
            db.execute(insert(rooms).values(code=code, version=1, created=0.0, updated=0.0, phase="finished",
                                            game=game, data=json.dumps({"coach": False, "pool": pool,
                                                                        "seats": stood_in})))
    assert store.rate_unrated(time.time() + 1) == 2
    assert [p.place for p in store.history(eve)] == [2] and [p.place for p in store.history(fay)] == [1]
    assert [p.place for p in store.history(gus)] == [1]
    with engine.connect() as db:
        kept = db.execute(select(abandonments.c.game, abandonments.c.player)).all()
    assert kept == [(online, eve)]


def test_a_game_of_programs_without_players_is_rated_for_nobody(engine: Engine) -> None:
    store = RatingStore(engine)
    game = add_game(engine, {}, [None, None])
    finish(engine, game, 0, [150, 3])
    assert store.rate_game(game, solo=False)
    with engine.connect() as db:
        assert db.execute(select(rated_games.c.family).where(rated_games.c.game == game)).one() == (None,)
        assert db.execute(select(rating_history).where(rating_history.c.game == game)).all() == []


OPS = st.lists(st.tuples(st.sampled_from(["finish", "rate", "resave", "abandon", "sweep"]),
                         st.integers(0, 3)), max_size=25)


@settings(max_examples=40, deadline=None)
@given(ops=OPS, shapes=st.lists(st.integers(2, 4), min_size=4, max_size=4),
       winners=st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_ratings_move_only_after_a_finished_game_and_exactly_once(
    engine: Engine, ops: list[tuple[str, int]], shapes: list[int], winners: list[int],
) -> None:
    """Unfinished, abandoned, re-saved and re-rated games change nothing; each finished game
    moves its players' ratings exactly once, as ``rate`` says, in the order they were rated."""
    store = RatingStore(engine)
    people = [Players(engine).new_guest()[0].player for _ in range(3)]
    ids = []
    for n, seats in enumerate(shapes):  # people at the first seats, a computer at the last of 3-4
        levels: list[str | None] = [None] * seats
        if seats > 2:
            levels[-1] = "normal"
        ids.append(add_game(engine, {s: people[(s + n) % 3] for s in range(seats) if levels[s] is None},
                            levels))
    finished: set[int] = set()
    abandoned: set[int] = set()
    rated: list[int] = []
    model: dict[str, dict[str, Rating]] = {}
    for op, g in ops:
        before = snapshot(engine, people)
        game = ids[g]
        if op == "finish" and g not in finished and g not in abandoned:
            scores = [150 if s == winners[g] % shapes[g] else 10 * s for s in range(shapes[g])]
            finish(engine, game, winners[g] % shapes[g], scores)
            finished.add(g)
        elif op == "resave":  # a later save of the same game: its row written again, same result
            with engine.begin() as db:
                db.execute(update(games).where(games.c.id == game).values(updated=time.time()))
        elif op == "abandon" and g not in finished:  # as the idle sweep removes it
            with engine.begin() as db:
                db.execute(delete(games).where(games.c.id == game))
            abandoned.add(g)
        elif op in ("rate", "sweep"):
            newly = [i for i in range(4) if i in finished and i not in rated]
            if op == "rate":
                newly = [g] if g in newly else []
                assert store.rate_game(game, solo=False) == bool(newly)
            else:  # the server's sweep (it may also rate earlier examples' games: not ours)
                with engine.connect() as db:
                    order = dict(db.execute(select(games.c.id, games.c.updated)).all())
                newly.sort(key=lambda i: (order[ids[i]], ids[i]))  # as they finished
                store.rate_unrated(time.time() + 1)
            for i in newly:
                _model_rate(model, engine, ids[i])
                rated.append(i)
            with engine.connect() as db:
                claimed = {game for (game,) in db.execute(select(rated_games.c.game)
                                                         .where(rated_games.c.game.in_(ids)))}
            assert claimed == {ids[i] for i in rated}
            continue
        assert snapshot(engine, people) == before  # nothing but rating moves a rating
    got = snapshot(engine, people)
    want = {(p, f): (pytest.approx(r.mu), pytest.approx(r.sigma), r.games)
            for f, per in model.items() for p, r in per.items()}
    assert got == want
    places_agree(engine, store, people)
    with engine.connect() as db:
        history = db.execute(select(rating_history.c.game).where(rating_history.c.player.in_(people))).all()
    assert sorted(g for (g,) in history) == sorted(
        ids[i] for i in rated for s in range(shapes[i]) if s < shapes[i] - (shapes[i] > 2))


def places_agree(engine: Engine, store: RatingStore, people: list[str]) -> None:
    """The counts per tenth are the ratings' own, and each place is 1 + those rated higher."""
    with engine.connect() as db:
        rows = db.execute(select(ratings.c.player, ratings.c.family, ratings.c.ordinal,
                                 ratings.c.bucket)).all()
        counts = {(f, b): n for f, b, n in db.execute(select(rating_counts)) if n}
    assert all(b == bucket(o) for _, _, o, b in rows)
    assert counts == Counter((f, b) for _, f, _, b in rows)
    for player, kind, ordinal, _ in rows:
        if player in people:
            standing = store.standings(player).get(kind)
            assert standing is not None
            higher = sum(f == kind and o > ordinal for _, f, o, _ in rows)
            assert (standing.place, standing.of) == (1 + higher, sum(f == kind for _, f, _, _ in rows))


def _model_rate(model: dict[str, dict[str, Rating]], engine: Engine, game: str) -> None:
    """What rating ``game`` should do, worked out from its row with ``rate`` alone."""
    with engine.connect() as db:
        row = db.execute(select(games).where(games.c.id == game)).one()
        sat = dict(db.execute(select(game_players.c.seat, game_players.c.player)
                              .where(game_players.c.game == game)).all())
    levels = json.loads(row.levels)
    standing = places(row.winner, json.loads(row.scores))
    entrants = [Entrant(sat.get(s), levels[s], standing[s]) for s in range(len(levels))]
    per = model.setdefault(family(len(levels)), {})
    per.update(rate(entrants, per))


def test_a_deleted_players_ratings_leave_the_counts(engine: Engine) -> None:
    store = RatingStore(engine)
    ann, bob = (Players(engine).new_guest()[0].player for _ in range(2))
    game = add_game(engine, {0: ann, 1: bob}, [None, None])
    finish(engine, game, 0, [150, 0])
    assert store.rate_game(game, solo=False)
    with engine.begin() as db:
        forget(db, ann)
    assert store.standings(ann) == {} and store.history(ann) == []
    places_agree(engine, store, [bob])


def test_on_postgresql_games_rated_at_once_share_their_players_without_losing_one(
    postgres: Postgres,
) -> None:
    """Eight processes' worth of ratings at once, every game with Ann (new: her first rows race
    to be made) and one of four others: each game rated once, Ann's count is 8, the counts agree."""
    store = Store(postgres.fresh_database())
    engine, rated = store.engine, RatingStore(store.engine)
    ann, *others = (Players(engine).new_guest()[0].player for _ in range(5))
    ids = []
    for n in range(8):
        game = add_game(engine, {0: ann, 1: others[n % 4]}, [None, None])
        finish(engine, game, n % 2, [150, 40] if n % 2 == 0 else [40, 150])
        ids.append(game)
    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(lambda game: rated.rate_game(game, solo=False), ids + ids))
    assert sorted(done) == [False] * 8 + [True] * 8
    assert rated.ratings_of(ann)["two-player"].games == 8
    assert sorted(r.games for p in others for r in rated.ratings_of(p).values()) == [2, 2, 2, 2]
    places_agree(engine, rated, [ann, *others])
    store.close()


# -- the migration ------------------------------------------------------------------------------


def test_an_old_store_upgrades_with_its_finished_games_rated_for_nobody(tmp_path: Path) -> None:
    url = old_store("sqlite", tmp_path)
    upgrade(url)
    store = Store(url)
    with store.engine.connect() as db:
        finished = {g for (g,) in db.execute(select(games.c.id).where(games.c.status == "finished"))}
        marked = dict(db.execute(select(rated_games.c.game, rated_games.c.family)).all())
        assert db.execute(select(ratings)).all() == []
    assert finished and marked == dict.fromkeys(finished)
    rated = RatingStore(store.engine)
    assert not any(rated.rate_game(g, solo=True) for g in finished)
    assert rated.rate_unrated(time.time() + 1) == 0
    store.close()


def test_a_store_at_tournaments_0008_gets_the_ratings_on_its_way_to_the_head(tmp_path: Path) -> None:
    """0004 (ratings) and 0005 (passkeys), then 0007 (chips) and 0008 (tournaments), were made
    beside each other on 0003; 0009 joins them."""
    from alembic import command

    from okgin.server.store.migrate import HEAD, alembic_config

    url = old_store("sqlite", tmp_path)
    engine = create_engine(url)
    with engine.begin() as db:
        command.upgrade(alembic_config(db), "0008")
    assert not inspect(engine).has_table("ratings")
    engine.dispose()
    assert upgrade(url) == ("0008", HEAD)
    store = Store(url)
    tables = set(inspect(store.engine).get_table_names())
    assert {"ratings", "rating_counts", "rated_games", "rating_history", "passkeys"} <= tables
    store.close()
