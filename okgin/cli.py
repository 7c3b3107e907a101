"""The `okgin` command: thin, it calls the modules that do the work."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from okgin.cards import parse_cards
from okgin.errors import OkginError
from okgin.melds import arrange, best_discard, deadwood
from okgin.record import replay_text, report


def analyze(tokens: Sequence[str]) -> dict[str, Any]:
    """The analysis of one hand: least deadwood, melds, unmatched and (11 cards) discard.

    Raises NotationError for a bad card.
    """
    cards = parse_cards(list(tokens))
    if not cards:
        raise OkginError("no cards given")
    discard = None
    if len(cards) == 11 and deadwood(cards) > 0:
        _, card = best_discard(cards)
        discard = card
        cards = [c for c in cards if c != card]
    shown = arrange(cards)
    result: dict[str, Any] = {
        "deadwood": shown.deadwood,
        "melds": [[str(c) for c in meld] for meld in shown.melds],
        "unmatched": [str(c) for c in shown.unmatched],
    }
    if len(tokens) == 11:
        result["discard"] = str(discard) if discard else None
    return result


def _analyze_text(result: dict[str, Any]) -> str:
    lines = []
    if "discard" in result:
        lines.append(f"discard: {result['discard'] or 'none: all eleven cards meld (Big Gin)'}")
    melds = "  ".join("-".join(meld) for meld in result["melds"]) or "none"
    lines.append(f"melds: {melds}")
    lines.append(f"unmatched: {' '.join(result['unmatched']) or 'none'}")
    lines.append(f"deadwood: {result['deadwood']}")
    return "\n".join(lines)


def _cmd_analyze(args: argparse.Namespace) -> int:
    if args.cards:
        result = analyze(args.cards)
        print(json.dumps(result) if args.json else _analyze_text(result))
        return 0
    status = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            print(json.dumps(analyze(line.replace(",", " ").split())), flush=True)
        except OkginError as error:
            print(json.dumps({"error": str(error)}), flush=True)
            status = 2
    return status


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        raise OkginError(f"cannot read {args.file}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise OkginError(f"{args.file} is not UTF-8 text (byte {error.start}): a record is JSON") from None
    match, players = replay_text(text)
    summary = report(match)
    if args.json:
        print(json.dumps(summary))
        return 0
    for number, (hand, played) in enumerate(zip(summary["hands"], match.hands, strict=True), 1):
        result = played.result
        working = result.working[result.winner] if result and result.winner is not None else None
        print(_hand_line(number, hand, players, working))
    totals = ", ".join(f"{name} {score}" for name, score in zip(players, summary["totals"], strict=True))
    print(f"totals: {totals}")
    final = summary["final"]
    if final:
        scores = ", ".join(f"{name} {score}" for name, score in zip(players, final["scores"], strict=True))
        print(f"{players[final['winner']]} wins the game; with bonuses: {scores}")
    return 0


def _hand_line(number: int, hand: dict[str, Any], players: Sequence[str], working: str | None) -> str:
    limit = "gin only" if hand["knock_limit"] == 0 else f"knock at {hand['knock_limit']}"
    spade = ", spades double" if hand["multiplier"] == 2 else ""
    head = f"hand {number} ({limit}{spade}): "
    if hand["outcome"] is None:
        return head + "in progress"
    if hand["outcome"] == "void":
        return head + "void, no score"
    points = ", ".join(f"{name} {p:+d}" for name, p in zip(players, hand["points"], strict=True) if p)
    by, winner = players[hand["knocker"]], players[hand["winner"]]
    return head + f"{hand['outcome']} by {by}; {winner} score {working or points}"


def _cmd_coach(args: argparse.Namespace) -> int:
    from okgin.advice.review import review_json, review_match, review_text

    match, players = replay_text(_read(args.file))
    if args.seat is not None and not 0 <= args.seat < match.rules.players:
        raise OkginError(f"no seat {args.seat}: the record has seats 0 to {match.rules.players - 1}")
    reviews = review_match(match, args.seat or 0, players, args.hand)
    if args.json:
        print(json.dumps({"players": players, "reviews": [review_json(r, players) for r in reviews]}))
    else:
        print("\n".join(review_text(r, players) for r in reviews) or "no hands in the record")
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise OkginError(f"cannot read {path}: {reason}") from None


def _cmd_play(args: argparse.Namespace) -> int:
    from okgin.terminal import play_in_terminal

    return play_in_terminal(args.rules, args.opponent, args.seed)


def _cmd_serve(args: argparse.Namespace) -> int:
    from okgin.server.serve import serve

    return serve(args)


def _cmd_admin(args: argparse.Namespace) -> int:
    from okgin.server.players.admin import admin_command

    return admin_command(args)


def _cmd_db_upgrade(args: argparse.Namespace) -> int:
    from okgin.server.store.migrate import upgrade

    before, after = upgrade(args.db)
    if before == after:
        print(f"okgin db upgrade: the game store is at schema {after} already", flush=True)
    else:
        print(f"okgin db upgrade: the game store went from schema {before or 'before 0001'} to {after}")
    return 0


def _daily_deals(seed: str, levels: list[str]) -> int:
    """``okgin sim --daily SEED``: the day's five deals, one game record (one hand, nothing played
    yet) a line, so anyone can check a published day's deals (docs/daily.md)."""
    import json

    from okgin.daily import check_seed, records

    if levels:
        raise OkginError("--daily deals the day's hands for you and hard: name no players with it")
    for record in records(check_seed(seed)):
        print(json.dumps(record, separators=(",", ":")))
    return 0


