"""RoundRobinAssignor: facts ported from Kafka's clients ``RoundRobinAssignorTest`` (3.9), the
reference (section 6.2) and seed 001.
"""

from __future__ import annotations

from coordinator_core.assignors import assign

T, T1, T2 = "topic", "topic1", "topic2"


def rr(subscriptions, partitions, instance_ids=None):
    return assign("roundrobin", subscriptions, partitions, group_instance_ids=instance_ids)


def test_one_consumer_no_topic():
    assert rr({"consumer": []}, {}) == {"consumer": []}


def test_one_consumer_nonexistent_topic():
    assert rr({"consumer": [T]}, {}) == {"consumer": []}


def test_one_consumer_one_topic():
    assert rr({"consumer": [T]}, {T: 3}) == {"consumer": [(T, 0), (T, 1), (T, 2)]}


def test_only_assigns_partitions_from_subscribed_topics():
    assert rr({"consumer": [T]}, {T: 3, "other": 3}) == {"consumer": [(T, 0), (T, 1), (T, 2)]}


def test_one_consumer_multiple_topics():
    assert rr({"consumer": [T1, T2]}, {T1: 1, T2: 2}) == {"consumer": [(T1, 0), (T2, 0), (T2, 1)]}


def test_two_consumers_one_topic_one_partition():
    assert rr({"consumer1": [T], "consumer2": [T]}, {T: 1}) == {"consumer1": [(T, 0)], "consumer2": []}


def test_two_consumers_one_topic_two_partitions():
    assert rr({"consumer1": [T], "consumer2": [T]}, {T: 2}) == {"consumer1": [(T, 0)], "consumer2": [(T, 1)]}


def test_multiple_consumers_mixed_topics():
    got = rr({"consumer1": [T1], "consumer2": [T1, T2], "consumer3": [T1]}, {T1: 3, T2: 2})
    assert got == {"consumer1": [(T1, 0)], "consumer2": [(T1, 1), (T2, 0), (T2, 1)], "consumer3": [(T1, 2)]}


def test_two_dynamic_consumers_two_topics_six_partitions():
    got = rr({"consumer1": [T1, T2], "consumer2": [T1, T2]}, {T1: 3, T2: 3})
    assert got == {"consumer1": [(T1, 0), (T1, 2), (T2, 1)], "consumer2": [(T1, 1), (T2, 0), (T2, 2)]}


def test_two_static_consumers_two_topics_six_partitions():
    subs = {"consumer-b": [T1, T2], "consumer-a": [T1, T2]}
    got = rr(subs, {T1: 3, T2: 3}, {"consumer-b": "instance1", "consumer-a": "instance2"})
    assert got == {"consumer-b": [(T1, 0), (T1, 2), (T2, 1)], "consumer-a": [(T1, 1), (T2, 0), (T2, 2)]}


def test_one_static_consumer_and_one_dynamic_consumer_two_topics_six_partitions():
    subs = {"consumer-b": [T1, T2], "consumer-a": [T1, T2]}
    got = rr(subs, {T1: 3, T2: 3}, {"consumer-b": "instance1"})
    assert got == {"consumer-b": [(T1, 0), (T1, 2), (T2, 1)], "consumer-a": [(T1, 1), (T2, 0), (T2, 2)]}


def test_static_member_round_robin_assignment_persistent():
    ids = {"consumer1": "instance1", "consumer2": "instance2", "consumer3": "instance3"}
    subs = {m: [T1, T2] for m in ("consumer1", "consumer2", "consumer3", "consumer4")}
    expected = {
        "consumer1": [(T1, 0), (T2, 1)],
        "consumer2": [(T1, 1), (T2, 2)],
        "consumer3": [(T1, 2)],
        "consumer4": [(T2, 0)],
    }
    assert rr(subs, {T1: 3, T2: 3}, ids) == expected
    del subs["consumer4"]
    subs["consumer5"] = [T1, T2]
    expected.pop("consumer4")
    expected["consumer5"] = [(T2, 0)]
    assert rr(subs, {T1: 3, T2: 3}, ids) == expected


def test_static_member_round_robin_assignment_persistent_after_member_id_changes():
    expected = {
        "instance1": [(T1, 0), (T1, 3), (T2, 1), (T2, 4)],
        "instance2": [(T1, 1), (T1, 4), (T2, 2)],
        "instance3": [(T1, 2), (T2, 0), (T2, 3)],
    }
    for ids in (
        {"consumer1": "instance1", "consumer2": "instance2", "consumer3": "instance3"},
        {"consumer1": "instance1", "consumer5": "instance2", "consumer4": "instance3"},
    ):
        got = rr({m: [T1, T2] for m in ids}, {T1: 5, T2: 5}, ids)
        assert {ids[m]: a for m, a in got.items()} == expected


def test_reference_c1_c2_both_topics():
    """Reference 6.2: c1,c2 on t1,t2 (3 partitions each)."""
    got = rr({"c1": ["t1", "t2"], "c2": ["t1", "t2"]}, {"t1": 3, "t2": 3})
    assert got == {"c1": [("t1", 0), ("t1", 2), ("t2", 1)], "c2": [("t1", 1), ("t2", 0), ("t2", 2)]}


def test_reference_mixed_subscriptions():
    got = rr({"c1": ["t1"], "c2": ["t1", "t2"], "c3": ["t1"]}, {"t1": 3, "t2": 2})
    assert got == {"c1": [("t1", 0)], "c2": [("t1", 1), ("t2", 0), ("t2", 1)], "c3": [("t1", 2)]}


def test_seed_001_example_with_java_ordering():
    """Seed 001's round-robin example (consumers C1-0, C1-1, C2-0, C2-1; T1 with 10 partitions).

    The seed lays partitions out by hash code (T1-5, T1-3, T1-0, ...) like the old Scala consumer and
    gets C1-0 = T1-5, T1-2, T1-6. The Java client we model sorts by topic then partition, so the
    partitions are dealt 0..9 in order: the counts (3, 3, 2, 2) agree with the seed, the partitions
    do not.
    """
    got = rr({c: ["T1"] for c in ("C1-0", "C1-1", "C2-0", "C2-1")}, {"T1": 10})
    assert got == {
        "C1-0": [("T1", 0), ("T1", 4), ("T1", 8)],
        "C1-1": [("T1", 1), ("T1", 5), ("T1", 9)],
        "C2-0": [("T1", 2), ("T1", 6)],
        "C2-1": [("T1", 3), ("T1", 7)],
    }


def test_topics_sorted_in_java_string_order():
    """Topics are dealt in TreeSet (String.compareTo) order: B < a < U+1F600 < U+FF41, because
    UTF-16 writes the emoji as the surrogates D83D DE00, which sort before FF41."""
    emoji, full = "\U0001f600", "\uff41"
    got = rr(
        {"c1": ["a", "B", emoji, full], "c2": ["a", "B", emoji, full]}, {"a": 1, "B": 1, emoji: 1, full: 1}
    )
    # dealt order: B-0 (c1), a-0 (c2), emoji-0 (c1), full-0 (c2)
    assert got == {"c1": [("B", 0), (emoji, 0)], "c2": [("a", 0), (full, 0)]}
