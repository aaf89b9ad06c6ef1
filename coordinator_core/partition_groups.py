"""A member's partitions grouped by topic, as the ``assignments`` rows list them: the one named
place of the replays' speed trick for it, beside the plain readings that define it.

Both replays write an ``assignments`` row per topic of a member's assignment (its partitions
sorted) every time the assignment is reported: every reconciliation of a consumer-protocol member
that ends STABLE, every leader map and ``Notifying assignor about the new Assignment`` line.
:func:`by_topic_plain` (the consumer-protocol reading of ``"topic-N"`` strings) and
:func:`parsed_assignment_plain` (the classic reading, :func:`coordinator_core.rows.split_partition`)
define the groupings. :func:`by_topic` reads each distinct partition string once (a consumer's
lists rarely repeat as lists, the partitions move between members, but the strings do);
:func:`parsed_assignment` remembers each distinct list of a classic member (most repeat).
``tests/core/test_partition_groups.py`` asserts both equal to the plain readings. Sans-IO, pure
functions of their arguments.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import groupby
from operator import itemgetter

from coordinator_core.rows import split_partition

__all__ = ["TopicRows", "by_topic", "by_topic_plain", "pairs_by_topic_plain", "parsed_assignment", "parsed_assignment_plain"]

#: distinct partition strings / classic lists remembered (a bucket's groups print a few thousand)
MEMO_SIZE = 8192

_TOPIC, _PART = itemgetter(0), itemgetter(1)
TopicRows = tuple[tuple[str, tuple[int, ...]], ...]


def by_topic_plain(partitions: Iterable[str]) -> TopicRows:
    """``"topic-N"`` strings as ``((topic, (partitions sorted)), ...)`` in topic order; a string
    without a numeric ``-N`` suffix is left out (the consumer-protocol replay's reading)."""
    groups: dict[str, list[int]] = {}
    for tp in partitions:
        topic, sep, p = tp.rpartition("-")
        if sep and p.isdigit():
            groups.setdefault(topic, []).append(int(p))
    return tuple((t, tuple(sorted(groups[t]))) for t in sorted(groups))


@lru_cache(maxsize=MEMO_SIZE)
def _topic_partition(tp: str) -> tuple[str, int] | None:
    """One string's (topic, partition) as :func:`by_topic_plain` reads it; None: left out."""
    topic, sep, p = tp.rpartition("-")
    return (topic, int(p)) if sep and p.isdigit() else None


def by_topic(partitions: Iterable[str]) -> TopicRows:
    """:func:`by_topic_plain` with each distinct string read once (the members of a group list the
    same partitions again and again, in ever new combinations): the readable pairs sorted, then
    grouped by topic."""
    try:
        pairs = sorted(filter(None, map(_topic_partition, partitions)))
    except TypeError:  # an element that is no string: the plain reading says what it makes of it
        return by_topic_plain(partitions)
    return tuple((t, tuple(map(_PART, grp))) for t, grp in groupby(pairs, _TOPIC))


def pairs_by_topic_plain(pairs: Iterable[tuple[str, int]]) -> TopicRows:
    """(topic, partition) pairs as ``((topic, (partitions sorted)), ...)`` in topic order."""
    groups: dict[str, list[int]] = {}
    for t, p in pairs:
        groups.setdefault(t, []).append(p)
    return tuple((t, tuple(sorted(groups[t]))) for t in sorted(groups))


def parsed_assignment_plain(partitions: Iterable[object]) -> tuple[tuple[tuple[str, int], ...], TopicRows]:
    """(the readable partitions as (topic, partition) pairs in their order,
    :func:`pairs_by_topic_plain` of them): the classic replay's reading of a member's assignment
    (:func:`coordinator_core.rows.split_partition`)."""
    pairs = tuple(tp for tp in map(split_partition, partitions) if tp is not None)
    return pairs, pairs_by_topic_plain(pairs)


@lru_cache(maxsize=MEMO_SIZE)
def _parsed_memo(partitions: tuple[object, ...]) -> tuple[tuple[tuple[str, int], ...], TopicRows]:
    return parsed_assignment_plain(partitions)


def parsed_assignment(partitions: Iterable[object] | None) -> tuple[tuple[tuple[str, int], ...], TopicRows]:
    """:func:`parsed_assignment_plain`, remembered per distinct list."""
    key = tuple(partitions or ())
    try:
        return _parsed_memo(key)
    except TypeError:  # an unhashable element (a [topic, partition] list)
        return parsed_assignment_plain(key)
