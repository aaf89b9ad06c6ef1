"""Broker-side evidence events: the classic GroupCoordinator's lines and the consumer-protocol
(KIP-848, share, streams) GroupMetadataManager's lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from coordinator_core.events.base import Event

# --------------------------------------------------------------------------------------------------
# Broker side (Scala GroupCoordinator 0.10-3.x, Java GroupMetadataManager 3.7+/4.x)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberIdRequired(Event):
    """A dynamic member joined with an unknown id; the broker created ``member_id`` and answered
    MEMBER_ID_REQUIRED (KIP-394). The id is pending: no state change, no rebalance."""

    kind: ClassVar[str] = "member_id_required"
    state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberAdded(Event):
    """A member was added to the group (dynamic direct add, pending member's second join, or a new
    static member). ``static`` tells which; ``host`` is the client host when the line shows it."""

    kind: ClassVar[str] = "member_added"
    static: bool = False
    host: str | None = None
    state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RebalancePrepared(Event):
    """"Preparing to rebalance group g in state PreparingRebalance with old generation N (reason: r)"
    (0.10-2.0: "Preparing to restabilize group g with old generation N"). ``generation`` is the old
    generation; ``reason`` the raw reason text (None before 2.1)."""

    kind: ClassVar[str] = "rebalance_prepared"
    reason: str | None = None
    state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinCompleted(Event):
    """"Stabilized group g generation N (with n members)": the join phase completed and the group
    entered CompletingRebalance at generation ``generation``."""

    kind: ClassVar[str] = "join_completed"
    member_count: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupEmpty(Event):
    """"Group g with generation N is now empty": the join phase completed with no members."""

    kind: ClassVar[str] = "group_empty"


@dataclass(frozen=True, slots=True, kw_only=True)
class MembersRemovedNotJoined(Event):
    """"Group g removed dynamic members who haven't joined: Set(...)" (2.7+)."""

    kind: ClassVar[str] = "members_removed_not_joined"
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderReelected(Event):
    """The old leader (``old_member_id``) did not rejoin; ``member_id`` was elected (2.3+)."""

    kind: ClassVar[str] = "leader_reelected"
    old_member_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NoMemberRejoined(Event):
    """"could not complete rebalance because no members rejoined" (only absent static members)."""

    kind: ClassVar[str] = "no_member_rejoined"


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignmentReceived(Event):
    """"Assignment received from leader m for group g for generation N": the leader's SyncGroup.
    The group becomes Stable once the assignment is persisted (not logged)."""

    kind: ClassVar[str] = "assignment_received"
    member_count: int | None = None
    static_count: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupStable(Event):
    """The group is known to be Stable (e.g. from a DescribeGroups dump or a tool); rarely logged."""

    kind: ClassVar[str] = "group_stable"


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberLeft(Event):
    """Explicit LeaveGroup by ``member_id`` with the client's ``reason`` when logged (3.2+)."""

    kind: ClassVar[str] = "member_left"
    reason: str | None = None
    host: str | None = None
    pending: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberSessionExpired(Event):
    """"Member m in group g has failed, removing it from the group": heartbeat (session) expiry."""

    kind: ClassVar[str] = "member_session_expired"


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingMemberExpired(Event):
    """"Pending member m in group g has been removed after session timeout expiration." (2.2+)."""

    kind: ClassVar[str] = "pending_member_expired"


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncExpired(Event):
    """"Group g removed members who haven't sent their sync request(s): Set(...)" (2.8.1+), or the
    ERROR "Received unexpected notification of sync expiration" (``unexpected=True``)."""

    kind: ClassVar[str] = "sync_expired"
    members: tuple[str, ...] = ()
    unexpected: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StaticMemberReplaced(Event):
    """A static member (``group_instance_id``) rejoined with an unknown member id; ``member_id`` is
    the new id and ``old_member_id`` the replaced one."""

    kind: ClassVar[str] = "static_member_replaced"
    old_member_id: str | None = None
    state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StaticMemberNoRebalance(Event):
    """"Static member which joins during Stable stage ... will not trigger rebalance"."""

    kind: ClassVar[str] = "static_member_no_rebalance"


@dataclass(frozen=True, slots=True, kw_only=True)
class StaticMemberFenced(Event):
    """A request of ``member_id`` was fenced: instance ``group_instance_id`` is now ``old_member_id``
    (the current owner)."""

    kind: ClassVar[str] = "static_member_fenced"
    old_member_id: str | None = None
    operation: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RejoinUnexpectedState(Event):
    """WARN "Attempt to add rejoining member m of group g in unexpected group state S"."""

    kind: ClassVar[str] = "rejoin_unexpected_state"
    state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupLoaded(Event):
    """The group's metadata was loaded on the broker that became its coordinator."""

    kind: ClassVar[str] = "group_loaded"
    member_count: int | None = None
    offsets_partition: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupUnloaded(Event):
    """The broker resigned as the group's coordinator (the group goes Dead on that broker)."""

    kind: ClassVar[str] = "group_unloaded"
    offsets_partition: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupDead(Event):
    """"Group g transitioned to Dead in generation N" or the group was deleted."""

    kind: ClassVar[str] = "group_dead"


