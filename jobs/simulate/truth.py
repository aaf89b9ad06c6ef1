"""Ground truth written beside the simulated logs (``truth/*.jsonl``).

Rebalances follow the project's definition: a rebalance starts when the group enters
PreparingRebalance from Stable or Empty and ends when it is Stable again (outcome ``completed``) or
Empty (``ended_empty``); join rounds interrupted by a new PreparingRebalance belong to the same
rebalance. The cause and culprit are the ones the simulator injected (the action that made the
coordinator prepare the rebalance), never parsed back from log text. Times are the coordinator
broker's log timestamps (event time plus that broker's clock skew), i.e. what a replay sees.
"""

from __future__ import annotations

import json
import os
from typing import Any


class TruthRecorder:
    """Streams rebalances, assignments, storms and coordinator moves to ``<out>/truth``."""

    NAMES = ("rebalances", "assignments", "storms", "coordinator_moves")

    def __init__(self, out: str | None, keep: bool = False) -> None:
        """``out=None`` writes no files; ``out=None`` or ``keep`` keeps the records in memory
        (:attr:`records`)."""
        self.dir = os.path.join(out, "truth") if out is not None else None
        #: name -> records, when kept in memory
        self.records: dict[str, list[dict[str, Any]]] | None = None
        if self.dir is None or keep:
            self.records = {name: [] for name in self.NAMES}
        self._files = {}
        if self.dir is not None:
            os.makedirs(self.dir, exist_ok=True)
            self._files = {
                name: open(os.path.join(self.dir, f"{name}.jsonl"), "w", encoding="utf-8")  # noqa: SIM115
                for name in self.NAMES
            }
        self.open: dict[str, dict[str, Any]] = {}
        self.counts = dict.fromkeys(self.NAMES, 0)
        #: group -> active storm episode (scenario tag) collecting rebalances
        self.episodes: dict[str, dict[str, Any]] = {}

    def write_record(self, name: str, rec: dict[str, Any]) -> None:
        """Write a record built elsewhere (consumer-protocol rebalances: jobs.simulate.consumer_truth)."""
        self._write(name, rec)

    def _write(self, name: str, rec: dict[str, Any]) -> None:
        if self.records is not None:
            self.records[name].append(rec)
        if self._files:
            self._files[name].write(json.dumps(rec, sort_keys=True) + "\n")
        self.counts[name] += 1

    # ---------------------------------------------------------------- rebalances
    def prepared(
        self,
        group: str,
        ts: int,
        old_generation: int,
        cause: str,
        culprit: str | None,
        coordinator: int,
        reason: str | None,
        scenario: str | None,
    ) -> None:
        rec = self.open.get(group)
        if rec is not None:
            rec["join_rounds"] += 1
            return
        rec = {
            "group_id": group, "start_ms": ts, "end_ms": None, "old_generation": old_generation,
            "new_generation": None, "cause": cause, "culprit_member_id": culprit, "join_rounds": 1,
            "outcome": "open", "coordinator": coordinator, "reason": reason, "scenario": scenario,
        }  # fmt: skip
        self.open[group] = rec
        ep = self.episodes.get(group)
        if ep is not None:
            ep["rebalances"] += 1
            ep["causes"][cause] = ep["causes"].get(cause, 0) + 1
            if culprit:
                ep["culprits"].append(culprit)
            ep["last_ms"] = ts

    def join_completed(self, group: str, generation: int) -> None:
        rec = self.open.get(group)
        if rec is not None:
            rec["new_generation"] = generation

    def ended(self, group: str, ts: int, generation: int, outcome: str) -> None:
        rec = self.open.pop(group, None)
        if rec is None:
            return
        rec["end_ms"] = ts
        rec["new_generation"] = generation
        rec["outcome"] = outcome
        rec["duration_ms"] = ts - rec["start_ms"]
        self._write("rebalances", rec)
        ep = self.episodes.get(group)
        if ep is not None:
            ep["last_ms"] = max(ep["last_ms"], ts)

    def is_open(self, group: str) -> bool:
        return group in self.open

    # ---------------------------------------------------------------- assignments
    def assignment(
        self,
        group: str,
        generation: int,
        ts: int,
        protocol: str,
        leader: str,
        assignment: dict[str, list[str]],
    ) -> None:
        self._write("assignments", {
            "group_id": group, "generation": generation, "ts_ms": ts, "protocol": protocol,
            "leader_id": leader, "assignment": assignment,
        })  # fmt: skip

    # ---------------------------------------------------------------- storms
    def begin_episode(self, group: str, kind: str, ts: int) -> None:
        self.episodes[group] = {
            "group_id": group, "kind": kind, "start_ms": ts, "last_ms": ts, "rebalances": 0,
            "causes": {}, "culprits": [],
        }  # fmt: skip

    def end_episode(self, group: str) -> None:
        ep = self.episodes.pop(group, None)
        if ep is None or ep["rebalances"] == 0:
            return
        causes = ep.pop("causes")
        dominant = sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        ep["end_ms"] = ep.pop("last_ms")
        ep.pop("done_after", None)
        ep["dominant_cause"] = dominant
        ep["culprit_members"] = sorted(set(ep.pop("culprits")))
        self._write("storms", ep)

    def coordinator_move(self, rec: dict[str, Any]) -> None:
        self._write("coordinator_moves", rec)

    def close(self) -> None:
        for group in list(self.episodes):
            self.end_episode(group)
        for rec in self.open.values():
            self._write("rebalances", {**rec, "duration_ms": None})
        self.open.clear()
        for fh in self._files.values():
            fh.close()
