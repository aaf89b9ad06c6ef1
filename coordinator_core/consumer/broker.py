"""The broker's evidence in a consumer-protocol (KIP-848) replay (:class:`ConsumerBrokerEvidence`):
the group coordinator's member lines (joined, replaced, left, fenced, subscription changed, per-member
assignment state), its group epoch and target assignment lines, load / unload / dead, and the
conversions between the classic and the consumer protocol (``hand_over`` / ``take_over``, see
:mod:`coordinator_core.conversion`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coordinator_core.causes import client_id_of
from coordinator_core.consumer.core import ConsumerReplayCore
from coordinator_core.consumer.kinds import fence_cause
from coordinator_core.consumer.model import (
    C_DEAD,
    C_LOADED,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ConsumerGroupMember,
)
from coordinator_core.consumer.rebalance import ConsumerRebalance
from coordinator_core.conversion import HandedOverMember
from coordinator_core.events.row import (
    GEN,
    GIID,
    KIND,
    MCOUNT,
    MEPOCH,
    MID,
    OLDMID,
    PARTS,
    PROTO,
    PTYPE,
    REASON,
    REVOKED,
    STATE,
    TS,
)
from coordinator_core.replay_base import unique_id
from coordinator_core.rows import partition_strings, to_int

__all__ = ["ConsumerBrokerEvidence"]


class ConsumerBrokerEvidence(ConsumerReplayCore):
    """The ``_on_<fact>`` handlers of the broker's lines (the table is :data:`~coordinator_core.consumer.replay.HANDLERS`), and the protocol conversions."""

    __slots__ = ()

    # ------------------------------------------------------------------ broker evidence
    def _on_member_joined(self, row: tuple) -> None:
        mid = row[MID]
        if not mid:
            return
        before = self._present()
        g = self.model
        m = g.members.get(mid)
        if m is None:
            m = ConsumerGroupMember(
                mid, row[GIID], self._cid_of(mid) or client_id_of(mid, row[GIID]), joined_ts=row[TS],
                coordinator=g.coordinator,
            )  # fmt: skip
            g.members[mid] = m
        m.last_seen_ts = row[TS]
        m.protocol = row[PROTO] or m.protocol
        m.assigned_partitions, m.assignment_known = [], True
        m.member_epoch = 0
        if row[GIID]:
            m.group_instance_id = row[GIID]
        self._signal(row, "new_member", m, None, before)

    def _on_subscription_changed(self, row: tuple) -> None:
        """ "Member m updated its subscribed topics to: [...]." (INFO 3.7-3.9): the member behind the
        metadata bump that follows (cause ``metadata_change``, culprit the member, reason the line)."""
        mid = row[MID]
        m = self.model.members.get(mid) if mid else None
        if m is not None:
            m.last_seen_ts = row[TS]
        self._signal(row, "metadata_change", m, row[REASON], self._present())

    def _on_member_replaced(self, row: tuple) -> None:
        mid, old = row[MID], row[OLDMID]
        if not mid:
            return
        g = self.model
        before = self._present()
        prev = g.members.get(old) if old else None
        if prev is None and row[GIID]:
            prev = g.static_member(row[GIID])
        if prev is None and old and self.known:
            self._anomaly(row, "unknown_member", f"static replacement of member {old} the model does not know")
        m = ConsumerGroupMember(
            mid, row[GIID], self._cid_of(mid), joined_ts=row[TS], coordinator=g.coordinator,
            protocol=row[PROTO],
        )  # fmt: skip
        if prev is not None:
            self._remove(row, prev, "replaced")
            # the new member takes over the instance's assignment with epoch 0 (replaceMember)
            m.assigned_partitions = list(prev.assigned_partitions)
            m.assignment_known = prev.assignment_known
            if not m.client_id:
                m.client_id = prev.client_id
        m.member_epoch = 0
        g.members[mid] = m
        self._signal(row, "static_member", m, None, before)
        self._check_end(row)

    def _on_epoch_bumped(self, row: tuple) -> None:
        n = to_int(row[GEN])
        g = self.model
        ge = g.group_epoch
        if n is None:
            n = ge + 1 if ge is not None else None
        if (ge is None or (n is not None and n >= ge)) and self._adopt_client_start(row, n):
            return  # (a client line may have shown the epoch first)
        if ge is not None and n is not None and n <= ge:
            if n == ge and self.implicit == ge:
                self.implicit = None  # the leave/fence bump, logged after all
                return
            self._anomaly(row, "generation_gap", f"group epoch {n} is not after the model's {ge}; ignored")
            return
        if ge is not None and n is not None and n > ge + 1:
            self._anomaly(row, "generation_gap", f"group epoch bumped to {n}, model at {ge}: bumps missing")
        if n == 1 and ge is None and all(not m.inferred for m in g.members.values()):
            self.known = True  # the group is created in these logs: its membership is complete
        self.implicit = None
        self._bump(row, n, self._find_signal(row))

    def _adopt_client_start(self, row: tuple, n: int | None) -> bool:
        """The first bump of a group whose rebalance a member's client line began just before it
        (``JOINING -> RECONCILING`` logged by a client whose clock runs ahead, within
        ``clock_skew_tolerance_ms``): it is that rebalance, timed and numbered by the broker."""
        r = self.reb
        lr = self.last_reb
        if r is None and lr is not None and lr.inferred and lr.end_ts is not None:
            r = lr  # closed by the client's own STABLE before the broker's line: re-opened here
        if (
            r is None or not r.inferred or r.old_generation is not None or r.join_rounds != 1
            or r.start_ts is None or r.last_bump_ts != r.start_ts or n is None
            or not 0 <= row[TS] - r.start_ts <= self.settings.clock_skew_tolerance_ms
        ):  # fmt: skip
            return False
        g = self.model
        if r is not self.reb:
            r.outcome, r.end_ts, r.members_after = None, None, None
            self.reb = r
        r.old_generation, r.new_generation, r.start_ts, r.last_bump_ts = n - 1, n, row[TS], row[TS]
        r.inferred, r.coordinator_broker = False, g.coordinator
        g.group_epoch = n
        self.bumps += 1
        return True

    def _on_target_assignment(self, row: tuple) -> None:
        n = to_int(row[GEN])
        g = self.model
        if row[PROTO]:
            g.assignor = row[PROTO]
            if self.reb is not None:
                self.reb.protocol = row[PROTO]
        if n is None:
            return
        if g.group_epoch is None:
            g.group_epoch = n
        elif n > g.group_epoch:
            self._anomaly(
                row, "generation_gap", f"target assignment for epoch {n} ahead of group epoch {g.group_epoch}"
            )
            self._bump(row, n, self._find_signal(row))
        if g.target_assignment_epoch is not None and n < g.target_assignment_epoch:
            self._anomaly(
                row, "generation_gap", f"target assignment epoch {n} before {g.target_assignment_epoch}"
            )
            return
        g.target_assignment_epoch = n

    def _departure(
        self, row: tuple, m: ConsumerGroupMember | None, cause: str, end: str, reason: str | None
    ) -> None:
        g = self.model
        before = self._present()
        tps: list[str] = []
        if m is not None:
            tps = list(m.assigned_partitions) + [
                p for p in m.partitions_pending_revocation if p not in m.assigned_partitions
            ]
            self._remove(row, m, end)
        s = self._signal(row, cause, m, reason, before)
        s[8] = True
        # Kafka bumps the group epoch when it removes a member (consumerGroupFenceMember) and logs
        # no "Bumped group epoch" line for it: the bump is implied here
        epoch = g.group_epoch + 1 if g.group_epoch is not None else None
        self.implicit = epoch
        if not g.members:
            g.group_epoch = epoch
            self._close(row, "ended_empty", row[TS])
            return
        self._bump(row, epoch, s)
        if m is not None and m.assignment_known:
            self._revoke(self._in_reb(row[TS]), tps, row[TS])
        self._check_end(row)

    def _on_member_left(self, row: tuple) -> None:
        mid = row[MID]
        g = self.model
        m = g.members.get(mid) if mid else None
        if m is None and row[GIID]:
            m = g.static_member(row[GIID])
        epoch = to_int(row[MEPOCH])
        temporary = (
            epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH or "temporarily" in str(row[REASON] or "").lower()
        )
        if m is None:
            if self.known:
                self._anomaly(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            m = self._member(row, mid, anomaly=False)
        elif row[GIID] and not m.group_instance_id:
            m.group_instance_id = row[GIID]
        if temporary and (m is None or m.group_instance_id or row[GIID]):
            # a static member away for a restart: epoch -2, no bump, the session goes on
            if m is not None:
                m.previous_member_epoch, m.member_epoch = m.member_epoch, LEAVE_GROUP_STATIC_MEMBER_EPOCH
                m.partitions_pending_revocation = []
                if self.reb is not None:
                    self.reb.active.pop(m.member_id, None)
            self._check_end(row)
            return
        self._departure(row, m, "member_leave", "leave", None)

    def _on_member_fenced(self, row: tuple) -> None:
        mid = row[MID]
        m = self.model.members.get(mid) if mid else None
        if m is None:
            if self.known:
                self._anomaly(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            m = self._member(row, mid, anomaly=False)
        reason = (row[REASON] or "").rstrip(". ") or None
        cause, end = fence_cause(reason)
        self._departure(row, m, cause, end, reason)

    def _on_assignment_state(self, row: tuple) -> None:
        mid = row[MID]
        m = self._member(row, mid)
        if m is None:
            return
        self.broker_lines = True
        m.tracked = True
        ts = row[TS]
        g = self.model
        epoch = to_int(row[MEPOCH])
        if epoch is not None and m.member_epoch is not None and 0 <= epoch < m.member_epoch:
            self._anomaly(
                row, "generation_gap", f"member {mid} epoch went back from {m.member_epoch} to {epoch}"
            )
        prev_epoch = to_int(row[GEN])
        self._set_epoch(m, epoch)
        if prev_epoch is not None:
            m.previous_member_epoch = prev_epoch
        if row[STATE]:
            m.state = str(row[STATE]).upper()
        if epoch is not None:
            if g.group_epoch is None or epoch > g.group_epoch:
                if g.group_epoch is not None and self.bumps:  # bumps are logged here: one is missing
                    self._anomaly(
                        row, "generation_gap", f"member epoch {epoch} ahead of group epoch {g.group_epoch}"
                    )
                g.group_epoch = epoch
            if g.target_assignment_epoch is None or epoch > g.target_assignment_epoch:
                g.target_assignment_epoch = epoch
        assigned = partition_strings(row[PARTS])
        revoked = partition_strings(row[REVOKED])
        old = set(m.assigned_partitions) if m.assignment_known else None
        r = self._in_reb(ts)
        if r is None and self.bumps == 0 and self.last_reb is None and m.state != "STABLE":
            # the logs begin while the group reconciles: a rebalance whose start is not in them
            self._anomaly(
                row, "rebalance_without_start", f"member {mid} reconciling ({m.state}) before any bump"
            )
            r = self.reb = ConsumerRebalance(
                unique_id(self.rids, f"{self.group_id}:unknown:None"), None, None, None, cause="unknown",
                protocol_type=g.protocol_type, coordinator_broker=g.coordinator, start_unknown=True,
            )  # fmt: skip
        if r is not None:
            self._touch(r, ts)
            self._revoke(r, revoked, ts)
            # newly assigned: not owned before (when the member's assignment was unknown, only a
            # partition revoked in this rebalance is known to be new to it)
            new = [tp for tp in assigned if tp in r.revoked_at or (old is not None and tp not in old)]
            self._assign(r, new, ts)
        m.assigned_partitions, m.partitions_pending_revocation, m.assignment_known = assigned, revoked, True
        if m.state == "STABLE":
            self._assignment_rows(m, epoch, ts)
        self._check_end(row)

    def _on_converted(self, row: tuple) -> None:
        pt = row[PTYPE]
        if pt:
            self.model.protocol_type = pt

    # ------------------------------------------------------------------ protocol conversion
    def _downgrade_may_follow(self, r: ConsumerRebalance) -> bool:
        """The open rebalance is only the implied bump of the last line, a departure that left
        classic-protocol members alone: Kafka may convert the group to classic at that very time
        instead (:meth:`hand_over` then drops it), so it is reported once a later line shows which."""
        g = self.model
        present = [m for m in g.members.values() if m.present]
        return (
            self.implicit is not None and self.implicit == g.group_epoch and r.join_rounds == 1
            and r.start_ts == self.last_ts and bool(present) and all(m.protocol == "classic" for m in present)
        )  # fmt: skip

    def hand_over(self, row: Any) -> tuple[int | None, list[HandedOverMember]]:
        """The group converts to the classic protocol at ``row`` (:mod:`coordinator_core.conversion`):
        an open rebalance ends there (``inferred``), the group is Dead in this model, and its members
        leave it without a session end, returned for the classic model to continue."""
        row = self._normalise(row)
        g = self.model
        r = self.reb
        if (
            r is not None and self.implicit is not None and self.implicit == g.group_epoch
            and r.start_ts == row[TS] and r.join_rounds == 1
        ):  # fmt: skip
            # the departure that triggers the downgrade bumps nothing: Kafka converts instead (the
            # classic group keeps the epoch as its generation and rebalances classically)
            self.reb, self.implicit = None, None
            g.group_epoch = g.target_assignment_epoch = self.implicit_base(g.group_epoch)
        elif r is not None:
            self._close(row, "completed", row[TS], inferred=True)
        out = [
            HandedOverMember(
                m.member_id, m.group_instance_id, m.client_id, m.joined_ts, m.inferred,
                tuple(m.assigned_partitions) if m.assignment_known else None,
            )
            # a static member away (epoch -2) is still a member: its session goes on too
            for m in g.members.values()
        ]  # fmt: skip
        epoch = g.group_epoch
        g.members = {}
        self._derive(row, C_DEAD)
        return epoch, out

    @staticmethod
    def implicit_base(epoch: int | None) -> int | None:
        """The group epoch before an implied bump."""
        return epoch - 1 if epoch is not None else None

    def take_over(self, row: Any, generation: int | None, members: Iterable[HandedOverMember]) -> None:
        """The group converts to the consumer protocol at ``row``: Kafka's consumer group starts with
        group epoch = target assignment epoch = the classic generation, every member at that epoch
        with its partitions (classic-protocol members until they rejoin with the consumer protocol)."""
        row = self._normalise(row)
        g = self.model
        if generation is not None:
            g.group_epoch = generation if g.group_epoch is None else max(g.group_epoch, generation)
            g.target_assignment_epoch = g.group_epoch
        for h in members:
            m = ConsumerGroupMember(
                h.member_id, h.group_instance_id, h.client_id, member_epoch=g.group_epoch, state="STABLE",
                protocol="classic", joined_ts=h.joined_ts, last_seen_ts=row[TS], inferred=h.inferred,
                coordinator=g.coordinator,
            )  # fmt: skip
            if h.partitions is not None:
                m.assigned_partitions, m.assignment_known = list(h.partitions), True
            g.members[h.member_id] = m
            if h.client_id:
                self.cid_map[h.client_id] = h.member_id
        self.known = self.broker_seen = True
        pt = row[PTYPE]
        g.protocol_type = pt if pt in ("consumer", "share", "streams") else "consumer"
        self._derive(row, C_LOADED)

    # ------------------------------------------------------------------ group load, unload, deletion
    def _on_loaded(self, row: tuple) -> None:
        if to_int(row[MCOUNT]) == 0 and not self.model.members:
            self.known = True
        self._derive(row, C_LOADED)

    def _on_unloaded(self, row: tuple) -> None:
        self._derive(row, C_DEAD)

    def _on_dead(self, row: tuple) -> None:
        for m in list(self.model.members.values()):
            self._remove(row, m, "group_dead")
        self._close(row, "ended_empty", row[TS])
        self._derive(row, C_DEAD)
