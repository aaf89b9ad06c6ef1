"""Consumer-group cases of Kafka's ``GroupMetadataManagerTest`` (group-coordinator/src/test/java/org/
apache/kafka/coordinator/group/GroupMetadataManagerTest.java; request validation as of 4.0, the
rest at trunk Oct 2024 = the 4.0 behaviour), transcribed against
:class:`coordinator_core.consumer.coordinator.ConsumerGroupCoordinator` with a mock assignor as
Kafka's ``MockPartitionAssignor``. Each test runs for every supported version (4.1 writes the
metadata hash in the epoch record instead of a partition-metadata record)."""

from __future__ import annotations

import pytest

from coordinator_core.consumer.records import (
    CurrentMemberAssignmentRecord,
    GroupMetadataRecord,
    MemberMetadataRecord,
    PartitionMetadataRecord,
    TargetAssignmentMemberRecord,
    TargetAssignmentMetadataRecord,
    current_assignment_record,
    member_record,
)
from coordinator_core.consumer.target import metadata_hash
from tests.core.consumer_coordinator_ctx import Ctx, member, mk

VERSIONS = ["4.0", "4.1", "4.2"]
TOPICS = {"foo": 6, "bar": 3}


def join(ctx, mid, group="fooup", subs=("foo", "bar"), **kw):
    return ctx.hb(group, member_id=mid, member_epoch=0, rebalance_timeout_ms=5000, subscribed_topic_names=list(subs),
                  topic_partitions=[], server_assignor="range", **kw)  # fmt: skip


def epoch_records(ctx, gid, epoch, meta):
    if ctx.c.rules.metadata_hash_epoch_record:
        return [GroupMetadataRecord(gid, epoch, metadata_hash(meta))]
    return [PartitionMetadataRecord(gid, tuple(sorted(meta.items()))), GroupMetadataRecord(gid, epoch)]


def two_members(ctx, **kw):
    m1 = member("m1", 10, 9, mk(foo=[0, 1, 2], bar=[0, 1]), **kw.get("k1", {}))
    m2 = member("m2", 10, 9, mk(foo=[3, 4, 5], bar=[2]), **kw.get("k2", {}))
    ctx.build_group("fooup", 10, [m1, m2], {"m1": m1.assigned_partitions, "m2": m2.assigned_partitions}, 10)
    return m1, m2


@pytest.mark.parametrize("v", VERSIONS)
def test_heartbeat_request_validation(v):  # testConsumerHeartbeatRequestValidation (4.0)
    ctx = Ctx(v, TOPICS)
    cases = [
        (dict(group_id="", member_id="m"), "INVALID_REQUEST", "GroupId can't be empty."),
        (dict(group_id="   ", member_id="m"), "INVALID_REQUEST", "GroupId can't be empty."),
        (dict(member_id="m", member_epoch=0), "INVALID_REQUEST", "RebalanceTimeoutMs must be provided in first request."),
        (dict(member_id="m", member_epoch=0, rebalance_timeout_ms=5000), "INVALID_REQUEST",
         "TopicPartitions must be empty when (re-)joining."),
        (dict(member_id="m", member_epoch=0, rebalance_timeout_ms=5000, topic_partitions=[]), "INVALID_REQUEST",
         "SubscribedTopicNames or SubscribedTopicRegex must be set in first request."),
        (dict(member_id="", member_epoch=1), "INVALID_REQUEST", "MemberId can't be empty."),
        (dict(member_id="", member_epoch=0, api_version=1), "INVALID_REQUEST", "MemberId can't be empty."),
        (dict(member_id="m", member_epoch=1, instance_id=""), "INVALID_REQUEST", "InstanceId can't be empty."),
        (dict(member_id="m", member_epoch=1, rack_id=""), "INVALID_REQUEST", "RackId can't be empty."),
        (dict(member_id="m", member_epoch=1, server_assignor="bar"), "UNSUPPORTED_ASSIGNOR",
         "ServerAssignor bar is not supported. Supported assignors: range."),
        (dict(member_id="m", member_epoch=-2, rebalance_timeout_ms=5000, subscribed_topic_names=["foo"],
              topic_partitions=[]), "INVALID_REQUEST", "InstanceId can't be null."),
        (dict(member_id="m", member_epoch=-3), "INVALID_REQUEST", "MemberEpoch is invalid."),
    ]  # fmt: skip
    for kw, err, msg in cases:
        gid = kw.pop("group_id", "foo")
        r = ctx.hb(gid, **kw).reply
        assert (r.error, r.error_message) == (err, msg), kw
    assert ctx.c.groups == {}


