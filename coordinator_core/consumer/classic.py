"""Classic-protocol members inside a consumer group (KIP-848's interoperability): JoinGroup,
SyncGroup, Heartbeat and LeaveGroup against a consumer group, as ``GroupMetadataManager``'s
``classicGroupJoinToConsumerGroup``, ``classicGroupSyncToConsumerGroup``,
``classicGroupHeartbeatToConsumerGroup`` and ``classicGroupLeaveToConsumerGroup`` do them
(Kafka 4.0-4.2), and the online downgrade when a static classic member replaces the last
consumer-protocol member.

A classic member joins with JoinGroup (its subscription and owned partitions come from the
``ConsumerProtocolSubscription`` in its first protocol's metadata), takes one reconciliation step
per JoinGroup, reads its assignment with SyncGroup and is told ``REBALANCE_IN_PROGRESS`` on
Heartbeat when it must rejoin. Its timers: the session timeout is its own ``session_timeout_ms``,
a sync timeout (rebalance timeout) after each JoinGroup, a join timeout (rebalance timeout) when
it is told to rejoin. Requests and responses are the classic coordinator's
(:class:`~coordinator_core.coordinator.protocol.Response`).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coordinator_core.consumer.conversion import classic_group_from, classic_group_record, group_tombstones
from coordinator_core.consumer.host import ConsumerCoordinatorHost
from coordinator_core.consumer.membership import T_JOIN, T_SYNC
from coordinator_core.consumer.migration import downgrade_replacement_refusal
from coordinator_core.consumer.protocol import CoordinatorError, norm_partitions
from coordinator_core.consumer.state import (
    M_UNRELEASED,
    M_UNREVOKED,
    ClassicMemberMetadata,
    ConsumerGroupState,
    ConsumerMember,
)
from coordinator_core.consumer.target import metadata_hash, subscription_metadata
from coordinator_core.coordinator.protocol import (
    FENCED_INSTANCE_ID,
    HEARTBEAT,
    ILLEGAL_GENERATION,
    INCONSISTENT_GROUP_PROTOCOL,
    INVALID_GROUP_ID,
    INVALID_SESSION_TIMEOUT,
    JOIN,
    LEAVE,
    MEMBER_ID_REQUIRED,
    NONE,
    REBALANCE_IN_PROGRESS,
    SYNC,
    UNKNOWN_MEMBER_ID,
    UNKNOWN_SERVER_ERROR,
    Response,
    norm_protocols,
)

__all__ = ["ClassicMixin", "ConsumerProtocolSubscription", "classic_subscription"]
PROTOCOL_TYPE = "consumer"


@dataclass(frozen=True, slots=True)
class ConsumerProtocolSubscription:
    """``ConsumerProtocolSubscription`` (the embedded protocol's metadata of a JoinGroup protocol):
    topics, owned partitions (``{topic: partitions}`` or ``"topic-p"`` strings), rack id."""

    topics: tuple[str, ...]
    owned_partitions: Any = ()
    rack_id: str | None = None


def classic_subscription(protocols: Sequence[tuple[str, Any]]) -> tuple[frozenset[str], dict, str | None]:
    """``deserializeSubscription``: the first protocol's metadata (a
    :class:`ConsumerProtocolSubscription` or a mapping with ``topics`` / ``owned_partitions``)."""
    meta = protocols[0][1] if protocols else None
    try:
        if isinstance(meta, ConsumerProtocolSubscription):
            topics, owned, rack = meta.topics, meta.owned_partitions, meta.rack_id
        elif isinstance(meta, Mapping):
            topics, owned, rack = meta["topics"], meta.get("owned_partitions", ()), meta.get("rack_id")
        else:
            raise TypeError(type(meta).__name__)
        return frozenset(topics), norm_partitions(owned) or {}, rack
    except (KeyError, TypeError, ValueError):
        raise CoordinatorError(
            UNKNOWN_SERVER_ERROR, "Malformed embedded consumer protocol in subscription deserialization."
        ) from None


def classic_metadata(m: ConsumerMember) -> ClassicMemberMetadata:
    """The JoinGroup metadata of a member that uses the classic protocol (every such member has it:
    ``use_classic_protocol`` means it is set)."""
    meta = m.classic_member_metadata
    if meta is None:
        raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Member {m.member_id} does not use the classic protocol.")
    return meta


class ClassicMixin(ConsumerCoordinatorHost):
    """Mixed into :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    # ------------------------------------------------------------------ entry points
    def join_group(
        self, now_ms: int, group_id: str, *, member_id: str = "", group_instance_id: str | None = None,
        client_id: str = "consumer", client_host: str = "/127.0.0.1", session_timeout_ms: int = 45000,
        rebalance_timeout_ms: int = 300000, protocol_type: str = PROTOCOL_TYPE,
        protocols: Iterable[Sequence[Any]] = (), reason: str | None = None, require_known_member_id: bool = True,
    ):  # fmt: skip
        """JoinGroup to a non-empty consumer group (``classicGroupJoinToConsumerGroup``). A group
        that is not a consumer group with members is the classic coordinator's: the reply is None
        and the log says ``to_classic_group`` (an empty consumer group is deleted first)."""
        out = self._begin(now_ms)
        prots = norm_protocols(protocols)
        req = (member_id or "", group_instance_id, client_id, client_host, session_timeout_ms,
               rebalance_timeout_ms, protocol_type, prots, require_known_member_id)  # fmt: skip
        out.reply = self._classic_call(JOIN, group_id, member_id or "", lambda: self._classic_join(group_id, req))
        return self._finish(out)

    def sync_group(
        self, now_ms: int, group_id: str, *, member_id: str, generation: int, group_instance_id: str | None = None,
        protocol_type: str | None = None, protocol_name: str | None = None, assignments: Any = None,
    ):  # fmt: skip
        """SyncGroup of a classic member (``classicGroupSyncToConsumerGroup``): its assignment."""
        out = self._begin(now_ms)
        out.reply = self._classic_call(SYNC, group_id, member_id, lambda: self._classic_sync(
            group_id, member_id, generation, group_instance_id, protocol_type, protocol_name))  # fmt: skip
        return self._finish(out)

    def classic_heartbeat(
        self, now_ms: int, group_id: str, *, member_id: str, generation: int, group_instance_id: str | None = None
    ):
        """Heartbeat of a classic member (``classicGroupHeartbeatToConsumerGroup``)."""
        out = self._begin(now_ms)
        out.reply = self._classic_call(HEARTBEAT, group_id, member_id, lambda: self._classic_hb(
            group_id, member_id, generation, group_instance_id))  # fmt: skip
        return self._finish(out)

    def leave_group(self, now_ms: int, group_id: str, members: Iterable[tuple[str, str | None, str | None] | str]):
        """LeaveGroup (``classicGroupLeaveToConsumerGroup``) for ``(member_id, group_instance_id,
        reason)``; the reply's ``members`` holds ``(member_id, group_instance_id, error)``."""
        out = self._begin(now_ms)
        idents = [(x, None, None) if isinstance(x, str) else (tuple(x) + (None, None))[:3] for x in members]
        out.reply = self._classic_call(LEAVE, group_id, "", lambda: self._classic_leave(group_id, idents))
        return self._finish(out)

    # ------------------------------------------------------------------ plumbing
    def _classic_call(self, api: str, gid: str, mid: str, handler) -> Response | None:
        try:
            result = handler()
        except CoordinatorError as e:
            self._log("classic_error", gid or "", member_id=mid, detail=e.message, cause=e.error, level="DEBUG")
            return Response(api, mid, e.error, group_id=gid or "")
        except Exception as exc:  # a defect of the model: answer, change nothing
            self._log("classic_error", gid or "", member_id=mid, detail=f"{type(exc).__name__}: {exc}", level="ERROR")
            return Response(api, mid, UNKNOWN_SERVER_ERROR, group_id=gid or "")
        if result is None:
            return None
        resp, records = result
        if records:
            self._commit(records)
        return resp

    def _classic_member(
        self, g: ConsumerGroupState, mid: str, iid: str | None, unknown_static: str | None = None, leave: bool = False
    ) -> ConsumerMember:
        """``validateConsumerGroupMember`` and ``throwIfMemberDoesNotUseClassicProtocol``; ``unknown_static``
        is the message for an unknown instance id, ``leave``: a LeaveGroup, where an administrative removal
        by instance id sends no member id (then no fencing check)."""
        if iid is None:
            m = g.members.get(mid)
            if m is None:
                raise self._unknown_member(g, mid)
        else:
            m = g.members.get(g.static_members.get(iid, ""))
            if m is None:
                raise CoordinatorError(
                    UNKNOWN_MEMBER_ID, unknown_static or f"Member with instance id {iid} is not a member of group {g.group_id}."
                )
            if mid or not leave:
                self._throw_if_fenced(g, m, mid, iid)
        if not m.use_classic_protocol:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Member {m.member_id} does not use the classic protocol.")
        return m

    def _throw_if_fenced(self, g: ConsumerGroupState, m: ConsumerMember, mid: str, iid: str) -> None:
        if m.member_id != mid:
            self._log("static_fenced", g.group_id, member_id=mid, instance_id=iid, old_member_id=m.member_id)
            raise CoordinatorError(
                FENCED_INSTANCE_ID, f"Static member {mid} with instance id {iid} was fenced by member {m.member_id}."
            )

    @staticmethod
    def _throw_if_generation_unmatched(m: ConsumerMember, generation: int) -> None:
        if m.member_epoch != generation:
            raise CoordinatorError(
                ILLEGAL_GENERATION,
                f"The request generation id {generation} is not equal to the member epoch {m.member_epoch} of "
                f"member {m.member_id}.",
            )

    def _schedule_join_if_absent(self, gid: str, m: ConsumerMember) -> None:
        """``scheduleConsumerGroupJoinTimeoutIfAbsent``."""
        key = (T_JOIN, gid, m.member_id)
        if self._timers.deadline(key) is None:
            self._timers.schedule(key, self._now + m.rebalance_timeout_ms)

    def _on_classic_timeout(self, kind: str, gid: str, mid: str) -> None:
        """The join or sync timeout fences the member (``consumerGroupFenceMemberOperation``)."""
        g = self._groups.get(gid)
        m = g.members.get(mid) if g is not None else None
        if g is None or m is None:
            return
        log = "fenced_classic_join" if kind == T_JOIN else "fenced_classic_sync"
        self._log(log, gid, member_id=mid, instance_id=m.instance_id, took_ms=m.rebalance_timeout_ms,
                  assigned=m.assigned_partitions, revoked=m.partitions_pending_revocation)  # fmt: skip
        self._commit(self._fence_records(g, m, "rebalance_timeout"))

    # ------------------------------------------------------------------ JoinGroup
    def _classic_join(self, gid: str, req: tuple) -> tuple[Response, list] | None:
        mid, iid, cid, chost, session_ms, rebalance_ms, ptype, prots, require_known = req
        if not gid:  # GroupCoordinatorService.isGroupIdNotEmpty
            raise CoordinatorError(INVALID_GROUP_ID, f"Group id {gid!r} is invalid.")
        cfg = self.config
        if not cfg.classic_min_session_timeout_ms <= session_ms <= cfg.classic_max_session_timeout_ms:
            raise CoordinatorError(INVALID_SESSION_TIMEOUT, f"Session timeout {session_ms} is out of range.")
        g = self._groups.get(gid)
        if g is None or not g.members:
            if g is not None:  # maybeDeleteEmptyConsumerGroup
                self._commit(group_tombstones(g))
                self._refresh_epochs.pop(gid, None)
            self._log("to_classic_group", gid, member_id=mid or None, protocol="classic")
            return None
        unknown = not mid
        if unknown:
            mid = str(uuid.UUID(int=self._rng.getrandbits(128), version=4))
        self._throw_if_full(g, mid)
        if not self._supports_classic(g, ptype, [p[0] for p in prots]):
            raise CoordinatorError(INCONSISTENT_GROUP_PROTOCOL, f"Member {mid}'s protocols are not supported.")
        if require_known and unknown and iid is None:
            self._log("member_id_required", gid, member_id=mid, protocol="classic")
            return Response(JOIN, mid, MEMBER_ID_REQUIRED, group_id=gid), []
        records: list = []
        replaced = None
        if iid is None:
            member = self._dynamic_member(g, mid, -1, None, True, classic=True)
        else:
            member, replaced = self._static_member(g, mid, -1, iid, None, unknown, records, classic=True)
        topics, owned, rack = classic_subscription(prots)
        updated = member.copy(
            client_id=cid, client_host=chost, subscribed_topic_names=topics,
            classic_member_metadata=ClassicMemberMetadata(session_ms, prots),
        )  # fmt: skip
        if iid is not None:
            updated.instance_id = iid
        if rack is not None:
            updated.rack_id = rack
        if rebalance_ms != -1:
            updated.rebalance_timeout_ms = rebalance_ms
        new = updated.member_id not in g.members and replaced is None
        bump = self._subscription_changed(g, member, updated, records, new)
        updated = self._bump_assign_reconcile(g, member, updated, bump, replaced, owned, records)
        existing = g.static_members.get(iid) if iid is not None else None
        downgrade = existing is not None and self._replacement_downgrade(g, existing)
        if downgrade and existing is not None:
            self._downgrade(g, existing, updated, records)
        resp = Response(
            JOIN, updated.member_id, NONE, generation=updated.member_epoch, protocol_type=PROTOCOL_TYPE,
            protocol_name=prots[0][0], group_id=gid,
        )  # fmt: skip
        self._timers.cancel((T_JOIN, gid, updated.member_id))
        if not downgrade:
            self._schedule_session(gid, updated.member_id, session_ms)
            self._timers.schedule((T_SYNC, gid, updated.member_id), self._now + rebalance_ms)
        return resp, records

    @staticmethod
    def _supports_classic(g: ConsumerGroupState, ptype: str | None, names: list[str]) -> bool:
        """``ConsumerGroup.supportsClassicProtocols``: every classic member supports one of them."""
        if ptype != PROTOCOL_TYPE:
            return False
        classic = [m for m in g.members.values() if m.use_classic_protocol]
        if not g.members:
            return bool(names)
        if not classic:
            return True
        return any(all(any(p == n for p, _ in classic_metadata(m).supported_protocols) for m in classic)
                   for n in names)  # fmt: skip

    def _replacement_downgrade(self, g: ConsumerGroupState, replaced: str) -> bool:
        """``validateOnlineDowngradeWithReplacedMemberId``."""
        others = self._others_all_classic(g, replaced)
        why = downgrade_replacement_refusal(
            self.config.migration_policy, g.group_id, others, len(g.members), self.config.classic_max_size
        )
        if why is not None and others:
            self._log("downgrade_refused", g.group_id, member_id=replaced, detail=why)
        return why is None

    @staticmethod
    def _others_all_classic(g: ConsumerGroupState, member_id: str) -> bool:
        """``allMembersUseClassicProtocolExcept``."""
        m = g.members.get(member_id)
        if m is None or m.use_classic_protocol:
            return False
        return all(x.use_classic_protocol for mid, x in g.members.items() if mid != member_id)

    def _downgrade(self, g: ConsumerGroupState, leaving: str, joining: ConsumerMember | None, records: list) -> None:
        """``convertToClassicGroup``: tombstones, the classic group record, the group handed over."""
        records.extend(group_tombstones(g, leaving, joining.member_id if joining is not None else None))
        cg = classic_group_from(g, leaving, joining, self._now)
        records.append(classic_group_record(cg))
        self._out.downgraded = cg
        for mid in list(g.members) + ([joining.member_id] if joining is not None else []):
            self._cancel_member_timers(g.group_id, mid)
        self._refresh_epochs.pop(g.group_id, None)
        self._log("downgraded", g.group_id, member_id=leaving, epoch=g.group_epoch)

    # ------------------------------------------------------------------ SyncGroup, Heartbeat
    def _classic_sync(
        self, gid: str, mid: str, generation: int, iid: str | None, ptype: str | None, pname: str | None
    ) -> tuple[Response, list]:
        g = self._groups.get(gid)
        if g is None or not g.members:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Group {gid} not found.")
        m = self._classic_member(g, mid, iid)
        self._throw_if_generation_unmatched(m, generation)
        name = classic_metadata(m).supported_protocols[0][0]
        if ptype is not None and ptype != PROTOCOL_TYPE:
            raise CoordinatorError(
                INCONSISTENT_GROUP_PROTOCOL,
                f"The protocol type {ptype} from member {m.member_id} request is not equal to the group protocol "
                f"type {PROTOCOL_TYPE}.",
            )
        if pname is not None and pname != name:
            raise CoordinatorError(
                INCONSISTENT_GROUP_PROTOCOL,
                f"The protocol name {pname} from member {m.member_id} request is not equal to the protocol name "
                f"{name} returned in the join response.",
            )
        if g.group_epoch > m.member_epoch and m.state != M_UNREVOKED:  # throwIfRebalanceInProgress
            self._schedule_join_if_absent(gid, m)
            raise CoordinatorError(
                REBALANCE_IN_PROGRESS,
                f"A new rebalance is triggered in group {gid} and member {m.member_id} should rejoin to catch up.",
            )
        self._timers.cancel((T_SYNC, gid, m.member_id))
        self._schedule_session(gid, m.member_id, classic_metadata(m).session_timeout_ms)
        resp = Response(SYNC, m.member_id, NONE, protocol_type=ptype, protocol_name=pname, group_id=gid,
                        assignment=dict(m.assigned_partitions))  # fmt: skip
        return resp, []

    def _classic_hb(self, gid: str, mid: str, generation: int, iid: str | None) -> tuple[Response, list]:
        g = self._groups.get(gid)
        if g is None:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Group {gid} not found.")
        m = self._classic_member(g, mid, iid)
        self._throw_if_generation_unmatched(m, generation)
        self._schedule_session(gid, m.member_id, classic_metadata(m).session_timeout_ms)
        error = NONE
        if (
            m.member_epoch < g.group_epoch
            or m.state == M_UNREVOKED
            or (m.state == M_UNRELEASED and not self._waiting_on_unreleased(g, m))
        ):
            error = REBALANCE_IN_PROGRESS
            self._schedule_join_if_absent(gid, m)
        return Response(HEARTBEAT, mid, error, group_id=gid), []

    @staticmethod
    def _waiting_on_unreleased(g: ConsumerGroupState, m: ConsumerMember) -> bool:
        """``ConsumerGroup.waitingOnUnreleasedPartition``."""
        if m.state != M_UNRELEASED:
            return False
        for t, ps in g.target_assignment.get(m.member_id, {}).items():
            mine = m.assigned_partitions.get(t, frozenset())
            if any(p not in mine and g.current_partition_epoch(t, p) != -1 for p in ps):
                return True
        return False

    # ------------------------------------------------------------------ LeaveGroup
    def _classic_leave(self, gid: str, idents: list) -> tuple[Response, list]:
        g = self._groups.get(gid)
        if g is None:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Group {gid} not found.")
        results: list = []
        records: list = []
        leaving: set[str] = set()
        for mid, iid, reason in idents:
            mid = mid or ""
            try:
                m = self._leaving_member(g, mid, iid)
            except CoordinatorError as e:
                results.append((mid, iid, e.error))
                continue
            self._log("classic_left", gid, member_id=m.member_id, instance_id=iid, detail=reason or "not provided",
                      assigned=m.assigned_partitions, revoked=m.partitions_pending_revocation, protocol="classic")  # fmt: skip
            self._remove_member_records(gid, m.member_id, records)
            self._cancel_member_timers(gid, m.member_id)
            leaving.add(m.member_id)
            results.append((m.member_id, iid, NONE))
        if records:
            self._leave_bump(g, leaving, records)
        return Response(LEAVE, "", NONE, members=results, group_id=gid), records

    def _leaving_member(self, g: ConsumerGroupState, mid: str, iid: str | None) -> ConsumerMember:
        """One member of a LeaveGroup: known, not fenced, using the classic protocol."""
        return self._classic_member(g, mid, iid, f"Instance id {iid} is unknown.", leave=True)

    def _leave_bump(self, g: ConsumerGroupState, leaving: set[str], records: list) -> None:
        """The subscription metadata (4.1+: the hash) without the leaving members and the epoch bump."""
        subs: dict[str, int] = {}
        for mid, m in g.members.items():
            if mid not in leaving:
                g._count(m, subs)  # noqa: SLF001 - the group's own counting rule
        meta = subscription_metadata(subs, self._topics)
        epoch = self._epoch_bump_records(g, meta, records)
        self._log("bumped", g.group_id, epoch=epoch, metadata_hash=metadata_hash(meta), cause="member_leave",
                  level="NONE")  # fmt: skip
