"""Sticky and cooperative-sticky assignors: facts ported from Kafka's clients tests (3.9)
``AbstractStickyAssignorTest``, ``StickyAssignorTest`` and ``CooperativeStickyAssignorTest``
(non-rack configurations), plus seed 001's sticky examples.

Kafka builds subscriptions with ``subscription(topics)`` (no owned partitions, no generation) or
``buildSubscriptionV2Above(topics, owned, generation)``; here those are ``owned=`` and
``generation=`` (an int for everyone, or member -> generation, missing = no generation).
"""

from __future__ import annotations

import pytest

from coordinator_core.assignors import assign, balance_violations, plan_sticky

T, T1, T2, T3 = "topic", "topic1", "topic2", "topic3"
C1, C2, C3, C4 = "consumer1", "consumer2", "consumer3", "consumer4"
GEN = 1  # AbstractStickyAssignorTest.generationId


def all_partitions(subs, partitions):
    return {(t, p) for ts in subs.values() for t in set(ts) if t in partitions for p in range(partitions[t])}


def verify_valid_and_balanced(subs, assignment, partitions, *, complete=True):
    """``verifyValidityAndBalance``: members only get subscribed partitions, none twice, and no
    member with 2+ fewer partitions could take a partition of a busier member."""
    assert set(assignment) == set(subs)
    seen = {}
    for member, tps in assignment.items():
        for tp in tps:
            assert tp[0] in subs[member], f"{tp} assigned to {member} which does not subscribe to it"
            assert tp not in seen, f"{tp} assigned to {member} and {seen[tp]}"
            seen[tp] = member
    if complete:
        assert set(seen) == all_partitions(subs, partitions)
    assert balance_violations(assignment, subs) == []


def fully_balanced(assignment):
    sizes = [len(v) for v in assignment.values()]
    return max(sizes) - min(sizes) <= 1


def sticky(subs, partitions, owned=None, generation=None):
    plan = plan_sticky(subs, partitions, owned=owned, generation=generation)
    return plan.assignment, plan.transferring


def as_sets(assignment):
    return {m: set(v) for m, v in assignment.items()}


# ---------------------------------------------------------------------- simple shapes (both)


@pytest.mark.parametrize("strategy", ["sticky", "cooperative-sticky"])
def test_one_consumer_no_topic_and_nonexistent_topic(strategy):
    assert assign(strategy, {"consumer": []}, {}) == {"consumer": []}
    assert assign(strategy, {"consumer": [T]}, {}) == {"consumer": []}


@pytest.mark.parametrize("strategy", ["sticky", "cooperative-sticky"])
def test_one_consumer_one_topic_and_only_subscribed_topics(strategy):
    assert assign(strategy, {"consumer": [T]}, {T: 3}) == {"consumer": [(T, 0), (T, 1), (T, 2)]}
    assert assign(strategy, {"consumer": [T]}, {T: 3, "other": 3}) == {"consumer": [(T, 0), (T, 1), (T, 2)]}


def test_one_consumer_multiple_topics():
    got, moving = sticky({"consumer": [T1, T2]}, {T1: 1, T2: 2})
    assert got == {"consumer": [(T1, 0), (T2, 0), (T2, 1)]}
    assert moving == {}


def test_two_consumers_one_topic_one_partition():
    subs = {C1: [T], C2: [T]}
    got, moving = sticky(subs, {T: 1})
    verify_valid_and_balanced(subs, got, {T: 1})
    assert sorted(len(v) for v in got.values()) == [0, 1] and moving == {}


def test_two_consumers_one_topic_two_partitions():
    got, moving = sticky({C1: [T], C2: [T]}, {T: 2})
    assert got == {C1: [(T, 0)], C2: [(T, 1)]} and moving == {}


