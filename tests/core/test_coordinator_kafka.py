"""Scenario tests ported from Kafka's ``core/src/test/scala/unit/kafka/coordinator/group/
GroupCoordinatorTest.scala`` (branch 3.9, commit c821449fb7c1). Each test is named after the Kafka
test it ports (snake_case) and cites it; the *facts* (errors, generations, leaders, states, timer
behaviour) are asserted with the same clock steps as Kafka's MockTimer (``Harness.advance``).

Kafka test configuration: group.min.session.timeout.ms=10, max 600000, group.max.size=4,
group.initial.rebalance.delay.ms=50, default session and rebalance timeouts 500 ms.
"""

from __future__ import annotations

from test_coordinator_support import (
    GROUP,
    INITIAL_DELAY,
    MAX_SESSION,
    MAX_SIZE,
    MIN_SESSION,
    REBALANCE,
    SESSION,
    SUPERSET,
    Harness,
)

from coordinator_core.group import ClassicGroup
from coordinator_core.states import DEAD

NEW_MEMBER_JOIN_TIMEOUT = 300000
LEADER, FOLLOWER = "leader", "follower"


def two_member_group(h: Harness):
    """join+sync one member, then a second one joins and the first rejoins (Kafka's recipe for a
    group of two members). Returns (first join, rejoin result, other result)."""
    first = h.stable_group()
    other = h.send_join()
    rejoin = h.send_join(first.member_id)
    assert rejoin.done and other.done
    return first, rejoin.value, other.value


def static_members_join_and_rebalance(h: Harness, session: int = SESSION, rebalance: int = REBALANCE):
    """``staticMembersJoinAndRebalance``: leader + follower static members, generation 1, Stable."""
    lf = h.send_join(instance_id=LEADER, protocols=SUPERSET, session=session, rebalance=rebalance)
    ff = h.send_join(instance_id=FOLLOWER, protocols=SUPERSET, session=session, rebalance=rebalance)
    h.advance(INITIAL_DELAY + 1)
    h.advance(REBALANCE + 1)
    lj, fj = lf.value, ff.value
    assert (lj.error, lj.generation, fj.error, fj.generation) == ("NONE", 1, "NONE", 1)
    assert h.sync_leader(lj.member_id, 1, {lj.member_id: b"L"}).error == "NONE"
    assert h.state() == "Stable"
    fs = h.send_sync(fj.member_id, 1).value
    assert fs.error == "NONE" and fs.assignment == b""
    return lj.member_id, fj.member_id


# --------------------------------------------------------------------------------------------------
# JoinGroup validation
# --------------------------------------------------------------------------------------------------


def test_join_group_session_timeout_too_small_and_too_large():
    """testJoinGroupSessionTimeoutTooSmall + testJoinGroupSessionTimeoutTooLarge."""
    h = Harness()
    assert h.dynamic_join(session=MIN_SESSION - 1).error == "INVALID_SESSION_TIMEOUT"
    assert h.dynamic_join(session=MAX_SESSION + 1).error == "INVALID_SESSION_TIMEOUT"
    assert h.group() is None


def test_join_group_unknown_consumer_new_group():
    """testJoinGroupUnknownConsumerNewGroup: a member id for a group that doesn't exist."""
    h = Harness()
    assert h.dynamic_join("memberId").error == "UNKNOWN_MEMBER_ID"
    assert h.static_join("memberId", "groupInstanceId").error == "UNKNOWN_MEMBER_ID"
    assert h.group() is None


def test_invalid_group_id():
    """testInvalidGroupId: JoinGroup with an empty group id."""
    h = Harness()
    assert h.dynamic_join(group_id="").error == "INVALID_GROUP_ID"


def test_valid_join_group():
    """testValidJoinGroup."""
    h = Harness()
    r = h.dynamic_join()
    assert r.error == "NONE"
    assert r.generation == 1 and r.leader_id == r.member_id
    assert r.member_id.startswith("consumer-test-")
    assert r.members == [(r.member_id, None, b"")]


def test_join_group_inconsistent_protocol_type():
    """testJoinGroupInconsistentProtocolType."""
    h = Harness()
    assert h.dynamic_join(protocol_type="consumer").error == "NONE"
    assert h.send_join(protocol_type="connect").value.error == "INCONSISTENT_GROUP_PROTOCOL"


def test_join_group_with_empty_protocol_type_and_empty_group_protocol():
    """testJoinGroupWithEmptyProtocolType + testJoinGroupWithEmptyGroupProtocol."""
    h = Harness()
    assert h.dynamic_join(protocol_type="").error == "INCONSISTENT_GROUP_PROTOCOL"
    assert h.static_join("", "groupInstanceId", protocol_type="").error == "INCONSISTENT_GROUP_PROTOCOL"
    assert h.dynamic_join(protocols=()).error == "INCONSISTENT_GROUP_PROTOCOL"


def test_join_group_inconsistent_group_protocol():
    """testJoinGroupInconsistentGroupProtocol: range vs roundrobin only."""
    h = Harness()
    fut = h.send_join(protocols=(("range", b""),))
    other = h.dynamic_join(protocols=(("roundrobin", b""),))
    h.advance(INITIAL_DELAY + 1)
    assert fut.value.error == "NONE"
    assert other.error == "INCONSISTENT_GROUP_PROTOCOL"


def test_join_group_unknown_consumer_existing_group():
    """testJoinGroupUnknownConsumerExistingGroup."""
    h = Harness()
    assert h.dynamic_join().error == "NONE"
    assert h.send_join("memberId").value.error == "UNKNOWN_MEMBER_ID"


def test_join_group_unknown_consumer_new_dead_group():
    """testJoinGroupUnknownConsumerNewDeadGroup: Dead -> COORDINATOR_NOT_AVAILABLE (2.4+)."""
    h = Harness()
    h.c.add_group(ClassicGroup("deadGroupId", DEAD))
    assert h.dynamic_join(group_id="deadGroupId").error == "COORDINATOR_NOT_AVAILABLE"


def test_sync_dead_group():
    """testSyncDeadGroup."""
    h = Harness()
    h.c.add_group(ClassicGroup("deadGroupId", DEAD))
    assert h.send_sync("memberId", 1, group_id="deadGroupId").value.error == "COORDINATOR_NOT_AVAILABLE"


