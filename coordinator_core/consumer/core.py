"""The state of a consumer-protocol (KIP-848) replay and what both sides' evidence does to it
(:class:`ConsumerReplayCore`): the output buffers and anomalies, the group state derived from the
epochs, members and their sessions, the member facts (signals) that explain a bump, and the
rebalance lifecycle (a bump opens or extends one, members reaching the epoch close it, revoked and
assigned partitions are counted while it is open). The evidence handlers are the broker's
(:mod:`coordinator_core.consumer.broker`) and the client's (:mod:`coordinator_core.consumer.client`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coordinator_core.causes import client_id_of
from coordinator_core.consumer.kinds import SIGNALS_MAX, STALE_MS
from coordinator_core.consumer.model import ConsumerGroupMember, ConsumerGroupModel, condition, next_state
from coordinator_core.consumer.rebalance import ConsumerRebalance, rebalance_record
from coordinator_core.events.row import CID, COORD, GIID, KIND, LN, MID, REASON, SF, SIDE, TS
from coordinator_core.partition_groups import by_topic
from coordinator_core.records import AssignmentRow, MemberSession, Rebalance, Transition
from coordinator_core.replay import ReplaySettings
from coordinator_core.replay_base import EvidenceReplay, unique_id
from coordinator_core.rows import to_int

__all__ = ["ConsumerReplayCore"]

#: the model's state beyond the group model and the rebalances, kept in snapshots by these names
STATE_ATTRS = (
    "known", "broker_seen", "broker_lines", "implicit", "signals", "cid_map", "files", "last_ts",
    "events", "rids", "bumps",
)  # fmt: skip


class ConsumerReplayCore(EvidenceReplay):
    """The state of one consumer-protocol group's replay and the steps every handler shares; the
    handlers are in the subclasses (:class:`~coordinator_core.consumer.replay.ConsumerGroupReplay`
    combines them)."""

    __slots__ = (
        "group_id",
        "settings",
        "model",
        "reb",
        "last_reb",
        "_tr",
        "_rb",
        "_ss",
        "_as",
        "_an",
        "_sk",
        *STATE_ATTRS,
    )

    def __init__(self, group_id: str, settings: ReplaySettings | None = None) -> None:
        self._init_output(group_id, settings)
        self.model = ConsumerGroupModel(group_id)
        self.reb: ConsumerRebalance | None = None
        self.last_reb: ConsumerRebalance | None = None
        #: the membership is complete (the group was created in these logs, or loaded empty)
        self.known = False
        self.broker_seen = False
        #: broker per-member assignment lines seen (3.8-3.9 INFO, 4.x DEBUG): the end is exact
        self.broker_lines = False
        #: a group epoch implied by a leave/fence line (Kafka bumps without logging it)
        self.implicit: int | None = None
        #: recent member facts that explain a bump: [ts, cause, member, instance, client, coordinator,
        #: reason, members before, used]
        self.signals: list[list[Any]] = []
        self.cid_map: dict[str, str] = {}
        self.files: dict[str, list[Any]] = {}
        self.last_ts: int | None = None
        self.events = 0
        self.rids: list[str] = []
        #: group-epoch bumps seen (logged or implied)
        self.bumps = 0

    # ------------------------------------------------------------------ plumbing
    def _position(self) -> tuple[str | None, int | None]:
        return self.model.state, self.model.group_epoch

    # ------------------------------------------------------------------ state
    def _derive(self, row: tuple, cond: str | None = None) -> None:
        """Apply :func:`~coordinator_core.consumer.model.next_state` to what the epochs say now (or to
        ``cond``): the one place the group state changes."""
        g = self.model
        derived = condition(g)
        if cond is None:
            cond = derived
        to = next_state(g.state, cond, derived)
        if to is None:
            # a live group after Dead without a load line: adopt the evidence
            self._anomaly(row, "impossible_transition", f"{cond} is impossible in state {g.state}; adopted")
            to = next_state(None, cond, derived) or g.state
        if to == g.state or to is None:
            return
        self._tr.append(
            Transition(
                self.group_id, row[TS], g.state, to, g.group_epoch if g.group_epoch is not None else -1,
                row[KIND], row[SIDE] not in (None, "broker"), row[SF], row[LN], g.protocol_type,
            )
        )  # fmt: skip
        g.state = to

    # ------------------------------------------------------------------ members and sessions
    def _member(
        self, row: tuple, mid: str | None, *, create: bool = True, anomaly: bool = True
    ) -> ConsumerGroupMember | None:
        if not mid:
            return None
        m = self.model.members.get(mid)
        if m is None and create:
            if anomaly and self.known:
                self._anomaly(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            giid = row[GIID]
            cid = row[CID] if row[SIDE] == "client" else None
            m = ConsumerGroupMember(
                mid, giid, cid or self._cid_of(mid) or client_id_of(mid, giid), joined_ts=row[TS], inferred=True,
                coordinator=self.model.coordinator,
            )  # fmt: skip
            self.model.members[mid] = m
        if m is not None:
            m.last_seen_ts = row[TS]
            if row[GIID] and not m.group_instance_id:
                m.group_instance_id = row[GIID]
            if row[SIDE] == "client" and row[CID] and not m.client_id:
                m.client_id = row[CID]
        return m

    def _cid_of(self, mid: str) -> str | None:
        for cid, m in self.cid_map.items():
            if m == mid:
                return cid
        return None

    def _session(self, m: ConsumerGroupMember, left_ts: int | None, end: str) -> MemberSession:
        return MemberSession(
            self.group_id, m.member_id, m.group_instance_id, m.client_id, None, m.joined_ts, left_ts,
            m.first_epoch, m.last_epoch, end, m.inferred, self.model.protocol_type,
        )  # fmt: skip

    def _remove(self, row: tuple, m: ConsumerGroupMember, end: str) -> None:
        self.model.members.pop(m.member_id, None)
        self._ss.append(self._session(m, row[TS], end))
        r = self.reb
        if r is not None:
            r.active.pop(m.member_id, None)

    def _set_epoch(self, m: ConsumerGroupMember, epoch: int | None) -> None:
        if epoch is None:
            return
        if m.member_epoch != epoch:
            m.previous_member_epoch = m.member_epoch
        m.member_epoch = epoch
        if epoch > 0:
            if m.first_epoch is None:
                m.first_epoch = epoch
            if m.last_epoch is None or epoch > m.last_epoch:
                m.last_epoch = epoch

    def _present(self) -> int:
        return len(self.model.present_members())

    def _signal(
        self, row: tuple, cause: str, m: ConsumerGroupMember | None, reason: str | None, before: int
    ) -> list[Any]:
        s = [
            row[TS], cause, m.member_id if m else row[MID], m.group_instance_id if m else row[GIID],
            m.client_id if m else None, to_int(row[COORD]), reason, before, False,
        ]  # fmt: skip
        self.signals.append(s)
        if len(self.signals) > SIGNALS_MAX:
            del self.signals[0]
        return s

    # ------------------------------------------------------------------ rebalances
    def _bump(self, row: tuple, epoch: int | None, signal: list[Any] | None) -> None:
        """The group epoch moved to ``epoch`` at this line: start a rebalance, or extend the one in
        progress (one more round)."""
        g = self.model
        ts = row[TS]
        old = g.group_epoch
        if old is None and epoch is not None:
            old = epoch - 1  # every bump is +1
        g.group_epoch = epoch
        self.bumps += 1
        r = self.reb
        if r is not None:
            if self.broker_lines or (
                r.evidence and r.last_activity_ts is not None and ts - r.last_activity_ts <= STALE_MS
            ) or (
                r.last_bump_ts is not None and ts - r.last_bump_ts <= self.settings.signal_window_ms
            ):  # fmt: skip
                r.join_rounds += 1
                r.new_generation = epoch
                r.last_bump_ts = ts
                self._join_epoch(signal, epoch)
                return
            # no member-level evidence can show its end: it ends unseen, before this bump
            self._close(row, "completed", None, inferred=True)
        if not g.members or self._present() == 0:
            return  # the last member left: the group is empty, nothing to reconcile
        r = ConsumerRebalance(
            unique_id(self.rids, f"{self.group_id}:{ts}:{old}"), ts, old, epoch, protocol_type=g.protocol_type,
            coordinator_broker=g.coordinator, last_bump_ts=ts, members_before=self._present(),
        )  # fmt: skip
        if signal is not None:
            signal[8] = True
            r.cause, r.culprit_member_id, r.culprit_group_instance_id = signal[1], signal[2], signal[3]
            r.culprit_client_id, r.reason, r.members_before = signal[4], signal[6], signal[7]
        else:
            r.reason = row[REASON] if row[KIND] == "group_epoch_bumped" else None
        self.reb = r
        self._join_epoch(signal, epoch)
        if (
            signal is not None
            and signal[1] in ("new_member", "static_member")
            and signal[2] in self.model.members
            and signal[2] in self.cid_map.values()
        ):
            r.active[signal[2]] = False  # its client logs are here: it will show its reconciliation

    def _join_epoch(self, signal: list[Any] | None, epoch: int | None) -> None:
        """A member that joined owns nothing to revoke: it gets the new epoch at once."""
        if signal is None or signal[1] not in ("new_member", "static_member"):
            return
        m = self.model.members.get(signal[2])
        if m is not None and (m.member_epoch is None or m.member_epoch <= 0):
            self._set_epoch(m, epoch)

    def _find_signal(self, row: tuple) -> list[Any] | None:
        ts, coord = row[TS], to_int(row[COORD])
        for s in reversed(self.signals):
            if s[8] or s[0] > ts:
                continue
            if ts - s[0] > self.settings.signal_window_ms:
                break
            if coord is not None and s[5] is not None and coord != s[5]:
                continue
            return s
        return None

    def _close(self, row: tuple, outcome: str, end_ts: int | None, *, inferred: bool = False) -> None:
        r = self.reb
        if r is None:
            return
        self.reb = None
        if r.new_generation is None and r.start_unknown:
            r.new_generation = self.model.group_epoch
        r.outcome, r.end_ts, r.members_after = outcome, end_ts, self._present()
        r.inferred = r.inferred or inferred
        if r.protocol is None:
            r.protocol = self.model.assignor
        self._emit(r)
        self.last_reb = r

    def _emit(self, r: ConsumerRebalance) -> None:
        rec = self._record(r, r.outcome or "open", r.end_ts, r.members_after)
        # only this method adds to _rb, so its ids are unique: drop the one earlier report of the
        # rebalance (most often the last one), not a filter of every report (quadratic in a long run)
        rb, rid = self._rb, rec.rebalance_id
        for i in range(len(rb) - 1, -1, -1):
            if rb[i].rebalance_id == rid:
                del rb[i]
                break
        rb.append(rec)

    def _record(self, r: ConsumerRebalance, outcome: str, end_ts: int | None, after: int | None) -> Rebalance:
        cc = r.culprit_client_id
        if r.culprit_member_id and not cc:
            m = self.model.members.get(r.culprit_member_id)
            cc = (m.client_id if m else None) or self._cid_of(r.culprit_member_id)
        return rebalance_record(self.group_id, r, outcome, end_ts, after, cc, self.model.assignor)

    def _check_end(self, row: tuple) -> None:
        """Close the open rebalance when every member has reached its epoch."""
        r = self.reb
        if r is None:
            return
        g = self.model
        if not any(m.present for m in g.members.values()):
            self._close(row, "ended_empty", row[TS])
            return
        if self.broker_lines:
            e = r.new_generation
            if all(
                m.state == "STABLE" and m.member_epoch is not None and (e is None or m.member_epoch >= e)
                for m in g.present_members()
            ):
                if e is not None and (g.target_assignment_epoch is None or g.target_assignment_epoch < e):
                    g.target_assignment_epoch = e
                self._close(row, "completed", row[TS])
            return
        if r.active and all(r.active.values()):
            # client lines only: the members that reconciled are done; the others' epochs moved
            # unseen. Kafka would show them reconciled once they heartbeat: assume it.
            e = r.new_generation
            present = g.present_members()
            untracked = any(not m.tracked for m in present)
            for m in present:
                if e is not None:
                    self._set_epoch(m, e)
                m.state = "STABLE"
            if e is not None and (g.target_assignment_epoch is None or g.target_assignment_epoch < e):
                g.target_assignment_epoch = e
            self._close(row, "completed", row[TS], inferred=untracked or not self.broker_seen)

    def _reopen(self, row: tuple, mid: str) -> ConsumerRebalance | None:
        """A member of the group reconciles at the epoch of the last rebalance after it was closed
        by client lines (it heartbeated later than the others, or gets the partitions others
        released): the rebalance was not over."""
        lr = self.last_reb
        g = self.model
        if (
            self.reb is None and lr is not None and lr.outcome == "completed" and lr.end_ts is not None
            and lr.new_generation == g.group_epoch and not self.broker_lines
            and row[TS] - lr.end_ts <= STALE_MS and self._member_of(mid, lr)
        ):  # fmt: skip
            lr.outcome, lr.end_ts, lr.members_after = None, None, None
            self.reb, self.last_reb = lr, None
            return lr
        return None

    def _member_of(self, mid: str, r: ConsumerRebalance) -> bool:
        """``mid`` was in the group when ``r`` closed: its reconciliation at the same epoch belongs to
        ``r`` (a member that joined since, e.g. a restarted static member, reconciles without one)."""
        if mid in r.active:
            return True
        m = self.model.members.get(mid)
        return m is not None and m.joined_ts is not None and r.end_ts is not None and m.joined_ts <= r.end_ts

    def _revoke(self, r: ConsumerRebalance | None, tps: Iterable[str], ts: int) -> None:
        if r is None:
            return
        r.moves_known = True
        for tp in tps:
            if tp not in r.revoked_at:
                r.revoked_at[tp] = ts
            if tp not in r.revoked:
                r.revoked.append(tp)

    def _assign(self, r: ConsumerRebalance | None, tps: Iterable[str], ts: int) -> None:
        if r is None:
            return
        r.moves_known = True
        for tp in tps:
            t0 = r.revoked_at.pop(tp, None)
            if t0 is not None:
                r.paused_ms += max(0, ts - t0)
            if tp not in r.assigned:
                r.assigned.append(tp)

    @staticmethod
    def _touch(r: ConsumerRebalance, ts: int) -> None:
        r.evidence = True
        if r.last_activity_ts is None or ts > r.last_activity_ts:
            r.last_activity_ts = ts

    def _in_reb(self, ts: int) -> ConsumerRebalance | None:
        r = self.reb
        if r is not None and (r.start_ts is None or ts >= r.start_ts):
            return r
        return None

    def _assignment_rows(self, m: ConsumerGroupMember, epoch: int | None, ts: int) -> None:
        if epoch is None or epoch < 0:
            return
        gid, mid, out = self.group_id, m.member_id, self._as
        for topic, parts in by_topic(m.assigned_partitions):
            out.append(AssignmentRow(gid, epoch, mid, topic, parts, "member", ts))
