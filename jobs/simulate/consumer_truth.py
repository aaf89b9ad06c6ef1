"""Ground truth of consumer-protocol rebalances, built from the core coordinator's log entries
(:class:`~coordinator_core.consumer.protocol.ConsumerLog`) as they happen.

A rebalance (the project's definition for KIP-848 groups) starts at a group-epoch bump and ends
when every present member (not away with epoch -2) has reached that epoch in state STABLE; a bump
while members are still reconciling extends it (``join_rounds`` counts the bumps merged,
``round_causes`` lists each bump's cause). ``old_generation`` / ``new_generation`` are group
epochs. Cause and culprit are those of the first bump. ``partitions_revoked`` /
``partitions_assigned`` count distinct partitions taken from / newly given to a member (a departing
member's partitions count as revoked); ``paused_partition_ms`` sums, per revoked partition, the time
from its revocation until some member is assigned it (or the rebalance end). Times are the
coordinator broker's log timestamps. Records go to the same ``truth/rebalances.jsonl`` as the
classic groups', with ``protocol_type: "consumer"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jobs.simulate.consumer_core import tps

if TYPE_CHECKING:
    from coordinator_core.consumer.protocol import ConsumerLog
    from jobs.simulate.consumer_core import GroupModel
    from jobs.simulate.truth import TruthRecorder

_DEPARTURES = ("left", "static_left", "fenced_session", "fenced_rebalance")


class ConsumerTruth:
    """Tracks one consumer group's open rebalance; writes closed ones through the recorder."""

    __slots__ = ("group_id", "recorder", "open", "owned", "revoked_at", "_released", "scenario")

    def __init__(self, group_id: str, recorder: TruthRecorder) -> None:
        self.group_id = group_id
        self.recorder = recorder
        self.open: dict[str, Any] | None = None
        #: member id -> partitions the coordinator last gave it
        self.owned: dict[str, set[str]] = {}
        self.revoked_at: dict[str, int] = {}
        self._released: list[tuple[int, tuple[str, ...]]] = []
        self.scenario: str | None = None

    def is_open(self) -> bool:
        return self.open is not None

    def on_fact(self, f: ConsumerLog, ts: int, coordinator: int, present: int) -> None:
        """One log entry at broker time ``ts``; ``present`` = members that must reconcile after it."""
        k = f.kind
        if k in _DEPARTURES:
            self.owned.pop(f.member_id or "", None)
            self._released.append((ts, tuple(sorted(set(tps(f.assigned)) | set(tps(f.revoked))))))
            if self.open is not None:
                self._release()
        elif k == "static_replaced":
            self.owned[f.member_id or ""] = self.owned.pop(f.old_member_id or "", set())
        elif k == "bumped":
            self._bumped(f, ts, coordinator, present)
        elif k == "assignment_state":
            self._assignment(f, ts)

    def _bumped(self, f: ConsumerLog, ts: int, coordinator: int, present: int) -> None:
        rec = self.open
        if rec is not None:
            rec["join_rounds"] += 1
            rec["new_generation"] = f.epoch
            rec["round_causes"].append(f.cause)
            return
        if present == 0:
            self._released.clear()
            return
        self.open = {
            "group_id": self.group_id, "start_ms": ts, "end_ms": None, "old_generation": (f.epoch or 0) - 1,
            "new_generation": f.epoch, "cause": f.cause, "culprit_member_id": f.member_id, "join_rounds": 1,
            "round_causes": [f.cause], "outcome": "open", "coordinator": coordinator, "reason": None,
            "scenario": self.scenario, "protocol_type": "consumer", "partitions_revoked": 0,
            "partitions_assigned": 0, "paused_partition_ms": 0, "_revoked": set(), "_assigned": set(),
        }  # fmt: skip
        self._release()

    def _release(self) -> None:
        rec = self.open
        assert rec is not None
        for ts, released in self._released:
            for p in released:
                rec["_revoked"].add(p)
                self.revoked_at.setdefault(p, ts)
        self._released.clear()

    def _assignment(self, f: ConsumerLog, ts: int) -> None:
        mid = f.member_id or ""
        before = self.owned.get(mid, set())
        now = set(tps(f.assigned))
        self.owned[mid] = now
        rec = self.open
        for p in tps(f.revoked):
            if rec is not None:
                rec["_revoked"].add(p)
            self.revoked_at.setdefault(p, ts)
        for p in now - before:
            if rec is not None:
                rec["_assigned"].add(p)
                t0 = self.revoked_at.pop(p, None)
                if t0 is not None:
                    rec["paused_partition_ms"] += ts - t0
            else:
                self.revoked_at.pop(p, None)

    def check_end(self, ts: int, model: GroupModel) -> None:
        """Close the open rebalance when every present member reached the group epoch."""
        rec = self.open
        if rec is None:
            return
        present = model.present()
        if present and not model.reconciled():
            return
        rec["end_ms"] = ts
        rec["new_generation"] = model.group_epoch
        rec["outcome"] = "completed" if present else "ended_empty"
        rec["duration_ms"] = ts - rec["start_ms"]
        for p in rec["_revoked"]:
            t0 = self.revoked_at.pop(p, None)
            if t0 is not None:
                rec["paused_partition_ms"] += ts - t0
        self._write(rec)
        self.open = None

    def _write(self, rec: dict[str, Any]) -> None:
        rec["partitions_revoked"] = len(rec.pop("_revoked"))
        rec["partitions_assigned"] = len(rec.pop("_assigned"))
        self.recorder.write_record("rebalances", rec)

    def close(self) -> None:
        """End of the run: a rebalance still open is written with outcome ``open``."""
        if self.open is not None:
            self.open["duration_ms"] = None
            self._write(self.open)
            self.open = None
