"""The client's evidence in a consumer-protocol (KIP-848) replay (:class:`ConsumerClientEvidence`):
the new consumer's member state transitions, reconciliations and revoked / assigned / lost
partitions. A client line without a member id is matched to a member through the client id of the
member's own transition lines; with client lines only, a reconciliation begins a rebalance nobody
logged the start of."""

from __future__ import annotations

from coordinator_core.consumer.client_facts import (
    EPOCH,
    EXPIRED,
    HEARTBEAT_FACTS,
    JOIN,
    LEAVE,
    POLL_TIMEOUT,
    POLL_TIMEOUT_LEAVE,
    SILENT_INTERVALS,
    STATIC_LEAVE,
    fenced_fact,
    heartbeat_fact,
)
from coordinator_core.consumer.core import ConsumerReplayCore
from coordinator_core.consumer.kinds import ACTIVE_STATES, GONE_STATES
from coordinator_core.consumer.model import LEAVE_GROUP_STATIC_MEMBER_EPOCH, ConsumerGroupMember
from coordinator_core.consumer.rebalance import ConsumerRebalance
from coordinator_core.events.row import CID, ERR, FROM, MEPOCH, MID, PARTS, REVOKED, SF, SIDE, STATE, TS
from coordinator_core.replay_base import unique_id
from coordinator_core.rows import partition_strings, to_int

__all__ = ["ConsumerClientEvidence"]


