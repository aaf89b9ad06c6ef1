"""Subscription metadata, the metadata hash and the target assignment of a consumer group
(``ConsumerGroup.computeSubscriptionMetadata``, KIP-1101's group metadata hash,
``TargetAssignmentBuilder``), as functions of the group state; they return records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

from coordinator_core.consumer.records import TargetAssignmentMemberRecord, TargetAssignmentMetadataRecord
from coordinator_core.consumer.state import ConsumerGroupState, ConsumerMember

__all__ = ["subscription_metadata", "metadata_hash", "build_target_assignment", "preferred_assignor", "subscription_type"]

Parts = dict[str, frozenset[int]]


def subscription_metadata(subscribed: Mapping[str, int], topics: Mapping[str, int]) -> dict[str, int]:
    """Subscribed topics that exist -> partition count."""
    return {t: topics[t] for t in sorted(subscribed) if t in topics}


def metadata_hash(meta: Mapping[str, int]) -> int:
    """A deterministic 63-bit stand-in for Kafka 4.1's group metadata hash (KIP-1101: a hash of the
    subscribed topics' names and partition counts; Kafka's Murmur3 over topic id, name, partitions
    and racks is not reproduced). 0 for no topics, as Kafka's."""
    if not meta:
        return 0
    raw = ";".join(f"{t}:{n}" for t, n in sorted(meta.items())).encode()
    return int.from_bytes(hashlib.sha256(raw).digest()[:8], "big") >> 1


def subscription_type(subscribed: Mapping[str, int], num_members: int) -> str:
    """``ModernGroup.subscriptionType``: HOMOGENEOUS when every topic has every member."""
    for n in subscribed.values():
        if n != num_members:
            return "HETEROGENEOUS"
    return "HOMOGENEOUS"


def preferred_assignor(members: Mapping[str, ConsumerMember], default: str) -> str:
    """``computePreferredServerAssignor``: the server assignor most members name; else the default."""
    counts: dict[str, int] = {}
    for m in members.values():
        if m.server_assignor_name:
            counts[m.server_assignor_name] = counts.get(m.server_assignor_name, 0) + 1
    if not counts:
        return default
    return min(counts, key=lambda a: (-counts[a], a))


def build_target_assignment(
    g: ConsumerGroupState, epoch: int, members: Mapping[str, ConsumerMember], assign: Callable,
    topics: Mapping[str, int], replaced: Mapping[str, str] | None = None,
) -> tuple[dict[str, Parts], list]:  # fmt: skip
    """``TargetAssignmentBuilder.build``: run the assignor over ``members`` (the group's members
    after this request's change) and return the new target (member id -> partitions) and its
    records: one per member whose target changed (or who had none), then the epoch record.
    ``replaced``: new member id -> member id it replaces (a static member's current target)."""
    replaced = replaced or {}
    specs = []
    for mid in sorted(members):
        m = members[mid]
        cur = g.target_assignment.get(mid)
        if cur is None and mid in replaced:
            cur = g.target_assignment.get(replaced[mid])
        subs = frozenset(t for t in g.member_topics(m) if t in topics)
        cur = cur or {}
        specs.append((mid, m.instance_id, subs, {t: cur[t] for t in sorted(cur)}))
    result = assign(specs, topics)
    records: list = []
    new: dict[str, Parts] = {}
    for mid in sorted(members):
        a = {t: ps for t, ps in result.get(mid, {}).items() if ps}
        new[mid] = a
        old = g.target_assignment.get(mid)
        if old is None or old != a:
            records.append(TargetAssignmentMemberRecord(g.group_id, mid, a))
    records.append(TargetAssignmentMetadataRecord(g.group_id, epoch))
    return new, records
