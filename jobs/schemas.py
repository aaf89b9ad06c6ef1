"""The one set of output schemas of every table rebalance-lens writes, stated once as Arrow schemas.

Whatever the mode (batch, incremental) or sink (Delta via Spark, Delta via delta-rs, Parquet), each
table is written with exactly the schema below, in this column order. The README documents them and
``tests/test_schemas.py`` checks that the record classes of ``coordinator_core.records`` agree.

:data:`ARROW` is the canonical form (pyarrow; no Spark needed: the report, the notebooks' local
reader and the command line's checks use it). Spark's ``StructType`` of each table is derived from
it by :mod:`jobs.schemas_spark`, and reached under the table's upper-case name (``EVENTS``,
``REBALANCES``, ...) or through ``TABLES``; those names load Spark's types on first use only.

Time columns: ``*_ts`` are UTC timestamps (microseconds; Spark's TimestampType); durations are
milliseconds (``*_ms``). ``events.envelope_ts`` is the time the nearest envelope (container runtime,
shipper, syslog) wrote around the line, beside the application's own ``ts`` (``docs/envelopes.md``).
Every table starts with ``cluster`` (the Kafka cluster name of the input, default ``default``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import pyarrow as pa

if TYPE_CHECKING:
    from pyspark.sql.types import StructType


def _s(*cols: tuple[str, pa.DataType]) -> pa.Schema:
    return pa.schema([pa.field(name, typ, nullable=True) for name, typ in cols])


S, INT, L, B, D = pa.string(), pa.int32(), pa.int64(), pa.bool_(), pa.float64()
TS, DT = pa.timestamp("us", tz="UTC"), pa.date32()
STRINGS = pa.list_(pa.string())

#: table name -> its Arrow schema, in the order the tables are documented
ARROW: dict[str, pa.Schema] = {
    # --------------------------------------------------------------------------------- ingestion
    "events": _s(
        ("cluster", S), ("event_date", DT), ("ts", TS), ("ts_ms", L),
        ("group_id", S), ("kind", S), ("side", S),
        ("member_id", S), ("generation", INT), ("group_instance_id", S), ("client_id", S),
        ("coordinator", INT), ("host", S), ("reason", S), ("state", S), ("protocol", S),
        ("member_count", INT), ("static_count", INT), ("error", S), ("old_member_id", S),
        ("members", STRINGS), ("partitions", STRINGS), ("assignment", pa.map_(S, STRINGS)),
        ("static", B), ("pending", B), ("unexpected", B), ("operation", S), ("offsets_partition", INT),
        ("protocol_type", S), ("member_epoch", INT), ("from_state", S), ("revoked", STRINGS),
        ("ts_inferred", B), ("envelope_ts", TS), ("redacted", B),
        ("level", S), ("logger", S), ("dialect", S), ("layout", S), ("message", S), ("continuation", S),
        ("source_file", S), ("line_no", L), ("run_id", S),
    ),
    "quarantine": _s(
        ("cluster", S), ("source_file", S), ("line_no", L), ("reason", S), ("detail", S),
        ("layout", S), ("group_id", S), ("raw", S), ("run_id", S),
    ),
    "ingest_audit": _s(
        ("cluster", S), ("run_id", S), ("source_file", S), ("content_sha256", S), ("bytes", L),
        ("compressed", B), ("total_lines", L), ("events", L), ("continuations", L), ("unrelated", L),
        ("quarantined", L), ("duplicate_of", S), ("error", S), ("first_ts", TS), ("last_ts", TS),
        ("out_of_order_lines", L), ("layouts", STRINGS),
        ("quarantine_reasons", pa.map_(S, L)), ("unreadable_example", S),
        # how the run read the file (docs/nightly-runs.md; null in rows written before these existed):
        # read_mode whole | resumed | truncated | rewritten; a resumed read counts the lines from
        # first_line_no, continuing the read of resumed_from; text_bytes = decompressed length,
        # complete_bytes = end of its last complete line, prefix_sha256 = sha256 of the text up to there
        ("read_mode", S), ("first_line_no", L), ("resumed_from", S), ("text_bytes", L), ("complete_bytes", L),
        ("prefix_sha256", S),
        # events whose time of day was dated from outside the file's lines (docs/ingestion.md, "Times of
        # day without a date"): rule (setting | file_name | modification_time) -> events; null when none
        ("dated_from", pa.map_(S, L)),
    ),
    # --------------------------------------------------------------------------------- replay
    "group_transitions": _s(
        ("cluster", S), ("group_id", S), ("ts", TS), ("from_state", S), ("to_state", S),
        ("generation", INT), ("trigger", S), ("inferred", B), ("source_file", S), ("line_no", L),
        ("protocol_type", S),
    ),
    "rebalances": _s(
        ("cluster", S), ("group_id", S), ("rebalance_id", S), ("old_generation", INT), ("new_generation", INT),
        ("join_rounds", INT), ("start_ts", TS), ("end_ts", TS), ("duration_ms", L), ("outcome", S),
        ("cause", S), ("reason", S), ("culprit_member_id", S), ("culprit_client_id", S), ("culprit_host", S),
        ("culprit_group_instance_id", S), ("members_before", INT), ("members_after", INT), ("leader_id", S),
        ("protocol", S), ("coordinator_broker", INT), ("inferred", B), ("start_unknown", B),
        ("protocol_type", S), ("paused_partition_ms", L), ("partitions_revoked", INT), ("partitions_assigned", INT),
    ),
    "member_sessions": _s(
        ("cluster", S), ("group_id", S), ("member_id", S), ("group_instance_id", S), ("client_id", S),
        ("host", S), ("joined_ts", TS), ("left_ts", TS), ("first_generation", INT), ("last_generation", INT),
        ("end_reason", S), ("inferred", B), ("protocol_type", S),
    ),
    "assignments": _s(
        ("cluster", S), ("group_id", S), ("generation", INT), ("member_id", S), ("topic", S),
        ("partitions", pa.list_(INT)), ("source", S), ("ts", TS),
    ),
    # --------------------------------------------------------------------------------- roll-ups
    "partition_skew": _s(
        ("cluster", S), ("group_id", S), ("generation", INT), ("topic", S),  # topic "*" = all topics
        ("members", INT), ("partitions", INT), ("min_per_member", INT), ("max_per_member", INT),
        ("mean_per_member", D), ("skew_ratio", D), ("idle_members", INT), ("moved_partitions", INT),
        ("assignor", S), ("ts", TS),
    ),
    "rebalance_frequency": _s(
        ("cluster", S), ("group_id", S), ("granularity", S), ("window_start", TS),  # granularity hour|day
        ("rebalances", L), ("completed", L), ("open", L), ("join_rounds", L), ("paused_ms", L),
        ("storm", B),
    ),
    "storms": _s(
        ("cluster", S), ("group_id", S), ("storm_id", S), ("start_ts", TS), ("end_ts", TS),
        ("rebalances", INT), ("dominant_cause", S), ("culprit_members", STRINGS), ("paused_ms", L),
        ("coordinator_broker", INT), ("concurrent_groups", STRINGS), ("coordinator_wide", B),
        ("protocol_types", STRINGS), ("paused_partition_ms", L),
    ),
    # --------------------------------------------------------------------------------- replay (last)
    "anomalies": _s(
        ("cluster", S), ("group_id", S), ("ts", TS), ("kind", S), ("detail", S), ("state", S),
        ("generation", INT), ("event_kind", S), ("source_file", S), ("line_no", L),
    ),
    #: the end state of each group's replay, read back by the next batch run (mapGroupsWithState style)
    "group_state": _s(
        ("cluster", S), ("group_id", S), ("state_json", S), ("last_ts", TS), ("events_replayed", L),
        ("run_id", S),
    ),
}  # fmt: skip

#: the tables, in the order of :data:`ARROW`
TABLE_NAMES: tuple[str, ...] = tuple(ARROW)


def table_arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of table ``name`` (the state table may be renamed, ``run.state_table``: any
    other name has ``group_state``'s schema)."""
    return ARROW.get(name, ARROW["group_state"])


# --------------------------------------------------------------------------- Spark's forms (lazy)
#: the upper-case name of each table's Spark ``StructType`` (``from jobs.schemas import EVENTS``)
SPARK_NAMES: dict[str, str] = {name.upper(): name for name in ARROW}


@functools.cache
def spark_schema(name: str) -> StructType:
    """Spark's ``StructType`` of table ``name``, derived from :data:`ARROW` (loads Spark's types)."""
    from jobs.schemas_spark import spark_struct

    return spark_struct(table_arrow_schema(name))


@functools.cache
def _spark_tables() -> dict[str, StructType]:
    return {name: spark_schema(name) for name in ARROW}


def __getattr__(attr: str) -> Any:
    """``EVENTS``, ``REBALANCES``, ... and ``TABLES`` (name -> StructType): Spark's forms, derived on
    first use, so that importing this module loads no Spark."""
    if attr in SPARK_NAMES:
        return spark_schema(SPARK_NAMES[attr])
    if attr == "TABLES":
        return _spark_tables()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