@pytest.mark.parametrize("v", VERSIONS)
def test_regex_validation(v):  # testConsumerHeartbeatRegexValidation
    ctx = Ctx(v, TOPICS)
    r = ctx.hb(member_id="m", member_epoch=0, rebalance_timeout_ms=5000, subscribed_topic_regex="[", topic_partitions=[]).reply
    assert r.error == "INVALID_REGULAR_EXPRESSION"


@pytest.mark.parametrize("v", VERSIONS)
def test_member_id_generation(v):  # testMemberIdGeneration (ConsumerGroupHeartbeat v0 only, KIP-1082)
    ctx = Ctx(v, TOPICS)
    ctx.prepared = {}
    r = ctx.hb("group-foo", member_id="", member_epoch=0, rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"],
               topic_partitions=[], server_assignor="range", api_version=0).reply  # fmt: skip
    assert r.error == "NONE" and len(r.member_id) == 36 and r.member_epoch == 1


@pytest.mark.parametrize("v", VERSIONS)
def test_unknown_group_id(v):  # testUnknownGroupId
    r = Ctx(v, TOPICS).hb(member_id="m", member_epoch=100, rebalance_timeout_ms=5000, subscribed_topic_names=["foo"],
                          topic_partitions=[]).reply  # fmt: skip
    assert (r.error, r.error_message) == ("GROUP_ID_NOT_FOUND", "Consumer group fooup not found.")


@pytest.mark.parametrize("v", VERSIONS)
def test_unknown_member_id_joins(v):  # testUnknownMemberIdJoinsConsumerGroup
    ctx = Ctx(v, TOPICS)
    assert join(ctx, "m1").reply.error == "NONE"
    r = ctx.hb(member_id="m2", member_epoch=1, rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"],
               topic_partitions=[]).reply  # fmt: skip
    assert (r.error, r.error_message) == ("UNKNOWN_MEMBER_ID", "Member m2 is not a member of group fooup.")


@pytest.mark.parametrize("v", VERSIONS)
def test_member_epoch_validation(v):  # testConsumerGroupMemberEpochValidation
    ctx = Ctx(v, {"foo": 6})
    m = member("m", 100, 99, mk(foo=[1, 2, 3]))
    ctx.build_group("fooup", 100, [m], {"m": mk(foo=[1, 2, 3])}, 100)
    base = dict(member_id="m", rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"])
    r = ctx.hb(member_epoch=200, **base).reply
    assert r.error == "FENCED_MEMBER_EPOCH" and r.error_message == (
        "The consumer group member has a greater member epoch (200) than the one known by the group coordinator (100). "
        "The member must abandon all its partitions and rejoin.")  # fmt: skip
    assert ctx.hb(member_epoch=50, **base).reply.error == "FENCED_MEMBER_EPOCH"
    assert ctx.hb(member_epoch=99, **base).reply.error == "FENCED_MEMBER_EPOCH"
    r = ctx.hb(member_epoch=99, topic_partitions={"foo": [1, 2]}, **base).reply
    assert (r.error, r.member_epoch) == ("NONE", 100)


@pytest.mark.parametrize("v", VERSIONS)
def test_member_joins_empty_group(v):  # testMemberJoinsEmptyConsumerGroup
    ctx = Ctx(v, TOPICS)
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])}
    assert ctx.group() is None
    out = join(ctx, "m")
    r = out.reply
    assert (r.error, r.member_id, r.member_epoch, r.heartbeat_interval_ms) == ("NONE", "m", 1, 5000)
    assert r.assignment == mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])
    exp = member("m", 1, 0, mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2]))
    assert out.records == [
        member_record("fooup", exp), *epoch_records(ctx, "fooup", 1, TOPICS),
        TargetAssignmentMemberRecord("fooup", "m", mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])),
        TargetAssignmentMetadataRecord("fooup", 1), current_assignment_record("fooup", exp),
    ]  # fmt: skip
    assert ctx.group().state == "Stable"


