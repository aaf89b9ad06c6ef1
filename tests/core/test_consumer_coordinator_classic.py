"""Classic-protocol members inside a consumer group and the online downgrade: cases of Kafka's
``GroupMetadataManagerTest`` (trunk Oct 2024 = the 4.0 behaviour), each naming the Kafka test it
transcribes, run for every supported version. Protocol metadata is a
:class:`~coordinator_core.consumer.classic.ConsumerProtocolSubscription` where Kafka serialises a
``ConsumerProtocolSubscription``; assignments are ``{topic: partitions}`` where Kafka serialises a
``ConsumerProtocolAssignment``."""

from __future__ import annotations

import pytest

from coordinator_core.consumer.records import (
    ClassicGroupMetadataRecord,
    CurrentMemberAssignmentRecord,
    GroupMetadataRecord,
    MemberMetadataRecord,
    PartitionMetadataRecord,
    TargetAssignmentMemberRecord,
    TargetAssignmentMetadataRecord,
    current_assignment_record,
    member_record,
)
from coordinator_core.consumer.state import ClassicMemberMetadata
from coordinator_core.states import STABLE
from tests.core.consumer_coordinator_ctx import CLIENT_HOST, CLIENT_ID, Ctx, classic, member, mk, sub

VERSIONS = ["4.0", "4.1", "4.2"]
G = "group-id"


def C(v, topics, **cfg):
    """``GroupMetadataManagerTestContext``: the migration policy is DISABLED unless the test sets it."""
    cfg.setdefault("migration_policy", "disabled")
    return Ctx(v, topics, **cfg)


def tombstones(mid):
    return [CurrentMemberAssignmentRecord(G, mid, deleted=True), TargetAssignmentMemberRecord(G, mid, deleted=True),
            MemberMetadataRecord(G, mid, deleted=True)]  # fmt: skip


def bump(ctx, epoch, meta):
    from coordinator_core.consumer.target import metadata_hash

    if ctx.c.rules.metadata_hash_epoch_record:
        return [GroupMetadataRecord(G, epoch, metadata_hash(meta))]
    return [GroupMetadataRecord(G, epoch)]


@pytest.mark.parametrize("v", VERSIONS)
def test_join_over_max_size(v):  # testJoiningConsumerGroupThrowsExceptionIfGroupOverMaxSize
    ctx = C(v, {"foo": 2}, max_size=1)
    ctx.build_group(G, 10, [member("m", 10, 10, {}, subs=("foo",))], {}, 10)
    out = ctx.join(G, protocols=(("range", b""),))
    assert out.reply.error == "GROUP_MAX_SIZE_REACHED" and out.records == []


@pytest.mark.parametrize("v", VERSIONS)
def test_join_protocol_not_supported(v):  # testJoiningConsumerGroupThrowsExceptionIfProtocolIsNotSupported
    ctx = C(v, {"foo": 2})
    m = classic(member("m", 10, 10, {}, subs=("foo",)), protocols=(("roundrobin", b""),))
    ctx.build_group(G, 10, [m], {}, 10)
    assert ctx.join(G, protocols=sub(["foo"])).reply.error == "INCONSISTENT_GROUP_PROTOCOL"
    assert ctx.join(G, protocol_type="connect", protocols=sub(["foo"])).reply.error == "INCONSISTENT_GROUP_PROTOCOL"


@pytest.mark.parametrize("v", VERSIONS)
def test_join_new_dynamic_member(v):  # testJoiningConsumerGroupWithNewDynamicMember
    ctx = C(v, {"foo": 2, "bar": 1})
    m = member("m", 10, 10, mk(foo=[0, 1]), subs=("foo",))
    ctx.build_group(G, 10, [m], {"m": mk(foo=[0, 1])}, 10)
    first = ctx.join(G, protocols=sub(["foo", "bar"]))
    assert first.reply.error == "MEMBER_ID_REQUIRED" and first.records == []
    new = first.reply.member_id
    assert new
    ctx.prepared = {"m": mk(foo=[0]), new: mk(bar=[0])}
    out = ctx.join(G, member_id=new, protocols=sub(["foo", "bar"]))
    exp = classic(member(new, 11, 0, mk(bar=[0]), subs=("foo", "bar"), rebalance_timeout_ms=500, assignor=None),
                  session_timeout_ms=500, protocols=sub(["foo", "bar"]))  # fmt: skip
    meta = {"bar": 1, "foo": 2}
    head = [member_record(G, exp)]
    if not ctx.c.rules.metadata_hash_epoch_record:
        head.append(PartitionMetadataRecord(G, tuple(sorted(meta.items()))))
    n = len(head) + len(bump(ctx, 11, meta))
    assert out.records[:n] == head + bump(ctx, 11, meta)
    targets = [TargetAssignmentMemberRecord(G, "m", mk(foo=[0])), TargetAssignmentMemberRecord(G, new, mk(bar=[0]))]
    assert sorted(out.records[n : n + 2], key=repr) == sorted(targets, key=repr)  # Kafka: unordered
    assert out.records[n + 2 :] == [TargetAssignmentMetadataRecord(G, 11), current_assignment_record(G, exp)]
    r = out.reply
    assert (r.error, r.member_id, r.generation, r.protocol_type, r.protocol_name) == ("NONE", new, 11, "consumer", "range")
    assert ctx.timeout("session", G, new) == 500 and ctx.timeout("sync", G, new) == 500


