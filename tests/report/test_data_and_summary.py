"""The table loader (delta-rs round trip, group filter, missing tables) and the roll-ups."""

from __future__ import annotations

import pandas as pd

from jobs.report import summary
from jobs.report.data import columns, load_tables, read_table


def test_round_trip_through_delta(hand_lakehouse, tables):
    rb = read_table(hand_lakehouse, "rebalances")
    assert list(rb.columns) == columns("rebalances")
    assert len(rb) == 8
    assert str(rb["start_ts"].dt.tz) == "UTC"
    orders = rb[rb["group_id"] == "orders"].sort_values("start_ts")
    assert orders["duration_ms"].tolist()[:4] == [3000, 12000, 15000, 9000]
    assert pd.isna(orders["new_generation"].iloc[-1]) and orders["old_generation"].iloc[-1] == 5
    storms = read_table(hand_lakehouse, "storms")
    assert sorted(list(storms.loc[storms["group_id"] == "orders", "concurrent_groups"].iloc[0])) == [
        "payments"
    ]


def test_group_filter_and_missing_tables(hand_lakehouse):
    t = load_tables(hand_lakehouse, group="payments")
    assert set(t["rebalances"]["group_id"]) == {"payments"}
    assert len(t["rebalances"]) == 2
    # storms keep the group's own storms and those it was concurrent with
    assert sorted(t["storms"]["group_id"]) == ["orders", "payments"]
    missing = read_table(hand_lakehouse, "quarantine")
    assert len(missing) == 0 and list(missing.columns) == columns("quarantine")


def test_totals_and_rankings(tables):
    tot = summary.totals(tables)
    assert (tot.groups, tot.rebalances, tot.completed, tot.open, tot.storms, tot.anomalies) == (
        3,
        8,
        7,
        1,
        3,
        2,
    )
    assert tot.paused_ms == 116000
    rank = summary.group_ranking(tables["rebalances"], tables["storms"])
    assert rank[["group_id", "rebalances", "paused_ms", "storms", "top_cause"]].values.tolist() == [
        ["orders", 5, 39000, 1, "session_timeout"],
        ["payments", 2, 75000, 1, "poll_timeout_leave"],
        ["audit", 1, 2000, 1, "coordinator_move"],
    ]
    cul = summary.top_culprits(tables["rebalances"])
    assert cul[["culprit", "group_id", "rebalances", "causes"]].values.tolist()[0] == [
        "m3", "orders", 4, "session_timeout, new_member",
    ]  # fmt: skip
    assert summary.worst_storms(tables["storms"])["group_id"].tolist() == ["payments", "orders", "audit"]


def test_co_storms_groups_overlapping_storms_per_coordinator(tables):
    co = summary.co_storms(tables["storms"])
    assert len(co) == 1
    row = co.iloc[0]
    assert (row["coordinator_broker"], row["groups"], row["rebalances"], row["paused_ms"]) == (
        1, ["orders", "payments"], 5, 111000,
    )  # fmt: skip


def test_human_ms():
    assert [summary.human_ms(v) for v in (850, 12400, 200000, 7_500_000, None, -4200, -850)] == [
        "850 ms", "12.4 s", "3 min 20 s", "2 h 05 min", "–", "\u22124.2 s", "\u2212850 ms",
    ]  # fmt: skip


def test_member_events_carry_the_cause_they_started(tables):
    ev = summary.member_events(tables["member_sessions"], tables["rebalances"], "orders")
    got = [(e.member_id, e.event, e.reason, e.cause) for e in ev.itertuples()]
    assert got[:3] == [
        ("m1", "join", None, None),
        ("m3", "join", None, "new_member"),
        ("m2", "join", None, None),
    ]
    assert (
        "m3",
        "leave",
        "session_timeout",
        "session_timeout",
    ) in got  # expired at 10:09:50, rebalance 10:10
    assert got[-1] == ("m2", "leave", "leave", "member_leave")
    assert len(got) == 8


def test_assignor_summary(tables):
    got = summary.assignor_summary(tables["partition_skew"])
    assert got.values.tolist() == [["range", 3, 1.0, 1.0, 0, 2.67], ["roundrobin", 1, 1.667, 1.667, 1, 6.0]]


def test_events_are_read_by_kind_for_the_reconciling_spans(tmp_path, spark):
    """Notebook 03 reads only a group's member-state lines (never its heartbeats), with delta-rs
    and with Spark; the spans come out of them."""
    import pandas as pd

    from jobs.report.data import read_table, write_tables
    from jobs.report.summary import MEMBER_STATE_COLUMNS, MEMBER_STATE_KINDS, reconciling_spans

    t0 = pd.Timestamp("2025-03-01 10:00:00", tz="UTC")
    rows = [("g", "m1", 0, "heartbeat_sent", None), ("g", "m1", 1, "member_state_changed", "RECONCILING"),
            ("g", "m1", 2, "heartbeat_sent", None), ("g", "m1", 4, "member_state_changed", "STABLE"),
            ("h", "m9", 1, "member_assignment_state", "UNREVOKED_PARTITIONS")]  # fmt: skip
    ev = pd.DataFrame([{"cluster": "c", "group_id": g, "member_id": m, "ts": t0 + pd.Timedelta(seconds=s),
                        "kind": k, "state": st, "side": "client", "run_id": "r1"} for g, m, s, k, st in rows])  # fmt: skip
    lake = str(tmp_path / "lake")
    write_tables(lake, {"events": ev})
    for session in (None, spark):
        got = read_table(
            lake, "events", spark=session, group="g", kinds=MEMBER_STATE_KINDS, cols=MEMBER_STATE_COLUMNS
        )
        assert list(got["kind"]) == ["member_state_changed", "member_state_changed"]
        assert list(got.columns) == list(MEMBER_STATE_COLUMNS)
        spans = reconciling_spans(got, "g")
        assert [(r.member_id, (r.end - r.start).total_seconds()) for r in spans.itertuples()] == [("m1", 3.0)]
