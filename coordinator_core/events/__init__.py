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

Modules: :mod:`.row` (the row shape: fields, positions, total order), :mod:`.base` (:class:`Event`,
:class:`ClientEvent`), :mod:`.broker` and :mod:`.client` (the event classes); this package gathers
them into the kind tables and reads a row into an event (:func:`event_from_row`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from coordinator_core.events.base import ClientEvent, Event
from coordinator_core.events.broker import (  # re-exported
    AssignmentReceived,
    ConsumerMemberFenced,
    ConsumerMemberJoined,
    ConsumerMemberLeft,
    ConsumerMemberReplaced,
    ConsumerSubscriptionChanged,
    GroupConverted,
    GroupDead,
    GroupEmpty,
    GroupEpochBumped,
    GroupLoaded,
    GroupStable,
    GroupUnloaded,
    JoinCompleted,
    LeaderReelected,
    MemberAdded,
    MemberAssignmentState,
    MemberIdRequired,
    MemberLeft,
    MemberSessionExpired,
    MembersRemovedNotJoined,
    NoMemberRejoined,
    PendingMemberExpired,
    RebalancePrepared,
    RejoinUnexpectedState,
    StaticMemberFenced,
    StaticMemberNoRebalance,
    StaticMemberReplaced,
    SyncExpired,
    TargetAssignmentComputed,
)
from coordinator_core.events.client import (  # re-exported
    AssignmentNotified,
    CoordinatorDiscovered,
    CoordinatorLost,
    GenerationReset,
    HeartbeatFailed,
    HeartbeatSent,
    Joined,
    JoinFailed,
    JoinSent,
    LeaderAssigned,
    LeaveSent,
    MemberStateChanged,
    OffsetCommitFailed,
    OtherGroupEvent,
    PartitionsAssigned,
    PartitionsLost,
    PartitionsRevoked,
    PollTimeout,
    ReconciliationStarted,
    RejoinRequested,
    StreamsRebalanceScheduled,
    StreamsStateChanged,
    Synced,
    SyncFailed,
)
from coordinator_core.events.row import (
    EVENT_FIELDS,
    NFIELDS,
    ORDER_FIELDS,
    SIDE_ORDER,
    order_key,
    row_order_key,
)

__all__ = [
    "Event", "ClientEvent", "MemberIdRequired", "MemberAdded", "RebalancePrepared", "JoinCompleted",
    "GroupEmpty", "MembersRemovedNotJoined", "LeaderReelected", "NoMemberRejoined",
    "AssignmentReceived", "GroupStable", "MemberLeft", "MemberSessionExpired", "PendingMemberExpired",
    "SyncExpired", "StaticMemberReplaced", "StaticMemberNoRebalance", "StaticMemberFenced",
    "RejoinUnexpectedState", "GroupLoaded", "GroupUnloaded", "GroupDead", "ConsumerMemberJoined",
    "ConsumerMemberReplaced", "GroupEpochBumped", "TargetAssignmentComputed",
    "ConsumerSubscriptionChanged", "ConsumerMemberLeft", "ConsumerMemberFenced",
    "MemberAssignmentState", "GroupConverted", "CoordinatorDiscovered", "CoordinatorLost",
    "RejoinRequested", "JoinSent", "Joined", "JoinFailed", "LeaderAssigned", "Synced", "SyncFailed",
    "AssignmentNotified", "PartitionsAssigned", "PartitionsRevoked", "PartitionsLost", "HeartbeatSent",
    "HeartbeatFailed", "PollTimeout", "LeaveSent", "GenerationReset", "OffsetCommitFailed",
    "MemberStateChanged", "ReconciliationStarted", "OtherGroupEvent", "StreamsStateChanged",
    "StreamsRebalanceScheduled", "EVENT_CLASSES", "EVENT_TYPES", "EVENT_KINDS", "BROKER_KINDS",
    "CLIENT_KINDS", "EVENT_FIELDS", "NFIELDS", "ORDER_FIELDS", "SIDE_ORDER", "order_key",
    "row_order_key", "event_from_row"
]  # fmt: skip

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