def _stable_classic(ctx, rebalance=45000):
    """member 1 (classic) and member 2 (consumer), both at epoch 10 (the downgrade tests' group)."""
    owned1 = ["foo-0", "foo-1", "foo-2", "bar-0", "bar-1"]
    m1 = classic(member("m1", 10, 9, mk(foo=[0, 1, 2], bar=[0, 1]), rebalance_timeout_ms=rebalance),
                 protocols=sub(["foo", "bar"], owned1))  # fmt: skip
    m2 = member("m2", 10, 9, mk(foo=[3, 4, 5], bar=[2]), rebalance_timeout_ms=rebalance)
    ctx.build_group(G, 10, [m1, m2], {"m1": m1.assigned_partitions, "m2": m2.assigned_partitions}, 10)
    return m1, m2


@pytest.mark.parametrize("v", VERSIONS)
def test_sync_returns_assignment(v):  # testClassicGroupSyncToConsumerGroupWithAllConsumerProtocolVersions
    ctx = C(v, {"foo": 6, "bar": 3}, migration_policy="downgrade")
    _stable_classic(ctx)
    out = ctx.sync(G, member_id="m1", generation=10, protocol_type="consumer", protocol_name="range")
    r = out.reply
    assert (r.error, r.protocol_type, r.protocol_name, r.assignment) == ("NONE", "consumer", "range", mk(foo=[0, 1, 2], bar=[0, 1]))
    assert out.records == [] and ctx.timeout("session", G, "m1") == 5000


@pytest.mark.parametrize("v", VERSIONS)
def test_sync_errors(v):
    # testClassicGroupSyncToConsumerGroupWithUnknownMemberId / ...WithFencedInstanceId /
    # ...WithInconsistentGroupProtocol / ...WithIllegalGeneration
    ctx = C(v, {"foo": 6, "bar": 3})
    m1 = classic(member("m1", 10, 9, {}, instance="i1"))
    ctx.build_group(G, 10, [m1, member("m2", 10, 9, {})], {}, 10)
    cases = [
        (dict(member_id="unknown", generation=10), "UNKNOWN_MEMBER_ID"),
        (dict(member_id="unknown", generation=10, group_instance_id="unknown-i"), "UNKNOWN_MEMBER_ID"),
        (dict(member_id="m2", generation=10), "UNKNOWN_MEMBER_ID"),  # not a classic member
        (dict(member_id="other", generation=10, group_instance_id="i1"), "FENCED_INSTANCE_ID"),
        (dict(member_id="m1", generation=10, protocol_type="connect"), "INCONSISTENT_GROUP_PROTOCOL"),
        (dict(member_id="m1", generation=10, protocol_name="roundrobin"), "INCONSISTENT_GROUP_PROTOCOL"),
        (dict(member_id="m1", generation=9), "ILLEGAL_GENERATION"),
    ]
    for kw, err in cases:
        assert ctx.sync(G, **kw).reply.error == err, kw
    assert ctx.sync("nope", member_id="m1", generation=10).reply.error == "UNKNOWN_MEMBER_ID"