@pytest.mark.parametrize("v", VERSIONS)
def test_updating_subscription_triggers_new_target(v):  # testUpdatingSubscriptionTriggersNewTargetAssignment
    ctx = Ctx(v, TOPICS)
    m = member("m", 10, 9, mk(foo=[0, 1, 2, 3, 4, 5]), subs=("foo",))
    ctx.build_group("fooup", 10, [m], {"m": m.assigned_partitions}, 10)
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])}
    out = ctx.hb(member_id="m", member_epoch=10, subscribed_topic_names=["foo", "bar"])
    assert (out.reply.member_epoch, out.reply.assignment) == (11, mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2]))
    exp = member("m", 11, 10, mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2]))
    assert out.records == [
        member_record("fooup", exp), *epoch_records(ctx, "fooup", 11, TOPICS),
        TargetAssignmentMemberRecord("fooup", "m", mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])),
        TargetAssignmentMetadataRecord("fooup", 11), current_assignment_record("fooup", exp),
    ]  # fmt: skip


@pytest.mark.parametrize("v", VERSIONS)
def test_new_joining_member_triggers_new_target(v):  # testNewJoiningMemberTriggersNewTargetAssignment
    ctx = Ctx(v, TOPICS)
    two_members(ctx)
    ctx.prepared = {"m1": mk(foo=[0, 1], bar=[0]), "m2": mk(foo=[2, 3], bar=[1]), "m3": mk(foo=[4, 5], bar=[2])}
    out = join(ctx, "m3")
    assert (out.reply.member_epoch, out.reply.assignment) == (11, {})
    exp = member("m3", 11, 0, {}, state="UNRELEASED_PARTITIONS")
    assert out.records == [
        member_record("fooup", member("m3", 0, 0, {})), GroupMetadataRecord("fooup", 11, metadata_hash(TOPICS))
        if ctx.c.rules.metadata_hash_epoch_record else GroupMetadataRecord("fooup", 11),
        TargetAssignmentMemberRecord("fooup", "m1", mk(foo=[0, 1], bar=[0])),
        TargetAssignmentMemberRecord("fooup", "m2", mk(foo=[2, 3], bar=[1])),
        TargetAssignmentMemberRecord("fooup", "m3", mk(foo=[4, 5], bar=[2])),
        TargetAssignmentMetadataRecord("fooup", 11), current_assignment_record("fooup", exp),
    ]  # fmt: skip
    assert ctx.group().state == "Reconciling"


@pytest.mark.parametrize("v", VERSIONS)
def test_leaving_member_bumps_group_epoch(v):  # testLeavingMemberBumpsGroupEpoch
    ctx = Ctx(v, {**TOPICS, "zar": 1})
    two_members(ctx, k2={"subs": ("foo", "bar", "zar")})
    out = ctx.hb(member_id="m2", member_epoch=-1, rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"],
                 topic_partitions=[])  # fmt: skip
    assert (out.reply.member_id, out.reply.member_epoch, out.reply.heartbeat_interval_ms) == ("m2", -1, 0)
    assert out.records == [
        CurrentMemberAssignmentRecord("fooup", "m2", deleted=True),
        TargetAssignmentMemberRecord("fooup", "m2", deleted=True), MemberMetadataRecord("fooup", "m2", deleted=True),
        *epoch_records(ctx, "fooup", 11, TOPICS),
    ]  # fmt: skip
    assert out.kinds() == ["left", "bumped"] and ctx.group().state == "Assigning"


