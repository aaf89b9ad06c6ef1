"""The replay's bookkeeping shared by broker and client evidence: the output buffers, state
changes and generation adoption, member sessions (join, end, departed members), and the
rebalance under construction (start, cause, close, re-emission); assignment rows and skew.

Handlers of evidence lines (:mod:`.broker`, :mod:`.client`) build on :class:`ReplayCore`; they
record what a line adds through these methods.
"""

from __future__ import annotations

from typing import Any

from coordinator_core.causes import client_id_of
from coordinator_core.config import parse_version_hint
from coordinator_core.events.row import CID, GIID, HOST, KIND, LN, MID, SF, TS
from coordinator_core.partition_groups import TopicRows
from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition
from coordinator_core.replay.inferred import INFERRED_TRANSITIONS, NEW_GROUP, OLD_EMPTY_VERSION, TAKEN_OVER
from coordinator_core.replay.model import (
    DepartedMember,
    E,
    GroupModel,
    Member,
    OpenRebalance,
    S,
    Signal,
)
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.replay_base import EvidenceReplay, unique_id
from coordinator_core.rows import to_int
from coordinator_core.skew import skew_rows

#: departed members, hints and warned members kept (oldest dropped first)
DEPARTED_MAX = 512
HINT_MAX = 256


def joined_ts(m: Member) -> int | None:
    """A member's ``joined_ts`` (part of the session key, so never None once a member exists):
    members restored from snapshots older than this rule get their last-seen time, fixed once."""
    if m.joined_ts is None:
        m.joined_ts = m.last_seen
    return m.joined_ts


