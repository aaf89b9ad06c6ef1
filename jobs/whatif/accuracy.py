"""Measured accuracy of the re-simulation what-if: predict settings B from the logs of settings A,
and compare with what really happens under B.

Each *case* is (scenario, seed, change). The scenario draws one group's behaviour from the seed
(:data:`SCENARIOS`; the behaviour is data, the same whatever the settings). Then:

1. **truth A**: the simulator plays the behaviour under the baseline settings :data:`BASELINE` and
   writes the brokers' and clients' logs;
2. the logs are read back (:func:`jobs.whatif.evidence.events_by_group`), replayed, and the
   behaviour is inferred from them (:mod:`coordinator_core.behaviour`), knowing only the baseline
   settings, as a user knows their config;
3. **prediction**: the inferred behaviour is re-simulated under settings B (:data:`CHANGES`);
4. **truth B**: the simulator plays the *true* behaviour under B with the same seed as truth A: the
   same world (heartbeat phases, network delays) until the change makes a difference.

Per case: rebalance count exact, paused time (ms) error, whether truth B's paused time lies in the
predicted range (lowest to highest of the prediction's samples) and moved partitions error, plus the
baseline check (the inferred behaviour re-simulated under A reproduces truth A's rebalance count).
Beside the what-if's paused-time error stands the world's own: truth B's paused time against the
mean of truth B over :data:`SAMPLES` seeds (``expectation_paused_ms``), i.e. how close even a
perfect expectation comes to one draw of the heartbeat-phase race.
:func:`summarise` aggregates per (scenario, change) and per change; ``benchmarks/bench_whatif.py``
writes the table.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from coordinator_core.behaviour import Action, ConsumerBehaviour, GroupBehaviour, GroupSettings
from coordinator_core.whatif import what_if
from jobs.whatif.evidence import events_by_group
from jobs.whatif.predict import Prediction, baseline_and_predictions, predict
from jobs.whatif.resim import Outcome, resimulate

T0 = 1_767_225_600_000  # 2026-01-01T00:00:00Z
WINDOW_MS = 30 * 60_000
GROUP = "orders-group"
TOPIC = "orders.events.v1"
BASELINE = GroupSettings()
#: simulator seeds per prediction and per truth (means of the paused time)
SAMPLES = 5

#: the setting changes whose predictions are measured (the advice ranks the same changes)
CHANGES: dict[str, dict[str, Any]] = {
    "longer_session": {"session_timeout_ms": 90_000},
    "shorter_session": {"session_timeout_ms": 10_000},
    "static_membership": {"static_consumers": frozenset({"*"})},
    "longer_poll_interval": {"max_poll_interval_ms": 600_000},
    "cooperative_sticky": {"assignor": "cooperative-sticky"},
    "consumer_protocol": {"group_protocol": "consumer"},
}


def _group(r: random.Random, n: int = 3, partitions: int = 12) -> tuple[list[ConsumerBehaviour], GroupBehaviour]:
    cons = [ConsumerBehaviour(f"host-{i}", present_at_start=True, actions=[Action(T0 - 60_000, "start")])
            for i in range(n)]  # fmt: skip
    return cons, GroupBehaviour(GROUP, T0, T0 + WINDOW_MS, {TOPIC: partitions}, cons)


def rolling_restart(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    cons, g = _group(r, r.randint(3, 4))
    t = T0 + r.randint(120_000, 300_000)
    for c in cons:
        down = r.randint(5_000, 15_000)
        c.actions += [Action(t, "close"), Action(t + down, "start")]
        t += down + r.randint(30_000, 60_000)
    return g


def _one(r: random.Random, kind: str, start: tuple[int, int], duration: int) -> GroupBehaviour:
    """Three consumers; one of them (by seed) does ``kind`` once, at a time drawn from ``start``."""
    cons, g = _group(r)
    cons[r.randrange(len(cons))].actions.append(Action(T0 + r.randint(*start), kind, duration))
    return g


def gc_pause_above(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    return _one(r, "pause", (120_000, 600_000), a.session_timeout_ms + r.randint(2_000, 10_000))


def gc_pause_below(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    return _one(r, "pause", (120_000, 600_000), a.session_timeout_ms - r.randint(2_000, 10_000))


def slow_handler_above(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    return _one(r, "stall", (120_000, 300_000), a.max_poll_interval_ms + r.randint(10_000, 120_000))


def slow_handler_below(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    return _one(r, "stall", (120_000, 300_000), a.max_poll_interval_ms - r.randint(10_000, 60_000))


def crash_loop(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    cons, g = _group(r)
    c = cons[r.randrange(len(cons))]
    t = T0 + r.randint(120_000, 300_000)
    for _ in range(r.randint(3, 5)):
        back = r.randint(20_000, 40_000)
        c.actions += [Action(t, "crash"), Action(t + back, "start")]
        t += back + r.randint(60_000, 180_000)
    return g


def partitions_added(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    cons, g = _group(r)
    g.topic_changes.append((T0 + r.randint(120_000, 900_000), TOPIC, r.choice((16, 18, 24))))
    return g


def coordinator_failover(r: random.Random, a: GroupSettings) -> GroupBehaviour:
    cons, g = _group(r)
    g.coordinator_moves.append(T0 + r.randint(120_000, 900_000))
    return g


SCENARIOS: dict[str, Callable[[random.Random, GroupSettings], GroupBehaviour]] = {
    f.__name__: f
    for f in (rolling_restart, gc_pause_above, gc_pause_below, slow_handler_above, slow_handler_below,
              crash_loop, partitions_added, coordinator_failover)
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Case:
    scenario: str
    seed: int
    change: str
    baseline_truth: int
    baseline_predicted: int
    truth_rebalances: int
    predicted_rebalances: int
    truth_paused_ms: int
    predicted_paused_ms: int
    #: the mean paused time of the true behaviour under B over SAMPLES seeds (the first is truth B)
    expectation_paused_ms: int
    truth_moved: int | None
    predicted_moved: int | None
    #: the rule-based what-if's prediction (coordinator_core.whatif), where its rules apply
    rules_rebalances: int | None = None
    #: the lowest and highest predicted paused time over the prediction's samples
    predicted_paused_low: int | None = None
    predicted_paused_high: int | None = None

    @property
    def exact(self) -> bool:
        return self.truth_rebalances == self.predicted_rebalances

    @property
    def paused_error(self) -> float:
        """Relative error of the predicted paused time (0 when both are 0)."""
        return _relative(self.predicted_paused_ms, self.truth_paused_ms)

    @property
    def in_range(self) -> bool:
        """Truth B's paused time lies in the predicted range (lowest to highest sample), give or
        take the same 10 %."""
        lo = self.predicted_paused_ms if self.predicted_paused_low is None else self.predicted_paused_low
        hi = self.predicted_paused_ms if self.predicted_paused_high is None else self.predicted_paused_high
        return 0.9 * lo <= self.truth_paused_ms <= 1.1 * hi

    @property
    def expectation_error(self) -> float:
        """Relative error of the true behaviour's expected paused time: the world's own spread."""
        return _relative(self.expectation_paused_ms, self.truth_paused_ms)


def _relative(predicted: int, truth: int) -> float:
    if truth == 0:
        return 0.0 if predicted == 0 else 1.0
    return abs(predicted - truth) / truth


def run_scenario(
    scenario: str, seed: int, changes: dict[str, dict[str, Any]] = CHANGES, samples: int = SAMPLES
) -> list[Case]:
    """All changes of one (scenario, seed): one logged run under :data:`BASELINE` (seed ``seed``),
    then per change the prediction (``samples`` simulator seeds, calibrated by the log) and the
    truth: the true behaviour under the change with seed ``seed`` (and ``samples - 1`` more seeds for
    the expectation column)."""
    behaviour = SCENARIOS[scenario](random.Random(seed * 7919 + len(scenario)), BASELINE)
    with tempfile.TemporaryDirectory(prefix="whatif-") as folder:
        truth_a = resimulate(behaviour, BASELINE, seed=seed, out=folder)
        events = events_by_group(folder).get(GROUP, [])
    window = (behaviour.start_ts, behaviour.end_ts)
    _, rows = baseline_and_predictions(
        GROUP, events, changes, seed=seed * 1000, window=window, samples=samples
    )
    base = rows[0]
    out = []
    for row in rows[1:]:
        truth_b = predict(behaviour, "truth", BASELINE.with_changes(**changes[row.scenario]), seed=seed,
                          samples=samples)  # fmt: skip
        rules = _rules(events, changes[row.scenario], truth_a.rebalance_count)
        out.append(_case(scenario, seed, row.scenario, truth_a, base.rebalances, truth_b, row, rules))
    return out


def _rules(events, change: dict[str, Any], logged: int) -> int | None:
    """The rule-based what-if's count for the changes its rules cover: the logged count plus the
    difference its rules make (its own count includes the warm-up the benchmark leaves out)."""
    kw: dict[str, Any] = {"baseline_session_timeout_ms": BASELINE.session_timeout_ms}
    if set(change) == {"session_timeout_ms"}:
        kw["session_timeout_ms"] = change["session_timeout_ms"]
    elif set(change) == {"static_consumers"}:
        kw["static_members"] = {"*"}
    else:
        return None
    r = what_if(events, **kw)
    return logged - r.rebalances_saved


def _case(scenario, seed, change, truth_a: Outcome, base_pred: int, truth_b: Prediction, pred, rules) -> Case:
    first = truth_b.first
    if first is None:
        raise ValueError(f"{scenario}/{change}: the prediction kept no sample")
    return Case(
        scenario, seed, change, truth_a.rebalance_count, base_pred, first.rebalance_count, pred.rebalances,
        first.paused_ms, pred.paused_ms, truth_b.paused_ms, first.moved_partitions, pred.moved_partitions, rules,
        *pred.paused_range,
    )  # fmt: skip


def summarise(cases: Iterable[Case], by: tuple[str, ...] = ("scenario", "change")) -> list[dict[str, Any]]:
    """Per group of ``by``: cases, rebalance count exact %, paused time within 10 % (share), median
    paused error, truth inside the predicted range (share), the true expectation within 10 %
    (share), mean moved-partitions error, baseline reproduced %."""
    groups: dict[tuple, list[Case]] = {}
    for c in cases:
        groups.setdefault(tuple(getattr(c, k) for k in by), []).append(c)
    rows = []
    for key, cs in sorted(groups.items()):
        errs = sorted(c.paused_error for c in cs)
        moved = [abs(c.predicted_moved - c.truth_moved) for c in cs if c.truth_moved is not None
                 and c.predicted_moved is not None]  # fmt: skip
        rows.append({
            **dict(zip(by, key, strict=True)), "cases": len(cs),
            "exact_pct": round(100 * sum(c.exact for c in cs) / len(cs), 1),
            "paused_within_10pct": round(100 * sum(e <= 0.10 for e in errs) / len(cs), 1),
            "median_paused_error_pct": round(100 * errs[len(errs) // 2], 1),
            "paused_in_range_pct": round(100 * sum(c.in_range for c in cs) / len(cs), 1),
            "expectation_within_10pct": round(100 * sum(c.expectation_error <= 0.10 for c in cs) / len(cs), 1),
            "mean_moved_error": round(sum(moved) / len(moved), 2) if moved else None,
            "baseline_reproduced_pct": round(
                100 * sum(c.baseline_truth == c.baseline_predicted for c in cs) / len(cs), 1
            ),
            "rules_exact_pct": _pct([c.rules_rebalances == c.truth_rebalances for c in cs
                                     if c.rules_rebalances is not None]),
        })  # fmt: skip
    return rows


def _pct(flags: list[bool]) -> float | None:
    return round(100 * sum(flags) / len(flags), 1) if flags else None


def as_rows(cases: Iterable[Case]) -> list[dict[str, Any]]:
    return [{**asdict(c), "exact": c.exact, "paused_error": round(c.paused_error, 4), "in_range": c.in_range,
             "expectation_error": round(c.expectation_error, 4)} for c in cases]  # fmt: skip