@pytest.mark.parametrize("v", VERSIONS)
def test_group_epoch_bump_when_new_static_member_joins(v):  # testGroupEpochBumpWhenNewStaticMemberJoins
    ctx = Ctx(v, TOPICS)
    two_members(ctx, k1={"instance": "i1"}, k2={"instance": "i2"})
    ctx.prepared = {"m1": mk(foo=[0, 1], bar=[0]), "m2": mk(foo=[2, 3], bar=[1]), "m3": mk(foo=[4, 5], bar=[2])}
    out = join(ctx, "m3", instance_id="i3")
    assert (out.reply.member_epoch, out.reply.assignment) == (11, {})
    assert out.kinds()[:3] == ["static_joined", "subscription_changed", "bumped"]
    assert ctx.group().static_members == {"i1": "m1", "i2": "m2", "i3": "m3"}
    assert ctx.group().members["m3"].state == "UNRELEASED_PARTITIONS"


@pytest.mark.parametrize("v", VERSIONS)
def test_static_member_gets_back_assignment_upon_rejoin(v):  # testStaticMemberGetsBackAssignmentUponRejoin
    ctx = Ctx(v, TOPICS)
    _, m2 = two_members(ctx, k1={"instance": "m1"}, k2={"instance": "m2"})
    out = ctx.hb(member_id="m2", instance_id="m2", member_epoch=-2, subscribed_topic_names=["foo", "bar"], topic_partitions=[])
    assert (out.reply.member_id, out.reply.member_epoch) == ("m2", -2)
    assert out.records == [current_assignment_record("fooup", m2.copy(member_epoch=-2))]
    assert ctx.group().state == "Reconciling"
    out = join(ctx, "m2b", instance_id="m2")
    assert (out.reply.member_id, out.reply.member_epoch) == ("m2b", 10)
    assert out.reply.assignment == mk(foo=[3, 4, 5], bar=[2])
    copied = member("m2b", 0, 0, mk(foo=[3, 4, 5], bar=[2]), instance="m2")
    rejoined = member("m2b", 10, 0, mk(foo=[3, 4, 5], bar=[2]), instance="m2")
    assert out.records == [
        CurrentMemberAssignmentRecord("fooup", "m2", deleted=True),
        TargetAssignmentMemberRecord("fooup", "m2", deleted=True), MemberMetadataRecord("fooup", "m2", deleted=True),
        member_record("fooup", copied), TargetAssignmentMemberRecord("fooup", "m2b", mk(foo=[3, 4, 5], bar=[2])),
        current_assignment_record("fooup", copied), current_assignment_record("fooup", rejoined),
    ]  # fmt: skip
    assert ctx.c.timer_deadline("session", "fooup", "m2") is None
    assert ctx.c.timer_deadline("rebalance", "fooup", "m2") is None
    assert ctx.group().state == "Stable" and ctx.group().group_epoch == 10


@pytest.mark.parametrize("v", VERSIONS)
def test_static_member_rejoins_with_new_subscribed_topics(v):  # testStaticMemberRejoinsWithNewSubscribedTopics
    ctx = Ctx(v, {**TOPICS, "zar": 1})
    two_members(ctx, k1={"instance": "m1"}, k2={"instance": "m2"})
    ctx.hb(member_id="m2", instance_id="m2", member_epoch=-2, subscribed_topic_names=["foo", "bar"], topic_partitions=[])
    ctx.prepared = {"m1": mk(foo=[0, 1, 2], bar=[0, 1]), "m2b": mk(foo=[3, 4, 5], bar=[2], zar=[0])}
    out = join(ctx, "m2b", instance_id="m2", subs=("foo", "bar", "zar"))
    assert (out.reply.member_epoch, out.reply.assignment) == (11, mk(foo=[3, 4, 5], bar=[2], zar=[0]))
    assert "bumped" in out.kinds() and ctx.group().group_epoch == 11


