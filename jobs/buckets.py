"""Group buckets: the hand-over from ingestion to the replay through files instead of a shuffle.

When the ingestion workers write the events Parquet themselves (a local or FUSE staging folder, see
:func:`jobs.ingest.spark_ingest.worker_writable`), each worker splits its events by *bucket*, a hash
of (``cluster``, ``group_id``)::

    part-<task>-b<bucket>.parquet     events of the groups of that bucket
    part-<task>-bx.parquet            events without a group id (kept in ``events``, never replayed)

Every event of a group lands in the same bucket whichever file or task it came from, so the replay can
read bucket ``k``'s files (one per ingestion task) in one Python worker and replay its groups there:
no JVM shuffle, sort or Arrow hand-over of every event (at 10 M lines that hand-over cost as much as
the whole ingestion). The files are still the run's ``events`` partition as they are (adopted by the
sink); only their names carry the bucket.

The hash is CRC-32 of the UTF-8 bytes of ``cluster + "\\0" + group_id`` modulo the bucket count:
:func:`bucket_of` in Python, :func:`bucket_expr` as a Spark expression (``crc32`` is the same
function), so the stored group states can be split the same way by Spark.
"""

from __future__ import annotations

import os
import re
import zlib
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import functions as F

#: events without a group id
NO_GROUP = "x"
_NAME = re.compile(r"^part-(?P<task>[^.]+)-b(?P<bucket>\d+|x)\.parquet$")


def bucket_of(cluster: str, group_id: str, buckets: int) -> int:
    """The bucket of one group (``0 <= bucket < buckets``)."""
    return zlib.crc32(f"{cluster}\0{group_id}".encode()) % buckets


def bucket_expr(buckets: int, cluster: str = "cluster", group_id: str = "group_id"):
    """:func:`bucket_of` as a Spark column expression."""
    key = F.encode(F.concat(F.col(cluster), F.lit("\0"), F.col(group_id)), "UTF-8")
    return (F.crc32(key) % F.lit(buckets)).cast("int")


def file_name(task: str, bucket: int | str) -> str:
    b = bucket if bucket == NO_GROUP else f"{int(bucket):04d}"
    return f"part-{task}-b{b}.parquet"


def _row_buckets(table, buckets: int) -> np.ndarray | None:
    """The bucket of every row (-1 for rows without a group id), None when no row has one. The
    hash runs once per distinct (cluster, group id), not once per row."""
    groups = table.column("group_id").combine_chunks()
    if groups.null_count == len(groups):
        return None
    clusters = table.column("cluster").combine_chunks()
    # one code per distinct (cluster, group id): cluster and group id joined by a separator
    key = pc.binary_join_element_wise(clusters.fill_null(""), groups, "\0")
    enc = pc.dictionary_encode(key)
    codes = np.array([zlib.crc32(k.encode()) % buckets for k in enc.dictionary.to_pylist()], np.int64)
    idx = enc.indices
    if idx.null_count:
        valid = np.asarray(idx.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        return np.where(valid, codes[np.asarray(idx.fill_null(0).to_numpy(zero_copy_only=False))], -1)
    return codes[np.asarray(idx.to_numpy(zero_copy_only=False))]


def split_by_bucket(table, buckets: int) -> dict[int | str, Any]:
    """The rows of an events Arrow table by bucket (:data:`NO_GROUP` for rows without a group id),
    each in the table's row order: :data:`NO_GROUP` first, then the buckets in ascending order.
    One stable ordering of the rows by bucket and one ``take`` (a table of one bucket, most client
    logs, is returned as it is), then a zero-copy slice per bucket; the same parts as
    :func:`split_by_bucket_plain` (tests/job/test_buckets.py)."""
    if table.num_rows == 0:
        return {}
    per_row = _row_buckets(table, buckets)
    if per_row is None:
        return {NO_GROUP: table}
    first = int(per_row[0])
    if (per_row == first).all():
        return {NO_GROUP if first < 0 else first: table}
    order = np.argsort(per_row, kind="stable")
    ordered = table.take(pa.array(order, pa.int64()))
    keys, starts = np.unique(per_row[order], return_index=True)
    ends = np.append(starts[1:], len(order))
    return {NO_GROUP if k < 0 else int(k): ordered.slice(int(s), int(e - s)) for k, s, e in zip(keys, starts, ends)}


def split_by_bucket_plain(table, buckets: int) -> dict[int | str, Any]:
    """The plain way of :func:`split_by_bucket`, one filter of the whole table per bucket (the
    reference it is tested equal to)."""
    n = table.num_rows
    if n == 0:
        return {}
    per_row = _row_buckets(table, buckets)
    if per_row is None:
        return {NO_GROUP: table}
    out: dict[int | str, Any] = {}
    if (per_row < 0).any():
        out[NO_GROUP] = table.filter(pa.array(per_row < 0))
    for b in sorted(set(per_row[per_row >= 0].tolist())):
        out[b] = table.filter(pa.array(per_row == b))
    return out


def bucket_files(folder: str) -> dict[int | str, list[str]]:
    """The bucket files of an events folder: bucket -> sorted paths."""
    out: dict[int | str, list[str]] = {}
    if not os.path.isdir(folder):
        return out
    for name in sorted(os.listdir(folder)):
        m = _NAME.match(name)
        if m:
            b = m["bucket"]
            out.setdefault(b if b == NO_GROUP else int(b), []).append(os.path.join(folder, name))
    return out


def choose_buckets(input_bytes: int, parallelism: int) -> int:
    """How many buckets: four per core (skewed groups balance out) but not more than one per ~32 MB
    of input (each bucket is one replay task and one file per ingestion task), and at least one per
    GB of input so that one replay task holds a bounded share of the events in Arrow."""
    per_core = min(4 * max(parallelism, 1), -(-input_bytes // (32 << 20)))
    return max(1, per_core, -(-input_bytes // (1 << 30)))
