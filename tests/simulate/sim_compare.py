"""Compare a replay's rebalances with the simulator's ground truth (shared by the round-trip tests)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any


def load_truth(out: str, name: str = "rebalances") -> list[dict[str, Any]]:
    with open(os.path.join(out, "truth", f"{name}.jsonl"), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


@dataclass
class Diff:
    matched: int = 0
    missing: list[tuple] = field(default_factory=list)  # in truth, not replayed
    extra: list[tuple] = field(default_factory=list)  # replayed, not in truth
    wrong: list[tuple] = field(default_factory=list)  # same rebalance, different fields

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.wrong)

    def __str__(self) -> str:
        return (
            f"matched={self.matched} missing={self.missing[:5]} extra={self.extra[:5]} wrong={self.wrong[:5]}"
        )


def compare_rebalances(truth: list[dict[str, Any]], replayed: dict[str, list[Any]]) -> Diff:
    """Key: (group, old_generation). Fields: new_generation, outcome, cause, culprit member id."""
    d = Diff()
    t_by = {(t["group_id"], t["old_generation"]): t for t in truth}
    r_by = {}
    for g, rebs in replayed.items():
        for r in rebs:
            r_by[(g, r.old_generation)] = r
    for key, t in sorted(t_by.items(), key=lambda kv: (kv[0][0], kv[0][1] or -1)):
        r = r_by.get(key)
        if r is None:
            d.missing.append((key, t["cause"]))
            continue
        got = (r.new_generation, r.outcome, r.cause, r.culprit_member_id)
        want = (t["new_generation"], t["outcome"], t["cause"], t["culprit_member_id"])
        if got != want:
            d.wrong.append((key, want, got))
        else:
            d.matched += 1
    for key, r in r_by.items():
        if key not in t_by:
            d.extra.append((key, r.cause, r.outcome))
    return d
