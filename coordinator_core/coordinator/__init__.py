"""Request-level model of Kafka's classic group coordinator (one broker, many groups).

``GroupCoordinator`` answers JoinGroup, SyncGroup, Heartbeat, LeaveGroup and OffsetCommit the way
the Scala ``GroupCoordinator`` (0.10 -> 3.9) or the Java ``GroupMetadataManager`` (3.7+, default in
4.0) does, for the version chosen in :class:`~coordinator_core.config.CoordinatorConfig`. It is
sans-IO and event-time driven:

* every call takes ``now_ms``; timers (delayed join, initial delay, heartbeats, pending members,
  pending syncs) that are due at ``now_ms`` fire **before** the request is handled, in (deadline,
  scheduling sequence) order, and timers that became due while handling it (a zero delay) fire
  right after it. ``advance_to(now_ms)`` only fires timers. Time never goes backwards: an earlier
  ``now_ms`` than already seen is treated as the latest time seen.
* every call returns an :class:`Outcome`: the responses completed by the call (the answer to this
  request first, if it was answered; then parked JoinGroup/SyncGroup responses completed by it),
  the log-worthy broker facts as :mod:`coordinator_core.events` objects (with the reason texts of
  the configured version and implementation), and the state transitions.
* client misuse never raises: it gets Kafka's error code. Kafka's own ``IllegalStateException``
  answers (a pending member id sent with a group.instance.id ...) become ``UNKNOWN_SERVER_ERROR``.

Member ids are ``<client.id or group.instance.id>-<uuid4>`` with UUIDs from a seeded generator, so
runs are reproducible (``seed``), or from ``member_id_factory(prefix)`` when given.

Not modelled: offsets themselves (commits are validated only), group metadata write failures,
COORDINATOR_LOAD_IN_PROGRESS, DescribeGroups/ListGroups/DeleteGroups, transactional commits,
KIP-848 consumer groups. DEBUG-only log lines without an event kind are not emitted.

The model is split by concern: :mod:`.protocol` (error codes, ``Response``, ``Outcome``),
:mod:`.core` (``GroupCoordinator``: state and public entry points), :mod:`.join`,
:mod:`.rebalance` (the join phase, delayed join, initial delay), :mod:`.sync`, :mod:`.heartbeat`
(sessions, pending-member expiry), :mod:`.leave`, :mod:`.offsets`, :mod:`.loading` (coordinator
moves), :mod:`.validation` and :mod:`.calls` (call plumbing, timer dispatch).
"""

from coordinator_core.coordinator.core import GroupCoordinator
from coordinator_core.coordinator.protocol import (
    COMMIT,
    COORDINATOR_NOT_AVAILABLE,
    FENCED_INSTANCE_ID,
    GROUP_MAX_SIZE_REACHED,
    HEARTBEAT,
    ILLEGAL_GENERATION,
    INCONSISTENT_GROUP_PROTOCOL,
    INVALID_GROUP_ID,
    INVALID_SESSION_TIMEOUT,
    JOIN,
    LEAVE,
    MEMBER_ID_REQUIRED,
    NONE,
    NOT_COORDINATOR,
    REBALANCE_IN_PROGRESS,
    SYNC,
    UNKNOWN_MEMBER_ID,
    UNKNOWN_SERVER_ERROR,
    Outcome,
    Response,
)

__all__ = [
    "COMMIT",
    "COORDINATOR_NOT_AVAILABLE",
    "FENCED_INSTANCE_ID",
    "GROUP_MAX_SIZE_REACHED",
    "HEARTBEAT",
    "ILLEGAL_GENERATION",
    "INCONSISTENT_GROUP_PROTOCOL",
    "INVALID_GROUP_ID",
    "INVALID_SESSION_TIMEOUT",
    "JOIN",
    "LEAVE",
    "MEMBER_ID_REQUIRED",
    "NONE",
    "NOT_COORDINATOR",
    "REBALANCE_IN_PROGRESS",
    "SYNC",
    "UNKNOWN_MEMBER_ID",
    "UNKNOWN_SERVER_ERROR",
    "GroupCoordinator",
    "Outcome",
    "Response",
]