@pytest.mark.parametrize("v", VERSIONS)
def test_sync_rebalance_in_progress(v):  # testClassicGroupSyncToConsumerGroupRebalanceInProgress
    ctx = C(v, {"foo": 6}, migration_policy="downgrade")
    ctx.build_group(G, 11, [classic(member("m", 10, 0, {}, subs=("foo",), rebalance_timeout_ms=10000))], {}, 0)
    out = ctx.sync(G, member_id="m", generation=10, protocol_type="consumer", protocol_name="range")
    assert out.reply.error == "REBALANCE_IN_PROGRESS" and ctx.timeout("join", G, "m") == 10000


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_maintains_session(v):  # testClassicGroupHeartbeatToConsumerGroupMaintainsSession
    ctx = C(v, {"foo": 6})
    ctx.build_group(G, 10, [classic(member("m", 10, 0, {}, subs=("foo",)))], {}, 10)
    for _ in range(3):
        r = ctx.classic_hb(G, member_id="m", generation=10)
        assert r.reply.error == "NONE" and ctx.timeout("session", G, "m") == 5000
        assert ctx.sleep(2500).records == []


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_rebalance_in_progress(v):  # testClassicGroupHeartbeatToConsumerGroupRebalanceInProgress
    ctx = C(v, {"foo": 6, "bar": 3})
    m1 = classic(member("m1", 9, 0, {}, subs=("foo",), rebalance_timeout_ms=10000))
    m2 = classic(member("m2", 10, 0, {}, subs=("foo",), rebalance_timeout_ms=10000, state="UNREVOKED_PARTITIONS",
                        pending=mk(foo=[0])))  # fmt: skip
    m3 = classic(member("m3", 10, 0, mk(bar=[0]), subs=("foo",), rebalance_timeout_ms=10000,
                        state="UNRELEASED_PARTITIONS"))  # fmt: skip
    ctx.build_group(G, 10, [m1, m2, m3], {"m3": mk(bar=[0, 1, 2])}, 0)
    for mid in ("m1", "m2", "m3"):
        out = ctx.classic_hb(G, member_id=mid, generation=9 if mid == "m1" else 10)
        assert (out.records, out.reply.error) == ([], "REBALANCE_IN_PROGRESS")
        assert ctx.timeout("session", G, mid) == 5000 and ctx.timeout("join", G, mid) == 10000


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_errors(v):
    # testClassicGroupHeartbeatToConsumerWithUnknownMember / ...WithFencedInstanceId /
    # ...WithIllegalGenerationId / ...WithMemberNotUsingClassicProtocol
    ctx = C(v, {"foo": 6})
    ctx.build_group(G, 10, [classic(member("member-id", 10, 0, {}, instance="instance-id"), protocols=()),
                            member("consumer", 10, 0, {})], {}, 10)  # fmt: skip
    cases = [
        (dict(member_id="unknown-member-id", generation=10), "UNKNOWN_MEMBER_ID"),
        (dict(member_id="unknown-member-id", group_instance_id="unknown-instance-id", generation=10), "UNKNOWN_MEMBER_ID"),
        (dict(member_id="unknown-member-id", group_instance_id="instance-id", generation=10), "FENCED_INSTANCE_ID"),
        (dict(member_id="member-id", generation=9), "ILLEGAL_GENERATION"),
        (dict(member_id="consumer", generation=10), "UNKNOWN_MEMBER_ID"),
    ]
    for kw, err in cases:
        out = ctx.classic_hb(G, **kw)
        assert (out.reply.error, out.records) == (err, []), kw
    assert ctx.classic_hb("nope", member_id="m", generation=1).reply.error == "UNKNOWN_MEMBER_ID"


@pytest.mark.parametrize("v", VERSIONS)
def test_fenced_on_session_timeout(v):  # testConsumerGroupMemberUsingClassicProtocolFencedWhenSessionTimeout
    ctx = C(v, {})  # Kafka's test has no metadata image: no subscription metadata to change
    ctx.build_group(G, 10, [classic(member("m", 10, 0, {}, subs=("foo",)))], {}, 10)
    ctx.classic_hb(G, member_id="m", generation=10)
    out = ctx.sleep(5001)
    assert out.records == tombstones("m") + bump(ctx, 11, {}) and out.kinds()[0] == "fenced_session"
    assert out.downgraded is None and ctx.group(G).members == {}


@pytest.mark.parametrize("v", VERSIONS)
def test_fenced_on_join_timeout(v):  # testConsumerGroupMemberUsingClassicProtocolFencedWhenJoinTimeout
    ctx = C(v, {})
    ctx.build_group(G, 10, [classic(member("m", 9, 0, {}, subs=("foo",), rebalance_timeout_ms=500))], {}, 10)
    assert ctx.classic_hb(G, member_id="m", generation=9).reply.error == "REBALANCE_IN_PROGRESS"
    assert ctx.timeout("session", G, "m") == 5000 and ctx.timeout("join", G, "m") == 500
    out = ctx.sleep(501)
    assert out.records == tombstones("m") + bump(ctx, 11, {}) and out.kinds()[0] == "fenced_classic_join"