def test_join_group_second_join_inconsistent_protocol():
    """testJoinGroupSecondJoinInconsistentProtocol: MEMBER_ID_REQUIRED, then the known-id join with
    an empty protocol list is INCONSISTENT_GROUP_PROTOCOL, the pending id stays valid."""
    h = Harness()
    first = h.send_join(require_known=True).value
    assert first.error == "MEMBER_ID_REQUIRED"
    assert first.member_id in h.group().pending_members
    bad = h.send_join(first.member_id, protocols=(), require_known=True).value
    assert bad.error == "INCONSISTENT_GROUP_PROTOCOL"
    ok = h.send_join(first.member_id, require_known=True)
    h.advance(INITIAL_DELAY + 1)
    assert ok.value.error == "NONE"


# --------------------------------------------------------------------------------------------------
# group.max.size
# --------------------------------------------------------------------------------------------------


def test_join_group_should_receive_error_if_group_over_max_size():
    """testJoinGroupShouldReceiveErrorIfGroupOverMaxSize."""
    h = Harness()
    rebalance = INITIAL_DELAY * 2
    futures = []
    for i in range(1, MAX_SIZE + 1):
        futures.append(h.send_join(rebalance=rebalance))
        if i != 1:
            h.advance(INITIAL_DELAY)
    h.advance(INITIAL_DELAY + 1)
    assert [f.value.error for f in futures] == ["NONE"] * MAX_SIZE
    assert h.send_join(rebalance=rebalance).value.error == "GROUP_MAX_SIZE_REACHED"


def test_dynamic_members_join_group_with_max_size_and_required_known_member():
    """testDynamicMembersJoinGroupWithMaxSizeAndRequiredKnownMember."""
    h = Harness()
    ids = [h.send_join(require_known=True).value.member_id for _ in range(MAX_SIZE + 1)]
    futures = [h.send_join(mid, require_known=True) for mid in ids]
    h.advance(INITIAL_DELAY + 1)
    h.advance(INITIAL_DELAY + 1)
    errors = [f.value.error for f in futures]
    assert errors.count("NONE") == MAX_SIZE
    assert errors.count("GROUP_MAX_SIZE_REACHED") == 1
    rejoin = [h.send_join(mid, require_known=True).value.error for mid in ids]
    assert rejoin == errors


def test_static_members_join_group_with_max_size():
    """testStaticMembersJoinGroupWithMaxSize."""
    h = Harness()
    iids = [f"instance-id-{i}" for i in range(1, MAX_SIZE + 2)]
    futures = [h.send_join(instance_id=i) for i in iids]
    h.advance(INITIAL_DELAY + 1)
    h.advance(INITIAL_DELAY + 1)
    results = [f.value for f in futures]
    errors = [r.error for r in results]
    assert errors.count("NONE") == MAX_SIZE and errors.count("GROUP_MAX_SIZE_REACHED") == 1
    rejoin = [h.send_join(r.member_id, instance_id=i).value.error for r, i in zip(results, iids)]
    assert rejoin == errors


def test_last_joining_members_are_kicked_out_when_rejoining_group_with_max_size():
    """testLastJoiningMembersAreKickedOutWhenReJoiningGroupWithMaxSize: a Stable group of 6 (over
    the max of 4) rebalances; the last two rejoiners get GROUP_MAX_SIZE_REACHED and are removed."""
    from coordinator_core.group import Member
    from coordinator_core.states import STABLE

    h = Harness()
    group = ClassicGroup(GROUP, STABLE)
    ids = [f"consumer-test-{i}" for i in range(MAX_SIZE + 2)]
    for mid in ids:
        group.add(
            Member(
                mid, None, "consumer-test", "localhost", REBALANCE, MAX_SESSION, "consumer", (("range", b""),)
            )
        )
    h.c.add_group(group)
    h.take(h.c._begin(h.t))  # noqa: SLF001 - prepareRebalance(group, "") like the Kafka test
    h.c._prepare_rebalance(group, "")  # noqa: SLF001
    futures = [h.send_join(mid, session=MAX_SESSION) for mid in ids]
    h.advance(REBALANCE + 1)
    errors = [f.value.error for f in futures]
    assert set(errors[:MAX_SIZE]) == {"NONE"}
    assert set(errors[MAX_SIZE:]) == {"GROUP_MAX_SIZE_REACHED"}
    for mid in ids[MAX_SIZE:]:
        assert mid not in group.members


# --------------------------------------------------------------------------------------------------
# new-member join timeout, session expiry
# --------------------------------------------------------------------------------------------------


def test_new_member_timeout_completion():
    """testNewMemberTimeoutCompletion: after the join completes the 5-minute new-member timeout no
    longer applies; the session timeout does."""
    h = Harness()
    session = NEW_MEMBER_JOIN_TIMEOUT + 5000
    fut = h.send_join(session=session)
    h.advance(INITIAL_DELAY + 1)
    r = fut.value
    assert r.error == "NONE"
    assert sum(m.is_new for m in h.group().members.values()) == 0
    assert h.sync_leader(r.member_id, r.generation).error == "NONE"
    h.advance(NEW_MEMBER_JOIN_TIMEOUT + 100)
    assert h.group().size == 1
    h.advance(session + 100)
    assert h.group().size == 0
    assert "member_session_expired" in h.kinds()


def test_new_member_join_expiration():
    """testNewMemberJoinExpiration: a new member stuck in a long rebalance is removed after 300 s
    with UNKNOWN_MEMBER_ID."""
    h = Harness()
    session, rebalance = NEW_MEMBER_JOIN_TIMEOUT + 5000, NEW_MEMBER_JOIN_TIMEOUT * 2
    first = h.dynamic_join(session=session, rebalance=rebalance)
    assert first.error == "NONE" and first.leader_id == first.member_id
    group = h.group()
    assert sum(m.is_new for m in group.members.values()) == 0
    fut = h.send_join(session=session, rebalance=rebalance)
    assert not fut.done
    assert group.size == 2 and sum(m.is_new for m in group.members.values()) == 1
    new_member = next(m for m in group.members.values() if m.is_new)
    assert new_member.member_id != first.member_id
    h.advance(NEW_MEMBER_JOIN_TIMEOUT + 1)
    assert fut.done and fut.value.error == "UNKNOWN_MEMBER_ID" and fut.value.member_id == ""
    assert list(group.members) == [first.member_id]
    assert sum(m.is_new for m in group.members.values()) == 0