@pytest.mark.parametrize("v", VERSIONS)
def test_no_bump_when_static_member_temporarily_leaves(v):  # testNoGroupEpochBumpWhenStaticMemberTemporarilyLeaves
    ctx = Ctx(v, TOPICS)
    _, m2 = two_members(ctx, k1={"instance": "m1"}, k2={"instance": "m2"})
    out = ctx.hb(member_id="m2", instance_id="m2", member_epoch=-2, rebalance_timeout_ms=5000,
                 subscribed_topic_names=["foo", "bar"], topic_partitions=[])  # fmt: skip
    assert (out.reply.member_id, out.reply.member_epoch) == ("m2", -2)
    assert out.records == [current_assignment_record("fooup", m2.copy(member_epoch=-2))]
    assert ctx.group().group_epoch == 10 and out.kinds() == ["static_temp_left"]


@pytest.mark.parametrize("v", VERSIONS)
def test_leaving_static_member_bumps_group_epoch(v):  # testLeavingStaticMemberBumpsGroupEpoch
    ctx = Ctx(v, TOPICS)
    two_members(ctx, k1={"instance": "m1"}, k2={"instance": "m2"})
    out = ctx.hb(member_id="m2", instance_id="m2", member_epoch=-1, rebalance_timeout_ms=5000,
                 subscribed_topic_names=["foo", "bar"], topic_partitions=[])  # fmt: skip
    assert (out.reply.member_id, out.reply.member_epoch) == ("m2", -1)
    assert out.records == [
        CurrentMemberAssignmentRecord("fooup", "m2", deleted=True),
        TargetAssignmentMemberRecord("fooup", "m2", deleted=True), MemberMetadataRecord("fooup", "m2", deleted=True),
        GroupMetadataRecord("fooup", 11, metadata_hash(TOPICS) if ctx.c.rules.metadata_hash_epoch_record else None),
    ]  # fmt: skip
    assert ctx.group().static_members == {"m1": "m1"}


@pytest.mark.parametrize("v", VERSIONS)
def test_unreleased_instance_id(v):  # testShouldThrownUnreleasedInstanceIdExceptionWhenNewMemberJoinsWithInUseInstanceId
    ctx = Ctx(v, TOPICS)
    join(ctx, "m1", instance_id="i")
    r = join(ctx, "m2", instance_id="i").reply
    assert r.error == "UNRELEASED_INSTANCE_ID" and r.error_message == (
        "Static member m2 with instance id i cannot join the group because the instance id is owned by m1 member.")


@pytest.mark.parametrize("v", VERSIONS)
def test_unknown_static_member_joins(v):  # testShouldThrownUnknownMemberIdExceptionWhenUnknownStaticMemberJoins
    ctx = Ctx(v, TOPICS)
    join(ctx, "m1", instance_id="i")
    r = ctx.hb(member_id="m2", instance_id="i2", member_epoch=1, rebalance_timeout_ms=5000,
               subscribed_topic_names=["foo"], topic_partitions=[]).reply  # fmt: skip
    assert (r.error, r.error_message) == ("UNKNOWN_MEMBER_ID", "Instance id i2 is unknown.")


@pytest.mark.parametrize("v", VERSIONS)
def test_fenced_instance_id_joins(v):  # testShouldThrowFencedInstanceIdExceptionWhenStaticMemberWithDifferentMemberIdJoins
    ctx = Ctx(v, TOPICS)
    join(ctx, "m1", instance_id="i")
    r = ctx.hb(member_id="m2", instance_id="i", member_epoch=1, rebalance_timeout_ms=5000,
               subscribed_topic_names=["foo"], topic_partitions=[]).reply  # fmt: skip
    assert (r.error, r.error_message) == ("FENCED_INSTANCE_ID", "Static member m2 with instance id i was fenced by member m1.")


