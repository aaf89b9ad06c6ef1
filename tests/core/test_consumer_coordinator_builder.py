"""Kafka's ``CurrentAssignmentBuilderTest`` (group-coordinator/src/test/java/org/apache/kafka/
coordinator/group/modern/consumer/CurrentAssignmentBuilderTest.java, trunk Oct 2024 = the 4.0
rules), transcribed against :func:`coordinator_core.consumer.reconcile.build_next`, for every
supported version; the 4.2 changes (KAFKA-19974, KAFKA-19449, KAFKA-19431) have their own cases.
Topic ids are the names ``t1`` / ``t2``."""

from __future__ import annotations

import pytest

from coordinator_core.consumer.protocol import CoordinatorError
from coordinator_core.consumer.reconcile import build_next
from coordinator_core.consumer.state import ConsumerMember
from coordinator_core.consumer.versions import ConsumerRules

V40, V41, V42 = (ConsumerRules.for_version(v) for v in ("4.0", "4.1", "4.2"))
ALL = [V40, V41, V42]


def a(**topics):
    return {t: frozenset(ps) for t, ps in topics.items() if ps}


def mk(state, epoch, prev, assigned, pending=None):
    return ConsumerMember(
        "member", epoch, prev, state, assigned_partitions=assigned, partitions_pending_revocation=pending or {},
        subscribed_topic_names=frozenset({"t1", "t2"}),
    )  # fmt: skip


def same(x: ConsumerMember, y: ConsumerMember) -> bool:
    return x.assignment_key() == y.assignment_key()


def run(member, epoch, target, pe, owned, rules):
    subs = frozenset({"t1", "t2"}) if rules.enforce_subscription_consistency else None
    return build_next(member, epoch, target, pe, owned, rules, subs)


@pytest.mark.parametrize("rules", ALL)
def test_stable_to_stable(rules):  # testStableToStable
    m = mk("STABLE", 10, 10, a(t1=[1, 2, 3], t2=[4, 5, 6]))
    got = run(m, 11, a(t1=[1, 2, 3], t2=[4, 5, 6]), lambda t, p: 10, None, rules)
    assert same(got, mk("STABLE", 11, 10, a(t1=[1, 2, 3], t2=[4, 5, 6])))


@pytest.mark.parametrize("rules", ALL)
def test_stable_to_stable_with_new_partitions(rules):  # testStableToStableWithNewPartitions
    m = mk("STABLE", 10, 10, a(t1=[1, 2, 3], t2=[4, 5, 6]))
    got = run(m, 11, a(t1=[1, 2, 3, 4], t2=[4, 5, 6, 7]), lambda t, p: -1, None, rules)
    assert same(got, mk("STABLE", 11, 10, a(t1=[1, 2, 3, 4], t2=[4, 5, 6, 7])))


@pytest.mark.parametrize("rules", ALL)
def test_stable_to_unrevoked_partitions(rules):  # testStableToUnrevokedPartitions
    m = mk("STABLE", 10, 10, a(t1=[1, 2, 3], t2=[4, 5, 6]))
    got = run(m, 11, a(t1=[2, 3, 4], t2=[5, 6, 7]), lambda t, p: -1, None, rules)
    assert same(got, mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[2, 3], t2=[5, 6]), a(t1=[1], t2=[4])))


@pytest.mark.parametrize("rules", ALL)
def test_stable_to_unreleased_partitions(rules):  # testStableToUnreleasedPartitions
    m = mk("STABLE", 10, 10, a(t1=[1, 2, 3], t2=[4, 5, 6]))
    got = run(m, 11, a(t1=[1, 2, 3, 4], t2=[4, 5, 6, 7]), lambda t, p: 10, None, rules)
    assert same(got, mk("UNRELEASED_PARTITIONS", 11, 10, a(t1=[1, 2, 3], t2=[4, 5, 6])))


@pytest.mark.parametrize("rules", ALL)
def test_stable_to_unreleased_owned_without_revoked(rules):
    # testStableToUnreleasedPartitionsWithOwnedPartitionsNotHavingRevokedPartitions
    m = mk("STABLE", 10, 10, a(t1=[1, 2, 3], t2=[4, 5, 6]))
    got = run(m, 11, a(t1=[1, 2, 3], t2=[4, 5, 7]), lambda t, p: 10 if t == "t2" else -1, {}, rules)
    assert same(got, mk("UNRELEASED_PARTITIONS", 11, 10, a(t1=[1, 2, 3], t2=[4, 5])))


@pytest.mark.parametrize("rules", ALL)
def test_unrevoked_partitions_to_stable(rules):  # testUnrevokedPartitionsToStable
    m = mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[2, 3], t2=[5, 6]), a(t1=[1], t2=[4]))
    got = run(m, 11, a(t1=[2, 3], t2=[5, 6]), lambda t, p: -1, a(t1=[2, 3], t2=[5, 6]), rules)
    assert same(got, mk("STABLE", 11, 10, a(t1=[2, 3], t2=[5, 6])))


@pytest.mark.parametrize("rules", ALL)
def test_remains_in_unrevoked_partitions(rules):  # testRemainsInUnrevokedPartitions
    m = mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[2, 3], t2=[5, 6]), a(t1=[1], t2=[4]))
    target = a(t1=[3], t2=[6])
    for owned in (None, a(t1=[1, 2, 3], t2=[5, 6]), a(t1=[2, 3], t2=[4, 5, 6])):
        assert run(m, 12, target, lambda t, p: -1, owned, rules) is m


