"""LeaveGroup: batch leaves (KIP-345), current, static and pending members leaving."""

from __future__ import annotations

from collections.abc import Iterable

from coordinator_core import reasons as R
from coordinator_core.coordinator.calls import T_HB, T_PENDING
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COORDINATOR_NOT_AVAILABLE,
    JOIN,
    LEAVE,
    NONE,
    UNKNOWN_MEMBER_ID,
    Outcome,
    Response,
)
from coordinator_core.events import MemberLeft
from coordinator_core.group import ClassicGroup
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, PREPARING_REBALANCE, STABLE


class LeaveMixin(CoordinatorHost):
    """LeaveGroup request handling.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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

    def _leave_current_member(self, group: ClassicGroup, member_id: str, why: str | None) -> None:
        f = self.features
        member = group.members[member_id]
        left = dict(
            member_id=member_id, group_instance_id=member.group_instance_id, client_id=member.client_id,
            host=member.client_host, reason=R.client_reason(why) if f.client_reasons else None,
            generation=group.generation,
        )  # fmt: skip
        if f.java:
            self._timers.cancel((T_HB, group.group_id, member_id))
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
            self._timers.cancel((T_PENDING, group.group_id, member_id))
            self._emit(MemberLeft, group, **ev)
        else:
            # Scala keeps the pending DelayedHeartbeat: it later logs the pending expiry anyway
            self._after_removal_in_pr(group)
            self._emit(MemberLeft, group, **ev)
