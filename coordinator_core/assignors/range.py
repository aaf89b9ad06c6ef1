"""``RangeAssignor`` (protocol name ``range``) of the Java consumer, without racks (3.9).

Each topic is assigned on its own: its subscribers are ordered by ``MemberInfo`` (static members by
``group.instance.id`` first, then dynamic members by member id); with ``P`` partitions and ``C``
subscribers, ``n = P // C`` and ``extra = P % C``, member ``i`` gets the contiguous range starting at
``n*i + min(i, extra)`` of length ``n + (1 if i < extra else 0)``. The first members therefore get
the extra partition of *every* topic (2 consumers, 2 topics × 3 partitions → C0 gets 4, C1 gets 2).

Without consumer racks the 3.5+ rack-aware variant (KIP-881) gives exactly this classic result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coordinator_core.assignors._common import Assignment, normalize_subscriptions, sorted_assignment
from coordinator_core.assignors._members import sorted_members

__all__ = ["assign_range"]


def assign_range(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    group_instance_ids: Mapping[str, str | None] | None = None,
) -> Assignment:
    """Kafka's range assignment: member -> partitions sorted by (topic, partition)."""
    subs, counts = normalize_subscriptions(subscriptions, partitions_per_topic)
    ordered = sorted_members(subs, group_instance_ids)
    result: Assignment = {m: [] for m in subs}
    for topic, num_partitions in counts.items():
        consumers = [m for m in ordered if topic in subs[m]]
        if not consumers:
            continue
        per_consumer, extra = divmod(num_partitions, len(consumers))
        start = 0
        for i, member in enumerate(consumers):
            length = per_consumer + (1 if i < extra else 0)
            result[member].extend((topic, p) for p in range(start, start + length))
            start += length
    return sorted_assignment(result)
