"""Client-only reconstruction details: clock-skewed stragglers, client ids shared by several JVMs,
session timeouts seen only as a member missing from the leader's map, UNKNOWN_MEMBER_ID."""

from __future__ import annotations

from tests.core.replay_helpers import client, kinds, number, replay

CID = "consumer-g-1"  # every JVM names its first consumer like this


def _c(kind, ts, n, **kw):
    return client(kind, ts, file=f"host{n}/app.log", client_id=CID, **kw)


def _stable(members=("A", "B", "C"), gen=5, ts=100):
    evs = [_c("joined", ts, i, member_id=m, generation=gen, protocol="range") for i, m in enumerate(members)]
    amap = tuple((m, (f"t-{i}",)) for i, m in enumerate(members))
    evs.append(_c("leader_assigned", ts + 1, 0, member_id=members[0], generation=gen, assignment=amap))
    return evs


def test_straggler_lines_after_the_end_do_not_start_a_rebalance():
    evs = _stable() + [
        _c("leave_sent", 5000, 2, member_id="C", reason="the consumer is being closed"),
        _c("rejoin_requested", 5100, 1, reason="group is already rebalancing"),
        _c("join_sent", 5101, 1),
        _c("joined", 5200, 1, member_id="B", generation=6),
        _c("synced", 5205, 1, member_id="B", generation=6),  # first proof of Stable: the end
        # the leader's clock is 60 ms behind: its lines of the same rebalance come after the end
        _c("partitions_revoked", 5230, 0, partitions=("t-0",)),
        _c("join_sent", 5230, 0),
        _c("joined", 5260, 0, member_id="A", generation=6),
        _c(
            "leader_assigned",
            5261,
            0,
            member_id="A",
            generation=6,
            assignment={"A": ["t-0", "t-2"], "B": ["t-1"]},
        ),
    ]
    out = replay(number(evs))
    assert [(r.old_generation, r.new_generation, r.cause, r.culprit_member_id) for r in out.rebalances][
        1:
    ] == [(5, 6, "member_leave", "C")]
    assert out.rebalances[1].end_ts == 5205
    assert "C" in {s.member_id for s in out.sessions if s.end_reason == "leave"}


def test_new_consumer_is_identified_by_its_log_file_despite_a_shared_client_id():
    evs = _stable() + [
        _c("join_sent", 9000, 7),  # a new JVM, same client id as everyone
        _c("rejoin_requested", 9100, 0, reason="group is already rebalancing"),
        _c("joined", 9300, 0, member_id="A", generation=6),
        _c("joined", 9301, 7, member_id="D", generation=6),
        _c("synced", 9310, 0, member_id="A", generation=6),
    ]
    out = replay(number(evs))
    r = out.rebalances[-1]
    assert (r.cause, r.culprit_member_id, r.culprit_client_id, r.new_generation) == (
        "new_member",
        "D",
        CID,
        6,
    )


def test_member_missing_from_the_leaders_map_was_a_session_timeout():
    evs = _stable() + [
        _c("rejoin_requested", 60000, 0, member_id="A", reason="group is already rebalancing"),
        _c("joined", 60100, 0, member_id="A", generation=6),
        _c("joined", 60100, 1, member_id="B", generation=6),
        _c(
            "leader_assigned",
            60101,
            0,
            member_id="A",
            generation=6,
            assignment={"A": ["t-0", "t-2"], "B": ["t-1"]},
        ),
    ]
    out = replay(number(evs))
    r = out.rebalances[-1]
    assert (r.cause, r.culprit_member_id) == ("session_timeout", "C")
    assert [s.end_reason for s in out.sessions if s.member_id == "C"] == ["session_timeout"]


