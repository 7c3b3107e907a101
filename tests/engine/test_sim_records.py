"""A sim's records folder: a stopped run resumed is the same run, and a folder of another run,
or a record that does not replay, is refused with nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okgin.cli import main
from okgin.sim import make_config, report_json, run
from okgin.sim import report as sim_report


def _report(folder: Path, matches: int, resume: bool = False, seed: int = 4) -> str:
    config = make_config(["normal", "simple"], matches, "oklahoma", seed, 1, None, str(folder),
                         timing=False, resume=resume)
    return report_json(sim_report(config, run(config)))


def _contents(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def test_a_stopped_run_resumed_is_the_same_run(tmp_path: Path) -> None:
    whole = _report(tmp_path / "whole", 6)
    part = tmp_path / "part"
    _report(part, 4)  # groups 0 and 1
    (part / "match-00001-1.json").unlink()  # stopped before group 1 was finished
    kept = (part / "match-00000-0.json").stat().st_mtime_ns
    assert _report(part, 6, resume=True) == whole
    assert (part / "match-00000-0.json").stat().st_mtime_ns == kept  # read back, not played
    assert _contents(part) == _contents(tmp_path / "whole")
    assert not list(part.glob("*.part"))


def test_resuming_another_runs_folder_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    _report(tmp_path, 2, seed=4)
    before = _contents(tmp_path)
    with pytest.raises(ValueError, match="holds another run \\(seed 4, not 5\\)"):
        _report(tmp_path, 4, resume=True, seed=5)
    assert _contents(tmp_path) == before


def test_a_record_that_does_not_replay_is_named_and_nothing_changes(tmp_path: Path) -> None:
    _report(tmp_path, 4)
    bad = tmp_path / "match-00001-0.json"
    record = json.loads(bad.read_text())
    record["hands"][0]["actions"][0] = "0 knock 2C"
    bad.write_text(json.dumps(record))
    before = _contents(tmp_path)
    with pytest.raises(ValueError, match=r"cannot resume: .*match-00001-0\.json: hand 1"):
        _report(tmp_path, 6, resume=True)
    assert _contents(tmp_path) == before


def test_okgin_sim_resume_needs_a_folder_of_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "normal", "simple", "--quiet", "--resume"]) == 2
    assert "--resume reads back the matches in --records DIR" in capsys.readouterr().err
    assert main(["sim", "normal", "simple", "--quiet", "--resume", "--records", str(tmp_path)]) == 2
    assert "has no sim.json" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    missing = tmp_path / "not-yet"
    assert main(["sim", "normal", "simple", "--quiet", "--resume", "--records", str(missing)]) == 2
    assert "has no sim.json" in capsys.readouterr().err
    assert not missing.exists()  # refused before the folder was made
