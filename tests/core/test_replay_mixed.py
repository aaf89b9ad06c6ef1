"""A 3.x group with broker and client lines; the same client lines alone; a 4.x Java broker."""

from __future__ import annotations

from coordinator_core.replay import GroupReplay
from tests.core.replay_helpers import broker, client, kinds, number, replay, states

M1 = "consumer-g-1-0a6f1b2c-1234-4abc-9def-0123456789ab"
M2 = "consumer-g-2-1b7f2c3d-2345-4bcd-8ef0-123456789abc"
C1, C2 = "consumer-g-1", "consumer-g-2"


def broker_lines():
    return [
        broker("member_id_required", 1000, member_id=M1, state="Empty"),
        broker(
            "rebalance_prepared",
            1001,
            generation=0,
            state="PreparingRebalance",
            reason=f"Adding new member {M1} with group instance id None; client reason: need to re-join with the given member-id: {M1}",
        ),  # fmt: skip
        broker("join_completed", 4003, generation=1, member_count=1),
        broker("assignment_received", 4010, member_id=M1, generation=1, member_count=1, static_count=0),
        broker("member_id_required", 10000, member_id=M2, state="Stable"),
        broker(
            "rebalance_prepared",
            10001,
            generation=1,
            reason=f"Adding new member {M2} with group instance id None; client reason: need to re-join with the given member-id: {M2}",
        ),  # fmt: skip
        broker("join_completed", 10500, generation=2, member_count=2),
        broker("assignment_received", 10510, member_id=M1, generation=2, member_count=2, static_count=0),
    ]


def client_lines():
    c1 = dict(file="app1.log", client_id=C1)
    c2 = dict(file="app2.log", client_id=C2)
    return [
        client("coordinator_discovered", 990, coordinator=1, host="b1:9092", **c1),
        client("join_sent", 995, **c1),
        client("rejoin_requested", 1000, reason=f"need to re-join with the given member-id: {M1}", **c1),
        client("join_sent", 1000, **c1),
        client("joined", 4004, member_id=M1, generation=1, protocol="range", **c1),
        client("leader_assigned", 4005, member_id=M1, generation=1, assignment=((M1, ("t-0", "t-1")),), **c1),
        client("synced", 4011, member_id=M1, generation=1, protocol="range", **c1),
        client("assignment_notified", 4012, partitions=("t-0", "t-1"), **c1),
        client("partitions_assigned", 4013, partitions=("t-0", "t-1"), **c1),
        client("heartbeat_sent", 7000, member_id=M1, generation=1, **c1),
        client("coordinator_discovered", 9990, coordinator=1, **c2),
        client("join_sent", 9995, **c2),
        client("rejoin_requested", 10000, reason=f"need to re-join with the given member-id: {M2}", **c2),
        client("join_sent", 10000, **c2),
        client("heartbeat_failed", 10100, member_id=M1, generation=1, error="REBALANCE_IN_PROGRESS", **c1),
        client("rejoin_requested", 10100, reason="group is already rebalancing", **c1),
        client("partitions_revoked", 10101, partitions=("t-0", "t-1"), **c1),
        client("join_sent", 10102, **c1),
        client("joined", 10501, member_id=M1, generation=2, protocol="range", **c1),
        client("joined", 10501, member_id=M2, generation=2, protocol="range", **c2),
        client(
            "leader_assigned", 10502, member_id=M1, generation=2, assignment={M1: ["t-0"], M2: ["t-1"]}, **c1
        ),
        client("synced", 10511, member_id=M2, generation=2, protocol="range", **c2),
        client("synced", 10511, member_id=M1, generation=2, protocol="range", **c1),
        client("assignment_notified", 10512, partitions=("t-1",), **c2),
        client("assignment_notified", 10512, partitions=("t-0",), **c1),
    ]


