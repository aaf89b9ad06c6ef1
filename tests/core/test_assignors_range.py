"""RangeAssignor: facts ported from Kafka's clients ``RangeAssignorTest`` (3.9) and the reference.

Kafka's tests compare each member's assignment as a set; ours are lists sorted by (topic, partition),
so the expected lists below are written in that order.
"""

from __future__ import annotations

import pytest

from coordinator_core.assignors import assign

T1, T2 = "topic1", "topic2"


def rng(subscriptions, partitions, instance_ids=None):
    return assign("range", subscriptions, partitions, group_instance_ids=instance_ids)


def tps(*pairs):
    return list(pairs)


# ------------------------------------------------------------------ RangeAssignorTest (no racks)


def test_one_consumer_no_topic():
    assert rng({"consumer1": []}, {}) == {"consumer1": []}


def test_one_consumer_nonexistent_topic():
    assert rng({"consumer1": [T1]}, {}) == {"consumer1": []}


def test_one_consumer_one_topic():
    assert rng({"consumer1": [T1]}, {T1: 3}) == {"consumer1": [(T1, 0), (T1, 1), (T1, 2)]}


def test_only_assigns_partitions_from_subscribed_topics():
    assert rng({"consumer1": [T1]}, {T1: 3, "other": 3}) == {"consumer1": [(T1, 0), (T1, 1), (T1, 2)]}


def test_one_consumer_multiple_topics():
    assert rng({"consumer1": [T1, T2]}, {T1: 1, T2: 2}) == {"consumer1": [(T1, 0), (T2, 0), (T2, 1)]}


def test_two_consumers_one_topic_one_partition():
    assert rng({"consumer1": [T1], "consumer2": [T1]}, {T1: 1}) == {"consumer1": [(T1, 0)], "consumer2": []}


def test_two_consumers_one_topic_two_partitions():
    got = rng({"consumer1": [T1], "consumer2": [T1]}, {T1: 2})
    assert got == {"consumer1": [(T1, 0)], "consumer2": [(T1, 1)]}


def test_multiple_consumers_mixed_topics():
    got = rng({"consumer1": [T1], "consumer2": [T1, T2], "consumer3": [T1]}, {T1: 3, T2: 2})
    assert got == {
        "consumer1": [(T1, 0)],
        "consumer2": [(T1, 1), (T2, 0), (T2, 1)],
        "consumer3": [(T1, 2)],
    }


def test_two_consumers_two_topics_six_partitions():
    got = rng({"consumer1": [T1, T2], "consumer2": [T1, T2]}, {T1: 3, T2: 3})
    assert got == {
        "consumer1": [(T1, 0), (T1, 1), (T2, 0), (T2, 1)],
        "consumer2": [(T1, 2), (T2, 2)],
    }


def test_two_static_consumers_two_topics_six_partitions():
    # consumer-a sorts before consumer-b by member id, but static members compare by instance id
    subs = {"consumer-b": [T1, T2], "consumer-a": [T1, T2]}
    got = rng(subs, {T1: 3, T2: 3}, {"consumer-b": "instance1", "consumer-a": "instance2"})
    assert got == {"consumer-b": [(T1, 0), (T1, 1), (T2, 0), (T2, 1)], "consumer-a": [(T1, 2), (T2, 2)]}


def test_one_static_consumer_and_one_dynamic_consumer_two_topics_six_partitions():
    # the static member wins the comparison although its member id sorts later
    subs = {"consumer-b": [T1, T2], "consumer-a": [T1, T2]}
    got = rng(subs, {T1: 3, T2: 3}, {"consumer-b": "instance1"})
    assert got == {"consumer-b": [(T1, 0), (T1, 1), (T2, 0), (T2, 1)], "consumer-a": [(T1, 2), (T2, 2)]}


