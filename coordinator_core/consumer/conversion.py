"""The conversions between classic and consumer groups. The online upgrade
(``convertToConsumerGroup``): :func:`consumer_group_records`. The online downgrade
(``convertToClassicGroup``): the
consumer group's tombstones (``ConsumerGroup.createGroupTombstoneRecords``), the classic group built
from its members (``ClassicGroup.fromConsumerGroup``) and its ``GroupMetadata`` record.

The classic group is the classic coordinator's (:class:`~coordinator_core.group.ClassicGroup`,
Stable at generation = the consumer group epoch, every member's assignment = its target); the
consumer coordinator hands it over in ``ConsumerOutcome.downgraded`` and forgets the group.
"""

from __future__ import annotations

from coordinator_core.consumer.records import (
    ClassicGroupMetadataRecord,
    CurrentMemberAssignmentRecord,
    GroupMetadataRecord,
    MemberMetadataRecord,
    PartitionMetadataRecord,
    RegularExpressionRecord,
    TargetAssignmentMemberRecord,
    TargetAssignmentMetadataRecord,
    current_assignment_record,
    member_record,
)
from coordinator_core.consumer.state import ClassicMemberMetadata, ConsumerGroupState, ConsumerMember
from coordinator_core.group import ClassicGroup, Member
from coordinator_core.states import STABLE

__all__ = ["group_tombstones", "classic_group_from", "classic_group_record", "consumer_group_records"]

PROTOCOL_TYPE = "consumer"


def group_tombstones(g: ConsumerGroupState, leaving: str | None = None, joining: str | None = None) -> list:
    """``createGroupTombstoneRecords`` (``...WithReplacedMember`` when ``joining`` replaces ``leaving``:
    the replaced member's tombstones carry the joining member's id), with the resolved regular
    expressions' tombstones (Kafka 4.0+)."""
    gid = g.group_id
    ids = [joining if (joining is not None and mid == leaving) else mid for mid in g.members]
    recs: list = [CurrentMemberAssignmentRecord(gid, mid, deleted=True) for mid in ids]
    recs += [TargetAssignmentMemberRecord(gid, mid, deleted=True) for mid in ids]
    recs.append(TargetAssignmentMetadataRecord(gid, deleted=True))
    recs += [MemberMetadataRecord(gid, mid, deleted=True) for mid in ids]
    recs += [RegularExpressionRecord(gid, regex, deleted=True) for regex in g.resolved_regexes]
    recs.append(PartitionMetadataRecord(gid, deleted=True))
    recs.append(GroupMetadataRecord(gid, deleted=True))
    return recs


def _classic_member(m: ConsumerMember) -> Member:
    meta = m.classic_member_metadata
    assert meta is not None  # only classic members are converted
    return Member(
        m.member_id, m.instance_id, m.client_id, m.client_host, m.rebalance_timeout_ms, meta.session_timeout_ms,
        PROTOCOL_TYPE, meta.supported_protocols,
    )  # fmt: skip


def classic_group_from(
    g: ConsumerGroupState, leaving: str, joining: ConsumerMember | None, now_ms: int
) -> ClassicGroup:
    """``ClassicGroup.fromConsumerGroup``: every member but ``leaving`` (plus ``joining``, which
    takes the leaving member's target), Stable at the group epoch, the protocol the members vote."""
    cg = ClassicGroup(g.group_id, STABLE, now_ms)
    cg.generation = g.group_epoch
    cg.protocol_type = PROTOCOL_TYPE
    for mid, m in g.members.items():
        if mid != leaving:
            cg.add(_classic_member(m))
    if joining is not None:
        cg.add(_classic_member(joining))
    cg.protocol_name = cg.select_protocol()
    for mid, cm in cg.members.items():
        src = leaving if (joining is not None and mid == joining.member_id) else mid
        cm.assignment = dict(g.target_assignment.get(src, {}))
    return cg


def classic_group_record(cg: ClassicGroup) -> ClassicGroupMetadataRecord:
    """``GroupCoordinatorRecordHelpers.newGroupMetadataRecord``."""
    members = tuple(
        (m.member_id, m.group_instance_id, m.client_id, m.client_host, m.rebalance_timeout_ms,
         m.session_timeout_ms, m.protocols, m.assignment)  # fmt: skip
        for m in cg.members.values()
    )
    return ClassicGroupMetadataRecord(cg.group_id, cg.generation, cg.protocol_type, cg.protocol_name, cg.leader_id, members)


def consumer_group_records(cg: ClassicGroup, with_hash: bool, parse) -> tuple[list, list[tuple[str, int]]]:
    """``convertToConsumerGroup``: the classic group's tombstone, then
    ``ConsumerGroup.fromClassicGroup`` + ``createConsumerGroupRecords``: every member a classic
    member at member epoch = group epoch = target epoch = the generation, Stable, its subscription
    from its metadata for the group's protocol, target = assigned = its last assignment. The
    subscription metadata is left empty (4.1+: metadata hash 0), so the next heartbeat bumps the
    epoch. ``parse(protocols)`` reads ``(topics, owned, rack)``. Returns the records and the members'
    ``(member_id, session_timeout_ms)``."""
    gid, gen = cg.group_id, cg.generation
    members: list[ConsumerMember] = []
    sessions: list[tuple[str, int]] = []
    for m in cg.members.values():
        topics, _owned, rack = parse(((cg.protocol_name, m.metadata(cg.protocol_name or "")),))
        assigned = dict(m.assignment) if isinstance(m.assignment, dict) else {}
        members.append(ConsumerMember(
            m.member_id, gen, gen, "STABLE", m.group_instance_id, rack, m.rebalance_timeout_ms, m.client_id,
            m.client_host, topics, None, None, assigned, {},
            ClassicMemberMetadata(m.session_timeout_ms, tuple(m.protocols)),
        ))  # fmt: skip
        sessions.append((m.member_id, m.session_timeout_ms))
    recs: list = [ClassicGroupMetadataRecord(gid, deleted=True)]
    recs += [member_record(gid, m) for m in members]
    recs.append(GroupMetadataRecord(gid, gen, 0 if with_hash else None))
    recs += [TargetAssignmentMemberRecord(gid, m.member_id, m.assigned_partitions) for m in members]
    recs.append(TargetAssignmentMetadataRecord(gid, gen))
    recs += [current_assignment_record(gid, m) for m in members]
    return recs, sessions
