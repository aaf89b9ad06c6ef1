"""What a consumer-protocol (KIP-848) member's own heartbeat lines say about its membership, as a
table (:data:`HEARTBEAT_FACTS`) the client-only replay applies (:mod:`coordinator_core.consumer.client`).

Kafka's rules (``ConsumerGroupHeartbeatRequest``, ``GroupMetadataManager.consumerGroupHeartbeat``):

* a request with member epoch 0 joins the group (``JOIN_GROUP_MEMBER_EPOCH``); a response with epoch 0
  is a member admitted before any assignment reached it: the member is **new**;
* member epoch -1 (``LEAVE_GROUP_MEMBER_EPOCH``) leaves the group: the coordinator removes it and
  bumps the group epoch (``consumerGroupFenceMember``);
* member epoch -2 (``LEAVE_GROUP_STATIC_MEMBER_EPOCH``) is a static member leaving for a restart:
  no bump, its session goes on;
* a heartbeat answered ``FENCED_MEMBER_EPOCH`` or ``UNKNOWN_MEMBER_ID`` is a member the coordinator
  removed already: it failed to reconcile within the rebalance timeout (it was reconciling, the
  coordinator logs "failed to transition from epoch N within Tms") or its session expired (it was
  not); it rejoins with epoch 0 (librdkafka ``rd_kafka_cgrp_consumer_fenced``, the Java
  ``MembershipManager.transitionToFenced``);
* a member whose application did not poll within ``max.poll.interval.ms`` leaves (member epoch -1) and
  waits, STALE (the Java ``MemberState.STALE``; librdkafka's ``MAXPOLL`` warning "…: leaving group"):
  its leave is a **poll-timeout leave**;
* a member whose heartbeats stop is removed when its session times out
  (``group.consumer.session.timeout.ms``); its client logs nothing about it, so a member whose
  heartbeat lines stopped for :data:`SILENT_INTERVALS` of its own heartbeat intervals when another
  member's reconciliation begins has **expired**.
"""

from __future__ import annotations

from dataclasses import dataclass

from coordinator_core.consumer.model import (
    JOIN_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
)
from coordinator_core.consumer.protocol import FENCED_MEMBER_EPOCH
from coordinator_core.coordinator.protocol import UNKNOWN_MEMBER_ID

__all__ = [
    "HeartbeatFact", "HEARTBEAT_FACTS", "FENCING_ERRORS", "SILENT_INTERVALS", "heartbeat_fact", "fenced_fact",
    "JOIN", "EPOCH", "LEAVE", "STATIC_LEAVE", "FENCED_REBALANCE", "FENCED_SESSION", "EXPIRED", "POLL_TIMEOUT",
    "POLL_TIMEOUT_LEAVE",
]  # fmt: skip

#: errors of a heartbeat whose member the coordinator no longer has at that epoch
FENCING_ERRORS = frozenset({FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID})
#: a member silent for this many of its own heartbeat intervals has stopped heartbeating
SILENT_INTERVALS = 3

JOIN, EPOCH, LEAVE, STATIC_LEAVE = "join", "epoch", "leave", "static_leave"
FENCED_REBALANCE, FENCED_SESSION, EXPIRED = "fenced_rebalance", "fenced_session", "expired"
POLL_TIMEOUT, POLL_TIMEOUT_LEAVE = "poll_timeout", "poll_timeout_leave"


@dataclass(frozen=True, slots=True)
class HeartbeatFact:
    """What one fact does to the member: its client state (``MemberState``), the rebalance cause it
    gives (None: none, the member stays), and how the member's session ends (None: it goes on)."""

    client_state: str | None
    cause: str | None
    session_end: str | None


#: fact -> what it does (``kinds.fence_cause`` gives the broker's fencing lines the same pairs)
HEARTBEAT_FACTS: dict[str, HeartbeatFact] = {
    JOIN: HeartbeatFact("JOINING", "new_member", None),
    EPOCH: HeartbeatFact(None, None, None),
    LEAVE: HeartbeatFact("LEAVING", "member_leave", "leave"),
    STATIC_LEAVE: HeartbeatFact("LEAVING", None, None),
    FENCED_REBALANCE: HeartbeatFact("FENCED", "rebalance_timeout", "fenced"),
    FENCED_SESSION: HeartbeatFact("FENCED", "session_timeout", "session_timeout"),
    EXPIRED: HeartbeatFact(None, "session_timeout", "session_timeout"),
    POLL_TIMEOUT: HeartbeatFact("STALE", None, None),
    POLL_TIMEOUT_LEAVE: HeartbeatFact("LEAVING", "poll_timeout_leave", "poll_timeout_leave"),
}


def heartbeat_fact(member_epoch: int | None, client_state: str | None = None) -> str | None:
    """The fact of a heartbeat line (request or response) carrying ``member_epoch`` (None: none), of
    a member in ``client_state`` (STALE: its poll timer expired)."""
    if member_epoch is None:
        return None
    if member_epoch == JOIN_GROUP_MEMBER_EPOCH:
        return JOIN
    if member_epoch == LEAVE_GROUP_MEMBER_EPOCH:
        return POLL_TIMEOUT_LEAVE if client_state == "STALE" else LEAVE
    if member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        return STATIC_LEAVE
    return EPOCH if member_epoch > 0 else None


def fenced_fact(error: str | None, client_state: str | None) -> str | None:
    """The fact of a failed heartbeat: fenced (for the rebalance timeout when the member was
    reconciling, else for its session) when ``error`` is a fencing error, else None."""
    if str(error or "").upper() not in FENCING_ERRORS:
        return None
    if client_state in ("RECONCILING", "ACKNOWLEDGING"):
        return FENCED_REBALANCE
    return FENCED_SESSION