def test_static_member_range_assignment_persistent():
    ids = {"consumer1": "instance1", "consumer2": "instance2", "consumer3": "instance3"}
    subs = {m: [T1, T2] for m in ("consumer1", "consumer2", "consumer3", "consumer4")}
    expected = {
        "consumer1": [(T1, 0), (T1, 1), (T2, 0)],
        "consumer2": [(T1, 2), (T2, 1)],
        "consumer3": [(T1, 3), (T2, 2)],
        "consumer4": [(T1, 4), (T2, 3)],
    }
    assert rng(subs, {T1: 5, T2: 4}, ids) == expected
    # replace dynamic member 4 with a new dynamic member 5: the static members keep their ranges
    del subs["consumer4"]
    subs["consumer5"] = [T1, T2]
    expected.pop("consumer4")
    expected["consumer5"] = [(T1, 4), (T2, 3)]
    assert rng(subs, {T1: 5, T2: 4}, ids) == expected


def _by_instance(assignment, ids):
    return {ids[m]: a for m, a in assignment.items() if m in ids}


def test_static_member_range_assignment_persistent_after_member_id_changes():
    ids = {"consumer1": "instance1", "consumer2": "instance2", "consumer3": "instance3"}
    subs = {m: [T1, T2] for m in ids}
    expected = {
        "instance1": [(T1, 0), (T1, 1), (T2, 0), (T2, 1)],
        "instance2": [(T1, 2), (T1, 3), (T2, 2), (T2, 3)],
        "instance3": [(T1, 4), (T2, 4)],
    }
    assert _by_instance(rng(subs, {T1: 5, T2: 5}, ids), ids) == expected
    # the same instances rejoin with new member ids (consumer3 -> consumer4, consumer2 -> consumer5)
    ids2 = {"consumer1": "instance1", "consumer5": "instance2", "consumer4": "instance3"}
    subs2 = {m: [T1, T2] for m in ids2}
    assert _by_instance(rng(subs2, {T1: 5, T2: 5}, ids2), ids2) == expected


@pytest.mark.parametrize(
    ("topics", "consumer_topics", "expected"),
    [
        # testRackAwareAssignmentWithUniformSubscription, non-rack-aware combination
        (
            {"t1": 6, "t2": 7, "t3": 2},
            [["t1", "t2", "t3"]] * 3,
            ["t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"],
        ),
        # testRackAwareAssignmentWithNonEqualSubscription
        (
            {"t1": 6, "t2": 7, "t3": 2},
            [["t1", "t2", "t3"], ["t1", "t2", "t3"], ["t1", "t3"]],
            ["t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1", "t1-4, t1-5"],
        ),
        # testRackAwareAssignmentWithUniformPartitions
        (
            {"t1": 5, "t2": 5, "t3": 5},
            [["t1", "t2", "t3"]] * 3,
            ["t1-0, t1-1, t2-0, t2-1, t3-0, t3-1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3", "t1-4, t2-4, t3-4"],
        ),
        # testRackAwareAssignmentWithUniformPartitionsNonEqualSubscription
        (
            {"t1": 5, "t2": 5, "t3": 5},
            [["t1", "t2", "t3"], ["t1", "t2", "t3"], ["t1", "t3"]],
            ["t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3", "t1-4, t3-4"],
        ),
        # testRackAwareAssignmentWithCoPartitioning (non-rack-aware results)
        (
            {"t1": 6, "t2": 6, "t3": 2, "t4": 2},
            [["t1", "t2"], ["t1", "t2"], ["t3", "t4"], ["t3", "t4"]],
            [
                "t1-0, t1-1, t1-2, t2-0, t2-1, t2-2",
                "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5",
                "t3-0, t4-0",
                "t3-1, t4-1",
            ],
        ),
        (
            {"t1": 6, "t2": 6, "t3": 2, "t4": 2},
            [["t1", "t2", "t3", "t4"]] * 4,
            [
                "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0",
                "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1",
                "t1-4, t2-4",
                "t1-5, t2-5",
            ],
        ),
        # testCoPartitionedAssignmentWithSameSubscription: t7..t9 have no metadata and are skipped
        (
            {"t1": 6, "t2": 6, "t3": 2, "t4": 2, "t5": 4, "t6": 4},
            [[f"t{i}" for i in range(1, 10)]] * 3,
            [
                "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1",
                "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2",
                "t1-4, t1-5, t2-4, t2-5, t5-3, t6-3",
            ],
        ),
    ],
)
def test_kafka_non_rack_aware_results(topics, consumer_topics, expected):
    """``verifyNonRackAwareAssignment`` cases; Kafka names the members consumer0, consumer1, ..."""
    subs = {f"consumer{i}": ts for i, ts in enumerate(consumer_topics)}
    got = rng(subs, topics)
    as_text = [", ".join(f"{t}-{p}" for t, p in got[f"consumer{i}"]) for i in range(len(consumer_topics))]
    assert as_text == expected


