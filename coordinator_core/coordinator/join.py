"""JoinGroup: new, pending, current and static members joining (``handleJoinGroup``,
``doNewMemberJoinGroup``, ``doCurrentMemberJoinGroup``, ``updateStaticMemberAndRebalance``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from coordinator_core import reasons as R
from coordinator_core.coordinator.calls import T_HB, T_PENDING
from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COORDINATOR_NOT_AVAILABLE,
    FENCED_INSTANCE_ID,
    GROUP_MAX_SIZE_REACHED,
    INCONSISTENT_GROUP_PROTOCOL,
    INVALID_SESSION_TIMEOUT,
    JOIN,
    MEMBER_ID_REQUIRED,
    NONE,
    SYNC,
    UNKNOWN_MEMBER_ID,
    UNKNOWN_SERVER_ERROR,
    Outcome,
    Response,
    norm_protocols,
)
from coordinator_core.events import (
    MemberAdded,
    MemberIdRequired,
    RejoinUnexpectedState,
    StaticMemberNoRebalance,
    StaticMemberReplaced,
)
from coordinator_core.group import ClassicGroup, Member, Protocols
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE


class JoinMixin(CoordinatorHost):
    """JoinGroup request handling.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

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
        prots = norm_protocols(protocols)
        group_instance_id = self._instance_id(group_instance_id)
        if not f.rebalance_timeout:
            rebalance_timeout_ms = session_timeout_ms
        err = self._status(group_id, JOIN)
        if err is not None:
            self._reply(Response(JOIN, member_id, err, group_id=group_id))
            return self._finish(out)
        cfg = self.config
        max_session_ms = cfg.max_session_timeout_ms
        assert max_session_ms is not None  # resolved by CoordinatorConfig.__post_init__
        if not cfg.min_session_timeout_ms <= session_timeout_ms <= max_session_ms:
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
            self._timers.cancel((T_HB, group.group_id, member_id))

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
            self._timers.schedule((T_PENDING, gid, new_id), self._now + session_timeout_ms)
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
            self._timers.cancel((T_PENDING, gid, member_id))
            self._emit(
                MemberAdded, group, member_id=member_id, client_id=client_id, host=host, static=False,
                state=group.state.value, generation=group.generation,
            )  # fmt: skip
            self._add_member_and_rebalance(
                group, member_id, None, client_id, host, rebalance_timeout_ms, session_timeout_ms,
                protocol_type, protocols, reason,
            )  # fmt: skip
            return
        invalid = self._validate_member(group, member_id, instance_id, "join-group")
        if invalid is not None:
            self._reply(Response(JOIN, member_id, invalid, group_id=gid))
            return
        self._rejoin_current_member(
            group, member_id, protocols, rebalance_timeout_ms, session_timeout_ms, reason
        )

    def _rejoin_current_member(
        self,
        group: ClassicGroup,
        member_id: str,
        protocols: Protocols,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        reason: str | None,
    ) -> None:
        """A validated current member rejoins: answer at once or (re)start a rebalance, by state."""
        f = self.features
        gid = group.group_id
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
        self._timers.schedule((T_HB, group.group_id, member_id), self._now + timeout)
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
        self._timers.cancel((T_HB, gid, old_id))
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
                self._static_member_no_rebalance(group, member, instance_id, current_leader, skip_ok)
            else:
                self._maybe_prepare_rebalance(group, R.static_protocol_change(f, new_id, instance_id, reason))
        elif state is COMPLETING_REBALANCE:
            self._prepare_rebalance(group, R.static_update(f, new_id, instance_id, reason))

    def _static_member_no_rebalance(
        self,
        group: ClassicGroup,
        member: Member,
        instance_id: str,
        current_leader: str | None,
        skip_ok: bool,
    ) -> None:
        """A replaced static member in a Stable group whose protocol still fits: answered at once
        with the current generation (the leader may skip the assignment, KIP-814)."""
        f = self.features
        new_id = member.member_id
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
