"""The bucket replay's hand-over of its output (jobs/replay_modes.py ``replay_buckets``): the tasks
writing their replay tables themselves (a folder per table) and returning only their counts give
the tables (same rows in the same order) and the counts of the plain way, where Spark writes the
union rows the tasks return and the driver splits it; the tables built directly from a replay's
column dicts equal the split of their union."""

from __future__ import annotations

import os
import shutil

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from jobs import buckets as bk
from jobs.replay_modes import replay_buckets
from jobs.replay_union import (
    REPLAY_TABLES,
    count_summary,
    record_columns,
    replay_tables,
    split_union_arrow,
    split_union_arrow_all,
    tables_count_rows,
    union_arrow_schema,
    union_count_rows,
    union_table,
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
def test_workers_written_tables_equal_the_spark_written_union(spark, sample_job, tmp_path) -> None:
    lake, _ = sample_job
    copy = str(tmp_path / "lake")
    shutil.copytree(lake, copy)  # the runs below stage files and split the stored states in it
    folder = _bucketed_copy(copy, str(tmp_path / "buckets"), 3)
    assert len([k for k in bk.bucket_files(folder) if isinstance(k, int)]) == 3
    got = {}  # the same run id: the rows are read before the second run stages its own
    for workers_write in (False, True):
        r = RunContext(spark, job_config(copy), "batch", "test-run")
        out = replay_buckets(r, folder, 3, frozenset(), frozenset(), workers_write)
        tables = out.arrow_tables()
        frames = {t: out.frame(t).collect() for t in REPLAY_TABLES}
        union = None if out.per_table else ds.dataset(out.folder, format="parquet", schema=union_arrow_schema()).to_table()
        got[workers_write] = (out, tables, frames, out.counts(tables), out.counts(), union)
    (plain_out, plain, plain_frames, arrow_counts, spark_counts, union) = got[False]
    (fast_out, fast, fast_frames, counted, _, _) = got[True]
    assert plain_out.counted is None and not plain_out.per_table
    assert fast_out.per_table and fast_out.counted is not None
    assert list(fast) == list(plain) == list(REPLAY_TABLES)
    for name in REPLAY_TABLES:
        assert fast[name].equals(plain[name]), name
        assert fast_frames[name] == plain_frames[name], name
    assert counted == spark_counts == arrow_counts
    counts, errors, untimed, unattributed = counted
    assert sum(counts.values()) == sum(t.num_rows for t in plain.values())
    assert counts["group_state"] > 0 and counts["rebalances"] > 0 and errors == 0
    # the one-pass split on the driver gives every table of the per-table split (rows in order)
    assert union.num_rows == sum(counts.values())
    for name in REPLAY_TABLES:
        assert plain[name].equals(split_union_arrow(union, name)), name
        assert plain[name].num_rows == counts.get(name, 0)
    empty = split_union_arrow_all(union_arrow_schema().empty_table())
    assert all(empty[t].equals(split_union_arrow(union_arrow_schema().empty_table(), t)) for t in REPLAY_TABLES)


def test_replay_tables_equal_the_split_of_the_union() -> None:
    """``replay_tables`` (the tables built directly from column dicts) equals the split of their
    union, and its counts the union's, with tables left without rows and rows spread over parts."""
    parts = [
        record_columns("rebalances", "c1", "g1", [{"rebalance_id": "r1", "start_ts": 1_700_000_000_123,
                                                    "old_generation": 3, "outcome": "completed"}]),
        record_columns("anomalies", "c1", "g1", [{"ts": 5, "kind": "replay_error", "detail": "x"},
                                                  {"ts": None, "kind": "out_of_order", "detail": None}]),
        record_columns("assignments", "c1", "g1", [{"generation": 1, "member_id": "m", "topic": "t",
                                                     "partitions": (0, 1), "source": "sync", "ts": 9}]),
        record_columns("rebalances", "c2", "g2", [{"rebalance_id": "r2", "end_ts": 7, "duration_ms": 3}]),
        record_columns("anomalies", "c2", "g2", [{"ts": 6, "kind": "replay_error", "detail": "y"}]),
        record_columns("group_state", "c2", "g2", [{"state_json": "{}", "last_ts": 8, "events_replayed": 2,
                                                     "run_id": "r"}]),
    ]  # fmt: skip
    union = union_table(parts)
    direct, split = replay_tables(parts), split_union_arrow_all(union)
    assert list(direct) == list(split) == list(REPLAY_TABLES)
    for name in REPLAY_TABLES:
        assert direct[name].equals(split[name]), name
    assert direct["rebalances"].column("rebalance_id").to_pylist() == ["r1", "r2"]
    assert direct["rebalances"].column("start_ts")[0].as_py().microsecond == 123_000
    assert direct["assignments"].column("partitions").to_pylist() == [[0, 1]]
    assert direct["member_sessions"].num_rows == 0

    def summary(t):
        return count_summary(zip(*t.to_pydict().values(), strict=True))

    assert summary(tables_count_rows(direct)) == summary(union_count_rows(union)) == (
        {"rebalances": 2, "anomalies": 3, "assignments": 1, "group_state": 1}, 2, 0, 0)
    assert tables_count_rows(replay_tables([])).num_rows == 0


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
