"""Behaviour read back from a replay's records (coordinator_core.behaviour): one rule per session end."""

from __future__ import annotations

from coordinator_core.behaviour import (
    JOIN_LATENCY_MS,
    WARMUP_MS,
    GroupSettings,
    consumer_slots,
    infer_behaviour,
)  # fmt: skip
from coordinator_core.events import CoordinatorDiscovered
from coordinator_core.records import MemberSession, Rebalance

S = GroupSettings()  # 45 s session, 300 s max.poll, 3 s heartbeat


def sess(m, joined, left, why, client="consumer-g-1", host=None, gii=None):
    return MemberSession("g", m, gii, client, host, joined, left, 1, 1, why, False)


def acts(b, key):
    return [(a.kind, a.ts, a.duration_ms) for a in next(c for c in b.consumers if c.consumer == key).actions]


def test_leave_then_rejoin_is_a_restart_and_the_first_join_opens_the_window():
    b = infer_behaviour("g", [sess("a", 1_000, 50_000, "leave", host="h1"), sess("b", 60_000, None, "open", host="h1")],
                        [], settings=S, start_ts=1_000, end_ts=100_000)  # fmt: skip
    assert acts(b, "h1") == [
        ("start", 1_000 - JOIN_LATENCY_MS, 0), ("close", 50_000, 0), ("start", 60_000 - JOIN_LATENCY_MS, 0),
    ]  # fmt: skip
    assert b.start_ts == 1_000 - JOIN_LATENCY_MS


def test_member_present_before_the_evidence_starts_in_the_warm_up():
    b = infer_behaviour("g", [sess("a", None, None, "open", host="h1")], [], settings=S, start_ts=5_000, end_ts=9_000)
    assert acts(b, "h1") == [("start", 5_000 - WARMUP_MS, 0)]
    assert b.consumers[0].present_at_start


def test_session_timeout_then_rejoin_after_expiry_is_a_pause_from_mid_heartbeat():
    b = infer_behaviour("g", [sess("a", None, 100_000, "session_timeout", host="h1"),
                              sess("b", 110_000, None, "open", host="h1")], [], settings=S,
                        start_ts=0, end_ts=200_000)  # fmt: skip
    stopped = 100_000 - 45_000 + 1_500
    assert acts(b, "h1")[1:] == [("pause", stopped, 110_000 - JOIN_LATENCY_MS - stopped)]


def test_session_timeout_with_a_new_process_is_a_crash_and_a_restart():
    events = [CoordinatorDiscovered(ts=70_000, group_id="g", client_id="consumer-g-1")]
    b = infer_behaviour("g", [sess("a", None, 100_000, "session_timeout", host="h1"),
                              sess("b", 110_000, None, "open", host="h1")], [], events=events, settings=S,
                        start_ts=0, end_ts=200_000)  # fmt: skip
    assert [a[0] for a in acts(b, "h1")] == ["start", "crash", "start"]
    # joined again before the old member expired: a new process, whatever the client logs say
    b = infer_behaviour("g", [sess("a", None, 100_000, "session_timeout", host="h1"),
                              sess("b", 90_000, None, "open", host="h1")], [], settings=S, start_ts=0,
                        end_ts=200_000)  # fmt: skip
    assert [a[0] for a in acts(b, "h1")] == ["start", "crash", "start"]


def test_poll_timeout_leave_is_a_stall_of_max_poll_until_the_rejoin():
    b = infer_behaviour("g", [sess("a", None, 400_000, "poll_timeout_leave", host="h1"),
                              sess("b", 460_000, None, "open", host="h1")], [], settings=S, start_ts=0,
                        end_ts=500_000)  # fmt: skip
    assert acts(b, "h1")[1:] == [("stall", 100_000, 460_000 - 5 - 100_000)]


def test_not_rejoined_is_a_stall_from_the_rebalance_start():
    reb = Rebalance("g", "g:1", 1, 2, 1, 200_000, 500_000, 300_000, "completed", "new_member", None, None, None,
                    None, None, 2, 1, None, "range", 1, False)  # fmt: skip
    b = infer_behaviour("g", [sess("a", None, 500_000, "not_rejoined", host="h1"),
                              sess("b", 520_000, None, "open", host="h1")], [reb], settings=S, start_ts=0,
                        end_ts=600_000)  # fmt: skip
    assert acts(b, "h1")[1] == ("stall", 200_000, 520_000 - 5 - 200_000)


def test_shared_default_client_id_is_split_into_process_slots():
    # Java's default client.id is the same for every process of the group; overlapping sessions are
    # different processes, a session that starts after another ended continues it
    ss = [sess("a", 0, 100_000, "leave"), sess("b", 1_000, None, "open"), sess("c", 120_000, None, "open")]
    slots = consumer_slots(ss, {}, S)
    assert {k: [s.member_id for s in v] for k, v in slots.items()} == {
        "consumer-g-1": ["a", "c"], "consumer-g-1#2": ["b"],
    }  # fmt: skip


def test_client_log_file_names_the_process():
    ss = [sess("a", 0, 100_000, "poll_timeout_leave", host="/10.0.0.1"), sess("b", 150_000, None, "open")]
    slots = consumer_slots(ss, {"a": "clients/h1/app.log", "b": "clients/h1/app.log"}, S)
    assert list(slots) == ["log:clients/h1/app.log"]


def test_replaced_static_member_is_followed_by_its_replacement():
    ss = [sess("a", 0, 30_010, "replaced", gii="i1"), sess("b", 30_000, None, "open", gii="i1")]
    b = infer_behaviour("g", ss, [], settings=S, start_ts=0, end_ts=60_000)
    assert [a[0] for a in acts(b, "i1")] == ["start", "close", "start"]


def test_partitions_added_is_read_from_a_metadata_change_generation():
    from coordinator_core.records import AssignmentRow

    rows = [AssignmentRow("g", 1, "m", "t", tuple(range(12)), "leader_map", 1_000),
            AssignmentRow("g", 2, "m", "t", tuple(range(16)), "leader_map", 90_000)]  # fmt: skip
    reb = Rebalance("g", "g:2", 1, 2, 1, 88_000, 90_000, 2_000, "completed", "metadata_change", None, None, None,
                    None, None, 1, 1, None, "range", 1, False)  # fmt: skip
    b = infer_behaviour("g", [sess("m", None, None, "open", host="h")], [reb], rows, settings=S, start_ts=0,
                        end_ts=100_000)  # fmt: skip
    assert b.topics == {"t": 12}
    assert b.topic_changes == [(88_000, "t", 16)]
