"""The knobs of an evidence replay (:class:`ReplaySettings`), shared by the classic and the
consumer-protocol replays and the per-group history."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ReplaySettings"]


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
