"""The `okgin` command: replay and analyze, their outputs, errors and exit statuses."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from deals import DEFENDER_14, GIN_10, KNOCKER_6, record, win_hand

from okgin import cli
from okgin.record import dumps

OKGIN = [sys.executable, "-m", "okgin.cli"]


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def knock_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(dumps(record([win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6S", "KD")])), encoding="utf-8")
    return path


def test_replay_prints_every_hand_and_the_totals(knock_file, capsys):
    status, out, err = run(["replay", str(knock_file)], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("hand 1 (knock at 6, spades double): knock by Ann")
    assert "(14 − 6) × 2 = 16" in lines[0]
    assert lines[1] == "totals: Ann 16, Bob 0"


def test_replay_json(knock_file, capsys):
    status, out, _ = run(["replay", str(knock_file), "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["hands"][0]["points"] == [16, 0]
    assert data["totals"] == [16, 0] and data["final"] is None


def test_replay_of_a_bad_record_exits_2_with_one_line(tmp_path, capsys):
    rec = record([win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6S", "KD")])
    rec["hands"][0]["actions"][3] = "0 knock 6C"
    path = tmp_path / "bad.json"
    path.write_text(dumps(rec), encoding="utf-8")
    status, out, err = run(["replay", str(path)], capsys)
    assert status == 2 and out == ""
    assert err == (
        "okgin replay: hand 1, action 4 '0 knock 6C': cannot knock: 10 deadwood, the limit is 6\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "okgin replay: not JSON: "),
        ("[1]", "okgin replay: a record is a JSON object"),
        (
            '{"format": "okgin/1", "rules": "oklahoma", "players": ["a", "b"], "hands": [{"dealer": 0}]}',
            "okgin replay: hand 1: deal",
        ),
    ],
)
def test_replay_errors_are_one_line_without_a_traceback(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(["replay", str(path)], capsys)
    assert status == 2
    assert err.startswith(message)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_replay_of_a_missing_file(tmp_path, capsys):
    status, _, err = run(["replay", str(tmp_path / "nothing.json")], capsys)
    assert status == 2
    assert err.startswith("okgin replay: cannot read ") and err.count("\n") == 1


def test_replay_subprocess_exit_status_and_stderr(tmp_path, knock_file):
    good = subprocess.run(
        [*OKGIN, "replay", str(knock_file), "--json"], capture_output=True, text=True, check=False
    )
    assert good.returncode == 0 and json.loads(good.stdout)["totals"] == [16, 0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "okgin/0"}', encoding="utf-8")
    done = subprocess.run([*OKGIN, "replay", str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "okgin replay: format must be 'okgin/1', not 'okgin/0'\n"


def test_analyze_ten_cards(capsys):
    status, out, _ = run(["analyze", *KNOCKER_6.split(), "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["deadwood"] == 6
    assert data["unmatched"] == ["6C"]
    assert sorted(map(tuple, data["melds"])) == [("2C", "3C", "4C"), ("7D", "7H", "7S"), ("TH", "JH", "QH")]
    assert "discard" not in data


def test_analyze_eleven_cards_names_the_best_discard(capsys):
    status, out, _ = run(["analyze", *KNOCKER_6.split(), "KD", "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["discard"] == "KD"
    assert data["deadwood"] == 6
    assert "KD" not in data["unmatched"]


def test_analyze_big_gin_has_a_null_discard(capsys):
    status, out, _ = run(["analyze", *GIN_10.split(), "5C", "--json"], capsys)
    data = json.loads(out)
    assert status == 0
    assert data["discard"] is None
    assert data["deadwood"] == 0 and data["unmatched"] == []
    assert sum(len(m) for m in data["melds"]) == 11


def test_analyze_text_output(capsys):
    status, out, _ = run(["analyze", *GIN_10.split(), "5C"], capsys)
    assert status == 0
    assert out.splitlines()[0] == "discard: none: all eleven cards meld (Big Gin)"
    assert out.splitlines()[-1] == "deadwood: 0"


def test_analyze_accepts_other_spellings(capsys):
    status, out, _ = run(["analyze", "10♠", "js", "Q♠", "--json"], capsys)
    assert status == 0
    assert json.loads(out) == {"deadwood": 0, "melds": [["TS", "JS", "QS"]], "unmatched": []}


def test_analyze_bad_card_exits_2(capsys):
    status, out, err = run(["analyze", "7S", "1S"], capsys)
    assert status == 2 and out == ""
    assert "'1S' is not a card" in err and err.count("\n") == 1


def test_analyze_stdin_one_json_line_per_hand_and_status_2_after_a_bad_line(capsys, monkeypatch):
    lines = f"{KNOCKER_6}\n\nXX 7S\n{GIN_10} 5C\n"
    status, out, _ = run(["analyze"], capsys, stdin=lines, monkeypatch=monkeypatch)
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 3
    assert results[0]["deadwood"] == 6
    assert "'XX' is not a card" in results[1]["error"]
    assert results[2]["discard"] is None
    assert status == 2


def test_analyze_stdin_all_good_exits_0(capsys, monkeypatch):
    status, out, _ = run(["analyze"], capsys, stdin="AS 2S 3S\n", monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["deadwood"] == 0


def test_analyze_stdin_subprocess():
    done = subprocess.run(
        [*OKGIN, "analyze"], input="AS 2S 3S KD\n1S\n", capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["deadwood"] == 10
    assert "error" in second


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (bytes(range(128, 256)) * 4, "is not UTF-8 text (byte 0): a record is JSON"),
        (b"[" * 100_000, "not a record: arrays or objects nested too deeply"),
        (b'{"format": "okgin/1", "rules": ' + b"9" * 5000 + b"}",
         "not a record: a number has more than 4,300 digits"),
    ],
    ids=["binary", "nested-100k", "digits-5000"],
)
def test_replay_of_hostile_content_is_one_line_exit_2(tmp_path, content, message):
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    done = subprocess.run([*OKGIN, "replay", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("okgin replay: ") and done.stderr.endswith(message + "\n")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize(("argv", "message"), [
    (["serve", "--port", "70000"], "argument --port: '70000' is not a port"),
    (["serve", "--port", "eighty"], "argument --port: 'eighty' is not a port"),
    # a negative idle time would remove every unfinished game, the ones in play too
    (["serve", "--idle-hours", "-1"], "argument --idle-hours: '-1' is not a duration"),
    (["serve", "--away-seconds", "nan"], "argument --away-seconds: 'nan' is not a duration"),
])
def test_serve_refuses_bad_options_before_serving(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and message in err.splitlines()[-1]


def test_sim_with_a_records_folder_it_cannot_make_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    status, out, err = run(["sim", "easy", "simple", "--matches", "1", "--quiet",
                            "--records", str(blocker / "records")], capsys)
    assert status == 2 and out == ""
    assert err == f"okgin sim: cannot keep records in {blocker / 'records'}: Not a directory\n"


@pytest.mark.parametrize("argv", [
    ["analyze", "7S", "8S", "9S", "KD", "KH", "KC", "2C", "3D", "4H", "5H"],
    ["replay", "tests/records/example.json", "--json"],
])
def test_output_into_a_closed_pipe_ends_quietly(argv):
    """`okgin ... | head -1`: the reader has gone before the output is written. Like any Unix
    tool, okgin ends at once with the status of a write to a closed pipe (141), no traceback."""
    done = subprocess.Popen([*OKGIN, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[2])
    assert done.stdout is not None and done.stderr is not None
    done.stdout.close()  # the reader is gone before a byte is written
    err = done.stderr.read().decode()
    assert (done.wait(), err) == (141, "")
