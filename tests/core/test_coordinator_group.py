"""``ClassicGroup``/``Member`` data rules ported from Kafka's ``GroupMetadataTest.scala`` (branch 3.9)
and ``ClassicGroupTest.java`` (trunk), plus timer rules of the coordinator that are easiest to see
with the broker's own timer semantics (fires at ``now >= deadline``)."""

from __future__ import annotations

import pytest

from coordinator_core.config import CoordinatorConfig
from coordinator_core.coordinator import GroupCoordinator
from coordinator_core.group import ClassicGroup, Member
from coordinator_core.states import COMPLETING_REBALANCE, EMPTY, PREPARING_REBALANCE, STABLE

RR = (("range", b""), ("roundrobin", b""))
RR_REV = (("roundrobin", b""), ("range", b""))


def member(mid: str, protocols=RR, instance: str | None = None) -> Member:
    return Member(mid, instance, "clientId", "clientHost", 60000, 10000, "consumer", protocols)


def test_select_protocol():
    """testSelectProtocol: preference order votes, majority wins."""
    g = ClassicGroup("groupId")
    g.add(member("memberId"))
    assert g.select_protocol() == "range"
    g.add(member("otherMemberId", RR_REV))
    assert g.select_protocol() in {"range", "roundrobin"}
    assert g.select_protocol() == "range"  # tie: first protocol to reach the maximum (insertion order)
    g.add(member("lastMemberId", RR_REV))
    assert g.select_protocol() == "roundrobin"


def test_select_protocol_raises_if_no_members():
    """testSelectProtocolRaisesIfNoMembers (a model bug, so it may raise)."""
    with pytest.raises(ValueError, match="Cannot select protocol"):
        ClassicGroup("groupId").select_protocol()


def test_select_protocol_chooses_compatible_protocol():
    """testSelectProtocolChoosesCompatibleProtocol."""
    g = ClassicGroup("groupId")
    g.add(member("memberId"))
    g.add(member("otherMemberId", (("roundrobin", b""), ("blah", b""))))
    assert g.select_protocol() == "roundrobin"


def test_supports_protocols():
    """testSupportsProtocols."""
    g = ClassicGroup("groupId")
    assert g.supports_protocols("consumer", ["roundrobin", "range"])
    g.add(member("memberId"))
    g.transition_to(PREPARING_REBALANCE)
    assert g.supports_protocols("consumer", ["roundrobin", "foo"])
    assert g.supports_protocols("consumer", ["range", "foo"])
    assert not g.supports_protocols("consumer", ["foo", "bar"])
    g.add(member("otherMemberId", (("roundrobin", b""), ("blah", b""))))
    assert g.supports_protocols("consumer", ["roundrobin", "foo"])
    assert not g.supports_protocols("invalid_type", ["roundrobin", "foo"])
    assert not g.supports_protocols("consumer", ["range", "foo"])


def test_init_next_generation_and_empty_group():
    """testInitNextGeneration + testInitNextGenerationEmptyGroup + testNewGenerationClearsPendingSyncMembers."""
    g = ClassicGroup("groupId")
    g.add(member("memberId", (("roundrobin", b""),)), awaiting_join=True)
    g.transition_to(PREPARING_REBALANCE)
    g.pending_sync_members["memberId"] = None
    g.init_next_generation()
    assert (g.generation, g.protocol_name, g.state) == (1, "roundrobin", COMPLETING_REBALANCE)
    assert not g.pending_sync_members
    e = ClassicGroup("groupId")
    e.transition_to(PREPARING_REBALANCE)
    e.init_next_generation()
    assert (e.generation, e.protocol_name, e.state) == (1, None, EMPTY)


def test_update_member():
    """testUpdateMember: protocols and timeouts replaced, protocol counters follow."""
    g = ClassicGroup("groupId")
    m = member("memberId")
    g.add(m)
    g.update_member(m, (("roundrobin", b"x"),), 2000, 3000, awaiting_join=True)
    assert (m.protocols, m.rebalance_timeout_ms, m.session_timeout_ms) == (
        (("roundrobin", b"x"),),
        2000,
        3000,
    )
    assert g.supported_protocols == {"roundrobin": 1} and g.num_awaiting_join == 1


def test_replace_group_instance():
    """testReplaceGroupInstance: the member is re-keyed, leadership and the static mapping move."""
    g = ClassicGroup("groupId")
    g.add(member("memberId", instance="groupInstanceId"))
    assert g.is_leader("memberId")
    m = g.replace_static_member("groupInstanceId", "memberId", "newMemberId")
    assert m.member_id == "newMemberId" and list(g.members) == ["newMemberId"]
    assert g.is_leader("newMemberId") and g.static_members == {"groupInstanceId": "newMemberId"}
    with pytest.raises(KeyError):  # testReplaceGroupInstanceWithNonExistingMember
        g.replace_static_member("groupInstanceId", "memberId", "x")


