"""Members leaving: the leave heartbeat (member epoch -1), a static member's temporary leave (-2),
fencing (``consumerGroupFenceMember``: tombstones, the subscription metadata without the member and
a group epoch bump, logged by Kafka only as the leave / fence line), and the per-member session and
rebalance timeouts on :class:`~coordinator_core.timers.TimerHeap`."""

from __future__ import annotations

from coordinator_core.consumer.host import ConsumerCoordinatorHost
from coordinator_core.consumer.migration import downgrade_refusal
from coordinator_core.consumer.model import LEAVE_GROUP_STATIC_MEMBER_EPOCH
from coordinator_core.consumer.protocol import (
    FENCED_INSTANCE_ID,
    UNKNOWN_MEMBER_ID,
    CoordinatorError,
    HeartbeatRequest,
    HeartbeatResponse,
)
from coordinator_core.consumer.records import (
    GroupMetadataRecord,
    PartitionMetadataRecord,
    current_assignment_record,
)
from coordinator_core.consumer.state import ConsumerGroupState, ConsumerMember
from coordinator_core.consumer.target import metadata_hash, subscription_metadata

__all__ = ["MembershipMixin", "T_SESSION", "T_REBALANCE"]

# timer keys: (kind, group_id, member_id); a classic member's join / sync timeouts
T_SESSION, T_REBALANCE, T_JOIN, T_SYNC = "session", "rebalance", "join", "sync"


class MembershipMixin(ConsumerCoordinatorHost):
    """Mixed into :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    # ------------------------------------------------------------------ leave
    def _leave(self, req: HeartbeatRequest) -> tuple[HeartbeatResponse, list]:
        """``consumerGroupLeave``."""
        gid = req.group_id or ""  # not empty: checked by _validate
        mid, iid = req.member_id, req.instance_id
        g = self._consumer_group(gid, False)
        resp = HeartbeatResponse("NONE", mid, req.member_epoch, group_id=gid)
        if iid is None:
            m = g.members.get(mid)
            if m is None:
                raise self._unknown_member(g, mid)
            self._log("left", gid, member_id=mid, assigned=m.assigned_partitions, revoked=m.partitions_pending_revocation)
            return resp, self._fence_records(g, m, "member_leave")
        m = g.members.get(g.static_members.get(iid, ""))
        if m is None:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Instance id {iid} is unknown.")
        if m.member_id != mid:
            self._log("static_fenced", gid, member_id=mid, instance_id=iid, old_member_id=m.member_id)
            raise CoordinatorError(
                FENCED_INSTANCE_ID, f"Static member {mid} with instance id {iid} was fenced by member {m.member_id}."
            )
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            self._log("static_temp_left", gid, member_id=mid, instance_id=iid)
            away = m.copy(member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH, partitions_pending_revocation={})
            resp.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH
            resp.member_id = m.member_id
            return resp, [current_assignment_record(gid, away)]
        self._log("static_left", gid, member_id=mid, instance_id=iid, assigned=m.assigned_partitions,
                  revoked=m.partitions_pending_revocation)  # fmt: skip
        return resp, self._fence_records(g, m, "member_leave")

    def _fence_records(self, g: ConsumerGroupState, m: ConsumerMember, cause: str) -> list:
        """``consumerGroupFenceMember``: remove the member, update the subscription metadata (or
        the metadata hash) without it and bump the group epoch; its timers are cancelled."""
        records: list = []
        if self._fence_downgrade(g, m):
            self._downgrade(g, m.member_id, None, records)
            return records
        self._remove_member_records(g.group_id, m.member_id, records)
        meta = subscription_metadata(g.subscribed_topics(drop=m.member_id), self._topics)
        epoch = self._epoch_bump_records(g, meta, records)
        self._log("bumped", g.group_id, member_id=m.member_id, epoch=epoch, metadata_hash=metadata_hash(meta),
                  cause=cause, level="NONE")  # fmt: skip
        self._cancel_member_timers(g.group_id, m.member_id)
        return records

    def _epoch_bump_records(self, g: ConsumerGroupState, meta: dict, records: list) -> int:
        """The records of a group epoch bump with the subscription metadata ``meta``: 4.1+ the epoch
        record carries its hash (KIP-1101), before a partition-metadata record when it changed; returns
        the new epoch."""
        epoch = g.group_epoch + 1
        if self.rules.metadata_hash_epoch_record:
            records.append(GroupMetadataRecord(g.group_id, epoch, metadata_hash(meta)))
        else:
            if meta != g.subscription_metadata:
                records.append(PartitionMetadataRecord(g.group_id, tuple(meta.items())))
            records.append(GroupMetadataRecord(g.group_id, epoch))
        return epoch

    def _fence_downgrade(self, g: ConsumerGroupState, m: ConsumerMember) -> bool:
        """``validateOnlineDowngradeWithFencedMember``: the last consumer-protocol member leaves a
        group of classic members."""
        if not self._others_all_classic(g, m.member_id):
            return False
        why = downgrade_refusal(
            self.config.migration_policy, g.group_id, True, len(g.members), self.config.classic_max_size
        )
        if why is not None and len(g.members) > 1:
            self._log("downgrade_refused", g.group_id, member_id=m.member_id, detail=why)
        return why is None

    # ------------------------------------------------------------------ timers
    def _schedule_session(self, gid: str, mid: str, timeout_ms: int | None = None) -> None:
        ms = self.config.session_timeout_ms if timeout_ms is None else timeout_ms
        self._timers.schedule((T_SESSION, gid, mid), self._now + ms)

    def _schedule_rebalance(self, gid: str, mid: str, member_epoch: int, timeout_ms: int) -> None:
        self._timers.schedule((T_REBALANCE, gid, mid), self._now + timeout_ms, (member_epoch, timeout_ms))

    def _cancel_rebalance(self, gid: str, mid: str) -> None:
        self._timers.cancel((T_REBALANCE, gid, mid))

    def _cancel_member_timers(self, gid: str, mid: str) -> None:
        """``cancelTimers``: session, rebalance, and a classic member's join and sync timeouts."""
        for kind in (T_SESSION, T_REBALANCE, T_JOIN, T_SYNC):
            self._timers.cancel((kind, gid, mid))

    def _on_session_expiry(self, gid: str, mid: str) -> None:
        """``consumerGroupFenceMemberOperation(..., "the member session expired.")``."""
        g = self._groups.get(gid)
        m = g.members.get(mid) if g is not None else None
        if g is None or m is None:
            return
        self._log("fenced_session", gid, member_id=mid, instance_id=m.instance_id, assigned=m.assigned_partitions,
                  revoked=m.partitions_pending_revocation)  # fmt: skip
        self._commit(self._fence_records(g, m, "session_timeout"))

    def _on_rebalance_expiry(self, gid: str, mid: str, payload: tuple[int, int]) -> None:
        """The rebalance timeout: fence the member if it is still at the epoch it had when the
        timeout was scheduled."""
        member_epoch, timeout_ms = payload
        g = self._groups.get(gid)
        m = g.members.get(mid) if g is not None else None
        if g is None or m is None or m.member_epoch != member_epoch:
            return
        self._log("fenced_rebalance", gid, member_id=mid, instance_id=m.instance_id, epoch=member_epoch,
                  took_ms=timeout_ms, assigned=m.assigned_partitions, revoked=m.partitions_pending_revocation)  # fmt: skip
        self._commit(self._fence_records(g, m, "rebalance_timeout"))
