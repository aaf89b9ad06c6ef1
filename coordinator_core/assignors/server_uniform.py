"""The server-side ``uniform`` assignor of consumer groups (KIP-848, Kafka's
``group/assignor/UniformAssignor``), sticky to the current target assignment.

Input: ``members`` as ``(member_id, instance_id, subscribed topics, current target assignment)``
in the group's member order, and ``topics`` (name -> partition count). Output: member id ->
``{topic: frozenset(partitions)}`` (empty topics left out).

* **homogeneous** subscriptions (every member subscribes to the same topics):
  ``UniformHomogeneousAssignmentBuilder`` exactly: quotas ``total // n`` and one extra for the
  first ``total % n`` members; each member keeps its current partitions of subscribed topics up to
  its quota (lowest partition ids first), the rest become unassigned after the partitions nobody
  holds; unfilled members then take unassigned partitions in order.
* **heterogeneous** (members subscribe to different topics): Kafka's
  ``UniformHeterogeneousAssignmentBuilder``
  (:mod:`coordinator_core.assignors.server_uniform_heterogeneous`).

Iteration order is the caller's, standing for Java's ``HashMap`` / ``HashSet`` orders: members in
the order given, the subscribed topics in the order of the first member's subscription when it is
a sequence (a set is sorted), each member's current topics in its mapping's order, partitions
ascending (Java's ``HashSet<Integer>`` order). The coordinator passes sorted member ids and topic
names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from coordinator_core.assignors.server_uniform_heterogeneous import assign_heterogeneous

__all__ = ["NAME", "assign", "MemberSpec", "AssignorError"]

NAME = "uniform"

#: (member_id, instance_id, subscribed topics, current target assignment)
MemberSpec = tuple[str, str | None, frozenset[str], Mapping[str, frozenset[int]]]


class AssignorError(Exception):
    """``PartitionAssignorException``."""


def assign(members: Sequence[MemberSpec], topics: Mapping[str, int]) -> dict[str, dict[str, frozenset[int]]]:
    if not members:
        return {}
    subs = {frozenset(m[2]) for m in members}
    if len(subs) == 1:
        return _homogeneous(members, topics)
    return _heterogeneous(members, topics)


def _in_order(topics) -> list[str]:
    return list(topics) if isinstance(topics, (list, tuple)) else sorted(topics)


def _homogeneous(members: Sequence[MemberSpec], topics: Mapping[str, int]) -> dict[str, dict[str, frozenset[int]]]:
    subscribed = _in_order(members[0][2])
    if not subscribed:
        return {}
    assigned: set[tuple[str, int]] = set()
    for m in members:
        for t, ps in m[3].items():
            for p in ps:
                assigned.add((t, p))
    unassigned: list[tuple[str, int]] = []
    total = 0
    for t in subscribed:
        n = topics.get(t, -1)
        if n < 0:
            raise AssignorError(f"Members are subscribed to topic {t} which doesn't exist in the topic metadata.")
        unassigned.extend((t, p) for p in range(n) if (t, p) not in assigned)
        total += n
    base, extra = divmod(total, len(members))
    subset = set(subscribed)
    out: dict[str, dict[str, set[int]]] = {}
    unfilled: list[tuple[str, int]] = []
    for m in members:
        quota = base + (1 if extra > 0 else 0)
        extra -= 1 if extra > 0 else 0
        new: dict[str, set[int]] = {}
        for t in m[3]:
            if t not in subset:
                continue
            owned = sorted(m[3][t])
            keep = owned[:quota]
            quota -= len(keep)
            unassigned.extend((t, p) for p in owned[len(keep):])
            if keep:
                new[t] = set(keep)
        if quota > 0:
            unfilled.append((m[0], quota))
        out[m[0]] = new
    i = 0
    for mid, quota in unfilled:
        new = out[mid]
        for _ in range(quota):
            if i >= len(unassigned):
                break
            t, p = unassigned[i]
            i += 1
            new.setdefault(t, set()).add(p)
    if i < len(unassigned):
        raise AssignorError("Partitions were left unassigned")
    return {mid: {t: frozenset(ps) for t, ps in a.items() if ps} for mid, a in out.items()}


def _heterogeneous(members: Sequence[MemberSpec], topics: Mapping[str, int]) -> dict[str, dict[str, frozenset[int]]]:
    return assign_heterogeneous(members, topics, AssignorError)