def test_multiple_consumers_mixed_topic_subscriptions():
    subs = {C1: [T1], C2: [T1, T2], C3: [T1]}
    plan = plan_sticky(subs, {T1: 3, T2: 2})
    assert plan.assignment == {C1: [(T1, 0), (T1, 2)], C2: [(T2, 0), (T2, 1)], C3: [(T1, 1)]}
    assert plan.constrained is False and plan.transferring == {}
    verify_valid_and_balanced(subs, plan.assignment, {T1: 3, T2: 2})


def test_two_consumers_two_topics_six_partitions():
    plan = plan_sticky({C1: [T1, T2], C2: [T1, T2]}, {T1: 3, T2: 3})
    assert plan.assignment == {C1: [(T1, 0), (T1, 2), (T2, 1)], C2: [(T1, 1), (T2, 0), (T2, 2)]}
    assert plan.constrained is True and plan.transferring == {}


# ------------------------------------------------------------ constrained path with ownership


def test_consumer_owning_min_quota_expected_max_quota():
    subs = {C1: [T1, T2], C2: [T1, T2]}
    owned = {C1: [(T1, 0), (T2, 1)], C2: [(T1, 1), (T2, 2)]}
    got, moving = sticky(subs, {T1: 2, T2: 3}, owned, GEN)
    assert got == {C1: [(T1, 0), (T2, 0), (T2, 1)], C2: [(T1, 1), (T2, 2)]}
    assert moving == {}


def test_max_quota_consumer_more_than_num_expected_max_capacity_members():
    """Which of the two maxQuota owners keeps both partitions follows the leader's HashMap order
    (consumer2's bucket comes before consumer1's), as in Kafka."""
    subs = {C1: [T1, T2], C2: [T1, T2], C3: [T1, T2]}
    owned = {C1: [(T1, 0), (T2, 0)], C2: [(T1, 1), (T2, 1)], C3: []}
    got, moving = sticky(subs, {T1: 2, T2: 2}, owned, GEN)
    assert moving == {(T2, 0): C3}
    assert got == {C1: [(T1, 0)], C2: [(T1, 1), (T2, 1)], C3: [(T2, 0)]}
    # cooperative: topic2-0 is withheld from consumer3 until consumer1 has revoked it
    coop = assign("cooperative-sticky", subs, {T1: 2, T2: 2}, owned=owned, generation=GEN)
    assert coop == {C1: [(T1, 0)], C2: [(T1, 1), (T2, 1)], C3: []}


def test_all_consumers_are_under_min_quota():
    subs = {C1: [T1, T2], C2: [T1, T2], C3: [T1, T2]}
    owned = {C1: [(T1, 0)], C2: [(T1, 1)], C3: []}
    got, moving = sticky(subs, {T1: 2, T2: 3}, owned, GEN)
    assert got == {C1: [(T1, 0), (T2, 1)], C2: [(T1, 1), (T2, 2)], C3: [(T2, 0)]}
    assert moving == {}


def test_add_remove_consumer_one_topic():
    parts = {T: 3}
    got, _ = sticky({C1: [T]}, parts)
    assert got == {C1: [(T, 0), (T, 1), (T, 2)]}
    got, moving = sticky({C1: [T], C2: [T]}, parts, {C1: got[C1], C2: []}, GEN)
    assert moving == {(T, 2): C2}
    assert got == {C1: [(T, 0), (T, 1)], C2: [(T, 2)]}
    got, moving = sticky({C2: [T]}, parts, {C2: got[C2]}, GEN)
    assert got == {C2: [(T, 0), (T, 1), (T, 2)]} and moving == {}


def test_topic_balance_after_reassignment():
    parts = {T1: 12, T2: 12}
    both = [T1, T2]

    def per_topic(assignment, topic):
        return {m: sum(1 for t, _ in v if t == topic) for m, v in assignment.items()}

    got, _ = sticky({C1: both}, parts)
    got, _ = sticky({C1: both, C2: both}, parts, {C1: got[C1], C2: []}, GEN)
    assert per_topic(got, T1) == per_topic(got, T2) == {C1: 6, C2: 6}
    subs4 = {C1: both, C2: both, C3: both, C4: both}
    got, _ = sticky(subs4, parts, {C1: got[C1], C2: got[C2], C3: [], C4: []}, GEN)
    assert per_topic(got, T1) == per_topic(got, T2) == dict.fromkeys(subs4, 3)
    got, moving = sticky({C3: both, C4: both}, parts, {C3: got[C3], C4: got[C4]}, GEN)
    assert per_topic(got, T1) == per_topic(got, T2) == {C3: 6, C4: 6}
    assert moving == {}


