"""`okgin tournament`: whole tournaments of fast computer players, their report and their errors."""

from __future__ import annotations

import json

import pytest

from okgin.cli import main
from okgin.errors import OkginError
from okgin.pairing import met
from okgin.rules import preset
from okgin.sim import SimConfig, play_one
from okgin.tournament import make_config, report, run_tournament

OPTIONS = {"entrants": None, "rounds": None, "rules": "oklahoma-multiplayer", "table": 2, "seed": 1,
           "jobs": 1, "stake": 100, "split": "scaled", "budget": None}


def tournament(capsys, *argv: str) -> str:
    assert main(["tournament", *argv]) == 0
    return capsys.readouterr().out


def test_the_same_seed_prints_the_same_tournament_in_one_process_or_two(capsys):
    argv = ["swiss", "--players", "simple", "easy", "--entrants", "6", "--rounds", "2", "--table", "3",
            "--seed", "4"]
    first = tournament(capsys, *argv)
    assert tournament(capsys, *argv, "--jobs", "2") == first
    assert tournament(capsys, *argv[:-1], "5") != first
    assert first.startswith("swiss: 6 entrants, 2 rounds at tables of 3 under oklahoma-multiplayer")
    assert "standings" in first and "levels (openskill Plackett-Luce" in first


def test_a_swiss_report_adds_up(capsys):
    summary = json.loads(tournament(
        capsys, "swiss", "--players", "simple", "--entrants", "5", "--rounds", "3", "--json",
        "--rules", "oklahoma-reshuffle", "--stake", "40"))
    standings = summary["standings"]
    assert [row["place"] for row in standings] == [1, 2, 3, 4, 5]
    assert sum(row["chips"] for row in standings) == 0  # chips move between players, none made
    assert sorted(row["name"] for row in standings) == [f"simple#{i}" for i in range(1, 6)]
    for tables in summary["tables"]:
        assert sum("bye" in t for t in tables) == 1  # five at tables of two: one bye a round
        for t in tables:
            if "chips" in t:
                assert sum(t["chips"]) == 80 and t["chips"][0] >= 60
    byes = [t["bye"] for tables in summary["tables"] for t in tables if "bye" in t]
    assert len(set(byes)) == 3
    scores = [row["score"] for row in standings]
    # Each round gives out 3 points: a win at each of the two tables and the bye.
    assert scores == sorted(scores, reverse=True) and sum(scores) == 3 * 3


def test_a_swiss_of_a_seed_has_no_rematch_and_levels_rated():
    config = make_config("swiss", ["simple", "easy"], **{**OPTIONS, "entrants": 8, "rounds": 3})
    event = run_tournament(config)
    seen: set[frozenset[int]] = set()
    for r in event.rounds:
        assert not met([r]) & seen
        seen |= met([r])
    levels = report(event)["levels"]
    assert {row["level"] for row in levels} == {"simple", "easy"}
    assert all(row["entrants"] == 4 and row["sigma"] < 25 / 3 for row in levels)


def test_a_knockout_of_six_at_tables_of_three_ends_with_one_champion():
    config = make_config("knockout", ["simple"], **{**OPTIONS, "entrants": 6, "table": 3})
    event = run_tournament(config)
    # Three go through to the final: the top seed has a bye, five play tables of 3 and 2.
    assert len(event.rounds) == 2 and event.rounds[0].byes == (0,)
    assert sorted(map(len, event.rounds[0].tables)) == [2, 3]
    champion = event.final_order()[0]
    assert champion not in event.out_in and len(event.out_in) == 5
    final = event.played[-1][0].result
    assert final.order[0] == champion and len(final.order) == 3
    went_out = [event.out_in[e] for e in event.final_order()[1:]]
    assert went_out == sorted(went_out, reverse=True)


def test_a_round_robin_seats_everyone_with_everyone():
    config = make_config("round-robin", ["simple"], **{**OPTIONS, "entrants": 5, "table": 3})
    event = run_tournament(config)
    assert len(met(event.rounds)) == 10