@pytest.mark.parametrize("v", VERSIONS)
def test_batch_leave(v):  # testConsumerGroupMemberUsingClassicProtocolBatchLeaveGroup
    ctx = C(v, {"foo": 2, "bar": 1})
    kw = dict(rebalance_timeout_ms=45000)
    m1 = classic(member("m1", 10, 9, mk(foo=[0]), **kw), protocols=sub(["foo", "bar"], ["foo-0"]))
    m2 = classic(member("m2", 9, 8, mk(foo=[1]), instance="i2", **kw), protocols=sub(["foo", "bar"], ["foo-1"]))
    m3 = member("m3", 10, 9, mk(bar=[0]), instance="i3", **kw)
    ctx.build_group(G, 10, [m1, m2, m3], {"m1": mk(foo=[0]), "m2": mk(foo=[1]), "m3": mk(bar=[0])}, 10)
    j = ctx.join(G, member_id="m1", rebalance_timeout_ms=45000, session_timeout_ms=5000,
                 protocols=sub(["foo", "bar"], ["foo-0"]))  # fmt: skip
    assert j.reply.error == "NONE" and j.records == []
    assert ctx.timeout("sync", G, "m1") == 45000 and ctx.timeout("session", G, "m1") == 5000
    ctx.classic_hb(G, member_id="m2", generation=9)
    assert ctx.timeout("join", G, "m2") == 45000 and ctx.timeout("session", G, "m2") == 5000
    out = ctx.leave(G, [("m1", None, None), ("", "i2", None), ("m3", "i3", None), ("unknown-member-id", None, None),
                        ("", "unknown-instance-id", None), ("unknown-member-id", "i3", None)])  # fmt: skip
    assert out.reply.error == "NONE"
    assert out.reply.members == [
        ("m1", None, "NONE"), ("m2", "i2", "NONE"), ("m3", "i3", "UNKNOWN_MEMBER_ID"),
        ("unknown-member-id", None, "UNKNOWN_MEMBER_ID"), ("", "unknown-instance-id", "UNKNOWN_MEMBER_ID"),
        ("unknown-member-id", "i3", "FENCED_INSTANCE_ID"),
    ]  # fmt: skip
    assert out.records == tombstones("m1") + tombstones("m2") + bump(ctx, 11, {"bar": 1, "foo": 2})
    assert [ctx.timeout(k, G, m) for k, m in [("session", "m1"), ("sync", "m1"), ("session", "m2"), ("join", "m2")]] == [None] * 4


@pytest.mark.parametrize("v", VERSIONS)
def test_leave_without_valid_member(v):  # testClassicGroupLeaveToConsumerGroupWithoutValidLeaveGroupMember
    ctx = C(v, {"foo": 6})
    ctx.build_group(G, 10, [member("m", 10, 9, {})], {}, 10)
    out = ctx.leave(G, [("unknown-member-id", None, None)])
    assert out.records == [] and out.reply.members == [("unknown-member-id", None, "UNKNOWN_MEMBER_ID")]
    assert ctx.leave("nope", [("m", None, None)]).reply.error == "UNKNOWN_MEMBER_ID"


@pytest.mark.parametrize("v", VERSIONS)
def test_last_consumer_member_leaving_downgrades(v):  # testLastConsumerProtocolMemberLeavingConsumerGroup
    ctx = C(v, {"foo": 6, "bar": 3}, migration_policy="downgrade")
    m1, _ = _stable_classic(ctx)
    out = ctx.hb(G, member_id="m2", member_epoch=-1, rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"],
                 topic_partitions=[])  # fmt: skip
    cg = out.downgraded
    assert (cg.group_id, cg.generation, cg.protocol_type, cg.protocol_name, cg.leader_id) == (G, 10, "consumer", "range", "m1")
    assert cg.state is STABLE and list(cg.members) == ["m1"]
    cm = cg.members["m1"]
    assert (cm.session_timeout_ms, cm.rebalance_timeout_ms, cm.protocols) == (5000, 45000, m1.classic_member_metadata.supported_protocols)
    assert cm.assignment == mk(foo=[0, 1, 2], bar=[0, 1])
    assert out.records == [
        CurrentMemberAssignmentRecord(G, "m1", deleted=True), CurrentMemberAssignmentRecord(G, "m2", deleted=True),
        TargetAssignmentMemberRecord(G, "m1", deleted=True), TargetAssignmentMemberRecord(G, "m2", deleted=True),
        TargetAssignmentMetadataRecord(G, deleted=True),
        MemberMetadataRecord(G, "m1", deleted=True), MemberMetadataRecord(G, "m2", deleted=True),
        PartitionMetadataRecord(G, deleted=True), GroupMetadataRecord(G, deleted=True),
        ClassicGroupMetadataRecord(G, 10, "consumer", "range", "m1", (
            ("m1", None, CLIENT_ID, CLIENT_HOST, 45000, 5000, m1.classic_member_metadata.supported_protocols,
             mk(foo=[0, 1, 2], bar=[0, 1])),)),
    ]  # fmt: skip
    assert ctx.group(G) is None and ctx.c.anomalies == [] and ctx.c.next_deadline() is None
    assert "downgraded" in out.kinds()


