"""The one set of output schemas (Spark types) of every table rebalance-lens writes.

Whatever the mode (batch, incremental) or sink (Delta via Spark, Delta via delta-rs, Parquet), each
table is written with exactly the schema below, in this column order. The README documents them and
``tests/test_schemas.py`` checks that the record classes of ``coordinator_core.records`` agree.

Time columns: ``*_ts`` are TimestampType (UTC); durations are milliseconds (``*_ms``).
``events.envelope_ts`` is the time the nearest envelope (container runtime, shipper, syslog) wrote
around the line, beside the application's own ``ts`` (``docs/envelopes.md``).
Every table starts with ``cluster`` (the Kafka cluster name of the input, default ``default``).
"""

from __future__ import annotations

from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DataType,
    DateType,
    DoubleType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)


def _s(*cols: tuple[str, DataType]) -> StructType:
    return StructType([StructField(name, typ, True) for name, typ in cols])


S, INT, L, B, D, TS, DT = StringType(), IntegerType(), LongType(), BooleanType(), DoubleType(), TimestampType(), DateType()
STRINGS = ArrayType(StringType())

# ------------------------------------------------------------------------------------- ingestion
EVENTS = _s(
    ("cluster", S), ("event_date", DT), ("ts", TS), ("ts_ms", L),
    ("group_id", S), ("kind", S), ("side", S),
    ("member_id", S), ("generation", INT), ("group_instance_id", S), ("client_id", S),
    ("coordinator", INT), ("host", S), ("reason", S), ("state", S), ("protocol", S),
    ("member_count", INT), ("static_count", INT), ("error", S), ("old_member_id", S),
    ("members", STRINGS), ("partitions", STRINGS), ("assignment", MapType(S, STRINGS)),
    ("static", B), ("pending", B), ("unexpected", B), ("operation", S), ("offsets_partition", INT),
    ("protocol_type", S), ("member_epoch", INT), ("from_state", S), ("revoked", STRINGS),
    ("ts_inferred", B), ("envelope_ts", TS), ("redacted", B),
    ("level", S), ("logger", S), ("dialect", S), ("layout", S), ("message", S), ("continuation", S),
    ("source_file", S), ("line_no", L), ("run_id", S),
)  # fmt: skip

QUARANTINE = _s(
    ("cluster", S), ("source_file", S), ("line_no", L), ("reason", S), ("detail", S),
    ("layout", S), ("group_id", S), ("raw", S), ("run_id", S),
)  # fmt: skip

INGEST_AUDIT = _s(
    ("cluster", S), ("run_id", S), ("source_file", S), ("content_sha256", S), ("bytes", L),
    ("compressed", B), ("total_lines", L), ("events", L), ("continuations", L), ("unrelated", L),
    ("quarantined", L), ("duplicate_of", S), ("error", S), ("first_ts", TS), ("last_ts", TS),
    ("out_of_order_lines", L), ("layouts", STRINGS),
    ("quarantine_reasons", MapType(S, L)), ("unreadable_example", S),
    # how the run read the file (docs/nightly-runs.md; null in rows written before these existed):
    # read_mode whole | resumed | truncated | rewritten; a resumed read counts the lines from
    # first_line_no, continuing the read of resumed_from; text_bytes = decompressed length,
    # complete_bytes = end of its last complete line, prefix_sha256 = sha256 of the text up to there
    ("read_mode", S), ("first_line_no", L), ("resumed_from", S), ("text_bytes", L), ("complete_bytes", L),
    ("prefix_sha256", S),
)  # fmt: skip

# ------------------------------------------------------------------------------------- replay
GROUP_TRANSITIONS = _s(
    ("cluster", S), ("group_id", S), ("ts", TS), ("from_state", S), ("to_state", S),
    ("generation", INT), ("trigger", S), ("inferred", B), ("source_file", S), ("line_no", L),
    ("protocol_type", S),
)  # fmt: skip

REBALANCES = _s(
    ("cluster", S), ("group_id", S), ("rebalance_id", S), ("old_generation", INT), ("new_generation", INT),
    ("join_rounds", INT), ("start_ts", TS), ("end_ts", TS), ("duration_ms", L), ("outcome", S),
    ("cause", S), ("reason", S), ("culprit_member_id", S), ("culprit_client_id", S), ("culprit_host", S),
    ("culprit_group_instance_id", S), ("members_before", INT), ("members_after", INT), ("leader_id", S),
    ("protocol", S), ("coordinator_broker", INT), ("inferred", B), ("start_unknown", B),
    ("protocol_type", S), ("paused_partition_ms", L), ("partitions_revoked", INT), ("partitions_assigned", INT),
)  # fmt: skip

MEMBER_SESSIONS = _s(
    ("cluster", S), ("group_id", S), ("member_id", S), ("group_instance_id", S), ("client_id", S),
    ("host", S), ("joined_ts", TS), ("left_ts", TS), ("first_generation", INT), ("last_generation", INT),
    ("end_reason", S), ("inferred", B), ("protocol_type", S),
)  # fmt: skip

ASSIGNMENTS = _s(
    ("cluster", S), ("group_id", S), ("generation", INT), ("member_id", S), ("topic", S),
    ("partitions", ArrayType(INT)), ("source", S), ("ts", TS),
)  # fmt: skip

ANOMALIES = _s(
    ("cluster", S), ("group_id", S), ("ts", TS), ("kind", S), ("detail", S), ("state", S),
    ("generation", INT), ("event_kind", S), ("source_file", S), ("line_no", L),
)  # fmt: skip

#: the end state of each group's replay, read back by the next batch run (mapGroupsWithState style)
GROUP_STATE = _s(
    ("cluster", S), ("group_id", S), ("state_json", S), ("last_ts", TS), ("events_replayed", L),
    ("run_id", S),
)  # fmt: skip

# ------------------------------------------------------------------------------------- roll-ups
PARTITION_SKEW = _s(
    ("cluster", S), ("group_id", S), ("generation", INT), ("topic", S),  # topic "*" = all topics
    ("members", INT), ("partitions", INT), ("min_per_member", INT), ("max_per_member", INT),
    ("mean_per_member", D), ("skew_ratio", D), ("idle_members", INT), ("moved_partitions", INT),
    ("assignor", S), ("ts", TS),
)  # fmt: skip

REBALANCE_FREQUENCY = _s(
    ("cluster", S), ("group_id", S), ("granularity", S), ("window_start", TS),  # granularity hour|day
    ("rebalances", L), ("completed", L), ("open", L), ("join_rounds", L), ("paused_ms", L),
    ("storm", B),
)  # fmt: skip

STORMS = _s(
    ("cluster", S), ("group_id", S), ("storm_id", S), ("start_ts", TS), ("end_ts", TS),
    ("rebalances", INT), ("dominant_cause", S), ("culprit_members", STRINGS), ("paused_ms", L),
    ("coordinator_broker", INT), ("concurrent_groups", STRINGS), ("coordinator_wide", B),
    ("protocol_types", STRINGS), ("paused_partition_ms", L),
)  # fmt: skip

TABLES: dict[str, StructType] = {
    "events": EVENTS,
    "quarantine": QUARANTINE,
    "ingest_audit": INGEST_AUDIT,
    "group_transitions": GROUP_TRANSITIONS,
    "rebalances": REBALANCES,
    "member_sessions": MEMBER_SESSIONS,
    "assignments": ASSIGNMENTS,
    "partition_skew": PARTITION_SKEW,
    "rebalance_frequency": REBALANCE_FREQUENCY,
    "storms": STORMS,
    "anomalies": ANOMALIES,
    "group_state": GROUP_STATE,
}
