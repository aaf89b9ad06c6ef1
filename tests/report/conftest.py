"""Hand-made tables (columns of jobs.schemas) for the report tests, and a tiny Delta lakehouse of them."""

from __future__ import annotations

import pandas as pd
import pytest

T0 = pd.Timestamp("2026-03-01 10:00:00", tz="UTC")


def t(seconds: float) -> pd.Timestamp:
    return T0 + pd.Timedelta(seconds=seconds)


def _rb(group, n, start_s, dur_ms, cause, culprit=None, outcome="completed", old=None, broker=1):
    old = n if old is None else old
    return {
        "cluster": "prod", "group_id": group, "rebalance_id": f"{group}:{start_s}:{old}",
        "old_generation": old, "new_generation": old + 1 if outcome != "open" else None, "join_rounds": 1,
        "start_ts": t(start_s), "end_ts": t(start_s + dur_ms / 1000) if outcome != "open" else None,
        "duration_ms": dur_ms if outcome != "open" else None, "outcome": outcome, "cause": cause,
        "reason": f"reason of {cause}", "culprit_member_id": culprit, "culprit_client_id": culprit and "client-" + culprit,
        "culprit_host": "/10.0.0.1", "culprit_group_instance_id": None, "members_before": 3, "members_after": 3,
        "leader_id": "m1", "protocol": "range", "coordinator_broker": broker, "inferred": False,
        "start_unknown": False,
    }  # fmt: skip