@pytest.mark.parametrize("v", VERSIONS)
@pytest.mark.parametrize("fence", ["session", "rebalance"])
def test_last_consumer_member_timeout_downgrades(v, fence):
    # testLastConsumerProtocolMemberSessionTimeoutInConsumerGroup /
    # testLastConsumerProtocolMemberRebalanceTimeoutInConsumerGroup
    ctx = C(v, {"foo": 6, "bar": 3}, migration_policy="downgrade")
    _stable_classic(ctx, rebalance=30000)
    if fence == "session":
        ctx.hb(G, member_id="m2", member_epoch=10)
        out = ctx.sleep(45001)
    else:  # a new target revokes from m2, which never reports the revocation
        ctx.prepared = {"m1": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1]), "m2": mk(bar=[2])}
        ctx.hb(G, member_id="m2", member_epoch=10, subscribed_topic_names=["foo", "bar", "baz"])
        out = ctx.sleep(30001)
    assert out.downgraded is not None and list(out.downgraded.members) == ["m1"] and ctx.group(G) is None


@pytest.mark.parametrize("v", VERSIONS)
def test_no_downgrade_when_policy_disabled_or_too_big(v):  # testNoConversionWhenSizeExceedsClassicMaxGroupSize
    for cfg in (dict(migration_policy="upgrade"), dict(migration_policy="downgrade", classic_max_size=0)):
        ctx = C(v, {"foo": 6, "bar": 3}, **cfg)
        _stable_classic(ctx)
        out = ctx.hb(G, member_id="m2", member_epoch=-1)
        assert out.downgraded is None and "downgrade_refused" in out.kinds()
        assert out.records[:3] == tombstones("m2") and set(ctx.group(G).members) == {"m1"}


@pytest.mark.parametrize("v", VERSIONS)
def test_static_consumer_member_replaced_by_classic(v):
    # testLastStaticConsumerProtocolMemberReplacedByClassicProtocolMember
    ctx = C(v, {"foo": 6, "bar": 2}, migration_policy="downgrade")
    owned1 = ["foo-0", "foo-1", "foo-2", "bar-0", "bar-1"]
    m1 = classic(member("m1", 10, 9, mk(foo=[0, 1, 2], bar=[0, 1]), rebalance_timeout_ms=45000),
                 protocols=sub(["foo", "bar"], owned1))  # fmt: skip
    old2 = member("old2", 10, 9, mk(foo=[3, 4, 5]), instance="instance-id", subs=("foo",), rebalance_timeout_ms=45000)
    ctx.build_group(G, 10, [m1, old2], {"m1": m1.assigned_partitions, "old2": old2.assigned_partitions}, 10)
    out = ctx.join(G, group_instance_id="instance-id", protocols=sub(["foo"]))
    new2 = out.reply.member_id
    as_consumer = old2.copy(member_id=new2, member_epoch=0, previous_member_epoch=0)
    as_classic = old2.copy(member_id=new2, previous_member_epoch=0, rebalance_timeout_ms=500,
                           classic_member_metadata=ClassicMemberMetadata(500, sub(["foo"])))  # fmt: skip
    assert out.records[:8] == tombstones("old2") + [
        member_record(G, as_consumer), TargetAssignmentMemberRecord(G, new2, mk(foo=[3, 4, 5])),
        current_assignment_record(G, as_consumer), member_record(G, as_classic), current_assignment_record(G, as_classic),
    ]  # fmt: skip
    assert out.records[8:10] == [CurrentMemberAssignmentRecord(G, "m1", deleted=True),
                                 CurrentMemberAssignmentRecord(G, new2, deleted=True)]  # fmt: skip
    assert len(out.records) == 18 and type(out.records[-1]) is ClassicGroupMetadataRecord
    cg = out.downgraded
    assert (cg.generation, cg.state, list(cg.members), cg.leader_id) == (10, STABLE, ["m1", new2], "m1")
    assert cg.members[new2].assignment == mk(foo=[3, 4, 5]) and cg.members[new2].session_timeout_ms == 500
    assert (out.reply.error, out.reply.generation) == ("NONE", 10)
    assert ctx.group(G) is None and ctx.c.next_deadline() is None


