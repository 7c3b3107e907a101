"""`okgin tournament`: computer players in a Swiss, knockout or round robin, with 004's pools and ratings.

Rounds are paired by ``okgin.pairing``, each table's match is played by ``okgin.sim``'s
``play_one`` (each seat given only its view), each match's pool split by ``okgin.prizes``, and
every entrant rated with openskill's Plackett–Luce model by each match's final standing.
Everything follows from the seed: the same command prints the same report.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing import get_context
from typing import Any, Literal, cast

from okgin.bots import LEVELS
from okgin.bots.knock_search import MAX_BUDGET
from okgin.errors import OkginError
from okgin.pairing import (
    Round,
    Table,
    TableResult,
    check_table,
    knockout_round,
    round_robin,
    standings,
    swiss_round,
)
from okgin.prizes import PrizeRules, Split, split_pool
from okgin.rules import Rules, preset
from okgin.sim import SimConfig, play_one

Format = Literal["swiss", "knockout", "round-robin"]
FORMATS: tuple[Format, ...] = ("swiss", "knockout", "round-robin")
MAX_ENTRANTS = 1024


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: one level per entrant (entrant 0 is the top seed), the format and table."""

    format: Format
    levels: tuple[str, ...]
    rules: Rules
    table: int
    rounds: int
    """Swiss rounds (knockouts and round robins play until they are decided)."""
    seed: int = 0
    jobs: int = 1
    stake: int = 100
    """Chips each player puts in a match's pool."""
    prizes: PrizeRules = field(default_factory=PrizeRules)
    budget: int | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """Each entrant's name: its level and its number among that level's entrants."""
        counts: dict[str, int] = {}
        names = []
        for level in self.levels:
            counts[level] = counts.get(level, 0) + 1
            names.append(f"{level}#{counts[level]}")
        return tuple(names)


@dataclass(frozen=True)
class Played:
    """One table's match: its result (order, scores), penalty points and chips, in place order."""

    round: int
    result: TableResult
    penalties: tuple[int, ...]
    chips: tuple[int, ...]
    hands: int


def play_table(config: TournamentConfig, number: int, index: int, table: Table) -> Played:
    """Play the match of table ``index`` in round ``number`` (from 1) and split its pool.

    The seats (and so who deals first) are drawn from the seed, not given by rank."""
    table = tuple(random.Random(f"{config.seed}/{number}/{index}/seats").sample(table, len(table)))
    sim = SimConfig(
        tuple(config.levels[e] for e in table), 1, config.rules.replace(players=len(table)),
        seed=config.seed, budget=config.budget, timing=False,
    )
    stats = play_one(sim, number * 1000 + index, 0)
    seats = sorted(range(len(table)), key=lambda s: (s != stats.winner, -stats.scores[s], table[s]))
    penalties = tuple(stats.penalties[s] for s in seats)
    chips = split_pool(config.stake * len(table), 0, penalties, config.prizes)
    result = TableResult(tuple(table[s] for s in seats), tuple(stats.scores[s] for s in seats))
    return Played(number, result, penalties, chips, len(stats.hand_points))


def _play_round(config: TournamentConfig, number: int, r: Round) -> list[Played]:
    work = [(config, number, i, t) for i, t in enumerate(r.tables)]
    if config.jobs <= 1 or len(work) <= 1:
        return [play_table(*args) for args in work]
    with get_context("fork").Pool(min(config.jobs, len(work))) as pool:
        return pool.starmap(play_table, work)


@dataclass
class Tournament:
    """A tournament's rounds and what each table gave."""

    config: TournamentConfig
    rounds: list[Round] = field(default_factory=list)
    played: list[list[Played]] = field(default_factory=list)
    out_in: dict[int, int] = field(default_factory=dict)
    """Knockout: the round each entrant went out in."""

    @property
    def results(self) -> list[TableResult]:
        return [p.result for rnd in self.played for p in rnd]

    @property
    def byes(self) -> list[int]:
        return [e for r in self.rounds for e in r.byes]

    def play(self, r: Round) -> list[Played]:
        played = _play_round(self.config, len(self.rounds) + 1, r)
        self.rounds.append(r)
        self.played.append(played)
        return played

    def final_order(self) -> list[int]:
        """Entrants from first to last: the standings, or for a knockout the champion, then
        by the round they went out in (later first), then the standings."""
        entrants = list(range(len(self.config.levels)))
        table = [s.entrant for s in standings(entrants, self.results, self.byes)]
        if self.config.format != "knockout":
            return table
        last = len(self.rounds) + 1
        return sorted(table, key=lambda e: -self.out_in.get(e, last))


