"""The three ways one run replays its groups (Spark plans around the UDFs of
:mod:`jobs.replay_udf`); each stages the replay's output once and returns it as a
:class:`ReplayOutput`:

* :func:`replay_buckets`: batch, through the group buckets the ingestion workers wrote (no shuffle);
  on a local staging folder each task writes its replay tables there itself, one folder per table;
* :func:`replay_batch`: batch, ``cogroup(events, group_state).applyInArrow``, the union staged;
* :func:`replay_stream`: incremental, a streaming query with the state in the state store, the union
  staged.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from functools import partial
from typing import Any

import pyarrow.dataset as ds
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.streaming.state import GroupStateTimeout

from jobs.bucket_replay import bucket_udf
from jobs.buckets import bucket_expr, bucket_files
from jobs.replay_udf import SEED_COLUMN, batch_udf, streaming_udf, union_schema
from jobs.replay_union import (
    COUNT_SCHEMA,
    REPLAY_TABLES,
    TABLE_COL,
    count_summary,
    split_union,
    split_union_arrow_all,
    tables_count_rows,
    union_arrow_schema,
)
from jobs.run_context import RunContext
from jobs.schemas import spark_schema, table_arrow_schema
from jobs.sink import PARTITION_COL, Sink


@dataclass
class ReplayOutput:
    """The staged output of one replay: the union frame and its folder (:func:`replay_batch`,
    :func:`replay_stream`, the plain :func:`replay_buckets`), or a folder per replay table written by
    the bucket tasks (``per_table``); with the rows per table and counted anomalies when the tasks
    returned them (:func:`jobs.replay_union.count_summary`)."""

    spark: Any
    folder: str | None
    union: Any = None
    per_table: bool = False
    counted: tuple[dict[str, int], int, int, int] | None = None

    def frame(self, table: str):
        """The rows of replay table ``table`` as a Spark DataFrame of its schema."""
        if not self.per_table:
            return split_union(self.union, table)
        files = self._table_files(table)
        if not files:
            return self.spark.createDataFrame([], spark_schema(table))
        return self.spark.read.schema(spark_schema(table)).parquet(*files)

    def arrow_tables(self) -> dict[str, Any] | None:
        """Every replay table as Arrow, read on the driver (the output is small: rows per rebalance,
        generation, member, group; not per event); None when the folder is not local."""
        if not self.folder or "://" in self.folder:
            return None
        if self.per_table:
            return {t: self._read_table(t) for t in REPLAY_TABLES}
        schema = union_arrow_schema()
        union = ds.dataset(self.folder, format="parquet", schema=schema).to_table() if os.path.isdir(
            self.folder) else schema.empty_table()  # fmt: skip
        return split_union_arrow_all(union)

    def counts(self, tables: dict[str, Any] | None = None) -> tuple[dict[str, int], int, int, int]:
        """Rows per replay table and the counted anomalies: as the tasks returned them, else from
        the tables read on the driver, else one small Spark aggregate of the union."""
        if self.counted is not None:
            return self.counted
        if tables is not None:
            return count_summary(zip(*tables_count_rows(tables).to_pydict().values(), strict=True))
        kind = F.when(F.col(TABLE_COL) == "anomalies", F.col("kind"))
        rows = self.union.groupBy(TABLE_COL, kind.alias("kind")).agg(F.count(F.lit(1)).alias("n")).collect()
        return count_summary((row[0], row[1], row[2]) for row in rows)

    def _table_files(self, table: str) -> list[str]:
        d = os.path.join(self.folder or "", table)
        if not os.path.isdir(d):
            return []
        return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".parquet") and not f.startswith("."))

    def _read_table(self, table: str):
        schema = table_arrow_schema(table)
        files = self._table_files(table)
        if not files:
            return schema.empty_table()
        # one chunk, like the split of a union (delta-rs writes a table of many chunks in another order)
        return ds.dataset(files, format="parquet", schema=schema).to_table().combine_chunks()



def state_frame(r: RunContext):
    return r.sink.read(r.table_name("group_state")).select("cluster", "group_id", F.col("state_json"))


def replay_batch(r: RunContext, run_events, committed_runs: frozenset[str], files: list[str] | None = None):
    """cogroup(new events, stored state) -> one UDF call per group -> union frame staged once."""
    events = run_events.groupBy("cluster", "group_id")
    state = state_frame(r).groupBy("cluster", "group_id")
    cg = events.cogroup(state)
    schema = union_schema()
    out = cg.applyInArrow(batch_udf(r.config.replay, r.run_id, committed_runs, files), schema=schema)
    stage = r.sink.staging("union")
    out.write.mode("overwrite").parquet(stage)
    return ReplayOutput(r.spark, stage, r.spark.read.schema(schema).parquet(stage))


def bucket_folder(sink: Sink, res, run_id: str, adopted: bool) -> str | None:
    """The local folder of this run's group-bucketed event files, if the ingestion wrote them: the
    adopted ``events`` partition, or the staging folder when the sink rewrote the events."""
    if not res.buckets:
        return None
    if adopted:
        folder = os.path.join(sink.path("events"), f"{PARTITION_COL}={run_id}")
    else:
        folder = res.bucket_dir
    return folder if folder and "://" not in folder and os.path.isdir(folder) else None


def replay_buckets(
    r: RunContext, folder: str, buckets: int, committed_runs: frozenset[str], exclude: frozenset[str],
    workers_write: bool | None = None,
):
    """Replay through the group buckets: the stored states are split into the same buckets by one
    small Spark write, then each task of a ``spark.range`` (one per bucket with events, the largest
    first) reads one bucket's event and state files with pyarrow and replays its groups.

    ``workers_write`` (default: when the staging folder is local, like the buckets): each task
    writes its replay tables to the folder itself, a folder per table, and returns only their
    counts, so nothing crosses into the JVM and the driver splits no union; otherwise (the plain
    way, tested equal) Spark writes the tasks' union rows like :func:`replay_batch`."""
    tasks, udf = _bucket_tasks(r, folder, buckets, committed_runs, exclude)
    schema = union_schema()
    stage = r.sink.staging("union")
    if workers_write is None:
        workers_write = "://" not in stage
    ids = r.spark.range(0, tasks, 1, tasks)
    if not workers_write:
        ids.mapInArrow(udf(), schema).write.mode("overwrite").parquet(stage)
        return ReplayOutput(r.spark, stage, r.spark.read.schema(schema).parquet(stage))
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    rows = ids.mapInArrow(udf(out_dir=stage), from_arrow_schema(COUNT_SCHEMA)).collect()
    counted = count_summary((row[0], row[1], row[2]) for row in rows)
    return ReplayOutput(r.spark, stage, per_table=True, counted=counted)