def test_unknown_member_id_is_a_weak_cause_replaced_by_the_rejoin():
    """A member paused past its session was already removed; it notices through UNKNOWN_MEMBER_ID
    and rejoins as a new member - that rejoin is what this rebalance is about."""
    evs = _stable() + [
        _c("rejoin_requested", 70000, 0, member_id="A", reason="group is already rebalancing"),
        _c("heartbeat_failed", 70010, 2, member_id="C", generation=5, error="UNKNOWN_MEMBER_ID"),
        _c("rejoin_requested", 70011, 2, reason="need to re-join with the given member-id: C2"),
        _c("joined", 70200, 2, member_id="C2", generation=6),
        _c("joined", 70200, 0, member_id="A", generation=6),
        _c("synced", 70210, 0, member_id="A", generation=6),
    ]
    out = replay(number(evs))
    r = out.rebalances[-1]
    assert (r.cause, r.culprit_member_id) == ("new_member", "C2")
    assert kinds(out) == ["rebalance_without_start"]  # generation 5's rebalance began before the logs


def test_leader_map_without_any_generation_is_no_replay_error():
    """A leader's map logged before any generation is known (none on the line, none seen before):
    no member is judged by it, and the replay goes on without an anomaly."""
    evs = [
        client("joined", 100, file="host0/app.log", client_id="c0", member_id="A"),
        client("joined", 100, file="host1/app.log", client_id="c1", member_id="B"),
        client("leader_assigned", 101, file="host0/app.log", client_id="c0", member_id="A",
               assignment={"A": ["t-0"]}),  # fmt: skip
    ]
    out = replay(number(evs))
    assert out.anomalies == []
    assert [(s.member_id, s.end_reason) for s in out.sessions] == [("A", "open"), ("B", "open")]
    assert out.rebalances == []


def test_a_non_java_file_that_names_no_member_stands_for_its_one_consumer():
    """kafka-python 2.0 at INFO: ``Successfully joined group g with generation N`` and the assigned
    partitions, with no member id and no client id on any line: each file's one consumer is a member
    (``<consumer of FILE>``), so the rebalance ends at the last member's new assignment."""
    from coordinator_core.replay.client import file_member

    def py(kind, ts, f, **kw):
        return client(kind, ts, file=f, origin="other", **kw)

    evs = [
        py("join_sent", 100, "c1.log"),
        py("joined", 150, "c1.log", generation=1),
        py("partitions_assigned", 151, "c1.log", partitions=("t-0", "t-1")),
        py("join_sent", 1000, "c2.log"),
        py("partitions_revoked", 1100, "c1.log", partitions=("t-0", "t-1")),
        py("join_sent", 1101, "c1.log"),
        py("joined", 1300, "c1.log", generation=2),
        py("joined", 1300, "c2.log", generation=2),
        py("partitions_assigned", 1301, "c1.log", partitions=("t-0",)),
        py("partitions_assigned", 1302, "c2.log", partitions=("t-1",)),
    ]
    out = replay(number(evs))
    last = out.rebalances[-1]
    assert (last.new_generation, last.outcome, last.end_ts) == (2, "completed", 1301)
    assert {s.member_id for s in out.sessions} == {file_member("c1.log"), file_member("c2.log")}


def test_a_file_stand_in_gives_way_to_the_member_id_and_needs_a_join():
    """A revoke before any join makes no stand-in member; once a line of the file names its member id,
    the file's later lines are about that member, not the stand-in."""
    from coordinator_core.replay.client import file_member

    def py(kind, ts, **kw):
        return client(kind, ts, file="c1.log", origin="other", **kw)

    only_revoke = replay(number([py("partitions_revoked", 50, partitions=("t-0",))]))
    # (a revoke starts a rebalance, as any client's does, but names no member)
    assert only_revoke.sessions == []
    assert [r.culprit_member_id for r in only_revoke.rebalances] == [None]
    evs = [
        py("join_sent", 100),
        py("joined", 150, generation=1),
        py("partitions_assigned", 151, partitions=("t-0",)),
        py("joined", 900, member_id="m-1", generation=2),
        py("partitions_assigned", 901, partitions=("t-0",)),
    ]
    out = replay(number(evs))
    assert {s.member_id for s in out.sessions} >= {file_member("c1.log"), "m-1"}
    assert out.rebalances[-1].new_generation == 2 and out.rebalances[-1].end_ts == 901
