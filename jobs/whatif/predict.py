"""What-if by re-simulation, from one group's logged evidence to predictions under other settings.

1. replay the evidence (:class:`coordinator_core.history.GroupHistory`, both protocols);
2. read the settings that were in force (:func:`logged_settings`: static members, assignor and
   protocol from the evidence; timeouts from the caller, else Kafka's defaults);
3. infer what each consumer did (:func:`coordinator_core.behaviour.infer_behaviour`);
4. re-simulate that behaviour under the logged settings (the *baseline*, which must reproduce the
   logged rebalances) and under each changed setting (:func:`jobs.whatif.resim.resimulate`), each
   over the same simulator seeds;
5. calibrate the paused time by the log: a rebalance the change leaves untouched keeps its logged
   duration (:mod:`jobs.whatif.calibrate`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from coordinator_core.assignors import STRATEGIES
from coordinator_core.behaviour import GroupBehaviour, GroupSettings, consumer_key, infer_behaviour
from coordinator_core.events import Event
from coordinator_core.history import GroupHistory
from coordinator_core.records import Rebalance
from coordinator_core.replay import ReplayOutput, ReplaySettings
from jobs.whatif.calibrate import calibrated
from jobs.whatif.resim import Outcome, resimulate

__all__ = [
    "Prediction", "baseline_and_predictions", "logged_rebalances", "logged_settings", "predict", "replay_group",
    "runs", "summarise", "SETTING_NAMES",
]  # fmt: skip

SETTING_NAMES = tuple(f.name for f in fields(GroupSettings))


@dataclass(frozen=True, slots=True)
class Prediction:
    """One setting's predicted outcome over ``samples`` re-simulations (different seeds: the
    heartbeat phases, network delays... differ): the most frequent rebalance count, the mean
    paused time, partition-time and moved partitions, and the rebalances of the first sample.
    ``paused_samples``: each sample's paused time (calibrated like the mean), in seed order: their
    spread is the heartbeat-phase race no log can settle (:attr:`paused_range`).
    ``calibrated``: how many rebalances (over all samples) took their logged duration."""

    scenario: str
    settings: GroupSettings
    rebalances: int
    paused_ms: int
    paused_partition_ms: int | None
    moved_partitions: int | None
    samples: int = 1
    first: Outcome | None = None
    calibrated: int = 0
    paused_samples: tuple[int, ...] = ()

    @property
    def paused_range(self) -> tuple[int, int]:
        """The lowest and highest paused time over the samples."""
        vs = self.paused_samples or (self.paused_ms,)
        return min(vs), max(vs)


def runs(b: GroupBehaviour, settings: GroupSettings, *, seed: int = 1, samples: int = 1) -> list[Outcome]:
    """``b`` re-simulated under ``settings`` ``samples`` times (seeds ``seed``, ``seed + 1``...)."""
    return [resimulate(b, settings, seed=seed + i) for i in range(max(1, samples))]


def predict(b: GroupBehaviour, name: str, settings: GroupSettings, *, seed: int = 1, samples: int = 1) -> Prediction:
    """The simulator's own prediction (no log to calibrate by): :func:`runs` summarised."""
    return summarise(name, runs(b, settings, seed=seed, samples=samples))


def summarise(
    name: str, outcomes: list[Outcome], baseline: list[Outcome] | None = None, logged: list[Rebalance] | None = None
) -> Prediction:
    """One setting's :class:`Prediction` from its samples; with the ``baseline`` samples (same seeds)
    and the ``logged`` rebalances, the paused times are calibrated by the log."""
    counts = [o.rebalance_count for o in outcomes]
    mode = max(dict.fromkeys(counts), key=counts.count)
    paused = [o.paused_ms for o in outcomes]
    partition_ms = [o.paused_partition_ms for o in outcomes]
    n = 0
    if baseline is not None and logged:
        cal = [calibrated(o, a, logged) for o, a in zip(outcomes, baseline, strict=True)]
        paused, partition_ms = [c.paused_ms for c in cal], [c.paused_partition_ms for c in cal]
        n = sum(c.calibrated for c in cal)
    return Prediction(
        name, outcomes[0].settings, mode, round(sum(paused) / len(paused)), _mean(partition_ms),
        _mean(o.moved_partitions for o in outcomes), len(outcomes), outcomes[0], n, tuple(paused),
    )  # fmt: skip


def _mean(values) -> int | None:
    vs = [v for v in values if v is not None]
    return round(sum(vs) / len(vs)) if vs else None


