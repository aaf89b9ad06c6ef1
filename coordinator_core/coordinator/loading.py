"""Coordinator migration: loading a group's persisted metadata when this broker becomes its
coordinator, unloading it when the broker resigns."""

from __future__ import annotations

from typing import Any

from coordinator_core import reasons as R
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    JOIN,
    NOT_COORDINATOR,
    SYNC,
    Outcome,
    Response,
    norm_protocols,
)
from coordinator_core.events import GroupLoaded, GroupUnloaded
from coordinator_core.group import ClassicGroup, Member
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE


class LoadingMixin(CoordinatorHost):
    """Group load / unload on coordinator moves.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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
                    norm_protocols(md.get("protocols") or ()), md.get("assignment", b""),
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
