"""Paused time calibrated by the log: a rebalance that a change leaves untouched keeps the duration
that was logged for it.

A rebalance's duration depends on draws the logs cannot show: every member hears of the rebalance
at its next heartbeat, so the duration is a race between the trigger and heartbeat phases spread
over a heartbeat interval (3 s classic, 5 s consumer protocol). Re-simulated with other seeds, the
same behaviour gives durations anywhere in that spread, often in two clusters: a member that
heartbeats just after the trigger rejoins in a few milliseconds, one that heartbeats just before it
waits a whole interval. The logged run is one draw of that race, and its durations are known.

Sample *s* of a changed setting and sample *s* of the baseline share the simulator seed, so they
live the same history until the change first makes a difference: their rebalances agree in cause,
culprit consumer, protocol and start (within :data:`SAME_START_MS`). Over that common prefix the
rebalances are the same events as the baseline's, and the baseline's counterparts are matched to
the logged rebalances (nearest start within :data:`LOGGED_MATCH_MS`). Each such rebalance gets
``duration_B + (logged - duration_baseline)``: the logged draw, plus whatever the change itself
altered in it. From the first rebalance the change touches on, the heartbeat phases differ from the
logged run's, and the simulator's own durations stand. The consumer protocol shares no rebalance
with a classic log (its rebalances are epoch bumps reconciled at a 5 s heartbeat): its samples are
never calibrated by a classic baseline, and the reverse.

Pure: outcomes in, calibrated paused times out. :func:`calibrated` is one sample; the prediction
takes the mean over its samples (:mod:`jobs.whatif.predict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from coordinator_core.records import Rebalance
from jobs.whatif.resim import Outcome, SimRebalance

__all__ = ["LOGGED_MATCH_MS", "SAME_START_MS", "Calibrated", "calibrated", "logged_match", "untouched_prefix"]

#: a changed setting's rebalance is the baseline's own when it starts this close to it (same seed)
SAME_START_MS = 1_000
#: a baseline rebalance is a logged one when it starts this close to it (the inferred behaviour's
#: timing errors: a crash dated at mid heartbeat, a start one join latency before its JoinGroup)
LOGGED_MATCH_MS = 10_000


@dataclass(frozen=True, slots=True)
class Calibrated:
    """One sample's paused time and partition-time, calibrated; ``calibrated`` rebalances took
    their logged duration."""

    paused_ms: int
    paused_partition_ms: int | None
    calibrated: int


def untouched_prefix(changed: Outcome, baseline: Outcome) -> int:
    """How many of ``changed``'s first rebalances are the baseline's own (same seed): same cause,
    culprit and start, and both runs on the same protocol."""
    if changed.settings.group_protocol != baseline.settings.group_protocol:
        return 0
    n = 0
    for b, a in zip(changed.rebalances, baseline.rebalances):
        if b.cause != a.cause or b.culprit != a.culprit or abs(b.start_ts - a.start_ts) > SAME_START_MS:
            break
        n += 1
    return n


def logged_match(baseline: Sequence[SimRebalance], logged: Sequence[Rebalance]) -> dict[int, Rebalance]:
    """Baseline rebalance index -> the logged rebalance it re-enacts: in start order, each to the
    nearest unmatched logged rebalance (with a duration) within :data:`LOGGED_MATCH_MS`."""
    free = [(x.start_ts, x) for x in logged if x.start_ts is not None and x.duration_ms is not None]
    out: dict[int, Rebalance] = {}
    for i, r in enumerate(baseline):
        near = min(free, key=lambda s: abs(s[0] - r.start_ts), default=None)
        if near is not None and abs(near[0] - r.start_ts) <= LOGGED_MATCH_MS:
            out[i] = near[1]
            free.remove(near)
    return out


def calibrated(changed: Outcome, baseline: Outcome, logged: Sequence[Rebalance]) -> Calibrated:
    """``changed``'s paused time with its untouched rebalances set to their logged durations (see
    the module docstring); ``baseline`` is the baseline sample of the same seed."""
    same = untouched_prefix(changed, baseline)
    match = logged_match(baseline.rebalances[:same], logged) if same else {}
    paused, partition_ms, n = 0, 0, 0
    for i, r in enumerate(changed.rebalances):
        dur = r.duration_ms or 0
        ppm = r.paused_partition_ms
        if i in match:
            logged_ms = match[i].duration_ms or 0  # (never None: logged_match keeps timed ones)
            new = max(0, dur + logged_ms - (baseline.rebalances[i].duration_ms or 0))
            ppm = None if ppm is None else (round(ppm * new / dur) if dur else ppm)
            dur, n = new, n + 1
        paused += dur
        partition_ms += ppm or 0
    return Calibrated(paused, partition_ms if changed.paused_partition_ms is not None else None, n)
