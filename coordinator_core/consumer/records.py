"""The coordinator records of consumer groups (Kafka's ``__consumer_offsets`` record vocabulary,
``group-coordinator/src/main/resources/common/message/ConsumerGroup*``) and their replay.

Every state change of the request-level coordinator is one of these records, and the coordinator
changes its own state only by replaying what it wrote (as Kafka's coordinator runtime does): so
replaying a call's records on a copy of the state before it gives the state after it. ``deleted``
marks a tombstone (the record's value is null).

:func:`replay_record` never raises: a record stream that contradicts itself (an epoch going
backwards, a partition owned twice, a tombstone for an unknown member) is recorded as an anomaly
``(kind, detail)`` and the record's effect is applied as far as it is consistent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from coordinator_core.consumer.model import LEAVE_GROUP_MEMBER_EPOCH
from coordinator_core.consumer.state import ClassicMemberMetadata, ConsumerGroupState, ConsumerMember

__all__ = [
    "MemberMetadataRecord", "GroupMetadataRecord", "PartitionMetadataRecord", "TargetAssignmentMemberRecord",
    "TargetAssignmentMetadataRecord", "CurrentMemberAssignmentRecord", "RegularExpressionRecord",
    "ClassicGroupMetadataRecord", "replay_record", "replay_records", "member_record", "current_assignment_record",
]  # fmt: skip

Parts = dict[str, frozenset[int]]


@dataclass(frozen=True, slots=True)
class MemberMetadataRecord:
    """``ConsumerGroupMemberMetadataKey/Value``: the member's subscription and client data."""

    group_id: str
    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: frozenset[str] = frozenset()
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    rebalance_timeout_ms: int = -1
    classic_member_metadata: ClassicMemberMetadata | None = None
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class GroupMetadataRecord:
    """``ConsumerGroupMetadataKey/Value``: the group epoch (and, 4.1+, the metadata hash)."""

    group_id: str
    epoch: int = 0
    metadata_hash: int | None = None
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class PartitionMetadataRecord:
    """``ConsumerGroupPartitionMetadataKey/Value`` (before 4.1): subscribed topics' partition counts."""

    group_id: str
    topics: tuple[tuple[str, int], ...] = ()
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class TargetAssignmentMemberRecord:
    """``ConsumerGroupTargetAssignmentMemberKey/Value``: one member's target assignment."""

    group_id: str
    member_id: str
    partitions: Parts = field(default_factory=dict)
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class TargetAssignmentMetadataRecord:
    """``ConsumerGroupTargetAssignmentMetadataKey/Value``: the target assignment epoch."""

    group_id: str
    assignment_epoch: int = 0
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class CurrentMemberAssignmentRecord:
    """``ConsumerGroupCurrentMemberAssignmentKey/Value``: epochs, state and current assignment."""

    group_id: str
    member_id: str
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: str = "STABLE"
    assigned_partitions: Parts = field(default_factory=dict)
    partitions_pending_revocation: Parts = field(default_factory=dict)
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class RegularExpressionRecord:
    """``ConsumerGroupRegularExpressionKey/Value`` (4.0+): a resolved regex subscription."""

    group_id: str
    regular_expression: str
    topics: frozenset[str] = frozenset()
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class ClassicGroupMetadataRecord:
    """``GroupMetadataKey/Value``: a classic group written by an online downgrade
    (``ClassicGroup.createClassicGroupRecords``). ``members``: ``(member_id, group_instance_id,
    client_id, client_host, rebalance_timeout_ms, session_timeout_ms, protocols, assignment)``.
    Replaying it leaves no consumer group behind (the group is then the classic coordinator's)."""

    group_id: str
    generation: int = 0
    protocol_type: str | None = "consumer"
    protocol_name: str | None = None
    leader: str | None = None
    members: tuple = ()
    deleted: bool = False


def member_record(group_id: str, m: ConsumerMember) -> MemberMetadataRecord:
    return MemberMetadataRecord(
        group_id, m.member_id, m.instance_id, m.rack_id, m.client_id, m.client_host,
        m.subscribed_topic_names, m.subscribed_topic_regex, m.server_assignor_name, m.rebalance_timeout_ms,
        m.classic_member_metadata,
    )  # fmt: skip


def current_assignment_record(group_id: str, m: ConsumerMember) -> CurrentMemberAssignmentRecord:
    return CurrentMemberAssignmentRecord(
        group_id, m.member_id, m.member_epoch, m.previous_member_epoch, m.state, m.assigned_partitions,
        m.partitions_pending_revocation,
    )  # fmt: skip


# ---------------------------------------------------------------------- replay
Anomalies = list[tuple[str, str]]


def replay_records(groups: dict[str, ConsumerGroupState], records, anomalies: Anomalies | None = None) -> None:
    out = anomalies if anomalies is not None else []
    for r in records:
        replay_record(groups, r, out)


def replay_record(groups: dict[str, ConsumerGroupState], rec: object, anomalies: Anomalies) -> None:
    """Apply one record to ``groups`` (group id -> state), as ``GroupMetadataManager.replay``."""
    if type(rec) is ClassicGroupMetadataRecord:
        return  # a classic group: nothing of it lives in the consumer groups' state
    handler = _REPLAY.get(type(rec))
    if handler is None:
        anomalies.append(("unknown_record", f"not a consumer group record: {type(rec).__name__}"))
        return
    gid = rec.group_id  # type: ignore[attr-defined]
    g = groups.get(gid)
    if g is None:
        if getattr(rec, "deleted", False):
            return  # a tombstone for a group that does not exist: ignored, as Kafka does
        g = groups[gid] = ConsumerGroupState(gid)
    handler(groups, g, rec, anomalies)
    g.state = g.derive_state()