def test_broker_and_client_lines():
    out = replay(number(broker_lines() + client_lines()))
    assert kinds(out) == []
    # the consumer's "(Re-)joining group" precedes the broker's first line: the rebalance is first
    # inferred from the client and the broker takes it over
    assert states(out) == [None] + ["PreparingRebalance", "CompletingRebalance", "Stable"] * 2
    assert [t.inferred for t in out.transitions] == [True, False, True, False, False, True]
    r1, r2 = out.rebalances
    assert (r1.cause, r1.culprit_member_id, r1.culprit_client_id) == ("new_member", M1, C1)
    # the broker's line fixes the start (the group entered PreparingRebalance then); the id stays
    # the one given when the rebalance was first seen on the client
    assert (r1.old_generation, r1.new_generation, r1.start_ts, r1.duration_ms) == (0, 1, 1001, 3009)
    assert r1.rebalance_id == "g:995:None"
    assert (r1.leader_id, r1.protocol, r1.coordinator_broker, r1.inferred) == (M1, "range", 1, False)
    assert (r1.members_before, r1.members_after) == (0, 1)
    assert (r2.cause, r2.culprit_member_id, r2.culprit_client_id) == ("new_member", M2, C2)
    assert (r2.members_before, r2.members_after, r2.join_rounds) == (1, 2, 1)
    assert r2.reason.startswith(f"Adding new member {M2}")
    leader_rows = [
        (a.generation, a.member_id, a.topic, a.partitions)
        for a in out.assignments
        if a.source == "leader_map"
    ]
    assert leader_rows == [(1, M1, "t", (0, 1)), (2, M1, "t", (0,)), (2, M2, "t", (1,))]
    member_rows = [(a.generation, a.member_id, a.partitions) for a in out.assignments if a.source == "member"]
    # the members' own lines ("Notifying assignor ..."; "Adding newly assigned partitions" is not
    # used twice for the same generation)
    assert member_rows == [(1, M1, (0, 1)), (2, M1, (0,)), (2, M2, (1,))]
    skew_all = [
        (s["generation"], s["members"], s["max_per_member"], s["moved_partitions"])
        for s in out.skew
        if s["topic"] == "*"
    ]
    assert skew_all == [(1, 1, 2, None), (2, 2, 1, 1)]
    sessions = {s.member_id: s for s in out.sessions}
    assert sessions[M1].client_id == C1 and sessions[M1].end_reason == "open"
    assert (sessions[M2].joined_ts, sessions[M2].first_generation, sessions[M2].last_generation) == (
        10001,
        2,
        2,
    )


def test_client_lines_alone_reconstruct_the_rebalances():
    out = replay(number(client_lines()))
    r1, r2 = out.rebalances
    assert all(r.inferred for r in out.rebalances)
    assert all(t.inferred for t in out.transitions)
    assert states(out) == [
        None,
        "PreparingRebalance",
        "CompletingRebalance",
        "Stable",
        "PreparingRebalance",
        "CompletingRebalance",
        "Stable",
    ]
    assert (r1.start_ts, r1.end_ts, r1.old_generation, r1.new_generation) == (995, 4005, None, 1)
    assert (r1.cause, r1.culprit_client_id) == ("new_member", C1)
    assert (r2.start_ts, r2.end_ts, r2.old_generation, r2.new_generation) == (9995, 10502, 1, 2)
    assert (r2.cause, r2.culprit_client_id, r2.culprit_member_id) == ("new_member", C2, M2)
    assert (r2.leader_id, r2.protocol, r2.coordinator_broker, r2.members_after) == (M1, "range", 1, 2)
    assert kinds(out) == []


def test_client_only_poll_timeout_and_session_timeout():
    c1 = dict(file="a.log", client_id=C1)
    c2 = dict(file="b.log", client_id=C2)
    base = [
        client("joined", 100, member_id=M1, generation=5, protocol="range", **c1),
        client("joined", 100, member_id=M2, generation=5, protocol="range", **c2),
        client(
            "leader_assigned", 101, member_id=M1, generation=5, assignment={M1: ["t-0"], M2: ["t-1"]}, **c1
        ),
    ]
    out = replay(
        number(
            base
            + [
                client("poll_timeout", 5000, member_id=M2, **c2),
                client("leave_sent", 5000, member_id=M2, reason="consumer poll timeout has expired.", **c2),
                client("rejoin_requested", 5100, member_id=M1, reason="group is already rebalancing", **c1),
                client("joined", 5200, member_id=M1, generation=6, **c1),
                client(
                    "leader_assigned", 5201, member_id=M1, generation=6, assignment={M1: ["t-0", "t-1"]}, **c1
                ),
            ]
        )
    )
    assert kinds(out) == ["rebalance_without_start"]  # the logs begin inside generation 5's rebalance
    first, second = out.rebalances
    assert first.start_unknown and first.start_ts is None and first.new_generation == 5
    assert (second.cause, second.culprit_member_id, second.culprit_client_id) == (
        "poll_timeout_leave",
        M2,
        C2,
    )
    assert (second.old_generation, second.new_generation, second.members_after) == (5, 6, 1)
    ends = {s.member_id: s.end_reason for s in out.sessions}
    assert ends == {M2: "poll_timeout_leave", M1: "open"}

    out = replay(
        number(
            base
            + [
                client("heartbeat_failed", 9000, member_id=M2, generation=5, error="UNKNOWN_MEMBER_ID", **c2),
                client("joined", 9300, member_id=M1, generation=6, **c1),
                client("synced", 9301, member_id=M1, generation=6, **c1),
            ]
        )
    )
    second = out.rebalances[1]
    assert (second.cause, second.culprit_member_id, second.end_ts) == ("session_timeout", M2, 9301)