def _bucket_tasks(r: RunContext, folder: str, buckets: int, committed_runs: frozenset[str], exclude: frozenset[str]):
    """(tasks, :func:`jobs.bucket_replay.bucket_udf` given all but ``out_dir``): the stored
    states split into the buckets, and task ``t`` given the ``t``-th largest bucket."""
    # the events that name no group (bucket NO_GROUP) are not replayed
    event_files = {k: v for k, v in bucket_files(folder).items() if isinstance(k, int)}
    state_files: dict[int, list[str]] = {}
    if r.sink.exists(r.table_name("group_state")):
        state_dir = r.sink.staging("state_buckets")
        state_frame(r).withColumn("_b", bucket_expr(buckets)).write.mode("overwrite").partitionBy(
            "_b"
        ).parquet(state_dir)
        for k in range(buckets):
            d = os.path.join(state_dir, f"_b={k}")
            if os.path.isdir(d):
                state_files[k] = sorted(
                    os.path.join(d, f)
                    for f in os.listdir(d)
                    if f.endswith(".parquet") and not f.startswith(".")
                )
    # task k replays the k-th largest bucket (bytes of its event files): the long tasks start first,
    # the short ones fill in at the end (Spark starts the tasks in index order)
    order = sorted(event_files, key=lambda k: (-sum(os.path.getsize(f) for f in event_files[k]), k))
    udf = partial(bucket_udf, r.config.replay, r.run_id, committed_runs,
                  {t: event_files[k] for t, k in enumerate(order)}, {t: state_files.get(k, []) for t, k in enumerate(order)},
                  exclude)  # fmt: skip
    return max(len(order), 1), udf


