"""Member sessions, causes inferred from evidence, coordinator moves."""

from __future__ import annotations

from coordinator_core.replay import GroupReplay
from tests.core.replay_helpers import G, broker, client, kinds, number, replay


def _stable_group(members=("m1", "m2", "m3"), gen=3, ts=100):
    return [broker("group_loaded", ts, generation=gen, member_count=len(members))] + [
        broker("member_added", ts, member_id=m, client_id=f"c-{m}", host=f"/10.0.0.{i}")
        for i, m in enumerate(members)
    ]


def _ends(out):
    return {s.member_id: (s.end_reason, s.joined_ts, s.left_ts) for s in out.sessions}


def test_session_end_reasons():
    evs = _stable_group(("m1", "m2", "m3", "m4", "m5", "m6")) + [
        broker("member_left", 1000, member_id="m1", reason="the consumer is being closed"),
        broker("member_left", 1001, member_id="m2", reason="consumer poll timeout has expired."),
        broker("member_session_expired", 1002, member_id="m3"),
        broker("sync_expired", 1003, members=("m4",)),
        broker("members_removed_not_joined", 1004, members=("m5",)),
        broker("static_member_replaced", 1005, member_id="m7", old_member_id="m6", group_instance_id="i6"),
        broker("static_member_fenced", 1006, member_id="m6", old_member_id="m7", group_instance_id="i6"),
        broker("member_id_required", 1007, member_id="p1"),
        broker("pending_member_expired", 1008, member_id="p1"),
    ]
    out = replay(number(evs))
    ends = _ends(out)
    assert ends["m1"] == ("leave", 100, 1000)
    assert ends["m2"] == ("poll_timeout_leave", 100, 1001)
    assert ends["m3"] == ("session_timeout", 100, 1002)
    assert ends["m4"] == ("sync_timeout", 100, 1003)
    assert ends["m5"] == ("not_rejoined", 100, 1004)
    assert ends["m6"] == ("replaced", 100, 1005)
    assert ends["m7"] == ("open", 1005, None)
    assert "p1" not in ends  # a pending member never had a session
    m7 = next(s for s in out.sessions if s.member_id == "m7")
    assert (m7.group_instance_id, m7.client_id, m7.host) == ("i6", "c-m6", "/10.0.0.5")
    assert "unknown_member" not in kinds(out)


def test_open_session_is_reemitted_with_the_same_key_when_closed():
    r = GroupReplay(G)
    for e in _stable_group(("m1",)):
        r.feed(e)
    first = r.flush()
    assert [(s.member_id, s.joined_ts, s.end_reason) for s in first.sessions] == [("m1", 100, "open")]
    r.feed(broker("member_session_expired", 5000, member_id="m1"))
    second = r.flush()
    assert [(s.member_id, s.joined_ts, s.end_reason, s.left_ts) for s in second.sessions] == [
        ("m1", 100, "session_timeout", 5000)
    ]


def test_group_dead_ends_every_session():
    out = replay(number(_stable_group(("m1", "m2")) + [broker("group_dead", 900, generation=3)]))
    assert {s.end_reason for s in out.sessions} == {"group_dead"}


def test_2_0_lines_without_reason_take_the_cause_of_the_preceding_fact():
    evs = _stable_group() + [
        broker("member_session_expired", 1000, member_id="m2"),
        broker("rebalance_prepared", 1000, generation=3),
        broker("join_completed", 1500, generation=4),
        broker("assignment_received", 1510, generation=4),
        broker("member_left", 5000, member_id="m3"),
        broker("rebalance_prepared", 5000, generation=4),
        broker("join_completed", 5100, generation=5),
        broker("assignment_received", 5110, generation=5),
        broker("rebalance_prepared", 200000, generation=5),  # nothing precedes it
        broker("join_completed", 200100, generation=6),
        broker("assignment_received", 200110, generation=6),
    ]
    out = replay(number(evs))
    got = [(r.cause, r.culprit_member_id, r.culprit_client_id, r.culprit_host) for r in out.rebalances]
    assert got == [
        ("session_timeout", "m2", "c-m2", "/10.0.0.1"),
        ("member_leave", "m3", "c-m3", "/10.0.0.2"),
        ("unknown", None, None, None),
    ]
    assert [(r.members_before, r.members_after) for r in out.rebalances] == [(3, 2), (2, 1), (1, 1)]