def run_tournament(config: TournamentConfig) -> Tournament:
    """Play every round of ``config``."""
    event = Tournament(config)
    entrants = list(range(len(config.levels)))
    if config.format == "swiss":
        for _ in range(config.rounds):
            ranking = [s.entrant for s in standings(entrants, event.results, event.byes)]
            event.play(swiss_round(ranking, config.table, event.rounds))
    elif config.format == "round-robin":
        for r in round_robin(entrants, config.table):
            event.play(r)
    else:
        alive = entrants
        while len(alive) > 1:
            played = event.play(knockout_round(alive, config.table))
            for p in played:
                for e in p.result.order[1:]:
                    event.out_in[e] = len(event.rounds)
            alive = [e for e in alive if e not in event.out_in]
    return event


def ratings(event: Tournament) -> list[tuple[float, float]]:
    """Each entrant's (mu, sigma): openskill's Plackett–Luce, updated after every match, in
    play order, by the match's final standing."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = [model.rating() for _ in event.config.levels]
    for rnd in event.played:
        for p in rnd:
            teams = [[rated[e]] for e in p.result.order]
            updated = model.rate(teams, ranks=[float(place) for place in range(1, len(teams) + 1)])
            for e, team in zip(p.result.order, updated, strict=True):
                rated[e] = team[0]
    return [(r.mu, r.sigma) for r in rated]


def report(event: Tournament) -> dict[str, Any]:
    """The figures of a tournament, as ``okgin tournament --json`` prints them."""
    config = event.config
    labels = config.labels
    entrants = list(range(len(labels)))
    rows = {s.entrant: s for s in standings(entrants, event.results, event.byes)}
    chips = dict.fromkeys(entrants, 0)
    for p in (p for rnd in event.played for p in rnd):
        for e, won in zip(p.result.order, p.chips, strict=True):
            chips[e] += won - config.stake
    rated = ratings(event)
    order = event.final_order()
    return {
        "format": config.format, "rules": config.rules.preset, "table": config.table,
        "entrants": len(labels), "rounds": len(event.rounds), "seed": config.seed,
        "stake": config.stake, "split": config.prizes.split,
        "winner_share": config.prizes.winner_percent, "cutoff": config.prizes.cutoff,
        "hands": sum(p.hands for rnd in event.played for p in rnd),
        "tables": [
            [{"players": [labels[e] for e in p.result.order], "scores": list(p.result.points),
              "penalties": list(p.penalties), "chips": list(p.chips)} for p in rnd]
            + [{"bye": labels[e]} for e in r.byes]
            for r, rnd in zip(event.rounds, event.played, strict=True)
        ],
        "standings": [
            {"place": place, "name": labels[e], "level": config.levels[e],
             "score": _number(rows[e].score), "buchholz": _number(rows[e].buchholz),
             "difference": _number(rows[e].difference), "played": rows[e].played,
             "byes": rows[e].byes, "chips": chips[e], "mu": round(rated[e][0], 3),
             "sigma": round(rated[e][1], 3)}
            for place, e in enumerate(order, 1)
        ],
        "levels": _levels(config, chips, rated),
    }


def _levels(
    config: TournamentConfig, chips: dict[int, int], rated: list[tuple[float, float]]
) -> list[dict[str, Any]]:
    """Each level's rating: the mean mu and sigma of its entrants, ordinal mu − 3 sigma."""
    rows = []
    for level in dict.fromkeys(config.levels):
        mine = [e for e, lv in enumerate(config.levels) if lv == level]
        mu = statistics.fmean(rated[e][0] for e in mine)
        sigma = statistics.fmean(rated[e][1] for e in mine)
        rows.append({"level": level, "entrants": len(mine), "mu": round(mu, 3),
                     "sigma": round(sigma, 3), "ordinal": round(mu - 3 * sigma, 3),
                     "chips": sum(chips[e] for e in mine)})
    return sorted(rows, key=lambda row: -row["ordinal"])


def _number(value: Fraction) -> float:
    return round(float(value), 3)


