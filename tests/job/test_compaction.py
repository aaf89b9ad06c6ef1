"""Heartbeat compaction (jobs.replay_udf.compact_heartbeats) is exact: replaying a group's events
with and without it gives the same tables, the same state snapshot and the same envelope - on
simulated DEBUG-heartbeat logs of every scenario, split over two runs, and on crafted sequences of
heartbeats the model does not expect (unknown members, other generations, null timestamps)."""

from __future__ import annotations

import glob
import os

import pyarrow as pa
import pytest

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import ReplaySettings
from jobs import replay_udf
from jobs.bucket_replay import bucket_input, group_bounds
from jobs.ingest.parse import parse_bytes
from jobs.replay_udf import compact_heartbeats, replay_parts, union_table
from jobs.simulate import SimConfig, simulate

SETTINGS = ReplaySettings()


def _replay(table, env, compact: bool, monkeypatch):
    with monkeypatch.context() as m:
        if not compact:
            m.setattr(replay_udf, "compact_heartbeats", lambda b: b)
        parts, new_env = replay_parts(
            "c", table["group_id"][0].as_py(), table, env, SETTINGS, "r", presorted=True
        )
    return union_table(parts).to_pylist(), new_env


def _groups(events: pa.Table):
    table = bucket_input(events)
    return [table.slice(o, n) for o, n in group_bounds(table)]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> pa.Table:
    out = str(tmp_path_factory.mktemp("sim"))
    simulate(SimConfig(out=out, groups=3, members=4, hours=1.0, seed=21, dialect="scala3", layout="log4j",
                       debug_heartbeats=True, incident_gap_ms=4 * 60_000, noise_ratio=0.05))  # fmt: skip
    tables = []
    for path in sorted(glob.glob(os.path.join(out, "**", "*.log*"), recursive=True)):
        if "/truth/" in path:
            continue
        with open(path, "rb") as fh:
            ev, _, _ = parse_bytes(fh.read(), path, "c")
        tables.append(ev)
    return pa.concat_tables(tables, promote_options="permissive")


def test_compaction_is_exact_on_simulated_groups(simulated, monkeypatch) -> None:
    groups = _groups(simulated)
    assert len(groups) == 3
    total = kept = 0
    for g in groups:
        full = _replay(g, None, False, monkeypatch)
        fast = _replay(g, None, True, monkeypatch)
        assert fast == full
        total, kept = total + g.num_rows, kept + compact_heartbeats(g).num_rows
    assert kept < total / 5  # DEBUG heartbeats are most of the events and most of them go


def test_compaction_is_exact_across_two_runs(simulated, monkeypatch) -> None:
    for g in _groups(simulated):
        cut = g.num_rows // 2
        results = []
        for compact in (False, True):
            _, env = _replay(g.slice(0, cut), None, compact, monkeypatch)
            # the second run gets the whole group: the first half is skipped (out_of_order anomaly)
            results.append(_replay(g, env, compact, monkeypatch))
        assert results[0] == results[1]
        assert any(r["_table"] == "anomalies" and r["kind"] == "out_of_order" for r in results[1][0])


def _row(ts, kind, line, **kw):
    row = dict.fromkeys(EVENT_FIELDS)
    row.update(
        ts=ts, group_id="g", kind=kind, side=kw.pop("side", "client"), source_file="a.log", line_no=line, **kw
    )
    return row


def _table(rows):
    cols = {name: [r.get(name) for r in rows] for name in EVENT_FIELDS}
    cols["ts_ms"] = cols.pop("ts")
    cols["cluster"] = ["c"] * len(rows)
    t = pa.table(cols)
    return bucket_input(t)


def test_compaction_is_exact_on_unexpected_heartbeats(monkeypatch) -> None:
    hb = "heartbeat_sent"
    rows = [
        _row(1000, "rebalance_prepared", 1, side="broker", generation=0, reason="Adding new member m1"),
        _row(2000, "join_completed", 2, side="broker", generation=1, member_count=1),
        _row(2010, "assignment_received", 3, side="broker", generation=1, member_id="m1"),
    ]
    line = 10
    for i in range(30):  # known member, right generation; a stranger; an old generation; responses
        for mid, gen in (("m1", 1), ("stranger", 1), ("m1", 0), (None, None), ("late", 7)):
            line += 1
            rows.append(
                _row(3000 + 100 * i + line % 7, hb, line, member_id=mid, generation=gen, client_id="c-1")
            )
        if i == 15:
            line += 1
            rows.append(_row(3000 + 100 * i + 50, "member_left", line, side="broker", member_id="stranger",
                             generation=1, reason="removing member stranger on LeaveGroup"))  # fmt: skip
    rows += [_row(None, hb, 900 + k, member_id="m1", generation=1) for k in range(4)]  # no timestamp
    table = _table(rows)
    assert compact_heartbeats(table).num_rows < table.num_rows / 3
    assert _replay(table, None, True, monkeypatch) == _replay(table, None, False, monkeypatch)


def test_route_rows_equal_the_histories_own_lookup(simulated) -> None:
    """jobs.replay_udf.route_rows (one Arrow call) finds the rows GroupHistory.feed_rows would look
    up one by one, on classic and consumer-protocol events."""
    import pathlib

    from coordinator_core.history import ROUTE_KINDS
    from jobs.replay_udf import route_rows

    kip848 = [parse_bytes(p.read_bytes(), str(p), "c")[0]
              for p in sorted(pathlib.Path("tests/fixtures/kip848").glob("*.log"))]  # fmt: skip
    for table in [simulated, *kip848]:
        kinds = table.column("kind").to_pylist()
        want = [i for i, k in enumerate(kinds) if k in ROUTE_KINDS]
        assert route_rows(table) == want and want