def _cmd_sim(args: argparse.Namespace) -> int:
    from okgin.sim import sim_command

    if args.daily is not None:
        return _daily_deals(args.daily, args.players)
    if not args.players:
        raise OkginError("name two to four levels to play (e.g. okgin sim hard simple), or --daily SEED")

    return sim_command(
        args.players, matches=args.matches, rules=args.rules, seed=args.seed, jobs=args.jobs,
        budget=args.budget, records=args.records, as_json=args.json, progress=not args.quiet,
        timing=not args.no_times, resume=args.resume,
    )


def _cmd_puzzles(args: argparse.Namespace) -> int:
    from okgin.puzzles.command import check_command, make_command

    if args.action == "make":
        return make_command(args.seed, args.count, args.out, quiet=args.quiet)
    if args.action == "mine":
        from okgin.server.players.puzzle_mining import mine_command

        return mine_command(args.db, limit=args.limit, quiet=args.quiet)
    return check_command(args.salt, args.file, args.count, quiet=args.quiet)


def _cmd_bot(args: argparse.Namespace) -> int:
    from okgin.remote.bot import bot_command

    return bot_command(args.server, args.token, args.level, games=args.games, seed=args.seed, seek=args.seek,
                       join=args.join)


def _seek(text: str) -> tuple[str, int]:
    """``RULES:SEATS`` (``oklahoma:2``) as the pool's choice; the server judges whether it is offered."""
    rules, _, seats = text.rpartition(":")
    if not rules or not seats.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give RULES:SEATS, e.g. oklahoma:2")
    return rules, int(seats)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from okgin.tournament import tournament_command

    return tournament_command(
        args.format, args.players, as_json=args.json, entrants=args.entrants, rounds=args.rounds,
        rules=args.rules, table=args.table, seed=args.seed, jobs=args.jobs, stake=args.stake,
        split=args.split, budget=args.budget, winner_share=args.winner_share, cutoff=args.cutoff,
    )


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line (its usage block is what --help is for)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="okgin", description="Oklahoma Gin, done properly.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("analyze", help="least deadwood, melds and best discard of a hand")
    p.add_argument("cards", nargs="*", help="cards such as 7S TD AH (none: read stdin)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_analyze)

    p = commands.add_parser("replay", help="replay a game record and report every hand")
    p.add_argument("file", help="a game record (docs/records.md)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_replay)

    p = commands.add_parser("coach", help="review a record: each hand's costliest decisions")
    p.add_argument("file", help="a game record (docs/records.md)")
    p.add_argument("--hand", type=int, default=None, help="review only hand N (from 1)")
    p.add_argument("--seat", type=int, default=None, help="the seat to review (default 0)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_coach)

    p = commands.add_parser("play", help="play a game in the terminal against the computer")
    p.add_argument("--rules", default="oklahoma", help="a preset (default: oklahoma)")
    p.add_argument("--opponent", default="normal", help="the computer player's level (default normal)")
    p.add_argument("--seed", type=int, default=None, help="seed the shuffles")
    p.set_defaults(run=_cmd_play)

    p = commands.add_parser("sim", help="play matches between computer players and report")
    p.add_argument("players", nargs="*", help="two to four levels, e.g. hard simple")
    p.add_argument("--daily", default=None, metavar="SEED",
                   help="print the five deals of the daily deal whose published seed is SEED, as records"
                        " (docs/daily.md)")
    p.add_argument("--matches", type=int, default=200, help="matches to play (default 200)")
    p.add_argument("--rules", default="oklahoma", help="a preset (default: oklahoma)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="processes to run (default 1)")
    p.add_argument("--budget", type=int, default=None,
                   help="guessed deals hard and expert search per look-ahead (default: hard 160 for a"
                        " close move and 200 for a knock, expert 640 and 800)")
    p.add_argument("--records", default=None, help="keep every match's record in this folder")
    p.add_argument("--resume", action="store_true",
                   help="go on with the stopped run whose records are in --records: its finished matches"
                        " are read back, not played again (their decision times are not known)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--no-times", action="store_true",
                   help="leave decision times out of the report (a seeded report is then the same every run)")
    p.set_defaults(run=_cmd_sim)

    _puzzles_parser(commands)

    p = commands.add_parser("tournament", help="a Swiss, knockout or round robin of computer players")
    p.add_argument("format", help="swiss, knockout or round-robin")
    p.add_argument("--players", nargs="+", required=True,
                   help="levels the entrants take in turn, e.g. hard normal simple easy")
    p.add_argument("--entrants", type=int, default=None, help="how many entrants (default: one per level)")
    p.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default: log2 of the entrants)")
    p.add_argument("--rules", default="oklahoma-multiplayer", help="a preset (default: oklahoma-multiplayer)")
    p.add_argument("--table", type=int, default=2, help="players at a table, 2 to 4 (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the players (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="processes to run (default 1)")
    p.add_argument("--stake", type=int, default=100,
                   help="chips each player puts in a match's pool (default 100)")
    p.add_argument("--split", default="scaled", help="004's pool split: scaled (default) or proportional")
    p.add_argument("--winner-share", type=int, default=75,
                   help="the winner's least percent of a pool (default 75)")
    p.add_argument("--cutoff", type=int, default=50,
                   help="penalty points behind the winner from which a player gets nothing (default 50)")
    p.add_argument("--budget", type=int, default=None,
                   help="guessed deals hard and expert search per look-ahead")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_tournament)

    p = commands.add_parser("bot", help="play on a server as a bot account, through its API (docs/api.md)")
    p.add_argument("--level", default="normal", help="the computer player's level (default normal)")
    p.add_argument("--server", required=True, help="the okgin server, e.g. http://127.0.0.1:8000")
    p.add_argument("--token", required=True, help="the bot account's API token (okgin_...)")
    p.add_argument("--games", type=int, default=0, help="stop after this many games (default 0: never)")
    p.add_argument("--seed", type=int, default=None, help="seed the player's choices")
    p.add_argument("--seek", type=_seek, default=None, metavar="RULES:SEATS",
                   help="also wait in Play online's pool for such tables, e.g. oklahoma:2 (docs/api.md)")
    p.add_argument("--join", action="append", default=[], metavar="TOURNAMENT",
                   help="enter this tournament (its code; repeatable) if its host opened it to bots")
    p.set_defaults(run=_cmd_bot)

    p = commands.add_parser("serve", help="serve the web game (http://127.0.0.1:8000)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on")
    p.add_argument("--db", default="sqlite:///okgin.db", help="SQLAlchemy URL of the game store")
    p.add_argument("--broker", default=None, help="redis://… to share rooms between processes")
    p.add_argument("--allow-seeds", action="store_true",
                   help="let clients choose the shuffle's seed (for tests only: it reveals every card)")
    p.add_argument("--clock-file", default=None, metavar="PATH",
                   help="for tests, with --allow-seeds only: the daily deal's UTC time is read from it")
    p.add_argument("--origin", action="append", default=[],
                   help="another origin allowed to open the WebSocket (e.g. https://example.com)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name the pages are served under (repeatable; always: the listen address"
                        " and localhost); any other Host is refused, so a DNS-rebinding page gets nothing")
    p.add_argument("--idle-hours", type=_not_negative, default=24.0,
                   help="remove unfinished games untouched this long (0: never; default 24)")
    p.add_argument("--away-seconds", type=_not_negative, default=60.0,
                   help="how long a player is away before the host may seat a computer for them")
    p.add_argument("--pool-offer-seconds", type=_not_negative, default=20.0,
                   help="Play online: seconds waited before a computer player is offered (default 20)")
    p.add_argument("--secure-cookies", action="store_true",
                   help="mark the session cookie Secure: set it when players reach the server over https")
    p.add_argument("--no-address-limits", action="store_true",
                   help="no rate limits per address, only per connection (for a load test from one host)")
    p.set_defaults(run=_cmd_serve)

    p = commands.add_parser("db", help="the game store: `okgin db upgrade` brings it to this okgin's schema")
    actions = p.add_subparsers(dest="action", required=True)
    p = actions.add_parser("upgrade", help="migrate the game store in place, keeping every game and room")
    p.add_argument("--db", default="sqlite:///okgin.db", help="SQLAlchemy URL of the game store")
    p.set_defaults(run=_cmd_db_upgrade)
    _admin_parser(commands)
    return parser


def _puzzles_parser(commands: Any) -> None:
    """``okgin puzzles make|check|mine`` (docs/puzzles.md)."""
    puzzles = commands.add_parser("puzzles", help="make, check or mine puzzles (docs/puzzles.md)")
    actions = puzzles.add_subparsers(dest="action", required=True)
    p = actions.add_parser("make", help="mine puzzles from computer players' games, reproducibly from a seed")
    p.add_argument("--seed", type=int, required=True, help="seed of the games")
    p.add_argument("--count", type=int, default=500, help="puzzles to make (default 500)")
    p.add_argument("--out", default=None, help="the file to write (default: the shipped set)")
    p.add_argument("--quiet", action="store_true", help="no line per puzzle found")
    p = actions.add_parser("check", help="price every shipped puzzle again on fresh guesses")
    p.add_argument("--salt", type=int, default=404, help="the fresh guesses' salt (default 404)")
    p.add_argument("--file", default=None, help="a set of puzzles to check (default: the shipped set)")
    p.add_argument("--count", type=int, default=None, help="check a sample of this many (default: all)")
    p.add_argument("--quiet", action="store_true", help="no line per puzzle")
    p = actions.add_parser("mine", help="find puzzles in the finished games of a game store")
    p.add_argument("--db", default="okgin.db", help="the game store (default okgin.db)")
    p.add_argument("--limit", type=int, default=200, help="finished games to look at (default 200)")
    p.add_argument("--quiet", action="store_true", help="no line per puzzle found")
    puzzles.set_defaults(run=_cmd_puzzles)


def _admin_parser(commands: Any) -> None:
    """`okgin admin ...` (docs/moderation.md): its actions and their options."""
    admin = commands.add_parser("admin", help="the operator's actions: reports, bans, names, the audit")
    actions = admin.add_subparsers(dest="action", required=True)

    def action(name: str, text: str, player: bool = False) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = actions.add_parser(name, help=text)
        made.add_argument("--db", default="sqlite:///okgin.db", help="SQLAlchemy URL of the game store")
        if player:
            made.add_argument("player", help="the player's id (as `okgin admin reports` shows it)")
        made.set_defaults(run=_cmd_admin)
        return made

    action("reports", "the players' reports not yet handled").add_argument(
        "--all", action="store_true", help="the handled ones too")
    action("audit", "every admin action, oldest first")
    kept = "the reason, kept in the audit"
    action("ban", "bar a player from Play online, tournaments and the leaderboard", True).add_argument(
        "--why", required=True, help=kept)
    action("unban", "lift a player's ban", True).add_argument("--why", required=True, help=kept)
    renamed = action("rename", "give a player another name", True)
    renamed.add_argument("name", help="the new name (1 to 20 characters)")
    renamed.add_argument("--why", required=True, help=kept)
    handled = action("handled", "mark a report handled")
    handled.add_argument("report", type=int, help="the report's number")
    handled.add_argument("--why", required=True, help="what was done, kept in the audit")


ADMIN_VALUED = ("--db", "--why")
ADMIN_FLAGS = ("--all", "-h", "--help")


def _admin_words(argv: list[str]) -> list[str]:
    """`okgin admin ban -vLPB… --why …`: a player id is base64url, so one in 64 begins with "-",
    which argparse would read as an unknown option. An admin action's words are sorted here
    instead: its options (``--why`` given as ``--why=…``, so that a reason may begin with "-" too)
    first, then ``--`` and every other word in its order, read as the action's arguments."""
    if argv[:1] != ["admin"] or len(argv) < 3 or "--" in argv:
        return argv
    options: list[str] = []
    loose: list[str] = []
    words = iter(argv[2:])
    for word in words:
        if word in ADMIN_VALUED:
            value = next(words, None)
            options.append(word if value is None else f"{word}={value}")
        elif word in ADMIN_FLAGS or word.split("=", 1)[0] in ADMIN_VALUED:
            options.append(word)
        else:
            loose.append(word)
    return [*argv[:2], *options, *(["--", *loose] if loose else [])]


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: a whole number from 0 to 65535")
    return int(text)


def _not_negative(text: str) -> float:
    """A duration; a negative one would, for --idle-hours, remove every unfinished game at once."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration: a number, 0 or more")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(_admin_words(sys.argv[1:] if argv is None else list(argv)))
    try:
        status: int = args.run(args)
    except OkginError as error:
        print(f"okgin {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    return status


PIPE_CLOSED = 128 + 13
"""The status of a tool ended by SIGPIPE: what `okgin ... | head -1` ends with, like `yes | head -1`."""


def _reader_gone() -> int:
    """Standard output's reader has gone (``| head``): end quietly, as Unix tools do. Standard
    output is pointed at /dev/null, so that flushing it at exit raises nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return PIPE_CLOSED


if __name__ == "__main__":
    sys.exit(main())