@pytest.mark.parametrize("v", VERSIONS)
def test_join_to_empty_or_missing_group_is_the_classic_coordinators(v):  # testClassicGroupJoinWithEmptyConsumerGroup
    ctx = C(v, {"foo": 6})
    ctx.build_group(G, 10, [], {}, 10)
    out = ctx.join(G, protocols=sub(["foo"]))
    assert out.reply is None and out.kinds() == ["to_classic_group"] and ctx.group(G) is None
    assert out.records[-1] == GroupMetadataRecord(G, deleted=True)
    assert ctx.join("other", protocols=sub(["foo"])).reply is None


@pytest.mark.parametrize("v", VERSIONS)
def test_malformed_protocol_metadata(v):
    ctx = C(v, {"foo": 6})
    ctx.build_group(G, 10, [member("m", 10, 9, {})], {}, 10)
    out = ctx.join(G, member_id="x", protocols=(("range", b"\x00garbage"),))
    assert out.reply.error == "UNKNOWN_SERVER_ERROR" and out.records == []


def _stable_classic_group(owned=("foo-0", "bar-0")):
    """``context.createClassicGroup`` + member 1 (client-id, rebalance 10000, session 5000), Stable at
    generation 0 with its assignment foo-0, bar-0."""
    from coordinator_core.group import ClassicGroup, Member

    cg = ClassicGroup(G, STABLE)
    cg.protocol_name = "range"
    cg.add(Member("member-id-1", None, "client-id", "client-host", 10000, 5000, "consumer",
                  sub(["foo", "bar"], owned), mk(foo=[0], bar=[0])))  # fmt: skip
    return cg


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_upgrades_stable_classic_group(v):  # testConsumerGroupHeartbeatWithStableClassicGroup
    from coordinator_core.consumer.protocol import HeartbeatRequest

    ctx = C(v, {"foo": 1, "bar": 1}, migration_policy="upgrade")
    ctx.prepared = {"member-id-1": mk(foo=[0]), "member-id-2": mk(bar=[0])}
    req = HeartbeatRequest(G, "member-id-2", 0, rebalance_timeout_ms=5000, server_assignor="range",
                           subscribed_topic_names=["foo", "bar"], topic_partitions=[], client_id=CLIENT_ID,
                           client_host=CLIENT_HOST)  # fmt: skip
    out = ctx.c.upgrade_classic_group(ctx.now, _stable_classic_group(), req)
    m1 = classic(member("member-id-1", 0, 0, mk(foo=[0], bar=[0]), rebalance_timeout_ms=10000, assignor=None),
                 protocols=sub(["foo", "bar"], ("foo-0", "bar-0"))).copy(client_id="client-id", client_host="client-host")
    m2 = member("member-id-2", 1, 0, {}, rebalance_timeout_ms=5000, state="UNRELEASED_PARTITIONS")
    h = ctx.c.rules.metadata_hash_epoch_record
    meta = {"bar": 1, "foo": 1}
    assert out.records[:6] == [
        ClassicGroupMetadataRecord(G, deleted=True), member_record(G, m1), GroupMetadataRecord(G, 0, 0 if h else None),
        TargetAssignmentMemberRecord(G, "member-id-1", mk(foo=[0], bar=[0])), TargetAssignmentMetadataRecord(G, 0),
        current_assignment_record(G, m1),
    ]  # fmt: skip
    rest = [member_record(G, m2)]
    if not h:
        rest.append(PartitionMetadataRecord(G, tuple(sorted(meta.items()))))
    rest += bump(ctx, 1, meta)
    assert out.records[6 : 6 + len(rest)] == rest
    tail = out.records[6 + len(rest) :]
    assert sorted(tail[:2], key=repr) == sorted([TargetAssignmentMemberRecord(G, "member-id-2", mk(bar=[0])),
                                                 TargetAssignmentMemberRecord(G, "member-id-1", mk(foo=[0]))], key=repr)  # fmt: skip
    assert tail[2:] == [TargetAssignmentMetadataRecord(G, 1), current_assignment_record(G, m2)]
    assert (out.reply.error, out.reply.member_epoch) == ("NONE", 1)
    assert ctx.timeout("session", G, "member-id-1") == 5000 and ctx.timeout("session", G, "member-id-2") == 45000
    assert ctx.group(G).members["member-id-1"].use_classic_protocol


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_to_empty_classic_group(v):  # testConsumerGroupHeartbeatWithEmptyClassicGroup
    from coordinator_core.consumer.protocol import HeartbeatRequest
    from coordinator_core.group import ClassicGroup

    ctx = C(v, {})
    req = HeartbeatRequest(G, "m", 0, rebalance_timeout_ms=5000, server_assignor="range",
                           subscribed_topic_names=["foo", "bar"], topic_partitions=[])  # fmt: skip
    out = ctx.c.upgrade_classic_group(0, ClassicGroup(G), req)
    assert out.records[0] == ClassicGroupMetadataRecord(G, deleted=True)
    assert (out.reply.error, out.reply.member_epoch) == ("NONE", 1) and set(ctx.group(G).members) == {"m"}


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_to_classic_group_refused(v):
    # testConsumerGroupHeartbeatWithNonEmptyClassicGroup (not a join / policy refuses the upgrade)
    from coordinator_core.consumer.protocol import HeartbeatRequest

    req = dict(rebalance_timeout_ms=5000, subscribed_topic_names=["foo"], topic_partitions=[])
    for policy, epoch in (("upgrade", 3), ("disabled", 0), ("downgrade", 0)):
        ctx = C(v, {"foo": 1, "bar": 1}, migration_policy=policy)
        out = ctx.c.upgrade_classic_group(0, _stable_classic_group(), HeartbeatRequest(G, "m2", epoch, **req))
        assert (out.reply.error, out.reply.error_message) == ("GROUP_ID_NOT_FOUND", f"Group {G} is not a consumer group")
        assert out.records == [] and ctx.group(G) is None


