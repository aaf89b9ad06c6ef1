"""Evidence events: the protocol facts that broker, client and Connect logs can show.

Every event is a frozen, slotted, keyword-only dataclass.  Each class has a ``kind`` (a short
snake_case string from :data:`EVENT_KINDS`) which is also the value of the ``kind`` column of the
``events`` table, so ingestion (Spark) and replay (this package) speak one vocabulary.

Flat form.  The ``events`` table is flat: one column per field in :data:`EVENT_FIELDS`.  A row turns
into an event with :func:`event_from_row` and back with :meth:`Event.to_row`.  Fields that a kind
does not use are ``None`` in the row.

Conventions (Kafka's own vocabulary):

* ``ts`` is event time in epoch **milliseconds** (UTC), taken from the log line; never wall clock.
* ``generation`` is Kafka's generationId as logged by the line (for ``rebalance_prepared`` it is the
  *old* generation, for ``join_completed`` the *new* one).
* ``member_id`` is the member the line is about (the leader for ``assignment_received``, the departing
  member for ``member_left`` ...).  ``group_instance_id`` is set for static members.
* ``side`` is ``broker``, ``client`` or ``connect`` (``other`` for non-Java clients).
* ``partitions`` is a tuple of ``"topic-partition"`` strings; ``assignment`` is a tuple of
  ``(member_id, (partition, ...))`` pairs (the leader's full map).
* ``source_file`` / ``line_no`` locate the line; with ``ts`` and ``side`` they give the total order
  used by replay: (ts, broker before client, source_file, line_no).

Do not subclass the concrete event classes; add a new kind instead.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

SIDE_ORDER = {"broker": 0, "client": 1, "connect": 2, "other": 3}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Fields shared by every evidence event."""

    kind: ClassVar[str] = "event"
    #: broker, client, connect or other
    side: ClassVar[str] = "broker"

    ts: int
    group_id: str
    member_id: str | None = None
    generation: int | None = None
    group_instance_id: str | None = None
    client_id: str | None = None
    #: broker id of the coordinator (broker lines: the logging broker; client lines: from the node)
    coordinator: int | None = None
    source_file: str | None = None
    line_no: int | None = None

    def to_row(self) -> dict[str, Any]:
        row = dict.fromkeys(EVENT_FIELDS)
        for f in fields(self):
            row[f.name] = getattr(self, f.name)
        row.pop("origin", None)
        row["kind"] = self.kind
        row["side"] = self.side_of()
        return row

    def side_of(self) -> str:
        return getattr(self, "origin", None) or self.side

    def sort_key(self) -> tuple:
        return (self.ts, SIDE_ORDER.get(self.side_of(), 9), self.source_file or "", self.line_no or 0)


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


# --------------------------------------------------------------------------------------------------
# Client side (AbstractCoordinator / ConsumerCoordinator, and Connect's WorkerCoordinator)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientEvent(Event):
    side: ClassVar[str] = "client"
    #: "connect" for Kafka Connect worker lines, "other" for non-Java clients; None means "client"
    origin: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CoordinatorDiscovered(ClientEvent):
    """"Discovered group coordinator host:port (id: 2147483646 ...)"; ``coordinator`` is the broker
    id (Integer.MAX_VALUE - node id)."""

    kind: ClassVar[str] = "coordinator_discovered"
    host: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CoordinatorLost(ClientEvent):
    """"Group coordinator ... is unavailable or invalid ..., will attempt rediscovery"."""

    kind: ClassVar[str] = "coordinator_lost"
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RejoinRequested(ClientEvent):
    """"Request joining group due to: r" (3.0+) and its 2.x predecessors (need to revoke, metadata
    changed, heartbeat failed since group is rebalancing ...)."""

    kind: ClassVar[str] = "rejoin_requested"
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSent(ClientEvent):
    """"(Re-)joining group"."""

    kind: ClassVar[str] = "join_sent"


