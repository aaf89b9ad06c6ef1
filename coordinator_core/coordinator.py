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
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coordinator_core import reasons as R
from coordinator_core.config import CoordinatorConfig
from coordinator_core.events import (
    AssignmentReceived,
    Event,
    GroupDead,
    GroupEmpty,
    GroupLoaded,
    GroupUnloaded,
    JoinCompleted,
    LeaderReelected,
    MemberAdded,
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
)
from coordinator_core.group import ClassicGroup, Member, Protocols
from coordinator_core.placement import partition_for
from coordinator_core.states import (
    COMPLETING_REBALANCE,
    DEAD,
    EMPTY,
    PREPARING_REBALANCE,
    STABLE,
    GroupState,
)
from coordinator_core.timers import TimerHeap

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

# timer key kinds
_T_JOIN, _T_SYNC, _T_HB, _T_PENDING = "join", "sync", "hb", "pending"


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


def _norm_protocols(protocols: Iterable[Sequence[Any]]) -> Protocols:
    return tuple((str(p[0]), p[1] if len(p) > 1 else b"") for p in protocols)


class GroupCoordinator:
    """One broker's classic-group coordinator for many groups; pure and event-time driven."""

    def __init__(
        self,
        config: CoordinatorConfig | None = None,
        broker_id: int = 0,
        *,
        seed: int = 0,
        member_id_factory: Callable[[str], str] | None = None,
        strict_timers: bool = False,
    ) -> None:
        """``strict_timers``: a timer fires only once time is strictly past its deadline, like
        Kafka's ``MockTimer`` in the unit tests; the default fires at ``now >= deadline`` like the
        broker's ``SystemTimer``."""
        self.config = config if config is not None else CoordinatorConfig()
        self.features = self.config.features
        self.broker_id = broker_id
        self._groups: dict[str, ClassicGroup] = {}
        self._timers = TimerHeap()
        #: group id -> payload of its join operation: ("initial", delay, remaining) or ("join",)
        self._join_op: dict[str, tuple] = {}
        self._now = -(2**62)
        self._out = Outcome()
        self._token = 0
        self._rng = random.Random(seed)
        self._id_factory = member_id_factory
        self._lag = 1 if strict_timers else 0

    # ------------------------------------------------------------------------------------------
    # public API
    # ------------------------------------------------------------------------------------------

    def group(self, group_id: str) -> ClassicGroup | None:
        return self._groups.get(group_id)

    @property
    def groups(self) -> dict[str, ClassicGroup]:
        return self._groups

    def add_group(self, group: ClassicGroup) -> None:
        """Install a group object as-is (tests, replay bootstrapping); it is owned by this broker."""
        group.owned = True
        self._groups[group.group_id] = group

    def next_deadline(self) -> int | None:
        """Earliest ``now_ms`` at which ``advance_to`` fires a timer (for discrete-event drivers)."""
        d = self._timers.next_deadline()
        return None if d is None else d + self._lag

    def timer_deadline(self, kind: str, group_id: str, member_id: str | None = None) -> int | None:
        """Deadline of one timer: kind ``join``, ``sync``, ``hb`` (member heartbeat) or ``pending``."""
        key = (kind, group_id) if member_id is None else (kind, group_id, member_id)
        return self._timers.deadline(key)

    def advance_to(self, now_ms: int) -> Outcome:
        """Fire every timer due at ``now_ms``."""
        return self._finish(self._begin(now_ms))

    def join_group(
        self,
        now_ms: int,
        group_id: str,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        client_id: str = "consumer",
        client_host: str = "/127.0.0.1",
        session_timeout_ms: int = 45000,
        rebalance_timeout_ms: int = 300000,
        protocol_type: str = "consumer",
        protocols: Iterable[Sequence[Any]] = (("range", b""),),
        reason: str | None = None,
        require_known_member_id: bool = True,
        support_skip_assignment: bool = True,
    ) -> Outcome:
        """JoinGroup. ``require_known_member_id`` is JoinGroup v4+ (MEMBER_ID_REQUIRED step for
        dynamic members, broker 2.2+); ``support_skip_assignment`` is JoinGroup v9+ (KIP-814)."""
        out = self._begin(now_ms)
        f = self.features
        prots = _norm_protocols(protocols)
        if not f.static_membership:
            group_instance_id = None
        if not f.rebalance_timeout:
            rebalance_timeout_ms = session_timeout_ms
        err = self._status(group_id, JOIN)
        if err is not None:
            self._reply(Response(JOIN, member_id, err, group_id=group_id))
            return self._finish(out)
        cfg = self.config
        if not cfg.min_session_timeout_ms <= session_timeout_ms <= cfg.max_session_timeout_ms:
            self._reply(Response(JOIN, member_id, INVALID_SESSION_TIMEOUT, group_id=group_id))
            return self._finish(out)
        unknown = member_id == ""
        group = self._groups.get(group_id)
        if group is None:
            if not unknown:
                self._reply(Response(JOIN, member_id, UNKNOWN_MEMBER_ID, group_id=group_id))
                return self._finish(out)
            group = self._create_group(group_id)
        if f.member_id_required and not self._accept_joining_member(group, member_id):
            self._drop_member(group, member_id)
            self._reply(Response(JOIN, "", GROUP_MAX_SIZE_REACHED, group_id=group_id))
        elif unknown:
            self._join_new_member(
                group, group_instance_id, require_known_member_id, support_skip_assignment, client_id,
                client_host, rebalance_timeout_ms, session_timeout_ms, protocol_type, prots, reason,
            )  # fmt: skip
        else:
            self._join_current_member(
                group, member_id, group_instance_id, client_id, client_host, rebalance_timeout_ms,
                session_timeout_ms, protocol_type, prots, reason,
            )  # fmt: skip
        if group.state is PREPARING_REBALANCE:
            self._check_join(group)
        return self._finish(out)

    def sync_group(
        self,
        now_ms: int,
        group_id: str,
        *,
        member_id: str,
        generation: int,
        group_instance_id: str | None = None,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignments: dict[str, Any] | None = None,
    ) -> Outcome:
        """SyncGroup; ``assignments`` (member id -> payload) is read from the leader only."""
        out = self._begin(now_ms)
        f = self.features
        if not f.static_membership:
            group_instance_id = None
        err = self._status(group_id, SYNC)
        group = self._groups.get(group_id)
        if err is None:
            if group is None or (f.java and not group.members and group.state is not DEAD):
                err = UNKNOWN_MEMBER_ID
            elif group.state is DEAD:
                err = COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
            else:
                err = self._validate_member(group, member_id, group_instance_id, "sync-group")
                if err is None and generation != group.generation:
                    err = ILLEGAL_GENERATION
                type_bad = protocol_type is not None and protocol_type != group.protocol_type
                name_bad = protocol_name is not None and protocol_name != group.protocol_name
                if err is None and f.sync_protocol_check and (type_bad or name_bad):
                    err = INCONSISTENT_GROUP_PROTOCOL
        if err is not None:
            self._reply(Response(SYNC, member_id, err, group_id=group_id))
            return self._finish(out)
        assert group is not None
        state = group.state
        if state is EMPTY:
            self._reply(Response(SYNC, member_id, UNKNOWN_MEMBER_ID, group_id=group_id))
        elif state is PREPARING_REBALANCE:
            self._reply(Response(SYNC, member_id, REBALANCE_IN_PROGRESS, group_id=group_id))
        elif state is COMPLETING_REBALANCE:
            member = group.members[member_id]
            member.awaiting_sync = True
            member.sync_token = self._token
            self._remove_pending_sync(group, member_id)
            if group.is_leader(member_id):
                self._emit(
                    AssignmentReceived, group, member_id=member_id, generation=group.generation,
                    member_count=group.size, static_count=group.static_count,
                    group_instance_id=member.group_instance_id, client_id=member.client_id,
                )  # fmt: skip
                given = assignments or {}
                assignment = {mid: given.get(mid, b"") for mid in group.members}
                # persisted (the model's store never fails): set, propagate, -> Stable
                for mid, m in group.members.items():
                    m.assignment = assignment[mid]
                self._propagate_assignment(group, NONE)
                self._transition(group, STABLE)
                group.persisted = group.snapshot()
        else:  # STABLE
            member = group.members[member_id]
            self._remove_pending_sync(group, member_id)
            self._reply(
                Response(
                    SYNC,
                    member_id,
                    NONE,
                    generation=group.generation,
                    protocol_type=group.protocol_type,
                    protocol_name=group.protocol_name,
                    assignment=member.assignment,
                    group_id=group_id,
                )  # fmt: skip
            )
            self._reset_heartbeat(group, member)
        return self._finish(out)

    def heartbeat(
        self,
        now_ms: int,
        group_id: str,
        *,
        member_id: str,
        generation: int,
        group_instance_id: str | None = None,
    ) -> Outcome:
        out = self._begin(now_ms)
        f = self.features
        if not f.static_membership:
            group_instance_id = None
        err = self._status(group_id, HEARTBEAT)
        if err is None:
            err = self._heartbeat(self._groups.get(group_id), member_id, generation, group_instance_id)
        self._reply(Response(HEARTBEAT, member_id, err, group_id=group_id))
        return self._finish(out)

    def leave_group(
        self, now_ms: int, group_id: str, members: Iterable[tuple[str, str | None, str | None] | str]
    ) -> Outcome:
        """LeaveGroup for a batch of ``(member_id, group_instance_id, reason)`` (a bare member id is
        accepted too). The reply's ``members`` holds ``(member_id, group_instance_id, error)``."""
        out = self._begin(now_ms)
        f = self.features
        idents: list[tuple[str, str | None, str | None]] = []
        for item in members:
            if isinstance(item, str):
                idents.append((item, None, None))
            else:
                t = tuple(item) + (None, None)
                idents.append((t[0] or "", t[1] if f.static_membership else None, t[2]))
        err = self._status(group_id, LEAVE)
        group = self._groups.get(group_id)
        if err is not None:
            self._reply(Response(LEAVE, "", err, group_id=group_id))
            return self._finish(out)
        if group is None:
            results = [(mid, iid, UNKNOWN_MEMBER_ID) for mid, iid, _ in idents]
            # before 2.4 (LeaveGroup v0-v2) the single member's error is the top-level error
            top = NONE if f.batch_leave else UNKNOWN_MEMBER_ID
            self._reply(Response(LEAVE, "", top, members=results, group_id=group_id))
            return self._finish(out)
        if group.state is DEAD:
            top = COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
            self._reply(Response(LEAVE, "", top, group_id=group_id))
            return self._finish(out)
        reply = Response(LEAVE, "", NONE, group_id=group_id, request_id=self._token)
        out.reply = reply
        out.responses.insert(0, reply)
        results = reply.members
        left: list[str] = []
        for mid, iid, why in idents:
            if mid == "":
                cur = group.static_members.get(iid) if (iid is not None and f.batch_leave) else None
                if cur is None:
                    results.append((mid, iid, UNKNOWN_MEMBER_ID))
                    continue
                self._leave_current_member(group, cur, why)
            elif mid in group.pending_members:
                self._leave_pending_member(group, mid, why)
            else:
                e = self._validate_member(group, mid, iid, "leave-group")
                if e is not None:
                    results.append((mid, iid, e))
                    continue
                self._leave_current_member(group, mid, why)
            results.append((mid, iid, NONE))
            left.append(mid)
        if f.java and left:
            if group.state in (STABLE, COMPLETING_REBALANCE):
                self._maybe_prepare_rebalance(group, R.leave_group_batch(left))
            elif group.state is PREPARING_REBALANCE:
                self._check_join(group)
        if not f.batch_leave and results:
            reply.error = results[0][2]
        return self._finish(out)

    def commit_offsets(
        self,
        now_ms: int,
        group_id: str,
        *,
        member_id: str = "",
        generation: int = -1,
        group_instance_id: str | None = None,
    ) -> Outcome:
        """OffsetCommit (non-transactional); offsets are not stored, only validated."""
        out = self._begin(now_ms)
        f = self.features
        if not f.static_membership:
            group_instance_id = None
        err = self._status(group_id, COMMIT)
        if err is None:
            group = self._groups.get(group_id)
            if group is None:
                if generation < 0:
                    if f.empty_state:  # 0.10.0 stored the offsets without creating a group
                        self._create_group(group_id, EMPTY)
                    err = NONE
                else:
                    err = ILLEGAL_GENERATION
            else:
                err = self._commit(group, member_id, generation, group_instance_id)
        self._reply(Response(COMMIT, member_id, err, generation=generation, group_id=group_id))
        return self._finish(out)

    def load_group(
        self, now_ms: int, group_id: str, snapshot: dict[str, Any] | ClassicGroup | None = None
    ) -> Outcome:
        """This broker became the group's coordinator and loaded its metadata. ``snapshot`` is a
        :meth:`ClassicGroup.snapshot` dict or a group (its last *persisted* metadata is used, as a
        new coordinator reads it from ``__consumer_offsets``); None = this broker's own last
        persisted record of the group. A group that was never persisted has no record: nothing is
        loaded (no event) and the id is unknown here until a member creates it again."""
        out = self._begin(now_ms)
        f = self.features
        old = self._groups.get(group_id)
        snap: dict[str, Any] | None
        if isinstance(snapshot, ClassicGroup):
            snap = snapshot.persisted
        elif snapshot is not None:
            snap = snapshot
        else:
            snap = old.persisted if old is not None else None
        if old is not None:
            self._cancel_group_timers(group_id)
            self._join_op.pop(group_id, None)
        if snap is None:
            self._groups.pop(group_id, None)
            return self._finish(out)
        members = list((snap or {}).get("members") or ())
        state = STABLE if members or not f.empty_state else EMPTY
        group = ClassicGroup(group_id, state, now_ms)
        if snap:
            group.generation = int(snap.get("generation") or 0)
            group.protocol_type = snap.get("protocol_type")
            group.protocol_name = snap.get("protocol_name")
            for md in members:
                m = Member(
                    md["member_id"], md.get("group_instance_id"), md.get("client_id", ""),
                    md.get("client_host", ""), int(md.get("rebalance_timeout_ms", 0)),
                    int(md.get("session_timeout_ms", 0)), md.get("protocol_type") or group.protocol_type or "",
                    _norm_protocols(md.get("protocols") or ()), md.get("assignment", b""),
                )  # fmt: skip
                group.add(m)
            group.protocol_type = snap.get("protocol_type") or group.protocol_type
            group.leader_id = (
                snap.get("leader_id") if snap.get("leader_id") in group.members else group.leader_id
            )
            group.persisted = snap
        self._groups[group_id] = group
        self._join_op.pop(group_id, None)
        out.transitions.append((self._now, group_id, None, group.state.value, group.generation))
        self._emit(
            GroupLoaded, group, generation=group.generation, member_count=group.size,
            offsets_partition=self._partition(group_id),
        )  # fmt: skip
        if group.size > self.config.group_max_size and f.member_id_required:
            self._prepare_rebalance(
                group, R.over_capacity(f, group_id, group.size, self.config.group_max_size)
            )
        for m in group.members.values():
            self._reset_heartbeat(group, m)
        return self._finish(out)

    def unload_group(self, now_ms: int, group_id: str) -> Outcome:
        """This broker resigned as the group's coordinator: the group goes Dead here, parked
        JoinGroup (PreparingRebalance) or SyncGroup (Stable/CompletingRebalance) responses are
        answered NOT_COORDINATOR, its timers stop, and later requests get NOT_COORDINATOR."""
        out = self._begin(now_ms)
        group = self._groups.get(group_id)
        if group is None or not group.owned:
            return self._finish(out)
        self._emit(
            GroupUnloaded, group, generation=group.generation, offsets_partition=self._partition(group_id)
        )
        previous = group.state
        self._transition(group, DEAD)
        if previous is PREPARING_REBALANCE:
            for m in group.members.values():
                if group.clear_awaiting_join(m):
                    self._respond(
                        Response(JOIN, m.member_id, NOT_COORDINATOR, group_id=group_id), m.join_token
                    )
        elif previous in (STABLE, COMPLETING_REBALANCE):
            for m in group.members.values():
                if m.awaiting_sync:
                    m.awaiting_sync = False
                    self._respond(
                        Response(SYNC, m.member_id, NOT_COORDINATOR, group_id=group_id), m.sync_token
                    )
        group.pending_sync_members.clear()
        self._cancel_group_timers(group_id)
        self._join_op.pop(group_id, None)
        group.owned = False
        return self._finish(out)

    # ------------------------------------------------------------------------------------------
    # call plumbing
    # ------------------------------------------------------------------------------------------

    def _begin(self, now_ms: int) -> Outcome:
        self._token += 1
        out = Outcome(request_id=self._token)
        self._out = out
        heap = self._timers._heap  # noqa: SLF001 - fast path: nothing can be due
        if heap and heap[0][0] <= now_ms - self._lag:
            self._fire_due(now_ms)
        elif now_ms > self._now:
            self._now = now_ms
        return out

    def _finish(self, out: Outcome) -> Outcome:
        heap = self._timers._heap  # noqa: SLF001
        if heap and heap[0][0] <= self._now - self._lag:
            self._fire_due(self._now)
        return out

    def _fire_due(self, now_ms: int) -> None:
        timers = self._timers
        due = now_ms - self._lag
        if self._lag and now_ms > self._now:
            # MockTimer semantics: the clock moves first, expired tasks then run at the new time
            self._now = now_ms
        while True:
            item = timers.pop_due(due)
            if item is None:
                break
            deadline, key, payload = item
            if deadline > self._now:
                self._now = deadline
            kind = key[0]
            if kind == _T_HB:
                self._on_heartbeat_expiry(key[1], key[2])
            elif kind == _T_JOIN:
                self._on_join_timer(key[1], payload)
            elif kind == _T_SYNC:
                self._on_sync_expiry(key[1], payload)
            elif kind == _T_PENDING:
                self._on_pending_expiry(key[1], key[2])
        if now_ms > self._now:
            self._now = now_ms

    def _reply(self, resp: Response) -> None:
        resp.request_id = self._token
        out = self._out
        out.reply = resp
        out.responses.insert(0, resp)

    def _respond(self, resp: Response, token: int) -> None:
        """Answer a parked request; when it was parked by the current call it is the reply."""
        resp.request_id = token
        out = self._out
        if token == self._token and out.reply is None:
            out.reply = resp
            out.responses.insert(0, resp)
        else:
            out.responses.append(resp)

    def _emit(self, cls: type[Event], group: ClassicGroup, **kw: Any) -> None:
        self._out.events.append(cls(ts=self._now, group_id=group.group_id, coordinator=self.broker_id, **kw))

    def _transition(self, group: ClassicGroup, target: GroupState) -> None:
        old = group.state
        group.transition_to(target, self._now)
        self._out.transitions.append((self._now, group.group_id, old.value, target.value, group.generation))

    def _partition(self, group_id: str) -> int:
        return partition_for(group_id, self.config.offsets_topic_partitions)

    def _status(self, group_id: str, api: str) -> str | None:
        """``validateGroupStatus``: invalid id, then NOT_COORDINATOR for groups unloaded here."""
        if group_id is None or (group_id == "" and api != COMMIT):
            return INVALID_GROUP_ID
        group = self._groups.get(group_id)
        if group is not None and not group.owned:
            return NOT_COORDINATOR
        return None

    def _create_group(self, group_id: str, state: GroupState | None = None) -> ClassicGroup:
        if state is None:
            state = EMPTY if self.features.empty_state else STABLE
        group = ClassicGroup(group_id, state, self._now)
        self._groups[group_id] = group
        self._out.transitions.append((self._now, group_id, None, state.value, 0))
        return group

    def _new_member_id(self, prefix: str) -> str:
        if self._id_factory is not None:
            return self._id_factory(prefix)
        return f"{prefix}-{uuid.UUID(int=self._rng.getrandbits(128), version=4)}"

    # ------------------------------------------------------------------------------------------
    # JoinGroup
    # ------------------------------------------------------------------------------------------

    def _accept_joining_member(self, group: ClassicGroup, member_id: str) -> bool:
        max_size = self.config.group_max_size
        member = group.members.get(member_id)
        if self.features.accept_joining_member:
            state = group.state
            if state is EMPTY or state is DEAD:
                return True
            if state is PREPARING_REBALANCE:
                return (member is not None and member.awaiting_join) or group.num_awaiting_join < max_size
            return member is not None or group.size < max_size
        # 2.2.0-2.5.x
        if member is None:
            return member_id != "" or group.size < max_size
        return not (group.size > max_size and not member.awaiting_join)

    def _drop_member(self, group: ClassicGroup, member_id: str) -> None:
        """``group.remove(memberId)`` of a rejected joiner (no parked response to answer)."""
        if member_id in group.members or member_id in group.pending_members:
            group.remove(member_id)
            self._timers.cancel((_T_HB, group.group_id, member_id))

    def _join_new_member(
        self,
        group: ClassicGroup,
        instance_id: str | None,
        require_known: bool,
        skip_ok: bool,
        client_id: str,
        host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: Protocols,
        reason: str | None,
    ) -> None:
        f = self.features
        gid = group.group_id
        if group.state is DEAD:
            err = COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
            self._reply(Response(JOIN, "", err, group_id=gid))
            return
        if not group.supports_protocols(protocol_type, [p[0] for p in protocols]):
            self._reply(Response(JOIN, "", INCONSISTENT_GROUP_PROTOCOL, group_id=gid))
            return
        new_id = self._new_member_id(instance_id if instance_id is not None else client_id)
        state = group.state.value
        if instance_id is not None:
            old_id = group.static_members.get(instance_id)
            if old_id is not None:
                self._update_static_member(
                    group, instance_id, old_id, new_id, protocols, rebalance_timeout_ms, session_timeout_ms,
                    reason, skip_ok,
                )  # fmt: skip
                return
            self._emit(
                MemberAdded, group, member_id=new_id, group_instance_id=instance_id, client_id=client_id,
                host=host, static=True, state=state, generation=group.generation,
            )  # fmt: skip
        elif require_known and f.member_id_required:
            group.pending_members[new_id] = None
            self._timers.schedule((_T_PENDING, gid, new_id), self._now + session_timeout_ms)
            self._emit(MemberIdRequired, group, member_id=new_id, client_id=client_id, state=state)
            self._reply(Response(JOIN, new_id, MEMBER_ID_REQUIRED, group_id=gid))
            return
        else:
            self._emit(
                MemberAdded, group, member_id=new_id, client_id=client_id, host=host, static=False,
                state=state, generation=group.generation,
            )  # fmt: skip
        self._add_member_and_rebalance(
            group, new_id, instance_id, client_id, host, rebalance_timeout_ms, session_timeout_ms,
            protocol_type, protocols, reason,
        )  # fmt: skip

    def _join_current_member(
        self,
        group: ClassicGroup,
        member_id: str,
        instance_id: str | None,
        client_id: str,
        host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: Protocols,
        reason: str | None,
    ) -> None:
        f = self.features
        gid = group.group_id
        if group.state is DEAD:
            err = COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
            self._reply(Response(JOIN, member_id, err, group_id=gid))
            return
        if not group.supports_protocols(protocol_type, [p[0] for p in protocols]):
            self._reply(Response(JOIN, member_id, INCONSISTENT_GROUP_PROTOCOL, group_id=gid))
            return
        if member_id in group.pending_members:
            if instance_id is not None:
                # Kafka: IllegalStateException("Received unexpected JoinGroup with groupInstanceId ...")
                self._reply(Response(JOIN, member_id, UNKNOWN_SERVER_ERROR, group_id=gid))
                return
            self._timers.cancel((_T_PENDING, gid, member_id))
            self._emit(
                MemberAdded, group, member_id=member_id, client_id=client_id, host=host, static=False,
                state=group.state.value, generation=group.generation,
            )  # fmt: skip
            self._add_member_and_rebalance(
                group, member_id, None, client_id, host, rebalance_timeout_ms, session_timeout_ms,
                protocol_type, protocols, reason,
            )  # fmt: skip
            return
        err = self._validate_member(group, member_id, instance_id, "join-group")
        if err is not None:
            self._reply(Response(JOIN, member_id, err, group_id=gid))
            return
        member = group.members[member_id]
        state = group.state
        st = state.value
        if state is PREPARING_REBALANCE:
            self._update_member_and_rebalance(
                group, member, protocols, rebalance_timeout_ms, session_timeout_ms,
                R.member_joining(f, member_id, st, reason),
            )  # fmt: skip
        elif state is COMPLETING_REBALANCE:
            if member.matches(protocols):
                self._reply(self._join_response(group, member, with_members=group.is_leader(member_id)))
            else:
                self._update_member_and_rebalance(
                    group, member, protocols, rebalance_timeout_ms, session_timeout_ms,
                    R.updating_metadata(f, member_id, st, reason),
                )  # fmt: skip
        elif state is STABLE:
            if group.is_leader(member_id):
                text = R.leader_rejoin(f, member_id, st, reason)
            elif not member.matches(protocols):
                text = R.updating_metadata(f, member_id, st, reason)
            else:
                self._reply(self._join_response(group, member, with_members=False))
                return
            self._update_member_and_rebalance(
                group, member, protocols, rebalance_timeout_ms, session_timeout_ms, text
            )
        else:  # Empty (Dead handled above)
            self._emit(RejoinUnexpectedState, group, member_id=member_id, state=st)
            self._reply(Response(JOIN, member_id, UNKNOWN_MEMBER_ID, group_id=gid))

    def _join_response(self, group: ClassicGroup, member: Member, *, with_members: bool) -> Response:
        return Response(
            JOIN, member.member_id, NONE, generation=group.generation, protocol_type=group.protocol_type,
            protocol_name=group.protocol_name, leader_id=group.leader_id,
            members=group.member_list() if with_members else [], group_id=group.group_id,
        )  # fmt: skip

    def _validate_member(
        self, group: ClassicGroup, member_id: str, instance_id: str | None, operation: str
    ) -> str | None:
        """``validateCurrentMember``: fenced static instance, unknown instance, unknown member."""
        if instance_id is not None:
            current = group.static_members.get(instance_id)
            if current is None:
                return UNKNOWN_MEMBER_ID
            if current != member_id:
                m = group.members.get(current)
                self._emit(
                    StaticMemberFenced, group, member_id=member_id, group_instance_id=instance_id,
                    old_member_id=current, operation=operation,
                    client_id=m.client_id if m is not None else None,
                )  # fmt: skip
                return FENCED_INSTANCE_ID
            return None
        if member_id not in group.members:
            return UNKNOWN_MEMBER_ID
        return None

    def _add_member_and_rebalance(
        self,
        group: ClassicGroup,
        member_id: str,
        instance_id: str | None,
        client_id: str,
        host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: Protocols,
        reason: str | None,
    ) -> None:
        f = self.features
        member = Member(
            member_id, instance_id, client_id, host, rebalance_timeout_ms, session_timeout_ms,
            protocol_type, protocols,
        )  # fmt: skip
        member.is_new = f.member_id_required
        if group.state is PREPARING_REBALANCE and (
            group.previous_state is EMPTY if f.java else group.generation == 0
        ):
            group.new_member_added = True
        group.add(member, awaiting_join=True)
        member.join_token = self._token
        timeout = self.config.new_member_join_timeout_ms if f.member_id_required else session_timeout_ms
        self._timers.schedule((_T_HB, group.group_id, member_id), self._now + timeout)
        self._maybe_prepare_rebalance(group, R.add_member(f, member_id, instance_id, reason))

    def _update_member_and_rebalance(
        self,
        group: ClassicGroup,
        member: Member,
        protocols: Protocols,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        reason_text: str,
    ) -> None:
        upd = self.features.update_timeouts_on_rejoin
        group.update_member(
            member,
            protocols,
            rebalance_timeout_ms if upd else None,
            session_timeout_ms if upd else None,
            True,
        )
        member.join_token = self._token
        self._maybe_prepare_rebalance(group, reason_text)

    def _update_static_member(
        self,
        group: ClassicGroup,
        instance_id: str,
        old_id: str,
        new_id: str,
        protocols: Protocols,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        reason: str | None,
        skip_ok: bool,
    ) -> None:
        """``updateStaticMemberAndRebalance``: a known group.instance.id joined with no member id."""
        f = self.features
        gid = group.group_id
        state = group.state
        if state is EMPTY or state is DEAD:
            # Kafka: IllegalStateException (a mapped instance id in an empty/dead group)
            self._reply(Response(JOIN, "", UNKNOWN_SERVER_ERROR, group_id=gid))
            return
        old = group.members[old_id]
        self._emit(
            StaticMemberReplaced, group, member_id=new_id, old_member_id=old_id,
            group_instance_id=instance_id, client_id=old.client_id, state=state.value,
            generation=group.generation,
        )  # fmt: skip
        current_leader = group.leader_id
        if group.clear_awaiting_join(old):
            self._respond(Response(JOIN, old_id, FENCED_INSTANCE_ID, group_id=gid), old.join_token)
        if old.awaiting_sync:
            old.awaiting_sync = False
            self._respond(Response(SYNC, old_id, FENCED_INSTANCE_ID, group_id=gid), old.sync_token)
        member = group.replace_static_member(instance_id, old_id, new_id)
        self._timers.cancel((_T_HB, gid, old_id))
        self._reset_heartbeat(group, member)
        upd = f.update_timeouts_on_rejoin
        group.update_member(
            member,
            protocols,
            rebalance_timeout_ms if upd else None,
            session_timeout_ms if upd else None,
            True,
        )
        member.join_token = self._token
        if state is STABLE:
            if group.protocol_name == group.select_protocol():
                self._emit(
                    StaticMemberNoRebalance, group, member_id=new_id, group_instance_id=instance_id,
                    client_id=member.client_id, generation=group.generation,
                )  # fmt: skip
                group.persisted = group.snapshot()
                group.clear_awaiting_join(member)
                if f.skip_assignment and skip_ok:
                    is_leader = group.is_leader(new_id)
                    resp = self._join_response(group, member, with_members=is_leader)
                    resp.skip_assignment = is_leader
                else:
                    resp = self._join_response(group, member, with_members=False)
                    resp.leader_id = current_leader
                self._respond(resp, member.join_token)
            else:
                self._maybe_prepare_rebalance(group, R.static_protocol_change(f, new_id, instance_id, reason))
        elif state is COMPLETING_REBALANCE:
            self._prepare_rebalance(group, R.static_update(f, new_id, instance_id, reason))
        # PreparingRebalance: stays parked until the join phase completes

    # ------------------------------------------------------------------------------------------
    # rebalance phases
    # ------------------------------------------------------------------------------------------

    def _maybe_prepare_rebalance(self, group: ClassicGroup, reason: str) -> None:
        if group.can_rebalance():
            self._prepare_rebalance(group, reason)
        elif self.features.java:
            self._check_join(group)

    def _prepare_rebalance(self, group: ClassicGroup, reason: str) -> None:
        f = self.features
        gid = group.group_id
        if group.state is COMPLETING_REBALANCE:
            self._reset_and_propagate_error(group, REBALANCE_IN_PROGRESS)
        self._remove_sync_expiration(group)
        initial = group.state is EMPTY and f.version >= (0, 11, 0)
        if initial:
            delay = self.config.initial_rebalance_delay_ms
            op: tuple = ("initial", delay, max(group.rebalance_timeout_ms() - delay, 0))
        else:
            delay = group.rebalance_timeout_ms()
            op = ("join",)
        self._transition(group, PREPARING_REBALANCE)
        self._emit(
            RebalancePrepared, group, generation=group.generation, state=PREPARING_REBALANCE.value,
            reason=reason if f.rebalance_reason else None,
        )  # fmt: skip
        self._join_op[gid] = op
        if not initial and group.has_all_members_joined():
            self._complete_join(group)
        else:
            self._timers.schedule((_T_JOIN, gid), self._now + delay, op)

    def _join_is_initial(self, group: ClassicGroup) -> bool:
        if self.features.java:
            return group.previous_state is EMPTY
        op = self._join_op.get(group.group_id)
        return op is not None and op[0] == "initial"

    def _check_join(self, group: ClassicGroup) -> None:
        """``checkAndComplete(GroupJoinKey)`` / ``maybeCompleteJoinPhase``: complete the join phase
        when everyone rejoined, except during the initial (delayed) rebalance."""
        if (
            group.state is PREPARING_REBALANCE
            and not self._join_is_initial(group)
            and group.has_all_members_joined()
        ):
            self._complete_join(group)

    def _after_removal_in_pr(self, group: ClassicGroup) -> None:
        """A member or pending id was removed during PreparingRebalance. Java completes the join
        phase directly (even during the initial delay); Scala only completes non-initial joins."""
        if group.state is not PREPARING_REBALANCE:
            return
        if self.features.java:
            if group.has_all_members_joined():
                self._complete_join(group)
        else:
            self._check_join(group)

    def _on_join_timer(self, group_id: str, op: tuple) -> None:
        group = self._groups.get(group_id)
        if group is None or group.state is not PREPARING_REBALANCE:
            return
        if op[0] == "initial":
            _, delay, remaining = op
            if group.new_member_added and remaining != 0:
                group.new_member_added = False
                new_delay = min(self.config.initial_rebalance_delay_ms, remaining)
                new_op = ("initial", new_delay, max(remaining - delay, 0))
                self._join_op[group_id] = new_op
                self._timers.schedule((_T_JOIN, group_id), self._now + new_delay, new_op)
                return
        self._complete_join(group)

    def _complete_join(self, group: ClassicGroup) -> None:
        """``onCompleteJoin`` / ``completeClassicGroupJoin``."""
        f = self.features
        gid = group.group_id
        self._timers.cancel((_T_JOIN, gid))
        self._join_op.pop(gid, None)
        gone = [
            m
            for m in group.members.values()
            if not m.awaiting_join and not (f.static_membership and m.is_static)
        ]
        if gone:
            for m in gone:
                group.remove(m.member_id)
                self._timers.cancel((_T_HB, gid, m.member_id))
            self._emit(
                MembersRemovedNotJoined, group, members=tuple(m.member_id for m in gone),
                generation=group.generation,
            )  # fmt: skip
        if group.state is DEAD:
            return
        if f.static_membership:
            ok, old_leader = group.maybe_elect_new_joined_leader()
            if old_leader is not None:
                old_iid = next((i for i, mid in group.static_members.items() if mid == old_leader), None)
                if ok:
                    self._emit(
                        LeaderReelected, group, member_id=group.leader_id, old_member_id=old_leader,
                        group_instance_id=old_iid, generation=group.generation,
                    )  # fmt: skip
                else:
                    self._emit(
                        NoMemberRejoined, group, member_id=old_leader, group_instance_id=old_iid,
                        generation=group.generation,
                    )  # fmt: skip
            if not ok and group.members:
                op = ("join",)
                self._join_op[gid] = op
                self._timers.schedule((_T_JOIN, gid), self._now + group.rebalance_timeout_ms(), op)
                return
        if not group.members and not f.empty_state:
            # 0.10.0: "Group g generation N is dead and removed"
            self._transition(group, DEAD)
            self._emit(GroupDead, group, generation=group.generation)
            self._cancel_group_timers(gid)
            del self._groups[gid]
            return
        old = group.state
        group.init_next_generation(self._now, f.empty_state)
        self._out.transitions.append((self._now, gid, old.value, group.state.value, group.generation))
        if group.state is EMPTY:
            self._emit(GroupEmpty, group, generation=group.generation)
            group.persisted = group.snapshot()
            return
        self._emit(
            JoinCompleted, group, generation=group.generation, member_count=group.size,
            member_id=group.leader_id,
        )  # fmt: skip
        leader_members = group.member_list()
        for m in group.members.values():
            if group.clear_awaiting_join(m):
                resp = Response(
                    JOIN, m.member_id, NONE, generation=group.generation, protocol_type=group.protocol_type,
                    protocol_name=group.protocol_name, leader_id=group.leader_id,
                    members=leader_members if group.is_leader(m.member_id) else [], group_id=gid,
                )  # fmt: skip
                self._respond(resp, m.join_token)
            self._reset_heartbeat(group, m)
            m.is_new = False
            if f.delayed_sync:
                group.pending_sync_members[m.member_id] = None
        if f.delayed_sync:
            self._timers.schedule((_T_SYNC, gid), self._now + group.rebalance_timeout_ms(), group.generation)

    # ------------------------------------------------------------------------------------------
    # SyncGroup helpers, sync expiry
    # ------------------------------------------------------------------------------------------

    def _propagate_assignment(self, group: ClassicGroup, error: str) -> None:
        ok = error == NONE
        for m in group.members.values():
            if m.awaiting_sync:
                m.awaiting_sync = False
                resp = Response(
                    SYNC, m.member_id, error, generation=group.generation if ok else -1,
                    protocol_type=group.protocol_type if ok else None,
                    protocol_name=group.protocol_name if ok else None,
                    assignment=m.assignment if ok else None, group_id=group.group_id,
                )  # fmt: skip
                self._respond(resp, m.sync_token)
                self._reset_heartbeat(group, m)

    def _reset_and_propagate_error(self, group: ClassicGroup, error: str) -> None:
        for m in group.members.values():
            m.assignment = b""
        self._propagate_assignment(group, error)

    def _remove_pending_sync(self, group: ClassicGroup, member_id: str) -> None:
        if not self.features.delayed_sync:
            return
        group.pending_sync_members.pop(member_id, None)
        if not group.pending_sync_members:
            self._timers.cancel((_T_SYNC, group.group_id))

    def _remove_sync_expiration(self, group: ClassicGroup) -> None:
        group.pending_sync_members.clear()
        self._timers.cancel((_T_SYNC, group.group_id))

    def _on_sync_expiry(self, group_id: str, generation: int) -> None:
        group = self._groups.get(group_id)
        if group is None:
            return
        if generation != group.generation or group.state not in (COMPLETING_REBALANCE, STABLE):
            self._emit(SyncExpired, group, generation=generation, unexpected=True)
            return
        if not group.pending_sync_members:
            return
        ids = list(group.pending_sync_members)
        for mid in ids:
            group.remove(mid)
            self._timers.cancel((_T_HB, group_id, mid))
        self._emit(SyncExpired, group, generation=group.generation, members=tuple(ids))
        self._prepare_rebalance(group, R.pending_sync_expiration(self.features, ids))

    # ------------------------------------------------------------------------------------------
    # Heartbeat, session expiry, pending expiry
    # ------------------------------------------------------------------------------------------

    def _reset_heartbeat(self, group: ClassicGroup, member: Member) -> None:
        """``completeAndScheduleNextHeartbeatExpiration``: deadline = now + session timeout."""
        self._timers.schedule(
            (_T_HB, group.group_id, member.member_id), self._now + member.session_timeout_ms
        )

    def _heartbeat(
        self, group: ClassicGroup | None, member_id: str, generation: int, instance_id: str | None
    ) -> str:
        f = self.features
        if group is None:
            return UNKNOWN_MEMBER_ID
        state = group.state
        if not f.heartbeat_validate_first:
            # 2.0-2.2: state first, generation checked only in PreparingRebalance/Stable
            if state is DEAD or state is EMPTY or member_id not in group.members:
                return UNKNOWN_MEMBER_ID
            if state is COMPLETING_REBALANCE:
                return REBALANCE_IN_PROGRESS
            if generation != group.generation:
                return ILLEGAL_GENERATION
            self._reset_heartbeat(group, group.members[member_id])
            return REBALANCE_IN_PROGRESS if state is PREPARING_REBALANCE else NONE
        if state is DEAD:
            return COORDINATOR_NOT_AVAILABLE
        err = self._validate_member(group, member_id, instance_id, "heartbeat")
        if err is not None:
            return err
        if generation != group.generation:
            return ILLEGAL_GENERATION
        if state is EMPTY:
            return UNKNOWN_MEMBER_ID
        member = group.members[member_id]
        if state is COMPLETING_REBALANCE:
            if not f.heartbeat_none_in_completing:
                return REBALANCE_IN_PROGRESS
            self._reset_heartbeat(group, member)
            return NONE
        self._reset_heartbeat(group, member)
        return REBALANCE_IN_PROGRESS if state is PREPARING_REBALANCE else NONE

    def _on_heartbeat_expiry(self, group_id: str, member_id: str) -> None:
        group = self._groups.get(group_id)
        if group is None or group.state is DEAD:
            return
        member = group.members.get(member_id)
        if member is None:
            return
        if not member.is_new and (member.awaiting_join or member.awaiting_sync):
            return  # awaiting a rebalance: satisfied, no new deadline (rebalance/sync timeouts rule)
        self._emit(
            MemberSessionExpired, group, member_id=member_id, group_instance_id=member.group_instance_id,
            client_id=member.client_id, generation=group.generation,
        )  # fmt: skip
        self._remove_member_and_update_group(group, member, R.heartbeat_expiration(self.features, member_id))

    def _remove_member_and_update_group(self, group: ClassicGroup, member: Member, reason: str) -> None:
        gid = group.group_id
        if group.clear_awaiting_join(member):
            self._respond(Response(JOIN, "", UNKNOWN_MEMBER_ID, group_id=gid), member.join_token)
        group.remove(member.member_id)
        self._timers.cancel((_T_HB, gid, member.member_id))
        state = group.state
        if state is STABLE or state is COMPLETING_REBALANCE:
            self._maybe_prepare_rebalance(group, reason)
        elif state is PREPARING_REBALANCE:
            self._after_removal_in_pr(group)

    def _on_pending_expiry(self, group_id: str, member_id: str) -> None:
        group = self._groups.get(group_id)
        if group is None or group.state is DEAD:
            return
        if member_id in group.members:
            return
        if self.features.java and member_id not in group.pending_members:
            return
        self._emit(PendingMemberExpired, group, member_id=member_id, generation=group.generation)
        group.remove(member_id)
        self._after_removal_in_pr(group)

    # ------------------------------------------------------------------------------------------
    # LeaveGroup, OffsetCommit
    # ------------------------------------------------------------------------------------------

    def _leave_current_member(self, group: ClassicGroup, member_id: str, why: str | None) -> None:
        f = self.features
        member = group.members[member_id]
        left = dict(
            member_id=member_id, group_instance_id=member.group_instance_id, client_id=member.client_id,
            host=member.client_host, reason=R.client_reason(why) if f.client_reasons else None,
            generation=group.generation,
        )  # fmt: skip
        if f.java:
            self._timers.cancel((_T_HB, group.group_id, member_id))
            self._emit(MemberLeft, group, **left)
            if group.clear_awaiting_join(member):
                self._respond(
                    Response(JOIN, "", UNKNOWN_MEMBER_ID, group_id=group.group_id), member.join_token
                )
            group.remove(member_id)
            return
        if f.version < (3, 0, 0):
            self._emit(MemberLeft, group, **left)
            self._remove_member_and_update_group(group, member, R.leave_group(f, member_id, why))
        else:
            self._remove_member_and_update_group(group, member, R.leave_group(f, member_id, why))
            self._emit(MemberLeft, group, **left)

    def _leave_pending_member(self, group: ClassicGroup, member_id: str, why: str | None) -> None:
        f = self.features
        group.remove(member_id)
        ev = dict(
            member_id=member_id, pending=True, generation=group.generation,
            reason=R.client_reason(why) if f.java else None,
        )  # fmt: skip
        if f.java:
            self._timers.cancel((_T_PENDING, group.group_id, member_id))
            self._emit(MemberLeft, group, **ev)
        else:
            # Scala keeps the pending DelayedHeartbeat: it later logs the pending expiry anyway
            self._after_removal_in_pr(group)
            self._emit(MemberLeft, group, **ev)

    def _commit(self, group: ClassicGroup, member_id: str, generation: int, instance_id: str | None) -> str:
        f = self.features
        state = group.state
        if state is DEAD:
            return COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
        if generation < 0 and state is EMPTY:
            return NONE
        if generation >= 0 or member_id or instance_id is not None:
            err = self._validate_member(group, member_id, instance_id, "offset-commit")
            if err is not None:
                return err
            if generation != group.generation:
                return ILLEGAL_GENERATION
        elif state is not EMPTY:
            return UNKNOWN_MEMBER_ID
        if state is EMPTY:
            return NONE
        if state is COMPLETING_REBALANCE:
            return REBALANCE_IN_PROGRESS
        self._reset_heartbeat(group, group.members[member_id])
        return NONE

    def _cancel_group_timers(self, group_id: str) -> None:
        self._timers.cancel_where(lambda k: k[1] == group_id)
