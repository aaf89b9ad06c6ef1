"""Snapshots: format 2 (typed fields by name) and the reader of format 1.

``tests/fixtures/replay_v1/*.json`` are format 1 snapshots written by the single-module replay
(``make_snapshots.py`` there) at a cut of a corpus group; resuming one and feeding the rest of the
rows gives what one uninterrupted replay gives (the sink's view: append-only tables concatenated,
rebalances and sessions merged on their keys).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coordinator_core.replay import SNAPSHOT_VERSION, GroupReplay
from coordinator_core.replay.model import DepartedMember, Member, OpenRebalance
from tests.core.test_properties import merged

V1 = Path(__file__).resolve().parents[1] / "fixtures" / "replay_v1"
CASES = sorted(p for p in V1.glob("*.json") if not p.name.endswith(".snapshot.json"))


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def _load(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rows"] = [_tuples(r) for r in doc["rows"]]
    return doc


def _whole(gid: str, rows: list[tuple]) -> dict:
    r = GroupReplay(gid)
    r.feed_rows(rows)
    return merged([r.flush(final=True)])


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_v1_snapshot_resumes_like_one_replay(path: Path):
    doc = _load(path)
    gid, rows, cut = doc["group_id"], doc["rows"], doc["cut"]
    assert json.loads(doc["snapshot"])["v"] == 1
    first = []
    if doc["flushed"]:  # the records up to the cut were flushed before the snapshot was taken
        r = GroupReplay(gid)
        r.feed_rows(rows[:cut])
        first.append(r.flush())
    r2 = GroupReplay.resume(gid, doc["snapshot"])
    r2.feed_rows(rows[cut:])
    out = r2.flush(final=True)
    assert "replay_error" not in [a.kind for a in out.anomalies]
    assert merged([*first, out]) == _whole(gid, rows)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_v1_and_v2_snapshots_hold_the_same_model(path: Path):
    doc = _load(path)
    gid, rows, cut = doc["group_id"], doc["rows"], doc["cut"]
    r = GroupReplay(gid)
    r.feed_rows(rows[:cut])
    if doc["flushed"]:
        r.flush()
    from_v1 = GroupReplay.resume(gid, doc["snapshot"])
    assert json.loads(from_v1.snapshot()) == json.loads(r.snapshot())


def test_v2_snapshot_is_typed_by_name():
    doc = _load(V1 / "sample__orders.json")
    r = GroupReplay(doc["group_id"])
    r.feed_rows(doc["rows"][:20])
    d = json.loads(r.snapshot())
    assert d["v"] == SNAPSHOT_VERSION == 2
    assert d["members"] and all(set(m) <= set(Member.__dataclass_fields__) for m in d["members"].values())
    assert all(set(m) <= set(DepartedMember.__dataclass_fields__) for m in d["departed"].values())
    for name in ("rebalance", "last_rebalance"):
        assert d[name] is None or set(d[name]) <= set(OpenRebalance.__dataclass_fields__)
    r2 = GroupReplay.resume(doc["group_id"], r.snapshot())
    assert r2.members == r.members and r2.rebalance == r.rebalance and r2.departed == r.departed


def test_unknown_snapshot_version_starts_fresh():
    r = GroupReplay.resume("g", '{"v": 3, "g": "g"}')
    assert r.state is None
    assert [a.kind for a in r.flush().anomalies] == ["replay_error"]
