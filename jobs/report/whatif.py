"""What-if comparisons for the notebooks and the report: load one group's evidence events from the
lakehouse and replay them under several settings with :func:`coordinator_core.whatif.what_if`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from coordinator_core.behaviour import GroupSettings
from coordinator_core.events import EVENT_FIELDS, Event, event_from_row
from coordinator_core.replay import ReplaySettings
from coordinator_core.whatif import what_if
from jobs.report.data import read_table
from jobs.report.summary import worst_storms
from jobs.whatif.advice import ADVICE_COLUMNS, advise

#: Kafka's client defaults (the what-if's GroupSettings)
KAFKA_DEFAULTS = GroupSettings()
COLUMNS = ["scenario", "rebalances", "paused_ms", "moved_partitions", "removed", "notes"]


def group_events(
    lakehouse: str, group_id: str, *, spark: Any = None, cluster: str | None = None
) -> list[Event]:
    """The evidence events of one group (``events`` table), in the replay's total order
    (ts, broker before client, source file, line). Rows of unknown kinds are skipped."""
    cols = [c for c in ("cluster", "side", "ts_ms", *EVENT_FIELDS) if c != "ts"]
    df = read_table(
        lakehouse, "events", spark=spark, group=group_id, cluster=cluster, cols=list(dict.fromkeys(cols))
    )
    if not len(df):
        return []
    df = df.assign(ts=df["ts_ms"])
    events: list[Event] = []
    for row in df.to_dict("records"):
        row = {k: (None if _isna(v) else v) for k, v in row.items()}
        try:
            events.append(event_from_row(row))
        except (KeyError, TypeError):
            continue
    # the core's total order; events without a time first (as a row without a time sorts, row_order_key)
    untimed = sorted((e for e in events if e.ts is None), key=lambda e: e.sort_key()[1:])
    return untimed + sorted((e for e in events if e.ts is not None), key=Event.sort_key)


def _isna(v: Any) -> bool:
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # lists, arrays, maps
        return False


def compare(
    events: list[Event],
    scenarios: Mapping[str, Mapping[str, Any]],
    baseline_session_timeout_ms: int = KAFKA_DEFAULTS.session_timeout_ms,
) -> pd.DataFrame:
    """One row per scenario, the logged evidence first (``observed``): rebalances, paused_ms,
    moved_partitions, removed (rebalances that disappear), notes. ``scenarios`` maps a name to
    keyword arguments of :func:`what_if` (``session_timeout_ms``, ``static_members``, ``assignor``...).
    """
    base = what_if(events, assignor="range", baseline_session_timeout_ms=baseline_session_timeout_ms)
    rows = [{
        "scenario": "observed", "rebalances": base.baseline_rebalances, "paused_ms": base.baseline_paused_ms,
        "moved_partitions": base.baseline_moved_partitions, "removed": 0, "notes": "",
    }]  # fmt: skip
    for name, kwargs in scenarios.items():
        kw = {k: v for k, v in kwargs.items() if v not in (None, "", set(), [])}
        r = what_if(events, baseline_session_timeout_ms=baseline_session_timeout_ms, **kw)
        moved = r.scenario_moved_partitions if "assignor" in kw else base.baseline_moved_partitions
        rows.append({
            "scenario": name, "rebalances": r.scenario_rebalances, "paused_ms": r.scenario_paused_ms,
            "moved_partitions": moved, "removed": len(r.removed), "notes": "; ".join(r.notes),
        })  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


#: evidence read around a storm: members present before it, and its last rebalance's end
STORM_BEFORE_MS = 10 * 60_000
STORM_AFTER_MS = 5 * 60_000


def storm_advice(
    lakehouse: str,
    storms: pd.DataFrame,
    *,
    spark: Any = None,
    cluster: str | None = None,
    n: int = 3,
    given: Mapping[str, Any] | None = None,
    settings: ReplaySettings | None = None,
    kafka: Any = None,
) -> list[tuple[dict[str, Any], pd.DataFrame]]:
    """For the ``n`` worst storms: the storm (a dict of its row, plus ``assumed``: the client settings
    re-simulated, as text) and the setting changes ranked by paused time saved
    (:func:`jobs.whatif.advice.advise`, columns :data:`ADVICE_COLUMNS`), from the group's events in
    the storm's window (10 minutes before it to 5 after), replayed under the job's replay
    ``settings``. The client timeouts are ``kafka.for_group(group)`` (the ``kafka:`` section,
    a :class:`jobs.config.KafkaConfig`) overridden by ``given``; Kafka's defaults otherwise."""
    out = []
    read: dict[str, list[Event]] = {}  # one read per group, however many of its storms are shown
    for _, st in worst_storms(storms, n).iterrows():
        lo = int(pd.Timestamp(st["start_ts"]).value // 1_000_000)
        hi = int(pd.Timestamp(st["end_ts"]).value // 1_000_000)
        g = st["group_id"]
        if g not in read:
            read[g] = group_events(lakehouse, g, spark=spark, cluster=cluster)
        events = [e for e in read[g] if lo - STORM_BEFORE_MS <= e.ts <= hi + STORM_AFTER_MS]
        if not events:
            continue
        window = (lo - STORM_BEFORE_MS, hi + STORM_AFTER_MS)
        known = {**(kafka.for_group(g) if kafka is not None else {}), **(given or {})}
        rows = advise(st["group_id"], events, given=known or None, window=window, settings=settings)
        frame = pd.DataFrame([{c: getattr(a, c) for c in ADVICE_COLUMNS} for a in rows], columns=ADVICE_COLUMNS)
        out.append(({**st.to_dict(), "assumed": assumed_text(known)}, frame))
    return out


#: the client settings the advice depends on: Kafka's name -> GroupSettings field
ASSUMED = (("session.timeout.ms", "session_timeout_ms"), ("max.poll.interval.ms", "max_poll_interval_ms"),
           ("heartbeat.interval.ms", "heartbeat_interval_ms"))  # fmt: skip


def assumed_text(known: Mapping[str, Any]) -> str:
    """``session.timeout.ms=10000 (configured), max.poll.interval.ms=300000 (Kafka's default), ...``"""
    default = KAFKA_DEFAULTS
    return ", ".join(
        f"{name}={known[f]} (configured)" if f in known else f"{name}={getattr(default, f)} (Kafka's default)"
        for name, f in ASSUMED
    )
