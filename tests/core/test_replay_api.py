"""The replay API (contract C): feed / feed_rows / feed_columns agree; snapshots resume."""

from __future__ import annotations

import json

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import GroupReplay, ReplaySettings
from tests.core.replay_helpers import G, broker, client, number


def _events():
    return number(
        [
            broker("member_added", 10, member_id="m1", client_id="c1"),
            broker(
                "rebalance_prepared",
                10,
                generation=0,
                reason="Adding new member m1 with group instance id None",
            ),
            broker("join_completed", 20, generation=1, member_count=1),
            client("leader_assigned", 21, member_id="m1", generation=1, assignment=(("m1", ("t-0", "t-1")),)),
            broker("assignment_received", 30, member_id="m1", generation=1, member_count=1),
            broker("member_left", 90, member_id="m1", reason="the consumer is being closed"),
            broker(
                "rebalance_prepared",
                90,
                generation=1,
                reason="Removing member m1 on LeaveGroup; client reason: x",
            ),
            broker("group_empty", 90, generation=2),
        ]
    )


def _out(r):
    o = r.flush(final=True)
    return o.transitions, o.rebalances, o.sessions, o.assignments, o.anomalies, o.skew


def test_feed_feed_rows_and_feed_columns_agree():
    a = GroupReplay(G)
    for e in _events():
        a.feed(e)
    rows = [e.to_row() for e in _events()]
    b = GroupReplay(G)
    b.feed_rows(rows)  # dicts
    c = GroupReplay(G)
    c.feed_rows([tuple(r[f] for f in EVENT_FIELDS) for r in rows])  # tuples
    d = GroupReplay(G)
    cols = {f: [r[f] for r in rows] for f in EVENT_FIELDS}
    cols["assignment"] = [dict(v) if v else None for v in cols["assignment"]]  # an Arrow map as dict
    d.feed_columns(cols)
    ref = _out(a)
    assert len(ref[1]) == 2 and ref[5]  # two rebalances and skew rows for generation 1
    assert _out(b) == ref and _out(c) == ref and _out(d) == ref


def test_rows_with_ts_ms_and_pandas_nan():
    row = _events()[1].to_row()
    row["ts_ms"] = row.pop("ts")
    row["member_count"] = float("nan")
    r = GroupReplay(G)
    r.feed_rows([row])
    assert r.state == "PreparingRebalance" and r.flush().anomalies == []


def test_snapshot_is_compact_json_and_resumes():
    r = GroupReplay(G, ReplaySettings(version_hint="3.9"))
    for e in _events()[:3]:
        r.feed(e)
    r.flush()
    snap = r.snapshot()
    d = json.loads(snap)
    assert (
        d["v"] == 2 and d["state"] == "CompletingRebalance" and d["generation"] == 1 and " " not in snap[:50]
    )
    r2 = GroupReplay.resume(G, snap, ReplaySettings(version_hint="3.9"))
    for e in _events()[3:]:
        r2.feed(e)
    out = r2.flush(final=True)
    assert [(x.rebalance_id, x.outcome) for x in out.rebalances] == [
        ("g:10:0", "completed"),
        ("g:90:1", "ended_empty"),
    ]
    assert r2.events == 8  # counted over the whole life of the group, across resumes


def test_resume_fresh_and_unreadable_state():
    assert GroupReplay.resume(G, None).state is None
    bad = GroupReplay.resume(G, "{not json")
    assert bad.state is None
    assert [a.kind for a in bad.flush().anomalies] == ["replay_error"]
