"""What one run of the job did (:class:`RunSummary`) and the figures of it read from the tables
after the run (:func:`summarise`); the console (:mod:`jobs.report.console`) formats it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pyspark.sql import functions as F

from jobs.replay_udf import REPLAY_TABLES
from jobs.sink import Sink


@dataclass
class RunSummary:
    """What one run did (returned by :func:`jobs.pipeline.run_job`; the CLI hands it to the console,
    :func:`jobs.report.console.summary_text`, which formats it)."""

    run_id: str
    mode: str
    lakehouse: str
    sink: str
    files_seen: int = 0
    files_new: int = 0
    files_skipped: int = 0
    events: int = 0
    quarantined: int = 0
    groups_replayed: int = 0
    replay_errors: int = 0
    groups_total: int = 0
    rebalances_total: int = 0
    storms_total: int = 0
    worst_storm: dict[str, Any] | None = None
    top_causes: list[tuple[str, int]] = field(default_factory=list)
    table_rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: (stage, seconds since start) of the progress lines
    stages: list[tuple[str, float]] = field(default_factory=list)
    #: what was not read: (file, why) of every file not read at all (corrupt .gz, binary, missing)
    files_not_read: list[tuple[str, str]] = field(default_factory=list)
    #: quarantined lines of this run by reason
    quarantine_reasons: dict[str, int] = field(default_factory=dict)
    #: (file, lines, one example) of the files with the most lines of an unknown layout
    unreadable: list[tuple[str, int, str]] = field(default_factory=list)
    #: reason -> (file, line number, raw line): one quarantined line of this run per reason
    quarantine_examples: dict[str, tuple[str, int | None, str | None]] = field(default_factory=dict)
    #: events of this run without any timestamp (kept in ``events``, not replayed)
    untimed_events: int = 0
    #: events whose time of day was dated from outside their file's lines: rule -> events
    dated_from: dict[str, int] = field(default_factory=dict)
    #: events of this run in files that name no group (kept in ``events``, not replayed)
    unattributed_events: int = 0


#: up to this many rebalances, a sink that reads and writes Arrow on the driver (delta-rs) computes
#: the roll-ups and the summary there, without Spark jobs (their fixed cost dominated small runs)
DRIVER_ROWS = 1_000_000


def on_driver(sink: Sink) -> bool:
    """The Spark-or-Arrow rule of :class:`jobs.sink.Sink` for the roll-ups and the summary."""
    return sink.arrow_tables and sink.row_count("rebalances") <= DRIVER_ROWS


def summarise(sink: Sink, summary: RunSummary, state_table: str) -> None:
    """The tables' row counts, the top causes and the worst storm after the run (``state_table``: the
    name of the ``group_state`` table)."""
    names = ("events", "quarantine", "ingest_audit", *[state_table if t == "group_state" else t for t in REPLAY_TABLES],
             "rebalance_frequency", "storms")  # fmt: skip
    for name in names:
        summary.table_rows[name] = sink.row_count(name)
    summary.groups_total = summary.table_rows.get(state_table, 0)
    summary.rebalances_total = summary.table_rows.get("rebalances", 0)
    summary.storms_total = summary.table_rows.get("storms", 0)
    if on_driver(sink):
        _summarise_arrow(sink, summary)
        return
    causes = (
        sink.read("rebalances")
        .groupBy("cause")
        .agg(F.count(F.lit(1)).alias("n"))
        .orderBy(F.desc("n"), "cause")
    )
    summary.top_causes = [(row.cause or "unknown", int(row.n)) for row in causes.limit(5).collect()]
    worst = (
        sink.read("storms").orderBy(F.desc("rebalances"), F.desc("paused_ms"), "storm_id").limit(1).collect()
    )
    summary.worst_storm = worst[0].asDict() if worst else None


def _summarise_arrow(sink: Sink, summary: RunSummary) -> None:
    """The top causes and the worst storm from the (small) tables read with pyarrow, ordered like
    :func:`summarise`'s Spark queries (timestamps as naive UTC datetimes, like Spark's rows)."""
    causes = Counter(sink.read_arrow("rebalances").column("cause").to_pylist())
    top = sorted(causes.items(), key=lambda kv: (-kv[1], kv[0] is not None, kv[0] or ""))[:5]
    summary.top_causes = [(c or "unknown", int(n)) for c, n in top]
    storms = sink.read_arrow("storms").to_pylist()
    summary.worst_storm = None
    if storms:

        def key(s):
            return (s["rebalances"] is None, -(s["rebalances"] or 0), s["paused_ms"] is None,
                    -(s["paused_ms"] or 0), s["storm_id"] is not None, s["storm_id"] or "")  # fmt: skip

        worst = dict(min(storms, key=key))
        for k, v in worst.items():
            if hasattr(v, "tzinfo") and v.tzinfo is not None:
                worst[k] = v.replace(tzinfo=None)
        summary.worst_storm = worst
