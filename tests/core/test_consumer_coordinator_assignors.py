"""Kafka's server-assignor tests transcribed (group-coordinator/src/test/java/org/apache/kafka/
coordinator/group/assignor/, trunk Oct 2024, the 4.0 assignors; unchanged in 4.1 / 4.2 for these
cases): ``OptimizedUniformAssignmentBuilderTest`` (uniform, homogeneous subscriptions) and
``RangeAssignorTest``.

Java iterates a ``HashSet<Uuid>`` of the tests' fixed topic ids (T1-A4s3..., T2-B4s3..., T3-CU8f...)
in bucket order topic2, topic3, topic1; the assignor iterates topics in the order it is given, so
``java_order`` passes subscriptions and ``mkAssignment`` maps in that order, and ``mkOrderedAssignment``
maps in their written order."""

from __future__ import annotations

import pytest

from coordinator_core.assignors import server_range, server_uniform
from coordinator_core.assignors.server_uniform import AssignorError

_JAVA = {"t2": 0, "t3": 1, "t1": 2}  # HashSet<Uuid> iteration order of the tests' topic ids


def java_order(*topics):
    return tuple(sorted(topics, key=_JAVA.__getitem__))


def mk(ordered=False, **parts):
    keys = list(parts) if ordered else java_order(*parts)
    return {t: frozenset(parts[t]) for t in keys if parts[t]}


def member(mid, subs, assignment=None, instance=None):
    return (mid, instance, java_order(*subs), assignment or {})


def check_validity_and_balance(members, result):
    """``checkValidityAndBalance``."""
    subs = {m[0]: set(m[2]) for m in members}
    seen = set()
    sizes = []
    for mid, a in result.items():
        n = 0
        for t, ps in a.items():
            assert t in subs[mid]
            for p in ps:
                assert (t, p) not in seen
                seen.add((t, p))
            n += len(ps)
        sizes.append(n)
    assert max(sizes) - min(sizes) <= 1


# ---------------------------------------------------------------------- OptimizedUniformAssignmentBuilderTest
def test_uniform_one_member_no_topic_subscription():  # testOneMemberNoTopicSubscription
    assert server_uniform.assign([member("A", [])], {"t1": 3}) == {}


def test_uniform_one_member_subscribed_to_nonexistent_topic():  # testOneMemberSubscribedToNonexistentTopic
    with pytest.raises(AssignorError):
        server_uniform.assign([member("A", ["t2"])], {"t1": 3})


def test_uniform_first_assignment_two_members_two_topics():  # testFirstAssignmentTwoMembersTwoTopicsNoMemberRacks
    ms = [member("A", ["t1", "t3"]), member("B", ["t1", "t3"])]
    got = server_uniform.assign(ms, {"t1": 3, "t3": 2})
    assert got == {"A": mk(t1=[0], t3=[0, 1]), "B": mk(t1=[1, 2])}
    check_validity_and_balance(ms, got)


def test_uniform_first_assignment_more_members_than_partitions():
    # testFirstAssignmentNumMembersGreaterThanTotalNumPartitions
    ms = [member(x, ["t3"]) for x in "ABC"]
    got = server_uniform.assign(ms, {"t3": 2})
    assert got == {"A": mk(t3=[0]), "B": mk(t3=[1]), "C": {}}
    check_validity_and_balance(ms, got)


def test_uniform_validity_and_balance_for_large_sample_set():  # testValidityAndBalanceForLargeSampleSet
    topics = {f"topic-{i}": 3 for i in range(1, 100)}
    ms = [(f"member{i}", None, tuple(topics), {}) for i in range(1, 50)]
    check_validity_and_balance(ms, server_uniform.assign(sorted(ms), topics))


def test_uniform_reassignment_given_unbalanced_previous():
    # testReassignmentForTwoMembersTwoTopicsGivenUnbalancedPrevAssignment
    ms = [
        member("A", ["t1", "t2"], mk(True, t1=[0, 1], t2=[0, 1])),
        member("B", ["t1", "t2"], mk(True, t1=[2], t2=[2])),
    ]
    got = server_uniform.assign(ms, {"t1": 3, "t2": 3})
    assert got == {"A": mk(t1=[0, 1], t2=[0]), "B": mk(t1=[2], t2=[1, 2])}
    check_validity_and_balance(ms, got)


