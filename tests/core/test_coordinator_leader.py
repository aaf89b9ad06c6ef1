"""Leader re-election and stuck rebalances with absent static members, ported from
``GroupCoordinatorTest.scala`` (branch 3.9): groupStuckInRebalanceTimeoutDueToNonjoinedStaticMember,
testLeaderFailToRejoinBeforeFinalRebalanceTimeoutWithLongSessionTimeout,
testLeaderRejoinBeforeFinalRebalanceTimeoutWithLongSessionTimeout,
testStaticMemberFollowerFailToRejoinBeforeRebalanceTimeout and
testStaticMemberLeaderFailToRejoinBeforeRebalanceTimeout."""

from __future__ import annotations

from test_coordinator_kafka import FOLLOWER, LEADER, static_members_join_and_rebalance
from test_coordinator_support import INITIAL_DELAY, PROTOCOLS, REBALANCE, SESSION, SUPERSET, Harness


def group_stuck_in_rebalance_timeout_due_to_nonjoined_static_member(h: Harness):
    """``groupStuckInRebalanceTimeoutDueToNonjoinedStaticMember``."""
    long_session = SESSION * 2
    leader_id, follower_id = static_members_join_and_rebalance(h, session=long_session)
    dyn = h.send_join(protocols=SUPERSET, session=long_session)
    h.advance(REBALANCE + 1)
    d = dyn.value
    # the static leader did not rejoin: the new dynamic member is elected leader
    assert (d.error, d.leader_id, d.generation, len(d.members)) == ("NONE", d.member_id, 2, 3)
    assert h.state() == "CompletingRebalance"
    group = h.group()
    assert set(group.members) == {leader_id, follower_id, d.member_id}
    assert set(group.static_members) == {LEADER, FOLLOWER}
    reelected = [e for e in h.events if e.kind == "leader_reelected"]
    assert [(e.old_member_id, e.member_id, e.group_instance_id) for e in reelected] == [
        (leader_id, d.member_id, LEADER)
    ]
    # a LeaveGroup from the static follower moves the group to PreparingRebalance
    assert h.leave([(follower_id, None, None)]).members == [(follower_id, None, "NONE")]
    assert h.state() == "PreparingRebalance"
    h.advance(REBALANCE + 1)
    # only the absent static leader is kept; no member rejoined: stuck in PreparingRebalance
    assert list(group.members) == [leader_id]
    assert group.generation == 2 and h.state() == "PreparingRebalance"
    assert h.kinds().count("members_removed_not_joined") == 1
    stuck = [e for e in h.events if e.kind == "no_member_rejoined"]
    # the dynamic leader was dropped first, leadership fell back to the absent static leader
    assert [(e.member_id, e.group_instance_id) for e in stuck] == [(leader_id, LEADER)]
    return leader_id


def test_leader_fail_to_rejoin_before_final_rebalance_timeout_with_long_session_timeout():
    h = Harness()
    group_stuck_in_rebalance_timeout_due_to_nonjoined_static_member(h)
    h.advance(REBALANCE + 1)
    group = h.group()
    assert group.members == {} and group.leader_id is None
    assert group.generation == 3 and h.state() == "Empty"
    assert h.kinds()[-2:] == ["member_session_expired", "group_empty"]


def test_leader_rejoin_before_final_rebalance_timeout_with_long_session_timeout():
    h = Harness()
    group_stuck_in_rebalance_timeout_due_to_nonjoined_static_member(h)
    r = h.static_join("", LEADER, protocols=PROTOCOLS)
    assert (r.error, r.generation, [m[1] for m in r.members]) == ("NONE", 3, [LEADER])
    assert list(h.group().members) == [r.member_id] and h.group().leader_id == r.member_id
    assert h.state() == "CompletingRebalance"


def test_static_member_follower_fail_to_rejoin_before_rebalance_timeout():
    h = Harness()
    leader_id, _ = static_members_join_and_rebalance(h, session=REBALANCE * 2)
    new = h.send_join(instance_id="newMember", protocols=SUPERSET)
    assert h.state() == "PreparingRebalance"
    lr = h.static_join(leader_id, LEADER, clock_advance=REBALANCE + 1, protocols=SUPERSET)
    assert (lr.error, lr.generation, lr.member_id, lr.leader_id) == ("NONE", 2, leader_id, leader_id)
    assert {m[1] for m in lr.members} == {LEADER, FOLLOWER, "newMember"}
    n = new.value
    assert (n.error, n.generation, n.leader_id, n.members) == ("NONE", 2, leader_id, [])


def test_static_member_leader_fail_to_rejoin_before_rebalance_timeout():
    h = Harness()
    leader_id, follower_id = static_members_join_and_rebalance(h, session=REBALANCE * 2)
    new = h.send_join(instance_id="newMember", protocols=SUPERSET)
    h.advance(1)
    assert h.state() == "PreparingRebalance"
    fr = h.static_join(follower_id, FOLLOWER, clock_advance=REBALANCE + 1, protocols=SUPERSET)
    n = new.value
    new_leader, new_follower = (fr, n) if fr.leader_id == fr.member_id else (n, fr)
    assert new_leader.generation == new_follower.generation == 2
    assert {m[1] for m in new_leader.members} == {LEADER, FOLLOWER, "newMember"}
    assert new_follower.leader_id == new_leader.member_id and new_follower.members == []
    # insertion order: the first awaiting member after the old leader is the follower
    assert new_leader.member_id == follower_id
    assert INITIAL_DELAY  # (constant imported for symmetry with Kafka's harness)