def test_add_remove_two_consumers_two_topics():
    parts = {T1: 3, T2: 4}
    both = [T1, T2]
    got, moving = sticky({C1: both, C2: both}, parts)
    assert got == {C1: [(T1, 0), (T1, 2), (T2, 1), (T2, 3)], C2: [(T1, 1), (T2, 0), (T2, 2)]}
    assert moving == {}

    subs = {C1: both, C2: both, C3: both, C4: both}
    got, moving = sticky(subs, parts, {C1: got[C1], C2: got[C2], C3: [], C4: []}, GEN)
    assert moving == {(T1, 2): C3, (T2, 3): C3, (T2, 2): C4}
    assert as_sets(got) == {
        C1: {(T1, 0), (T2, 1)},
        C2: {(T2, 0), (T1, 1)},
        C3: {(T1, 2), (T2, 3)},
        C4: {(T2, 2)},
    }

    got, moving = sticky({C3: both, C4: both}, parts, {C3: got[C3], C4: got[C4]}, GEN)
    assert as_sets(got) == {C3: {(T1, 2), (T2, 3), (T1, 0), (T2, 1)}, C4: {(T2, 2), (T1, 1), (T2, 0)}}
    assert moving == {}


def test_all_consumers_reach_expected_quota_and_are_considered_filled():
    subs = {C1: [T], C2: [T], C3: [T]}
    got, moving = sticky(subs, {T: 4}, {C1: [(T, 0), (T, 1)], C2: [(T, 2)], C3: []}, GEN)
    assert got == {C1: [(T, 0), (T, 1)], C2: [(T, 2)], C3: [(T, 3)]} and moving == {}


def test_stickiness_after_the_potential_leader_leaves():
    subs = {C1: [T1], C2: [T1], C3: [T1], C4: [T1]}
    first, _ = sticky(subs, {T1: 3})
    assert all(len(v) <= 1 for v in first.values())
    rest = {m: [T1] for m in (C2, C3, C4)}
    got, moving = sticky(rest, {T1: 3}, {m: first[m] for m in rest}, GEN)
    assert moving == {}
    for m in rest:
        assert len(got[m]) == 1
        assert not first[m] or got[m] == first[m], f"stickiness not honoured for {m}"


def test_assignment_updated_for_deleted_topic():
    got, _ = sticky({"consumer": [T1, T2, T3]}, {T1: 1, T3: 100})
    assert list(got) == ["consumer"] and len(got["consumer"]) == 101


def test_no_exception_when_only_subscribed_topic_deleted():
    got, _ = sticky({"consumer": [T]}, {T: 3})
    got, moving = sticky({"consumer": [T]}, {}, {"consumer": got["consumer"]}, GEN)
    assert got == {"consumer": []} and moving == {}


# ---------------------------------------------------------------- generations and conflicts


def test_owned_partitions_invalidated_for_consumer_with_stale_generation():
    subs = {C1: [T, T2], C2: [T, T2]}
    claim = [(T, 0), (T, 2), (T2, 1)]
    got, moving = sticky(subs, {T: 3, T2: 3}, {C1: claim, C2: claim}, {C1: 10, C2: 9})
    assert as_sets(got) == {C1: set(claim), C2: {(T, 1), (T2, 0), (T2, 2)}}
    assert moving == {}


