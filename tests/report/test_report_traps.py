"""``report`` never writes an all-zero page for a wrong argument: a folder that is not a lakehouse (an
empty one, source code), an unknown group or cluster exit 1 with one line that says what to give."""

from __future__ import annotations

import pathlib

from jobs import cli

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _report(tmp_path, *args):
    out = tmp_path / "r.html"
    return cli.main(["report", "--output", str(out), *args]), out


def test_report_refuses_what_is_not_a_lakehouse(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", ROOT / "jobs"):
        code, out = _report(tmp_path, "--lakehouse", str(folder))
        assert code == 1 and not out.exists()
        err = capsys.readouterr().err
        assert err == (f"report error: {folder} is not a rebalance-lens lakehouse (no rebalances or group_state "
                       "table in it): give the folder the job wrote (its --output)\n")  # fmt: skip


def test_report_refuses_an_unknown_group_or_cluster(hand_lakehouse, tmp_path, capsys):
    code, out = _report(tmp_path, "--lakehouse", hand_lakehouse, "--group", "no-such-group")
    assert code == 1 and not out.exists()
    err = capsys.readouterr().err
    assert err.startswith(f"report error: no group 'no-such-group' in {hand_lakehouse} (groups: ")
    assert "orders" in err
    code, out = _report(tmp_path, "--lakehouse", hand_lakehouse, "--cluster", "nowhere")
    assert code == 1 and "report error: no cluster 'nowhere'" in capsys.readouterr().err
