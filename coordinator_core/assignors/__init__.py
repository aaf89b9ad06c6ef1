"""Client-side partition assignors of Kafka's classic consumer protocol, as pure functions.

``assign(strategy, subscriptions, partitions_per_topic, ...)`` returns ``{member_id: [(topic,
partition), ...]}`` with every member present (possibly with an empty list) and every list sorted
by topic (Java ``String`` order) then partition. ``strategy`` is the protocol name the group
selected: ``range``, ``roundrobin``, ``sticky`` or ``cooperative-sticky``.

* ``range`` and ``roundrobin`` reproduce the Java client (3.9, no racks) exactly, including the
  member order of ``MemberInfo`` (static members by ``group.instance.id`` first, then member id).
* ``sticky`` and ``cooperative-sticky`` keep Kafka's guarantees (balance first, then stickiness;
  ownership conflicts resolved by generation); with identical subscriptions the result is Kafka's.
  ``cooperative-sticky`` returns this round's assignment, without partitions that still have to be
  revoked by their previous owner; :func:`cooperative_rounds` shows the follow-up rebalance(s).

Topics that no member subscribes to, or that are missing from ``partitions_per_topic`` (no metadata)
or have 0 partitions, are skipped, like ``AbstractPartitionAssignor`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coordinator_core.assignors._common import Assignment, TopicPartition
from coordinator_core.assignors._members import java_hashmap_order, java_key, sorted_members
from coordinator_core.assignors.range import assign_range
from coordinator_core.assignors.roundrobin import assign_roundrobin
from coordinator_core.assignors.sticky import (
    CooperativeRound,
    StickyPlan,
    balance_violations,
    cooperative_rounds,
    plan_sticky,
)

__all__ = [
    "STRATEGIES",
    "Assignment",
    "CooperativeRound",
    "StickyPlan",
    "TopicPartition",
    "assign",
    "balance_violations",
    "cooperative_rounds",
    "java_hashmap_order",
    "java_key",
    "plan_sticky",
    "sorted_members",
]

#: Protocol names of the assignors this package models (``ConsumerPartitionAssignor.name()``).
STRATEGIES: tuple[str, ...] = ("range", "roundrobin", "sticky", "cooperative-sticky")


def assign(
    strategy: str,
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    *,
    group_instance_ids: Mapping[str, str | None] | None = None,
    owned: Mapping[str, Iterable[TopicPartition]] | None = None,
    generation: int | Mapping[str, int | None] | None = None,
) -> Assignment:
    """Assign partitions like the group leader running assignor ``strategy`` would.

    ``subscriptions``: member_id -> subscribed topics (dict order = JoinGroup order).
    ``partitions_per_topic``: topic -> partition count. ``group_instance_ids``: member_id -> static
    instance id (range/roundrobin member order). ``owned`` and ``generation`` (an int for everyone or
    member_id -> generation) feed the sticky assignors and are ignored by range/roundrobin.
    """
    if strategy == "range":
        return assign_range(subscriptions, partitions_per_topic, group_instance_ids)
    if strategy == "roundrobin":
        return assign_roundrobin(subscriptions, partitions_per_topic, group_instance_ids)
    if strategy in ("sticky", "cooperative-sticky"):
        plan = plan_sticky(subscriptions, partitions_per_topic, owned=owned, generation=generation)
        return plan.assignment if strategy == "sticky" else plan.cooperative
    raise ValueError(f"unknown assignor strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
