"""Kafka's ``UniformHeterogeneousAssignmentBuilderTest`` (group-coordinator/src/test/java/org/apache/
kafka/coordinator/group/assignor/, trunk Oct 2024 = 4.0-4.2), transcribed against
:func:`coordinator_core.assignors.server_uniform.assign` (heterogeneous subscriptions) and
:func:`~coordinator_core.assignors.server_uniform_heterogeneous.assign_heterogeneous`. Members are
passed in sorted order (Kafka's ``TestGroupSpecImpl``); the topic names topic1..topic4 sort as
their fixed topic ids T1..T4 do."""

from __future__ import annotations

import pytest

from coordinator_core.assignors.server_uniform import AssignorError, assign
from coordinator_core.assignors.server_uniform_heterogeneous import assign_heterogeneous

T1, T2, T3, T4 = "topic1", "topic2", "topic3", "topic4"


def mk(**topics):
    return {t: frozenset(ps) for t, ps in topics.items() if ps}


def spec(*members):
    """``(member_id, subscribed topics, current assignment)`` -> the assignor's member specs."""
    return [(mid, None, frozenset(subs), cur) for mid, subs, cur in members]


def run(members, topics):
    """``HETEROGENEOUS`` as the test's group spec says, whatever the subscriptions."""
    return assign_heterogeneous(spec(*members), topics, AssignorError)


def test_two_members_no_topic_subscription():  # testTwoMembersNoTopicSubscription
    assert run([("A", [], {}), ("B", [], {})], {T1: 3}) == {}


def test_subscribed_to_nonexistent_topics():  # testTwoMembersSubscribedToNonexistentTopics
    with pytest.raises(AssignorError):
        assign(spec(("A", [T3], {}), ("B", [T2], {})), {T1: 3})


def test_first_assignment_two_members_two_topics():  # testFirstAssignmentTwoMembersTwoTopics
    got = assign(spec(("A", [T1, T3], {}), ("B", [T3], {})), {T1: 3, T3: 6})
    assert got == {"A": mk(topic1=[0, 1, 2], topic3=[4]), "B": mk(topic3=[0, 1, 2, 3, 5])}


def test_first_assignment_more_members_than_partitions():  # testFirstAssignmentNumMembersGreaterThanTotalNumPartitions
    got = assign(spec(("A", [T3], {}), ("B", [T3], {}), ("C", [T1], {})), {T3: 1, T1: 2})
    assert got == {"A": mk(topic3=[0]), "B": {}, "C": mk(topic1=[0, 1])}


def test_reassignment_unbalanced_previous():  # testReassignmentForTwoMembersThreeTopicsGivenUnbalancedPrevAssignment
    got = assign(spec(
        ("A", [T1], mk(topic1=[0, 1, 2])),
        ("B", [T1, T2], mk(topic1=[3], topic2=[0])),
        ("C", [T1, T2, T3], mk(topic1=[4, 5], topic2=[1, 2, 3], topic3=[0, 1, 2, 3])),
    ), {T1: 6, T2: 4, T3: 4})  # fmt: skip
    assert got == {
        "A": mk(topic1=[0, 1, 2, 5]),
        "B": mk(topic1=[3], topic2=[0, 1, 2, 3]),
        "C": mk(topic1=[4], topic3=[0, 1, 2, 3]),
    }


def test_partitions_added():  # testReassignmentWhenPartitionsAreAddedForTwoMembers
    got = assign(spec(
        ("A", [T1, T3], mk(topic1=[0, 1, 2, 3], topic3=[0, 1])),
        ("B", [T1, T2, T3, T4], mk(topic2=[0, 1, 2], topic4=[0, 1, 2])),
    ), {T1: 6, T2: 5, T3: 3, T4: 3})  # fmt: skip
    assert got == {"A": mk(topic1=[0, 1, 2, 3, 4, 5], topic3=[0, 1, 2]), "B": mk(topic2=[0, 1, 2, 3, 4], topic4=[0, 1, 2])}


def test_member_and_partitions_added():  # testReassignmentWhenOneMemberAddedAndPartitionsAddedTwoMembersTwoTopics
    got = assign(spec(
        ("A", [T1], mk(topic1=[0, 2], topic2=[0])),
        ("B", [T1, T2], mk(topic1=[1], topic2=[1, 2])),
        ("C", [T1, T2], {}),
    ), {T1: 6, T2: 7})  # fmt: skip
    assert got == {"A": mk(topic1=[0, 2, 3, 4, 5]), "B": mk(topic1=[1], topic2=[1, 2, 6]), "C": mk(topic2=[0, 3, 4, 5])}


def test_member_removed():  # testReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersThreeTopics
    got = assign(spec(
        ("A", [T1, T3], mk(topic1=[0, 1, 2], topic3=[0, 1])),
        ("B", [T2], mk(topic2=[3, 4, 5, 6])),
    ), {T1: 3, T2: 8, T3: 3})  # fmt: skip
    assert got == {"A": mk(topic1=[0, 1, 2], topic3=[0, 1, 2]), "B": mk(topic2=[0, 1, 2, 3, 4, 5, 6, 7])}


def test_subscription_removed():  # testReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics
    got = assign(spec(
        ("A", [T1], mk(topic1=[0, 2], topic2=[1, 3])),
        ("B", [T1, T2], mk(topic1=[1], topic2=[0, 2, 4])),
    ), {T1: 3, T2: 5})  # fmt: skip
    assert got == {"A": mk(topic1=[0, 1, 2]), "B": mk(topic2=[0, 1, 2, 3, 4])}


def test_topic_partitions_run_out():  # testReassignmentWhenTopicPartitionsRunOutAndMembersHaveNoPartitions
    got = run([("A", [T1, T2, T3], mk(topic1=[0, 1], topic2=[0, 1], topic3=[0, 1])), ("B", [T1, T2, T3], {})],
              {T1: 2, T2: 2, T3: 2})  # fmt: skip
    assert got == {"A": mk(topic2=[0], topic3=[0, 1]), "B": mk(topic1=[0, 1], topic2=[1])}


def test_one_member_without_subscriptions():  # testFirstAssignmentWithTwoMembersIncludingOneWithoutSubscriptions
    assert assign(spec(("A", [T1], {}), ("B", [], {})), {T1: 3}) == {"A": mk(topic1=[0, 1, 2]), "B": {}}
