"""partition_skew rows: per-topic and all-topic skew and movement, with exact numbers."""

from __future__ import annotations

import pytest

from coordinator_core.skew import ALL_TOPICS, moved_partitions, skew_rows

CURRENT = {"m1": [("a", 0), ("a", 1), ("b", 0)], "m2": [("a", 2)], "m3": []}
PREVIOUS = {"m1": [("a", 0)], "m2": [("a", 1), ("a", 2)], "m4": [("b", 0)]}


def by_topic(rows):
    return {r["topic"]: r for r in rows}


def test_rows_match_the_partition_skew_schema():
    from jobs.schemas import PARTITION_SKEW

    rows = skew_rows("g", 5, CURRENT, PREVIOUS, "range", 1_700_000_000_000)
    assert [list(r) for r in rows] == [[f.name for f in PARTITION_SKEW.fields if f.name != "cluster"]] * 3


def test_per_topic_and_all_topics_rows():
    rows = skew_rows("g", 5, CURRENT, PREVIOUS, "range", 123)
    assert [r["topic"] for r in rows] == ["a", "b", ALL_TOPICS]
    a, b, star = rows
    assert a == {
        "group_id": "g", "generation": 5, "topic": "a", "members": 3, "partitions": 3,
        "min_per_member": 0, "max_per_member": 2, "mean_per_member": 1.0, "skew_ratio": 2.0,
        "idle_members": 1, "moved_partitions": 1, "assignor": "range", "ts": 123,
    }  # fmt: skip
    # topic b: one partition among three members; moved from m4 (gone) to m1
    assert (b["partitions"], b["min_per_member"], b["max_per_member"]) == (1, 0, 1)
    assert b["mean_per_member"] == pytest.approx(1 / 3)
    assert b["skew_ratio"] == pytest.approx(3.0)
    assert (b["idle_members"], b["moved_partitions"]) == (2, 1)
    # all topics: counts 3, 1, 0
    assert (star["members"], star["partitions"], star["min_per_member"], star["max_per_member"]) == (
        3,
        4,
        0,
        3,
    )
    assert star["mean_per_member"] == pytest.approx(4 / 3)
    assert star["skew_ratio"] == pytest.approx(2.25)
    assert (star["idle_members"], star["moved_partitions"]) == (1, 2)


def test_no_previous_means_moved_is_none():
    rows = skew_rows("g", 1, CURRENT, None, None, None)
    assert [r["moved_partitions"] for r in rows] == [None, None, None]
    assert rows[-1]["assignor"] is None


def test_new_partitions_do_not_count_as_moved():
    cur = {"m1": [("a", 0), ("a", 1)], "m2": [("a", 2), ("a", 3)]}  # a-3 is new (topic grew)
    prev = {"m1": [("a", 0), ("a", 1), ("a", 2)]}
    assert moved_partitions(prev, cur) == 1  # only a-2 changed owner
    assert by_topic(skew_rows("g", 2, cur, prev, "sticky", 0))["*"]["moved_partitions"] == 1


def test_perfectly_even_assignment():
    cur = {"m1": [("t", 0), ("t", 1)], "m2": [("t", 2), ("t", 3)]}
    (t, star) = skew_rows("g", 3, cur, cur, "roundrobin", 0)
    assert t["skew_ratio"] == star["skew_ratio"] == 1.0
    assert t["idle_members"] == 0 and t["moved_partitions"] == 0


def test_members_without_partitions_and_empty_generation():
    (star,) = skew_rows("g", 4, {"m1": [], "m2": []}, None, "range", 0)
    assert (star["members"], star["partitions"], star["min_per_member"], star["max_per_member"]) == (
        2,
        0,
        0,
        0,
    )
    assert star["mean_per_member"] == 0.0 and star["skew_ratio"] is None and star["idle_members"] == 2
    (empty,) = skew_rows("g", 5, {}, {"m1": [("t", 0)]}, None, 0)
    assert empty["members"] == 0 and empty["partitions"] == 0
    assert (
        empty["min_per_member"] is None and empty["mean_per_member"] is None and empty["skew_ratio"] is None
    )
    assert empty["moved_partitions"] == 0


def test_partition_listed_twice_counts_once_and_is_not_moved_while_an_owner_stays():
    cur = {"m1": [("a", 0)], "m2": [("a", 0)]}
    (a, _) = skew_rows("g", 6, cur, {"m1": [("a", 0)]}, None, 0)
    assert a["partitions"] == 1 and a["max_per_member"] == 1 and a["moved_partitions"] == 0
    assert moved_partitions({"m3": [("a", 0)]}, cur) == 1


def test_moved_partitions_counts_owner_changes():
    assert moved_partitions(PREVIOUS, CURRENT) == 2
    assert moved_partitions(CURRENT, CURRENT) == 0
    assert moved_partitions({}, CURRENT) == 0
