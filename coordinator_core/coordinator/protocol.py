"""The wire vocabulary of the classic group APIs: error codes, API names, :class:`Response` and the
per-call :class:`Outcome`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coordinator_core.events import Event
from coordinator_core.group import Protocols

NONE = "NONE"
UNKNOWN_MEMBER_ID = "UNKNOWN_MEMBER_ID"
MEMBER_ID_REQUIRED = "MEMBER_ID_REQUIRED"
REBALANCE_IN_PROGRESS = "REBALANCE_IN_PROGRESS"
ILLEGAL_GENERATION = "ILLEGAL_GENERATION"
FENCED_INSTANCE_ID = "FENCED_INSTANCE_ID"
COORDINATOR_NOT_AVAILABLE = "COORDINATOR_NOT_AVAILABLE"
NOT_COORDINATOR = "NOT_COORDINATOR"
INCONSISTENT_GROUP_PROTOCOL = "INCONSISTENT_GROUP_PROTOCOL"
GROUP_MAX_SIZE_REACHED = "GROUP_MAX_SIZE_REACHED"
INVALID_SESSION_TIMEOUT = "INVALID_SESSION_TIMEOUT"
INVALID_GROUP_ID = "INVALID_GROUP_ID"
UNKNOWN_SERVER_ERROR = "UNKNOWN_SERVER_ERROR"

JOIN, SYNC, HEARTBEAT, LEAVE, COMMIT = "JoinGroup", "SyncGroup", "Heartbeat", "LeaveGroup", "OffsetCommit"


@dataclass(slots=True)
class Response:
    """One API response. ``members`` is the leader's member list for JoinGroup
    ``[(member_id, group_instance_id, metadata)]``; for LeaveGroup it holds the per-member results
    ``[(member_id, group_instance_id, error)]`` and ``error`` is the top-level error."""

    api: str
    member_id: str
    error: str
    generation: int = -1
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str | None = None
    members: list = field(default_factory=list)
    assignment: Any = None
    skip_assignment: bool = False
    group_id: str = ""
    #: ``Outcome.request_id`` of the call whose request this answers (routes parked responses)
    request_id: int = 0


@dataclass(slots=True)
class Outcome:
    """What one call produced. ``reply`` is the answer to this call's request when it was answered
    within the call (also ``responses[0]``), None when it is parked (or for ``advance_to``).
    ``transitions`` are ``(ts, group_id, from_state or None, to_state, generation)``; a created or
    loaded group appears with ``from_state`` None."""

    responses: list[Response] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    reply: Response | None = None
    transitions: list[tuple[int, str, str | None, str, int]] = field(default_factory=list)
    #: sequence number of this call; responses to its request carry the same ``request_id``
    request_id: int = 0

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def norm_protocols(protocols: Iterable[Sequence[Any]]) -> Protocols:
    """JoinGroup protocols as ``((name, metadata), ...)``; a bare name gets empty metadata."""
    return tuple((str(p[0]), p[1] if len(p) > 1 else b"") for p in protocols)