class ConsumerClientEvidence(ConsumerReplayCore):
    """The ``_on_<fact>`` handlers of the client's lines (the table is :data:`~coordinator_core.consumer.replay.HANDLERS`)."""

    __slots__ = ()

    # ------------------------------------------------------------------ client evidence
    def _client_member(self, row: tuple) -> ConsumerGroupMember | None:
        mid = row[MID]
        cid = row[CID]
        if mid and cid:
            self.cid_map[cid] = mid
        if not mid and cid:
            mid = self.cid_map.get(cid)
        if not cid and row[SIDE] == "other" and row[SF]:
            # a non-Java client names no client id (librdkafka): its file is one consumer
            key = f"{row[SF]}\x1f"
            if mid:
                self.cid_map[key] = mid
            else:
                mid = self.cid_map.get(key)
        if not mid:
            return None
        return self.model.members.get(mid)

    def _on_member_state_changed(self, row: tuple) -> None:
        ts = row[TS]
        to = str(row[STATE] or "").upper()
        frm = str(row[FROM] or "").upper()
        logged = to_int(row[MEPOCH])
        known = self._client_member(row)
        fact = None
        if to in ("", "JOINING", "LEAVING") and row[MID]:
            fact = heartbeat_fact(logged, known.client_state if known is not None else None)
        if fact == JOIN and not self.broker_seen:
            self._client_join(row)
            return
        if known is not None and known.client_state == "JOINING" and to in ACTIVE_STATES:
            frm = "JOINING"  # its first reconciliation after the join its client logged
        m = self._state_member(row, to, frm, known)
        if m is None:
            return
        if fact == EPOCH and not self.broker_seen:
            self._heartbeat_seen(m, ts)
            self._apply_fact(row, m, fact, logged)
        if fact in (LEAVE, POLL_TIMEOUT_LEAVE, STATIC_LEAVE) and row[SIDE] == "other" and not self.broker_seen:
            # a non-Java client's leave (librdkafka's heartbeat with member epoch -1 / -2): with
            # client lines only, nobody else logs the departure
            self._apply_fact(row, m, fact)
            return
        prev_epoch = self.model.group_epoch
        self._client_epoch(row, logged)
        r = self._in_reb(ts)
        if r is None and to in ("RECONCILING", "ACKNOWLEDGING"):
            r = self._reopen(row, m.member_id)
            if r is None and not self.broker_seen:
                self._expire_silent(row, m)
                r = self._in_reb(ts) or self._client_start(row, m, frm, prev_epoch)
        if r is None:
            if to == "STABLE" and not self.broker_lines:
                self._stable_outside(m, logged)
            return
        self._state_in_reb(row, r, m, to, logged)

    def _state_member(
        self, row: tuple, to: str, frm: str, known: ConsumerGroupMember | None
    ) -> ConsumerGroupMember | None:
        """The member of a ``member_state_changed`` line (``known``: its :meth:`_client_member`), now
        tracked by its client lines (None: a member not admitted yet, or gone)."""
        m = known
        if m is None:
            if to in ("JOINING", "UNSUBSCRIBED") or frm in ("UNSUBSCRIBED",) or to in GONE_STATES:
                return None  # before the broker admits it (or after it is gone): nothing to track
            m = self._member(row, row[MID], anomaly=self.broker_seen)
            if m is None:
                return None
        m.tracked = True
        if to:
            m.client_state = to
        m.last_seen_ts = row[TS]
        if row[CID] and not m.client_id:
            m.client_id = row[CID]
        return m

    # ------------------------------------------------------------------ heartbeat facts
    def _apply_fact(self, row: tuple, m: ConsumerGroupMember, fact: str, epoch: int | None = None) -> None:
        """Apply :data:`~coordinator_core.consumer.client_facts.HEARTBEAT_FACTS` ``[fact]`` to member
        ``m`` (client lines only): its client state, its epoch (the one the coordinator gave it), and
        its departure or the signal of its join."""
        f = HEARTBEAT_FACTS[fact]
        if f.client_state is not None:
            m.client_state = f.client_state
        if fact == EPOCH:
            self._set_epoch(m, epoch)
            return
        if fact == STATIC_LEAVE:
            # a static member away for a restart: epoch -2, no bump, the session goes on
            self._set_epoch(m, LEAVE_GROUP_STATIC_MEMBER_EPOCH)
            if self.reb is not None:
                self.reb.active.pop(m.member_id, None)
            return
        if f.session_end is not None:
            self._departure(row, m, f.cause or "unknown", f.session_end, None)  # type: ignore[attr-defined]
        elif f.cause is not None:
            self._signal(row, f.cause, m, None, self._present() - 1)

    def _client_join(self, row: tuple) -> None:
        """A member's heartbeat with member epoch 0 (client lines only): a member the replay does
        not have joins (its request and first response both carry epoch 0: one join)."""
        new = row[MID] not in self.model.members
        m = self._member(row, row[MID], anomaly=False)
        if m is None:
            return
        self._client_member(row)  # its file's lines without a member id are its own
        m.tracked = True
        if new:
            m.inferred = False
            self._apply_fact(row, m, JOIN)

    def _heartbeat_seen(self, m: ConsumerGroupMember, ts: int) -> None:
        """One more heartbeat line of ``m`` at an epoch: the longest gap between them is its heartbeat
        interval (a join's request and response, and expedited heartbeats, come closer)."""
        last = m.last_heartbeat_ts
        if last is not None and ts > last:
            gap = ts - last
            if m.heartbeat_interval_ms is None or gap > m.heartbeat_interval_ms:
                m.heartbeat_interval_ms = gap
        m.last_heartbeat_ts = ts

    def _expire_silent(self, row: tuple, reconciling: ConsumerGroupMember) -> None:
        """A reconciliation begins (client lines only): a member whose heartbeat lines stopped for
        :data:`~coordinator_core.consumer.client_facts.SILENT_INTERVALS` of its intervals expired."""
        ts = row[TS]
        for m in list(self.model.members.values()):
            hb = m.heartbeat_interval_ms
            if m is reconciling or hb is None or not m.present or m.last_seen_ts is None:
                continue
            if ts - m.last_seen_ts > SILENT_INTERVALS * hb:
                self._apply_fact(row, m, EXPIRED)

    def _on_poll_timeout(self, row: tuple) -> None:
        """The application did not poll within ``max.poll.interval.ms`` (client lines only): the
        member's next leave is a poll-timeout leave."""
        m = self._client_member(row)
        if m is not None and not self.broker_seen:
            self._apply_fact(row, m, POLL_TIMEOUT)

    def _on_heartbeat_failed(self, row: tuple) -> None:
        """A consumer-protocol heartbeat failed (client lines only): ``FENCED_MEMBER_EPOCH`` /
        ``UNKNOWN_MEMBER_ID`` is a member the coordinator removed already."""
        if self.broker_seen:
            return
        m = self._client_member(row)
        if m is None:
            return
        fact = fenced_fact(row[ERR], m.client_state)
        if fact is not None:
            self._apply_fact(row, m, fact)

    def _client_epoch(self, row: tuple, logged: int | None) -> None:
        """The member epoch a client line logs ("with epoch N"): ahead of the broker's group epoch
        it is an anomaly; with client lines only it is the group epoch."""
        g = self.model
        if logged is not None and logged > 0:
            if g.group_epoch is not None and logged > g.group_epoch and self.broker_seen:
                self._anomaly(
                    row, "generation_gap", f"client epoch {logged} ahead of group epoch {g.group_epoch}"
                )
            if not self.broker_seen and (g.group_epoch is None or logged > g.group_epoch):
                # client lines only: the best we know (the broker gave the member that epoch, so
                # the target assignment had reached it)
                g.group_epoch = logged
                if g.target_assignment_epoch is None or logged > g.target_assignment_epoch:
                    g.target_assignment_epoch = logged

    def _stable_outside(self, m: ConsumerGroupMember, logged: int | None) -> None:
        """A member STABLE with no rebalance in progress (and no broker member state lines)."""
        g = self.model
        # no rebalance in progress: the member is at the target epoch ("with epoch N" may lag)
        m.state = "STABLE"
        e = max(logged or 0, g.target_assignment_epoch or 0, m.member_epoch or 0)
        if e > 0:
            self._set_epoch(m, e)

    def _state_in_reb(
        self, row: tuple, r: ConsumerRebalance, m: ConsumerGroupMember, to: str, logged: int | None
    ) -> None:
        """A member's transition during rebalance ``r``: its participation, and with client lines
        only its epoch and reaching STABLE (which may end ``r``)."""
        ts = row[TS]
        self._touch(r, ts)
        if (
            not self.broker_seen
            and logged is not None
            and logged > (r.old_generation or 0)
            and (r.new_generation is None or logged > r.new_generation)
        ):
            r.new_generation = logged  # client lines only: the members' epochs are all we know
        if to in ACTIVE_STATES:
            r.active[m.member_id] = False
        elif to == "STABLE":
            # "with epoch N" lags during reconciliation: the line counts by time, not by epoch
            r.active[m.member_id] = True
            if not self.broker_lines:
                # the client's STABLE is the broker's only when the broker shows no member state: a
                # member waiting for partitions others still revoke (broker UNRELEASED_PARTITIONS)
                # is STABLE on its side with what it has
                m.state = "STABLE"
                if r.new_generation is not None:
                    self._set_epoch(m, r.new_generation)
                elif logged is not None:
                    self._set_epoch(m, logged)
                if m.assignment_known:
                    self._assignment_rows(m, m.member_epoch, ts)
        elif to in GONE_STATES:
            r.active.pop(m.member_id, None)
        if not self.broker_lines:
            self._check_end(row)

    def _client_start(
        self, row: tuple, m: ConsumerGroupMember, frm: str, old: int | None
    ) -> ConsumerRebalance:
        """Client lines only: reconciliation begins a rebalance nobody logged the start of; its cause
        is a member's fact just before it (a join), or the reconciling member's own join."""
        g = self.model
        s = self._find_signal(row)
        joining = frm in ("JOINING", "UNSUBSCRIBED")
        new = None
        pe, e = m.previous_member_epoch, m.member_epoch
        if pe is not None and e is not None and 0 < pe < e:
            old, new = pe, e  # its heartbeat just gave it the new epoch: the rebalance is pe -> e
        r = ConsumerRebalance(
            unique_id(self.rids, f"{self.group_id}:{row[TS]}:{old}"), row[TS], old, new,
            cause="new_member" if joining else "unknown", culprit_member_id=m.member_id if joining else None,
            members_before=self._present(), protocol_type=g.protocol_type, inferred=True, last_bump_ts=row[TS],
        )  # fmt: skip
        if s is not None:
            s[8] = True
            r.cause, r.culprit_member_id, r.culprit_group_instance_id = s[1], s[2], s[3]
            r.culprit_client_id, r.reason, r.members_before = s[4], s[6], s[7]
        self.reb = r
        return r

    def _on_reconciliation(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        added, revoked = partition_strings(row[PARTS]), partition_strings(row[REVOKED])
        r = self._in_reb(ts)
        if m is not None:
            m.tracked = True
            m.last_seen_ts = ts
            if r is None:
                r = self._reopen(row, m.member_id)
            if r is not None:
                self._touch(r, ts)
                r.active[m.member_id] = False
            if m.assignment_known:
                gone, had = set(revoked), set(m.assigned_partitions)
                m.assigned_partitions = [p for p in m.assigned_partitions if p not in gone] + [
                    p for p in added if p not in had
                ]
        if r is not None:
            self._touch(r, ts)
            self._revoke(r, revoked, ts)
            self._assign(r, added, ts)

    def _on_partitions_revoked(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        tps = partition_strings(row[PARTS])
        r = self._in_reb(ts)
        if r is not None and tps:
            self._touch(r, ts)
            self._revoke(r, tps, ts)
        if m is not None and m.assignment_known:
            gone = set(tps)
            m.assigned_partitions = [p for p in m.assigned_partitions if p not in gone]

    def _on_partitions_assigned(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        tps = partition_strings(row[PARTS])
        r = self._in_reb(ts)
        if r is not None and tps:
            self._touch(r, ts)
            self._assign(r, tps, ts)
        if m is not None and m.assignment_known:
            had = set(m.assigned_partitions)
            m.assigned_partitions += [p for p in tps if p not in had]
