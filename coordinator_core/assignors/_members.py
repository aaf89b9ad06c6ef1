"""Java orderings the client assignors depend on.

* :func:`java_key` — ``String.compareTo`` order (UTF-16 code units, not Python's code points: a
  character above U+FFFF sorts *before* U+E000..U+FFFF in Java).
* :func:`sorted_members` — ``AbstractPartitionAssignor.MemberInfo.compareTo`` (2.4.0+): members with a
  ``group.instance.id`` first, ordered by instance id, then dynamic members ordered by member id.
* :func:`java_hashmap_order` — the iteration order of a ``java.util.HashMap`` filled by ``put`` in a
  given order. The leader's ``ConsumerCoordinator`` collects the JoinGroup members into such a map,
  and the sticky assignor's fast path walks members in that order, so which over-quota member keeps
  ``maxQuota`` partitions depends on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from coordinator_core.placement import java_string_hashcode

__all__ = ["java_hashmap_order", "java_key", "member_sort_key", "sorted_members"]

_HASHMAP_DEFAULT_CAPACITY = 16
_HASHMAP_LOAD_FACTOR = 0.75


def java_key(s: str) -> bytes:
    """Sort key giving Java ``String.compareTo`` order (big-endian UTF-16 compares unit by unit)."""
    return s.encode("utf-16-be", "surrogatepass")


def member_sort_key(member_id: str, group_instance_id: str | None) -> tuple[int, bytes, bytes]:
    """``MemberInfo.compareTo`` as a key; ties between equal instance ids fall back to member id."""
    if group_instance_id is not None:
        return (0, java_key(group_instance_id), java_key(member_id))
    return (1, java_key(member_id), b"")


def sorted_members(
    member_ids: Iterable[str], group_instance_ids: Mapping[str, str | None] | None = None
) -> list[str]:
    """Member ids in ``MemberInfo`` order (static members by instance id first, then dynamic ones)."""
    gids = group_instance_ids or {}
    return sorted(member_ids, key=lambda m: member_sort_key(m, gids.get(m)))


def java_hashmap_order(keys: Sequence[str]) -> list[str]:
    """Iteration order of a ``java.util.HashMap<String, ?>`` after ``put(k)`` for ``keys`` in order.

    The table starts at 16 buckets and doubles whenever the size exceeds 0.75 × capacity; a key lives
    in bucket ``(h ^ (h >>> 16)) & (capacity - 1)`` with ``h = key.hashCode()``; iteration walks the
    buckets in index order and each bucket in insertion order (resizes keep the relative order).
    Not modelled: tree bins (8+ keys colliding in one bucket), which never happen at sane group sizes.
    """
    unique = list(dict.fromkeys(keys))
    n = len(unique)
    capacity = _HASHMAP_DEFAULT_CAPACITY
    while n > int(capacity * _HASHMAP_LOAD_FACTOR):
        capacity *= 2
    mask = capacity - 1

    def bucket(key: str) -> int:
        h = java_string_hashcode(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & mask

    indexed = [(bucket(k), i, k) for i, k in enumerate(unique)]
    indexed.sort()
    return [k for _, _, k in indexed]
