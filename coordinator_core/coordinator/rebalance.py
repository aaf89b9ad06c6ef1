"""The join phase of a rebalance: PreparingRebalance, the delayed join and the initial delay
(``InitialDelayedJoin``), completing the join (``onCompleteJoin`` / ``completeClassicGroupJoin``)."""

from __future__ import annotations

from coordinator_core.coordinator.calls import T_HB, T_JOIN, T_SYNC
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import JOIN, NONE, REBALANCE_IN_PROGRESS, Response
from coordinator_core.events import (
    GroupDead,
    GroupEmpty,
    JoinCompleted,
    LeaderReelected,
    MembersRemovedNotJoined,
    NoMemberRejoined,
    RebalancePrepared,
)
from coordinator_core.group import ClassicGroup
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE


class RebalanceMixin(CoordinatorHost):
    """Preparing and completing the join phase.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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
            initial_delay = self.config.initial_rebalance_delay_ms
            assert initial_delay is not None  # resolved by CoordinatorConfig.__post_init__
            delay = initial_delay
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
            self._timers.schedule((T_JOIN, gid), self._now + delay, op)

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
                self._timers.schedule((T_JOIN, group_id), self._now + new_delay, new_op)
                return
        self._complete_join(group)

    def _complete_join(self, group: ClassicGroup) -> None:
        """``onCompleteJoin`` / ``completeClassicGroupJoin``."""
        f = self.features
        gid = group.group_id
        self._timers.cancel((T_JOIN, gid))
        self._join_op.pop(gid, None)
        self._remove_not_joined(group)
        if group.state is DEAD:
            return
        if f.static_membership and self._await_static_leader(group):
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
        self._answer_joined_members(group)

    def _remove_not_joined(self, group: ClassicGroup) -> None:
        """Drop the dynamic members that did not rejoin in time (static ones stay)."""
        f = self.features
        gid = group.group_id
        gone = [
            m
            for m in group.members.values()
            if not m.awaiting_join and not (f.static_membership and m.is_static)
        ]
        if gone:
            for m in gone:
                group.remove(m.member_id)
                self._timers.cancel((T_HB, gid, m.member_id))
            self._emit(
                MembersRemovedNotJoined, group, members=tuple(m.member_id for m in gone),
                generation=group.generation,
            )  # fmt: skip

    def _await_static_leader(self, group: ClassicGroup) -> bool:
        """``maybeElectNewJoinedLeader``; True when no member rejoined to lead and the join phase
        is extended by a rebalance timeout instead of completing."""
        gid = group.group_id
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
            self._timers.schedule((T_JOIN, gid), self._now + group.rebalance_timeout_ms(), op)
            return True
        return False

    def _answer_joined_members(self, group: ClassicGroup) -> None:
        """Answer the parked JoinGroups of the new generation; start the pending-sync timer."""
        f = self.features
        gid = group.group_id
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
            self._timers.schedule((T_SYNC, gid), self._now + group.rebalance_timeout_ms(), group.generation)