def test_new_member_failure_after_join_group_completion():
    """testNewMemberFailureAfterJoinGroupCompletion + verifySessionExpiration: after the join phase
    new members follow the normal session expiry; the group ends Empty."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    assert rejoin.error == "NONE" and other.error == "NONE"
    h.advance(SESSION + 1)
    assert h.state() == "Empty" and h.group().size == 0


def test_new_member_failure_after_sync_group_completion():
    """testNewMemberFailureAfterSyncGroupCompletion."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    h.send_sync(other.member_id, rejoin.generation)
    r = h.sync_leader(first.member_id, rejoin.generation, {first.member_id: b"", other.member_id: b""})
    assert r.error == "NONE"
    h.advance(SESSION + 1)
    assert h.state() == "Empty" and h.group().size == 0


def test_session_timeout():
    """testSessionTimeout: no heartbeat for session timeout + 100 -> member removed."""
    h = Harness()
    j = h.stable_group()
    h.advance(SESSION + 100)
    assert h.heartbeat(j.member_id, 1) == "UNKNOWN_MEMBER_ID"
    assert "member_session_expired" in h.kinds()
    assert h.state() == "Empty" and h.group().generation == 2


def test_heartbeat_maintains_session():
    """testHeartbeatMaintainsSession."""
    h = Harness()
    j = h.dynamic_join(session=1000, rebalance=1000)
    assert h.sync_leader(j.member_id, j.generation).error == "NONE"
    h.advance(500)
    assert h.heartbeat(j.member_id, 1) == "NONE"
    h.advance(600)
    assert h.heartbeat(j.member_id, 1) == "NONE"


def test_commit_maintains_session():
    """testCommitMaintainsSession: an OffsetCommit resets the heartbeat deadline."""
    h = Harness()
    j = h.dynamic_join(session=1000, rebalance=1000)
    assert h.sync_leader(j.member_id, j.generation).error == "NONE"
    h.advance(500)
    assert h.commit(j.member_id, j.generation) == "NONE"
    h.advance(600)
    assert h.heartbeat(j.member_id, 1) == "NONE"


def test_session_timeout_during_rebalance():
    """testSessionTimeoutDuringRebalance: a member that stops heartbeating during the rebalance is
    removed and the join completes with the new member only."""
    h = Harness()
    first = h.dynamic_join(rebalance=2000, session=1000)
    assert h.sync_leader(first.member_id, first.generation).error == "NONE"
    other = h.send_join()
    h.advance(500)
    assert h.heartbeat(first.member_id, first.generation) == "REBALANCE_IN_PROGRESS"
    h.advance(1100)
    assert h.heartbeat(first.member_id, first.generation) == "UNKNOWN_MEMBER_ID"
    assert other.value.error == "NONE"
    assert other.value.generation == 2 and other.value.leader_id == other.value.member_id


def test_rebalance_completes_before_member_joins():
    """testRebalanceCompletesBeforeMemberJoins: an absent static member is kept at join completion
    and only removed by its session timeout."""
    h = Harness()
    first = h.static_join("", LEADER, rebalance=1200, session=1000)
    assert first.error == "NONE" and first.leader_id == first.member_id
    assert h.sync_leader(first.member_id, first.generation).error == "NONE"
    other = h.send_join()
    for expected in ("REBALANCE_IN_PROGRESS", "REBALANCE_IN_PROGRESS"):
        h.advance(SESSION)
        assert h.heartbeat(first.member_id, first.generation) == expected
    h.advance(SESSION)
    o = other.value
    assert o.error == "NONE" and o.generation == 2
    assert h.sync_leader(o.member_id, o.generation).error == "NONE"
    assert h.heartbeat(first.member_id, first.generation) == "ILLEGAL_GENERATION"
    for expected in ("NONE", "NONE", "REBALANCE_IN_PROGRESS"):
        h.advance(SESSION)
        assert h.heartbeat(o.member_id, o.generation) == expected
    re = h.send_join(o.member_id).value
    assert re.error == "NONE" and re.generation == 3
    assert h.sync_leader(o.member_id, re.generation).error == "NONE"
    for _ in range(20):
        h.advance(500)
        assert h.heartbeat(o.member_id, re.generation) == "NONE"


# --------------------------------------------------------------------------------------------------
# heartbeat
# --------------------------------------------------------------------------------------------------


def test_heartbeat_unknown_group_and_dead_group():
    """testHeartbeatUnknownGroup + testHeartbeatDeadGroup."""
    h = Harness()
    assert h.heartbeat("memberId", -1) == "UNKNOWN_MEMBER_ID"
    h.c.add_group(ClassicGroup("deadGroupId", DEAD))
    assert h.heartbeat("memberId", -1, group_id="deadGroupId") == "COORDINATOR_NOT_AVAILABLE"


def test_heartbeat_empty_group():
    """testHeartbeatEmptyGroup: a member id the (Empty) group does not know."""
    h = Harness()
    assert h.commit() == "NONE"  # creates the simple Empty group
    assert h.state() == "Empty"
    assert h.heartbeat("memberId", 0) == "UNKNOWN_MEMBER_ID"


def test_heartbeat_unknown_consumer_existing_group():
    """testHeartbeatUnknownConsumerExistingGroup."""
    h = Harness()
    j = h.stable_group()
    assert h.heartbeat("memberId", j.generation) == "UNKNOWN_MEMBER_ID"


def test_heartbeat_rebalance_in_progress_and_illegal_generation_and_valid():
    """testHeartbeatRebalanceInProgress (CompletingRebalance answers NONE since 2.6.1),
    testHeartbeatIllegalGeneration, testValidHeartbeat."""
    h = Harness()
    j = h.dynamic_join()
    assert h.state() == "CompletingRebalance"
    assert h.heartbeat(j.member_id, j.generation) == "NONE"
    assert h.sync_leader(j.member_id, j.generation).error == "NONE"
    assert h.heartbeat(j.member_id, 2) == "ILLEGAL_GENERATION"
    assert h.heartbeat(j.member_id, 1) == "NONE"


def test_heartbeat_during_rebalance_causes_rebalance_in_progress():
    """testHeartbeatDuringRebalanceCausesRebalanceInProgress."""
    h = Harness()
    j = h.dynamic_join()
    h.send_join()
    assert h.state() == "PreparingRebalance"
    assert h.heartbeat(j.member_id, j.generation) == "REBALANCE_IN_PROGRESS"


def test_generation_id_increments_on_rebalance():
    """testGenerationIdIncrementsOnRebalance."""
    h = Harness()
    j = h.dynamic_join()
    assert j.generation == 1
    assert h.sync_leader(j.member_id, 1).error == "NONE"
    r = h.send_join(j.member_id).value
    assert (r.error, r.generation) == ("NONE", 2)


