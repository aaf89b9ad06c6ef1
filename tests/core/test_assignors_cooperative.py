"""Cooperative-sticky: two-phase revocation (``CooperativeStickyAssignor.adjustAssignment``) and the
follow-up rebalance(s), checked like ``CooperativeStickyAssignorTest.verifyValidityAndBalance``."""

from __future__ import annotations

import pytest

from coordinator_core.assignors import assign, balance_violations, cooperative_rounds

T, T1, T2 = "topic", "topic1", "topic2"
C1, C2, C3, C4 = "consumer1", "consumer2", "consumer3", "consumer4"


def check_rounds(subs, parts, rounds, owned):
    """Kafka's cooperative validity: in no round is a partition added to one member while it is
    revoked from another; the last round revokes nothing and is complete and balanced."""
    claims = {m: set(owned.get(m, ())) for m in subs}
    for r in rounds:
        added = {tp for m, tps in r.assignment.items() for tp in tps if tp not in claims[m]}
        revoked = {tp for m in subs for tp in claims[m] if tp not in set(r.assignment[m])}
        assert not added & revoked, f"reassigned while still owned: {added & revoked}"
        assert set(revoked) == {tp for tps in r.revoked.values() for tp in tps}
        claims = {m: set(r.assignment[m]) for m in subs}
    last = rounds[-1]
    assert last.revoked == {} and last.withheld == {}
    flat = [tp for tps in last.assignment.values() for tp in tps]
    assert len(flat) == len(set(flat))
    assert set(flat) == {(t, p) for ts in subs.values() for t in ts if t in parts for p in range(parts[t])}
    assert balance_violations(last.assignment, subs) == []
    assert len(rounds) <= 4


def test_member_added_two_rounds():
    subs = {C1: [T], C2: [T]}
    owned = {C1: [(T, 0), (T, 1), (T, 2)]}
    rounds = cooperative_rounds(subs, {T: 3}, owned=owned, generation=4)
    assert len(rounds) == 2
    first, second = rounds
    assert first.generation == 4
    assert first.assignment == {C1: [(T, 0), (T, 1)], C2: []}
    assert first.revoked == {C1: [(T, 2)]}
    assert first.withheld == {(T, 2): C2}
    assert second.generation == 5
    assert second.assignment == {C1: [(T, 0), (T, 1)], C2: [(T, 2)]}
    assert second.revoked == {} and second.withheld == {}
    check_rounds(subs, {T: 3}, rounds, owned)


def test_nothing_moves_one_round():
    subs = {C1: [T], C2: [T]}
    owned = {C1: [(T, 0)], C2: [(T, 1)]}
    rounds = cooperative_rounds(subs, {T: 2}, owned=owned, generation=7)
    assert len(rounds) == 1
    assert rounds[0].assignment == {C1: [(T, 0)], C2: [(T, 1)]}
    assert rounds[0].revoked == {}


def test_new_group_without_owned_partitions_one_round():
    rounds = cooperative_rounds({C1: [T], C2: [T]}, {T: 4})
    assert len(rounds) == 1 and rounds[0].generation is None
    assert rounds[0].assignment == {C1: [(T, 0), (T, 2)], C2: [(T, 1), (T, 3)]}


def test_partition_claimed_twice_waits_for_both_revocations():
    subs = {C1: [T], C2: [T], C3: [T]}
    owned = {C1: [(T, 0), (T, 1)], C2: [(T, 0), (T, 2)], C3: []}
    rounds = cooperative_rounds(subs, {T: 3}, owned=owned, generation=1)
    assert rounds[0].assignment == {C1: [(T, 1)], C2: [(T, 2)], C3: []}
    assert rounds[0].revoked == {C1: [(T, 0)], C2: [(T, 0)]}
    assert rounds[1].assignment == {C1: [(T, 1)], C2: [(T, 2)], C3: [(T, 0)]}
    assert len(rounds) == 2


def test_two_consumers_added_to_two_topics():
    """AbstractStickyAssignorTest.testAddRemoveTwoConsumersTwoTopics, cooperative flavour."""
    both = [T1, T2]
    parts = {T1: 3, T2: 4}
    owned = {C1: [(T1, 0), (T1, 2), (T2, 1), (T2, 3)], C2: [(T1, 1), (T2, 0), (T2, 2)]}
    subs = {C1: both, C2: both, C3: both, C4: both}
    rounds = cooperative_rounds(subs, parts, owned=owned, generation=1)
    assert rounds[0].withheld == {(T1, 2): C3, (T2, 3): C3, (T2, 2): C4}
    assert rounds[0].assignment == {C1: [(T1, 0), (T2, 1)], C2: [(T1, 1), (T2, 0)], C3: [], C4: []}
    assert rounds[1].assignment == {
        C1: [(T1, 0), (T2, 1)],
        C2: [(T1, 1), (T2, 0)],
        C3: [(T1, 2), (T2, 3)],
        C4: [(T2, 2)],
    }
    check_rounds(subs, parts, rounds, owned)


def test_general_path_unsubscribed_topic_moves_in_second_round():
    """consumer1 drops topic2: its topic2-0 goes to consumer2 only after consumer1 revoked it."""
    subs = {C1: [T1], C2: [T1, T2]}
    parts = {T1: 2, T2: 1}
    owned = {C1: [(T1, 0), (T2, 0)], C2: [(T1, 1)]}
    rounds = cooperative_rounds(subs, parts, owned=owned, generation=2)
    assert rounds[0].assignment == {C1: [(T1, 0)], C2: [(T1, 1)]}
    assert rounds[0].withheld == {(T2, 0): C2}
    assert rounds[0].revoked == {C1: [(T2, 0)]}
    assert rounds[1].assignment == {C1: [(T1, 0)], C2: [(T1, 1), (T2, 0)]}
    check_rounds(subs, parts, rounds, owned)


def test_assign_returns_the_first_round():
    subs = {C1: [T], C2: [T]}
    owned = {C1: [(T, 0), (T, 1), (T, 2)]}
    assert assign("cooperative-sticky", subs, {T: 3}, owned=owned, generation=4) == {
        C1: [(T, 0), (T, 1)],
        C2: [],
    }
    assert assign("sticky", subs, {T: 3}, owned=owned, generation=4) == {C1: [(T, 0), (T, 1)], C2: [(T, 2)]}


@pytest.mark.parametrize("leaver", [C1, C2, C3])
def test_member_leaves_no_revocation_needed(leaver):
    """A leaver's partitions are free: survivors keep theirs and take the leaver's in one round."""
    subs = {m: [T] for m in (C1, C2, C3)}
    first = cooperative_rounds(subs, {T: 6})[0].assignment
    rest = {m: [T] for m in subs if m != leaver}
    rounds = cooperative_rounds(rest, {T: 6}, owned=first, generation=1)
    assert len(rounds) == 1
    assert all(set(first[m]) <= set(rounds[0].assignment[m]) for m in rest)
    check_rounds(rest, {T: 6}, rounds, {m: first[m] for m in rest})


def test_generation_per_member_in_rounds():
    subs = {C1: [T], C2: [T]}
    owned = {C1: [(T, 0), (T, 1)], C2: [(T, 1)]}
    rounds = cooperative_rounds(subs, {T: 3}, owned=owned, generation={C1: 5, C2: 3})
    assert rounds[0].generation == 5  # highest reported generation
    assert rounds[0].assignment[C1] == [(T, 0), (T, 1)]  # consumer1's newer claim on topic-1 wins
    assert rounds[0].assignment[C2] == [(T, 2)]
    assert rounds[0].revoked == {C2: [(T, 1)]}
    assert rounds[1].generation == 6
