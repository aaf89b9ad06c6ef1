"""Simulator unit tests: determinism, output layout, truth vocabulary, CLI, gzip, line budget."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re

import pytest
from sim_compare import load_truth

from coordinator_core.records import CAUSES, OUTCOMES
from jobs.simulate import SimConfig, simulate
from jobs.simulate.__main__ import main, parse_args


def read_text(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def digest(root: str) -> dict[str, str]:
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def small(tmp_path, name: str, **kw) -> tuple[str, object]:
    out = str(tmp_path / name)
    base = dict(groups=2, members=3, hours=0.4, seed=5, incident_gap_ms=60_000)
    base.update(kw)
    return out, simulate(SimConfig(out=out, **base))


def test_same_seed_same_bytes(tmp_path):
    a, _ = small(tmp_path, "a", layout="json", debug_heartbeats=True)
    b, _ = small(tmp_path, "b", layout="json", debug_heartbeats=True)
    c, _ = small(tmp_path, "c", layout="json", debug_heartbeats=True, seed=6)
    da, db, dc = digest(a), digest(b), digest(c)
    assert da == db
    assert len(da) > 8
    assert da != dc


def test_output_layout_and_counts(tmp_path):
    out, res = small(tmp_path, "o", brokers=3, noise_ratio=0.2)
    files = set(res.files)
    assert {f for f in files if f.startswith("broker-")} <= {f"broker-{b}/server.log" for b in (1, 2, 3)}
    clients = [f for f in files if f.startswith("clients/")]
    assert len(clients) >= 6  # 2 groups x 3 hosts
    total = 0
    for f in files:
        with open(os.path.join(out, f), encoding="utf-8") as fh:
            total += sum(1 for _ in fh)
    assert total == res.lines
    # every broker line starts with the log4j timestamp or is a stack-trace continuation
    for f in files:
        if f.startswith("broker-"):
            with open(os.path.join(out, f), encoding="utf-8") as fh:
                for line in fh:
                    assert re.match(
                        r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] (INFO|WARN|ERROR) ", line
                    ) or line.startswith(("\tat ", "java.", "Caused by", "\t...")), line


def test_truth_vocabulary_and_consistency(tmp_path):
    out, res = small(
        tmp_path, "t", scenarios=("crash", "graceful_leave", "poll_timeout"), hours=0.6, static_share=0.0
    )
    rebs = load_truth(out)
    assert len(rebs) == res.truth_counts["rebalances"] > 4
    for r in rebs:
        assert r["cause"] in CAUSES and r["outcome"] in OUTCOMES
        if r["outcome"] != "open":
            assert r["new_generation"] > r["old_generation"]
            assert r["end_ms"] >= r["start_ms"]
        assert r["culprit_member_id"]
    causes = {r["cause"] for r in rebs}
    assert {"session_timeout", "member_leave", "new_member"} <= causes
    # generations of one group are contiguous: each rebalance starts where the previous one ended
    by_group: dict[str, list] = {}
    for r in rebs:
        by_group.setdefault(r["group_id"], []).append(r)
    for rs in by_group.values():
        rs.sort(key=lambda r: r["start_ms"])
        for prev, cur in zip(rs, rs[1:]):
            assert cur["old_generation"] == prev["new_generation"]
    assigns = load_truth(out, "assignments")
    assert assigns and all(a["assignment"] for a in assigns)


def test_storm_truth(tmp_path):
    out, res = small(tmp_path, "s", scenarios=("rolling_restart",), static_share=0.0, hours=0.5)
    storms = load_truth(out, "storms")
    assert storms, res.truth_counts
    s = storms[0]
    assert s["kind"] == "rolling_restart" and s["rebalances"] >= 2
    assert s["dominant_cause"] in ("member_leave", "new_member")
    assert s["end_ms"] > s["start_ms"]


def test_static_restart_makes_no_rebalance(tmp_path):
    out, _ = small(tmp_path, "st", scenarios=("static_restart",), static_share=1.0, cooperative_share=0.0)
    rebs = load_truth(out)
    # only the initial joins: restarts within the session timeout are silent
    assert all(r["old_generation"] < 3 for r in rebs)
    text = "".join(
        read_text(os.path.join(out, d, "server.log"))
        for d in sorted(os.listdir(out))
        if d.startswith("broker-") and os.path.exists(os.path.join(out, d, "server.log"))
    )
    assert "will not trigger rebalance" in text
    assert "Replacing previously mapped member" in text


def test_failover_truth(tmp_path):
    out, res = small(tmp_path, "f", scenarios=("failover",), dialect="java4")
    moves = load_truth(out, "coordinator_moves")
    assert moves and moves[0]["from_broker"] != moves[0]["to_broker"]
    assert all(r["cause"] != "coordinator_move" for r in load_truth(out))


def test_target_lines_stops_early(tmp_path):
    _, res = small(tmp_path, "l", hours=10, target_lines=3000, debug_heartbeats=True)
    assert 3000 <= res.lines < 3400


def test_gzip_and_cli(tmp_path, capsys):
    out = str(tmp_path / "cli")
    assert main(["--out", out, "--groups", "1", "--members", "2", "--hours", "0.1", "--seed", "3",
                 "--dialect", "scala2", "--layout", "springboot", "--gzip", "--noise-ratio", "0.3"]) == 0  # fmt: skip
    assert "wrote" in capsys.readouterr().out
    summary = json.loads(read_text(os.path.join(out, "truth", "summary.json")))
    assert summary["config"]["dialect"] == "scala2"
    gz = [f for f in summary["files"] if f.endswith(".gz")]
    assert gz and len(gz) == len(summary["files"])
    with gzip.open(os.path.join(out, gz[0]), "rt", encoding="utf-8") as fh:
        assert fh.readline()


def test_cli_rejects_bad_arguments():
    with pytest.raises(SystemExit):
        parse_args(["--out", "x", "--dialect", "scala9"])
    with pytest.raises(SystemExit):
        parse_args(["--out", "x", "--noise-ratio", "1.5"])
    cfg = parse_args(["--out", "x", "--scenarios", "crash,flapping"])
    assert cfg.scenarios == ("crash", "flapping")