# ------------------------------------------------------------------------- reference and seed 001


def test_reference_two_consumers_two_topics_three_partitions():
    """Reference 6.1: the first consumer gets the extra partition of every topic."""
    got = rng({"C0": ["t0", "t1"], "C1": ["t0", "t1"]}, {"t0": 3, "t1": 3})
    assert got == {"C0": [("t0", 0), ("t0", 1), ("t1", 0), ("t1", 1)], "C1": [("t0", 2), ("t1", 2)]}


SEED_CONSUMERS = ("C1-0", "C2-0", "C2-1")


@pytest.mark.parametrize(
    ("num_partitions", "expected"),
    [
        (10, {"C1-0": [0, 1, 2, 3], "C2-0": [4, 5, 6], "C2-1": [7, 8, 9]}),  # seed 001, eg1
        (11, {"C1-0": [0, 1, 2, 3], "C2-0": [4, 5, 6, 7], "C2-1": [8, 9, 10]}),  # seed 001, eg2
    ],
)
def test_seed_001_one_topic(num_partitions, expected):
    got = rng({c: ["T1"] for c in SEED_CONSUMERS}, {"T1": num_partitions})
    assert got == {c: [("T1", p) for p in ps] for c, ps in expected.items()}


def test_seed_001_two_topics_ten_partitions():
    """Seed 001 eg3: C1-0 gets partitions 0-3 of both T1 and T2, i.e. two more than the others."""
    got = rng({c: ["T1", "T2"] for c in SEED_CONSUMERS}, {"T1": 10, "T2": 10})
    ranges = {"C1-0": [0, 1, 2, 3], "C2-0": [4, 5, 6], "C2-1": [7, 8, 9]}
    assert got == {c: [(t, p) for t in ("T1", "T2") for p in ps] for c, ps in ranges.items()}
    assert [len(v) for v in got.values()] == [8, 6, 6]


# --------------------------------------------------------------------------------- orderings


def test_member_order_is_java_utf16_not_code_points():
    """Java compares UTF-16 code units: U+1F600 (surrogates D83D DE00) sorts before U+FF21."""
    emoji, fullwidth = "\U0001f600", "\uff21"
    assert emoji > fullwidth  # Python: code points
    got = rng({fullwidth: ["t"], emoji: ["t"]}, {"t": 3})
    assert got == {fullwidth: [("t", 2)], emoji: [("t", 0), ("t", 1)]}


def test_static_members_first_then_dynamic_by_member_id():
    subs = {"a": ["t"], "b": ["t"], "z": ["t"], "y": ["t"]}
    got = rng(subs, {"t": 4}, {"z": "i-2", "y": "i-1", "a": None})
    assert got == {"y": [("t", 0)], "z": [("t", 1)], "a": [("t", 2)], "b": [("t", 3)]}


def test_topic_with_zero_partitions_is_skipped():
    assert rng({"c": ["t", "empty"]}, {"t": 1, "empty": 0}) == {"c": [("t", 0)]}


def test_bad_input_gets_clear_errors():
    with pytest.raises(ValueError, match="partition count of topic 't'"):
        rng({"c": ["t"]}, {"t": -1})
    with pytest.raises(ValueError, match="collection of topic names"):
        rng({"c": "t"}, {"t": 1})
    with pytest.raises(ValueError, match="known: range, roundrobin, sticky, cooperative-sticky"):
        assign("uniform", {"c": ["t"]}, {"t": 1})