def test_owned_partitions_invalidated_for_consumer_with_no_generation():
    subs = {C1: [T, T2], C2: [T, T2]}
    claim = [(T, 0), (T, 2), (T2, 1)]
    got, moving = sticky(subs, {T: 3, T2: 3}, {C1: claim, C2: claim}, {C1: 10})  # C2 reports none (-1)
    assert as_sets(got) == {C1: set(claim), C2: {(T, 1), (T2, 0), (T2, 2)}}
    assert moving == {}


def test_partition_claimed_by_multiple_consumers_in_same_generation_is_transferring():
    subs = {C1: [T], C2: [T], C3: [T]}
    owned = {C1: [(T, 0), (T, 1)], C2: [(T, 0), (T, 2)], C3: []}
    plan = plan_sticky(subs, {T: 3}, owned=owned, generation=GEN)
    assert plan.transferring == {(T, 0): C3}
    assert plan.multiply_claimed == {(T, 0)}
    assert plan.assignment == {C1: [(T, 1)], C2: [(T, 2)], C3: [(T, 0)]}
    # CooperativeStickyAssignorTest: topic-0 counts as owned, so consumer3 waits for both revocations
    assert plan.cooperative == {C1: [(T, 1)], C2: [(T, 2)], C3: []}


def test_claimed_by_multiple_consumers_same_generation_unequal_partitions_per_consumer():
    subs = {C1: [T], C2: [T], C3: [T]}
    owned = {C1: [(T, 0), (T, 1)], C2: [(T, 0), (T, 2)], C3: []}
    plan = plan_sticky(subs, {T: 4}, owned=owned, generation=GEN)
    assert plan.assignment == {C1: [(T, 1), (T, 3)], C2: [(T, 2)], C3: [(T, 0)]}
    assert plan.cooperative == {C1: [(T, 1), (T, 3)], C2: [(T, 2)], C3: []}


def test_ensure_partitions_assigned_to_highest_generation():
    subs = {m: [T, T2, T3] for m in (C1, C2, C3)}
    owned = {
        C1: [(T, 0), (T2, 0), (T3, 0)],
        C2: [(T, 1), (T2, 1), (T3, 1)],
        C3: [(T2, 1), (T3, 0), (T3, 2)],
    }
    got, moving = sticky(subs, {T: 3, T2: 3, T3: 3}, owned, {C1: 10, C2: 9, C3: 8})
    assert as_sets(got) == {
        C1: {(T, 0), (T2, 0), (T3, 0)},
        C2: {(T, 1), (T2, 1), (T3, 1)},
        C3: {(T, 2), (T2, 2), (T3, 2)},
    }
    assert moving == {}


def test_no_reassignment_on_current_members():
    subs = {m: [T, T2, T3, T1] for m in (C1, C2, C3, C4)}
    owned = {
        C1: [],
        C2: [(T, 0), (T2, 0), (T1, 0)],
        C3: [(T3, 2), (T2, 2), (T1, 1)],
        C4: [(T3, 1), (T, 1), (T, 2)],
    }
    got, moving = sticky(subs, {T: 3, T1: 3, T2: 3, T3: 3}, owned, {C1: None, C2: 9, C3: 8, C4: 7})
    assert set(got[C1]) == {(T1, 2), (T2, 1), (T3, 0)}
    assert moving == {}
    verify_valid_and_balanced(subs, got, {T: 3, T1: 3, T2: 3, T3: 3})


def test_owned_partitions_invalidated_for_consumer_with_multiple_generation():
    subs = {C1: [T, T2], C2: [T, T2]}
    owned = {C1: [(T, 0), (T2, 1), (T, 1)], C2: [(T, 0), (T2, 1), (T2, 2)]}
    got, moving = sticky(subs, {T: 3, T2: 3}, owned, {C1: 10, C2: 8})
    assert as_sets(got) == {C1: {(T, 0), (T2, 1), (T, 1)}, C2: {(T, 2), (T2, 2), (T2, 0)}}
    assert moving == {}


