"""What an evidence replay gives back on each flush (:class:`ReplayOutput`), shared by the classic and
the consumer-protocol replays and the per-group history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition

__all__ = ["ReplayOutput"]


@dataclass
class ReplayOutput:
    """Records produced by a replay since the previous flush."""

    transitions: list[Transition] = field(default_factory=list)
    rebalances: list[Rebalance] = field(default_factory=list)
    sessions: list[MemberSession] = field(default_factory=list)
    assignments: list[AssignmentRow] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    #: partition_skew rows (dicts, columns of jobs.schemas.PARTITION_SKEW minus cluster)
    skew: list[dict[str, Any]] = field(default_factory=list)

    def extend(self, other: ReplayOutput) -> None:
        self.transitions += other.transitions
        self.rebalances += other.rebalances
        self.sessions += other.sessions
        self.assignments += other.assignments
        self.anomalies += other.anomalies
        self.skew += other.skew
