"""The request-level consumer group's state: :class:`ConsumerMember` (``ConsumerGroupMember``) and
:class:`ConsumerGroupState` (``ConsumerGroup``), with Kafka's field names. The state changes only by
replaying records (:mod:`coordinator_core.consumer.records`); the coordinator reads it.

The group state (Empty, Assigning, Reconciling, Stable) is derived from the epochs exactly as
:func:`coordinator_core.consumer.model.condition` derives it for the evidence replay
(``ConsumerGroup.maybeUpdateGroupState``); the constants are the model's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from coordinator_core.consumer.model import (
    BROKER_MEMBER_STATES,
    EMPTY,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    STATE_OF_CONDITION,
    group_condition,
)

__all__ = [
    "M_STABLE", "M_UNREVOKED", "M_UNRELEASED", "M_UNKNOWN", "ConsumerMember", "ConsumerGroupState",
    "ClassicMemberMetadata",
]  # fmt: skip

# modern/MemberState.java (the evidence replay's constants)
M_STABLE, M_UNREVOKED, M_UNRELEASED, M_UNKNOWN = BROKER_MEMBER_STATES


@dataclass(frozen=True, slots=True)
class ClassicMemberMetadata:
    """``ConsumerGroupMemberMetadataValue.ClassicMemberMetadata``: a member using the classic
    protocol inside a consumer group."""

    session_timeout_ms: int
    supported_protocols: tuple[tuple[str, bytes], ...] = ()


@dataclass(slots=True)
class ConsumerMember:
    """``ConsumerGroupMember``. Assignments are ``{topic: frozenset(partitions)}``."""

    member_id: str
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: str = M_STABLE
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: frozenset[str] = frozenset()
    subscribed_topic_regex: str | None = None
    server_assignor_name: str | None = None
    assigned_partitions: dict[str, frozenset[int]] = field(default_factory=dict)
    partitions_pending_revocation: dict[str, frozenset[int]] = field(default_factory=dict)
    classic_member_metadata: ClassicMemberMetadata | None = None

    def copy(self, **changes: object) -> ConsumerMember:
        m = ConsumerMember(
            self.member_id, self.member_epoch, self.previous_member_epoch, self.state, self.instance_id,
            self.rack_id, self.rebalance_timeout_ms, self.client_id, self.client_host,
            self.subscribed_topic_names, self.subscribed_topic_regex, self.server_assignor_name,
            self.assigned_partitions, self.partitions_pending_revocation, self.classic_member_metadata,
        )  # fmt: skip
        for k, v in changes.items():
            setattr(m, k, v)
        return m

    def update_member_epoch(self, epoch: int) -> None:
        """``Builder.updateMemberEpoch``: the previous epoch becomes the current one."""
        self.previous_member_epoch = self.member_epoch
        self.member_epoch = epoch

    def is_reconciled_to(self, target_epoch: int) -> bool:
        """``ModernGroupMember.isReconciledTo``."""
        return self.state == M_STABLE and self.member_epoch == target_epoch

    @property
    def use_classic_protocol(self) -> bool:
        return self.classic_member_metadata is not None

    def subscription_key(self) -> tuple:
        """What ``ConsumerGroupMemberMetadataValue`` holds (equality decides whether a member
        record is written)."""
        return (
            self.instance_id, self.rack_id, self.rebalance_timeout_ms, self.client_id, self.client_host,
            self.subscribed_topic_names, self.subscribed_topic_regex, self.server_assignor_name,
            self.classic_member_metadata,
        )  # fmt: skip

    def assignment_key(self) -> tuple:
        """What ``ConsumerGroupCurrentMemberAssignmentValue`` holds."""
        return (
            self.member_epoch, self.previous_member_epoch, self.state, self.assigned_partitions,
            self.partitions_pending_revocation,
        )  # fmt: skip


@dataclass(slots=True)
class ConsumerGroupState:
    """``ConsumerGroup``: epochs, members, target assignment and the partition epochs."""

    group_id: str
    group_epoch: int = 0
    #: the target assignment epoch (``assignmentEpoch``)
    assignment_epoch: int = 0
    members: dict[str, ConsumerMember] = field(default_factory=dict)
    #: instance id -> member id
    static_members: dict[str, str] = field(default_factory=dict)
    #: member id -> target assignment
    target_assignment: dict[str, dict[str, frozenset[int]]] = field(default_factory=dict)
    #: subscribed topic -> partition count (``ConsumerGroupPartitionMetadata``, before 4.1)
    subscription_metadata: dict[str, int] = field(default_factory=dict)
    #: the subscribed topics' metadata hash (the epoch record's, 4.1+)
    metadata_hash: int = 0
    #: topic -> partition -> epoch of the member owning it (assigned or pending revocation)
    partition_epochs: dict[str, dict[int, int]] = field(default_factory=dict)
    #: regex -> resolved topics (``ConsumerGroupRegularExpression`` records)
    resolved_regexes: dict[str, frozenset[str]] = field(default_factory=dict)
    #: derived state (``ConsumerGroupState`` toString values)
    state: str = EMPTY

    def derive_state(self) -> str:
        """``ConsumerGroup.maybeUpdateGroupState``: the evidence replay's rule
        (:func:`~coordinator_core.consumer.model.group_condition`)."""
        te = self.assignment_epoch
        cond = group_condition(
            bool(self.members), self.group_epoch, te, (m.is_reconciled_to(te) for m in self.members.values())
        )
        return STATE_OF_CONDITION[cond]

    def current_partition_epoch(self, topic: str, partition: int) -> int:
        """``ConsumerGroup.currentPartitionEpoch``: the owner's epoch, -1 when free."""
        return self.partition_epochs.get(topic, {}).get(partition, -1)

    def target_of(self, member_id: str, instance_id: str | None) -> dict[str, frozenset[int]]:
        """``ConsumerGroup.targetAssignment(memberId, instanceId)``: a replacing static member reads
        the target of the member it replaces."""
        t = self.target_assignment.get(member_id)
        if t is None and instance_id is not None:
            prev = self.static_members.get(instance_id)
            if prev is not None:
                t = self.target_assignment.get(prev)
        return t if t is not None else {}

    def subscribed_topics(self, extra: ConsumerMember | None = None, drop: str | None = None) -> dict[str, int]:
        """Topic -> number of subscribers (``computeSubscribedTopicNames``): every member's names and
        resolved regex; ``extra`` replaces the member with its id, ``drop`` removes a member."""
        out: dict[str, int] = {}
        for mid, m in self.members.items():
            if mid == drop or (extra is not None and mid == extra.member_id):
                continue
            self._count(m, out)
        if extra is not None:
            self._count(extra, out)
        return out

    def _count(self, m: ConsumerMember, out: dict[str, int]) -> None:
        topics = set(m.subscribed_topic_names)
        if m.subscribed_topic_regex:
            topics |= self.resolved_regexes.get(m.subscribed_topic_regex, frozenset())
        for t in topics:
            out[t] = out.get(t, 0) + 1

    def member_topics(self, m: ConsumerMember) -> frozenset[str]:
        """The member's subscription: names and its resolved regex (unresolved: no topics)."""
        if m.subscribed_topic_regex:
            return m.subscribed_topic_names | self.resolved_regexes.get(m.subscribed_topic_regex, frozenset())
        return m.subscribed_topic_names

    def is_static_away(self, m: ConsumerMember) -> bool:
        return m.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH
