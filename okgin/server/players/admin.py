"""`okgin admin`: the server operator's command (docs/moderation.md). It reads and writes the
game store directly (``--db``, as `okgin serve` was given): the players' reports, a ban and its
lifting, a new name, a report handled, and the audit every one of these writes to.
"""

from __future__ import annotations

import argparse
import datetime

from okgin.server.players.moderation import Moderation
from okgin.server.players.reports import REASONS, Reports
from okgin.server.store.storage import Store


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def admin_command(args: argparse.Namespace) -> int:
    """Run one `okgin admin` action; what it did (or the list asked for) on standard output.
    A refusal (no such player or report, no reason given) raises OkginError: one line, status 2."""
    store = Store(args.db)
    try:
        moderation, action = Moderation(store.engine), args.action
        if action == "reports":
            for report in Reports(store.engine).listed(every=args.all):
                state = f"handled {_when(report.handled)}" if report.handled else "open"
                print(f"#{report.id} {_when(report.created)} [{state}] player {report.reported} "
                      f"({report.name or 'no name'}) for {REASONS[report.reason]}"
                      f"{': ' + report.text if report.text else ''}"
                      f" (game {report.game}, by {report.reporter})")
        elif action == "audit":
            for row in moderation.audit():
                print(f"{_when(row.created)} {row.action} {row.player}"
                      f"{' ' + row.detail if row.detail else ''}: {row.why}")
        elif action == "ban":
            moderation.ban(args.player, args.why)
            print(f"okgin admin: player {args.player} is banned from Play online, tournaments "
                  "and the leaderboard")
        elif action == "unban":
            moderation.unban(args.player, args.why)
            print(f"okgin admin: player {args.player} is no longer banned")
        elif action == "rename":
            moderation.rename(args.player, args.name, args.why)
            print(f"okgin admin: player {args.player} is now called {' '.join(args.name.split())}")
        elif action == "handled":
            moderation.handled(args.report, args.why)
            print(f"okgin admin: report {args.report} is handled")
    finally:
        store.close()
    return 0