def replay_group(group_id: str, events: Iterable[Event], settings: ReplaySettings | None = None) -> ReplayOutput:
    """The group's replay records (a record reported twice by the flushes: the later one), under the
    job's replay settings (``replay:`` of the config; default: the core's)."""
    h = GroupHistory(group_id, settings)
    for e in sorted(events, key=lambda e: e.sort_key()):
        h.feed(e)
    out = h.flush(final=True)
    out.rebalances = list({r.rebalance_id: r for r in out.rebalances}.values())
    out.sessions = list({(s.member_id, s.joined_ts): s for s in out.sessions}.values())
    return out


def logged_settings(out: ReplayOutput, given: Mapping[str, Any] | None = None) -> GroupSettings:
    """The settings in force, from the evidence, overridden by ``given`` (e.g. the session timeout
    the user knows; INFO logs do not show it). A logged assignor outside
    :data:`coordinator_core.assignors.STRATEGIES` reads as ``range``."""
    static = frozenset(consumer_key(s) for s in out.sessions if s.group_instance_id)
    protocols = [r.protocol for r in out.rebalances if r.protocol]
    consumer = any(r.protocol_type == "consumer" for r in out.rebalances)
    # an assignor the model does not know (a custom one) is re-simulated as range: eager, as Kafka's
    # ConsumerPartitionAssignor.supportedProtocols() is by default; only the assignment differs
    known = protocols[-1] if protocols and protocols[-1] in STRATEGIES else "range"
    s = GroupSettings(
        static_consumers=static,
        assignor=known if not consumer else "range",
        group_protocol="consumer" if consumer else "classic",
    )
    return s.with_changes(**_checked(given or {}))


def _checked(changes: Mapping[str, Any]) -> dict[str, Any]:
    bad = sorted(set(changes) - set(SETTING_NAMES))
    if bad:
        raise ValueError(f"unknown what-if setting(s) {bad}; expected some of {list(SETTING_NAMES)}")
    out = dict(changes)
    if "static_consumers" in out and not isinstance(out["static_consumers"], frozenset):
        v = out["static_consumers"]
        out["static_consumers"] = frozenset([v] if isinstance(v, str) else v)
    return out


def behaviour(
    group_id: str,
    out: ReplayOutput,
    events: list[Event],
    settings: GroupSettings,
    window: tuple[int, int] | None = None,
) -> GroupBehaviour:
    """The group's behaviour over ``window`` (default: the evidence's first to last line)."""
    times = [e.ts for e in events if e.ts is not None]
    lo, hi = window if window is not None else (min(times, default=0), max(times, default=0))
    return infer_behaviour(
        group_id, out.sessions, out.rebalances, out.assignments, events, settings, start_ts=lo, end_ts=hi
    )


def baseline_and_predictions(
    group_id: str,
    events: Iterable[Event],
    changes: Mapping[str, Mapping[str, Any]],
    *,
    given: Mapping[str, Any] | None = None,
    seed: int = 1,
    window: tuple[int, int] | None = None,
    samples: int = 1,
    replay: ReplayOutput | None = None,
    settings: ReplaySettings | None = None,
) -> tuple[GroupBehaviour, list[Prediction]]:
    """Predictions for each named change (``{"static": {"static_consumers": "*"}, ...}``), the
    re-simulated baseline first (scenario ``baseline``), each over ``samples`` seeds (the same seeds
    for every setting) with its paused times calibrated by the logged rebalances
    (:mod:`jobs.whatif.calibrate`). ``replay``: the events' replay when the caller has it already;
    else they are replayed under ``settings``."""
    events = list(events)
    out = replay if replay is not None else replay_group(group_id, events, settings)
    base = logged_settings(out, given)
    b = behaviour(group_id, out, events, base, window)
    logged = logged_rebalances(out, b)
    base_runs = runs(b, base, seed=seed, samples=samples)
    rows = [summarise("baseline", base_runs, base_runs, logged)]
    for name, change in changes.items():
        changed = runs(b, base.with_changes(**_checked(change)), seed=seed, samples=samples)
        rows.append(summarise(name, changed, base_runs, logged))
    return b, rows


def logged_rebalances(out: ReplayOutput, b: GroupBehaviour) -> list[Rebalance]:
    """The replay's rebalances that start inside the behaviour's window, in start order."""
    return sorted(
        (r for r in out.rebalances if r.start_ts is not None and b.start_ts <= r.start_ts <= b.end_ts),
        key=lambda r: r.start_ts or 0,  # (every one has a start: filtered above)
    )
