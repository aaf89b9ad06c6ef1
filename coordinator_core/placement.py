"""Which broker coordinates a group: ``partitionFor(groupId)`` exactly as Kafka computes it.

The group coordinator is the leader of partition ``partition_for(group_id)`` of ``__consumer_offsets``
(Scala ``GroupMetadataManager.partitionFor``, Java ``GroupCoordinatorService.partitionFor``):
``Utils.abs(groupId.hashCode()) % groupMetadataTopicPartitionCount``.

Two Java details matter and are reproduced here:

* ``String.hashCode`` iterates over UTF-16 *code units* (a character outside the Basic Multilingual
  Plane counts as its two surrogates) and wraps to a signed 32-bit int: ``h = 31 * h + unit``.
* ``Utils.abs`` maps ``Integer.MIN_VALUE`` to 0 (Python's ``abs`` would give 2**31; for the group id
  ``polygenelubricants`` that is partition 48 instead of Kafka's 0 with 50 partitions).

The partition count is the *actual* partition count of ``__consumer_offsets`` (default
``offsets.topic.num.partitions`` = 50).
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_OFFSETS_TOPIC_PARTITIONS",
    "broker_id_from_coordinator_node_id",
    "coordinator_node_id",
    "java_string_hashcode",
    "partition_for",
    "utils_abs",
]

#: ``offsets.topic.num.partitions`` default (``OffsetConfig.DefaultOffsetsTopicNumPartitions``).
DEFAULT_OFFSETS_TOPIC_PARTITIONS = 50

_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)
_MASK = 0xFFFFFFFF


def java_string_hashcode(s: str) -> int:
    """Java ``String.hashCode()`` of ``s``: a signed 32-bit int computed over UTF-16 code units.

    Lone surrogates in ``s`` are encoded as themselves (``surrogatepass``), as Java would hold them.
    """
    data = s.encode("utf-16-be", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & _MASK
    return h - (1 << 32) if h & 0x80000000 else h


def utils_abs(n: int) -> int:
    """Kafka ``Utils.abs``: ``Math.abs`` except that ``Integer.MIN_VALUE`` becomes 0."""
    return 0 if n == _INT_MIN else abs(n)


def partition_for(group_id: str, num_partitions: int = DEFAULT_OFFSETS_TOPIC_PARTITIONS) -> int:
    """The ``__consumer_offsets`` partition (hence the coordinator) of ``group_id``, identical to Kafka."""
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, int) or num_partitions <= 0:
        raise ValueError(f"num_partitions must be a positive int, got {num_partitions!r}")
    if not isinstance(group_id, str):
        raise ValueError(f"group_id must be a str, got {type(group_id).__name__}")
    return utils_abs(java_string_hashcode(group_id)) % num_partitions


def coordinator_node_id(broker_id: int) -> int:
    """The node id a consumer client gives its coordinator: ``Integer.MAX_VALUE - brokerId``.

    Client logs show e.g. ``(id: 2147483646 rack: null)`` for broker 1 (``AbstractCoordinator``).
    """
    return _INT_MAX - broker_id


def broker_id_from_coordinator_node_id(node_id: int) -> int:
    """Inverse of :func:`coordinator_node_id`."""
    return _INT_MAX - node_id