@pytest.mark.parametrize("gens", [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)])
def test_subscription_not_equal_and_same_partition_claimed_in_three_generations(gens):
    subs = {C1: [T], C2: [T], C3: [T], C4: [T1]}
    owned = {C1: [(T, 0), (T, 2)], C2: [(T, 1), (T, 2), (T, 3)], C3: [(T, 2), (T, 4), (T, 5)], C4: [(T1, 0)]}
    generation = {C1: gens[0], C2: gens[1], C3: gens[2], C4: 2}
    for strategy in ("sticky", "cooperative-sticky"):
        got = assign(strategy, subs, {T: 6, T1: 1}, owned=owned, generation=generation)
        flat = [tp for v in got.values() for tp in v]
        assert len(flat) == len(set(flat))
        if strategy == "sticky":
            assert all(1 <= len(v) <= 2 for v in got.values())


# --------------------------------------------------------------------- StickyAssignorTest


@pytest.mark.parametrize("all_equal", [True, False])
def test_assignment_with_multiple_generations_1(all_equal):
    all_topics = [T, T2]
    c2_topics = all_topics if all_equal else [T]
    parts = {T: 6, T2: 6}
    subs = {C1: all_topics, C2: c2_topics, C3: all_topics}
    r1, _ = sticky(subs, parts)
    assert [len(r1[m]) for m in (C1, C2, C3)] == [4, 4, 4]
    verify_valid_and_balanced(subs, r1, parts)

    subs2 = {C1: all_topics, C2: c2_topics}
    r2, _ = sticky(subs2, parts, {C1: r1[C1], C2: r1[C2]}, GEN)
    assert len(r2[C1]) == 6 and len(r2[C2]) == 6
    if all_equal:
        assert set(r1[C1]) <= set(r2[C1])
    assert set(r1[C2]) <= set(r2[C2])
    assert set(r2[C2]) & set(r1[C3])
    verify_valid_and_balanced(subs2, r2, parts)

    # consumer3 comes back with its generation-1 assignment; consumer2 is at generation 2
    subs3 = {C2: c2_topics, C3: all_topics}
    r3, _ = sticky(subs3, parts, {C2: r2[C2], C3: r1[C3]}, {C2: 2, C3: 1})
    assert len(r3[C2]) == 6 and len(r3[C3]) == 6
    assert not set(r3[C2]) & set(r3[C3])
    verify_valid_and_balanced(subs3, r3, parts)


@pytest.mark.parametrize("all_equal", [True, False])
def test_assignment_with_multiple_generations_2(all_equal):
    all_topics = [T, T2, T3]
    c1_topics = all_topics if all_equal else [T]
    c3_topics = all_topics if all_equal else [T, T2]
    parts = {T: 4, T2: 4, T3: 4}
    subs = {C1: c1_topics, C2: all_topics, C3: c3_topics}
    r1, _ = sticky(subs, parts)
    assert [len(r1[m]) for m in (C1, C2, C3)] == [4, 4, 4]

    r2, _ = sticky({C2: all_topics}, parts, {C2: r1[C2]}, {C2: 1})
    assert len(r2[C2]) == 12 and set(r1[C2]) <= set(r2[C2])

    owned = {C1: r1[C1], C2: r2[C2], C3: r1[C3]}
    r3, _ = sticky(subs, parts, owned, {C1: 1, C2: 2, C3: 1})
    assert [len(r3[m]) for m in (C1, C2, C3)] == [4, 4, 4]
    verify_valid_and_balanced(subs, r3, parts)


