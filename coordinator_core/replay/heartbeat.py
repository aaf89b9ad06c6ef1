"""Heartbeats (DEBUG, the bulk of client logs): a known member's heartbeat refreshes its last-seen time;
an unknown member or a generation other than the model's takes the slow path."""

from __future__ import annotations

from coordinator_core.events.row import CID, GEN, MID, TS
from coordinator_core.replay.core import HINT_MAX, ReplayCore
from coordinator_core.rows import to_int


class HeartbeatEvidence(ReplayCore):
    """Heartbeat lines."""

    __slots__ = ()

    def _heartbeat(self, row: tuple) -> None:
        """A heartbeat (DEBUG, the bulk of client logs): a known member's heartbeat refreshes its
        last-seen time (no file order check, no duplicate check, ``last_ts`` untouched); when its
        generation is neither the group's nor the member's own, the slow part checks it. A bare
        "Received successful Heartbeat response" (no member, no generation) only moves ``last_ts``.
        :func:`coordinator_core.replay.fastpath.feed_rows_fast` inlines the first two cases."""
        m = self.members.get(row[MID])
        if m is not None:
            m.last_seen = row[TS]
            g = row[GEN]
            if g is None or g == self.generation or g == m.client_generation:
                return
        elif row[MID] is None and row[GEN] is None and type(row[TS]) is int:
            if self.last_ts is None or row[TS] > self.last_ts:
                self.last_ts = row[TS]
            return
        self._heartbeat_slow(row)

    def _heartbeat_slow(self, row: tuple) -> None:
        """Slow part of the heartbeat path: unknown member or a generation other than the model's."""
        mid = row[MID]
        ts = row[TS]
        if not isinstance(ts, int):
            ts = to_int(ts)
            if ts is None:
                self._anomaly(
                    row, "no_timestamp", "event without any time in its file: kept in events, not replayed"
                )
                return
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        g = to_int(row[GEN])
        m = self.members.get(mid) if mid else None
        if m is None and mid and mid in self.pending and mid not in self.departed:
            # a client heartbeats only after its JoinGroup succeeded: the pending id joined (its
            # second join was logged at DEBUG, or not at all)
            m = self._add_member(mid, ts, cid=row[CID], inferred=True, joined=False)
            if g is not None:
                m.client_generation = m.first_generation = m.last_generation = g
        if m is None and mid:
            if mid in self.departed or mid in self.pending:
                return  # a removed member keeps heartbeating until it learns it was removed
            if self.membership_known and mid not in self.warned_members:
                self.warned_members.append(mid)
                if len(self.warned_members) > HINT_MAX:
                    del self.warned_members[0]
                self._anomaly(row, "unknown_member", f"heartbeat of member {mid} the model does not know")
            m = self._add_member(mid, ts, cid=row[CID], inferred=True, joined=False)
            if g is not None and m.client_generation is None:
                m.client_generation = g
                m.first_generation = m.last_generation = g
        if (
            g is not None
            and self.generation is not None
            and g > self.generation
            and g > self.heartbeat_gap_generation
        ):
            self.heartbeat_gap_generation = g
            self._anomaly(
                row, "generation_gap", f"heartbeat with generation {g} ahead of the model's {self.generation}"
            )