# --------------------------------------------------------------------------------------------------
# Broker side, consumer-protocol groups (KIP-848; share groups KIP-932, streams groups KIP-1071):
# Java GroupMetadataManager 3.7+, prefix "[GroupId g] "
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerMemberJoined(Event):
    """"Member m joins the consumer group [using the consumer|classic protocol]." / "Static member m
    with instance id i joins ..." / "... joins the share group using the share protocol." -
    ``protocol`` is the protocol the member speaks (``consumer``, ``classic``, ``share``, ``streams``),
    ``protocol_type`` the group's type."""

    kind: ClassVar[str] = "consumer_member_joined"
    static: bool = False
    protocol: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerMemberReplaced(Event):
    """"Static member with instance id i re-joins the consumer group [using the P protocol]. Created a
    new member m to replace the existing member old." (3.8+; 3.7: "Static member m with instance id i
    re-joins the consumer group.")."""

    kind: ClassVar[str] = "consumer_member_replaced"
    old_member_id: str | None = None
    static: bool = True
    protocol: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupEpochBumped(Event):
    """"Bumped group epoch to N." (3.7-4.0) / "... to N with metadata hash H." (4.1+) / streams
    "Bumped streams group epoch to N with metadata hash H and validated topic epoch E.": the start of a
    consumer-protocol rebalance. ``generation`` is the new group epoch; ``reason`` ``metadata hash H``."""

    kind: ClassVar[str] = "group_epoch_bumped"
    reason: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TargetAssignmentComputed(Event):
    """"Computed a new target assignment for epoch N with 'uniform' assignor [in Tms][: {...}]." -
    ``generation`` is the epoch, ``protocol`` the assignor."""

    kind: ClassVar[str] = "target_assignment_computed"
    protocol: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerSubscriptionChanged(Event):
    """"Member m updated its subscribed topics to: [...]." / "... subscribed regex to: r." (INFO
    3.7-3.9, DEBUG 4.x): the member line behind a metadata bump. ``reason`` holds the new subscription."""

    kind: ClassVar[str] = "consumer_subscription_changed"
    reason: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerMemberLeft(Event):
    """"Member m left the consumer group." / "Static Member m with instance id i [temporarily] left the
    consumer group." (``member_epoch`` -2 for a temporary static leave, which bumps nothing, else -1) /
    classic members of a consumer group: "[Group g] Dynamic|Static Member m has left group through
    explicit `LeaveGroup` request; client reason: r"."""

    kind: ClassVar[str] = "consumer_member_left"
    static: bool = False
    member_epoch: int | None = None
    reason: str | None = None
    protocol: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerMemberFenced(Event):
    """"Member m fenced from the group because R." - R (``reason``, without its final period(s)) is
    "the member session expired" (3.8+, logged with a doubled period), "its session expired" (3.7),
    "it failed to transition from epoch N within Tms" (3.8+; ``member_epoch`` = N) or "it failed to
    revoke partitions within Tms" (3.7)."""

    kind: ClassVar[str] = "consumer_member_fenced"
    reason: str | None = None
    member_epoch: int | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberAssignmentState(Event):
    """"Member m new assignment state: epoch=E, previousEpoch=P, state=S, assignedPartitions=[...] and
    revokedPartitions=[...]." (INFO 3.8-3.9 and share groups, DEBUG 4.x) and 3.7's "Member m
    transitioned from CurrentAssignment(memberEpoch=E, previousMemberEpoch=P, ...) to
    CurrentAssignment(...)." - ``member_epoch`` E, ``generation`` P, ``state`` S, ``partitions`` the
    assigned, ``revoked`` the revoked partitions."""

    kind: ClassVar[str] = "member_assignment_state"
    member_epoch: int | None = None
    state: str | None = None
    partitions: tuple[str, ...] = ()
    revoked: tuple[str, ...] = ()
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupConverted(Event):
    """"Converted the classic group to a consumer group." / "Converted the consumer group to a classic
    group." (4.1+): the group continues as one history under the other protocol; ``protocol_type`` is
    the new type."""

    kind: ClassVar[str] = "group_converted"
    protocol_type: str | None = None
    reason: str | None = None

