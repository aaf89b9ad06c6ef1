"""One example line per quarantine reason (jobs/run_lost.py): the pyarrow read of the partition's
files, batch by batch, gives the examples of the plain Spark aggregate (the first line by file and
line, nulls first), and the delta-rs sink lists a partition's files."""

from __future__ import annotations

import os
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from jobs.run_lost import quarantine_examples, quarantine_examples_arrow, quarantine_examples_spark
from jobs.sink import make_sink, table_arrow_schema


class _FilesSink:
    """A sink whose quarantine partition is a list of Parquet files."""

    def __init__(self, spark, files):
        self.spark, self.files = spark, files

    def read_partition(self, name, value):
        return self.spark.read.parquet(*self.files)

    def partition_files(self, name, value):
        return self.files


def _quarantine_files(folder: str) -> list[str]:
    rng = random.Random(7)
    schema = table_arrow_schema("quarantine")
    reasons = ["unparsable_layout", "bad_ts", "no_group", None]
    files = []
    for i in range(3):
        rows = []
        for _ in range(400):
            sf = rng.choice(["b.log", "a.log", "c.log", None])
            ln = rng.choice([None, *range(1, 60)])
            rows.append({"cluster": "c", "source_file": sf, "line_no": ln, "reason": rng.choice(reasons),
                         "raw": f"line {sf} {ln} {rng.random()}", "run_id": "r"})  # fmt: skip
        path = os.path.join(folder, f"part-{i}.parquet")
        # small row groups: several batches per file
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), path, row_group_size=64)
        files.append(path)
    return files


@pytest.mark.spark
def test_arrow_examples_equal_the_spark_aggregate(spark, tmp_path) -> None:
    files = _quarantine_files(str(tmp_path))
    plain = quarantine_examples_spark(_FilesSink(spark, files), "r")
    fast = quarantine_examples_arrow(files)
    assert set(plain) == {"unparsable_layout", "bad_ts", "no_group", None}
    # equal (file, line); the raw text of that (file, line) when the pair is unique per reason
    assert {k: v[:2] for k, v in fast.items()} == {k: v[:2] for k, v in plain.items()}
    assert all(v[0] is None for v in fast.values())  # nulls sort first, as in Spark
    assert quarantine_examples(_FilesSink(spark, files), "r") == fast
    assert quarantine_examples_arrow([]) == {}


def test_examples_pick_the_first_line_by_file_and_line(tmp_path) -> None:
    schema = table_arrow_schema("quarantine")
    rows = [("x", "b.log", 1, "b1"), ("x", "a.log", 9, "a9"), ("x", "a.log", 3, "a3"), ("y", "c.log", 2, "c2")]
    paths = []
    for i, chunk in enumerate((rows[:2], rows[2:])):  # the earliest line of "x" in the second file
        path = str(tmp_path / f"q{i}.parquet")
        table = pa.Table.from_pylist(
            [{"reason": r, "source_file": f, "line_no": n, "raw": raw} for r, f, n, raw in chunk], schema=schema
        )
        pq.write_table(table, path)
        paths.append(path)
    assert quarantine_examples_arrow(paths) == {"x": ("a.log", 3, "a3"), "y": ("c.log", 2, "c2")}


@pytest.mark.spark
def test_delta_rs_sink_lists_a_partitions_files(spark, sample_job) -> None:
    lake, summary = sample_job
    sink = make_sink(spark, lake, "delta", "auto", "test")
    assert sink.kind == "delta-rs"
    files = sink.partition_files("events", summary.run_id)
    assert files and all(os.path.isfile(f) and f"run_id={summary.run_id}" in f for f in files)
    assert sum(pq.read_metadata(f).num_rows for f in files) == sink.read_partition("events", summary.run_id).count()
    assert sink.partition_files("events", "no-such-run") == []
    assert quarantine_examples(sink, summary.run_id) == summary.quarantine_examples == {}  # none in the samples
