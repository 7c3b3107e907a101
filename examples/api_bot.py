"""A computer player that plays on an okgin server through its API alone (docs/api.md).

    python examples/api_bot.py --server http://127.0.0.1:8000 --token okgin_... [--games 1]

HTTP only, the standard library only (urllib): no okgin import. It reads the bot's event
stream, accepts every challenge, plays each game it is seated in on a thread of its own (that
game's stream of states, a move for each of its turns), and stops after ``--games`` games
(never, by default). Cards are in okgin's record notation ("7S", "TD", "AH": rank then suit),
documented in docs/records.md; the moves it may make are each state's ``legal`` list.

Its strategy is a simple one: knock or go gin as soon as it may (the knock leaving the least
deadwood), take the upcard or the discard only when it makes a meld with two cards in hand,
and throw its highest unmatched card.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

RANKS = "A23456789TJQK"
POINTS = {rank: min(i + 1, 10) for i, rank in enumerate(RANKS)}


class Api:
    """The server's API, as this bot's token opens it."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST ``body`` as JSON; the answer's JSON (an error's too). A 429 waits and tries again."""
        data = json.dumps(body or {}).encode()
        for _ in range(20):
            request = urllib.request.Request(self.server + path, data=data, method="POST",
                                             headers={**self.headers, "Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return dict(json.load(answer))
            except urllib.error.HTTPError as error:
                if error.code == 429:
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                return dict(json.load(error))
        return {"error": {"code": "rate_limited", "message": "still limited after 20 tries"}}

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """Each JSON object of a newline-delimited stream (the empty keep-alive lines skipped)."""
        request = urllib.request.Request(self.server + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=120) as answer:
            for raw in answer:
                text = raw.strip()
                if text:
                    yield dict(json.loads(text))


def melds_with(card: str, hand: list[str]) -> bool:
    """Would ``card`` make a meld (a set, or a run in its suit) with two cards of ``hand``?"""
    rank, suit = card[0], card[1]
    if sum(1 for c in hand if c[0] == rank) >= 2:
        return True
    at = RANKS.index(rank)
    near = {RANKS.index(c[0]) for c in hand if c[1] == suit}
    return any({at + a, at + b} <= near for a, b in ((-2, -1), (-1, 1), (1, 2)))


def choose(view: dict[str, Any]) -> str:
    """This seat's move (one of ``view["legal"]``)."""
    legal: list[str] = view["legal"]
    knocks: dict[str, int] = view["knock_options"]
    if "big-gin" in legal:
        return "big-gin"
    if knocks:
        card = min(knocks, key=lambda c: (knocks[c], c))
        return f"knock {card}"
    top = view["discards"][-1] if view["discards"] else view["upcard"]
    if "take" in legal and melds_with(top, view["hand"]):
        return "take"
    for plain in ("draw", "pass"):
        if plain in legal:
            return plain
    if "take" in legal:
        return "take"
    loose = [c for c in view["arrangement"]["unmatched"] if f"discard {c}" in legal]
    pool = loose or [move.split()[1] for move in legal if move.startswith("discard ")]
    return f"discard {max(pool, key=lambda c: (POINTS[c[0]], c))}"


def play(api: Api, room: str) -> dict[str, Any] | None:
    """Play our seat in ``room`` until its game is over; the final state's tally."""
    for frame in api.stream(f"/api/bot/game/stream/{room}"):
        if frame.get("type") != "state":
            continue
        if frame["final"] is not None:
            return dict(frame["final"])
        view = frame["view"]
        if view["result"] is not None:
            api.post(f"/api/bot/game/{room}/next", {"hand": frame["hand_number"]})
        elif view["seat"] is not None and view["to_act"] == view["seat"] and view["legal"]:
            answer = api.post(f"/api/bot/game/{room}/act", {"action": choose(view)})
            if "error" in answer and answer["error"]["code"] not in ("stale", "illegal"):
                print(f"room {room}: {answer['error']['message']}", file=sys.stderr)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the okgin server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token (okgin_...)")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    args = parser.parse_args(argv)
    api = Api(args.server, args.token)
    account = json.loads(urllib.request.urlopen(urllib.request.Request(
        api.server + "/api/account", headers=api.headers), timeout=30).read())
    if not account["bot"]:
        print(f"{account['username']} is not a bot account: make it one on its profile page", file=sys.stderr)
        return 2
    finished: list[str] = []
    playing: dict[str, threading.Thread] = {}
    for event in api.stream("/api/stream/event"):
        if event["type"] == "challenge":
            api.post(f"/api/challenge/{event['challenge']['id']}/accept")
        elif event["type"] == "gameStart":
            room = event["game"]["room"]
            if room not in playing:
                playing[room] = threading.Thread(target=play, args=(api, room), daemon=True)
                playing[room].start()
        elif event["type"] == "gameFinish":
            room = event["game"]["room"]
            if room in playing:
                playing.pop(room).join(timeout=30)
            finished.append(room)
            print(f"game over in room {room}", flush=True)
            if args.games and len(finished) >= args.games:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
