"""Advice for a storm: the setting changes ranked by the paused time they would have saved, each
with the accuracy measured for that kind of change (``jobs/whatif/accuracy.json``, written by
``python -m benchmarks.bench_whatif --publish``), so a strong recommendation reads differently from
a weak one.

The changes are relative to the settings in force: a session timeout twice as long (at least
90 s), a ``max.poll.interval.ms`` twice as long, static membership for every consumer, the
cooperative-sticky assignor, the consumer protocol (KIP-848). Each is re-simulated from the
storm's evidence (:func:`jobs.whatif.predict.baseline_and_predictions`); the baseline is the same
behaviour re-simulated under the settings in force, so *saved* compares like with like.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from coordinator_core.behaviour import GroupSettings
from coordinator_core.events import Event
from coordinator_core.replay import ReplaySettings
from jobs.whatif.predict import baseline_and_predictions, logged_settings, replay_group

__all__ = ["ADVICE_COLUMNS", "Advice", "advise", "candidate_changes", "connect_group", "measured_accuracy"]

#: the protocols a Kafka Connect worker group selects (ConnectProtocolCompatibility): its members
#: share connectors and tasks, not partitions, which the re-simulation does not model
CONNECT_PROTOCOLS = frozenset({"default", "compatible", "sessioned"})
ACCURACY_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "accuracy.json")
ADVICE_COLUMNS = [
    "change", "setting", "rebalances_logged", "rebalances_before", "rebalances_after", "paused_ms_saved",
    "paused_ms_saved_low", "paused_ms_saved_high", "paused_partition_ms_saved", "moved_partitions_after", "exact_pct",
    "paused_within_10pct", "paused_in_range_pct", "strength", "note",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Advice:
    change: str
    setting: str
    #: the logged rebalances in the window; ``rebalances_before`` (the re-simulated baseline) should match
    rebalances_logged: int
    rebalances_before: int
    rebalances_after: int
    paused_ms_saved: int
    #: the least and most paused time saved over the samples (each sample against the baseline
    #: sample of the same seed): the spread of the heartbeat-phase race
    paused_ms_saved_low: int
    paused_ms_saved_high: int
    paused_partition_ms_saved: int | None
    moved_partitions_after: int | None
    exact_pct: float | None
    paused_within_10pct: float | None
    #: measured: how often the true paused time fell inside the predicted range
    paused_in_range_pct: float | None
    strength: str
    #: one sentence: why a change is ``unverified``, or what its figures mean when they pull apart
    note: str = ""


def candidate_changes(base: GroupSettings) -> dict[str, tuple[str, dict[str, Any]]]:
    """name -> (the setting as a person writes it, the change), for the settings in force."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    session = max(2 * base.session_timeout_ms, 90_000)
    if base.group_protocol == "classic":
        out["longer_session"] = (f"session.timeout.ms={session}", {"session_timeout_ms": session})
        poll = 2 * base.max_poll_interval_ms
        out["longer_poll_interval"] = (f"max.poll.interval.ms={poll}", {"max_poll_interval_ms": poll})
        if "*" not in base.static_consumers:
            out["static_membership"] = ("group.instance.id on every consumer", {"static_consumers": frozenset({"*"})})
        if base.assignor != "cooperative-sticky":
            out["cooperative_sticky"] = (
                "partition.assignment.strategy=cooperative-sticky", {"assignor": "cooperative-sticky"}
            )
        out["consumer_protocol"] = ("group.protocol=consumer (KIP-848)", {"group_protocol": "consumer"})
    else:
        poll = 2 * base.max_poll_interval_ms
        out["longer_poll_interval"] = (f"max.poll.interval.ms={poll}", {"max_poll_interval_ms": poll})
        out["static_membership"] = ("group.instance.id on every consumer", {"static_consumers": frozenset({"*"})})
    return out


def connect_group(events: Iterable[Event]) -> bool:
    """The evidence is a Kafka Connect worker group's: a Connect worker's line, or a Connect
    protocol selected."""
    return any(e.side_of() == "connect" or getattr(e, "protocol", None) in CONNECT_PROTOCOLS for e in events)