@pytest.mark.parametrize("v", VERSIONS)
def test_member_epoch_validation_static(v):  # testConsumerGroupMemberEpochValidationForStaticMember
    ctx = Ctx(v, {"foo": 6})
    m = member("m", 100, 99, mk(foo=[1, 2, 3]), instance="i")
    ctx.build_group("fooup", 100, [m], {"m": mk(foo=[1, 2, 3])}, 100)
    base = dict(member_id="m", instance_id="i", rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"])
    assert ctx.hb(member_epoch=200, **base).reply.error == "FENCED_MEMBER_EPOCH"
    assert ctx.hb(member_epoch=50, **base).reply.error == "FENCED_MEMBER_EPOCH"
    assert ctx.hb(member_epoch=99, **base).reply.error == "FENCED_MEMBER_EPOCH"
    assert ctx.hb(member_epoch=99, topic_partitions={"foo": [1, 2]}, **base).reply.member_epoch == 100


@pytest.mark.parametrize("v", VERSIONS)
def test_unknown_static_member_leaves(v):  # testShouldThrowUnknownMemberIdExceptionWhenUnknownStaticMemberLeaves
    ctx = Ctx(v, TOPICS)
    join(ctx, "m1", instance_id="i")
    r = ctx.hb(member_id="m1", instance_id="other", member_epoch=-2).reply
    assert (r.error, r.error_message) == ("UNKNOWN_MEMBER_ID", "Instance id other is unknown.")
    r = ctx.hb(member_id="mx", member_epoch=-1).reply  # a dynamic unknown member leaving
    assert r.error == "UNKNOWN_MEMBER_ID"


@pytest.mark.parametrize("v", VERSIONS)
def test_fenced_instance_id_leaves(v):  # testShouldThrowFencedInstanceIdExceptionWhenStaticMemberWithDifferentMemberIdLeaves
    ctx = Ctx(v, TOPICS)
    join(ctx, "m1", instance_id="i")
    r = ctx.hb(member_id="m2", instance_id="i", member_epoch=-2).reply
    assert (r.error, r.error_message) == ("FENCED_INSTANCE_ID", "Static member m2 with instance id i was fenced by member m1.")


@pytest.mark.parametrize("v", VERSIONS)
def test_full_response(v):  # testConsumerGroupHeartbeatFullResponse
    ctx = Ctx(v, {"foo": 2})
    ctx.prepared = {"m": mk(foo=[0, 1])}
    r = join(ctx, "m", subs=("foo", "bar")).reply
    assert (r.member_epoch, r.assignment) == (1, mk(foo=[0, 1]))
    r = ctx.hb(member_id="m", member_epoch=1).reply
    assert (r.member_epoch, r.heartbeat_interval_ms, r.assignment) == (1, 5000, None)
    r = ctx.hb(member_id="m", member_epoch=1, rebalance_timeout_ms=5000, subscribed_topic_names=["foo", "bar"],
               server_assignor="range", topic_partitions=[]).reply  # fmt: skip
    assert (r.member_epoch, r.assignment) == (1, mk(foo=[0, 1]))


@pytest.mark.parametrize("v", VERSIONS)
def test_new_member_rejected_at_max_size(v):  # testNewMemberIsRejectedWithMaximumMembersIsReached
    ctx = Ctx(v, TOPICS, max_size=2)
    two_members(ctx)
    r = join(ctx, "m3").reply
    assert (r.error, r.error_message) == ("GROUP_MAX_SIZE_REACHED", "The consumer group has reached its maximum capacity of 2 members.")
    assert ctx.hb(member_id="m1", member_epoch=10).reply.error == "NONE"


@pytest.mark.parametrize("v", VERSIONS)
def test_consumer_group_states(v):  # testConsumerGroupStates
    ctx = Ctx(v, {"foo": 6})
    ctx.c.replay([GroupMetadataRecord("fooup", 10)])
    assert ctx.group().state == "Empty"
    ctx.c.replay([member_record("fooup", member("m1", 0, 0, {}, subs=("foo",))), GroupMetadataRecord("fooup", 11)])
    assert ctx.group().state == "Assigning"
    ctx.c.replay([TargetAssignmentMemberRecord("fooup", "m1", mk(foo=[1, 2, 3])), TargetAssignmentMetadataRecord("fooup", 11)])
    assert ctx.group().state == "Reconciling"
    ctx.c.replay([current_assignment_record("fooup", member("m1", 11, 10, mk(foo=[1, 2, 3]), state="UNREVOKED_PARTITIONS"))])
    assert ctx.group().state == "Reconciling"
    ctx.c.replay([current_assignment_record("fooup", member("m1", 11, 10, mk(foo=[1, 2, 3])))])
    assert ctx.group().state == "Stable"


@pytest.mark.parametrize("v", VERSIONS)
def test_assignor_exception_on_regular_heartbeat(v):  # testPartitionAssignorExceptionOnRegularHeartbeat
    ctx = Ctx(v, TOPICS)
    ctx.fail = "Assignment failed."
    r = join(ctx, "m").reply
    assert r.error == "UNKNOWN_SERVER_ERROR"
    assert r.error_message == "Failed to compute a new target assignment for epoch 1: Assignment failed."
    assert ctx.group() is None


@pytest.mark.parametrize("v", VERSIONS)
def test_session_timeout_lifecycle_and_expiration(v):  # testSessionTimeoutLifecycle / testSessionTimeoutExpiration
    ctx = Ctx(v, TOPICS)
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])}
    join(ctx, "m")
    assert ctx.c.timer_deadline("session", "fooup", "m") == 45_000
    ctx.sleep(5000)
    ctx.hb(member_id="m", member_epoch=1)
    assert ctx.c.timer_deadline("session", "fooup", "m") == 50_000
    out = ctx.sleep(45_000 - 1)
    assert out.records == []
    out = ctx.sleep(1)
    assert out.kinds() == ["fenced_session", "bumped"]
    assert out.records == [
        CurrentMemberAssignmentRecord("fooup", "m", deleted=True), TargetAssignmentMemberRecord("fooup", "m", deleted=True),
        MemberMetadataRecord("fooup", "m", deleted=True), *epoch_records(ctx, "fooup", 2, {}),
    ]  # fmt: skip
    assert ctx.group().state == "Empty"


