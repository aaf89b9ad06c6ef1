"""Client-only reconstruction: a group with no broker evidence at all is rebuilt from its consumers'
lines (``inferred``). A rebalance starts at the first rejoin/join/revoke/leave/poll-timeout/
heartbeat-REBALANCE_IN_PROGRESS signal while Stable or Empty, a join round completes at "Successfully
joined ... generationId=N", and the rebalance ends at the first sync / leader assignment / assignment
notification of that generation; members that never rejoined expired. Every state change is a fact
of the inferred transition table (:mod:`.inferred`), applied by ``_apply``.
"""

from __future__ import annotations

from typing import Any

from coordinator_core.causes import CauseInfo
from coordinator_core.events.row import CID, GEN, KIND, NFIELDS, PROTO, SF, TS
from coordinator_core.replay.heartbeat import HeartbeatEvidence
from coordinator_core.replay.model import CR, PR, E, OpenRebalance, S
from coordinator_core.rows import to_int

#: client kinds that start another join round of a client-inferred rebalance
_CLIENT_ROUND = frozenset({"rejoin_requested", "join_sent", "leave_sent", "poll_timeout"})
#: client kinds that state a member got its new assignment (after its SyncGroup succeeded)
_ASSIGNED = frozenset({"synced", "partitions_assigned", "assignment_notified"})


