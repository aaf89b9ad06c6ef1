"""partition_for == Kafka's ``Utils.abs(groupId.hashCode) % partitions`` (reference section 2)."""

from __future__ import annotations

import pytest

from coordinator_core import partition_for
from coordinator_core.placement import (
    broker_id_from_coordinator_node_id,
    coordinator_node_id,
    java_string_hashcode,
    utils_abs,
)


def hashcode_by_definition(s: str) -> int:
    """``s[0]*31^(n-1) + s[1]*31^(n-2) + ... + s[n-1]`` over UTF-16 code units, as a signed int32."""
    raw = s.encode("utf-16-be", "surrogatepass")
    units = [int.from_bytes(raw[i : i + 2], "big") for i in range(0, len(raw), 2)]
    n = len(units)
    h = sum(u * 31 ** (n - 1 - i) for i, u in enumerate(units)) % 2**32
    return h - 2**32 if h >= 2**31 else h


@pytest.mark.parametrize(
    ("group_id", "partition"),
    [
        # verified against real broker log lines with 50 partitions (reference section 2)
        ("cons3", 6),
        ("group_01", 45),
        ("demo-group", 15),
        ("testtopic-app", 31),
        ("console-consumer-21343", 34),
    ],
)
def test_partition_for_matches_real_brokers(group_id, partition):
    assert partition_for(group_id) == partition
    assert partition_for(group_id, 50) == partition


def test_integer_min_value_hash_maps_to_partition_zero():
    assert java_string_hashcode("polygenelubricants") == -(2**31)
    assert utils_abs(-(2**31)) == 0
    assert partition_for("polygenelubricants") == 0
    assert abs(-(2**31)) % 50 == 48  # what a naive port would say


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("", 0),
        ("hello", 99162322),
        ("hello world", 1794106052),  # wraps past 2^31 on the way
        ("Aa", 2112),  # 65*31 + 97
        ("BB", 2112),  # 66*31 + 66: Java's classic collision
        ("é", 233),  # U+00E9 is one code unit
        ("aé", 3240),  # 97*31 + 233
        ("\U0001f600", 1772899),  # surrogates 0xD83D, 0xDE00: 55357*31 + 56832
        ("a\U0001f600", 1866116),  # (97*31 + 55357)*31 + 56832
        ("消费组", 28099635),  # 0x6D88*961 + 0x8D39*31 + 0x7EC4 = 26946440 + 1120743 + 32452
        ("testtopic-app", -947041231),  # negative hash
    ],
)
def test_java_string_hashcode(s, expected):
    assert java_string_hashcode(s) == expected
    assert hashcode_by_definition(s) == expected


@pytest.mark.parametrize(
    "s", ["consumer-group-Ω", "группа", "グループ-1", "\U0001f680rocket\U0001f680", "x" * 200]
)
def test_hashcode_agrees_with_polynomial_definition(s):
    assert java_string_hashcode(s) == hashcode_by_definition(s)
    assert partition_for(s) == utils_abs(hashcode_by_definition(s)) % 50


def test_non_default_partition_count_and_bad_counts():
    assert partition_for("demo-group", 100) == 1762578965 % 100
    assert partition_for("demo-group", 1) == 0
    with pytest.raises(ValueError, match="num_partitions"):
        partition_for("g", 0)
    with pytest.raises(ValueError, match="group_id"):
        partition_for(None)  # type: ignore[arg-type]


def test_client_side_coordinator_node_id():
    assert coordinator_node_id(1) == 2147483646
    assert coordinator_node_id(0) == 2147483647
    assert broker_id_from_coordinator_node_id(2147483646) == 1
