"""What the consumer-protocol (KIP-848) replay reads: the kinds (:data:`CONSUMER_KINDS`,
``docs/design/contracts.md`` section 2), its constants, and :func:`fence_cause` (a fencing reason as
a cause and a session end). Its settings and output are the classic replay's
(:mod:`coordinator_core.replay.settings`, :mod:`coordinator_core.replay.output`); its rows are read
through :mod:`coordinator_core.events.row` and :mod:`coordinator_core.rows`.
"""

from __future__ import annotations

from coordinator_core.events import EVENT_KINDS

__all__ = [
    "CONSUMER_KINDS", "KNOWN_KINDS", "SIGNALS_MAX", "STALE_MS", "ACTIVE_STATES", "GONE_STATES", "fence_cause",
]  # fmt: skip

#: the KIP-848 kinds of contract section 2 plus the client kinds this replay reads
CONSUMER_KINDS = frozenset(
    {
        "consumer_member_joined", "consumer_member_replaced", "group_epoch_bumped",
        "consumer_subscription_changed", "target_assignment_computed", "consumer_member_left", "consumer_member_fenced",
        "member_assignment_state", "group_converted", "member_state_changed", "reconciliation_started",
    }
)  # fmt: skip
KNOWN_KINDS = CONSUMER_KINDS | frozenset(EVENT_KINDS)
#: member facts kept to explain a bump (oldest dropped first)
SIGNALS_MAX = 16
#: client lines only: a rebalance whose members showed nothing for this long (twice Kafka's default
#: rebalance timeout, max.poll.interval.ms = 300 s, after which the coordinator fences a member that
#: did not reconcile) is over unseen; the next bump closes it (inferred, end unknown)
STALE_MS = 600_000
#: client member states of a member taking part in a rebalance
ACTIVE_STATES = ("JOINING", "RECONCILING", "ACKNOWLEDGING")
#: client member states of a member that left (or is leaving) the group
GONE_STATES = ("FENCED", "PREPARE_LEAVING", "LEAVING", "UNSUBSCRIBED", "FATAL", "STALE")


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