def _member(g: ConsumerGroupState, mid: str) -> ConsumerMember:
    m = g.members.get(mid)
    if m is None:
        m = g.members[mid] = ConsumerMember(mid)
    return m


def _r_member(groups, g: ConsumerGroupState, r: MemberMetadataRecord, an: Anomalies) -> None:
    if r.deleted:
        m = g.members.get(r.member_id)
        if m is None:
            return
        if m.member_epoch != LEAVE_GROUP_MEMBER_EPOCH:
            an.append(("member_removed_unfenced", f"member {r.member_id} deleted at epoch {m.member_epoch}"))
            _drop_partition_epochs(g, m)
        del g.members[r.member_id]
        if m.instance_id is not None and g.static_members.get(m.instance_id) == r.member_id:
            del g.static_members[m.instance_id]
        return
    m = _member(g, r.member_id)
    if m.instance_id is not None and m.instance_id != r.instance_id and g.static_members.get(m.instance_id) == m.member_id:
        del g.static_members[m.instance_id]
    m.instance_id, m.rack_id, m.client_id, m.client_host = r.instance_id, r.rack_id, r.client_id, r.client_host
    m.subscribed_topic_names, m.subscribed_topic_regex = r.subscribed_topic_names, r.subscribed_topic_regex
    m.server_assignor_name, m.rebalance_timeout_ms = r.server_assignor, r.rebalance_timeout_ms
    m.classic_member_metadata = r.classic_member_metadata
    if r.instance_id is not None:
        g.static_members[r.instance_id] = r.member_id


def _r_group(groups, g: ConsumerGroupState, r: GroupMetadataRecord, an: Anomalies) -> None:
    if r.deleted:
        if g.members:
            an.append(("group_deleted_with_members", f"group {g.group_id} deleted with {len(g.members)} members"))
        del groups[g.group_id]
        return
    if r.epoch < g.group_epoch:
        an.append(("epoch_backwards", f"group epoch {r.epoch} after {g.group_epoch}; ignored"))
        return
    g.group_epoch = r.epoch
    if r.metadata_hash is not None:
        g.metadata_hash = r.metadata_hash


def _r_partition_metadata(groups, g: ConsumerGroupState, r: PartitionMetadataRecord, an: Anomalies) -> None:
    g.subscription_metadata = {} if r.deleted else dict(r.topics)


def _r_target_member(groups, g: ConsumerGroupState, r: TargetAssignmentMemberRecord, an: Anomalies) -> None:
    if r.deleted:
        g.target_assignment.pop(r.member_id, None)
    else:
        g.target_assignment[r.member_id] = r.partitions


def _r_target_metadata(groups, g: ConsumerGroupState, r: TargetAssignmentMetadataRecord, an: Anomalies) -> None:
    if r.deleted:
        g.assignment_epoch = -1
        return
    if r.assignment_epoch < g.assignment_epoch:
        an.append(("epoch_backwards", f"target assignment epoch {r.assignment_epoch} after {g.assignment_epoch}; ignored"))
        return
    g.assignment_epoch = r.assignment_epoch


def _r_current(groups, g: ConsumerGroupState, r: CurrentMemberAssignmentRecord, an: Anomalies) -> None:
    if r.deleted:
        m = g.members.get(r.member_id)
        if m is None:
            return
        _drop_partition_epochs(g, m)
        m.member_epoch = m.previous_member_epoch = LEAVE_GROUP_MEMBER_EPOCH
        m.assigned_partitions, m.partitions_pending_revocation = {}, {}
        return
    m = _member(g, r.member_id)
    _drop_partition_epochs(g, m)
    m.member_epoch, m.previous_member_epoch, m.state = r.member_epoch, r.previous_member_epoch, r.state
    m.assigned_partitions, m.partitions_pending_revocation = r.assigned_partitions, r.partitions_pending_revocation
    _add_partition_epochs(g, m, an)


def _r_regex(groups, g: ConsumerGroupState, r: RegularExpressionRecord, an: Anomalies) -> None:
    if r.deleted:
        g.resolved_regexes.pop(r.regular_expression, None)
    else:
        g.resolved_regexes[r.regular_expression] = r.topics


def _drop_partition_epochs(g: ConsumerGroupState, m: ConsumerMember) -> None:
    pe = g.partition_epochs
    for parts in (m.assigned_partitions, m.partitions_pending_revocation):
        for t, ps in parts.items():
            d = pe.get(t)
            if d is None:
                continue
            for p in ps:
                d.pop(p, None)
            if not d:
                del pe[t]


def _add_partition_epochs(g: ConsumerGroupState, m: ConsumerMember, an: Anomalies) -> None:
    pe = g.partition_epochs
    e = m.member_epoch
    for parts in (m.assigned_partitions, m.partitions_pending_revocation):
        for t, ps in parts.items():
            d = pe.setdefault(t, {})
            for p in ps:
                prev = d.get(p)
                if prev is not None:
                    an.append(("partition_owned_twice", f"{t}-{p} set to epoch {e} while owned at epoch {prev}"))
                d[p] = e


#: record type -> its replay handler ``(groups, group, record, anomalies)``
_REPLAY: dict[type, Callable[[dict[str, ConsumerGroupState], ConsumerGroupState, Any, Anomalies], None]] = {
    MemberMetadataRecord: _r_member,
    GroupMetadataRecord: _r_group,
    PartitionMetadataRecord: _r_partition_metadata,
    TargetAssignmentMemberRecord: _r_target_member,
    TargetAssignmentMetadataRecord: _r_target_metadata,
    CurrentMemberAssignmentRecord: _r_current,
    RegularExpressionRecord: _r_regex,
}
