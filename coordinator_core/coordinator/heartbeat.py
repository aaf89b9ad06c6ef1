"""Heartbeat and member liveness: session deadlines, session expiry (``DelayedHeartbeat``), pending
member expiry, removing an expired member."""

from __future__ import annotations

from coordinator_core import reasons as R
from coordinator_core.coordinator.calls import T_HB
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COORDINATOR_NOT_AVAILABLE,
    HEARTBEAT,
    ILLEGAL_GENERATION,
    JOIN,
    NONE,
    REBALANCE_IN_PROGRESS,
    UNKNOWN_MEMBER_ID,
    Outcome,
    Response,
)
from coordinator_core.events import MemberSessionExpired, PendingMemberExpired
from coordinator_core.group import ClassicGroup, Member
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE


class HeartbeatMixin(CoordinatorHost):
    """Heartbeat request handling and session / pending-member expiry.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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
        group_instance_id = self._instance_id(group_instance_id)
        err = self._status(group_id, HEARTBEAT)
        if err is None:
            err = self._heartbeat(self._groups.get(group_id), member_id, generation, group_instance_id)
        self._reply(Response(HEARTBEAT, member_id, err, group_id=group_id))
        return self._finish(out)

    def _reset_heartbeat(self, group: ClassicGroup, member: Member) -> None:
        """``completeAndScheduleNextHeartbeatExpiration``: deadline = now + session timeout."""
        self._timers.schedule((T_HB, group.group_id, member.member_id), self._now + member.session_timeout_ms)

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
        self._timers.cancel((T_HB, gid, member.member_id))
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