def measured_accuracy(path: str = ACCURACY_FILE) -> dict[str, dict[str, Any]]:
    """change -> its row of the published accuracy table (empty when none is published)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return {r["change"]: r for r in data.get("by_change", [])}


def strength(
    exact_pct: float | None, paused_within_10pct: float | None, saved_ms: int | None, baseline_off: bool = False
) -> str:
    """``unverified`` when the re-simulated baseline misses the logged rebalances by more than one
    (the evidence does not show what the consumers did: e.g. broker lines without member ids) —
    whatever the change would save, since nothing then says the re-simulation is right; else ``no
    effect`` when nothing would be saved; else ``strong`` (measured ≥ 95 % exact and ≥ 80 % of paused
    times within 10 %), ``fair`` (≥ 80 % exact), ``weak``."""
    if baseline_off:
        return "unverified"
    if saved_ms is None or saved_ms <= 0:
        return "no effect"
    if exact_pct is None:
        return "unmeasured"
    if exact_pct >= 95 and (paused_within_10pct or 0) >= 80:
        return "strong"
    return "fair" if exact_pct >= 80 else "weak"


def advise(
    group_id: str,
    events: Iterable[Event],
    *,
    given: Mapping[str, Any] | None = None,
    window: tuple[int, int] | None = None,
    samples: int = 3,
    accuracy: Mapping[str, Mapping[str, Any]] | None = None,
    settings: ReplaySettings | None = None,
) -> list[Advice]:
    """The candidate changes for one group's evidence (replayed under the job's ``settings``),
    ranked by partition-time saved, then paused time saved (most first); none for a Kafka Connect
    worker group (:func:`connect_group`)."""
    events = list(events)
    if connect_group(events):
        return []
    replay = replay_group(group_id, events, settings)
    base = logged_settings(replay, given)
    times = [e.ts for e in events if e.ts is not None]
    lo, hi = window if window is not None else (min(times, default=0), max(times, default=0))
    logged = sum(1 for r in replay.rebalances if r.start_ts is not None and lo <= r.start_ts <= hi)
    cands = candidate_changes(base)
    _, rows = baseline_and_predictions(
        group_id, events, {n: c for n, (_, c) in cands.items()}, given=given, window=window, samples=samples,
        replay=replay,
    )
    acc = measured_accuracy() if accuracy is None else accuracy
    b = rows[0]
    off = abs(b.rebalances - logged) > 1
    why = baseline_note(logged, b.rebalances) if off else ""
    out = []
    for p in rows[1:]:
        m = acc.get(p.scenario, {})  # the accuracy benchmark measures the same change names
        saved = b.paused_ms - p.paused_ms
        per_seed = [x - y for x, y in zip(b.paused_samples, p.paused_samples, strict=True)] or [saved]
        ppm = (b.paused_partition_ms - p.paused_partition_ms
               if b.paused_partition_ms is not None and p.paused_partition_ms is not None else None)  # fmt: skip
        out.append(Advice(
            p.scenario, cands[p.scenario][0], logged, b.rebalances, p.rebalances, saved, min(per_seed),
            max(per_seed), ppm, p.moved_partitions, m.get("exact_pct"), m.get("paused_within_10pct"),
            m.get("paused_in_range_pct"),
            strength(m.get("exact_pct"), m.get("paused_within_10pct"), ppm if ppm is not None else saved, off),
            why or change_note(b.rebalances, p.rebalances, saved, ppm),
        ))  # fmt: skip
    if off:  # no ranking: the re-simulation did not reproduce the log, so its figures rank nothing
        return sorted(out, key=lambda a: list(cands).index(a.change))
    # partition-time is what stops (an eager rebalance stops every partition, a cooperative or
    # KIP-848 one only the moved ones): rank by it, then by group paused time
    out.sort(key=lambda a: (-(a.paused_partition_ms_saved or 0), -a.paused_ms_saved, a.change))
    return out


def baseline_note(logged: int, baseline: int) -> str:
    """Why every change of a storm is ``unverified``."""
    return (f"not verified: re-simulated under today's settings the consumers give {baseline} rebalances where "
            f"the log shows {logged}, so the logs do not show enough of what the consumers did "
            "(e.g. no member ids, or client lines missing)")  # fmt: skip


def change_note(before: int, after: int, saved_ms: int, saved_partition_ms: int | None) -> str:
    """What a change's figures mean when they pull apart (more rebalances but less partition-time)."""
    if saved_partition_ms is not None and saved_partition_ms > 0 and (after > before or saved_ms < 0):
        return ("more or longer rebalances, but each stops only the partitions that move: "
                "less partition-time paused")  # fmt: skip
    if after == before and saved_ms == 0 and not saved_partition_ms:
        return "the same rebalances as today"
    return ""
