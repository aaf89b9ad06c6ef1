"""The rebalance a consumer-protocol (KIP-848) replay builds (:class:`ConsumerRebalance`, kept in
snapshots as its fields), and the ``rebalances`` row made of it (:func:`rebalance_record`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from coordinator_core.records import Rebalance

__all__ = ["ConsumerRebalance", "rebalance_record"]


@dataclass(slots=True)
class ConsumerRebalance:
    """The rebalance under construction (and the last closed one, kept for a second phase)."""

    rebalance_id: str
    start_ts: int | None
    old_generation: int | None
    new_generation: int | None
    join_rounds: int = 1
    cause: str = "metadata_change"
    reason: str | None = None
    culprit_member_id: str | None = None
    culprit_client_id: str | None = None
    culprit_group_instance_id: str | None = None
    members_before: int | None = None
    protocol: str | None = None
    coordinator_broker: int | None = None
    inferred: bool = False
    start_unknown: bool = False
    protocol_type: str = "consumer"
    last_bump_ts: int | None = None
    #: member-level lines seen since the start, and the time of the last one
    evidence: bool = False
    last_activity_ts: int | None = None
    #: some partition movement of this rebalance is known (revoked / added lists)
    moves_known: bool = False
    #: client-visible participants: member id -> reached the epoch (matched by time)
    active: dict[str, bool] = field(default_factory=dict)
    #: partition -> time of its revocation, not re-assigned yet
    revoked_at: dict[str, int] = field(default_factory=dict)
    paused_ms: int = 0
    revoked: list[str] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    # set when closed
    outcome: str | None = None
    end_ts: int | None = None
    members_after: int | None = None


def paused_partition_ms(r: ConsumerRebalance, end_ts: int | None) -> int | None:
    """Partition-time paused: per revoked partition, from its revocation until it is assigned again
    (or ``end_ts``); None when no partition movement is known, or a revoked partition is still
    unassigned and the end is unknown."""
    if not r.moves_known:
        return None
    paused = r.paused_ms
    if r.revoked_at:
        if end_ts is None:
            return None  # revoked partitions still paused, end unknown
        paused += sum(max(0, end_ts - t) for t in r.revoked_at.values())
    return paused


def rebalance_record(
    group_id: str, r: ConsumerRebalance, outcome: str, end_ts: int | None, after: int | None,
    culprit_client_id: str | None, assignor: str | None,
) -> Rebalance:  # fmt: skip
    """The ``rebalances`` row of ``r`` as of ``outcome`` / ``end_ts`` / ``after`` (members after);
    ``assignor`` names the protocol when no target assignment line did."""
    dur = None
    if r.start_ts is not None and end_ts is not None:
        dur = max(0, end_ts - r.start_ts)
    paused = paused_partition_ms(r, end_ts)
    n_rev = len(r.revoked) if r.moves_known else None
    n_asg = len(r.assigned) if r.moves_known else None
    return Rebalance(
        group_id, r.rebalance_id, r.old_generation, r.new_generation, r.join_rounds, r.start_ts,
        end_ts, dur, outcome, r.cause, r.reason, r.culprit_member_id, culprit_client_id, None,
        r.culprit_group_instance_id, r.members_before, after, None, r.protocol or assignor,
        r.coordinator_broker, r.inferred, r.start_unknown, r.protocol_type, paused, n_rev, n_asg,
    )  # fmt: skip
