"""Spark half of ingestion: ``binaryFile`` → ``mapInArrow(parse_bytes)`` → events / quarantine / audit.

One pass parses every file once. The Arrow UDF emits one *record* stream whose columns are the
``events`` table's (without ``run_id``, the partition value) plus ``_rt``: ``e`` rows are events,
``q`` rows quarantine rows (``detail`` rides in ``error``, ``raw`` in ``message``) and one ``a`` row
per file carries its audit as JSON in ``message``. So the stream is written once:

* with ``staging_dir`` (the job): one Parquet write partitioned by ``_rt``, without a sort (concurrent
  writers, one per record type); the ``_rt=e`` files then have exactly the ``events`` table's columns,
  so a sink can adopt them as the run's partition instead of rewriting them
  (:attr:`IngestResult.events_dir`);
* without it (notebooks, tests): the stream is persisted and filtered three times.

The audit rows (one small row per file) are collected on the driver: that checks for corrupt inputs
and marks files with the same content (sha256 of the decompressed bytes): the first path by name is
kept, the others get ``duplicate_of`` and zero counts, and their events/quarantine rows are dropped.

What one task reads and writes (the plan of files into tasks, the Parquet writers) is in
:mod:`jobs.ingest.task_files`. Only the DataFrame API is used (no RDD / SparkContext), so this runs on
Spark Connect too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyspark import TaskContext
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from jobs import buckets as bk
from jobs.ingest.attribution import input_groups
from jobs.ingest.batch_parse import parse_items
from jobs.ingest.ingest_frames import IngestResult, ingest_frames
from jobs.ingest.model import IngestError, IngestSettings, InputSpec, arrow_schema
from jobs.ingest.parse import quarantine_table
from jobs.ingest.resume import EarlierRead, candidates_for, parse_file, settle_modes
from jobs.ingest.sources import ResolvedInputs, as_specs, resolve
from jobs.ingest.task_files import (
    QUARANTINE_IN_RECORD,
    RECORD,
    RECORD_ARROW,
    TaskWriters,
    conform,
    file_cost,
    local_items,
    plan_bins,
)
from jobs.schemas import INGEST_AUDIT
from jobs.session import parallelism

_TS_FIELDS = ("first_ts", "last_ts")
#: earlier reads by directory (:func:`jobs.ingest.resume.earlier_reads`), or None
Earlier = dict[str, list[EarlierRead]] | None


def audit_table(audits: list[dict[str, Any]], run_id: str) -> pa.Table:
    """The ``ingest_audit`` rows of one run as an Arrow table (one row per file)."""
    schema = arrow_schema(INGEST_AUDIT)
    rows = [{**{f.name: a.get(f.name) for f in schema}, "run_id": run_id} for a in audits]
    return pa.Table.from_pylist(rows, schema=schema)


def _audit_json(audit: dict[str, Any]) -> str:
    out = dict(audit)
    for k in _TS_FIELDS:
        v = out.get(k)
        out[k] = None if v is None else int(v.timestamp() * 1000)
    return json.dumps(out, separators=(",", ":"))


def audit_from_json(text: str) -> dict[str, Any]:
    """The audit dict of one ``a`` record (inverse of the UDF's encoding)."""
    out = json.loads(text)
    for k in _TS_FIELDS:
        v = out.get(k)
        out[k] = None if v is None else datetime.fromtimestamp(v / 1000, tz=UTC)
    return out


def _to_record(table: pa.Table, rt: str, rename: dict[str, str] | None = None) -> pa.RecordBatch:
    t = conform(table, RECORD_ARROW, rename)
    t = t.set_column(t.schema.get_field_index("_rt"), "_rt", pa.array([rt] * t.num_rows, pa.string()))
    return t.combine_chunks().to_batches()[0] if t.num_rows else pa.RecordBatch.from_pylist([], RECORD_ARROW)


def _quarantine_record(q: pa.Table) -> pa.RecordBatch:
    return _to_record(q, "q", QUARANTINE_IN_RECORD)


def _audit_record(audits: list[dict[str, Any]]) -> pa.RecordBatch:
    t = pa.table({
        "cluster": pa.array([a["cluster"] for a in audits], pa.string()),
        "source_file": pa.array([a["source_file"] for a in audits], pa.string()),
        "message": pa.array([_audit_json(a) for a in audits], pa.string()),
    })  # fmt: skip
    return _to_record(t, "a")


def _data(batch: pa.RecordBatch) -> pa.Table:
    """A record batch without its ``_rt`` column: the columns of :data:`EVENT_DATA`."""
    return pa.Table.from_batches([batch]).drop_columns(["_rt"])


def _parse_partition(settings: IngestSettings, run_id: str, write_dir: str | None = None, buckets: int = 0,
                     earlier: Earlier = None):  # fmt: skip
    """The mapInArrow function over ``binaryFile`` rows. With ``write_dir`` the worker writes the
    events and quarantine records itself (``<write_dir>/_rt=e|q/``) and returns only the audit
    records. ``earlier``: the earlier reads files may continue (:mod:`jobs.ingest.resume`)."""
    quiet = replace(settings, on_corrupt="quarantine")
    if write_dir is not None:

        def write(batches):
            ctx = TaskContext.get()
            task = f"r{ctx.partitionId() if ctx is not None else 0:05d}"
            audits = _write_parsed(
                _binary_items(batches), quiet, run_id, TaskWriters(write_dir, task, buckets), earlier
            )
            if audits:
                yield _audit_record(audits)

        return write

    def fn(batches):
        for data, path, cluster, mtime_ms in _binary_items(batches):
            ev, q, audit = parse_file(data, path, cluster, quiet, run_id, candidates_for(earlier, path), mtime_ms)
            for b in ev.to_batches(max_chunksize=50_000):
                yield _to_record(pa.Table.from_batches([b]), "e")
            if q.num_rows:
                yield _quarantine_record(q)
            yield _audit_record([audit])

    return fn


def _binary_items(batches):
    """(content, path, cluster, modification time in epoch ms) of each file of the ``binaryFile``
    batches."""
    for batch in batches:
        clusters = batch.column("cluster").to_pylist()
        paths = batch.column("path").to_pylist()
        contents = batch.column("content")
        mtimes = pc.cast(batch.column("modificationTime"), pa.timestamp("ms")).cast(pa.int64()).to_pylist()
        for i in range(batch.num_rows):
            yield contents[i].as_py() or b"", _display_path(paths[i]), clusters[i], mtimes[i]


def _write_parsed(items, quiet: IngestSettings, run_id: str, writers: TaskWriters,
                  earlier: Earlier = None) -> list[dict[str, Any]]:  # fmt: skip
    """Parse each (content, path, cluster, mtime_ms), write its records, return the audit dicts
    (small files parsed in batches: :func:`jobs.ingest.batch_parse.parse_items`)."""
    audits: list[dict[str, Any]] = []
    for (_, path, cluster, _), parsed in parse_items(items, quiet, run_id, earlier):
        if parsed is None:
            q, rows = _file_rows([(path, cluster)], [], quiet, run_id)
            writers.add(pa.table({}), q)
            audits.extend(rows)
            continue
        ev, q, audit = parsed
        writers.add(ev, q)
        audits.append(audit)
    writers.close()
    return audits


def _parse_local_bins(settings: IngestSettings, run_id: str, write_dir: str, bins, buckets: int,
                      earlier: Earlier = None):  # fmt: skip
    """The mapInArrow function over ``spark.range(len(bins))``: task ``i`` reads and parses the
    local files of ``bins[i]`` and writes their records (see :func:`plan_bins`)."""
    quiet = replace(settings, on_corrupt="quarantine")

    def fn(batches):
        for batch in batches:
            for i in batch.column("id").to_pylist():
                writers = TaskWriters(write_dir, f"f{i:05d}", buckets)
                audits = _write_parsed(local_items(bins[i]), quiet, run_id, writers, earlier)
                if audits:
                    yield _audit_record(audits)

    return fn


def worker_writable(path: str) -> bool:
    """True for a local or FUSE-mounted path (no URI scheme but ``file:``): the Python workers can
    write there themselves (pyarrow's Parquet writer is several times faster than Spark's row-based
    one for the wide events rows). Object-store URIs go through Spark's writer."""
    return path.startswith("file:") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", path) is None


def _local_path(path: str) -> str:
    return (
        path[len("file://") :]
        if path.startswith("file://")
        else path[len("file:") :]
        if path.startswith("file:")
        else path
    )


def _display_path(p: str) -> str:
    return (
        p[len("file:") :]
        if p.startswith("file:") and not p.startswith("file://")
        else (p[len("file://") :] if p.startswith("file://") else p)
    )


def _read(spark: SparkSession, paths: list[str], cluster: str) -> DataFrame:
    return (
        spark.read.format("binaryFile")
        .option("recursiveFileLookup", "true")
        .load(paths)
        .select(F.lit(cluster).alias("cluster"), "path", "content", "modificationTime")
    )


def _file_rows(
    missing: list[tuple[str, str]],
    empty: list[tuple[str, str]],
    settings: IngestSettings,
    run_id: str,
) -> tuple[pa.Table, list[dict[str, Any]]]:
    """Driver-made records: audit + quarantine rows of missing inputs (``on_missing="quarantine"``)
    and the audit rows of empty files (parsed here: Spark's file sources skip zero-byte files)."""
    q = quarantine_table(
        [
            {
                "cluster": c,
                "source_file": p,
                "line_no": None,
                "reason": "missing_file",
                "detail": "input path does not exist",
                "layout": None,
                "group_id": None,
                "raw": None,
                "run_id": run_id,
            }
            for p, c in missing
        ]
    )
    rows: list[dict[str, Any]] = [
        {
            "cluster": c,
            "run_id": run_id,
            "source_file": p,
            "content_sha256": None,
            "bytes": 0,
            "compressed": False,
            "total_lines": 0,
            "events": 0,
            "continuations": 0,
            "unrelated": 0,
            "quarantined": 0,
            "duplicate_of": None,
            "error": "missing_file: input path does not exist",
            "first_ts": None,
            "last_ts": None,
            "out_of_order_lines": 0,
            "layouts": [],
            "quarantine_reasons": {"missing_file": 1},
            "unreadable_example": None,
        }
        for p, c in missing
    ]
    rows += [parse_file(b"", p, c, settings, run_id)[2] for p, c in empty]
    return q, rows


def _file_records(spark: SparkSession, q: pa.Table, rows: list[dict[str, Any]]) -> DataFrame | None:
    batches = [_quarantine_record(q)] + ([_audit_record(rows)] if rows else [])
    tbl = pa.Table.from_batches(batches, schema=RECORD_ARROW)
    return spark.createDataFrame(tbl, schema=RECORD) if len(tbl) else None


def _has_parquet(folder: str) -> bool:
    return os.path.isdir(folder) and any(
        f.endswith(".parquet") and not f.startswith(".") for f in os.listdir(folder)
    )


def _binary_files(
    spark: SparkSession,
    paths: list[tuple[str, str]],
    settings: IngestSettings,
    missing: list[tuple[str, str]],
) -> DataFrame | None:
    """One ``binaryFile`` frame (cluster, path, content) over (path, cluster) pairs; remote paths
    that do not exist are appended to ``missing`` (or raise, per ``settings.on_missing``)."""
    by_cluster: dict[str, list[str]] = {}
    for p, c in paths:
        by_cluster.setdefault(c, []).append(p)
    parts: list[DataFrame] = []
    for cluster, group in by_cluster.items():
        try:
            parts.append(_read(spark, group, cluster))
        except Exception as e:  # AnalysisException: PATH_NOT_FOUND for a remote path
            if "PATH_NOT_FOUND" not in str(e) and "does not exist" not in str(e):
                raise
            if settings.on_missing == "error":
                raise IngestError(f"input path does not exist: {group} ({e})") from e
            for p in group:
                try:
                    parts.append(_read(spark, [p], cluster))
                except Exception:
                    missing.append((p, cluster))
    if not parts:
        return None
    frame = parts[0]
    for part in parts[1:]:
        frame = frame.unionByName(part)
    return frame


def ingest(
    spark: SparkSession,
    inputs: list[InputSpec] | list[str] | str,
    settings: IngestSettings | None = None,
    run_id: str | None = None,
    earlier: dict[str, list[EarlierRead]] | None = None,
) -> IngestResult:
    """Read ``inputs`` and return the events / quarantine / audit DataFrames of this run.

    ``earlier``: reads of earlier runs by directory (:func:`jobs.ingest.resume.earlier_reads`); a
    file that continues one is read from where it stopped (docs/nightly-runs.md).

    Raises :class:`IngestError` (naming the file) for a missing path or a corrupt ``.gz`` unless
    ``settings.on_missing`` / ``settings.on_corrupt`` is ``"quarantine"``.
    """
    settings = settings or IngestSettings()
    run_id = run_id or uuid.uuid4().hex[:12]
    specs = as_specs(inputs)
    settings = replace(settings, input_groups=input_groups(specs))
    res = resolve(specs)
    if res.missing and settings.on_missing == "error":
        raise IngestError(f"input path does not exist: {res.missing[0][0]}")
    staging = settings.staging_dir.rstrip("/") + f"/run_id={run_id}" if settings.staging_dir else None
    workers_write = bool(staging and worker_writable(staging))
    if earlier:
        dirs = {os.path.dirname(_display_path(p)) for p, _ in (*res.files, *res.remote, *res.empty)}
        earlier = {d: v for d, v in earlier.items() if d in dirs} or None
    parsed = _parse_inputs(spark, res, settings, run_id, staging, workers_write, earlier)
    settle_modes(parsed.audits, earlier)
    parsed.audits.sort(key=lambda a: (a["source_file"], a["cluster"]))
    if settings.on_corrupt == "error":
        _raise_on_corrupt(parsed)
    return _ingest_result(spark, parsed, run_id, staging, workers_write)


@dataclass
class _Parsed:
    """What the parse of one run gives: the record stream, one audit row per file, the folder of the
    staged events, the group buckets they are written in and the cache to release (if any)."""

    records: Callable[[], DataFrame]  # the record stream, built on first use
    audits: list[dict[str, Any]]
    events_dir: str | None
    buckets: int
    cache: DataFrame | None


def _parse_inputs(
    spark: SparkSession, res: ResolvedInputs, settings: IngestSettings, run_id: str, staging: str | None,
    workers_write: bool, earlier: Earlier = None,
) -> _Parsed:
    """Parse the resolved inputs. The workers read local files themselves when they write (no copy
    of every file through the JVM); other paths go through Spark's binaryFile reader. Missing and
    empty inputs get their quarantine / audit rows here."""  # fmt: skip
    spark_read = list(res.remote) + ([] if workers_write else list(res.files))
    missing = list(res.missing)
    files = _binary_files(spark, spark_read, settings, missing)
    q_extra, audit_extra = (
        _file_rows(missing, list(res.empty), settings, run_id) if missing or res.empty else (None, [])
    )
    if workers_write and staging is not None:
        staged, audits, buckets = _parse_on_workers(spark, res, files, settings, run_id, staging, q_extra, audit_extra,
                                                    earlier)  # fmt: skip
        return _Parsed(staged, audits, staging + "/_rt=e", buckets, None)
    records, audits, events_dir, cache = _parse_through_spark(spark, files, settings, run_id, staging, q_extra,
                                                              audit_extra, earlier)  # fmt: skip
    return _Parsed(lambda: records, audits, events_dir, 0, cache)


def _raise_on_corrupt(parsed: _Parsed) -> None:
    """:class:`IngestError` naming the first corrupt gzip input (the cache released first)."""
    bad = [a for a in parsed.audits if (a["error"] or "").startswith("corrupt_gzip")]
    if bad:
        if parsed.cache is not None:
            parsed.cache.unpersist()
        raise IngestError(f"corrupt gzip input: {bad[0]['source_file']} ({bad[0]['error']})")


def _ingest_result(
    spark: SparkSession, parsed: _Parsed, run_id: str, staging: str | None, workers_write: bool
) -> IngestResult:
    """The run's result over the parsed records: files with the content of an earlier one
    (``duplicate_of``) are marked in the audit rows (and the staged events folder is no longer the
    run's events as they are); the DataFrames are built on first use (:func:`ingest_frames`)."""
    dups = mark_duplicates(parsed.audits)
    audits = parsed.audits
    return IngestResult(
        frames=lambda: ingest_frames(spark, parsed.records, audits, dups, run_id),
        run_id=run_id,
        audit_rows=audits,
        events_dir=None if dups else parsed.events_dir,
        buckets=parsed.buckets,
        bucket_dir=staging + "/_rt=e" if parsed.buckets > 0 and staging else None,
        no_quarantine=bool(workers_write and staging and not _has_parquet(_local_path(staging) + "/_rt=q")),
        quarantine_dir=_local_path(staging) + "/_rt=q" if workers_write and staging and not dups else None,
        _cache=parsed.cache,
    )


def _parse_on_workers(
    spark: SparkSession, res, files: DataFrame | None, settings: IngestSettings, run_id: str, staging: str,
    q_extra, audit_extra: list[dict[str, Any]], earlier: Earlier = None,
) -> tuple[Callable[[], DataFrame], list[dict[str, Any]], int]:
    """The Python workers parse and write the events / quarantine Parquet themselves (local files in
    cost-balanced bins, the rest from Spark's binaryFile rows); Spark returns one audit row per file.
    Returns the staged records (read on first use), the audits and the group buckets used."""  # fmt: skip
    local = _local_path(staging)
    shutil.rmtree(local, ignore_errors=True)
    os.makedirs(local)
    outs = []
    cores = parallelism(spark)
    costs = {p: file_cost(p) for p, _ in res.files}
    bins = plan_bins(list(res.files), cores, costs)
    buckets = settings.group_buckets
    if buckets < 0:
        buckets = bk.choose_buckets(sum(costs.values()) + (1 << 30) * len(res.remote), cores)
    if bins:
        ids = spark.range(0, len(bins), 1, len(bins))
        outs.append(ids.mapInArrow(_parse_local_bins(settings, run_id, local, bins, buckets, earlier), RECORD))
    if files is not None:
        outs.append(files.mapInArrow(_parse_partition(settings, run_id, local, buckets, earlier), RECORD))
    audits = []
    for out in outs:  # one row per file
        audits += [audit_from_json(r["message"]) for r in out.select("message").collect()]
    if settings.on_missing == "error":
        gone = [a for a in audits if (a["error"] or "").startswith("missing_file")]
        if gone:
            raise IngestError(f"input path does not exist: {gone[0]['source_file']}")
    if q_extra is not None and q_extra.num_rows:
        os.makedirs(f"{local}/_rt=q", exist_ok=True)
        pq.write_table(_data(_quarantine_record(q_extra)), f"{local}/_rt=q/part-driver.parquet")
    audits += audit_extra
    return (lambda: spark.read.schema(RECORD).parquet(staging)), audits, buckets  # _rt: the folders' partition column


def _parse_through_spark(
    spark: SparkSession, files: DataFrame | None, settings: IngestSettings, run_id: str, staging: str | None,
    q_extra, audit_extra: list[dict[str, Any]], earlier: Earlier = None,
) -> tuple[DataFrame, list[dict[str, Any]], str | None, DataFrame | None]:
    """Spark parses (``mapInArrow`` over the binaryFile rows) and the records are staged as Parquet
    (or cached when there is no staging folder). Returns the records, the audits, the events folder
    and the cache to release."""  # fmt: skip
    fn = _parse_partition(settings, run_id, earlier=earlier)
    records = files.mapInArrow(fn, RECORD) if files is not None else None
    extra = _file_records(spark, q_extra, audit_extra) if q_extra is not None else None
    if extra is not None:
        records = extra if records is None else records.unionByName(extra)
    if records is None:
        records = spark.createDataFrame([], RECORD)
    cache, events_dir = None, None
    if staging:
        _write_staged(spark, records, staging)
        records = spark.read.schema(RECORD).parquet(staging)
        events_dir = staging + "/_rt=e"
    else:
        records = cache = records.persist()
    # the audit: one small row per file; collecting it materialises the whole parse (every partition
    # of the cache)
    audits = [audit_from_json(r["message"]) for r in records.where(F.col("_rt") == "a").select("message").collect()]
    return records, audits, events_dir, cache


def _write_staged(spark: SparkSession, records: DataFrame, staging: str) -> None:
    """One Parquet write of the record stream, a folder per record type. Spark would sort the rows
    by ``_rt`` first (planned writes); with one concurrent writer per record type it need not."""
    keys = {
        "spark.sql.optimizer.plannedWrite.enabled": "false",
        "spark.sql.maxConcurrentOutputFileWriters": "4",
    }
    old: dict[str, str | None] = {}
    for k, v in keys.items():
        with contextlib.suppress(Exception):  # a Connect/serverless session may refuse a key
            old[k] = spark.conf.get(k, None)
            spark.conf.set(k, v)
    try:
        spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        records.write.mode("overwrite").partitionBy("_rt").parquet(staging)
    finally:
        for key, was in old.items():
            with contextlib.suppress(Exception):
                spark.conf.unset(key) if was is None else spark.conf.set(key, was)


def duplicate_files(rows: list[tuple[str, str | None, int | None]]) -> set[str]:
    """Files (``source_file``, sha256, total_lines) whose content equals a file earlier by name."""
    first: dict[str, str] = {}
    dups: set[str] = set()
    for src, sha, total in sorted(rows, key=lambda r: r[0]):
        if not sha or not total:
            continue
        if sha in first:
            dups.add(src)
        else:
            first[sha] = src
    return dups


def mark_duplicates(audits: list[dict[str, Any]]) -> set[str]:
    """Mark, in place, the audit rows of files whose content equals an earlier file's (by name):
    ``duplicate_of`` = that file, counts 0 (empty files never duplicate). Returns their paths."""
    dups = duplicate_files([(a["source_file"], a["content_sha256"], a["total_lines"]) for a in audits])
    first: dict[str, str] = {}
    for a in sorted(audits, key=lambda a: a["source_file"]):
        sha = a["content_sha256"]
        if a["source_file"] in dups:
            a["duplicate_of"] = first[sha]
            for c in (
                "total_lines",
                "events",
                "continuations",
                "unrelated",
                "quarantined",
                "out_of_order_lines",
            ):
                a[c] = 0
        elif sha and a["total_lines"]:
            first.setdefault(sha, a["source_file"])
    return dups
