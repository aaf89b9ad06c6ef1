"""Input checking and the common driver work of ``AbstractPartitionAssignor.assign``.

The driver collects every topic some member subscribes to, keeps those with partition metadata
(topics missing from ``partitions_per_topic`` or with 0 partitions are skipped, as Kafka skips topics
without metadata), and hands partitions numbered ``0..n-1`` to the assignor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coordinator_core.assignors._members import java_key

__all__ = [
    "Assignment",
    "TopicPartition",
    "normalize_owned",
    "normalize_subscriptions",
    "partition_key",
    "sorted_assignment",
]

TopicPartition = tuple[str, int]
Assignment = dict[str, list[TopicPartition]]


def partition_key(tp: TopicPartition) -> tuple[bytes, int]:
    """Sort key: topic (Java ``String`` order) then partition number."""
    return (java_key(tp[0]), tp[1])


def sorted_assignment(assignment: Mapping[str, Iterable[TopicPartition]]) -> Assignment:
    """Copy with every member's list sorted by topic then partition."""
    return {m: sorted(tps, key=partition_key) for m, tps in assignment.items()}


def normalize_subscriptions(
    subscriptions: Mapping[str, Iterable[str]], partitions_per_topic: Mapping[str, int]
) -> tuple[dict[str, frozenset[str]], dict[str, int]]:
    """Validate inputs; return (member -> subscribed topics, topic -> partition count).

    The returned partition counts cover only topics that some member subscribes to and that have at
    least one partition. Member order of ``subscriptions`` is kept (it is the JoinGroup order).
    """
    if not isinstance(subscriptions, Mapping):
        raise ValueError(
            f"subscriptions must be a mapping member_id -> topics, got {type(subscriptions).__name__}"
        )
    if not isinstance(partitions_per_topic, Mapping):
        raise ValueError(
            f"partitions_per_topic must be a mapping topic -> int, got {type(partitions_per_topic).__name__}"
        )
    subs: dict[str, frozenset[str]] = {}
    for member, topics in subscriptions.items():
        if not isinstance(member, str):
            raise ValueError(f"member ids must be str, got {member!r}")
        if isinstance(topics, str | bytes) or not isinstance(topics, Iterable):
            raise ValueError(
                f"subscription of member {member!r} must be a collection of topic names, got {topics!r}"
            )
        topic_set = frozenset(topics)
        for t in topic_set:
            if not isinstance(t, str):
                raise ValueError(f"subscription of member {member!r} contains a non-str topic {t!r}")
        subs[member] = topic_set
    counts: dict[str, int] = {}
    for topic, n in partitions_per_topic.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"partition count of topic {topic!r} must be an int >= 0, got {n!r}")
    subscribed = set().union(*subs.values()) if subs else set()
    for topic in sorted(subscribed, key=java_key):
        count = partitions_per_topic.get(topic)
        if count:
            counts[topic] = count
    return subs, counts


def normalize_owned(
    owned: Mapping[str, Iterable[TopicPartition]] | None, members: Iterable[str]
) -> dict[str, list[TopicPartition]]:
    """Claimed partitions per current member, de-duplicated, in claim order.

    Claims of members that are not in the current subscriptions are ignored: the leader only sees
    the ``ownedPartitions`` of members that joined this generation.
    """
    result: dict[str, list[TopicPartition]] = {}
    owned = owned or {}
    if not isinstance(owned, Mapping):
        raise ValueError(
            f"owned must be a mapping member_id -> [(topic, partition)], got {type(owned).__name__}"
        )
    for member in members:
        claims = owned.get(member) or ()
        seen: dict[TopicPartition, None] = {}
        for item in claims:
            try:
                topic, partition = item
            except (TypeError, ValueError):
                raise ValueError(
                    f"owned partition of member {member!r} must be (topic, partition), got {item!r}"
                ) from None
            if not isinstance(topic, str) or isinstance(partition, bool) or not isinstance(partition, int):
                raise ValueError(f"owned partition of member {member!r} must be (str, int), got {item!r}")
            seen[(topic, partition)] = None
        result[member] = list(seen)
    return result
