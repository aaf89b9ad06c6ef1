"""Consumer-protocol (KIP-848) groups: the group model, its evidence replay, and the request-level
coordinator.

The request-level coordinator (:class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`,
``docs/consumer-protocol.md``) answers ``ConsumerGroupHeartbeat`` as Kafka 4.0 / 4.1 / 4.2 do and
returns Kafka's records; it shares this package's group states, epoch constants and state rule
(:mod:`coordinator_core.consumer.model`) with the evidence replay described below.

What a rebalance is under KIP-848
---------------------------------
There is no JoinGroup/SyncGroup round. The coordinator bumps the **group epoch** E when the group's
membership or metadata changes, computes the **target assignment** for E, and every member then
reconciles on its own: it revokes what it must give up, acknowledges, and reaches **member epoch**
E. Here a *rebalance* is:

* **start** — a group-epoch bump: ``Bumped group epoch to E`` (with or without ``with metadata hash
  H``), or a member leaving / being fenced (Kafka bumps the epoch then without logging the bump; the
  replay implies it, and a later ``Bumped ... to E`` of the same epoch is the same bump). A static
  member that *temporarily* leaves (member epoch -2) bumps nothing: no rebalance, and its session
  goes on; its replacement ("re-joins ... Created a new member") is no rebalance either unless a bump
  follows.
* **rounds** — a bump while members are still reconciling extends the same rebalance:
  ``join_rounds`` counts the bumps merged; ``old_generation`` / ``new_generation`` are group epochs
  (before the first bump, after the last).
* **end** — every member present (not left, not fenced, not away with epoch -2) has reached E:
  with the broker's per-member ``new assignment state`` lines (INFO 3.8-3.9 and share groups, DEBUG
  in 4.x) when all are ``state=STABLE`` with ``epoch >= E`` (exact); with client lines only, when
  every member seen reconciling after the bump has logged ``... transitioned from ... to STABLE``
  (matched **by time**: the client's ``with epoch N`` lags and shows the old epoch; members whose
  assignment did not change log nothing and are assumed reconciled, so ``inferred=True`` when some
  member has no client lines). A member that was in the group when it closed and reconciles at
  the same epoch later (it heartbeated late, or gets partitions released by others) re-opens it
  (same ``rebalance_id``, re-emitted); a member that joined since (a restarted static member)
  does not. Should the end never show, the next bump more than ``STALE_MS`` (10 min) after the
  last member line closes it ``inferred`` with null ``end_ts``. ``ended_empty`` when the last
  member leaves.
* **client lines only** (no broker logs) — a member's ``-> RECONCILING`` starts an ``inferred``
  rebalance (cause ``new_member`` when it comes from JOINING, else ``unknown``); epochs are the
  largest ``with epoch N`` the members show.
* **no member-level lines** (4.x broker INFO only) — the end cannot be seen: the rebalance is
  ``open``; bumps within ``signal_window_ms`` of the previous one are merged into it; the next bump
  after that closes it with ``outcome=completed``, ``inferred=True`` and null ``end_ts`` /
  ``duration_ms`` (a flush reports the last one ``open``; the final flush adds
  ``rebalance_without_end``).
* **cause and culprit** — the member line just before or at the bump (within ``signal_window_ms``,
  same coordinator): joined → ``new_member``; left → ``member_leave``; fenced because the session
  expired → ``session_timeout``; fenced for failing to transition within the rebalance timeout →
  ``rebalance_timeout``; static replacement → ``static_member``. A bump with no member line is a
  ``metadata_change`` (partitions added, a regex resolved, a rack change; ``reason`` holds the
  ``metadata hash H`` when logged). Subscription changes are logged at DEBUG only (no event kind):
  they read as ``metadata_change`` too.
* **partitions** — only revoked partitions stop consuming. ``partitions_revoked`` /
  ``partitions_assigned`` count the distinct partitions revoked / newly assigned during the
  rebalance (client ``Revoked``/``Added`` lists, ``Revoking previously assigned partitions``, the
  broker's ``revokedPartitions`` / ``assignedPartitions``, and a departing member's known
  assignment); ``paused_partition_ms`` sums, per revoked partition, the time from its revocation
  until some member is assigned it again (or the rebalance end). All three are null when no line
  shows partition movement; ``paused_partition_ms`` is null when a revoked partition is still
  unassigned and the end is unknown.

Group states (``ConsumerGroup.ConsumerGroupState``: Empty, Assigning, Reconciling, Stable, Dead) are
never logged; they are derived from the epochs (:mod:`coordinator_core.consumer.model`), so
``group_transitions`` rows from broker facts say what the logged epochs imply and rows from client
lines are ``inferred``. Member sessions start at ``Member m joins the consumer group`` and end as
``leave``, ``session_timeout`` / ``fenced`` (fenced for the session / the rebalance timeout),
``replaced`` (static replacement) or ``group_dead``.
"""

from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.model import ConsumerGroupMember, ConsumerGroupModel
from coordinator_core.consumer.protocol import HeartbeatRequest, HeartbeatResponse
from coordinator_core.consumer.replay import CONSUMER_KINDS, ConsumerGroupReplay
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig

__all__ = [
    "ConsumerGroupReplay", "ConsumerGroupModel", "ConsumerGroupMember", "CONSUMER_KINDS", "ConsumerGroupCoordinator",
    "ConsumerCoordinatorConfig", "HeartbeatRequest", "HeartbeatResponse",
]  # fmt: skip