@dataclass(frozen=True, slots=True, kw_only=True)
class Joined(ClientEvent):
    """"Successfully joined group with generation Generation{generationId=N, memberId='m',
    protocol='p'}" (2.x: generation only). Connect: "Joined group at generation N ..."."""

    kind: ClassVar[str] = "joined"
    protocol: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinFailed(ClientEvent):
    """"JoinGroup failed: ..." / "Attempt to join group failed due to ..."; ``error`` is Kafka's
    error name when readable (UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS ...)."""

    kind: ClassVar[str] = "join_failed"
    error: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderAssigned(ClientEvent):
    """The leader's "Finished assignment for group at generation N: {m=Assignment(partitions=[..])}"
    with the full ``assignment`` map when logged."""

    kind: ClassVar[str] = "leader_assigned"
    assignment: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Synced(ClientEvent):
    """"Successfully synced group in generation Generation{...}" (2.7+)."""

    kind: ClassVar[str] = "synced"
    protocol: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncFailed(ClientEvent):
    """"SyncGroup failed: ..."."""

    kind: ClassVar[str] = "sync_failed"
    error: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignmentNotified(ClientEvent):
    """"Notifying assignor about the new Assignment(partitions=[...])" (2.6+) - this member's
    partitions in the current generation."""

    kind: ClassVar[str] = "assignment_notified"
    partitions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionsAssigned(ClientEvent):
    """"Adding newly assigned partitions: ..." / "Setting newly assigned partitions ..."."""

    kind: ClassVar[str] = "partitions_assigned"
    partitions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionsRevoked(ClientEvent):
    """"Revoke previously assigned partitions ..." / "Revoking previously assigned partitions"."""

    kind: ClassVar[str] = "partitions_revoked"
    partitions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionsLost(ClientEvent):
    """"Lost previously assigned partitions ..." (2.4+)."""

    kind: ClassVar[str] = "partitions_lost"
    partitions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartbeatSent(ClientEvent):
    """DEBUG "Sending Heartbeat request with generation N and member id m to coordinator ..."
    (and "Received successful Heartbeat response")."""

    kind: ClassVar[str] = "heartbeat_sent"


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartbeatFailed(ClientEvent):
    """A heartbeat answered with an error (REBALANCE_IN_PROGRESS, UNKNOWN_MEMBER_ID,
    ILLEGAL_GENERATION, FENCED_INSTANCE_ID, coordinator errors)."""

    kind: ClassVar[str] = "heartbeat_failed"
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PollTimeout(ClientEvent):
    """WARN "consumer poll timeout has expired ..." - the member will leave (max.poll.interval.ms)."""

    kind: ClassVar[str] = "poll_timeout"


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveSent(ClientEvent):
    """"Member m sending LeaveGroup request to coordinator ... due to r"."""

    kind: ClassVar[str] = "leave_sent"
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerationReset(ClientEvent):
    """"Resetting generation (and member id) due to: r"."""

    kind: ClassVar[str] = "generation_reset"
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OffsetCommitFailed(ClientEvent):
    """"OffsetCommit failed with Generation{...}: msg" / CommitFailedException lines."""

    kind: ClassVar[str] = "offset_commit_failed"
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberStateChanged(ClientEvent):
    """The new consumer's "Member m with epoch N transitioned from S1 to S2." (INFO 3.9+, TRACE before).
    ``member_epoch`` N is the member's epoch when it logged, which lags the group epoch during
    reconciliation (match by time, not by epoch)."""

    kind: ClassVar[str] = "member_state_changed"
    member_epoch: int | None = None
    from_state: str | None = None
    state: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReconciliationStarted(ClientEvent):
    """"Reconciling assignment with local epoch N" (3.8+) with its tab-indented block (Member, Assigned,
    Current owned, Added, Revoked partitions): ``partitions`` the added, ``revoked`` the revoked ones.
    The local epoch is a client counter, not the member epoch: it is kept in ``reason`` only."""

    kind: ClassVar[str] = "reconciliation_started"
    partitions: tuple[str, ...] = ()
    revoked: tuple[str, ...] = ()
    reason: str | None = None
    protocol_type: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherGroupEvent(ClientEvent):
    """A line about the group that is understood only as far as its group id (librdkafka, sarama,
    kafka-python ...). ``reason`` holds the message."""

    kind: ClassVar[str] = "other"
    reason: str | None = None