def test_pending_member_and_pending_sync_bookkeeping():
    """testRemovalFromPendingAfterMemberIsStable, testRemovalFromPendingWhenMemberIsRemoved,
    testRemovalFromPendingSyncWhenMemberIsRemoved, testCannotAddStaticMemberIfAlreadyPresent."""
    g = ClassicGroup("groupId")
    g.pending_members["memberId"] = None
    g.add(member("memberId"))
    assert not g.pending_members
    g.pending_members["other"] = None
    g.remove("other")
    assert not g.pending_members
    g.pending_sync_members["memberId"] = None
    g.remove("memberId")
    assert not g.pending_sync_members and g.leader_id is None
    g.add(member("a", instance="i"))
    with pytest.raises(ValueError):
        g.add(member("b", instance="i"))


def test_leader_falls_back_to_first_remaining_member():
    g = ClassicGroup("groupId")
    for mid in ("a", "b", "c"):
        g.add(member(mid))
    g.remove("a")
    assert g.leader_id == "b"


def test_initial_delay_recurrence_d_k_remaining_k():
    """InitialDelayedJoin: d0 = D, r0 = max(R - D, 0); while members keep arriving the delay is
    re-armed with d_{k+1} = min(D, r_k), r_{k+1} = max(r_k - d_k, 0); completes when r_k == 0 or no
    member arrived. D=3000, R=10000: fires at 3000 (r=7000), 6000 (r=4000), 9000 (r=1000) and
    completes at 10000 although members kept joining."""
    c = GroupCoordinator(CoordinatorConfig())
    c.join_group(0, "g", client_id="a", rebalance_timeout_ms=10000, require_known_member_id=False)
    expected = [(3000, 6000), (6000, 9000), (9000, 10000)]
    for n, (fire, next_deadline) in enumerate(expected, start=1):
        c.join_group(
            fire - 1, "g", client_id=f"m{n}", rebalance_timeout_ms=10000, require_known_member_id=False
        )
        out = c.advance_to(fire)
        assert out.responses == [] and c.timer_deadline("join", "g") == next_deadline
    c.join_group(9999, "g", client_id="late", rebalance_timeout_ms=10000, require_known_member_id=False)
    done = c.advance_to(10000)
    assert len(done.responses) == 5 and {r.generation for r in done.responses} == {1}
    assert c.group("g").state is COMPLETING_REBALANCE


def test_member_idle_after_join_response_expires():
    """After the join phase every member's deadline is reset to its session timeout; a member that
    neither heartbeats nor syncs is removed and the group rebalances again."""
    c = GroupCoordinator(CoordinatorConfig(min_session_timeout_ms=10, initial_rebalance_delay_ms=0))
    a = c.join_group(
        0,
        "g",
        client_id="a",
        session_timeout_ms=100,
        rebalance_timeout_ms=1000,
        require_known_member_id=False,
    )
    a_id = c.group("g").leader_id
    assert a.responses[0].generation == 1
    c.sync_group(1, "g", member_id=a_id, generation=1, assignments={})
    b = c.join_group(
        2,
        "g",
        client_id="b",
        session_timeout_ms=100,
        rebalance_timeout_ms=1000,
        require_known_member_id=False,
    )
    assert b.reply is None and c.group("g").state is PREPARING_REBALANCE
    c.join_group(50, "g", member_id=a_id, session_timeout_ms=100, rebalance_timeout_ms=1000)
    assert c.group("g").state is COMPLETING_REBALANCE  # everyone rejoined
    # now a is not heartbeating and not awaiting anything: its session (100 ms) expires
    out = c.advance_to(151)
    assert [e.kind for e in out.events][:2] == ["member_session_expired", "rebalance_prepared"]


def test_awaiting_join_member_is_kept_past_session_timeout():
    """DelayedHeartbeat/hasSatisfiedHeartbeat: a (non-new) member parked in JoinGroup is kept when its
    deadline passes; no new deadline is armed until the join phase completes."""
    c = GroupCoordinator(CoordinatorConfig(min_session_timeout_ms=10, initial_rebalance_delay_ms=0))
    c.join_group(
        0,
        "g",
        client_id="a",
        session_timeout_ms=100,
        rebalance_timeout_ms=1000,
        require_known_member_id=False,
    )
    a_id = c.group("g").leader_id
    c.sync_group(1, "g", member_id=a_id, generation=1, assignments={})
    c.join_group(
        10,
        "g",
        client_id="b",
        session_timeout_ms=100,
        rebalance_timeout_ms=1000,
        require_known_member_id=False,
    )
    c.join_group(20, "g", member_id=a_id, session_timeout_ms=100, rebalance_timeout_ms=1000)
    # b (new) is awaiting join too -> join completed immediately; instead park a alone:
    g = c.group("g")
    assert g.state is COMPLETING_REBALANCE
    b_id = next(m for m in g.members if m != a_id)
    c.sync_group(21, "g", member_id=a_id, generation=2, assignments={})
    c.sync_group(21, "g", member_id=b_id, generation=2)
    assert g.state is STABLE
    c.join_group(30, "g", member_id=a_id, session_timeout_ms=100, rebalance_timeout_ms=1000)  # leader rejoin
    assert g.state is PREPARING_REBALANCE and g.members[a_id].awaiting_join
    # both deadlines are 21 + 100: a (parked in JoinGroup) is kept, b (idle) is removed, which
    # completes the join phase with a alone
    out = c.advance_to(150)
    expired = [e.member_id for e in out.events if e.kind == "member_session_expired"]
    assert expired == [b_id] and a_id in g.members
    assert g.state is COMPLETING_REBALANCE and g.generation == 3