def test_unexplained_rebalance_right_after_a_load_is_a_coordinator_move():
    evs = _stable_group() + [
        broker("rebalance_prepared", 20000, generation=3),
        broker("join_completed", 20100, generation=4),
        broker("assignment_received", 20110, generation=4),
    ]
    (r,) = replay(number(evs)).rebalances
    assert r.cause == "coordinator_move"


def test_poll_timeout_seen_on_the_client_refines_a_broker_leave():
    evs = _stable_group() + [
        client("poll_timeout", 999, member_id="m1", client_id="c-m1"),
        client(
            "leave_sent", 999, member_id="m1", client_id="c-m1", reason="consumer poll timeout has expired."
        ),
        broker("member_left", 1000, member_id="m1"),  # 3.0/3.1: no client reason on the broker
        broker("rebalance_prepared", 1000, generation=3, reason="Removing member m1 on LeaveGroup"),
        broker("join_completed", 1500, generation=4, member_count=2),
        broker("assignment_received", 1510, member_id="m2", generation=4),
    ]
    out = replay(number(evs))
    (r,) = out.rebalances
    assert (r.cause, r.culprit_member_id, r.leader_id, r.members_after) == (
        "poll_timeout_leave",
        "m1",
        "m2",
        2,
    )
    assert _ends(out)["m1"][0] == "poll_timeout_leave"


def test_coordinator_move():
    evs = _stable_group(("m1", "m2")) + [
        broker("group_unloaded", 1000, generation=3, coordinator=1),
        broker("group_loaded", 1100, generation=3, member_count=2, coordinator=2, file="server2.log"),
        broker(
            "rebalance_prepared",
            1200,
            generation=3,
            coordinator=2,
            file="server2.log",
            reason="Leader m1 re-joining group during Stable; client reason: not provided",
        ),  # fmt: skip
        broker("join_completed", 1300, generation=4, member_count=2, coordinator=2, file="server2.log"),
        broker("assignment_received", 1310, member_id="m1", generation=4, coordinator=2, file="server2.log"),
    ]
    out = replay(number(evs))
    (r,) = out.rebalances
    assert (r.cause, r.coordinator_broker) == ("coordinator_move", 2)
    assert [t.to_state for t in out.transitions] == [
        "Stable",
        "Dead",
        "Stable",
        "PreparingRebalance",
        "CompletingRebalance",
        "Stable",
    ]
    assert kinds(out) == []


def test_rebalance_interrupted_by_unload_continues_on_the_new_coordinator():
    evs = _stable_group(("m1", "m2")) + [
        broker("rebalance_prepared", 900, generation=3, reason="removing member m2 on heartbeat expiration"),
        broker("group_unloaded", 1000, generation=3, coordinator=1),
        broker("group_loaded", 1100, generation=3, member_count=1, coordinator=2, file="server2.log"),
        broker(
            "rebalance_prepared",
            1200,
            generation=3,
            coordinator=2,
            file="server2.log",
            reason="Leader m1 re-joining group during Stable; client reason: not provided",
        ),  # fmt: skip
        broker("join_completed", 1300, generation=4, member_count=1, coordinator=2, file="server2.log"),
        broker("assignment_received", 1310, member_id="m1", generation=4, coordinator=2, file="server2.log"),
    ]
    out = replay(number(evs))
    (r,) = out.rebalances
    assert (r.start_ts, r.end_ts, r.cause, r.culprit_member_id, r.join_rounds) == (
        900,
        1310,
        "session_timeout",
        "m2",
        1,
    )
