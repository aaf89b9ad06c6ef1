"""Client-side evidence events: the Java consumer's (Abstract/ConsumerCoordinator, the KIP-848
consumer's membership manager), Kafka Connect's WorkerCoordinator, Kafka Streams' and non-Java clients' lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from coordinator_core.events.base import ClientEvent

# --------------------------------------------------------------------------------------------------
# Client side (AbstractCoordinator / ConsumerCoordinator, and Connect's WorkerCoordinator)
# --------------------------------------------------------------------------------------------------


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