@pytest.mark.parametrize("v", VERSIONS)
def test_session_timeout_expiration_static_member(v):  # testSessionTimeoutExpirationStaticMember
    ctx = Ctx(v, TOPICS)
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])}
    join(ctx, "m", instance_id="i")
    ctx.hb(member_id="m", instance_id="i", member_epoch=-2)
    assert ctx.group().members["m"].member_epoch == -2
    out = ctx.sleep(45_000)
    assert out.kinds() == ["fenced_session", "bumped"] and ctx.group().members == {}


@pytest.mark.parametrize("v", VERSIONS)
def test_rebalance_timeout_lifecycle_and_expiration(v):  # testRebalanceTimeoutLifecycle / testRebalanceTimeoutExpiration
    ctx = Ctx(v, {"foo": 3})
    ctx.prepared = {"m1": mk(foo=[0, 1, 2])}
    join(ctx, "m1", subs=("foo",))
    ctx.prepared = {"m1": mk(foo=[0, 1]), "m2": mk(foo=[2])}
    ctx.sleep(1000)
    r = ctx.hb(member_id="m2", member_epoch=0, rebalance_timeout_ms=12000, subscribed_topic_names=["foo"],
               topic_partitions=[]).reply  # fmt: skip
    assert (r.member_epoch, r.assignment) == (2, {})
    ctx.sleep(1000)
    r = ctx.hb(member_id="m1", member_epoch=1, rebalance_timeout_ms=12000, subscribed_topic_names=["foo"],
               topic_partitions={"foo": [0, 1, 2]}).reply  # fmt: skip
    assert (r.member_epoch, r.assignment) == (1, mk(foo=[0, 1]))
    assert ctx.group().members["m1"].state == "UNREVOKED_PARTITIONS"
    assert ctx.c.timer_deadline("rebalance", "fooup", "m1") == 2000 + 12000
    out = ctx.sleep(12000)
    assert "fenced_rebalance" in out.kinds() and "m1" not in ctx.group().members
    assert out.logs[0].epoch == 1 and out.logs[0].took_ms == 12000