@pytest.mark.parametrize("v", VERSIONS)
def test_join_replacing_existing_static_member(v):  # testJoiningConsumerGroupReplacingExistingStaticMember
    ctx = C(v, {"foo": 2})
    old = member("m", 10, 10, mk(foo=[0, 1]), instance="instance-id", subs=("foo",), rebalance_timeout_ms=500, assignor=None)
    ctx.build_group(G, 10, [old], {"m": mk(foo=[0, 1])}, 10)
    out = ctx.join(G, group_instance_id="instance-id", protocols=sub(["foo"]))
    new = out.reply.member_id
    copied = old.copy(member_id=new, member_epoch=0, previous_member_epoch=0)
    updated = old.copy(member_id=new, member_epoch=10, previous_member_epoch=0,
                       classic_member_metadata=ClassicMemberMetadata(500, sub(["foo"])))  # fmt: skip
    assert out.records == tombstones("m") + [
        member_record(G, copied), TargetAssignmentMemberRecord(G, new, mk(foo=[0, 1])), current_assignment_record(G, copied),
        member_record(G, updated), current_assignment_record(G, updated),
    ]  # fmt: skip
    r = out.reply
    assert (r.error, r.generation, r.protocol_type, r.protocol_name) == ("NONE", 10, "consumer", "range")
    assert ctx.timeout("session", G, new) == 500 and ctx.timeout("sync", G, new) == 500


@pytest.mark.parametrize("v", VERSIONS)
def test_static_join_unknown_instance_or_unmatched_member(v):
    # testStaticMemberJoiningConsumerGroupWithUnknownInstanceId / ...WithUnmatchedMemberId
    ctx = C(v, {"foo": 2, "bar": 1})
    protos = sub(["foo", "bar"], ["foo-0", "foo-1"])
    ctx.build_group(G, 10, [classic(member("m1", 0, 0, {}, instance="i1"), protocols=protos), member("m2", 0, 0, {})], {}, 0)
    assert ctx.join(G, member_id="m2", group_instance_id="unknown", protocols=protos).reply.error == "UNKNOWN_MEMBER_ID"
    assert ctx.join(G, member_id="other", group_instance_id="i1", protocols=protos).reply.error == "FENCED_INSTANCE_ID"


