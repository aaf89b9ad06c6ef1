"""SyncGroup: the leader's assignment, its propagation to the parked members, pending syncs and
their expiry (``DelayedSync``)."""

from __future__ import annotations

from typing import Any

from coordinator_core import reasons as R
from coordinator_core.coordinator.calls import T_HB, T_SYNC
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COORDINATOR_NOT_AVAILABLE,
    ILLEGAL_GENERATION,
    INCONSISTENT_GROUP_PROTOCOL,
    NONE,
    REBALANCE_IN_PROGRESS,
    SYNC,
    UNKNOWN_MEMBER_ID,
    Outcome,
    Response,
)
from coordinator_core.events import AssignmentReceived, SyncExpired
from coordinator_core.group import ClassicGroup, Member
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE


class SyncMixin(CoordinatorHost):
    """SyncGroup request handling and assignment propagation.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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
        group_instance_id = self._instance_id(group_instance_id)
        err = self._status(group_id, SYNC)
        group = self._groups.get(group_id)
        if err is None:
            err = self._validate_sync(
                group, member_id, generation, group_instance_id, protocol_type, protocol_name
            )
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
                self._apply_leader_assignment(group, member, assignments)
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

    def _validate_sync(
        self,
        group: ClassicGroup | None,
        member_id: str,
        generation: int,
        instance_id: str | None,
        protocol_type: str | None,
        protocol_name: str | None,
    ) -> str | None:
        """SyncGroup's checks after ``validateGroupStatus``: group, member, generation, protocol."""
        f = self.features
        if group is None or (f.java and not group.members and group.state is not DEAD):
            return UNKNOWN_MEMBER_ID
        if group.state is DEAD:
            return COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
        err = self._validate_member(group, member_id, instance_id, "sync-group")
        if err is None and generation != group.generation:
            err = ILLEGAL_GENERATION
        type_bad = protocol_type is not None and protocol_type != group.protocol_type
        name_bad = protocol_name is not None and protocol_name != group.protocol_name
        if err is None and f.sync_protocol_check and (type_bad or name_bad):
            err = INCONSISTENT_GROUP_PROTOCOL
        return err

    def _apply_leader_assignment(
        self, group: ClassicGroup, leader: Member, assignments: dict[str, Any] | None
    ) -> None:
        """The leader's SyncGroup in CompletingRebalance: store the assignment, answer everyone."""
        self._emit(
            AssignmentReceived, group, member_id=leader.member_id, generation=group.generation,
            member_count=group.size, static_count=group.static_count,
            group_instance_id=leader.group_instance_id, client_id=leader.client_id,
        )  # fmt: skip
        given = assignments or {}
        assignment = {mid: given.get(mid, b"") for mid in group.members}
        # persisted (the model's store never fails): set, propagate, -> Stable
        for mid, m in group.members.items():
            m.assignment = assignment[mid]
        self._propagate_assignment(group, NONE)
        self._transition(group, STABLE)
        group.persisted = group.snapshot()

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
            self._timers.cancel((T_SYNC, group.group_id))

    def _remove_sync_expiration(self, group: ClassicGroup) -> None:
        group.pending_sync_members.clear()
        self._timers.cancel((T_SYNC, group.group_id))

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
            self._timers.cancel((T_HB, group_id, mid))
        self._emit(SyncExpired, group, generation=group.generation, members=tuple(ids))
        self._prepare_rebalance(group, R.pending_sync_expiration(self.features, ids))
