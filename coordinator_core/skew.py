"""Partition skew and movement of one generation's assignment: the ``partition_skew`` rows.

One row per topic of the assignment plus one row with topic ``"*"`` over all topics; the columns are
those of ``jobs.schemas.PARTITION_SKEW`` without ``cluster``:

* ``members`` — members of the generation (every member of ``assignment``, also for a topic row:
  a member subscribed elsewhere counts as holding 0 partitions of that topic);
* ``partitions`` — distinct partitions assigned (of that topic, or in total);
* ``min_per_member`` / ``max_per_member`` / ``mean_per_member`` — partitions per member over those
  members (``None`` when the generation has no member);
* ``skew_ratio`` — ``max / mean``: 1.0 is perfectly even, 2.0 means the busiest member has twice
  the average; ``None`` when there are no partitions;
* ``idle_members`` — members of the generation holding no partition of that topic (``"*"``: none at all);
* ``moved_partitions`` — partitions whose owner changed since ``previous`` (a partition assigned now
  that had a different owner before); partitions that are new in this generation, or were not
  assigned in ``previous``, do not count; ``None`` when there is no previous assignment.

A partition listed under several members (inconsistent evidence) counts once in ``partitions`` and
once per listing member in the per-member numbers; it counts as moved when none of its current
owners owned it before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from coordinator_core.assignors._members import java_key

__all__ = ["ALL_TOPICS", "moved_partitions", "skew_rows"]

#: Topic value of the row that summarises all topics.
ALL_TOPICS = "*"

TopicPartition = tuple[str, int]
#: a member's (topic, partition) pairs, as tuples or as the [topic, partition] lists a replay stores
AssignmentLike = Mapping[str, Iterable[TopicPartition] | Iterable[list[Any]]]


def _owners(assignment: AssignmentLike) -> dict[TopicPartition, set[str]]:
    owners: dict[TopicPartition, set[str]] = {}
    for member, tps in assignment.items():
        for topic, partition in tps:
            owners.setdefault((topic, partition), set()).add(member)
    return owners


def _moved(
    prev_owners: Mapping[TopicPartition, set[str]], cur_owners: Mapping[TopicPartition, set[str]]
) -> set:
    return {tp for tp, now in cur_owners.items() if tp in prev_owners and not (now & prev_owners[tp])}


def moved_partitions(previous: AssignmentLike, current: AssignmentLike) -> int:
    """Number of partitions assigned in ``current`` whose owner differs from ``previous``."""
    return len(_moved(_owners(previous), _owners(current)))


def _row(
    group_id: str,
    generation: int | None,
    topic: str,
    per_member: list[int],
    partitions: int,
    moved: int | None,
    assignor: str | None,
    ts: Any,
) -> dict[str, Any]:
    members = len(per_member)
    mean = partitions / members if members else None
    mx = max(per_member) if per_member else None
    return {
        "group_id": group_id,
        "generation": generation,
        "topic": topic,
        "members": members,
        "partitions": partitions,
        "min_per_member": min(per_member) if per_member else None,
        "max_per_member": mx,
        "mean_per_member": mean,
        "skew_ratio": (mx / mean) if (partitions and mean and mx is not None) else None,
        "idle_members": sum(1 for n in per_member if n == 0),
        "moved_partitions": moved,
        "assignor": assignor,
        "ts": ts,
    }


def skew_rows(
    group_id: str,
    generation: int | None,
    assignment: AssignmentLike,
    previous: AssignmentLike | None,
    assignor: str | None,
    ts: Any,
) -> list[dict[str, Any]]:
    """``partition_skew`` rows (without ``cluster``) of one generation: topics sorted, then ``"*"``.

    ``ts`` is passed through unchanged (epoch ms or a datetime, whatever the caller writes).
    """
    per_member_lists = {m: list(dict.fromkeys((t, p) for t, p in tps)) for m, tps in assignment.items()}
    cur_owners = _owners(per_member_lists)
    moved_set: set[TopicPartition] | None = None
    if previous is not None:
        moved_set = _moved(_owners(previous), cur_owners)

    # one pass over the partitions: per topic, each member's count, the partitions and the moved ones
    n_parts: dict[str, int] = {}
    for t, _ in cur_owners:
        n_parts[t] = n_parts.get(t, 0) + 1
    counts: dict[str, list[int]] = {t: [0] * len(per_member_lists) for t in n_parts}
    for i, tps in enumerate(per_member_lists.values()):
        for t, _ in tps:
            counts[t][i] += 1
    moved_by_topic: dict[str, int] = {}
    for t, _ in moved_set or ():
        moved_by_topic[t] = moved_by_topic.get(t, 0) + 1
    rows: list[dict[str, Any]] = []
    for topic in sorted(n_parts, key=java_key):
        moved = None if moved_set is None else moved_by_topic.get(topic, 0)
        rows.append(_row(group_id, generation, topic, counts[topic], n_parts[topic], moved, assignor, ts))
    per_member_all = [len(tps) for tps in per_member_lists.values()]
    moved_all = None if moved_set is None else len(moved_set)
    rows.append(
        _row(group_id, generation, ALL_TOPICS, per_member_all, len(cur_owners), moved_all, assignor, ts)
    )
    return rows