@pytest.mark.parametrize("all_equal", [True, False])
def test_assignment_with_conflicting_previous_generations(all_equal):
    all_topics = [T, T2, T3]
    subs = {
        C1: all_topics if all_equal else [T],
        C2: all_topics if all_equal else [T, T2],
        C3: all_topics,
    }
    c1_owned = (
        [(T, 0), (T, 1), (T, 2), (T2, 2), (T2, 3), (T3, 0)] if all_equal else [(T, p) for p in range(4)]
    )
    c2_owned = [(T, 0), (T, 1), (T2, 0), (T2, 1), (T2, 2), (T2, 3)]
    c3_owned = [(T, 2), (T, 3), (T3, 0), (T3, 1), (T3, 2), (T3, 3)]
    parts = {T: 4, T2: 4, T3: 4}
    got, _ = sticky(subs, parts, {C1: c1_owned, C2: c2_owned, C3: c3_owned}, {C1: 1, C2: 2, C3: 2})
    assert [len(got[m]) for m in (C1, C2, C3)] == [4, 4, 4]
    assert set(got[C2]) <= set(c2_owned)
    assert set(got[C3]) <= set(c3_owned)
    verify_valid_and_balanced(subs, got, parts)


def test_cooperative_assignor_with_old_version_subscriptions():
    subs = {C1: [T1], C2: [T1], C3: [T1]}
    got = assign("cooperative-sticky", subs, {T1: 3}, owned={C1: [(T1, 0)], C2: [(T1, 1)]}, generation=GEN)
    assert got == {C1: [(T1, 0)], C2: [(T1, 1)], C3: [(T1, 2)]}


# ------------------------------------------------------------------------ larger scenarios


def topic_name(i, max_num):
    return "t" + str(i).zfill(len(str(max_num)))


def consumer_name(i, max_num):
    return "c" + str(i).zfill(len(str(max_num)))


def test_reassignment_after_one_consumer_leaves():
    parts = {topic_name(i, 20): i for i in range(1, 20)}
    subs = {consumer_name(i, 20): [topic_name(j, 20) for j in range(1, i + 1)] for i in range(1, 20)}
    first, _ = sticky(subs, parts)
    verify_valid_and_balanced(subs, first, parts)
    del subs["c10"]
    got, _ = sticky(subs, parts, {m: first[m] for m in subs}, GEN)
    verify_valid_and_balanced(subs, got, parts)
    # stickiness: nobody loses a partition they owned (only c10's partitions are redistributed)
    assert all(set(first[m]) <= set(got[m]) for m in subs)


def test_reassignment_after_one_consumer_added():
    parts = {T: 20}
    subs = {consumer_name(i, 10): [T] for i in range(1, 10)}
    got, moving = sticky(subs, parts)
    assert moving == {}
    verify_valid_and_balanced(subs, got, parts)
    subs[consumer_name(10, 10)] = [T]
    got, moving = sticky(subs, parts)
    assert moving == {}
    verify_valid_and_balanced(subs, got, parts)


def test_same_subscriptions_one_member_removed():
    parts = {topic_name(i, 15): i for i in range(1, 15)}
    subs = {consumer_name(i, 9): list(parts) for i in range(1, 9)}
    first, moving = sticky(subs, parts)
    assert moving == {}
    verify_valid_and_balanced(subs, first, parts)
    del subs[consumer_name(5, 9)]
    got, moving = sticky(subs, parts, {m: first[m] for m in subs}, GEN)
    assert moving == {}
    verify_valid_and_balanced(subs, got, parts)
    assert all(set(first[m]) <= set(got[m]) for m in subs)


def test_poor_round_robin_assignment_scenario():
    parts = {f"topic{i}": (i % 2) + 1 for i in range(1, 6)}
    all5 = list(parts)
    odd = ["topic1", "topic3", "topic5"]
    subs = {C1: all5, C2: odd, C3: odd, C4: all5}
    got, _ = sticky(subs, parts)
    verify_valid_and_balanced(subs, got, parts)
    assert sorted(len(v) for v in got.values()) == [2, 2, 2, 2]  # round robin leaves consumer3 empty
    assert assign("roundrobin", subs, parts)[C3] == []


