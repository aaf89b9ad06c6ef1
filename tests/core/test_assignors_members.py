"""Java orderings used by the assignors: String.compareTo, MemberInfo, HashMap iteration."""

from __future__ import annotations

from coordinator_core.assignors import java_hashmap_order, java_key, sorted_members
from coordinator_core.placement import java_string_hashcode


def test_java_key_orders_by_utf16_code_units():
    words = ["\uff21", "\U0001f600", "b", "B", "ä"]
    assert sorted(words, key=java_key) == ["B", "b", "ä", "\U0001f600", "\uff21"]


def test_member_info_order():
    ids = {"m-z": "i-1", "m-a": "i-2", "m-q": None}
    assert sorted_members(["m-q", "m-b", "m-a", "m-z"], ids) == ["m-z", "m-a", "m-b", "m-q"]
    # equal instance ids (inconsistent evidence) fall back to member id
    assert sorted_members(["y", "x"], {"x": "i", "y": "i"}) == ["x", "y"]


def _bucket(key, capacity):
    h = java_string_hashcode(key) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & (capacity - 1)


def test_hashmap_order_of_kafka_test_consumers():
    # buckets in a 16-slot table: consumer1 -> 12, consumer2 -> 11, consumer3 -> 10
    assert [_bucket(c, 16) for c in ("consumer1", "consumer2", "consumer3")] == [12, 11, 10]
    assert java_hashmap_order(["consumer1", "consumer2", "consumer3"]) == [
        "consumer3",
        "consumer2",
        "consumer1",
    ]


def test_hashmap_collisions_keep_insertion_order():
    assert java_string_hashcode("Aa") == java_string_hashcode("BB")
    assert java_hashmap_order(["Aa", "BB"]) == ["Aa", "BB"]
    assert java_hashmap_order(["BB", "Aa"]) == ["BB", "Aa"]


def test_hashmap_resizes_after_twelve_keys():
    keys = [f"c{i:02d}" for i in range(13)]
    assert java_hashmap_order(keys[:12]) == sorted(keys[:12], key=lambda k: (_bucket(k, 16), keys.index(k)))
    assert java_hashmap_order(keys) == sorted(keys, key=lambda k: (_bucket(k, 32), keys.index(k)))
    assert java_hashmap_order(keys) == [
        "c00", "c11", "c10", "c02", "c01", "c12", "c04", "c03", "c06", "c05", "c08", "c07", "c09",
    ]  # fmt: skip
