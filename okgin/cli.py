"""The `okgin` command: thin, it calls the modules that do the work."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def _cmd_play(args: argparse.Namespace) -> int:
    from okgin.terminal import play_in_terminal

    return play_in_terminal(args.rules, args.opponent, args.seed)


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from okgin.server import create_app

    print(f"okgin: playing at http://{args.host}:{args.port}  (games stored in {args.db})", flush=True)
    uvicorn.run(
        create_app(args.db, allow_seeds=args.allow_seeds), host=args.host, port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,  # small frames on loopback: compression costs more than it saves
    )
    return 0


def _cmd_sim(args: argparse.Namespace) -> int:
    from okgin.sim import sim_command

    return sim_command(
        args.players, matches=args.matches, rules=args.rules, seed=args.seed, jobs=args.jobs,
        budget=args.budget, records=args.records, as_json=args.json, progress=not args.quiet,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="okgin", description="Oklahoma Gin, done properly.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("analyze", help="least deadwood, melds and best discard of a hand")
    p.add_argument("cards", nargs="*", help="cards such as 7S TD AH (none: read stdin)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_analyze)

    p = commands.add_parser("replay", help="replay a game record and report every hand")
    p.add_argument("file", help="a game record (docs/records.md)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_replay)

    p = commands.add_parser("play", help="play a game in the terminal against the computer")
    p.add_argument("--rules", default="oklahoma", help="a preset (default: oklahoma)")
    p.add_argument("--opponent", default="normal", help="the computer player's level (default normal)")
    p.add_argument("--seed", type=int, default=None, help="seed the shuffles")
    p.set_defaults(run=_cmd_play)

    p = commands.add_parser("sim", help="play matches between computer players and report")
    p.add_argument("players", nargs="+", help="two to four levels, e.g. hard simple")
    p.add_argument("--matches", type=int, default=200, help="matches to play (default 200)")
    p.add_argument("--rules", default="oklahoma", help="a preset (default: oklahoma)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="processes to run (default 1)")
    p.add_argument("--budget", type=float, default=None, help="seconds per hard decision")
    p.add_argument("--records", default=None, help="keep every match's record in this folder")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_cmd_sim)

    p = commands.add_parser("serve", help="serve the web game (http://127.0.0.1:8000)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--db", default="sqlite:///okgin.db", help="SQLAlchemy URL of the game store")
    p.add_argument("--allow-seeds", action="store_true",
                   help="honour a client's seed (for tests: lets a page choose its deals)")
    p.set_defaults(run=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except OkginError as error:
        print(f"okgin {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