def report_text(summary: dict[str, Any]) -> str:
    """The report in words: each round's tables with their splits, the standings, the levels."""
    lines = [
        f"{summary['format']}: {summary['entrants']} entrants, {summary['rounds']} rounds at "
        f"tables of {summary['table']} under {summary['rules']} ({summary['hands']} hands), "
        f"seed {summary['seed']}; each match's pool {summary['stake']} chips a player, split "
        f"{summary['split']} (the winner at least {summary['winner_share']}%, nothing from "
        f"{summary['cutoff']} penalty points behind)",
    ]
    for number, tables in enumerate(summary["tables"], 1):
        lines.append(f"round {number}:")
        for t in tables:
            if "bye" in t:
                lines.append(f"  bye: {t['bye']}")
                continue
            seats = ", ".join(
                f"{name} {score} ({penalty} penalty, {chips} chips)"
                for name, score, penalty, chips in zip(
                    t["players"], t["scores"], t["penalties"], t["chips"], strict=True)
            )
            lines.append(f"  {seats}")
    lines.append("standings (score, Buchholz, points difference; chips won less staked; rating):")
    for row in summary["standings"]:
        lines.append(
            f"  {row['place']:>3}. {row['name']:<10} {row['score']:>5g} {row['buchholz']:>6g} "
            f"{row['difference']:>+8.1f}  chips {row['chips']:>+6}  "
            f"mu {row['mu']:.1f} sigma {row['sigma']:.1f}"
        )
    lines.append("levels (openskill Plackett-Luce, mean of the entrants; ordinal = mu - 3 sigma):")
    for row in summary["levels"]:
        lines.append(
            f"  {row['level']:<7} {row['entrants']} entrants  mu {row['mu']:.2f}  sigma {row['sigma']:.2f}"
            f"  ordinal {row['ordinal']:+.2f}  chips {row['chips']:+}"
        )
    return "\n".join(lines)


def make_config(
    format: str, players: list[str], *, entrants: int | None, rounds: int | None, rules: str,
    table: int, seed: int, jobs: int, stake: int, split: str, budget: int | None,
    winner_share: int = 75, cutoff: int = 50,
) -> TournamentConfig:
    """A checked ``TournamentConfig``; entrants take the ``players`` levels in turn. Raises
    OkginError saying what is wrong."""
    if format not in FORMATS:
        raise OkginError(f"no format {format!r}; the formats are " + ", ".join(FORMATS))
    for level in players:
        if level not in LEVELS:
            raise OkginError(f"no player {level!r}; the players are " + ", ".join(LEVELS))
    if "random" in players:
        playable = ", ".join(lv for lv in LEVELS if lv != "random")
        raise OkginError("random players are not for tournaments: two at a table may never end their "
                         f"match (it has a 1000-hand limit); the players are {playable}")
    count = len(players) if entrants is None else entrants
    _check_numbers(format, count, table, rounds, jobs, stake, budget)
    prizes = _prize_rules(split, winner_share, cutoff)
    levels = tuple(players[i % len(players)] for i in range(count))
    swiss_rounds = rounds if rounds is not None else max(1, math.ceil(math.log2(count)))
    return TournamentConfig(
        format, levels, preset(rules), table, swiss_rounds, seed, jobs, stake, prizes, budget
    )


def _check_numbers(
    format: str, entrants: int, table: int, rounds: int | None, jobs: int, stake: int,
    budget: int | None,
) -> None:
    if not 2 <= entrants <= MAX_ENTRANTS:
        raise OkginError(f"--entrants must be from 2 to {MAX_ENTRANTS}, not {entrants}")
    try:
        check_table(table)
    except OkginError:
        raise OkginError(f"--table must be 2, 3 or 4 players, not {table}") from None
    if rounds is not None and format != "swiss":
        raise OkginError(f"--rounds is for swiss: a {format} plays until it is decided")
    if rounds is not None and rounds < 1:
        raise OkginError(f"--rounds must be at least 1, not {rounds}")
    if jobs < 1:
        raise OkginError(f"--jobs must be at least 1, not {jobs}")
    if stake < 0:
        raise OkginError(f"--stake is chips a player puts in each match's pool: 0 or more, not {stake}")
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        raise OkginError(f"--budget is the guessed deals per look-ahead, from 1 to {MAX_BUDGET}")


def _prize_rules(split: str, winner_share: int, cutoff: int) -> PrizeRules:
    if split not in ("scaled", "proportional"):
        raise OkginError(f"--split must be scaled or proportional, not {split!r}")
    if not 0 <= winner_share <= 100:
        raise OkginError(f"--winner-share is the winner's least percent of a pool, 0 to 100, "
                         f"not {winner_share}")
    if cutoff < 1:
        raise OkginError(f"--cutoff is the penalty points behind the winner from which a player "
                         f"gets nothing, 1 or more, not {cutoff}")
    return PrizeRules(winner_share, cutoff, cast(Split, split))


def tournament_command(format: str, players: list[str], *, as_json: bool, **options: Any) -> int:
    """What ``okgin tournament`` does: check the arguments, play, print the report."""
    config = make_config(format, players, **options)
    summary = report(run_tournament(config))
    print(json.dumps(summary) if as_json else report_text(summary))
    return 0
