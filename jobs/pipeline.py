"""The job: ingest -> replay every group (pandas/Arrow UDFs, state carried between runs) -> tables.

``run_job(spark, config, inputs, mode)`` is what ``./spark-submit.sh`` and notebooks call.  One run:

1. **recover** - partitions of ``events``/``quarantine`` written by a run that never committed
   (its ``run_id`` is not in ``ingest_audit``) are dropped; states such a run wrote are ignored by the
   replay (it resumes from the envelope's ``prev``);
2. **ingest** the inputs; files whose content (sha256) is already in ``ingest_audit`` are skipped, so
   re-running the same input changes nothing; a file that grew since an earlier read is read from
   where that read stopped (``docs/nightly-runs.md``);
3. write this run's ``events`` and ``quarantine`` (one ``run_id`` partition each, replaced atomically);
4. **replay** the new events of every (cluster, group_id) on top of its stored state:
   ``batch`` = through the group buckets the ingestion workers wrote (``spark.range(buckets)
   .mapInArrow``, each task replays the groups of one bucket; :mod:`jobs.buckets`) when the staging
   folder is local/FUSE, else ``cogroup(events, group_state).applyInArrow`` (one Spark job); ``incremental`` = a
   streaming query (``applyInPandasWithState``, ``GroupStateTimeout.NoTimeout``,
   ``trigger(availableNow=True)``, checkpoint under the output dir) over the run's new events;
   the UDF output (one union frame) is staged to Parquet once and split into the tables (through
   the buckets the replay tasks write their tables themselves, a folder each, and return only
   their row counts: :class:`jobs.replay_modes.ReplayOutput`);
5. **merge** the replay tables on their keys (a sink that commits on the driver reads them with
   pyarrow), recompute the roll-ups (storms,
   rebalance_frequency) from the whole rebalances table, merge ``group_state``;
6. commit ``ingest_audit`` LAST: it is the run's commit marker.

A run killed anywhere and run again leaves exactly the tables of one clean run.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
from pyspark.sql import functions as F

from jobs import rollups
from jobs.config import ConfigError, JobConfig, load_config
from jobs.ingest import ingest
from jobs.ingest.model import InputSpec
from jobs.ingest.resume import READ_COLUMNS, earlier_reads
from jobs.ingest.spark_ingest import audit_table
from jobs.ingest.task_files import QUARANTINE_IN_RECORD
from jobs.replay_modes import ReplayOutput, bucket_folder, replay_batch, replay_buckets, replay_stream
from jobs.replay_udf import MERGE_KEYS, REPLAY_TABLES, replay_input
from jobs.run_context import RunContext
from jobs.run_lost import quarantine_examples as _quarantine_examples
from jobs.run_lost import what_was_lost as _what_was_lost
from jobs.run_summary import RunSummary, on_driver, summarise
from jobs.sink import PARTITION_COL, Sink, table_arrow_schema

__all__ = ["JobConfig", "RunSummary", "load_config", "run_job"]


def _input_specs(config: JobConfig, inputs: Iterable[Any] | None) -> list[InputSpec]:
    items: list[Any] = list(inputs) if inputs is not None else list(config.inputs)
    specs = []
    for it in items:
        if isinstance(it, str):
            specs.append(InputSpec(path=it))
        elif isinstance(it, tuple):
            specs.append(InputSpec(path=it[0], cluster=it[1] if len(it) > 1 else "default"))
        elif isinstance(it, InputSpec):
            specs.append(it)
        elif hasattr(it, "path"):
            specs.append(InputSpec(path=it.path, cluster=getattr(it, "cluster", InputSpec.cluster)))
        else:
            raise ConfigError(f"inputs must be paths or {{path, cluster}}, got {it!r}")
    if not specs:
        raise ConfigError("no inputs: give --input PATH (or inputs: in the config file)")
    return specs


def run_job(
    spark,
    config: JobConfig | None = None,
    inputs: Sequence[Any] | None = None,
    mode: str | None = None,
    *,
    run_id: str | None = None,
) -> RunSummary:
    """Run the job once. ``inputs``: paths, ``(path, cluster)`` tuples or ``InputSpec``s (default: the
    config's ``inputs``); ``mode``: ``batch`` or ``incremental`` (default: ``run.mode``).

    The steps: recover (drop uncommitted runs' partitions), ingest, write this run's events and
    quarantine, replay, merge the replay's tables, roll-ups, the groups' state, and last the commit
    marker (this run's ``ingest_audit`` partition)."""
    t0 = time.monotonic()
    config = config or JobConfig()
    mode = mode or config.run.mode
    if mode not in ("batch", "incremental"):
        raise ConfigError(f"mode must be batch or incremental, got {mode!r}")
    specs = _input_specs(config, inputs)
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    r = RunContext(spark, config, mode, run_id)
    sink = r.sink
    summary = RunSummary(run_id=r.run_id, mode=mode, lakehouse=sink.root, sink=sink.kind)
    r.progress.stage("start", run_id=r.run_id, mode=mode, sink=sink.kind, inputs=len(specs))
    small = _ShuffleSetting(spark)
    try:
        committed_runs, seen_hashes, earlier = _recover(r)
        step = _ingest(r, specs, seen_hashes, summary, earlier)
        if step.new_audit:
            _write_events(r, step, summary)
            _replace_lines(r, step.new_audit)
            out, tables = _replay(r, step, committed_runs, summary, small)
        else:
            small.set(_small_rows(sink.row_count("rebalances")))
        _write_rollups(r)
        if step.new_audit:
            _merge_replay_table(sink, "group_state", r.table_name("group_state"), out, tables)
            r.committed("group_state")
            # the commit marker
            sink.write_partition_arrow("ingest_audit", audit_table(step.new_audit, r.run_id), r.run_id)
            r.committed("ingest_audit")
        sink.cleanup_staging()
        step.res.unpersist()
        summarise(sink, summary, r.table_name("group_state"))
        summary.seconds = time.monotonic() - t0
        r.progress.stage("done", seconds=round(summary.seconds, 1))
        summary.stages = [(name, round(t, 2)) for name, t, _ in r.progress.stages]
        return summary
    finally:
        small.restore()


def _recover(r: RunContext) -> tuple[frozenset[str], set[str], dict[str, Any]]:
    """The committed runs, the content hashes already ingested and the earlier reads files may
    continue (:func:`jobs.ingest.resume.earlier_reads`); drops the ``events`` and ``quarantine``
    partitions of runs that never wrote their commit marker."""
    sink = r.sink
    audit_prev = earlier_audit(sink)
    committed_runs = frozenset(row["run_id"] for row in audit_prev)
    seen_hashes = {row["content_sha256"] for row in audit_prev if row["error"] is None and row["content_sha256"]}
    for name in ("events", "quarantine"):
        stale = [v for v in sink.partition_values(name) if v not in committed_runs]
        if stale:
            sink.delete_partitions(name, stale)
            r.progress.stage("recover", table=name, dropped_uncommitted_runs=len(stale))
    return committed_runs, seen_hashes, earlier_reads(audit_prev)


#: the ``ingest_audit`` columns the recovery reads
AUDIT_READ = ("run_id", "source_file", "content_sha256", "error", "duplicate_of", "total_lines", *READ_COLUMNS)


def earlier_audit(sink: Sink) -> list[dict[str, Any]]:
    """The ``ingest_audit`` rows of the earlier runs (:data:`AUDIT_READ` columns) as dicts: one small
    row per file ever read. A sink that reads Arrow on the driver reads them with delta-rs, without
    a Spark job (a run's first Spark job cost as much as the rest of the recovery); otherwise
    :func:`earlier_audit_plain`, the reference it is tested equal to (the same rows; neither read
    promises an order)."""
    if not sink.arrow_tables:
        return earlier_audit_plain(sink)
    return sink.read_arrow("ingest_audit", AUDIT_READ).to_pylist()


def earlier_audit_plain(sink: Sink) -> list[dict[str, Any]]:
    """:func:`earlier_audit` through Spark (one collect)."""
    return [row.asDict() for row in sink.read("ingest_audit").select(*AUDIT_READ).collect()]


@dataclass
class _Ingested:
    """What the ingest step read: the result, every file's audit row, the files already ingested
    by an earlier run (skipped) and the audit rows of the new ones."""

    res: Any
    audit_rows: list[dict[str, Any]]
    skip_set: set[str]
    new_audit: list[dict[str, Any]]
    #: the ingestion's event files became this run's ``events`` partition as they are
    adopted: bool = False


def _ingest(r: RunContext, specs: list[Any], seen_hashes: set[str], summary: RunSummary, earlier=None) -> _Ingested:
    # batch mode: the ingestion workers split the events by group bucket, so the replay can read
    # each group's events without a shuffle (jobs/buckets.py); -1 = as many as the input needs
    buckets = -1 if r.mode == "batch" and r.config.run.exchange == "auto" else 0
    settings = replace(r.config.ingest, staging_dir=r.sink.staging("ingest"), group_buckets=buckets)
    res = ingest(r.spark, specs, settings, run_id=r.run_id, earlier=earlier)
    audit_rows = res.audit_rows  # one dict per file
    skip_set = {a["source_file"] for a in audit_rows if a["content_sha256"] in seen_hashes}
    new_audit = [a for a in audit_rows if a["source_file"] not in skip_set]
    summary.files_seen, summary.files_skipped = len(audit_rows), len(skip_set)
    summary.files_new = len(new_audit)
    _what_was_lost(summary, new_audit)
    modes = Counter(a.get("read_mode") for a in new_audit)
    r.progress.stage("ingest", files=len(audit_rows), new=len(new_audit), already_ingested=len(skip_set),
                     **{k: modes[k] for k in ("resumed", "truncated", "rewritten") if modes[k]})  # fmt: skip
    return _Ingested(res, audit_rows, skip_set, new_audit)


def _write_events(r: RunContext, step: _Ingested, summary: RunSummary) -> None:
    """This run's ``events`` and ``quarantine`` partitions."""
    step.adopted = write_run_files(r.sink, step.res, r.run_id, sorted(step.skip_set))
    r.committed("events")
    r.committed("quarantine")
    summary.events = sum(int(a["events"] or 0) for a in step.new_audit)
    summary.quarantined = sum(int(a["quarantined"] or 0) for a in step.new_audit)
    r.progress.stage("events written", events=summary.events, quarantined=summary.quarantined)
    if summary.quarantined:
        summary.quarantine_examples = _quarantine_examples(r.sink, r.run_id)


def _replay(r: RunContext, step: _Ingested, committed_runs: frozenset[str], summary: RunSummary,
            small: _ShuffleSetting):  # fmt: skip
    """Replay every group with new events and merge the replay's tables (``group_state`` is merged
    after the roll-ups). Returns the staged output and, when the sink merges on the driver, its
    tables as Arrow."""
    sink = r.sink
    folder = bucket_folder(sink, step.res, r.run_id, step.adopted) if r.mode == "batch" else None
    if folder:
        # each bucket's event files are read and replayed by one Python worker (no shuffle)
        dropped = step.skip_set | {a["source_file"] for a in step.audit_rows if a.get("duplicate_of")}
        out = replay_buckets(r, folder, step.res.buckets, committed_runs, frozenset(dropped))
    elif r.mode == "batch":
        # file names cross the shuffle as indexes into the run's sorted file list
        files = sorted({a["source_file"] for a in step.new_audit})
        events_now = replay_input(sink.read_partition("events", r.run_id), files)
        out = replay_batch(r, events_now, committed_runs, files)
    else:
        events_now = replay_input(sink.read_partition("events", r.run_id))
        out = replay_stream(r, events_now, committed_runs)
    # the replay's output is small (rows per rebalance / generation / member / group, not per
    # event): a sink that commits on the driver (delta-rs) reads it once with pyarrow instead of
    # running one Spark job per table
    tables = out.arrow_tables() if sink.arrow_tables else None
    counts, summary.replay_errors, summary.untimed_events, summary.unattributed_events = out.counts(tables)
    summary.groups_replayed = int(counts.get("group_state", 0))
    r.progress.stage("replayed", groups=summary.groups_replayed, replay_errors=summary.replay_errors,
                     **{t: int(counts.get(t, 0)) for t in ("rebalances", "group_transitions")})  # fmt: skip
    small.set(_small_rows(sum(int(n) for n in counts.values())))
    for name in REPLAY_TABLES:
        if name != "group_state":
            _merge_replay_table(sink, name, name, out, tables)
            r.committed(name)
    r.progress.stage("replay tables merged")
    return out, tables


def _replace_lines(r: RunContext, audits: Sequence[dict[str, Any]]) -> None:
    """Delete the earlier rows of the lines this run read again whole (an earlier last line that
    was still being written; :mod:`jobs.ingest.resume`). Before the commit marker: a run killed
    after it reads the same lines again."""
    for a in audits:
        rep = a.get("replaced_lines")
        if rep and a.get("duplicate_of") is None:
            for name in ("events", "quarantine"):
                r.sink.delete_lines(name, rep["run_id"], rep["source_file"], rep["lines"])
            r.progress.stage("replaced", file=rep["source_file"], lines=len(rep["lines"]))


def write_run_files(sink: Sink, res, run_id: str, skip_files: Sequence[str] = ()) -> bool:
    """Write the run's ``events`` and ``quarantine`` partitions (files of ``skip_files`` left out).
    The staged event files become the partition as they are (a rename) where the sink can; returns
    whether they did. An empty quarantine is committed without a Spark job."""
    keep = ~F.col("source_file").isin(list(skip_files)) if skip_files else F.lit(True)
    run_col = F.lit(run_id).alias("run_id")
    adopted = bool(
        not skip_files and res.events_dir and sink.adopt_partition("events", res.events_dir, run_id)
    )
    if not adopted:
        sink.write_partition("events", res.events.where(keep).withColumn("run_id", run_col), run_id)
    staged = staged_quarantine(res, run_id, skip_files) if sink.arrow_tables else None
    if res.no_quarantine:
        sink.write_partition_arrow("quarantine", table_arrow_schema("quarantine").empty_table(), run_id)
    elif staged is not None:
        sink.write_partition_arrow("quarantine", staged, run_id)
    else:
        sink.write_partition("quarantine", res.quarantine.where(keep).withColumn("run_id", run_col), run_id)
    return adopted


#: a staged quarantine of up to this many bytes is read on the driver (a sink that commits there
#: writes it without a Spark job); a larger one, e.g. a whole file of an unknown layout, goes through Spark
DRIVER_QUARANTINE_BYTES = 32 << 20


def staged_quarantine(res, run_id: str, skip_files: Sequence[str] = ()):
    """The run's ``quarantine`` partition as an Arrow table read from the ingestion's staged
    quarantine files (:attr:`~jobs.ingest.spark_ingest.IngestResult.quarantine_dir`), files of
    ``skip_files`` left out: the rows of ``res.quarantine`` with the ``run_id`` (the plain way, tested
    equal in tests/job/test_quarantine_write.py). None when there is no such local folder or its
    files are larger than :data:`DRIVER_QUARANTINE_BYTES`."""
    folder = getattr(res, "quarantine_dir", None)
    if not folder or "://" in folder or not os.path.isdir(folder):
        return None
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.endswith(".parquet") and not f.startswith((".", "_")))  # fmt: skip
    if sum(os.path.getsize(f) for f in files) > DRIVER_QUARANTINE_BYTES:
        return None
    schema = table_arrow_schema("quarantine")
    if not files:
        return schema.empty_table()
    rows = ds.dataset(files, format="parquet").to_table()
    cols = [pa.array([run_id] * rows.num_rows, f.type) if f.name == PARTITION_COL
            else rows[QUARANTINE_IN_RECORD.get(f.name, f.name)].cast(f.type) for f in schema]  # fmt: skip
    table = pa.Table.from_arrays(cols, schema=schema)
    if skip_files:  # (as Spark's ``NOT source_file IN (...)``: a row without a file is left out too)
        sf = table["source_file"]
        skip = pa.array(sorted(skip_files), pa.string())
        table = table.filter(pc.and_(pc.is_valid(sf), pc.invert(pc.is_in(sf, value_set=skip))))
    return table.combine_chunks()


def _merge_replay_table(sink: Sink, table: str, target: str, out: ReplayOutput, tables) -> None:
    """Upsert the rows of replay table ``table`` into the sink's table ``target``: from ``tables``
    (read on the driver) when given, else with Spark."""
    if tables is not None:
        sink.merge_arrow(target, tables[table], MERGE_KEYS[table])
    else:
        sink.merge(target, out.frame(table), MERGE_KEYS[table])


class _ShuffleSetting:
    """A temporary lower ``spark.sql.shuffle.partitions``; :meth:`restore` puts the old value back."""

    def __init__(self, spark):
        self.spark, self.old = spark, None

    def set(self, value: int) -> None:
        with contextlib.suppress(Exception):  # a Connect/serverless session may refuse the key
            old = self.old or self.spark.conf.get("spark.sql.shuffle.partitions")
            if int(old) > value:
                self.spark.conf.set("spark.sql.shuffle.partitions", str(value))
                self.old = old

    def restore(self) -> None:
        if self.old is not None:
            with contextlib.suppress(Exception):
                self.spark.conf.set("spark.sql.shuffle.partitions", self.old)
            self.old = None


#: rows per shuffle partition of the small tables (replay output, roll-ups)
SMALL_ROWS_PER_PARTITION = 250_000


def _small_rows(rows: int) -> int:
    """Shuffle partitions for the merges, roll-ups and summary: after the replay every table is
    small (rebalances, sessions ... not events), and fewer partitions save most of the fixed
    per-task cost of their ~20 shuffles on small runs."""
    return max(2, -(-rows // SMALL_ROWS_PER_PARTITION))


def _write_rollups(r: RunContext) -> None:
    if on_driver(r.sink):
        out_arrow = rollups.compute_arrow(
            r.sink.read_arrow("rebalances"), r.config.storms.min_rebalances, r.config.storms.window_minutes
        )
        for name in ("storms", "rebalance_frequency"):
            r.sink.overwrite_arrow(name, out_arrow[name])
            r.committed(name)
        r.progress.stage("roll-ups written")
        return
    rebalances = r.sink.read("rebalances").cache()  # small; read by both roll-ups
    out = rollups.compute(rebalances, r.config.storms.min_rebalances, r.config.storms.window_minutes)
    try:
        for name in ("storms", "rebalance_frequency"):
            r.sink.overwrite(name, out[name])
            r.committed(name)
    finally:
        with contextlib.suppress(Exception):
            rebalances.unpersist()
    r.progress.stage("roll-ups written")


