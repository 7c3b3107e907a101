"""Tournaments: paired deals, parallel runs, the report's figures, and records that replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okgin.cli import main
from okgin.errors import OkginError
from okgin.record import replay_text, report
from okgin.rules import preset
from okgin.sim import (
    SimConfig,
    make_config,
    mean_interval,
    percentile,
    play_one,
    run,
)
from okgin.sim import report as sim_report


def test_wilson_interval_matches_the_textbook() -> None:
    from okgin.sim import wilson

    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775


def test_mean_interval_and_percentiles() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and round(high - mean, 3) == round(1.96 * (5 / 12) ** 0.5, 3)
    assert low == pytest.approx(2 * mean - high)
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 0.99)) == (
        50.0, 95.0, 99.0,
    )


def test_paired_matches_share_their_deals_with_the_seats_swapped(tmp_path: Path) -> None:
    config = SimConfig(("normal", "simple"), 2, preset("oklahoma"), seed=3, records=tmp_path)
    play_one(config, 0, 0)
    play_one(config, 0, 1)
    first = json.loads((tmp_path / "match-00000-0.json").read_text())
    second = json.loads((tmp_path / "match-00000-1.json").read_text())
    assert first["players"] == ["normal", "simple"] and second["players"] == ["simple", "normal"]
    assert first["hands"][0]["deal"] == second["hands"][0]["deal"]
    assert first["hands"][1]["deal"] == second["hands"][1]["deal"]


def test_records_replay_to_the_figures_the_sim_reports(tmp_path: Path) -> None:
    config = SimConfig(("easy", "normal"), 6, preset("oklahoma"), seed=1, records=tmp_path)
    results = run(config)
    assert len(results) == 6
    for stats in results:
        path = tmp_path / f"match-{stats.group:05d}-{stats.rotation}.json"
        match, players = replay_text(path.read_text())
        replayed = report(match)
        assert match.final is not None
        assert players[match.final.winner] == config.labels[stats.winner]
        by_name = {name: seat for seat, name in enumerate(players)}
        for hand, points in zip(replayed["hands"], stats.hand_points, strict=True):
            for entrant, name in enumerate(config.labels):
                assert hand["points"][by_name[name]] == points[entrant]
        for entrant, name in enumerate(config.labels):
            assert match.final.scores[by_name[name]] == stats.scores[entrant]


def test_parallel_runs_give_the_same_results_as_one_process() -> None:
    one = SimConfig(("simple", "random"), 8, preset("gin"), seed=5, jobs=1)
    two = SimConfig(("simple", "random"), 8, preset("gin"), seed=5, jobs=2)
    def played(config: SimConfig) -> list[object]:
        return [(r.winner, r.scores, r.hand_points, r.outcomes) for r in run(config)]

    assert played(one) == played(two)


def test_three_players_rotate_through_every_seat() -> None:
    config = SimConfig(("normal", "simple", "easy"), 3, preset("oklahoma-multiplayer"), seed=2)
    results = run(config)
    assert [(r.group, r.rotation) for r in results] == [(0, 0), (0, 1), (0, 2)]
    summary = sim_report(config, results)
    assert sum(e["wins"] for e in summary["entrants"]) == 3
    assert summary["hands"] == sum(len(r.hand_points) for r in results)


def test_the_report_counts_what_happened(tmp_path: Path) -> None:
    config = SimConfig(("simple", "random"), 4, preset("oklahoma"), seed=8)
    results = run(config)
    summary = sim_report(config, results)
    simple, rand = summary["entrants"]
    assert simple["wins"] + rand["wins"] == 4 == summary["matches"]
    won = sum(simple["outcomes"].values()) + sum(rand["outcomes"].values())
    assert won + summary["voids"] == summary["hands"]
    assert simple["points_per_hand"] == pytest.approx(-rand["points_per_hand"])
    assert simple["decisions"] > 0 and simple["p50_ms"] <= simple["p95_ms"] <= simple["p99_ms"]
    assert simple["decisions"] == sum(len(r.times[0]) for r in results)  # each one timed


def test_okgin_sim_prints_json_and_keeps_records_that_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([
        "sim", "normal", "simple", "--matches", "4", "--seed", "2", "--jobs", "2",
        "--json", "--quiet", "--records", str(tmp_path),
    ])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 4 and summary["players"] == ["normal", "simple"]
    files = sorted(tmp_path.glob("match-*.json"))
    assert len(files) == 4
    winners = []
    for path in files:
        match, players = replay_text(path.read_text())
        assert match.final is not None
        winners.append(players[match.final.winner])
    assert sorted(winners) == sorted(summary["players"][w] for w in summary["winners"])
    for path in files:
        assert main(["replay", str(path), "--json"]) == 0


def test_okgin_sim_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "master", "simple", "--quiet"]) == 2
    assert "no player 'master'" in capsys.readouterr().err
    with pytest.raises(OkginError, match="oklahoma-multiplayer is for 3 players"):
        make_config(["hard", "simple"], 10, "oklahoma-multiplayer", 0, 1, None, None)
    with pytest.raises(OkginError, match="at least 1"):
        make_config(["hard", "simple"], 0, "oklahoma", 0, 1, None, None)