class ClientOnlyEvidence(HeartbeatEvidence):
    """The client-only reconstruction steps the client handlers (:mod:`.client`) call."""

    __slots__ = ()

    def _client_only_trigger(
        self, row: tuple, info: CauseInfo, mid: str | None, weak: bool, leaving: bool
    ) -> None:
        """Client-only reconstruction: a trigger starts a rebalance while Stable or Empty (or a new
        join round while CompletingRebalance); a leave ends the member's session."""
        kind, ts, cid = row[KIND], row[TS], row[CID]
        r = self.rebalance
        lc = self.last_completion
        if (
            r is None
            and lc is not None
            and self.state == S
            and mid in self.members
            and self.members[mid].client_generation is not None
            and self.members[mid].client_generation < lc[1]
            and ts - lc[0] <= self.settings.clock_skew_tolerance_ms
            and kind not in ("leave_sent", "poll_timeout")
        ):
            return  # a straggler of the rebalance that just completed (its clock or logging lags)
        if r is None:
            if self._can("rebalance_signal") and not (kind == "heartbeat_failed" and self.state == E):
                self._expire_unseen()
                r = self._start_rebalance(ts, self.generation, start_unknown=False, inferred=True)
                self._client_cause(r, info, cid, weak, row[SF])
                self._apply(row, "rebalance_signal")
        else:
            if (
                (r.cause == "unknown" or (r.weak_cause and not weak))
                and not info.follow
                and info.cause != "unknown"
            ):
                self._client_cause(r, info, cid, weak, row[SF])
            if self._can("join_round") and kind in _CLIENT_ROUND and self._rejoins_current(kind, mid):
                self._apply(row, "join_round")
        if leaving and mid and mid in self.members:
            end = {"poll_timeout_leave": "poll_timeout_leave", "member_leave": "leave"}.get(
                info.cause, "session_timeout"
            )
            self._end_session(row, mid, end, inferred=True)
            if not self.members and self._can("last_member_left") and self.rebalance is not None:
                self.generation = (self.generation + 1) if self.generation is not None else None
                self.rebalance.join_rounds += 1
                self._apply(row, "last_member_left")
                self._close_rebalance(row, "ended_empty", 0)

    def _client_cause(
        self, r: OpenRebalance, info: CauseInfo, cid: str | None, weak: bool = False, sf: str | None = None
    ) -> None:
        """Set a client-inferred rebalance's cause. ``weak`` causes (a member learning from an
        UNKNOWN_MEMBER_ID error that it was removed - possibly long before) give way to a later
        decisive signal, e.g. the same consumer rejoining as a new member."""
        if info.cause == "metadata_change" and info.member_id and info.member_id == self.leader:
            info = CauseInfo("leader_rejoin", info.member_id, client_reason=info.client_reason)
        if info.follow or info.cause == "unknown":
            sig = self.signal
            if (
                sig is not None
                and r.start_ts is not None
                and r.start_ts - sig.ts <= self.settings.signal_window_ms
            ):
                self._set_cause(r, sig.cause, sig.member_id)
            r.follows_signal = True
            return
        mid = info.member_id
        self._set_cause(
            r, info.cause, mid, cid=cid if not mid or mid == self.member_by_client.get(cid or "") else None
        )
        r.reason = info.client_reason
        r.weak_cause = weak
        r.culprit_file = sf  # the culprit consumer's log file (its member id may come later)

    def _client_only_join(self, row: tuple, g: int) -> None:
        """Client-only: "Successfully joined ... generationId=N" completes a join round."""
        st = self.state
        if st == PR or (st == CR and self.generation is not None and g > self.generation):
            r = self.rebalance or self._rebalance_without_start(row, self.generation, inferred=True)
            if self.generation is not None and g > self.generation + 1:
                self._anomaly(
                    row,
                    "generation_gap",
                    f"client joined generation {g}, model expected {self.generation + 1}",
                )
            if self.generation is None or g > self.generation:
                self.generation = g
                r.join_rounds += 1
                r.new_generation = g
                self._apply(row, "joined")
        elif self._can("joined_unseen_start") and (self.generation is None or g > self.generation):
            self._expire_unseen()
            r = self._rebalance_without_start(row, self.generation, inferred=True)
            if self.generation is not None and g > self.generation + 1:
                self._anomaly(
                    row,
                    "generation_gap",
                    f"client joined generation {g}, model expected {self.generation + 1}",
                )
            self.generation = g
            r.join_rounds = 1
            r.new_generation = g
            r.protocol = row[PROTO] or self.protocol
            self._apply(row, "joined_unseen_start")

    def _rejoins_current(self, kind: str, mid: str | None) -> bool:
        """Client-only, CompletingRebalance: does this line start another join round? A leave does;
        a (re)join only from a member already in the new generation (its own "Successfully
        joined" was logged) - other members' joins belong to the round that is completing (client
        clocks and log timing put them on either side of the others' "joined" lines)."""
        if kind in ("leave_sent", "poll_timeout"):
            return True
        m = self.members.get(mid) if mid else None
        return m is not None and m.client_generation == self.generation

    def _client_only_end(self, row: tuple, mid: str | None) -> None:
        """Client-only: a successful sync (or an assignment) of the generation the open rebalance
        produced means the group reached Stable: Kafka answers SyncGroup only once the leader's
        assignment is stored."""
        r = self.rebalance
        if self.broker_seen or r is None or not self._can("synced"):
            return
        g = to_int(row[GEN])
        if g is None and mid and mid in self.members:
            g = self.members[mid].client_generation
        if r.new_generation is None:
            if not self._assigned_without_join(row, r, g):
                return
            if g is not None:
                self.generation = r.new_generation = g
        elif g is None or g != self.generation or g != r.new_generation:
            return
        self._apply(row, "synced")
        current = self.assignment
        after = (
            len(current.leader_map)
            if current and current.leader_map is not None and current.generation == self.generation
            else None
        )
        if after is None:
            after = sum(1 for m in self.members.values() if m.client_generation == self.generation) or len(
                self.members
            )
        self._close_rebalance(row, "completed", after)

    def _assigned_without_join(self, row: tuple, r: OpenRebalance, g: int | None) -> bool:
        """Client-only, no join line in the whole rebalance (logs that hold only the partition
        callbacks - an application's own, a framework's ``partitions assigned`` - or a sync line
        without a generation, kafkajs' ``Consumer has joined the group``): a member's new assignment
        ends it, as Kafka's consumer calls ``onPartitionsAssigned`` only after its SyncGroup
        succeeded. An assignment of the generation the group already had is not new."""
        if r.join_rounds or row[KIND] not in _ASSIGNED:
            return False
        return g is None or self.generation is None or g > self.generation

    def _expire_unseen(self) -> None:
        """Client-only: the last completed rebalance produced generation ``g``; a member that neither
        joined ``g`` nor logged anything since that rebalance began (nor left) was removed by the
        coordinator when its session expired (a killed or frozen process): its session ends at the
        rebalance's start, and it is the cause of that rebalance if it has none. Decided when the
        next rebalance begins or the logs end - not at the end itself, where a member whose clock
        lags may still log its join. (Members in a leader's map are judged by the map:
        :meth:`_on_leader_assigned`.) A rebalance whose lines name no generation (the members' new
        assignments alone) judges by what the members logged since it began."""
        r = self.last_rebalance
        if self.broker_seen or r is None or r.outcome != "completed":
            return
        start = r.start_ts if r.start_ts is not None else r.end_ts
        if start is None:
            return
        gen = r.new_generation
        gone = [
            mid
            for mid, m in self.members.items()
            if (gen is None or (m.client_generation if m.client_generation is not None else -1) < gen)
            and (m.last_seen if m.last_seen is not None else -1) < start
        ]
        if not gone:
            return
        if r.cause == "unknown":
            self._set_cause(r, "session_timeout", gone[0])
            self._reemit_rebalance(r)
        row: list[Any] = [None] * NFIELDS
        row[TS], row[KIND] = start, "member_session_expired"
        for mid in gone:
            self._end_session(tuple(row), mid, "session_timeout", inferred=True)
