"""``ConsumerGroupCoordinator``: one broker's request-level model of Kafka's consumer-protocol
(KIP-848) group coordinator, for many groups; pure and event-time driven, like the classic
:class:`~coordinator_core.coordinator.GroupCoordinator`.

* ``heartbeat(now_ms, request)`` answers one ``ConsumerGroupHeartbeat`` (join with member epoch 0,
  heartbeat, leave with -1, a static member's temporary leave with -2). Timers due at ``now_ms``
  (session and rebalance timeouts) fire first, in (deadline, scheduling order).
  ``advance_to(now_ms)`` only fires timers; ``update_topics`` changes the cluster metadata (a
  partition-count change is seen by the group on its next heartbeat, as Kafka's metadata refresh).
* every call returns a :class:`~coordinator_core.consumer.protocol.ConsumerOutcome`: the reply, the
  records written (:mod:`coordinator_core.consumer.records`), the log entries and the group state
  transitions. The state changes only by replaying those records.
* an invalid request gets Kafka's error code and message (``reply.error`` / ``error_message``);
  nothing raises. An unexpected failure inside the model answers ``UNKNOWN_SERVER_ERROR`` and
  changes nothing.

Rules by version: :class:`~coordinator_core.consumer.versions.ConsumerRules` (4.0, 4.1, 4.2). The
steady-state heartbeat has a fast path (:mod:`coordinator_core.consumer.fastpath`) tested equal to
this reference path. Classic-protocol members inside a consumer group (JoinGroup, SyncGroup,
Heartbeat, LeaveGroup) and the online downgrade: :mod:`.classic`; the online upgrade of a classic
group on a consumer heartbeat: :meth:`upgrade_classic_group` (:meth:`load_converted_group` installs
an upgraded group with consumer-protocol members, for the simulator). Not modelled: client-side assignors, rack-aware
assignment, the asynchronous regex resolution (a new regex resolves within the heartbeat),
offsets, DescribeGroups / ListGroups / DeleteGroups.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from coordinator_core.consumer.classic import ClassicMixin, classic_subscription
from coordinator_core.consumer.conversion import consumer_group_records
from coordinator_core.consumer.fastpath import FastPathMixin
from coordinator_core.consumer.heartbeat import HeartbeatMixin
from coordinator_core.consumer.membership import T_JOIN, T_REBALANCE, T_SESSION, T_SYNC, MembershipMixin
from coordinator_core.consumer.migration import upgrade_refusal
from coordinator_core.consumer.protocol import (
    GROUP_ID_NOT_FOUND,
    INVALID_REQUEST,
    UNKNOWN_SERVER_ERROR,
    ConsumerLog,
    ConsumerOutcome,
    CoordinatorError,
    HeartbeatRequest,
    HeartbeatResponse,
    norm_partitions,
)
from coordinator_core.consumer.records import (
    ClassicGroupMetadataRecord,
    CurrentMemberAssignmentRecord,
    GroupMetadataRecord,
    MemberMetadataRecord,
    PartitionMetadataRecord,
    TargetAssignmentMemberRecord,
    TargetAssignmentMetadataRecord,
    replay_record,
)
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig
from coordinator_core.consumer.state import ConsumerGroupState
from coordinator_core.consumer.target import metadata_hash, subscription_metadata
from coordinator_core.group import ClassicGroup
from coordinator_core.timers import TimerHeap

__all__ = ["ConsumerGroupCoordinator"]


class ConsumerGroupCoordinator(FastPathMixin, HeartbeatMixin, MembershipMixin, ClassicMixin):
    """One broker's consumer-group coordinator for many groups."""

    #: take the steady-state fast path (:mod:`.fastpath`); False runs the reference path only
    use_fast_path = True

    def __init__(
        self,
        config: ConsumerCoordinatorConfig | None = None,
        topics: Mapping[str, int] | None = None,
        *,
        broker_id: int = 0,
        seed: int = 0,
    ) -> None:
        self.config = config if config is not None else ConsumerCoordinatorConfig()
        self.rules = self.config.rules
        self.broker_id = broker_id
        self._groups: dict[str, ConsumerGroupState] = {}
        self._topics: dict[str, int] = dict(topics or {})
        self._timers = TimerHeap()
        #: group id -> group epoch at which its subscription metadata was last computed
        self._refresh_epochs: dict[str, int] = {}
        self._now = -(2**62)
        self._out = ConsumerOutcome()
        self._token = 0
        self._rng = random.Random(seed)
        #: inconsistencies met while replaying records (never expected from this coordinator)
        self.anomalies: list[tuple[str, str]] = []
        #: the fast path's cache of steady members (dropped on every state change)
        self._steady: dict[str, dict[str, tuple[int, list]]] = {}

    # ------------------------------------------------------------------ public surface
    def group(self, group_id: str) -> ConsumerGroupState | None:
        return self._groups.get(group_id)

    @property
    def groups(self) -> dict[str, ConsumerGroupState]:
        return self._groups

    @property
    def topics(self) -> dict[str, int]:
        return dict(self._topics)

    def metadata_pending(self, group_id: str) -> bool:
        """A topic change the group has not seen yet: its next heartbeat recomputes the metadata."""
        return self._refresh_epochs.get(group_id) == -1

    def next_deadline(self) -> int | None:
        return self._timers.next_deadline()

    def timer_deadline(self, kind: str, group_id: str, member_id: str) -> int | None:
        """Deadline of a member's ``session`` or ``rebalance`` timeout."""
        return self._timers.deadline((kind, group_id, member_id))

    def advance_to(self, now_ms: int) -> ConsumerOutcome:
        """Fire every timer due at ``now_ms``."""
        return self._finish(self._begin(now_ms))

    def heartbeat(self, now_ms: int, request: HeartbeatRequest | None = None, **fields) -> ConsumerOutcome:
        """One ``ConsumerGroupHeartbeat``; give a :class:`HeartbeatRequest` or its fields."""
        out = self._begin(now_ms)
        req = request if request is not None else HeartbeatRequest(**fields)
        resp = self._fast_heartbeat(req) if self.use_fast_path else None
        if resp is None:
            resp = self._handle(req)
        resp.request_id = self._token
        out.reply = resp
        return self._finish(out)

    def update_topics(self, now_ms: int, topics: Mapping[str, int | None]) -> ConsumerOutcome:
        """Cluster metadata changes (topic -> partition count, None deletes it); the groups
        subscribed to a changed topic recompute their metadata on their next heartbeat."""
        out = self._begin(now_ms)
        changed = set()
        for t, n in topics.items():
            if n is None:
                if self._topics.pop(t, None) is not None:
                    changed.add(t)
            elif self._topics.get(t) != n:
                self._topics[t] = n
                changed.add(t)
        for gid, g in self._groups.items():
            if any(t in changed for t in g.subscribed_topics()):
                self._refresh_epochs[gid] = -1
        self._steady = {}
        return self._finish(out)

    def replay(self, records: Iterable[object]) -> list[tuple[str, str]]:
        """Replay records written elsewhere (a loaded partition, tests' group builders) onto the
        state; returns the anomalies they caused. No timers are scheduled."""
        n = len(self.anomalies)
        self._steady = {}
        for r in records:
            replay_record(self._groups, r, self.anomalies)
        return self.anomalies[n:]

    def load_converted_group(
        self, now_ms: int, group_id: str, generation: int,
        members: Iterable[tuple[str, str | None, str, Iterable[str], Mapping[str, Iterable[int]]]],
        rebalance_timeout_ms: int = 300_000, protocol_type: str = "consumer",
    ) -> ConsumerOutcome:  # fmt: skip
        """Install a consumer group converted from a classic group at ``generation``
        (``convertToConsumerGroup``): members ``(member_id, instance_id, client_id, subscribed
        topics, owned partitions)`` at member epoch = group epoch = target epoch = ``generation``,
        STABLE, target = owned. Their sessions start now. When ``group.consumer.migration.policy``
        (or the group's protocol type, or its size) refuses the upgrade, nothing is installed and
        ``reply`` is the joining member's ``GROUP_ID_NOT_FOUND``."""
        out = self._begin(now_ms)
        members = list(members)
        why = upgrade_refusal(self.config.migration_policy, group_id, protocol_type, len(members), self.config.max_size)
        if why is not None:
            self._log("upgrade_refused", group_id, detail=why)
            out.reply = HeartbeatResponse(
                GROUP_ID_NOT_FOUND, error_message=f"Group {group_id} is not a consumer group", group_id=group_id
            )
            return self._finish(out)
        records: list = []
        subs: dict[str, int] = {}
        mids = []
        for mid, iid, cid, topics, owned in members:
            parts = norm_partitions(owned) or {}
            names = frozenset(topics)
            for t in names:
                subs[t] = subs.get(t, 0) + 1
            records.append(MemberMetadataRecord(group_id, mid, iid, None, cid, "", names, None, None, rebalance_timeout_ms))
            records.append(TargetAssignmentMemberRecord(group_id, mid, parts))
            records.append(CurrentMemberAssignmentRecord(group_id, mid, generation, generation, "STABLE", parts, {}))
            mids.append(mid)
        meta = subscription_metadata(subs, self._topics)
        if self.rules.metadata_hash_epoch_record:
            records.append(GroupMetadataRecord(group_id, generation, metadata_hash(meta)))
        else:
            records.append(PartitionMetadataRecord(group_id, tuple(meta.items())))
            records.append(GroupMetadataRecord(group_id, generation))
        records.append(TargetAssignmentMetadataRecord(group_id, generation))
        self._log("converted", group_id, epoch=generation)
        self._commit(records)
        self._refresh_epochs[group_id] = generation
        for mid in mids:
            self._schedule_session(group_id, mid)
        return self._finish(out)

    def upgrade_classic_group(self, now_ms: int, group: ClassicGroup, request: HeartbeatRequest) -> ConsumerOutcome:
        """A ``ConsumerGroupHeartbeat`` to a group the classic coordinator holds
        (``getOrMaybeCreateConsumerGroup`` on a classic group): an empty classic group is deleted
        and the heartbeat creates a consumer group; a non-empty one is converted
        (``convertToConsumerGroup``, its members stay classic members, their sessions start now)
        when the request joins (epoch 0) and ``validateOnlineUpgrade`` allows it, else the answer
        is ``GROUP_ID_NOT_FOUND``. On success the caller removes the group from its classic
        coordinator (answering its parked JoinGroup / SyncGroup with ``REBALANCE_IN_PROGRESS``)."""
        out = self._begin(now_ms)
        gid = group.group_id
        try:
            self._validate(request)
            records, sessions = self._upgrade_records(group, request)
        except CoordinatorError as e:
            out.reply = HeartbeatResponse(e.error, error_message=e.message, group_id=gid)
            return self._finish(out)
        self._commit(records)
        for mid, ms in sessions:
            self._schedule_session(gid, mid, ms)
        resp = self._fast_heartbeat(request) if self.use_fast_path else None
        out.reply = resp if resp is not None else self._handle(request)
        out.reply.request_id = self._token
        return self._finish(out)

    def _upgrade_records(self, group: ClassicGroup, req: HeartbeatRequest) -> tuple[list, list[tuple[str, int]]]:
        gid = group.group_id
        if not group.members and req.member_epoch == 0:  # maybeDeleteEmptyClassicGroup
            self._log("classic_group_deleted", gid)
            return [ClassicGroupMetadataRecord(gid, deleted=True)], []
        n = len(group.members)
        why = upgrade_refusal(self.config.migration_policy, gid, group.protocol_type, n, self.config.max_size)
        if req.member_epoch != 0 or why is not None:
            if why is not None:
                self._log("upgrade_refused", gid, detail=why)
            raise CoordinatorError(GROUP_ID_NOT_FOUND, f"Group {gid} is not a consumer group")
        try:
            recs, sessions = consumer_group_records(group, self.rules.metadata_hash_epoch_record, classic_subscription)
        except CoordinatorError:
            raise CoordinatorError(
                GROUP_ID_NOT_FOUND,
                f"Cannot upgrade the classic group {gid} to consumer group because the embedded consumer protocol "
                "is malformed.",
            ) from None
        self._refresh_epochs.pop(gid, None)
        self._log("converted", gid, epoch=group.generation)
        return recs, sessions

    # ------------------------------------------------------------------ call plumbing
    def _handle(self, req: HeartbeatRequest) -> HeartbeatResponse:
        gid = req.group_id or ""
        try:
            owned = norm_partitions(req.topic_partitions)
        except (ValueError, TypeError) as exc:
            return HeartbeatResponse(INVALID_REQUEST, error_message=f"TopicPartitions is invalid: {exc}.", group_id=gid)
        try:
            self._validate(req)
            if req.member_epoch < 0:
                resp, records = self._leave(req)
            else:
                resp, records = self._join_or_heartbeat(req, owned)
        except CoordinatorError as e:
            return HeartbeatResponse(e.error, error_message=e.message, group_id=gid)
        except Exception as exc:  # a defect of the model: answer, change nothing
            return HeartbeatResponse(UNKNOWN_SERVER_ERROR, error_message=f"{type(exc).__name__}: {exc}", group_id=gid)
        self._commit(records)
        return resp

    def _begin(self, now_ms: int) -> ConsumerOutcome:
        self._token += 1
        out = ConsumerOutcome(request_id=self._token)
        self._out = out
        heap = self._timers._heap  # noqa: SLF001 - fast path: nothing can be due
        if heap and heap[0][0] <= now_ms:
            self._fire_due(now_ms)
        if now_ms > self._now:
            self._now = now_ms
        return out

    def _finish(self, out: ConsumerOutcome) -> ConsumerOutcome:
        heap = self._timers._heap  # noqa: SLF001
        if heap and heap[0][0] <= self._now:
            self._fire_due(self._now)
        return out

    def _fire_due(self, now_ms: int) -> None:
        while True:
            item = self._timers.pop_due(now_ms)
            if item is None:
                break
            deadline, key, payload = item
            if deadline > self._now:
                self._now = deadline
            if key[0] == T_SESSION:
                self._on_session_expiry(key[1], key[2])
            elif key[0] == T_REBALANCE:
                self._on_rebalance_expiry(key[1], key[2], payload)
            elif key[0] in (T_JOIN, T_SYNC):
                self._on_classic_timeout(key[0], key[1], key[2])
        if now_ms > self._now:
            self._now = now_ms

    def _commit(self, records: list) -> None:
        """Replay ``records`` onto the state (as Kafka's runtime does after a handler), record
        them and the state transitions they cause."""
        out = self._out
        if records:
            self._steady = {}
        before: dict[str, str | None] = {}
        for r in records:
            gid = r.group_id
            if gid not in before:
                g = self._groups.get(gid)
                before[gid] = g.state if g is not None else None
            replay_record(self._groups, r, self.anomalies)
        out.records.extend(records)
        for gid, old in before.items():
            g = self._groups.get(gid)
            if g is not None and g.state != old:
                out.transitions.append((self._now, gid, old, g.state, g.group_epoch))

    def _log(self, kind: str, group_id: str, **kw) -> None:
        self._out.logs.append(ConsumerLog(kind, self._now, group_id, **kw))
