"""What a replay takes and gives: its settings, its output, and the positions and readers of the
flat event rows it is fed (:data:`~coordinator_core.events.EVENT_FIELDS` order)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# the row accessor (defined once beside the events), re-exported for the replay's modules
from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition

E, PR, CR, S, D = "Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"

HEARTBEAT = "heartbeat_sent"


@dataclass(frozen=True)
class ReplaySettings:
    """Knobs of the replay (not part of snapshots: pass them again to :meth:`GroupReplay.resume`).

    * ``version_hint`` — broker version of the logs when known ("0.10.0", "2.0", "3.9" ...); used
      where evidence is version dependent (a new group starts Stable before 0.10.1, Empty after).
    * ``clock_skew_tolerance_ms`` — how far a client line may run ahead of the broker line it
      contradicts before a ``clock_skew`` anomaly is recorded.
    * ``signal_window_ms`` — how far back a member fact (left, expired, added, client leave / poll
      timeout) explains a rebalance line that carries no reason (2.0-style logs).
    * ``coordinator_move_window_ms`` — a rebalance starting this soon after ``group_loaded`` without
      a departure/arrival reason is attributed to the coordinator move.
    * ``emit_skew`` — emit ``partition_skew`` rows whenever a generation's assignment is known.
    * ``track_generations`` — keep per-generation membership/assignments (used by what-if).
    * ``source_file_memory_ms`` — per-source-file order state older than this is dropped from
      snapshots.

    The fields whose metadata says ``{"config": False}`` are set by the caller (the job, what-if),
    not by a user: they are not keys of the job's ``replay`` configuration section.
    """

    version_hint: str | None = None
    clock_skew_tolerance_ms: int = 2000
    signal_window_ms: int = 3000
    coordinator_move_window_ms: int = 60000
    emit_skew: bool = field(default=True, metadata={"config": False})
    track_generations: bool = field(default=False, metadata={"config": False})
    source_file_memory_ms: int = 7 * 86_400_000


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


def to_int(v: Any) -> int | None:
    if v is None:
        return None
    try:
        if v != v:  # NaN from pandas
            return None
        return int(v)
    except (TypeError, ValueError):
        return None


def split_partition(tp: Any) -> tuple[str, int] | None:
    """``"topic-3"`` (or a (topic, partition) pair) as ``("topic", 3)``; None when unreadable."""
    if type(tp) is str:
        topic, sep, p = tp.rpartition("-")
        if sep and topic and p.isascii() and p.isdigit():
            return topic, int(p)
        return None
    if isinstance(tp, (tuple, list)) and len(tp) == 2:
        p = to_int(tp[1])
        return (str(tp[0]), p) if p is not None else None
    return None


def assignment_map(v: Any) -> dict[str, list[Any]]:
    """The leader's assignment as {member: [partition strings]} from a tuple of pairs, a dict or an
    Arrow map (list of (key, value) pairs)."""
    if v is None:
        return {}
    items = v.items() if isinstance(v, Mapping) else v
    out: dict[str, list[Any]] = {}
    for item in items:
        try:
            m, parts = item
        except (TypeError, ValueError):
            continue
        out[str(m)] = list(parts) if parts is not None else []
    return out