@pytest.mark.parametrize("v", VERSIONS)
def test_reconciliation_through_joins_cooperative(v):  # testReconciliationInJoiningConsumerGroupWithCooperativeProtocol
    ctx = C(v, {"foo": 2, "bar": 1, "zar": 1})
    subs3 = ["foo", "bar", "zar"]
    m1 = classic(member("m1", 10, 10, mk(foo=[0], bar=[0]), rebalance_timeout_ms=500),
                 protocols=sub(["foo", "bar"], ["foo-0", "bar-0"]))  # fmt: skip
    m2 = member("m2", 10, 10, mk(foo=[1]), rebalance_timeout_ms=500)
    ctx.build_group(G, 10, [m1, m2], {"m1": mk(foo=[0], bar=[0]), "m2": mk(foo=[1])}, 10)
    ctx.prepared = {"m1": mk(foo=[0, 1], zar=[0]), "m2": mk(bar=[0])}
    # member 1 rejoins with a new subscription: UNREVOKED_PARTITIONS (bar-0 pending revocation)
    out = ctx.join(G, member_id="m1", session_timeout_ms=5000, protocols=sub(subs3, ["foo-0", "bar-0"]))
    e1 = m1.copy(state="UNREVOKED_PARTITIONS", subscribed_topic_names=frozenset(subs3),
                 assigned_partitions=mk(foo=[0]), partitions_pending_revocation=mk(bar=[0]),
                 classic_member_metadata=ClassicMemberMetadata(5000, sub(subs3, ["foo-0", "bar-0"])))  # fmt: skip
    assert out.records[0] == member_record(G, e1) and out.records[-1] == current_assignment_record(G, e1)
    assert TargetAssignmentMetadataRecord(G, 11) in out.records and len(out.records) == (6 if ctx.c.rules.metadata_hash_epoch_record else 7)
    assert (out.reply.member_id, out.reply.generation) == ("m1", 10)
    assert ctx.timeout("session", G, "m1") == 5000 and ctx.timeout("sync", G, "m1") == 500
    s = ctx.sync(G, member_id="m1", generation=10, protocol_name="range", protocol_type="consumer").reply
    assert (s.error, s.assignment) == ("NONE", mk(foo=[0]))
    assert ctx.classic_hb(G, member_id="m1", generation=10).reply.error == "REBALANCE_IN_PROGRESS"
    assert ctx.timeout("join", G, "m1") == 500
    # member 1 rejoins having revoked bar-0: UNRELEASED_PARTITIONS at epoch 11 (foo-1 still owned by member 2)
    out = ctx.join(G, member_id="m1", session_timeout_ms=5000, protocols=sub(subs3, ["foo-0"]))
    e2 = e1.copy(member_epoch=11, state="UNRELEASED_PARTITIONS", partitions_pending_revocation={},
                 assigned_partitions=mk(foo=[0], zar=[0]), classic_member_metadata=ClassicMemberMetadata(5000, sub(subs3, ["foo-0"])))  # fmt: skip
    assert out.records == [member_record(G, e2), current_assignment_record(G, e2)]
    assert ctx.timeout("join", G, "m1") is None and out.reply.generation == 11
    s = ctx.sync(G, member_id="m1", generation=11, protocol_name="range", protocol_type="consumer").reply
    assert (s.error, s.assignment) == ("NONE", mk(foo=[0], zar=[0]))
    # member 2 (consumer protocol) confirms revoking foo-1; member 1 is told to rejoin
    ctx.hb(G, member_id="m2", member_epoch=10, topic_partitions=[])
    assert ctx.classic_hb(G, member_id="m1", generation=11).reply.error == "REBALANCE_IN_PROGRESS"
    assert ctx.timeout("join", G, "m1") == 500
    out = ctx.join(G, member_id="m1", session_timeout_ms=5000, protocols=sub(subs3, ["foo-0", "zar-0"]))
    e3 = e2.copy(state="STABLE", previous_member_epoch=11, assigned_partitions=mk(foo=[0, 1], zar=[0]),
                 classic_member_metadata=ClassicMemberMetadata(5000, sub(subs3, ["foo-0", "zar-0"])))  # fmt: skip
    assert out.records == [member_record(G, e3), current_assignment_record(G, e3)]
    assert ctx.group(G).members["m1"].state == "STABLE"


@pytest.mark.parametrize("v", VERSIONS)
def test_consumer_heartbeat_replaces_classic_static_member(v):  # testConsumerGroupHeartbeatFromExistingClassicStaticMember
    ctx = C(v, {"foo": 6, "bar": 3}, migration_policy="upgrade")
    owned1 = ["foo-0", "foo-1", "foo-2", "bar-0", "bar-1"]
    m1 = classic(member("m1", 10, 9, mk(foo=[0, 1, 2], bar=[0, 1]), instance="i1", rebalance_timeout_ms=45000),
                 protocols=sub(["foo", "bar"], owned1))  # fmt: skip
    m2 = member("m2", 10, 9, mk(foo=[3, 4, 5], bar=[2]), instance="i2", rebalance_timeout_ms=45000)
    ctx.build_group(G, 10, [m1, m2], {"m1": m1.assigned_partitions, "m2": m2.assigned_partitions}, 10)
    out = ctx.hb(G, member_id="new1", member_epoch=0, instance_id="i1", rebalance_timeout_ms=5000, server_assignor="range",
                 subscribed_topic_names=["foo", "bar"], topic_partitions=[])  # fmt: skip
    replacing = m1.copy(member_id="new1", member_epoch=0, previous_member_epoch=0)
    final = replacing.copy(member_epoch=10, rebalance_timeout_ms=5000, classic_member_metadata=None)
    assert out.records == tombstones("m1") + [
        member_record(G, replacing), TargetAssignmentMemberRecord(G, "new1", m1.assigned_partitions),
        current_assignment_record(G, replacing), member_record(G, final), current_assignment_record(G, final),
    ]  # fmt: skip
    assert ctx.timeout("session", G, "new1") == 45000 and out.downgraded is None
