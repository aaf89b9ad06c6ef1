"""What-if by re-simulation, from one group's logged evidence to predictions under other settings.

1. replay the evidence (:class:`coordinator_core.history.GroupHistory`, both protocols);
2. read the settings that were in force (:func:`logged_settings`: static members, assignor and
   protocol from the evidence; timeouts from the caller, else Kafka's defaults);
3. infer what each consumer did (:func:`coordinator_core.behaviour.infer_behaviour`);
4. re-simulate that behaviour under the logged settings (the *baseline*, which must reproduce the
   logged rebalances) and under each changed setting (:func:`jobs.whatif.resim.resimulate`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from coordinator_core.behaviour import GroupBehaviour, GroupSettings, consumer_key, infer_behaviour
from coordinator_core.events import Event
from coordinator_core.history import GroupHistory
from coordinator_core.replay import ReplayOutput
from jobs.whatif.resim import Outcome, resimulate

__all__ = [
    "Prediction", "baseline_and_predictions", "logged_settings", "predict", "replay_group", "SETTING_NAMES",
]  # fmt: skip

SETTING_NAMES = tuple(f.name for f in fields(GroupSettings))


@dataclass(frozen=True, slots=True)
class Prediction:
    """One setting's predicted outcome over ``samples`` re-simulations (different seeds: the
    heartbeat phases, network delays... differ): the most frequent rebalance count, the mean
    paused time, partition-time and moved partitions, and the rebalances of the first sample."""

    scenario: str
    settings: GroupSettings
    rebalances: int
    paused_ms: int
    paused_partition_ms: int | None
    moved_partitions: int | None
    samples: int = 1
    first: Outcome | None = None


def predict(b: GroupBehaviour, name: str, settings: GroupSettings, *, seed: int = 1, samples: int = 1) -> Prediction:
    """Re-simulate ``b`` under ``settings`` ``samples`` times (seeds ``seed``, ``seed + 1``...)."""
    runs = [resimulate(b, settings, seed=seed + i) for i in range(max(1, samples))]
    counts = [o.rebalance_count for o in runs]
    mode = max(dict.fromkeys(counts), key=counts.count)
    return Prediction(
        name, settings, mode, _mean(o.paused_ms for o in runs), _mean(o.paused_partition_ms for o in runs),
        _mean(o.moved_partitions for o in runs), len(runs), runs[0],
    )  # fmt: skip


def _mean(values) -> int | None:
    vs = [v for v in values if v is not None]
    return round(sum(vs) / len(vs)) if vs else None


def replay_group(group_id: str, events: Iterable[Event]) -> ReplayOutput:
    """The group's replay records (a record reported twice by the flushes: the later one)."""
    h = GroupHistory(group_id)
    for e in sorted(events, key=lambda e: e.sort_key()):
        h.feed(e)
    out = h.flush(final=True)
    out.rebalances = list({r.rebalance_id: r for r in out.rebalances}.values())
    out.sessions = list({(s.member_id, s.joined_ts): s for s in out.sessions}.values())
    return out


def logged_settings(out: ReplayOutput, given: Mapping[str, Any] | None = None) -> GroupSettings:
    """The settings in force, from the evidence, overridden by ``given`` (e.g. the session timeout
    the user knows; INFO logs do not show it)."""
    static = frozenset(consumer_key(s) for s in out.sessions if s.group_instance_id)
    protocols = [r.protocol for r in out.rebalances if r.protocol]
    consumer = any(r.protocol_type == "consumer" for r in out.rebalances)
    s = GroupSettings(
        static_consumers=static,
        assignor=protocols[-1] if protocols and not consumer else "range",
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
) -> tuple[GroupBehaviour, list[Prediction]]:
    """Predictions for each named change (``{"static": {"static_consumers": "*"}, ...}``), the
    re-simulated baseline first (scenario ``baseline``); see :func:`predict` for ``samples``.
    ``replay``: the events' replay when the caller has it already."""
    events = list(events)
    out = replay if replay is not None else replay_group(group_id, events)
    base = logged_settings(out, given)
    b = behaviour(group_id, out, events, base, window)
    rows = [predict(b, "baseline", base, seed=seed, samples=samples)]
    for name, change in changes.items():
        rows.append(predict(b, name, base.with_changes(**_checked(change)), seed=seed, samples=samples))
    return b, rows