# --------------------------------------------------------------------------------------------------
# Kafka Streams (StreamThread / KafkaStreams / StreamsPartitionAssignor / HighAvailabilityTaskAssignor)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsStateChanged(ClientEvent):
    """"stream-thread [T] State transition from RUNNING to PARTITIONS_REVOKED" (a stream thread) or
    "stream-client [C] State transition from RUNNING to REBALANCING" (the KafkaStreams client):
    ``reason`` says which state machine (``stream-thread`` / ``stream-client``), ``client_id`` names the
    thread or the client. A thread entering PARTITIONS_REVOKED is in an eager rebalance's join phase."""

    kind: ClassVar[str] = "streams_state_changed"
    from_state: str | None = None
    state: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsRebalanceScheduled(ClientEvent):
    """The Streams assignor decided that another rebalance must follow this one (KIP-441): an immediate
    follow-up (tasks changing ownership are revoked first, version probing, a new host endpoint) or a
    probing rebalance later (warm-up replicas catching up). ``reason`` is the logged decision, e.g.
    "Requested to schedule next probing rebalance at T to try for a more balanced assignment."; the
    rebalance itself starts when the stream thread triggers it (a ``rejoin_requested`` whose cause is
    ``followup_rebalance`` or ``probing_rebalance``)."""

    kind: ClassVar[str] = "streams_rebalance_scheduled"
    reason: str | None = None


EVENT_CLASSES: tuple[type[Event], ...] = (
    MemberIdRequired, MemberAdded, RebalancePrepared, JoinCompleted, GroupEmpty,
    MembersRemovedNotJoined, LeaderReelected, NoMemberRejoined, AssignmentReceived, GroupStable,
    MemberLeft, MemberSessionExpired, PendingMemberExpired, SyncExpired, StaticMemberReplaced,
    StaticMemberNoRebalance, StaticMemberFenced, RejoinUnexpectedState, GroupLoaded, GroupUnloaded,
    GroupDead, ConsumerMemberJoined, ConsumerMemberReplaced, GroupEpochBumped, TargetAssignmentComputed,
    ConsumerSubscriptionChanged, ConsumerMemberLeft, ConsumerMemberFenced, MemberAssignmentState, GroupConverted,
    CoordinatorDiscovered, CoordinatorLost, RejoinRequested, JoinSent, Joined, JoinFailed,
    LeaderAssigned, Synced, SyncFailed, AssignmentNotified, PartitionsAssigned, PartitionsRevoked,
    PartitionsLost, HeartbeatSent, HeartbeatFailed, PollTimeout, LeaveSent, GenerationReset,
    OffsetCommitFailed, MemberStateChanged, ReconciliationStarted, OtherGroupEvent,
    StreamsStateChanged, StreamsRebalanceScheduled,
)  # fmt: skip

#: kind -> event class
EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_CLASSES}
EVENT_KINDS: tuple[str, ...] = tuple(EVENT_TYPES)
BROKER_KINDS = frozenset(k for k, c in EVENT_TYPES.items() if not issubclass(c, ClientEvent))
CLIENT_KINDS = frozenset(EVENT_KINDS) - BROKER_KINDS

#: The flat columns of the ``events`` table that carry event fields, in table order.
EVENT_FIELDS: tuple[str, ...] = (
    "ts", "group_id", "kind", "side", "member_id", "generation", "group_instance_id", "client_id",
    "coordinator", "host", "reason", "state", "protocol", "member_count", "static_count", "error",
    "old_member_id", "members", "partitions", "assignment", "static", "pending", "unexpected",
    "operation", "offsets_partition", "protocol_type", "member_epoch", "from_state", "revoked",
    "source_file", "line_no",
)  # fmt: skip

_FIELD_NAMES: dict[type[Event], frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in EVENT_CLASSES
}
_TUPLE_FIELDS = ("members", "partitions", "revoked")


def event_from_row(row: dict[str, Any]) -> Event:
    """Build the event of ``row["kind"]`` from a flat row (extra and None-valued keys are ignored;
    list values become tuples). Raises ``KeyError`` for an unknown kind: callers turn that into an
    anomaly."""
    cls = EVENT_TYPES[row["kind"]]
    names = _FIELD_NAMES[cls]
    kw: dict[str, Any] = {}
    for name in names:
        v = row.get(name)
        if v is None:
            continue
        if name in _TUPLE_FIELDS:
            v = tuple(v)
        elif name == "assignment":
            v = tuple((m, tuple(p)) for m, p in (v.items() if isinstance(v, dict) else v))
        kw[name] = v
    if cls is not None and issubclass(cls, ClientEvent) and row.get("side") in ("connect", "other"):
        kw.setdefault("origin", row["side"])
    return cls(**kw)
