"""``RoundRobinAssignor`` (protocol name ``roundrobin``) of the Java consumer (3.9, no racks).

All partitions of all subscribed topics are laid out sorted by topic name then partition
(``allPartitionsSorted``: a ``TreeSet`` of topics); members sit in a circular list in ``MemberInfo``
order. For each partition the iterator skips members not subscribed to its topic, the current member
takes the partition, and the iterator advances. With identical subscriptions the counts differ by at
most one.

The old Scala consumer (and Chinese write-ups derived from it) ordered partitions by hash code; the
Java client modelled here sorts by topic then partition.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coordinator_core.assignors._common import Assignment, normalize_subscriptions, sorted_assignment
from coordinator_core.assignors._members import sorted_members

__all__ = ["assign_roundrobin"]


def assign_roundrobin(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    group_instance_ids: Mapping[str, str | None] | None = None,
) -> Assignment:
    """Kafka's round-robin assignment: member -> partitions sorted by (topic, partition)."""
    subs, counts = normalize_subscriptions(subscriptions, partitions_per_topic)
    ordered = sorted_members(subs, group_instance_ids)
    result: Assignment = {m: [] for m in subs}
    if not ordered:
        return result
    size = len(ordered)
    cursor = 0
    for topic, num_partitions in counts.items():  # counts are in Java String order of topics
        for partition in range(num_partitions):
            while topic not in subs[ordered[cursor]]:
                cursor = (cursor + 1) % size
            result[ordered[cursor]].append((topic, partition))
            cursor = (cursor + 1) % size
    return sorted_assignment(result)