def test_add_remove_topic_two_consumers():
    subs = {C1: [T], C2: [T]}
    r1, moving = sticky(subs, {T: 3})
    assert moving == {} and sorted(len(v) for v in r1.values()) == [1, 2]
    subs2 = {C1: [T, T2], C2: [T, T2]}
    r2, moving = sticky(subs2, {T: 3, T2: 3}, r1, GEN)
    assert moving == {}
    assert len(r2[C1]) == len(r2[C2]) == 3
    assert set(r1[C1]) <= set(r2[C1]) and set(r1[C2]) <= set(r2[C2])
    subs3 = {C1: [T2], C2: [T2]}
    r3, moving = sticky(subs3, {T2: 3}, r2, GEN)
    assert moving == {}
    assert sorted(len(v) for v in r3.values()) == [1, 2]
    assert set(r3[C1]) <= set(r2[C1]) and set(r3[C2]) <= set(r2[C2])


def test_new_subscription_and_move_existing_assignments():
    parts = {topic_name(i, 5): 1 for i in range(1, 5)}
    subs = {consumer_name(i, 3): [topic_name(j, 5) for j in range(i, 3 * i - 1)] for i in range(3)}
    first, _ = sticky(subs, parts)
    verify_valid_and_balanced(subs, first, parts)
    subs[consumer_name(0, 3)] = [*subs[consumer_name(0, 3)], topic_name(1, 5)]
    got, _ = sticky(subs, parts)
    verify_valid_and_balanced(subs, got, parts)

    parts6 = {f"topic{i}": 1 for i in range(1, 7)}
    subs6 = {
        C1: ["topic1", "topic2"],
        C2: ["topic1", "topic2", "topic3", "topic4"],
        C3: ["topic2", "topic3", "topic4", "topic5", "topic6"],
    }
    owned = {
        C1: [("topic1", 0)],
        C2: [("topic2", 0), ("topic3", 0)],
        C3: [("topic4", 0), ("topic5", 0), ("topic6", 0)],
    }
    plan = plan_sticky(subs6, parts6, owned=owned, generation=GEN)
    assert plan.constrained is False
    verify_valid_and_balanced(subs6, plan.assignment, parts6)


# ---------------------------------------------------------------------------------- seed 001


def test_seed_001_sticky_initial_assignment():
    """Seed 001: c0 {t0}, c1 {t0, t1}, c2 {t0, t1, t2} with 1, 2, 3 partitions."""
    subs = {"c0": ["t0"], "c1": ["t0", "t1"], "c2": ["t0", "t1", "t2"]}
    parts = {"t0": 1, "t1": 2, "t2": 3}
    got = assign("sticky", subs, parts)
    assert got == {"c0": [("t0", 0)], "c1": [("t1", 0), ("t1", 1)], "c2": [("t2", 0), ("t2", 1), ("t2", 2)]}


def test_seed_001_sticky_after_member_leaves():
    """Seed 001 eg2 (a member leaves): survivors keep everything and split the leaver's partitions.

    The seed's starting table lists t1-1 under both c0 and c1 (a typo for t0-1, which its result
    table shows): three consumers on t0..t3 with 2 partitions each, c0 {t0-0, t1-1, t3-0},
    c1 {t0-1, t2-0, t3-1}, c2 {t1-0, t2-1}; then c1 leaves. The seed hands c0 t2-0 and c2 t0-1,
    t3-1; the Java client fills the unfilled members (sorted: c0, c2) round-robin with the free
    partitions sorted by topic, so c0 gets t0-1 and c2 gets t2-0, t3-1. Same counts, same
    stickiness, a different (Kafka's) choice of partitions.
    """
    topics = ["t0", "t1", "t2", "t3"]
    parts = dict.fromkeys(topics, 2)
    before = {
        "c0": [("t0", 0), ("t1", 1), ("t3", 0)],
        "c1": [("t0", 1), ("t2", 0), ("t3", 1)],
        "c2": [("t1", 0), ("t2", 1)],
    }
    got = assign("sticky", {"c0": topics, "c2": topics}, parts, owned=before, generation=3)
    assert got == {
        "c0": [("t0", 0), ("t0", 1), ("t1", 1), ("t3", 0)],
        "c2": [("t1", 0), ("t2", 0), ("t2", 1), ("t3", 1)],
    }
