"""Broker evidence: the coordinator's log lines drive the group's state.

One place decides the next state: :meth:`BrokerEvidence._broker` looks the line up in the evidence
transition table (:func:`coordinator_core.transitions.target`); a fact that is impossible in the
model's state is an ``impossible_transition`` anomaly and the replay adopts it (logs are the truth).
The kind's handler records what the line adds (generation, members, causes, rebalance bookkeeping),
then the dispatch applies the state change and closes the rebalance the line ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coordinator_core.causes import CauseInfo, classify_client_reason, classify_reason, client_id_of
from coordinator_core.events.row import (
    CID,
    COORD,
    GEN,
    GIID,
    HOST,
    KIND,
    MCOUNT,
    MEMBERS,
    MID,
    OLDMID,
    PENDING,
    REASON,
    TS,
    UNEXP,
)
from coordinator_core.replay.core import ReplayCore
from coordinator_core.replay.model import D, E, PendingMember, S
from coordinator_core.rows import to_int
from coordinator_core.transitions import LOADED, STATE_KINDS, STAY, target

#: broker kinds whose target state is inferred, not logged (the leader's assignment is persisted:
#: the group is Stable, which Kafka does not log)
INFERRED_KINDS = frozenset({"assignment_received"})
#: kinds that say the broker's state outright (they replace a state inferred from client lines)
_STATE_FACTS = frozenset(STATE_KINDS) | {"group_loaded"}


class BrokerEvidence(ReplayCore):
    """Broker lines: the dispatch (state changes) and the handlers (what each line adds)."""

    __slots__ = ()

    def _broker(self, row: tuple) -> None:
        """One broker line: the transition table decides the next state, the kind's handler records
        what the line adds, the state change is applied, and a rebalance the line ends is closed."""
        kind = row[KIND]
        self._new_incarnation(row, kind)
        to = self._next_state(row, kind)
        self._note_broker_line(row, kind)
        if to == LOADED:
            to = self._loaded_state(row)
        BROKER_HANDLERS[kind](self, row, to)
        if to != STAY:
            self._set_state(row, to, inferred=kind in INFERRED_KINDS)
        end = REBALANCE_ENDS.get(kind)
        if end is not None:
            end(self, row)

    def _next_state(self, row: tuple, kind: str) -> str:
        """The state after the line (a state, ``STAY`` or ``LOADED``). A state not known yet, or
        inferred from client lines, accepts every fact; an impossible one is adopted."""
        natural = (
            STATE_KINDS[kind].value if kind in STATE_KINDS else (LOADED if kind == "group_loaded" else STAY)
        )
        st = self.state
        if st is None or self.client_inferred_state:
            return natural
        to = target(st, kind)
        if to is None:
            self._anomaly(row, "impossible_transition", f"{kind} is impossible in state {st}; adopted")
            return natural
        return to

    def _new_incarnation(self, row: tuple, kind: str) -> None:
        """A group removed (Dead after group_dead) that shows up again is a new incarnation Kafka
        created: Empty, generation 0."""
        if self.state != D or not self.removed or kind in ("group_loaded", "group_unloaded", "group_dead"):
            return
        self.removed = False
        self.generation = 0
        self.membership_known = True
        self.stable_member_count = 0
        self._apply(row, "recreated")

    def _note_broker_line(self, row: tuple, kind: str) -> None:
        """What any broker line tells besides its fact: the broker logs this group (its state facts
        replace a state inferred from client lines), the coordinator, and a brand-new group."""
        self.broker_seen = True
        if self.client_inferred_state and kind in _STATE_FACTS:
            self.client_inferred_state = False
        if row[COORD] is not None and kind not in ("group_unloaded", "group_dead"):
            self.coordinator = to_int(row[COORD])
        if kind == "rebalance_prepared" and self.state is None and to_int(row[GEN]) == 0:
            # a brand-new group: Empty (0.10.1+), Stable before Empty existed; not a transition
            self.state = self._new_group_state()
            self.membership_known = True
            self.generation = 0

    def _loaded_count(self, row: tuple) -> int:
        n = to_int(row[MCOUNT])
        return n if n is not None else len(self.members)

    def _loaded_state(self, row: tuple) -> str:
        """``GroupMetadataManager`` loads a group as Stable, or Empty when it has no members."""
        return S if self._loaded_count(row) > 0 else E

    # ------------------------------------------------------------------ rebalance ends
    def _close_completed(self, row: tuple) -> None:
        if self.rebalance is not None:
            self._close_rebalance(row, "completed", self._members_after(row[MCOUNT]))

    def _close_assigned(self, row: tuple) -> None:
        if self.rebalance is not None:
            self._close_rebalance(row, "completed", self._members_after(row[MCOUNT]))
            self._maybe_member_skew(row)

    def _close_ended_empty(self, row: tuple) -> None:
        self._close_rebalance(row, "ended_empty", 0)

    def _close_if_loaded_empty(self, row: tuple) -> None:
        if self.state == E:
            self._close_rebalance(row, "ended_empty", 0)

    # ------------------------------------------------------------------ handlers
    def _on_rebalance_prepared(self, row: tuple, to: str) -> None:
        ts = row[TS]
        g = to_int(row[GEN])
        if self.rebalance is None:
            self._reopen_client_rebalance(row, g)
        if g is not None:
            self._adopt_generation(row, g, self.generation)
        info = classify_reason(row[REASON])
        if info.cause == "new_member" and info.member_id and info.member_id not in self.members:
            self._add_member(info.member_id, ts, giid=info.group_instance_id)
        cause, culprit, giid = self._resolve_cause(row, info)
        r = self.rebalance
        if r is None:
            r = self._start_rebalance(ts, self.generation, start_unknown=False, inferred=False)
            if self.state == E:
                r.members_before = 0
            r.reason = row[REASON]
            self._set_cause(r, cause, culprit, giid)
        else:
            takeover = r.inferred  # the broker takes over a rebalance inferred from client lines
            r.inferred = False
            if takeover:
                # the group entered PreparingRebalance now (the client's signal came first); the id
                # stays the one given when the rebalance was first seen
                r.start_ts = ts
                r.old_generation = self.generation
                if self.generation == 0 and r.members_before is None:
                    r.members_before = 0
            if cause != "unknown" and (takeover or r.cause == "unknown"):
                r.reason = row[REASON]
                self._set_cause(r, cause, culprit, giid)
            elif r.reason is None and row[REASON] and r.cause == cause:
                r.reason = row[REASON]
        if r.coordinator_broker is None:
            r.coordinator_broker = self.coordinator

    def _reopen_client_rebalance(self, row: tuple, g: int | None) -> None:
        """The broker's PreparingRebalance of a rebalance the clients' lines already began *and*
        ended (their clocks run behind the broker's, within ``clock_skew_tolerance_ms``: the line
        names an older generation than the clients reached; a rebalance a broker line ended is no
        longer ``inferred``): that rebalance, re-opened for the broker to time and number (its id
        stays; a report of it not flushed yet is dropped, and so are the transitions its inferred
        end made at a newer generation that are not flushed yet: the group's state goes back to
        where the broker's line finds it)."""
        lr = self.last_rebalance
        if (
            lr is None or not lr.inferred or g is None or self.generation is None or g >= self.generation
            or lr.old_generation not in (None, g) or lr.start_ts is None
            or not 0 <= row[TS] - lr.start_ts <= self.settings.clock_skew_tolerance_ms
        ):  # fmt: skip
            return
        self._rb = [x for x in self._rb if x.rebalance_id != lr.rebalance_id]
        while self._tr and self._tr[-1].inferred and self._tr[-1].generation > g:
            self.state = self._tr.pop().from_state
        lr.outcome, lr.end_ts, lr.members_after, lr.new_generation, lr.join_rounds = None, None, None, None, 0
        self.generation = g
        self.rebalance = lr

    def _poll_hint(self, mid: str, ts: int) -> bool:
        """Did the member's client (by member id, else by client id) just log a poll timeout?"""
        window = self.settings.signal_window_ms
        keys = [mid]
        cid = self._member_info(mid)[0]
        if cid:
            keys.append("client:" + cid)
        for key in keys:
            h = self.hints.get(key)
            if h is not None and h[1] == "poll_timeout_leave" and 0 <= ts - h[0] <= window:
                return True
        return False

    def _resolve_cause(self, row: tuple, info: CauseInfo) -> tuple[str, str | None, str | None]:
        ts = row[TS]
        cause, culprit, giid = info.cause, info.member_id, info.group_instance_id
        window = self.settings.signal_window_ms
        if cause == "unknown":
            sig = self.signal
            if sig is not None and ts - sig.ts <= window:
                cause, culprit = sig.cause, sig.member_id
        if cause == "member_leave":
            for mid in info.members or ((culprit,) if culprit else ()):
                if self._poll_hint(mid, ts):
                    cause, culprit = "poll_timeout_leave", mid
                    break
        if (
            cause in ("leader_rejoin", "metadata_change", "unknown")
            and self.loaded_ts is not None
            and 0 <= ts - self.loaded_ts <= self.settings.coordinator_move_window_ms
        ):
            cause = "coordinator_move"
        self.signal = None
        return cause, culprit, giid

    def _on_join_completed(self, row: tuple, to: str) -> None:
        g = to_int(row[GEN])
        if self.rebalance is None:
            self._rebalance_without_start(row, g - 1 if g is not None else self.generation, inferred=False)
        r = self.rebalance
        assert r is not None
        expected = self.generation + 1 if self.generation is not None else None
        self._adopt_generation(row, g, expected)
        self._check_client_ahead(row)
        r.join_rounds += 1
        r.new_generation = self.generation
        r.inferred = False
        self._promote_pending(row, to_int(row[MCOUNT]), r.start_ts)
        self._reconcile(row, to_int(row[MCOUNT]))
        gen = self.generation
        for m in self.members.values():
            m.last_generation = gen
            if m.first_generation is None:
                m.first_generation = gen

    def _promote_pending(self, row: tuple, n: int | None, start: int | None) -> None:
        """Pending members (MEMBER_ID_REQUIRED) whose second join was not logged (DEBUG in Scala
        3.x): Kafka completes a join phase only when no member is pending, so when the logged
        member count exceeds the model's membership the pending ids filled the gap. Ids handed out
        during this rebalance go first, oldest first. Their ``joined_ts`` is when the id was
        handed out; the session is inferred."""
        if n is None or not self.pending:
            return
        free = n - len(self.members)
        if free <= 0:
            return

        def order(kv: tuple[str, PendingMember]) -> tuple[bool, int]:
            pts = kv[1].member_id_ts if kv[1].member_id_ts is not None else 0
            return (start is not None and pts < start, pts)

        for mid, _ in sorted(self.pending.items(), key=order)[:free]:
            self._add_member(mid, row[TS], inferred=True, joined=False)

    def _reconcile(self, row: tuple, n: int | None) -> None:
        """Match the model's membership with a logged member count."""
        if n is None:
            return
        have = len(self.members)
        if n < have:
            # members that did not rejoin (2.0-2.6 remove them silently): the least recently seen
            order = sorted(
                self.members.items(), key=lambda kv: (kv[1].last_seen is not None, kv[1].last_seen or 0)
            )
            for mid, _ in order[: have - n]:
                self._end_session(row, mid, "not_rejoined", inferred=True)
            self.membership_known = True
        elif n > have:
            self.membership_known = False
        else:
            self.membership_known = True

    def _on_group_empty(self, row: tuple, to: str) -> None:
        g = to_int(row[GEN])
        if self.rebalance is None:
            self._rebalance_without_start(row, g - 1 if g is not None else self.generation, inferred=False)
        r = self.rebalance
        assert r is not None
        self._adopt_generation(row, g, self.generation + 1 if self.generation is not None else None)
        r.join_rounds += 1
        r.inferred = False
        self._end_all_sessions(row, "not_rejoined")
        self.membership_known = True

    def _on_assignment_received(self, row: tuple, to: str) -> None:
        g = to_int(row[GEN])
        self._adopt_generation(row, g, self.generation)
        leader = row[MID]
        if leader:
            if leader not in self.members:
                if self.membership_known:
                    self._anomaly(row, "unknown_member", f"leader {leader} is not a known member")
                m = self._add_member(leader, row[TS], inferred=True, joined=False)
                if self.generation is not None:  # the leader of generation N is a member of it
                    m.first_generation = m.last_generation = m.client_generation = self.generation
            self.leader = leader
        if self.rebalance is None and self.state != S:
            self._rebalance_without_start(row, g - 1 if g is not None else None, inferred=False)
        r = self.rebalance
        if r is not None:
            r.leader_id = leader or r.leader_id
            r.inferred = False

    def _on_group_stable(self, row: tuple, to: str) -> None:
        self._adopt_generation(row, to_int(row[GEN]), self.generation)
        if self.rebalance is not None:  # the broker ends it (its generation is the broker's own)
            self.rebalance.inferred = False

    def _on_group_loaded(self, row: tuple, to: str) -> None:
        """``to``: Stable, or Empty when the loaded group has no members (:meth:`_loaded_state`)."""
        g = to_int(row[GEN])
        gen = self.generation
        self._adopt_generation(row, g, gen if gen is not None and g is not None and g < gen else None)
        self.loaded_ts = row[TS]
        self.removed = False
        if self.rebalance is not None:  # the loaded group's generation is the broker's own
            self.rebalance.inferred = False
        if self.rebalance is None:
            self.stable_member_count = self._loaded_count(row)
        if to == E:
            self._end_all_sessions(row, "not_rejoined")
            self.membership_known = True

    def _on_group_unloaded(self, row: tuple, to: str) -> None:
        self._adopt_generation(row, to_int(row[GEN]), None)

    def _on_group_dead(self, row: tuple, to: str) -> None:
        self._adopt_generation(row, to_int(row[GEN]), None)
        self._end_all_sessions(row, "group_dead")
        self.pending.clear()
        self.membership_known = True
        self.removed = True
        if self.rebalance is not None:
            self.rebalance.inferred = False

    def _on_member_id_required(self, row: tuple, to: str) -> None:
        mid = row[MID]
        if mid:
            self.pending[mid] = PendingMember(row[CID] or client_id_of(mid, row[GIID]), row[HOST], row[TS])

    def _on_member_added(self, row: tuple, to: str) -> None:
        mid = row[MID]
        if not mid:
            return
        self._add_member(mid, row[TS], cid=row[CID], host=row[HOST], giid=row[GIID])
        self._signal(row[TS], "new_member", mid)

    def _on_member_left(self, row: tuple, to: str) -> None:
        mid = row[MID]
        if not mid:
            return
        if row[PENDING]:
            self.pending.pop(mid, None)
            return
        cause = "member_leave"
        reason = row[REASON]
        if (
            reason
            and classify_client_reason(reason).cause == "poll_timeout_leave"
            or self._poll_hint(mid, row[TS])
        ):
            cause = "poll_timeout_leave"
        self._hint(row[TS], mid, cause)
        self._end_session(row, mid, "poll_timeout_leave" if cause == "poll_timeout_leave" else "leave")
        self._signal(row[TS], cause, mid)

    def _on_member_session_expired(self, row: tuple, to: str) -> None:
        mid = row[MID]
        if mid:
            self._end_session(row, mid, "session_timeout")
            self._signal(row[TS], "session_timeout", mid)

    def _on_pending_member_expired(self, row: tuple, to: str) -> None:
        mid = row[MID]
        if not mid:
            return
        if self.pending.pop(mid, None) is None and mid in self.members:
            self._end_session(row, mid, "pending_expired")

    def _on_sync_expired(self, row: tuple, to: str) -> None:
        if row[UNEXP]:
            return
        removed = [m for m in (row[MEMBERS] or ()) if m]
        for mid in removed:
            self._end_session(row, mid, "sync_timeout")
        if removed:
            self._signal(row[TS], "sync_timeout", removed[0])

    def _on_members_removed_not_joined(self, row: tuple, to: str) -> None:
        for mid in row[MEMBERS] or ():
            if mid:
                self._end_session(row, mid, "not_rejoined")

    def _on_static_member_replaced(self, row: tuple, to: str) -> None:
        new, old = row[MID], row[OLDMID]
        cid = host = None
        if old and old in self.members:
            cid, host = self.members[old].client_id, self.members[old].client_host
            was_leader = self.leader == old
            self._end_session(row, old, "replaced")
            if was_leader and new:
                self.leader = new
        if new:
            self._add_member(new, row[TS], cid=row[CID] or cid, host=row[HOST] or host, giid=row[GIID])
            self._signal(row[TS], "static_member", new)

    def _on_static_member_fenced(self, row: tuple, to: str) -> None:
        mid, owner = row[MID], row[OLDMID]
        if mid and mid != owner and mid in self.members:
            self._end_session(row, mid, "fenced")

    def _on_leader_reelected(self, row: tuple, to: str) -> None:
        if row[MID]:
            self.leader = row[MID]
            if self.rebalance is not None:
                self.rebalance.leader_id = row[MID]

    def _on_member_fact_only(self, row: tuple, to: str) -> None:
        return


#: broker kind -> handler(replay, row, target state): what the line adds
BROKER_HANDLERS: dict[str, Callable[[Any, tuple, str], None]] = {
    "rebalance_prepared": BrokerEvidence._on_rebalance_prepared,
    "join_completed": BrokerEvidence._on_join_completed,
    "group_empty": BrokerEvidence._on_group_empty,
    "assignment_received": BrokerEvidence._on_assignment_received,
    "group_stable": BrokerEvidence._on_group_stable,
    "group_loaded": BrokerEvidence._on_group_loaded,
    "group_unloaded": BrokerEvidence._on_group_unloaded,
    "group_dead": BrokerEvidence._on_group_dead,
    "member_id_required": BrokerEvidence._on_member_id_required,
    "member_added": BrokerEvidence._on_member_added,
    "member_left": BrokerEvidence._on_member_left,
    "member_session_expired": BrokerEvidence._on_member_session_expired,
    "pending_member_expired": BrokerEvidence._on_pending_member_expired,
    "sync_expired": BrokerEvidence._on_sync_expired,
    "members_removed_not_joined": BrokerEvidence._on_members_removed_not_joined,
    "static_member_replaced": BrokerEvidence._on_static_member_replaced,
    "static_member_fenced": BrokerEvidence._on_static_member_fenced,
    "static_member_no_rebalance": BrokerEvidence._on_member_fact_only,
    "leader_reelected": BrokerEvidence._on_leader_reelected,
    "no_member_rejoined": BrokerEvidence._on_member_fact_only,
    "rejoin_unexpected_state": BrokerEvidence._on_member_fact_only,
}

#: broker kinds that end the open rebalance once the state change is applied (the project's
#: definition: Stable again - completed - or Empty/Dead - ended_empty)
REBALANCE_ENDS: dict[str, Callable[[Any, tuple], None]] = {
    "assignment_received": BrokerEvidence._close_assigned,
    "group_stable": BrokerEvidence._close_completed,
    "group_empty": BrokerEvidence._close_ended_empty,
    "group_dead": BrokerEvidence._close_ended_empty,
    "group_loaded": BrokerEvidence._close_if_loaded_empty,
}
