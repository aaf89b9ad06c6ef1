"""The bucket replay's hand-over of its output (jobs/replay_modes.py ``replay_buckets``): the tasks
writing their union rows themselves and returning only their counts give the union (same rows in
the same order) and the counts of the plain way, where Spark writes the rows the tasks return; the
driver's one-pass split of the union gives the tables of the per-table split."""

from __future__ import annotations

import os
import shutil

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from jobs import buckets as bk
from jobs.pipeline import _union_counts
from jobs.replay_modes import replay_buckets
from jobs.replay_union import (
    REPLAY_TABLES,
    count_summary,
    split_union_arrow,
    split_union_arrow_all,
    union_arrow_schema,
    union_count_rows,
)
from jobs.run_context import RunContext
from tests.job.helpers import job_config


def _bucketed_copy(lake: str, out: str, buckets: int) -> str:
    """The sample run's events split into ``buckets`` bucket files, two "ingestion tasks" each."""
    events_dir = os.path.join(lake, "events")
    part = sorted(d for d in os.listdir(events_dir) if d.startswith("run_id="))[-1]
    table = ds.dataset(os.path.join(events_dir, part), format="parquet").to_table()
    os.makedirs(out)
    half = table.num_rows // 2
    for task, rows in (("t0", table.slice(0, half)), ("t1", table.slice(half))):
        for b, sub in bk.split_by_bucket(rows, buckets).items():
            pq.write_table(sub, os.path.join(out, bk.file_name(task, b)))
    return out


@pytest.mark.spark
def test_workers_written_union_equals_the_spark_written_one(spark, sample_job, tmp_path) -> None:
    lake, _ = sample_job
    copy = str(tmp_path / "lake")
    shutil.copytree(lake, copy)  # the runs below stage files and split the stored states in it
    folder = _bucketed_copy(copy, str(tmp_path / "buckets"), 3)
    assert len([k for k in bk.bucket_files(folder) if isinstance(k, int)]) == 3
    got = {}  # the same run id: the rows are read before the second run stages its own
    for workers_write in (False, True):
        r = RunContext(spark, job_config(copy), "batch", "test-run")
        union, stage, counted = replay_buckets(r, folder, 3, frozenset(), frozenset(), workers_write)
        local = ds.dataset(stage, format="parquet", schema=union_arrow_schema()).to_table()
        assert union.count() == local.num_rows > 0
        got[workers_write] = (local, counted, _union_counts(union, None), _union_counts(union, local))
    (plain, none, spark_counts, arrow_counts), (fast, counted, *_) = got[False], got[True]
    assert none is None
    assert fast.equals(plain)
    assert counted == spark_counts == arrow_counts
    counts, errors, untimed, unattributed = counted
    assert sum(counts.values()) == plain.num_rows and counts["group_state"] > 0
    assert counts["rebalances"] > 0 and errors == 0
    # the one-pass split on the driver gives every table of the per-table split (rows in order)
    tables = split_union_arrow_all(plain)
    assert list(tables) == list(REPLAY_TABLES)
    for name in REPLAY_TABLES:
        assert tables[name].equals(split_union_arrow(plain, name)), name
        assert tables[name].num_rows == counts.get(name, 0)
    empty = split_union_arrow_all(union_arrow_schema().empty_table())
    assert all(empty[t].equals(split_union_arrow(union_arrow_schema().empty_table(), t)) for t in REPLAY_TABLES)


def test_count_rows_of_a_union() -> None:
    schema = union_arrow_schema()
    rows = [("anomalies", "replay_error"), ("anomalies", "no_timestamp"), ("anomalies", "replay_error"),
            ("anomalies", "out_of_order"), ("rebalances", None), ("group_state", None), ("rebalances", None),
            ("anomalies", "unattributed")]  # fmt: skip
    union = pa.table({"_table": [t for t, _ in rows], "kind": [k for _, k in rows]}).cast(
        pa.schema([schema.field("_table"), schema.field("kind")])
    )
    counted = union_count_rows(union)
    assert counted.num_rows == 6
    summary = count_summary(zip(*counted.to_pydict().values(), strict=True))
    assert summary == ({"anomalies": 5, "rebalances": 2, "group_state": 1}, 2, 1, 1)
    # several tasks' rows add up
    assert count_summary([("rebalances", None, 2), ("rebalances", None, 3), ("anomalies", "replay_error", 1)]) == (
        {"rebalances": 5, "anomalies": 1}, 1, 0, 0)
    assert union_count_rows(schema.empty_table()).num_rows == 0