class ReplayCore(EvidenceReplay, GroupModel):
    """A :class:`~coordinator_core.replay.model.GroupModel` with its output buffers and the
    operations evidence handlers use."""

    __slots__ = ("group_id", "settings", "_v", "_tr", "_rb", "_ss", "_as", "_an", "_sk")

    def __init__(self, group_id: str, settings: ReplaySettings | None = None) -> None:
        GroupModel.__init__(self)
        self._init_output(group_id, settings)
        self._v = parse_version_hint(self.settings.version_hint)

    # ------------------------------------------------------------------ internals: plumbing
    def _position(self) -> tuple[str | None, int | None]:
        return self.state, self.generation

    def _set_state(self, row: tuple, to: str, inferred: bool = False) -> None:
        self.client_inferred_state = inferred and (not self.broker_seen or self.client_inferred_state)
        if to == self.state:
            return
        self._tr.append(
            Transition(
                self.group_id, row[TS], self.state, to, self.generation if self.generation is not None else -1,
                row[KIND], inferred, row[SF], row[LN],
            )
        )  # fmt: skip
        self.state = to

    def _can(self, fact: str) -> bool:
        """Whether ``fact`` changes the state the group is in (:mod:`.inferred`)."""
        return (self.state, fact) in INFERRED_TRANSITIONS

    def _apply(self, row: tuple, fact: str, *, inferred: bool = True) -> bool:
        """Apply the inferred transition of ``fact`` (:data:`~.inferred.INFERRED_TRANSITIONS`) at
        ``row``; a fact impossible in the current state is an ``impossible_transition`` anomaly and
        changes nothing."""
        to = INFERRED_TRANSITIONS.get((self.state, fact))
        if to is None:
            self._anomaly(row, "impossible_transition", f"{fact} is impossible in state {self.state}; ignored")
            return False
        if to == NEW_GROUP:
            to = self._new_group_state()
        elif to == TAKEN_OVER:
            to = S if self.members else E
        self._set_state(row, to, inferred=inferred)
        return True

    def _new_group_state(self) -> str:
        """The first state of a new group: Empty (0.10.1+), Stable before Empty existed."""
        return S if (self._v is not None and self._v < OLD_EMPTY_VERSION) else E

    def _adopt_generation(self, row: tuple, g: int | None, expected: int | None) -> None:
        """Adopt a logged generation forward; a mismatch with ``expected`` is a generation gap."""
        if g is None:
            if expected is not None:
                self.generation = expected
            return
        if self.generation is None:
            self.generation = g
            return
        if expected is not None and g != expected:
            self._anomaly(row, "generation_gap", f"logged generation {g}, model expected {expected}")
        if g > self.generation:
            self.generation = g

    # ------------------------------------------------------------------ members and sessions
    def _member_info(self, mid: str | None) -> tuple[str | None, str | None, str | None]:
        """(client id, host, group instance id) of a current, gone or pending member."""
        if not mid:
            return None, None, None
        m = self.members.get(mid) or self.departed.get(mid)
        if m is not None:
            cid, host, giid = m.client_id, m.client_host, m.group_instance_id
        else:
            p = self.pending.get(mid)
            cid, host, giid = (p.client_id, p.client_host, None) if p else (None, None, None)
        if not cid and giid:
            cid = self.client_by_instance.get(giid)
        return cid or client_id_of(mid, giid), host, giid

    def _add_member(
        self, mid: str, ts: int | None, *, cid: Any = None, host: Any = None, giid: Any = None,
        inferred: bool = False, joined: bool = True,
    ) -> Member:  # fmt: skip
        m = self.members.get(mid)
        if m is None:
            p = self.pending.pop(mid, None)
            first_ts = ts
            if p is not None:
                cid = cid or p.client_id
                host = host or p.client_host
                pts = p.member_id_ts
                if not joined and pts is not None and (ts is None or pts < ts):
                    first_ts = pts  # the member id was handed out then (MEMBER_ID_REQUIRED)
            r = self.rebalance
            if (
                not joined
                and first_ts == ts
                and self.membership_known
                and r is not None
                and r.start_ts is not None
                and ts is not None
                and r.start_ts <= ts
            ):
                first_ts = r.start_ts  # a member the known membership lacked joined in this rebalance
            if not cid and giid:
                cid = self.client_by_instance.get(giid)
            # joined_ts is part of the session key: never None. Without a line naming the member
            # joining it is the earliest evidence of the member (and the session is inferred).
            m = Member(
                cid or client_id_of(mid, giid),
                host,
                giid,
                first_ts,
                last_seen=ts,
                inferred=inferred or not joined,
            )
            self.members[mid] = m
            self.departed.pop(mid, None)
        else:
            if joined and not inferred:
                m.inferred = False  # a broker line shows the join a client line reported first
            if cid and not m.client_id:
                m.client_id = cid
            if host and not m.client_host:
                m.client_host = host
            if giid and not m.group_instance_id:
                m.group_instance_id = giid
            m.last_seen = ts
        if cid:
            self.member_by_client[cid] = mid
        return m

    def _end_session(self, row: tuple, mid: str, reason: str, *, inferred: bool = False) -> None:
        ts = row[TS]
        m = self.members.pop(mid, None)
        if m is None:
            if mid in self.departed:
                return
            p = self.pending.pop(mid, None)
            if self.membership_known and p is None:
                self._anomaly(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            cid = row[CID] if row[KIND] != "static_member_fenced" else None
            giid = row[GIID]
            if not cid and giid:
                cid = self.client_by_instance.get(giid)
            # the ending line is the only evidence of the member (a pending id: its creation)
            first_ts = p.member_id_ts if p is not None and p.member_id_ts is not None else ts
            m = Member(cid or client_id_of(mid, giid), row[HOST], giid, first_ts, last_seen=ts, inferred=True)
            inferred = True
        elif row[HOST] and not m.client_host and row[MID] == mid:
            m.client_host = row[HOST]
        self._ss.append(
            MemberSession(
                self.group_id, mid, m.group_instance_id, m.client_id, m.client_host, joined_ts(m), ts, m.first_generation,
                m.last_generation, reason, bool(m.inferred) or inferred,
            )
        )  # fmt: skip
        self.departed[mid] = DepartedMember(
            m.client_id, m.client_host, m.group_instance_id, ts, m.joined_ts, m.first_generation,
            m.last_generation, m.inferred, reason,
        )  # fmt: skip
        if len(self.departed) > DEPARTED_MAX:
            self.departed.pop(next(iter(self.departed)))
        if self.leader == mid:
            self.leader = None

    def _end_all_sessions(self, row: tuple, reason: str) -> None:
        for mid in list(self.members):
            self._end_session(row, mid, reason, inferred=True)

    def _signal(self, ts: int, cause: str, mid: str | None) -> None:
        self.signal = Signal(ts, cause, mid)

    def _hint(self, ts: int, mid: str | None, cause: str) -> None:
        if not mid:
            return
        self.hints[mid] = [ts, cause]
        if len(self.hints) > HINT_MAX:
            self.hints.pop(next(iter(self.hints)))

    # ------------------------------------------------------------------ rebalance records
    def _start_rebalance(
        self, ts: int | None, old_gen: int | None, *, start_unknown: bool, inferred: bool
    ) -> OpenRebalance:
        mb = self.stable_member_count
        if mb is None and self.membership_known:
            mb = len(self.members)
        r = OpenRebalance(
            # the id is fixed when the rebalance starts, so every later report of it (open, then
            # completed, possibly in a later run) carries the same id
            unique_id(self.recent_rebalance_ids, f"{self.group_id}:{ts or 'unknown'}:{old_gen}"),
            ts, start_unknown=start_unknown, old_generation=old_gen, members_before=mb,
            coordinator_broker=self.coordinator, inferred=inferred,
        )  # fmt: skip
        self.rebalance = r
        return r

    def _rebalance_id(self, r: OpenRebalance) -> str:
        return r.rebalance_id or f"{self.group_id}:{r.start_ts or 'unknown'}:{r.old_generation}"

    def _set_cause(
        self, r: OpenRebalance, cause: str, mid: str | None, giid: str | None = None, cid: str | None = None
    ) -> None:
        r.cause = cause
        r.follows_signal = False
        r.culprit_member_id = mid
        mcid, host, mgiid = self._member_info(mid)
        r.culprit_client_id = cid or mcid
        r.culprit_host = host
        r.culprit_group_instance_id = giid or mgiid

    def _rebalance_record(
        self, r: OpenRebalance, outcome: str, end_ts: int | None, after: int | None, *, check: bool = True
    ) -> Rebalance:
        start = r.start_ts
        dur = None
        if start is not None and end_ts is not None:
            dur = end_ts - start
            if dur < 0:
                if check:
                    self._an.append(
                        Anomaly(
                            self.group_id, end_ts, "clock_skew",
                            f"rebalance {self._rebalance_id(r)} ends {-dur} ms before it starts", self.state, self.generation,
                        )
                    )  # fmt: skip
                dur = 0
        cm = r.culprit_member_id
        cc, ch, cg = r.culprit_client_id, r.culprit_host, r.culprit_group_instance_id
        if cm and (cc is None or ch is None or cg is None):
            icid, ihost, igiid = self._member_info(cm)
            cc, ch, cg = cc or icid, ch or ihost, cg or igiid
        return Rebalance(
            self.group_id, self._rebalance_id(r), r.old_generation, r.new_generation, r.join_rounds, start, end_ts, dur, outcome,
            r.cause, r.reason, cm, cc, ch, cg, r.members_before, after, r.leader_id, r.protocol, r.coordinator_broker,
            bool(r.inferred), bool(r.start_unknown),
        )  # fmt: skip

    def _close_rebalance(self, row: tuple, outcome: str, after: int | None) -> None:
        r = self.rebalance
        if r is None:
            return
        if r.new_generation is None or (self.generation is not None and r.new_generation < self.generation):
            # generations only move forward: the group's generation when the rebalance ends is its
            # result (a client-inferred round may have recorded an older one before the broker's)
            r.new_generation = self.generation
        if outcome == "completed":
            r.join_rounds = max(r.join_rounds, 1)
            if r.leader_id is None:
                r.leader_id = self.leader
        if r.protocol is None and outcome == "completed":
            r.protocol = self.protocol
        if r.coordinator_broker is None:
            r.coordinator_broker = self.coordinator
        self._rb.append(self._rebalance_record(r, outcome, row[TS], after))
        r.outcome, r.end_ts, r.members_after = outcome, row[TS], after
        self.last_rebalance = r  # kept for refinements by evidence logged (or clocked) just after the end
        self.rebalance = None
        self.stable_member_count = after
        if outcome == "completed":
            self.last_completion = [row[TS], self.generation]
        if self.settings.track_generations:
            self.generations.append(
                {"gen": self.generation, "ts": row[TS], "members": sorted(self.members), "outcome": outcome}
            )

    def _reemit_rebalance(self, r: OpenRebalance) -> None:
        """Report a closed rebalance again after a refinement (same ``rebalance_id``: the sink keeps
        the latest row); a report of it not flushed yet is replaced, not duplicated. A rebalance still
        open (no outcome) was never reported: its report comes when it closes."""
        if r.outcome is None:
            return
        rec = self._rebalance_record(r, r.outcome, r.end_ts, r.members_after, check=False)
        self._rb = [x for x in self._rb if x.rebalance_id != rec.rebalance_id]
        self._rb.append(rec)

    def _rebalance_without_start(self, row: tuple, old_gen: int | None, inferred: bool) -> OpenRebalance:
        self._anomaly(row, "rebalance_without_start", f"{row[KIND]} without the start of its rebalance")
        return self._start_rebalance(None, old_gen, start_unknown=True, inferred=inferred)

    def _members_after(self, count: Any) -> int | None:
        n = to_int(count)
        if n is not None:
            return n
        return len(self.members) if self.members else None

    def _check_client_ahead(self, row: tuple) -> None:
        ca = self.client_ahead
        if ca is None or self.generation is None or self.generation < ca[0]:
            return
        self.client_ahead = None
        lag = row[TS] - ca[1]
        if lag > self.settings.clock_skew_tolerance_ms:
            self._anomaly(
                row, "clock_skew",
                f"client logged generation {ca[0]} {lag} ms before the broker completed it",
            )  # fmt: skip

    def _maybe_member_skew(self, row: tuple) -> None:
        current = self.assignment
        if (
            current is None
            or current.leader_map is not None
            or current.generation != self.generation
            or self.state != S
            or not self.members
        ):
            return
        if all(mid in current.member_maps for mid in self.members):
            self._emit_skew(current.generation, current.member_maps, row[TS])

    def _assignment_rows(self, g: int, mid: str, by_topic: TopicRows, source: str, ts: int) -> None:
        """One ``assignments`` row per topic of ``by_topic`` (:mod:`coordinator_core.partition_groups`)."""
        gid, out = self.group_id, self._as
        for t, parts in by_topic:
            out.append(AssignmentRow(gid, g, mid, t, parts, source, ts))

    def _emit_skew(self, g: int, table: dict[str, list[list[Any]]], ts: int) -> None:
        if not self.settings.emit_skew or self.skew_generation == g:
            return
        # skew_rows reads each member's [topic, partition] pairs as they are stored
        prev = self.previous_assignment if self.previous_assignment else None
        self._sk.extend(skew_rows(self.group_id, g, table, prev, self.protocol, ts))
        self.previous_assignment = table
        self.skew_generation = g