@pytest.mark.parametrize("rules", ALL)
def test_unrevoked_partitions_to_unrevoked_partitions(rules):  # testUnrevokedPartitionsToUnrevokedPartitions
    m = mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[2, 3], t2=[5, 6]), a(t1=[1], t2=[4]))
    got = run(m, 12, a(t1=[3], t2=[6]), lambda t, p: -1, a(t1=[2, 3], t2=[5, 6]), rules)
    if rules.unrevoked_epoch_bump:  # 4.0 / 4.1: epoch + 1
        want = mk("UNREVOKED_PARTITIONS", 11, 10, a(t1=[3], t2=[6]), a(t1=[2], t2=[5]))
    else:  # 4.2, KAFKA-19974 (apache/kafka#21107): the member epoch is not bumped
        want = mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[3], t2=[6]), a(t1=[2], t2=[5]))
    assert same(got, want)


@pytest.mark.parametrize("rules", ALL)
def test_unrevoked_partitions_to_unreleased_partitions(rules):  # testUnrevokedPartitionsToUnreleasedPartitions
    m = mk("UNREVOKED_PARTITIONS", 11, 10, a(t1=[2, 3], t2=[5, 6]))
    got = run(m, 11, a(t1=[2, 3, 4], t2=[5, 6, 7]), lambda t, p: 10, a(t1=[2, 3], t2=[5, 6]), rules)
    assert same(got, mk("UNRELEASED_PARTITIONS", 11, 11, a(t1=[2, 3], t2=[5, 6])))


@pytest.mark.parametrize("rules", ALL)
def test_unreleased_partitions_to_stable(rules):  # testUnreleasedPartitionsToStable
    m = mk("UNRELEASED_PARTITIONS", 11, 11, a(t1=[2, 3], t2=[5, 6]))
    got = run(m, 12, a(t1=[2, 3], t2=[5, 6]), lambda t, p: 10, None, rules)
    assert same(got, mk("STABLE", 12, 11, a(t1=[2, 3], t2=[5, 6])))


@pytest.mark.parametrize("rules", ALL)
def test_unreleased_partitions_to_stable_with_new_partitions(rules):
    # testUnreleasedPartitionsToStableWithNewPartitions
    m = mk("UNRELEASED_PARTITIONS", 11, 11, a(t1=[2, 3], t2=[5, 6]))
    got = run(m, 11, a(t1=[2, 3, 4], t2=[5, 6, 7]), lambda t, p: -1, None, rules)
    assert same(got, mk("STABLE", 11, 11, a(t1=[2, 3, 4], t2=[5, 6, 7])))


@pytest.mark.parametrize("rules", ALL)
def test_unreleased_partitions_to_unreleased_partitions(rules):
    # testUnreleasedPartitionsToUnreleasedPartitions
    m = mk("UNRELEASED_PARTITIONS", 11, 11, a(t1=[2, 3], t2=[5, 6]))
    got = run(m, 11, a(t1=[2, 3, 4], t2=[5, 6, 7]), lambda t, p: 10, None, rules)
    assert same(got, m)


@pytest.mark.parametrize("rules", ALL)
def test_unreleased_partitions_to_unrevoked_partitions(rules):
    # testUnreleasedPartitionsToUnrevokedPartitions
    m = mk("UNRELEASED_PARTITIONS", 11, 11, a(t1=[2, 3], t2=[5, 6]))
    got = run(m, 12, a(t1=[3], t2=[6]), lambda t, p: 10, None, rules)
    assert same(got, mk("UNREVOKED_PARTITIONS", 11, 11, a(t1=[3], t2=[6]), a(t1=[2], t2=[5])))


@pytest.mark.parametrize("rules", ALL)
def test_unknown_state(rules):  # testUnknownState
    m = mk("UNKNOWN", 11, 11, a(t1=[3], t2=[6]), a(t1=[2], t2=[5]))
    with pytest.raises(CoordinatorError) as e:
        run(m, 12, a(t1=[3], t2=[6]), lambda t, p: 10, None, rules)
    assert e.value.error == "FENCED_MEMBER_EPOCH"
    got = run(m, 12, a(t1=[3], t2=[6]), lambda t, p: 11, {}, rules)
    assert same(got, mk("STABLE", 12, 11, a(t1=[3], t2=[6])))


# ---------------------------------------------------------------------- 4.2 changes
@pytest.mark.parametrize("rules", ALL)
def test_own_pending_revocation_not_unreleased(rules):
    """KAFKA-19449 (apache/kafka#20781, 4.2): a partition the member itself is revoking and that the
    new target gives back to it is not unreleased."""
    m = mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[2, 3]), a(t1=[1]))
    pe = {("t1", 1): 10, ("t1", 2): 10, ("t1", 3): 10}
    got = run(m, 11, a(t1=[1, 2, 3]), lambda t, p: pe.get((t, p), -1), a(t1=[2, 3]), rules)
    if rules.own_pending_not_unreleased:
        assert same(got, mk("STABLE", 11, 10, a(t1=[1, 2, 3])))
    else:
        assert same(got, mk("UNRELEASED_PARTITIONS", 11, 10, a(t1=[2, 3])))


@pytest.mark.parametrize("rules", ALL)
def test_unsubscribed_topic_revoked_at_target_epoch(rules):
    """KAFKA-19431 (apache/kafka#20055, 4.2): a member at the target epoch that no longer
    subscribes to t2 must revoke t2 at once; before 4.2 it keeps it until the next target."""
    m = mk("STABLE", 10, 9, a(t1=[1], t2=[2]))
    got = build_next(m, 10, a(t1=[1], t2=[2]), lambda t, p: 10, a(t1=[1], t2=[2]), rules, frozenset({"t1"}))
    if rules.enforce_subscription_consistency:
        assert same(got, mk("UNREVOKED_PARTITIONS", 10, 10, a(t1=[1]), a(t2=[2])))
    else:
        assert got is m