@pytest.mark.parametrize("v", VERSIONS)
def test_rebalance_timeout_cancelled_when_revoked(v):  # testRebalanceTimeoutLifecycle (acknowledged revocation)
    ctx = Ctx(v, {"foo": 3})
    ctx.prepared = {"m1": mk(foo=[0, 1, 2])}
    join(ctx, "m1", subs=("foo",))
    ctx.prepared = {"m1": mk(foo=[0, 1]), "m2": mk(foo=[2])}
    join(ctx, "m2", subs=("foo",))
    ctx.hb(member_id="m1", member_epoch=1, topic_partitions={"foo": [0, 1, 2]})
    assert ctx.c.timer_deadline("rebalance", "fooup", "m1") is not None
    r = ctx.hb(member_id="m1", member_epoch=1, topic_partitions={"foo": [0, 1]}).reply
    assert r.member_epoch == 2 and ctx.c.timer_deadline("rebalance", "fooup", "m1") is None
    r = ctx.hb(member_id="m2", member_epoch=2, topic_partitions={}).reply
    assert r.assignment == mk(foo=[2]) and ctx.group().state == "Stable"


@pytest.mark.parametrize("v", VERSIONS)
def test_partition_count_change_bumps_on_next_heartbeat(v):  # testOnNewMetadataImage (a topic grows)
    ctx = Ctx(v, TOPICS)
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5], bar=[0, 1, 2])}
    join(ctx, "m")
    ctx.c.update_topics(0, {"foo": 7})
    ctx.prepared = {"m": mk(foo=[0, 1, 2, 3, 4, 5, 6], bar=[0, 1, 2])}
    out = ctx.hb(member_id="m", member_epoch=1)
    assert out.reply.member_epoch == 2 and out.reply.assignment == mk(foo=[0, 1, 2, 3, 4, 5, 6], bar=[0, 1, 2])
    bump = [x for x in out.records if isinstance(x, GroupMetadataRecord)]
    assert bump[0].epoch == 2
    if ctx.c.rules.metadata_hash_epoch_record:  # KIP-1101: the epoch record carries the new hash
        assert bump[0].metadata_hash == metadata_hash({"foo": 7, "bar": 3})
    else:
        assert PartitionMetadataRecord("fooup", (("bar", 3), ("foo", 7))) in out.records


@pytest.mark.parametrize("v", VERSIONS)
def test_reconciliation_process(v):  # testReconciliationProcess (condensed: two members swap partitions)
    ctx = Ctx(v, TOPICS)
    two_members(ctx)
    ctx.prepared = {"m1": mk(foo=[0, 1], bar=[0]), "m2": mk(foo=[2, 3], bar=[2]), "m3": mk(foo=[4, 5], bar=[1])}
    r = join(ctx, "m3").reply
    assert (r.member_epoch, r.assignment) == (11, {})
    r = ctx.hb(member_id="m1", member_epoch=10).reply  # owned not sent: still owns what it must revoke
    assert (r.member_epoch, r.assignment) == (10, mk(foo=[0, 1], bar=[0]))
    assert ctx.group().members["m1"].state == "UNREVOKED_PARTITIONS"
    r = ctx.hb(member_id="m2", member_epoch=10, topic_partitions={"foo": [3, 4, 5], "bar": [2]}).reply
    assert (r.member_epoch, r.assignment) == (10, mk(foo=[3], bar=[2]))
    r = ctx.hb(member_id="m1", member_epoch=10, topic_partitions={"foo": [0, 1], "bar": [0]}).reply
    assert (r.member_epoch, r.assignment) == (11, None)
    r = ctx.hb(member_id="m3", member_epoch=11).reply
    assert (r.member_epoch, r.assignment) == (11, mk(bar=[1]))  # foo-4/5 still owned by m2
    assert ctx.group().members["m3"].state == "UNRELEASED_PARTITIONS"
    r = ctx.hb(member_id="m2", member_epoch=10, topic_partitions={"foo": [3], "bar": [2]}).reply
    assert (r.member_epoch, r.assignment) == (11, mk(foo=[2, 3], bar=[2]))
    r = ctx.hb(member_id="m3", member_epoch=11).reply
    assert (r.member_epoch, r.assignment) == (11, mk(foo=[4, 5], bar=[1]))
    assert ctx.group().state == "Stable" and ctx.c.anomalies == []
