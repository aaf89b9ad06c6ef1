"""What one ingestion task reads and writes: the plan of local files into tasks of about equal parse
work (:func:`plan_bins`, gzip weighed by its trailer's size), the files a task reads itself
(:func:`local_items`), and the Parquet files it writes with pyarrow (:class:`TaskWriters`: its events,
one file per group bucket, and its quarantine rows), with the record columns they hold.
"""

from __future__ import annotations

import heapq
import os
import uuid
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from pyspark.sql import types as T

from jobs import buckets as bk
from jobs.ingest.model import arrow_schema
from jobs.schemas import EVENTS

#: the events columns as stored in a run_id partition (the partition value is not in the files)
EVENT_DATA = T.StructType([f for f in EVENTS.fields if f.name != "run_id"])
#: the one stream the Arrow UDF writes: EVENT_DATA + the record type ``_rt`` (e, q, a)
RECORD = T.StructType([*EVENT_DATA.fields, T.StructField("_rt", T.StringType(), True)])
RECORD_ARROW = arrow_schema(RECORD)
EVENT_DATA_ARROW = arrow_schema(EVENT_DATA)
#: quarantine columns → the record column that carries them
QUARANTINE_IN_RECORD = {"detail": "error", "raw": "message"}


def conform(table: pa.Table, schema: pa.Schema, rename: dict[str, str] | None = None) -> pa.Table:
    """``table`` with exactly ``schema``'s columns (``rename``: schema column -> table column;
    missing columns are null; ``_rt`` is left null)."""
    n = table.num_rows
    source = {(rename or {}).get(c, c): c for c in table.column_names}
    arrays = []
    for f in schema:
        if f.name in source:
            col = table[source[f.name]]
            # (one chunk: the array itself; combine_chunks would copy it)
            col = col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
            arrays.append(col if col.type == f.type else col.cast(f.type))
        else:
            arrays.append(pa.nulls(n, f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


class PartWriter:
    """One Parquet file written by the Python worker with pyarrow (``<dir>/<name>``, row groups of
    at least ``ROW_GROUP`` rows). It is written under a hidden temporary name and renamed when the
    task's input is done, so a failed attempt leaves only a hidden file and a retried or speculative
    attempt replaces the same name."""

    ROW_GROUP = 131_072
    #: the columns with min/max statistics in the footer (the ones a reader filters on); the long
    #: text columns (message, continuation, ...) have none: their statistics were about a fifth of
    #: the write's CPU and no query prunes on them
    STATISTICS = ("cluster", "event_date", "ts", "ts_ms", "group_id", "kind", "side", "member_id",
                  "generation", "source_file", "line_no")  # fmt: skip
    #: columns written without a dictionary: nearly one value per row (pyarrow would build a
    #: dictionary and drop it); nested lists (mostly null) are plain too (top-level names only)
    PLAIN = ("ts", "ts_ms", "envelope_ts", "line_no")

    def __init__(self, directory: str, name: str):
        self.dir, self.name = directory, name
        self.buf: list[pa.Table] = []
        self.rows = 0
        self.writer = None
        self.tmp = ""

    @classmethod
    def options(cls) -> dict[str, Any]:
        """The Parquet writer's settings: snappy, statistics of :attr:`STATISTICS`, dictionaries
        for every column but :attr:`PLAIN` (together a third less CPU than pyarrow's defaults)."""
        return {"compression": "snappy", "write_statistics": list(cls.STATISTICS),
                "use_dictionary": [f.name for f in EVENT_DATA_ARROW if f.name not in cls.PLAIN]}  # fmt: skip

    def add(self, table: pa.Table) -> None:
        self.buf.append(table)
        self.rows += table.num_rows
        if self.rows >= self.ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if not self.buf:
            return
        writer = self.writer
        if writer is None:
            os.makedirs(self.dir, exist_ok=True)
            self.tmp = os.path.join(self.dir, f".{self.name}.{uuid.uuid4().hex}.tmp")
            writer = self.writer = pq.ParquetWriter(self.tmp, EVENT_DATA_ARROW, **self.options())
        writer.write_table(pa.concat_tables(self.buf), row_group_size=max(self.rows, 1))
        self.buf, self.rows = [], 0

    def close(self) -> None:
        self._flush()
        if self.writer is not None:
            self.writer.close()
            os.replace(self.tmp, os.path.join(self.dir, self.name))


class TaskWriters:
    """The files one ingestion task writes: its quarantine rows in ``_rt=q/part-<task>.parquet``
    and its events in ``_rt=e/``, one file per group bucket when ``buckets`` > 0
    (:mod:`jobs.buckets`), else ``part-<task>.parquet``."""

    def __init__(self, write_dir: str, task: str, buckets: int):
        self.write_dir, self.task, self.buckets = write_dir, task, buckets
        self.events: dict[Any, PartWriter] = {}
        self.quarantine = PartWriter(f"{write_dir}/_rt=q", f"part-{task}.parquet")

    def _writer(self, bucket: Any) -> PartWriter:
        w = self.events.get(bucket)
        if w is None:
            name = bk.file_name(self.task, bucket) if self.buckets else f"part-{self.task}.parquet"
            w = self.events[bucket] = PartWriter(f"{self.write_dir}/_rt=e", name)
        return w

    def add(self, ev: pa.Table, q: pa.Table) -> None:
        if ev.num_rows:
            data = conform(ev, EVENT_DATA_ARROW)
            if self.buckets:
                for b, part in bk.split_by_bucket(data, self.buckets).items():
                    self._writer(b).add(part)
            else:
                self._writer(None).add(data)
        if q.num_rows:
            self.quarantine.add(conform(q, EVENT_DATA_ARROW, QUARANTINE_IN_RECORD))

    def close(self) -> None:
        for w in [*self.events.values(), self.quarantine]:
            w.close()


def local_items(files: list[tuple[str, str]]):
    """(content, path, cluster, modification time in epoch ms) of local files read by the worker
    itself; content and time None when the file cannot be read (it vanished after the driver listed it)."""
    for path, cluster in files:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
                mtime_ms: int | None = os.fstat(fh.fileno()).st_mtime_ns // 1_000_000
        except OSError:
            data, mtime_ms = None, None
        yield data, path, cluster, mtime_ms


def file_cost(path: str) -> int:
    """Bytes a file will be parsed as: its size, or for gzip the uncompressed size of the trailer
    (ISIZE, modulo 4 GiB: never less than the compressed size)."""
    size = os.path.getsize(path)
    if path.endswith(".gz") and size >= 18:
        try:
            with open(path, "rb") as fh:
                fh.seek(-4, os.SEEK_END)
                isize = int.from_bytes(fh.read(4), "little")
            return max(size, isize)
        except OSError:
            return size
    return size


#: the parse's fixed cost of a file (opening, layout detection, the per-file kernels: ~10 ms) in
#: bytes of text parsed in the same time: many small files weigh more than their bytes
FILE_FIXED_BYTES = 256 << 10


def bin_shares(n: int, parallelism: int) -> list[int]:
    """Relative sizes of ``n`` tasks run in order on ``parallelism`` cores: the last ``4 x
    parallelism`` step down in stairs of ``parallelism`` tasks (4, 3, 2, 1 shares), the ones before
    them take 4 shares. A core that finishes early takes the next task, so the run ends within about
    the last tasks' size of each other, a quarter of an equal task's size."""
    p = max(parallelism, 1)
    tail = min(n, 4 * p)
    return [4] * (n - tail) + [4 - (4 * k) // tail for k in range(tail)] if tail else []


def plan_bins(
    files: list[tuple[str, str]], parallelism: int, costs: dict[str, int] | None = None
) -> list[list[tuple[str, str]]]:
    """Local files packed into tasks in the order Spark runs them (longest file first onto the task
    least loaded for its share, :func:`bin_shares`; a file weighs its bytes plus
    :data:`FILE_FIXED_BYTES`): big tasks first, smaller ones last, so that the cores finish together
    although a task's time is only estimated (Spark's own packing of ``binaryFile`` splits weighs a
    ``.gz`` by its compressed size and fills partitions in order, which on a few big files left one
    core idle for a third of the parse). About four tasks per core, more for big inputs (<= ~256 MB
    each)."""
    if not files:
        return []
    weighed = [((costs[p] if costs and p in costs else file_cost(p)) + FILE_FIXED_BYTES, p, c) for p, c in files]
    total = sum(c for c, _, _ in weighed)
    n = min(len(files), max(4 * max(parallelism, 1), -(-total // (256 << 20))))
    shares = bin_shares(n, parallelism)
    loads = [0] * n
    bins: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    heap = [(0.0, i) for i in range(n)]
    for cost, p, c in sorted(weighed, key=lambda x: (-x[0], x[1])):
        _, i = heapq.heappop(heap)
        bins[i].append((p, c))
        loads[i] += cost
        heapq.heappush(heap, (loads[i] / shares[i], i))
    order = sorted(range(n), key=lambda i: (-loads[i], i))
    return [sorted(bins[i]) for i in order if bins[i]]