def test_uniform_reassignment_when_partitions_added():  # testReassignmentWhenPartitionsAreAddedForTwoMembersTwoTopics
    ms = [
        member("A", ["t1", "t2"], mk(True, t1=[0, 2], t2=[0])),
        member("B", ["t1", "t2"], mk(True, t1=[1], t2=[1, 2])),
    ]
    got = server_uniform.assign(ms, {"t1": 6, "t2": 5})
    assert got == {"A": mk(t1=[0, 2, 3], t2=[0, 3, 4]), "B": mk(t1=[1, 4, 5], t2=[1, 2])}
    check_validity_and_balance(ms, got)


def test_uniform_reassignment_when_one_member_added():
    # testReassignmentWhenOneMemberAddedAfterInitialAssignmentWithTwoMembersTwoTopics
    ms = [
        member("A", ["t1", "t2"], mk(True, t1=[0, 2], t2=[0])),
        member("B", ["t1", "t2"], mk(True, t1=[1], t2=[1, 2])),
        member("C", ["t1", "t2"]),
    ]
    got = server_uniform.assign(ms, {"t1": 3, "t2": 3})
    assert got == {"A": mk(t1=[0, 2]), "B": mk(t1=[1], t2=[1]), "C": mk(t2=[0, 2])}
    check_validity_and_balance(ms, got)


def test_uniform_reassignment_when_one_member_removed():
    # testReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersTwoTopics
    ms = [member("A", ["t1", "t2"], mk(t1=[0], t2=[0])), member("B", ["t1", "t2"], mk(t1=[1], t2=[1]))]
    got = server_uniform.assign(ms, {"t1": 3, "t2": 3})
    assert got == {"A": mk(t1=[0], t2=[0, 2]), "B": mk(t1=[1, 2], t2=[1])}
    check_validity_and_balance(ms, got)


def test_uniform_reassignment_when_one_subscription_removed():
    # testReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics
    ms = [member("A", ["t2"], mk(t1=[0], t2=[0])), member("B", ["t2"], mk(t1=[1], t2=[1]))]
    got = server_uniform.assign(ms, {"t1": 2, "t2": 2})
    assert got == {"A": mk(t2=[0]), "B": mk(t2=[1])}
    check_validity_and_balance(ms, got)


# ---------------------------------------------------------------------- RangeAssignorTest
def test_range_one_member_no_topic():  # testOneMemberNoTopic
    assert server_range.assign([member("A", [])], {"t1": 3}) == {"A": {}}


def test_range_one_member_subscribed_to_nonexistent_topic():  # testOneMemberSubscribedToNonExistentTopic
    with pytest.raises(AssignorError):
        server_range.assign([member("A", ["t2"])], {"t1": 3})


def test_range_first_assignment_same_subscriptions():  # testFirstAssignmentTwoMembersTwoTopicsSameSubscriptions
    got = server_range.assign([member("A", ["t1", "t3"]), member("B", ["t1", "t3"])], {"t1": 3, "t3": 2})
    assert got == {"A": mk(t1=[0, 1], t3=[0]), "B": mk(t1=[2], t3=[1])}


def test_range_first_assignment_different_subscriptions():
    # testFirstAssignmentThreeMembersThreeTopicsDifferentSubscriptions
    ms = [member("A", ["t1", "t2"]), member("B", ["t3"]), member("C", ["t2", "t3"])]
    got = server_range.assign(ms, {"t1": 3, "t2": 3, "t3": 2})
    assert got == {"A": mk(t1=[0, 1, 2], t2=[0, 1]), "B": mk(t3=[0]), "C": mk(t2=[2], t3=[1])}


def test_range_first_assignment_more_members_than_partitions():
    # testFirstAssignmentNumMembersGreaterThanNumPartitions
    got = server_range.assign([member(x, ["t1", "t3"]) for x in "ABC"], {"t1": 3, "t3": 2})
    assert got == {"A": mk(t1=[0], t3=[0]), "B": mk(t1=[1], t3=[1]), "C": mk(t1=[2])}


def test_range_static_membership():  # testStaticMembership
    ms = [member("A", ["t1"], instance="instanceA"), member("B", ["t1"], instance="instanceB")]
    first = server_range.assign(ms, {"t1": 3})
    again = server_range.assign([member("memberA1", ["t1"], instance="instanceA"), ms[1]], {"t1": 3})
    assert again["memberA1"] == first["A"] and again["B"] == first["B"]


