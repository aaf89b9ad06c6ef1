"""The wire vocabulary of ``ConsumerGroupHeartbeat`` (KIP-848): error codes, the request, the
response, the log entries the coordinator writes and the per-call :class:`ConsumerOutcome`.

Field names are Kafka's (``ConsumerGroupHeartbeatRequest.json`` / ``...Response.json``), in
snake case. Partitions are ``{topic name: frozenset(partition ids)}`` (Kafka keys them by topic
id; the model keys them by name, which is what the logs show).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from coordinator_core.coordinator.protocol import (
    FENCED_INSTANCE_ID,
    GROUP_MAX_SIZE_REACHED,
    NONE,
    NOT_COORDINATOR,
    UNKNOWN_MEMBER_ID,
    UNKNOWN_SERVER_ERROR,
    Response,
)

__all__ = [
    "NONE", "UNKNOWN_MEMBER_ID", "FENCED_INSTANCE_ID", "GROUP_MAX_SIZE_REACHED", "NOT_COORDINATOR",
    "UNKNOWN_SERVER_ERROR", "INVALID_REQUEST", "UNSUPPORTED_ASSIGNOR", "GROUP_ID_NOT_FOUND",
    "FENCED_MEMBER_EPOCH", "UNRELEASED_INSTANCE_ID", "INVALID_REGULAR_EXPRESSION", "CONSUMER_HEARTBEAT",
    "Assignment", "HeartbeatRequest", "HeartbeatResponse", "ConsumerLog", "ConsumerOutcome",
    "CoordinatorError", "norm_partitions", "EMPTY_ASSIGNMENT",
]  # fmt: skip

INVALID_REQUEST = "INVALID_REQUEST"
UNSUPPORTED_ASSIGNOR = "UNSUPPORTED_ASSIGNOR"
GROUP_ID_NOT_FOUND = "GROUP_ID_NOT_FOUND"
FENCED_MEMBER_EPOCH = "FENCED_MEMBER_EPOCH"
UNRELEASED_INSTANCE_ID = "UNRELEASED_INSTANCE_ID"
INVALID_REGULAR_EXPRESSION = "INVALID_REGULAR_EXPRESSION"

CONSUMER_HEARTBEAT = "ConsumerGroupHeartbeat"

#: topic name -> partition ids (values are never empty sets)
Assignment = Mapping[str, frozenset[int]]
EMPTY_ASSIGNMENT: dict[str, frozenset[int]] = {}


class CoordinatorError(Exception):
    """Kafka's ``ApiException`` inside the model: caught at the entry point and answered as
    ``error`` / ``message``; it never leaves the coordinator."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


def norm_partitions(value: Any) -> dict[str, frozenset[int]] | None:
    """Owned / assigned partitions in any of the accepted shapes as ``{topic: frozenset}``: a mapping
    ``{topic: [p, ...]}``, an iterable of ``(topic, [p, ...])`` pairs, or of ``"topic-p"`` strings.
    None stays None (the field was not sent). Raises ValueError on anything else."""
    if value is None:
        return None
    if type(value) is dict and all(
        type(t) is str and type(ps) is frozenset and ps and all(type(p) is int for p in ps) for t, ps in value.items()
    ):
        return dict(value)  # already normalised
    out: dict[str, set[int]] = {}
    items: Iterable[Any] = value.items() if isinstance(value, Mapping) else value
    for item in items:
        if isinstance(item, str):
            topic, _, p = item.rpartition("-")
            if not topic or not p.lstrip("-").isdigit():
                raise ValueError(f"not a topic-partition: {item!r}")
            out.setdefault(topic, set()).add(int(p))
            continue
        topic, parts = item
        if not isinstance(topic, str):
            raise ValueError(f"not a topic name: {topic!r}")
        s = out.setdefault(topic, set())
        for p in parts:
            if isinstance(p, bool) or not isinstance(p, int):
                raise ValueError(f"not a partition id: {p!r}")
            s.add(p)
    return {t: frozenset(ps) for t, ps in out.items() if ps}


@dataclass(slots=True)
class HeartbeatRequest:
    """``ConsumerGroupHeartbeatRequest`` (v0/v1). ``None`` / -1 mean "not sent" as on the wire;
    ``topic_partitions`` are the partitions the member owns. ``api_version`` 1 (Kafka 4.0,
    KIP-1082) requires a client-generated ``member_id`` on every request."""

    group_id: str | None
    member_id: str = ""
    member_epoch: int = 0
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: list[str] | None = None
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    topic_partitions: Any = None
    client_id: str = ""
    client_host: str = ""
    api_version: int = 1


@dataclass(slots=True)
class HeartbeatResponse:
    """``ConsumerGroupHeartbeatResponse``. ``assignment`` is None when the response carries none (a
    partial response: the assignment did not change)."""

    error: str
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: dict[str, frozenset[int]] | None = None
    error_message: str | None = None
    group_id: str = ""
    api: str = CONSUMER_HEARTBEAT
    request_id: int = 0


@dataclass(slots=True)
class ConsumerLog:
    """One thing the coordinator logs (``GroupMetadataManager``'s log statements, by kind):
    ``joined``, ``static_joined``, ``static_replaced``, ``subscription_changed`` (DEBUG),
    ``bumped``, ``target``, ``assignment_state`` (DEBUG in 4.x), ``left``, ``static_left``,
    ``static_temp_left``, ``fenced_session``, ``fenced_rebalance``, ``fenced_classic_join``,
    ``fenced_classic_sync``, ``static_fenced``, ``unreleased_instance``, ``converted``,
    ``downgraded``, ``target_failed`` (ERROR); for the classic APIs ``member_id_required``,
    ``classic_left``, ``classic_error`` (an error answered, DEBUG), ``to_classic_group`` (the group is
    the classic coordinator's), ``upgrade_refused``, ``downgrade_refused``, ``classic_group_deleted``. ``cause`` / ``member_id`` of a bump say what triggered it."""

    kind: str
    ts: int
    group_id: str
    member_id: str | None = None
    instance_id: str | None = None
    old_member_id: str | None = None
    epoch: int | None = None
    previous_epoch: int | None = None
    state: str | None = None
    assigned: dict[str, frozenset[int]] | None = None
    revoked: dict[str, frozenset[int]] | None = None
    took_ms: int = 0
    metadata_hash: int | None = None
    assignor: str | None = None
    protocol: str = "consumer"
    cause: str | None = None
    detail: str | None = None
    level: str = "INFO"


@dataclass(slots=True)
class ConsumerOutcome:
    """What one call produced: the reply (None for ``advance_to``; a classic
    :class:`~coordinator_core.coordinator.protocol.Response` for the classic APIs), the records written (in order;
    replaying them rebuilds the state), the log entries and the group state transitions
    ``(ts, group_id, from_state or None, to_state, group_epoch)``."""

    reply: HeartbeatResponse | Response | None = None
    records: list[Any] = field(default_factory=list)
    logs: list[ConsumerLog] = field(default_factory=list)
    transitions: list[tuple[int, str, str | None, str, int]] = field(default_factory=list)
    request_id: int = 0
    #: the classic group an online downgrade created (:class:`coordinator_core.group.ClassicGroup`);
    #: the consumer coordinator no longer holds the group: the classic coordinator takes it over
    downgraded: Any = None

    def kinds(self) -> list[str]:
        return [x.kind for x in self.logs]