def stream_inbox(r: RunContext, run_events):
    """The run's events plus one seed row per group of the run that has a stored ``group_state``
    (column :data:`~jobs.replay_udf.SEED_COLUMN`): the ``group_state`` table is the job's state of
    record, the streaming state store a copy of it that can be behind (a batch run in between) or
    gone (a lost checkpoint); the streaming function resumes from whichever has seen more."""
    events = run_events.withColumn(SEED_COLUMN, F.lit(None).cast("string"))
    name = r.table_name("group_state")
    if not r.sink.row_count(name):
        return events
    seeds = (
        r.sink.read(name)
        .select("cluster", "group_id", F.col("state_json").alias(SEED_COLUMN))
        .join(run_events.select("cluster", "group_id").distinct(), ["cluster", "group_id"], "left_semi")
    )
    return events.unionByName(seeds, allowMissingColumns=True)


def replay_stream(r: RunContext, run_events, committed_runs: frozenset[str]):
    """Streaming replay over this run's new events (the run's inbox directory), state in the
    streaming state store; foreachBatch stages each micro-batch's union rows.

    Crash safety: the inboxes of earlier runs are removed first (a committed run's inbox was read by
    its own stream; a killed run's events are ingested again by this run under its own id), and a
    stored state written by a run that never committed is rolled back to the one before it
    (``load_envelope``), like the batch replay does with ``group_state``. Each group's stored
    ``group_state`` rides along as a seed row (:func:`stream_inbox`)."""
    root = r.sink.root
    inbox_root = os.path.join(root, "_stream", "inbox")
    mine = f"run={r.run_id}"
    if os.path.isdir(inbox_root):
        stale = [d for d in os.listdir(inbox_root) if d.startswith("run=") and d != mine]
        for d in stale:
            shutil.rmtree(os.path.join(inbox_root, d), ignore_errors=True)
        if stale:
            r.progress.stage("recover", stream_inboxes_removed=len(stale))
    inbox = stream_inbox(r, run_events)
    inbox.write.mode("overwrite").parquet(os.path.join(inbox_root, mine))
    r.committed("stream inbox")
    checkpoint = r.config.run.checkpoint or os.path.join(root, "_checkpoints", "replay")
    stage = r.sink.staging("union")
    schema = union_schema()
    stream = r.spark.readStream.schema(inbox.schema).option("recursiveFileLookup", "true").parquet(inbox_root)
    out = stream.groupBy("cluster", "group_id").applyInPandasWithState(
        streaming_udf(r.config.replay, r.run_id, committed_runs),
        outputStructType=schema,
        stateStructType="state_json string",
        outputMode="append",
        timeoutConf=GroupStateTimeout.NoTimeout,
    )

    def stage_batch(batch_df, batch_id: int) -> None:
        batch_df.write.mode("overwrite").parquet(os.path.join(stage, f"batch={batch_id}"))

    query = (
        out.writeStream.foreachBatch(stage_batch)
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    if not os.path.isdir(stage):
        return ReplayOutput(r.spark, None, r.spark.createDataFrame([], schema))
    return ReplayOutput(r.spark, stage, r.spark.read.schema(schema).option("recursiveFileLookup", "true").parquet(stage))