def test_java_4x_close_leaves_and_empties_in_the_same_millisecond():
    m = "console-consumer-0a6f1b2c-1234-4abc-9def-0123456789ab"
    evs = [
        broker("member_id_required", 10, member_id=m, state="Empty"),
        broker("member_added", 11, member_id=m, state="Empty"),
        broker(
            "rebalance_prepared",
            11,
            generation=0,
            reason=f"Adding new member {m} with group instance id null; client reason: need to re-join with the given member-id: {m}",
        ),  # fmt: skip
        broker("join_completed", 3011, generation=1, member_count=1),
        broker("assignment_received", 3015, member_id=m, generation=1, member_count=1, static_count=0),
        broker("member_left", 60000, member_id=m, reason="the consumer is being closed"),
        broker(
            "rebalance_prepared",
            60000,
            generation=1,
            reason=f"explicit `LeaveGroup` request for ({m}) members.",
        ),
        broker("group_empty", 60000, generation=2),
    ]
    out = replay(number(evs))
    assert kinds(out) == []
    r1, r2 = out.rebalances
    assert (r1.cause, r1.culprit_client_id, r1.duration_ms) == ("new_member", "console-consumer", 3004)
    assert (r2.cause, r2.culprit_member_id, r2.outcome, r2.duration_ms, r2.members_after) == (
        "member_leave", m, "ended_empty", 0, 0,
    )  # fmt: skip
    (s,) = out.sessions
    assert (s.joined_ts, s.left_ts, s.end_reason, s.first_generation, s.last_generation) == (
        11,
        60000,
        "leave",
        1,
        1,
    )
    assert states(out)[-1] == "Empty"


def test_first_broker_line_takes_over_a_client_inferred_rebalance():
    evs = number(
        [
            client(
                "rejoin_requested",
                1000,
                file="a.log",
                client_id=C1,
                member_id=M1,
                reason="cached metadata has changed",
            ),
            broker(
                "rebalance_prepared",
                1003,
                generation=4,
                reason=f"Leader {M1} re-joining group during Stable; client reason: cached metadata has changed",
            ),
            broker("join_completed", 1500, generation=5, member_count=1),
            broker("assignment_received", 1510, member_id=M1, generation=5),
        ]
    )
    out = replay(evs)
    (r,) = out.rebalances
    assert (r.start_ts, r.cause, r.inferred, r.old_generation, r.new_generation) == (
        1003,
        "metadata_change",
        False,
        4,
        5,
    )
    assert kinds(out) == []


def test_broker_lines_of_a_rebalance_the_clients_already_finished_are_that_rebalance():
    """A client clock running ~50 ms behind the broker's: the first consumer's whole join (join,
    joined generation 1, synced) is logged before the broker's PreparingRebalance with old
    generation 0. The broker's lines re-open and re-time that rebalance: one rebalance, no
    generation gap, and the member's session is not inferred (a broker line shows it joining)."""
    reason = f"Adding new member {M1} with group instance id null; client reason: need to re-join with the given member-id: {M1}"
    evs = number([
        client("join_sent", 72, file="a.log", client_id=C1),
        client("joined", 75, file="a.log", client_id=C1, member_id=M1, generation=1, protocol="range"),
        client("synced", 80, file="a.log", client_id=C1, member_id=M1, generation=1, protocol="range"),
        broker("member_added", 123, member_id=M1, static=False, state="Empty"),
        broker("rebalance_prepared", 123, generation=0, reason=reason),
        broker("join_completed", 123, generation=1, member_count=1),
        broker("assignment_received", 125, member_id=M1, generation=1, member_count=1),
    ])  # fmt: skip
    out = replay(evs)
    (r,) = out.rebalances
    assert (r.start_ts, r.end_ts, r.cause, r.culprit_member_id, r.inferred, r.old_generation, r.new_generation,
            r.join_rounds) == (123, 125, "new_member", M1, False, 0, 1, 1)  # fmt: skip
    assert "generation_gap" not in kinds(out)
    (s,) = out.sessions
    assert (s.member_id, s.inferred) == (M1, False)


def test_heartbeats_refresh_members_without_output():
    r = GroupReplay("g")
    for e in number(broker_lines()[:4]):
        r.feed(e)
    r.flush()
    rows = [
        (5000 + i, "g", "heartbeat_sent", "client", M1, 1) + (None,) * 19 + ("app1.log", i)
        for i in range(1000)
    ]
    r.feed_rows(rows)
    out = r.flush()
    assert (out.transitions, out.rebalances, out.anomalies, out.assignments) == ([], [], [], [])
    assert r.members[M1].last_seen == 5999
    assert r.events == 1004