def test_range_mixed_static_membership():  # testMixedStaticMembership
    ms = [member("A", ["t1"], instance="instanceA"), member("C", ["t1"], instance="instanceC"), member("B", ["t1"])]
    first = server_range.assign(ms, {"t1": 5})
    again = server_range.assign([member("memberA1", ["t1"], instance="instanceA"), ms[1], ms[2]], {"t1": 5})
    assert again["memberA1"] == first["A"] and again["B"] == first["B"] and again["C"] == first["C"]
    assert first == {"A": mk(t1=[0, 1]), "C": mk(t1=[2, 3]), "B": mk(t1=[4])}


def test_range_reassignment_more_members_than_partitions_one_added():
    # testReassignmentNumMembersGreaterThanNumPartitionsWhenOneMemberAdded
    ms = [
        member("A", ["t1", "t2"], mk(t1=[0], t2=[0])), member("B", ["t1", "t2"], mk(t1=[1], t2=[1])),
        member("C", ["t1", "t2"]),
    ]  # fmt: skip
    got = server_range.assign(ms, {"t1": 2, "t2": 2})
    assert got == {"A": mk(t1=[0], t2=[0]), "B": mk(t1=[1], t2=[1]), "C": {}}


def test_range_reassignment_one_partition_added():  # testReassignmentWhenOnePartitionAddedForTwoMembersTwoTopics
    ms = [member("A", ["t1", "t2"], mk(t1=[0, 1], t2=[0, 1])), member("B", ["t1", "t2"], mk(t1=[2], t2=[2]))]
    got = server_range.assign(ms, {"t1": 4, "t2": 4})
    assert got == {"A": mk(t1=[0, 1], t2=[0, 1]), "B": mk(t1=[2, 3], t2=[2, 3])}


def test_range_reassignment_one_member_added():
    # testReassignmentWhenOneMemberAddedAfterInitialAssignmentWithTwoMembersTwoTopics
    ms = [
        member("A", ["t1", "t2"], mk(t1=[0, 1], t2=[0, 1])), member("B", ["t1", "t2"], mk(t1=[2], t2=[2])),
        member("C", ["t1", "t2"]),
    ]  # fmt: skip
    got = server_range.assign(ms, {"t1": 3, "t2": 3})
    assert got == {"A": mk(t1=[0], t2=[0]), "B": mk(t1=[1], t2=[1]), "C": mk(t1=[2], t2=[2])}


def test_range_reassignment_one_member_and_one_partition_added():
    # testReassignmentWhenOneMemberAddedAndOnePartitionAfterInitialAssignmentWithTwoMembersTwoTopics
    ms = [
        member("A", ["t1", "t2"], mk(t1=[0, 1], t2=[0, 1])), member("B", ["t1", "t2"], mk(t1=[2], t2=[2])),
        member("C", ["t1"]),
    ]  # fmt: skip
    got = server_range.assign(ms, {"t1": 4, "t2": 3})
    assert got == {"A": mk(t1=[0, 1], t2=[0, 1]), "B": mk(t1=[2], t2=[2]), "C": mk(t1=[3])}


def test_range_reassignment_one_member_removed():
    # testReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithTwoMembersTwoTopics
    got = server_range.assign([member("B", ["t1", "t2"], mk(t1=[2], t2=[2]))], {"t1": 3, "t2": 3})
    assert got == {"B": mk(t1=[0, 1, 2], t2=[0, 1, 2])}


def test_range_reassignment_multiple_subscriptions_removed():
    # testReassignmentWhenMultipleSubscriptionsRemovedAfterInitialAssignmentWithThreeMembersTwoTopics
    ms = [
        member("A", ["t1"], mk(t1=[0, 1, 2], t2=[0])), member("B", ["t1", "t2", "t3"], mk(t2=[1])),
        member("C", ["t2"], mk(t2=[2], t3=[0, 1])),
    ]  # fmt: skip
    got = server_range.assign(ms, {"t1": 3, "t2": 3, "t3": 2})
    assert got == {"A": mk(t1=[0, 1]), "B": mk(t1=[2], t2=[0, 1], t3=[0, 1]), "C": mk(t2=[2])}
