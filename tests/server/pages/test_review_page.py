"""The replay viewer's upload (pages/review.py) within the coach's budget for pages: a record's
replay is worked out move by move, seconds for the largest upload."""

from __future__ import annotations

from pathlib import Path

from test_accounts import Browser

from okgin.server import create_app
from okgin.server.coach.line import CoachLine
from okgin.server.wire.limits import Limits

RECORDS = Path(__file__).resolve().parents[2] / "records"


def test_uploaded_records_past_the_coachs_budget_are_refused_unreplayed(tmp_path: Path) -> None:
    """Past the budget (here 3 at once, and hardly refilled) an upload is 429 and replays nothing;
    another player is answered."""
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(analyses=0.001, analysis_burst=3))
    someone, another = Browser(app, address="10.0.0.1"), Browser(app, address="10.0.0.2")
    record = (RECORDS / "coach_feed.json").read_bytes()
    statuses = [someone.go("POST", "/api/replay", content=record).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = someone.go("POST", "/api/replay", content=record)
    assert refused.json() == {"error": "too many records replayed: wait a few seconds"}
    assert another.go("POST", "/api/replay", content=record).json()["names"] == ["You", "Ruby"]


def test_an_upload_while_the_coachs_line_is_full_is_a_503_not_a_bad_record(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    someone = Browser(app)
    app.state.coach_line = CoachLine(waiting=-1)  # as if 12 questions already waited
    busy = someone.go("POST", "/api/replay", content=(RECORDS / "coach_feed.json").read_bytes())
    assert busy.status_code == 503
    assert busy.json() == {"error": "the coach is busy with other players' questions: ask again in a moment"}