def hand_tables() -> dict[str, pd.DataFrame]:
    """Three groups on cluster prod: ``orders`` (5 rebalances: 3 session_timeout by m3, 1 new_member,
    1 open member_leave), ``payments`` (2 rebalances), ``audit`` (1 rebalance); two storms on broker 1
    that overlap (orders + payments) and one on broker 2 (audit)."""
    rebalances = pd.DataFrame([
        _rb("orders", 1, 0, 3000, "new_member", "m3"),
        _rb("orders", 2, 600, 12000, "session_timeout", "m3"),
        _rb("orders", 3, 900, 15000, "session_timeout", "m3"),
        _rb("orders", 4, 1500, 9000, "session_timeout", "m3"),
        _rb("orders", 5, 4000, 0, "member_leave", "m2", outcome="open"),
        _rb("payments", 7, 700, 30000, "poll_timeout_leave", "p1"),
        _rb("payments", 8, 1000, 45000, "poll_timeout_leave", "p1"),
        _rb("audit", 1, 7300, 2000, "coordinator_move", None, broker=2),
    ])  # fmt: skip
    transitions = pd.DataFrame([
        {"group_id": "orders", "ts": t(-5), "from_state": None, "to_state": "Empty", "generation": 0},
        {"group_id": "orders", "ts": t(0), "from_state": "Empty", "to_state": "PreparingRebalance", "generation": 1},
        {"group_id": "orders", "ts": t(2), "from_state": "PreparingRebalance", "to_state": "CompletingRebalance", "generation": 2},
        {"group_id": "orders", "ts": t(3), "from_state": "CompletingRebalance", "to_state": "Stable", "generation": 2},
        {"group_id": "orders", "ts": t(600), "from_state": "Stable", "to_state": "PreparingRebalance", "generation": 2},
        {"group_id": "orders", "ts": t(612), "from_state": "PreparingRebalance", "to_state": "Stable", "generation": 3},
        {"group_id": "orders", "ts": t(900), "from_state": "Stable", "to_state": "PreparingRebalance", "generation": 3},
        {"group_id": "orders", "ts": t(915), "from_state": "PreparingRebalance", "to_state": "Stable", "generation": 4},
        {"group_id": "orders", "ts": t(1500), "from_state": "Stable", "to_state": "PreparingRebalance", "generation": 4},
        {"group_id": "orders", "ts": t(1509), "from_state": "PreparingRebalance", "to_state": "Stable", "generation": 5},
        {"group_id": "orders", "ts": t(4000), "from_state": "Stable", "to_state": "PreparingRebalance", "generation": 5},
    ]).assign(cluster="prod", trigger="join", inferred=False)  # fmt: skip
    sessions = pd.DataFrame([
        {"group_id": "orders", "member_id": "m1", "joined_ts": t(0), "left_ts": None, "end_reason": "open"},
        {"group_id": "orders", "member_id": "m2", "joined_ts": t(1), "left_ts": t(4000), "end_reason": "leave"},
        {"group_id": "orders", "member_id": "m3", "joined_ts": t(0), "left_ts": t(590), "end_reason": "session_timeout"},
        {"group_id": "orders", "member_id": "m3b", "joined_ts": t(610), "left_ts": t(890), "end_reason": "session_timeout"},
        {"group_id": "orders", "member_id": "m3c", "joined_ts": t(910), "left_ts": None, "end_reason": "open"},
        {"group_id": "payments", "member_id": "p1", "joined_ts": t(0), "left_ts": None, "end_reason": "open"},
    ]).assign(cluster="prod", client_id="c", host="/10.0.0.1", first_generation=1, last_generation=5, inferred=False)  # fmt: skip
    skew = pd.DataFrame([
        {"group_id": "orders", "generation": g, "topic": "*", "members": m, "partitions": 12, "min_per_member": lo,
         "max_per_member": hi, "mean_per_member": 12 / m, "skew_ratio": hi / (12 / m), "idle_members": idle,
         "moved_partitions": mv, "assignor": a, "ts": t(g * 300)}
        for g, m, lo, hi, idle, mv, a in [
            (2, 3, 4, 4, 0, 0, "range"), (3, 2, 6, 6, 0, 4, "range"), (4, 3, 4, 4, 0, 4, "range"),
            (5, 5, 0, 4, 1, 6, "roundrobin"),
        ]
    ] + [
        {"group_id": "orders", "generation": 2, "topic": "orders-topic", "members": 3, "partitions": 12,
         "min_per_member": 4, "max_per_member": 4, "mean_per_member": 4.0, "skew_ratio": 1.0, "idle_members": 0,
         "moved_partitions": 0, "assignor": "range", "ts": t(600)},
    ]).assign(cluster="prod")  # fmt: skip
    frequency = pd.DataFrame([
        {"group_id": "orders", "window_start": T0, "rebalances": 4, "completed": 4, "open": 0, "join_rounds": 4, "paused_ms": 39000, "storm": True},
        {"group_id": "orders", "window_start": T0 + pd.Timedelta(hours=1), "rebalances": 1, "completed": 0, "open": 1, "join_rounds": 1, "paused_ms": 0, "storm": False},
        {"group_id": "payments", "window_start": T0, "rebalances": 2, "completed": 2, "open": 0, "join_rounds": 2, "paused_ms": 75000, "storm": True},
        {"group_id": "audit", "window_start": T0 + pd.Timedelta(hours=2), "rebalances": 1, "completed": 1, "open": 0, "join_rounds": 1, "paused_ms": 2000, "storm": False},
    ]).assign(cluster="prod", granularity="hour")  # fmt: skip
    storms = pd.DataFrame([
        {"group_id": "orders", "storm_id": "orders:s1", "start_ts": t(600), "end_ts": t(1509), "rebalances": 3,
         "dominant_cause": "session_timeout", "culprit_members": ["m3"], "paused_ms": 36000, "coordinator_broker": 1,
         "concurrent_groups": ["payments"], "coordinator_wide": False},
        {"group_id": "payments", "storm_id": "payments:s1", "start_ts": t(700), "end_ts": t(1045), "rebalances": 2,
         "dominant_cause": "poll_timeout_leave", "culprit_members": ["p1"], "paused_ms": 75000,
         "coordinator_broker": 1, "concurrent_groups": ["orders"], "coordinator_wide": False},
        {"group_id": "audit", "storm_id": "audit:s1", "start_ts": t(7300), "end_ts": t(7302), "rebalances": 1,
         "dominant_cause": "coordinator_move", "culprit_members": [], "paused_ms": 2000, "coordinator_broker": 2,
         "concurrent_groups": [], "coordinator_wide": True},
    ]).assign(cluster="prod")  # fmt: skip
    anomalies = pd.DataFrame([
        {"group_id": "orders", "ts": t(905), "kind": "generation_gap", "detail": "logged 4, model 3"},
        {"group_id": "orders", "ts": t(4100), "kind": "rebalance_without_end", "detail": "logs end"},
    ]).assign(cluster="prod", state="Stable", generation=4, event_kind="join")  # fmt: skip
    from jobs.report.data import normalise

    frames = {
        "rebalances": rebalances, "group_transitions": transitions, "member_sessions": sessions,
        "partition_skew": skew, "rebalance_frequency": frequency, "storms": storms, "anomalies": anomalies,
    }  # fmt: skip
    return {name: normalise(df, name) for name, df in frames.items()}


@pytest.fixture
def tables() -> dict[str, pd.DataFrame]:
    return hand_tables()


@pytest.fixture(scope="session")
def hand_lakehouse(tmp_path_factory) -> str:
    from jobs.report.data import write_tables

    path = str(tmp_path_factory.mktemp("lakehouse"))
    write_tables(path, hand_tables())
    return path
