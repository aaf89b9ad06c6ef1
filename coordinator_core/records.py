"""What a replay returns: transitions, rebalances, member sessions, assignments and anomalies.

Each record is a slotted dataclass whose field names are exactly the columns of its output table
(``group_transitions``, ``rebalances``, ``member_sessions``, ``assignments``, ``anomalies``),
compared and hashed by value. A record is never changed once made (a replay that reports a
rebalance again makes a new record); the classes are not ``frozen`` because a frozen dataclass is
built through ``object.__setattr__`` field by field, several times slower, and the replays make a
record for nearly every line they replay (``tests/core/test_records.py`` keeps them hashable);
``jobs.schemas`` adds ``cluster`` and types them for Spark, and a test checks that both agree.
Timestamps are epoch milliseconds (``None`` when unknown).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

#: Closed vocabulary of rebalance causes.
CAUSES: tuple[str, ...] = (
    "new_member",  # a member joined (dynamic or new static member)
    "member_leave",  # explicit LeaveGroup (shutdown, unsubscribe)
    "poll_timeout_leave",  # LeaveGroup because max.poll.interval.ms was exceeded
    "session_timeout",  # heartbeat expiry (crash, GC pause, network)
    "leader_rejoin",  # the leader rejoined (forces a rebalance)
    "metadata_change",  # subscription / topic metadata / protocol metadata changed
    "static_member",  # a static member's change (protocol change, replacement during rebalance)
    "sync_timeout",  # members removed on pending-sync expiry
    "coordinator_move",  # the coordinator moved (group loaded elsewhere, over-capacity reload)
    "store_error",  # storing the assignment failed
    # consumer protocol (KIP-848): fenced for not revoking within the rebalance timeout ("failed to
    # transition from epoch N within Tms", or a classic member that failed to join in time)
    "rebalance_timeout",
    # Kafka Streams asked for it itself (KIP-441): an immediate follow-up rebalance (tasks changing owner
    # are revoked first, version probing, a new host endpoint) or a later probing rebalance (warm-ups)
    "followup_rebalance",
    "probing_rebalance",
    "unknown",
)

#: Outcomes of a rebalance.
OUTCOMES: tuple[str, ...] = ("completed", "ended_empty", "open")

#: How a member session ended.
SESSION_ENDS: tuple[str, ...] = (
    "leave", "poll_timeout_leave", "session_timeout", "not_rejoined", "sync_timeout", "fenced",
    "replaced", "pending_expired", "group_dead", "open",
)  # fmt: skip

#: Kinds of anomalies of the evidence.
ANOMALY_KINDS: tuple[str, ...] = (
    "impossible_transition",  # a logged fact that the state machine cannot take from its state
    "generation_gap",  # logged generation differs from the model's (missing lines or logs)
    "out_of_order",  # a line earlier than the previous one of the same source file
    "duplicate_line",  # the same fact logged twice (same ts, kind, member, generation)
    "rebalance_without_start",  # logs begin in the middle of a rebalance
    "rebalance_without_end",  # logs end while a rebalance is open
    "unknown_member",  # a fact about a member the model does not know
    "unknown_kind",  # an event kind the replay does not know
    "clock_skew",  # client line contradicts broker ordering by more than tolerance
    "replay_error",  # the replay of this group failed; the job went on
    "no_timestamp",  # an event whose file gave it no time at all: kept in events, not replayed (yet)
    "unattributed",  # an event of a file that names no group: kept in events, not replayed as a group
    "protocol_converted",  # the group switched protocol with no conversion line (Kafka 4.0 logs none)
)


@dataclass(slots=True, unsafe_hash=True)
class Transition:
    group_id: str
    ts: int | None
    from_state: str | None
    to_state: str
    generation: int
    #: the event kind that caused it
    trigger: str
    #: True when the model inferred the transition (e.g. Stable after the leader's assignment)
    inferred: bool
    source_file: str | None = None
    line_no: int | None = None
    #: classic, consumer, share or streams (Kafka's group type)
    protocol_type: str = "classic"


@dataclass(slots=True, unsafe_hash=True)
class Rebalance:
    """One rebalance: from entering PreparingRebalance (from Stable or Empty) until Stable again or
    Empty. Join rounds interrupted by a new PreparingRebalance belong to the same rebalance."""

    group_id: str
    rebalance_id: str  # stable id: f"{group_id}:{start_ts or 'unknown'}:{old_generation}"
    old_generation: int | None
    new_generation: int | None
    join_rounds: int
    start_ts: int | None
    end_ts: int | None
    duration_ms: int | None
    outcome: str
    cause: str
    reason: str | None
    culprit_member_id: str | None
    culprit_client_id: str | None
    culprit_host: str | None
    culprit_group_instance_id: str | None
    members_before: int | None
    members_after: int | None
    leader_id: str | None
    protocol: str | None
    coordinator_broker: int | None
    inferred: bool
    #: True when the logs began in the middle of this rebalance
    start_unknown: bool = False
    #: classic, consumer, share or streams (Kafka's group type)
    protocol_type: str = "classic"
    #: partition-milliseconds that could not be consumed (classic: duration x partitions owned
    #: before; consumer protocol: per revoked partition, revocation until re-assignment); None = unknown
    paused_partition_ms: int | None = None
    partitions_revoked: int | None = None
    partitions_assigned: int | None = None


@dataclass(slots=True, unsafe_hash=True)
class MemberSession:
    group_id: str
    member_id: str
    group_instance_id: str | None
    client_id: str | None
    host: str | None
    joined_ts: int | None
    left_ts: int | None
    first_generation: int | None
    last_generation: int | None
    end_reason: str  # one of SESSION_ENDS
    inferred: bool
    protocol_type: str = "classic"


@dataclass(slots=True, unsafe_hash=True)
class AssignmentRow:
    group_id: str
    generation: int
    member_id: str
    topic: str
    partitions: tuple[int, ...]
    #: leader_map (full map from the leader), member (the member's own line), or model
    source: str
    ts: int | None


@dataclass(slots=True, unsafe_hash=True)
class Anomaly:
    group_id: str
    ts: int | None
    kind: str  # one of ANOMALY_KINDS
    detail: str
    state: str | None = None
    generation: int | None = None
    event_kind: str | None = None
    source_file: str | None = None
    line_no: int | None = None


def as_dict(record: Any) -> dict[str, Any]:
    """A record as a plain dict (column name -> value)."""
    return asdict(record)