# --------------------------------------------------------------------------------------------------
# SyncGroup
# --------------------------------------------------------------------------------------------------


def test_sync_group_empty_assignment():
    """testSyncGroupEmptyAssignment: the leader sends no assignment -> empty assignment, Stable."""
    h = Harness()
    j = h.dynamic_join()
    r = h.send_sync(j.member_id, j.generation, {}).value
    assert r.error == "NONE" and r.assignment == b""
    assert h.heartbeat(j.member_id, j.generation) == "NONE"


def test_sync_group_from_unknown_group_member_and_illegal_generation():
    """testSyncGroupFromUnknownGroup + testSyncGroupFromUnknownMember + testSyncGroupFromIllegalGeneration."""
    h = Harness()
    assert h.send_sync("memberId", 1).value.error == "UNKNOWN_MEMBER_ID"
    j = h.dynamic_join()
    assert h.sync_leader(j.member_id, j.generation).error == "NONE"
    assert h.send_sync("unknown", j.generation).value.error == "UNKNOWN_MEMBER_ID"
    assert h.send_sync(j.member_id, j.generation + 1).value.error == "ILLEGAL_GENERATION"


def test_sync_group_protocol_type_and_name_checks():
    """testSyncGroupReturnsAnErrorWhenProtocolTypeIsInconsistent / ...NameIsInconsistent /
    testSyncGroupSucceedWhenProtocolTypeAndNameAreConsistent (KIP-559)."""
    h = Harness()
    j = h.dynamic_join()
    bad_type = h.send_sync(j.member_id, 1, {}, protocol_type="connect").value
    bad_name = h.send_sync(j.member_id, 1, {}, protocol_name="roundrobin").value
    assert bad_type.error == bad_name.error == "INCONSISTENT_GROUP_PROTOCOL"
    ok = h.send_sync(j.member_id, 1, {}, protocol_type="consumer", protocol_name="range").value
    assert ok.error == "NONE" and ok.protocol_type == "consumer" and ok.protocol_name == "range"


def test_join_group_from_unchanged_follower_does_not_rebalance():
    """testJoinGroupFromUnchangedFollowerDoesNotRebalance."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    assert rejoin.generation == other.generation == 2
    assert rejoin.leader_id == other.leader_id == first.member_id
    f = h.send_join(other.member_id).value
    assert f.error == "NONE" and f.generation == 2
    assert h.state() == "CompletingRebalance"


def test_join_group_from_unchanged_leader_should_rebalance():
    """testJoinGroupFromUnchangedLeaderShouldRebalance."""
    h = Harness()
    j = h.stable_group()
    r = h.send_join(j.member_id).value
    assert r.error == "NONE" and r.generation != j.generation
    reasons = [e.reason for e in h.events if e.kind == "rebalance_prepared"]
    assert reasons[-1] == f"Leader {j.member_id} re-joining group during Stable; client reason: not provided"


def test_leader_failure_in_sync_group():
    """testLeaderFailureInSyncGroup: the leader never syncs; its session expires, the parked
    follower SyncGroup gets REBALANCE_IN_PROGRESS."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    fut = h.send_sync(other.member_id, rejoin.generation)
    assert not fut.done
    h.advance(SESSION + 100)
    assert fut.value.error == "REBALANCE_IN_PROGRESS"
    assert first.member_id not in h.group().members