@pytest.mark.parametrize(
    ("name", "players", "seed"), [("oklahoma-reshuffle", 3, 4), ("oklahoma-multiplayer", 4, 0)]
)
def test_penalty_points_are_what_penalty_scoring_took_off(name, players, seed):
    # Seeds with an undercut (the knocker's 25 counts) and, with four players, a void hand.
    rules = preset(name).replace(players=players)
    stats = play_one(SimConfig(("simple",) * players, 1, rules, seed=seed), 0, 0)
    lost = [sum(-min(0, hand[e]) for hand in stats.hand_points) for e in range(players)]
    assert stats.penalties == lost and sum(lost) > 0
    outcomes = {outcome for outcome, _ in stats.outcomes}
    assert "undercut" in outcomes and (players == 3 or "void" in outcomes)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["league", "--players", "simple"],
         "no format 'league'; the formats are swiss, knockout, round-robin"),
        (["swiss", "--players", "simple", "master"], "no player 'master'; the players are"),
        (["swiss", "--players", "simple"], "--entrants must be from 2 to 1024, not 1"),
        (["swiss", "--players", "simple", "--entrants", "4", "--table", "5"],
         "--table must be 2, 3 or 4 players, not 5"),
        (["knockout", "--players", "simple", "simple", "--rounds", "3"],
         "--rounds is for swiss: a knockout plays until it is decided"),
        (["swiss", "--players", "simple", "simple", "--rounds", "0"], "--rounds must be at least 1, not 0"),
        (["swiss", "--players", "simple", "simple", "--stake", "-5"], "--stake is chips"),
        (["swiss", "--players", "simple", "simple", "--split", "even"],
         "--split must be scaled or proportional, not 'even'"),
        (["swiss", "--players", "simple", "simple", "--rules", "bridge"], "no preset 'bridge'"),
        (["swiss", "--players", "simple", "simple", "--winner-share", "120"],
         "--winner-share is the winner's least percent of a pool, 0 to 100, not 120"),
        (["swiss", "--players", "simple", "simple", "--cutoff", "0"], "--cutoff is the penalty points"),
        (["swiss", "--players", "simple", "simple", "--jobs", "0"], "--jobs must be at least 1, not 0"),
    ],
)
def test_bad_input_is_one_line_and_plays_nothing(argv, message, capsys):
    assert main(["tournament", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("okgin tournament: ") and message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["swiss", "--players", "simple", "--entrants", "x"], "argument --entrants: invalid int value: 'x'"),
        (["swiss"], "the following arguments are required: --players"),
    ],
)
def test_a_malformed_command_line_is_one_line_too(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["tournament", *argv])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == ""
    assert err == f"okgin tournament: {message} (see okgin tournament --help)\n"


@pytest.mark.parametrize("format", ["swiss", "knockout", "round-robin"])
@pytest.mark.parametrize("level", ["easy", "simple", "normal", "hard"])
def test_every_level_plays_every_format_to_its_end(format, level, capsys):
    # `hard` searches 8 guessed deals per look-ahead: the formats are what is tried here
    out = tournament(capsys, format, "--players", level, "--entrants", "2", "--seed", "1", "--budget", "8")
    assert f"{format}: 2 entrants" in out and level in out


@pytest.mark.parametrize("format", ["swiss", "knockout", "round-robin"])
@pytest.mark.parametrize("players", [["random"], ["random", "easy"]])
def test_random_players_are_refused_up_front_with_why(format, players, capsys):
    # failed before: `swiss --players random --entrants 2` ended in a RuntimeError traceback
    assert main(["tournament", format, "--players", *players, "--entrants", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("okgin tournament: random players are not for tournaments: two at a table")


def test_a_match_that_cannot_end_is_an_okgin_error():
    config = SimConfig(("random", "random"), 1, preset("oklahoma"), max_hands=3)
    with pytest.raises(OkginError, match="is not over after 3 hands: these players may never reach"):
        play_one(config, 0, 0)


@pytest.mark.parametrize(("entrants", "table", "rematches"), [(8, 3, [0, 0, 0]), (7, 4, [0, 3, 3])])
def test_the_issues_swiss_tournaments_rematch_no_more_than_they_must(entrants, table, rematches):
    # `okgin tournament swiss --players easy simple --entrants 8 --table 3 --seed 1`: round 3
    # was (7,5,0) (3,2,6) (4,1) with a rematch where (0,7,4) (5,1) (3,6,2) has none; 7 at
    # tables of 4 had 5 pairs met again in round 3 where 3 were the fewest.
    # failed before: [0, 0, 1] and [0, 3, 5]
    config = make_config("swiss", ["easy", "simple"], **{**OPTIONS, "entrants": entrants, "table": table})
    event = run_tournament(config)
    assert [len(met([r]) & met(event.rounds[:i])) for i, r in enumerate(event.rounds)] == rematches
