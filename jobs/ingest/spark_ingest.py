"""Spark half of ingestion: ``binaryFile`` → ``mapInArrow(parse_bytes)`` → events / quarantine / audit.

One pass parses every file once: the Arrow UDF emits one *record* stream (events, quarantine rows
and one audit row per file, told apart by ``_rt``), which is persisted so that the three result
DataFrames (and the eager check for corrupt inputs) do not parse twice. Unrelated lines are only
counted. Files with the same content (sha256 of the decompressed bytes) are de-duplicated in Spark
with a window over the audit rows: the first path (by name) is kept, the others get an audit row
with ``duplicate_of`` and zero counts, and their events/quarantine rows are dropped (anti join).

Only the DataFrame API is used (no RDD / SparkContext), so this runs on Spark Connect too.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from jobs.ingest.model import IngestError, IngestSettings, InputSpec, arrow_schema
from jobs.ingest.parse import audit_table, parse_bytes, quarantine_table
from jobs.ingest.sources import as_specs, resolve
from jobs.schemas import EVENTS, INGEST_AUDIT, QUARANTINE

_EXTRA = [f for f in QUARANTINE.fields + INGEST_AUDIT.fields if f.name not in EVENTS.fieldNames()]
_seen: set[str] = set()
_extra_unique = []
for _f in _EXTRA:
    if _f.name not in _seen:
        _seen.add(_f.name)
        _extra_unique.append(_f)
#: the one stream the Arrow UDF writes: EVENTS columns + quarantine/audit-only columns + ``_rt``
RECORD = T.StructType([*EVENTS.fields, *_extra_unique, T.StructField("_rt", T.StringType(), True)])
RECORD_ARROW = arrow_schema(RECORD)


@dataclass
class IngestResult:
    """Lazy DataFrames over one parse: persisted in memory, or staged as Parquet under
    ``settings.staging_dir`` (call :meth:`unpersist` when done)."""

    events: DataFrame
    quarantine: DataFrame
    audit: DataFrame
    run_id: str
    _cache: DataFrame | None = None

    def unpersist(self) -> None:
        if self._cache is not None:
            with contextlib.suppress(Exception):  # Connect servers without caching
                self._cache.unpersist()


def _to_record(table: pa.Table, rt: str) -> pa.RecordBatch:
    n = table.num_rows
    arrays = []
    for f in RECORD_ARROW:
        if f.name == "_rt":
            arrays.append(pa.array([rt] * n, pa.string()))
        elif f.name in table.column_names:
            col = table[f.name].combine_chunks()
            arrays.append(col if col.type == f.type else col.cast(f.type))
        else:
            arrays.append(pa.nulls(n, f.type))
    return pa.RecordBatch.from_arrays(arrays, schema=RECORD_ARROW)


def _parse_partition(settings: IngestSettings, run_id: str):
    quiet = replace(settings, on_corrupt="quarantine")

    def fn(batches):
        for batch in batches:
            clusters = batch.column("cluster").to_pylist()
            paths = batch.column("path").to_pylist()
            contents = batch.column("content")
            for i in range(batch.num_rows):
                data = contents[i].as_py() or b""
                src = _display_path(paths[i])
                ev, q, audit = parse_bytes(data, src, clusters[i], quiet, run_id)
                if ev.num_rows:
                    for b in ev.to_batches(max_chunksize=50_000):
                        yield _to_record(pa.Table.from_batches([b]), "e")
                if q.num_rows:
                    yield _to_record(q, "q")
                yield _to_record(audit_table([audit]), "a")

    return fn


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
        .select(F.lit(cluster).alias("cluster"), "path", "content")
    )


def _file_rows(
    spark: SparkSession,
    missing: list[tuple[str, str]],
    empty: list[tuple[str, str]],
    settings: IngestSettings,
    run_id: str,
) -> DataFrame | None:
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
    rows = [
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
        }
        for p, c in missing
    ]
    rows += [parse_bytes(b"", p, c, settings, run_id)[2] for p, c in empty]
    a = audit_table(rows)
    tbl = pa.Table.from_batches([_to_record(q, "q"), _to_record(a, "a")])
    return spark.createDataFrame(tbl, schema=RECORD) if len(tbl) else None


def ingest(
    spark: SparkSession,
    inputs: list[InputSpec] | list[str] | str,
    settings: IngestSettings | None = None,
    run_id: str | None = None,
) -> IngestResult:
    """Read ``inputs`` and return the events / quarantine / audit DataFrames of this run.

    Raises :class:`IngestError` (naming the file) for a missing path or a corrupt ``.gz`` unless
    ``settings.on_missing`` / ``settings.on_corrupt`` is ``"quarantine"``.
    """
    settings = settings or IngestSettings()
    run_id = run_id or uuid.uuid4().hex[:12]
    specs = as_specs(inputs)
    res = resolve(specs)
    if res.missing and settings.on_missing == "error":
        raise IngestError(f"input path does not exist: {res.missing[0][0]}")
    by_cluster: dict[str, list[str]] = {}
    for p, c in list(res.files) + list(res.remote):
        by_cluster.setdefault(c, []).append(p)
    missing = list(res.missing)
    parts: list[DataFrame] = []
    for cluster, paths in by_cluster.items():
        try:
            parts.append(_read(spark, paths, cluster))
        except Exception as e:  # AnalysisException: PATH_NOT_FOUND for a remote path
            if "PATH_NOT_FOUND" not in str(e) and "does not exist" not in str(e):
                raise
            if settings.on_missing == "error":
                raise IngestError(f"input path does not exist: {paths} ({e})") from e
            for p in paths:
                try:
                    parts.append(_read(spark, [p], cluster))
                except Exception:
                    missing.append((p, cluster))
    records: DataFrame | None = None
    if parts:
        files = parts[0]
        for p in parts[1:]:
            files = files.unionByName(p)
        records = files.mapInArrow(_parse_partition(settings, run_id), RECORD)
    extra = _file_rows(spark, missing, list(res.empty), settings, run_id) if missing or res.empty else None
    if extra is not None:
        records = extra if records is None else records.unionByName(extra)
    if records is None:
        records = spark.createDataFrame([], RECORD)
    cache: DataFrame | None = None
    if settings.staging_dir:
        # one Parquet write of the whole record stream, partitioned by record type; the three
        # results read their partition (cheaper than caching wide rows in memory)
        staging = settings.staging_dir.rstrip("/") + f"/run_id={run_id}"
        records.write.mode("overwrite").partitionBy("_rt").parquet(staging)
        records = spark.read.schema(RECORD).parquet(staging)
    else:
        records = cache = records.persist()
    audit_raw = records.filter(F.col("_rt") == "a").select(*INGEST_AUDIT.fieldNames())
    # materialise the whole cache (every partition) and check for corrupt inputs: the audit is
    # one small row per file
    audit_rows = audit_raw.select("source_file", "error", "content_sha256", "total_lines").collect()
    if settings.on_corrupt == "error":
        bad = [r for r in audit_rows if (r["error"] or "").startswith("corrupt_gzip")]
        if bad:
            if cache is not None:
                cache.unpersist()
            raise IngestError(f"corrupt gzip input: {bad[0]['source_file']} ({bad[0]['error']})")
    audit = _dedup(audit_raw)
    # the same rule on the collected audit rows (one per file) gives the files to drop, so the
    # events/quarantine DataFrames need no join
    dups = duplicate_files([(r["source_file"], r["content_sha256"], r["total_lines"]) for r in audit_rows])
    events = records.filter(F.col("_rt") == "e")
    quarantine = records.filter(F.col("_rt") == "q")
    if dups:
        events = events.filter(~F.col("source_file").isin(sorted(dups)))
        quarantine = quarantine.filter(~F.col("source_file").isin(sorted(dups)))
    return IngestResult(
        events=events.select(*EVENTS.fieldNames()),
        quarantine=quarantine.select(*QUARANTINE.fieldNames()),
        audit=audit.select(*INGEST_AUDIT.fieldNames()),
        run_id=run_id,
        _cache=cache,
    )


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


def _dedup(audit: DataFrame) -> DataFrame:
    """Mark files whose content equals an earlier file's (by sha256, in Spark with a window over the
    audit rows; empty files never duplicate): ``duplicate_of`` = the first file by name, counts 0."""
    w = Window.partitionBy("content_sha256").orderBy("source_file")
    dedupable = (F.col("total_lines") > 0) & F.col("content_sha256").isNotNull()
    first = F.first("source_file").over(w)
    marked = audit.withColumn(
        "duplicate_of",
        F.when(dedupable & (F.row_number().over(w) > 1), first).otherwise(F.col("duplicate_of")),
    )
    zero = F.col("duplicate_of").isNotNull()
    counts: dict[str, Any] = {}
    for c in ("total_lines", "events", "continuations", "unrelated", "quarantined", "out_of_order_lines"):
        counts[c] = F.when(zero, F.lit(0).cast("long")).otherwise(F.col(c))
    return marked.withColumns(counts)