def test_sync_group_follower_after_leader():
    """testSyncGroupFollowerAfterLeader."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    ls = h.sync_leader(first.member_id, 2, {first.member_id: b"\x00", other.member_id: b"\x01"})
    assert ls.error == "NONE" and ls.assignment == b"\x00"
    fs = h.send_sync(other.member_id, 2).value
    assert fs.error == "NONE" and fs.assignment == b"\x01"


def test_sync_group_leader_after_follower():
    """testSyncGroupLeaderAfterFollower: the follower's SyncGroup waits for the leader's."""
    h = Harness()
    first, rejoin, other = two_member_group(h)
    fut = h.send_sync(other.member_id, 2)
    assert not fut.done and h.group().members[other.member_id].awaiting_sync
    ls = h.sync_leader(first.member_id, 2, {first.member_id: b"\x00", other.member_id: b"\x01"})
    assert ls.error == "NONE" and ls.assignment == b"\x00"
    assert fut.value.error == "NONE" and fut.value.assignment == b"\x01"
    assert h.state() == "Stable"


# --------------------------------------------------------------------------------------------------
# pending members
# --------------------------------------------------------------------------------------------------


def test_second_member_partially_join_and_timeout():
    """testSecondMemberPartiallyJoinAndTimeout: a pending member that never rejoins expires after
    its session timeout; the Stable group is untouched."""
    h = Harness()
    j = h.stable_group()
    h.advance(100)
    group = h.group()
    r = h.send_join(require_known=True).value
    assert r.error == "MEMBER_ID_REQUIRED"
    assert len(group.pending_members) == 1 and h.state() == "Stable"
    h.advance(300)
    assert h.heartbeat(j.member_id, 1) == "NONE"
    h.advance(300)
    assert list(group.members) == [j.member_id]
    assert not group.pending_members and h.state() == "Stable"
    assert h.kinds().count("pending_member_expired") == 1


def setup_group_with_pending_member(h: Harness):
    """``setupGroupWithPendingMember``: 2 members rejoining in PreparingRebalance + 1 pending id."""
    j1 = h.dynamic_join()
    assert h.state() == "CompletingRebalance"
    assert h.sync_leader(j1.member_id, j1.generation).error == "NONE"
    second = h.send_join()
    first = h.send_join(j1.member_id)
    assert h.state() == "CompletingRebalance"
    assert h.sync_leader(j1.member_id, first.value.generation).error == "NONE"
    assert h.state() == "Stable"
    h.send_join(first.value.member_id)
    assert h.state() == "PreparingRebalance"
    pending = h.send_join(require_known=True, session=100).value
    assert len(h.group().pending_members) == 1
    h.send_join(second.value.member_id)
    assert h.state() == "PreparingRebalance" and len(h.group().pending_members) == 1
    return pending


def test_join_group_completion_when_pending_member_joins():
    """testJoinGroupCompletionWhenPendingMemberJoins."""
    h = Harness()
    pending = setup_group_with_pending_member(h)
    h.send_join(pending.member_id)
    assert h.state() == "CompletingRebalance"
    assert h.group().size == 3 and not h.group().pending_members


def test_join_group_completion_when_pending_member_times_out():
    """testJoinGroupCompletionWhenPendingMemberTimesOut."""
    h = Harness()
    setup_group_with_pending_member(h)
    h.advance(120)
    assert h.state() == "CompletingRebalance"
    assert h.group().size == 2 and not h.group().pending_members


def test_pending_members_leaves_group():
    """testPendingMembersLeavesGroup + testPendingMemberBatchLeaveGroup."""
    h = Harness()
    pending = setup_group_with_pending_member(h)
    r = h.leave([("", "unknown-instance", None), (pending.member_id, None, None)])
    assert r.error == "NONE"
    assert [e for _m, _i, e in r.members] == ["UNKNOWN_MEMBER_ID", "NONE"]
    assert h.state() == "CompletingRebalance"
    assert h.group().size == 2 and not h.group().static_members and not h.group().pending_members


# --------------------------------------------------------------------------------------------------
# DelayedSync (2.8.1+)
# --------------------------------------------------------------------------------------------------


def join_with_n_members(h: Harness, n: int):
    ids = [h.send_join(require_known=True).value.member_id for _ in range(n)]
    futures = [h.send_join(mid, require_known=True) for mid in ids]
    h.advance(INITIAL_DELAY + 1)
    h.advance(REBALANCE + 1)
    return [f.value for f in futures]


def test_rebalance_times_out_when_sync_request_is_not_received():
    """testRebalanceTimesOutWhenSyncRequestIsNotReceived."""
    h = Harness()
    results = join_with_n_members(h, 3)
    assert {r.error for r in results} == {"NONE"}
    h.advance(REBALANCE // 2)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    h.advance(REBALANCE // 2 + 1)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["UNKNOWN_MEMBER_ID"] * 3
    ev = next(e for e in h.events if e.kind == "sync_expired")
    assert set(ev.members) == {r.member_id for r in results} and not ev.unexpected


def test_rebalance_times_out_when_sync_request_is_not_received_from_followers():
    """testRebalanceTimesOutWhenSyncRequestIsNotReceivedFromFollowers."""
    h = Harness()
    results = join_with_n_members(h, 3)
    h.advance(REBALANCE // 2)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    leader = results[0]
    assert leader.leader_id == leader.member_id
    assignments = {r.member_id: b"" for r in results}
    ls = h.send_sync(
        leader.member_id, leader.generation, assignments, protocol_type="consumer", protocol_name="range"
    )
    assert ls.value.error == "NONE"
    assert h.heartbeat(leader.member_id, leader.generation) == "NONE"
    h.advance(REBALANCE // 2 + 1)
    assert h.heartbeat(leader.member_id, leader.generation) == "REBALANCE_IN_PROGRESS"
    assert [h.heartbeat(r.member_id, r.generation) for r in results[1:]] == ["UNKNOWN_MEMBER_ID"] * 2
    prepared = [e for e in h.events if e.kind == "rebalance_prepared"][-1]
    assert (
        prepared.reason
        == f"Removing Set({results[1].member_id}, {results[2].member_id}) on pending sync request expiration"
    )


def test_rebalance_times_out_when_sync_request_is_not_received_from_leaders():
    """testRebalanceTimesOutWhenSyncRequestIsNotReceivedFromLeaders."""
    h = Harness()
    results = join_with_n_members(h, 3)
    h.advance(REBALANCE // 2)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    futs = [
        h.send_sync(r.member_id, r.generation, protocol_type="consumer", protocol_name="range")
        for r in results[1:]
    ]
    assert not any(f.done for f in futs)
    h.advance(REBALANCE // 2 + 1)
    assert {f.value.error for f in futs} == {"REBALANCE_IN_PROGRESS"}
    assert h.heartbeat(results[0].member_id, results[0].generation) == "UNKNOWN_MEMBER_ID"
    assert [h.heartbeat(r.member_id, r.generation) for r in results[1:]] == ["REBALANCE_IN_PROGRESS"] * 2


def test_rebalance_does_not_time_out_when_all_sync_are_received():
    """testRebalanceDoesNotTimeOutWhenAllSyncAreReceived."""
    h = Harness()
    results = join_with_n_members(h, 3)
    h.advance(REBALANCE // 2)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    leader = results[0]
    assert (
        h.sync_leader(leader.member_id, leader.generation, {r.member_id: b"" for r in results}).error
        == "NONE"
    )
    assert [h.send_sync(r.member_id, r.generation).value.error for r in results[1:]] == ["NONE"] * 2
    assert h.c.timer_deadline("sync", GROUP) is None
    h.advance(REBALANCE // 2 + 1)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    h.advance(REBALANCE // 2)
    assert [h.heartbeat(r.member_id, r.generation) for r in results] == ["NONE"] * 3
    assert "sync_expired" not in h.kinds()


# --------------------------------------------------------------------------------------------------
# OffsetCommit
# --------------------------------------------------------------------------------------------------


def test_commit_offset_from_unknown_group_and_default_generation():
    """testCommitOffsetFromUnknownGroup (generation 1 -> ILLEGAL_GENERATION) and
    testCommitOffsetWithDefaultGeneration (generation -1 -> simple group, NONE)."""
    h = Harness()
    assert h.commit("memberId", 1) == "ILLEGAL_GENERATION"
    assert h.group() is None
    assert h.commit() == "NONE"
    assert h.state() == "Empty"


def test_commit_offsets_after_group_is_empty():
    """testCommitOffsetsAfterGroupIsEmpty: after the last member left, v0-style commits succeed."""
    h = Harness()
    j = h.stable_group()
    assert h.leave([(j.member_id, None, None)]).members == [(j.member_id, None, "NONE")]
    assert h.state() == "Empty"
    assert h.commit() == "NONE"


def test_commit_offset_in_completing_rebalance():
    """testCommitOffsetInCompletingRebalance / ...FromUnknownMemberId / ...FromIllegalGeneration."""
    h = Harness()
    j = h.dynamic_join()
    assert h.state() == "CompletingRebalance"
    assert h.commit(j.member_id, j.generation) == "REBALANCE_IN_PROGRESS"
    assert h.commit("unknown", j.generation) == "UNKNOWN_MEMBER_ID"
    assert h.commit(j.member_id, j.generation + 1) == "ILLEGAL_GENERATION"


def test_offset_commit_dead_group():
    """testOffsetCommitDeadGroup."""
    h = Harness()
    h.c.add_group(ClassicGroup("deadGroupId", DEAD))
    assert h.commit("memberId", 1, group_id="deadGroupId") == "COORDINATOR_NOT_AVAILABLE"


def test_manual_commit_offset_should_not_validate_member_id_and_instance_id():
    """testManualCommitOffsetShouldNotValidateMemberIdAndInstanceId (Empty group, generation -1)."""
    h = Harness()
    assert h.commit("", -1, instance_id="instance-id") == "NONE"
    assert h.commit("unknown", -1) == "NONE"
    assert h.state() == "Empty"


def test_commit_v0_style_on_non_empty_group_is_unknown_member():
    """validateOffsetCommit: generation -1 without member id on a non-Empty group."""
    h = Harness()
    h.stable_group()
    assert h.commit() == "UNKNOWN_MEMBER_ID"


# --------------------------------------------------------------------------------------------------
# LeaveGroup
# --------------------------------------------------------------------------------------------------


def test_leave_group_unknown_group_and_unknown_consumer():
    """testLeaveGroupUnknownGroup + testLeaveGroupUnknownConsumerExistingGroup."""
    h = Harness()
    r = h.leave([("memberId", None, None)])
    assert r.error == "NONE" and r.members == [("memberId", None, "UNKNOWN_MEMBER_ID")]
    h.dynamic_join()
    r = h.leave([("consumerId", None, None)])
    assert r.error == "NONE" and r.members == [("consumerId", None, "UNKNOWN_MEMBER_ID")]


def test_single_and_batch_leave_dead_group():
    """testSingleLeaveDeadGroup + testBatchLeaveDeadGroup."""
    h = Harness()
    h.c.add_group(ClassicGroup("deadGroupId", DEAD))
    assert h.leave([("memberId", None, None)], group_id="deadGroupId").error == "COORDINATOR_NOT_AVAILABLE"
    r = h.leave([("memberId", None, None), ("memberId", None, None)], group_id="deadGroupId")
    assert r.error == "COORDINATOR_NOT_AVAILABLE" and r.members == []


def test_valid_leave_group():
    """testValidLeaveGroup: the only member leaves during CompletingRebalance -> Empty, gen 2."""
    h = Harness()
    j = h.dynamic_join()
    r = h.leave([(j.member_id, None, "the consumer is being closed")])
    assert r.members == [(j.member_id, None, "NONE")]
    assert h.state() == "Empty" and h.group().generation == 2
    left = next(e for e in h.events if e.kind == "member_left")
    assert left.reason == "the consumer is being closed" and left.member_id == j.member_id


def test_leave_group_static_members():
    """testLeaveGroupWithFencedInstanceId, testLeaveGroupStaticMemberWithUnknownMemberId,
    testStaticMembersValidBatchLeaveGroup, testStaticMembersFencedInstanceBatchLeaveGroup,
    testStaticMembersUnknownInstanceBatchLeaveGroup, testStaticMembersUnknownGroupBatchLeaveGroup."""
    h = Harness()
    r = h.leave([("", LEADER, None), ("", FOLLOWER, None)])
    assert [e for *_x, e in r.members] == ["UNKNOWN_MEMBER_ID", "UNKNOWN_MEMBER_ID"]
    static_members_join_and_rebalance(h)
    r = h.leave([("some_member", LEADER, None)])
    assert r.members == [("some_member", LEADER, "FENCED_INSTANCE_ID")]
    r = h.leave([("", "unknown-instance", None), ("invalid-member", FOLLOWER, None), ("", LEADER, None)])
    assert [e for *_x, e in r.members] == ["UNKNOWN_MEMBER_ID", "FENCED_INSTANCE_ID", "NONE"]
    assert list(h.group().static_members) == [FOLLOWER]
    r = h.leave([("", FOLLOWER, None)])
    assert r.members == [("", FOLLOWER, "NONE")]
    assert h.group().size == 0


def test_leave_group_wrong_coordinator():
    """testLeaveGroupWrongCoordinator / testStaticMembersWrongCoordinatorBatchLeaveGroup: a group
    this broker no longer coordinates (unloaded) answers NOT_COORDINATOR."""
    h = Harness()
    h.stable_group()
    h.take(h.c.unload_group(h.t, GROUP))
    assert h.leave([("x", None, None)]).error == "NOT_COORDINATOR"
    assert h.send_join().value.error == "NOT_COORDINATOR"
    assert h.heartbeat("x", 1) == "NOT_COORDINATOR"


# --------------------------------------------------------------------------------------------------
# static membership
# --------------------------------------------------------------------------------------------------


def test_static_member_join_as_first_member_and_rejoin_with_explicit_unknown_member_id():
    """staticMemberJoinAsFirstMember + staticMemberReJoinWithExplicitUnknownMemberId."""
    h = Harness()
    j = h.static_join("", "groupInstanceId")
    assert j.error == "NONE" and j.member_id.startswith("groupInstanceId-")
    assert h.static_join("unknown_member", "groupInstanceId").error == "FENCED_INSTANCE_ID"
    fenced = next(e for e in h.events if e.kind == "static_member_fenced")
    assert fenced.old_member_id == j.member_id and fenced.operation == "join-group"


def test_static_member_fence_duplicate_rejoined_follower():
    """staticMemberFenceDuplicateRejoinedFollower: the old follower's parked JoinGroup is fenced
    when a duplicate instance joins with an unknown member id."""
    h = Harness()
    _leader_id, follower_id = static_members_join_and_rebalance(h)
    h.send_join()
    h.advance(1)
    assert h.state() == "PreparingRebalance"
    h.advance(1)
    old = h.send_join(follower_id, instance_id=FOLLOWER)
    h.advance(1)
    dup = h.send_join(instance_id=FOLLOWER)
    h.advance(1)
    assert old.value.error == "FENCED_INSTANCE_ID" and old.value.generation == -1
    assert h.state() == "PreparingRebalance"
    assert not dup.done
    replaced = next(e for e in h.events if e.kind == "static_member_replaced")
    assert replaced.old_member_id == follower_id and replaced.group_instance_id == FOLLOWER


def test_static_member_fence_duplicate_syncing_follower_after_member_id_changed():
    """staticMemberFenceDuplicateSyncingFollowerAfterMemberIdChanged."""
    h = Harness()
    leader_id, follower_id = static_members_join_and_rebalance(h)
    lf = h.send_join(leader_id, instance_id=LEADER)
    h.advance(1)
    assert h.state() == "PreparingRebalance"
    h.advance(1)
    of = h.send_join(follower_id, instance_id=FOLLOWER)
    h.advance(1)
    lj, oj = lf.value, of.value
    assert (lj.error, lj.generation, lj.member_id, lj.leader_id) == ("NONE", 2, leader_id, leader_id)
    assert {m[1] for m in lj.members} == {LEADER, FOLLOWER}
    assert (oj.error, oj.generation, oj.member_id, oj.leader_id, oj.members) == (
        "NONE",
        2,
        follower_id,
        leader_id,
        [],
    )
    assert h.state() == "CompletingRebalance"
    old_sync = h.send_sync(follower_id, 2, instance_id=None) if False else h.take(
        h.c.sync_group(h.t, GROUP, member_id=follower_id, generation=2, group_instance_id=FOLLOWER,
                       protocol_type="consumer", protocol_name="range")
    )  # fmt: skip
    dup = h.send_join(instance_id=FOLLOWER)
    h.advance(1)
    assert h.answers[old_sync.request_id][-1].error == "FENCED_INSTANCE_ID"
    assert h.state() == "PreparingRebalance"
    h.advance(INITIAL_DELAY + 1)
    h.advance(REBALANCE + 1)
    d = dup.value
    assert (d.error, d.generation, d.leader_id) == ("NONE", 3, d.member_id)
    assert [m[1] for m in d.members] == [FOLLOWER]
    assert h.state() == "CompletingRebalance"
    # the static leader never rejoined: its session expired, leadership moved to the new follower id
    expired = [e for e in h.events if e.kind == "member_session_expired"]
    assert [e.member_id for e in expired] == [leader_id]


def test_static_member_rejoin_with_known_member_id():
    """staticMemberRejoinWithKnownMemberId: same metadata in CompletingRebalance -> immediate answer."""
    h = Harness()
    j = h.static_join("", "groupInstanceId")
    r = h.send_join(j.member_id, instance_id="groupInstanceId")
    h.advance(1)
    assert r.value.error == "NONE" and h.state() == "CompletingRebalance"
    s = h.take(
        h.c.sync_group(h.t, GROUP, member_id=j.member_id, generation=r.value.generation,
                       group_instance_id="groupInstanceId", protocol_type="consumer", protocol_name="range",
                       assignments={j.member_id: b""})
    )  # fmt: skip
    assert s.reply.error == "NONE" and h.state() == "Stable"


def test_static_member_rejoin_with_leader_id_and_unknown_member_id():
    """staticMemberRejoinWithLeaderIdAndUnknownMemberId (both values of supportSkippingAssignment):
    a static leader rejoining with an unknown id in Stable does not rebalance; KIP-814 clients get
    the member list and skipAssignment, older ones the old leader id; the old id is fenced."""
    for skip in (True, False):
        h = Harness()
        leader_id, follower_id = static_members_join_and_rebalance(h)
        fut = h.send_join(instance_id=LEADER, protocols=SUPERSET, skip_ok=skip)
        h.advance(1)
        r = fut.value
        assert (r.error, r.generation) == ("NONE", 1)
        assert h.state() == "Stable"
        assert r.skip_assignment is skip
        if skip:
            assert {m[1] for m in r.members} == {LEADER, FOLLOWER} and r.leader_id == r.member_id
        else:
            assert r.members == [] and r.leader_id == leader_id
        assert "static_member_no_rebalance" in h.kinds() and "rebalance_prepared" not in h.kinds()[-3:]
        assert (
            h.static_join(leader_id, LEADER, clock_advance=1, protocols=SUPERSET).error
            == "FENCED_INSTANCE_ID"
        )
        old_sync = h.take(
            h.c.sync_group(
                h.t, GROUP, member_id=leader_id, generation=1, group_instance_id=LEADER, assignments={}
            )
        )
        assert old_sync.reply.error == "FENCED_INSTANCE_ID"
        assert h.send_sync(leader_id, 1, {}).value.error == "UNKNOWN_MEMBER_ID"


def test_static_member_rejoin_with_leader_id_and_known_member_id():
    """staticMemberRejoinWithLeaderIdAndKnownMemberId: the known static leader rejoins (rebalance);
    the follower's session (250 ms) expires meanwhile, the join completes with the leader only."""
    h = Harness()
    leader_id, _follower_id = static_members_join_and_rebalance(h, session=REBALANCE // 2)
    r = h.static_join(leader_id, LEADER, clock_advance=REBALANCE + 1, protocols=SUPERSET)
    assert FOLLOWER not in h.group().static_members
    assert (r.error, r.generation, r.member_id, r.leader_id) == ("NONE", 2, leader_id, leader_id)
    assert [m[1] for m in r.members] == [LEADER]
    assert h.state() == "CompletingRebalance"


def test_static_member_rejoin_with_leader_id_and_unexpected_dead_and_empty_group():
    """staticMemberRejoinWithLeaderIdAndUnexpectedDeadGroup / ...EmptyGroup."""
    from coordinator_core.states import EMPTY, PREPARING_REBALANCE

    h = Harness()
    leader_id, _ = static_members_join_and_rebalance(h)
    h.group().transition_to(DEAD)
    assert h.static_join(leader_id, LEADER, clock_advance=1).error == "COORDINATOR_NOT_AVAILABLE"
    h2 = Harness()
    leader_id, _ = static_members_join_and_rebalance(h2)
    h2.group().transition_to(PREPARING_REBALANCE)
    h2.group().transition_to(EMPTY)
    assert h2.static_join(leader_id, LEADER, clock_advance=1).error == "UNKNOWN_MEMBER_ID"
    assert "rejoin_unexpected_state" in h2.kinds()


def test_static_member_rejoin_with_follower_id_and_change_of_protocol():
    """staticMemberRejoinWithFollowerIdAndChangeOfProtocol: the follower rejoins with a changed
    protocol; the absent static leader is kept but leadership moves to the follower."""
    h = Harness()
    leader_id, follower_id = static_members_join_and_rebalance(h, session=SESSION * 2)
    r = h.static_join(follower_id, FOLLOWER, clock_advance=SESSION + 1, protocols=(("roundrobin", b""),))
    assert r.member_id == follower_id
    group = h.group()
    assert LEADER in group.static_members and group.is_leader(follower_id)
    assert (r.error, r.generation, r.leader_id) == ("NONE", 2, follower_id)
    assert {m[1] for m in r.members} == {LEADER, FOLLOWER}
    assert h.state() == "CompletingRebalance"


def test_static_member_rejoin_with_unknown_member_id_and_change_of_protocol_with_selected_protocol_changed():
    """staticMemberRejoinWithUnknownMemberIdAndChangeOfProtocolWithSelectedProtocolChanged."""
    h = Harness()
    _leader_id, follower_id = static_members_join_and_rebalance(h)
    assert h.group().select_protocol() == "range"
    r = h.static_join("", FOLLOWER, clock_advance=SESSION + 1, protocols=(("roundrobin", b""),))
    assert (r.error, r.generation) == ("NONE", 2)
    assert h.group().is_leader(r.member_id) and r.member_id != follower_id
    assert r.protocol_name == "roundrobin"
    prepared = [e for e in h.events if e.kind == "rebalance_prepared"][-1]
    assert prepared.reason.startswith(
        f"Group's selectedProtocol will change because static member {r.member_id}"
    )


def test_static_member_rejoin_with_unknown_member_id_and_change_of_protocol_while_select_protocol_unchanged():
    """staticMemberRejoinWithUnknownMemberIdAndChangeOfProtocolWhileSelectProtocolUnchanged."""
    h = Harness()
    _leader_id, follower_id = static_members_join_and_rebalance(h)
    r = h.static_join("", FOLLOWER, clock_advance=1, protocols=(("range", b""),))
    assert (r.error, r.generation, r.members) == ("NONE", 1, [])
    assert h.state() == "Stable" and r.member_id != follower_id
    assert (
        h.static_join(follower_id, FOLLOWER, clock_advance=1, protocols=(("range", b""),)).error
        == "FENCED_INSTANCE_ID"
    )
    old = h.take(h.c.sync_group(h.t, GROUP, member_id=follower_id, generation=1, group_instance_id=FOLLOWER))
    assert old.reply.error == "FENCED_INSTANCE_ID"
    new = h.take(h.c.sync_group(h.t, GROUP, member_id=r.member_id, generation=1, group_instance_id=FOLLOWER))
    assert new.reply.error == "NONE" and new.reply.assignment == b""


def test_static_member_rejoin_with_updated_session_and_rebalance_timeouts_and_persist_change():
    """staticMemberRejoinWithUpdatedSessionAndRebalanceTimeoutsAndPersistChange (3.4+)."""
    h = Harness()
    static_members_join_and_rebalance(h)
    f = h.static_join(
        "", FOLLOWER, clock_advance=1, protocols=SUPERSET, session=2 * SESSION, rebalance=2 * REBALANCE
    )
    assert (f.error, f.generation, f.members) == ("NONE", 1, [])
    lj = h.static_join(
        "", LEADER, clock_advance=1, protocols=SUPERSET, session=2 * SESSION, rebalance=2 * REBALANCE
    )
    assert (lj.error, lj.generation, lj.skip_assignment, lj.leader_id) == ("NONE", 1, True, lj.member_id)
    for m in h.group().members.values():
        assert (m.session_timeout_ms, m.rebalance_timeout_ms) == (2 * SESSION, 2 * REBALANCE)


def test_static_member_rejoin_with_known_leader_id_to_trigger_rebalance_and_follower_with_change_of_protocol():
    """staticMemberRejoinWithKnownLeaderIdToTriggerRebalanceAndFollowerWithChangeofProtocol."""
    h = Harness()
    leader_id, follower_id = static_members_join_and_rebalance(h)
    lf = h.send_join(leader_id, instance_id=LEADER, protocols=SUPERSET)
    ff = h.send_join(follower_id, instance_id=FOLLOWER, protocols=SUPERSET)
    h.advance(1)
    assert (lf.value.generation, lf.value.leader_id, ff.value.generation) == (2, leader_id, 2)
    assert {m[1] for m in lf.value.members} == {LEADER, FOLLOWER} and ff.value.members == []
    changed = h.send_join(follower_id, instance_id=FOLLOWER, protocols=(("range", b""),))
    assert h.state() == "PreparingRebalance"
    h.advance(REBALANCE + 1)
    c = changed.value
    assert (c.error, c.generation, c.leader_id, c.member_id) == ("NONE", 3, follower_id, follower_id)
    assert [m[1] for m in c.members] == [FOLLOWER]
    # the absent static leader was not dropped for not rejoining but by its session timeout
    expired = [e for e in h.events if e.kind == "member_session_expired"]
    assert [e.group_instance_id for e in expired] == [LEADER]
    assert LEADER not in h.group().static_members


# --------------------------------------------------------------------------------------------------
# initial rebalance delay (DelayedJoin.scala InitialDelayedJoin)
# --------------------------------------------------------------------------------------------------


def test_should_delay_initial_rebalance_by_group_initial_rebalance_delay_on_empty_group():
    """shouldDelayInitialRebalanceByGroupInitialRebalanceDelayOnEmptyGroup."""
    h = Harness()
    fut = h.send_join()
    h.advance(INITIAL_DELAY // 2)
    assert not fut.done
    h.advance(INITIAL_DELAY // 2 + 1)
    assert fut.value.error == "NONE"


def test_should_reset_rebalance_delay_when_new_member_joins_group_in_initial_rebalance():
    """shouldResetRebalanceDelayWhenNewMemberJoinsGroupInInitialRebalance."""
    h = Harness()
    rebalance = INITIAL_DELAY * 3
    first = h.send_join(rebalance=rebalance)
    h.advance(INITIAL_DELAY - 1)
    second = h.send_join(rebalance=rebalance)
    h.advance(2)
    h.advance(INITIAL_DELAY // 2 + 1)
    assert not first.done and not second.done
    h.advance(INITIAL_DELAY // 2)
    assert first.value.error == second.value.error == "NONE"
    # MockTimer: d0=50 fires at t=51 and is extended by min(50, remaining 100) -> completes at t=102
    assert h.transitions[-1][0] == 102


def test_should_delay_rebalance_upto_rebalance_timeout():
    """shouldDelayRebalanceUptoRebalanceTimeout."""
    h = Harness()
    rebalance = INITIAL_DELAY * 2
    first = h.send_join(rebalance=rebalance)
    second = h.send_join(rebalance=rebalance)
    h.advance(INITIAL_DELAY + 1)
    third = h.send_join(rebalance=rebalance)
    h.advance(INITIAL_DELAY)
    assert not (first.done or second.done or third.done)
    h.advance(1)
    assert first.value.error == second.value.error == third.value.error == "NONE"
    assert first.value.generation == 1 and len(first.value.members) == 3
