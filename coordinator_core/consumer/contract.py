"""The evidence contract of the consumer-protocol (KIP-848) replay: where each field sits in an
event row (:data:`coordinator_core.events.EVENT_FIELDS`), the kinds the replay reads
(:data:`CONSUMER_KINDS`, ``docs/design/contracts.md`` section 2), its constants, and the small
readers of row values (:func:`fence_cause` turns a fencing reason into a cause and a session end).
"""

from __future__ import annotations

from typing import Any

from coordinator_core.events import EVENT_KINDS

__all__ = ["CONSUMER_KINDS", "STALE_MS", "fence_cause"]

# the row accessor (defined once beside the events), re-exported for the replay's modules

#: the KIP-848 kinds of contract section 2 plus the client kinds this replay reads
CONSUMER_KINDS = frozenset(
    {
        "consumer_member_joined", "consumer_member_replaced", "group_epoch_bumped",
        "consumer_subscription_changed", "target_assignment_computed", "consumer_member_left", "consumer_member_fenced",
        "member_assignment_state", "group_converted", "member_state_changed", "reconciliation_started",
    }
)  # fmt: skip
_KNOWN_KINDS = CONSUMER_KINDS | frozenset(EVENT_KINDS)
_SIGNALS_MAX = 16
#: client lines only: a rebalance whose members showed nothing for this long (twice Kafka's default
#: rebalance timeout, max.poll.interval.ms = 300 s, after which the coordinator fences a member that
#: did not reconcile) is over unseen; the next bump closes it (inferred, end unknown)
STALE_MS = 600_000
_ACTIVE = ("JOINING", "RECONCILING", "ACKNOWLEDGING")
_GONE = ("FENCED", "PREPARE_LEAVING", "LEAVING", "UNSUBSCRIBED", "FATAL", "STALE")


def _int(v: Any) -> int | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        if v != v:
            return None
        return int(v)
    except (TypeError, ValueError):
        return None


def _parts(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    try:
        return [str(x) for x in v]
    except TypeError:
        return []


def fence_cause(reason: str | None) -> tuple[str, str]:
    """(rebalance cause, session end reason) of a ``consumer_member_fenced`` reason text
    (``GroupMetadataManager``: "the member session expired", 3.7 "its session expired", "it failed
    to transition from epoch N within Tms", classic members "failed to join within the rebalance
    timeout" / "failed to sync within timeout")."""
    low = (reason or "").lower()
    if "session" in low:
        return "session_timeout", "session_timeout"
    if "failed to transition" in low or "rebalance timeout" in low or "failed to join" in low:
        return "rebalance_timeout", "fenced"
    if "sync" in low:
        return "sync_timeout", "sync_timeout"
    return "unknown", "fenced"
