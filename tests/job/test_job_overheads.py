"""The job's driver-side shortcuts around the Spark stages, each equal to its plain version."""

from __future__ import annotations

from jobs.pipeline import AUDIT_READ, earlier_audit, earlier_audit_plain
from jobs.sink import make_sink


def _key(row):
    return tuple((k, repr(row[k])) for k in AUDIT_READ)


def test_earlier_audit_equals_the_spark_read(spark, sample_job):
    """The recovery's read of ``ingest_audit`` with delta-rs gives the rows (and Python values) of
    the Spark collect, on the sample lakehouse and on an empty one."""
    lake, summary = sample_job
    sink = make_sink(spark, lake, "delta", "auto")
    assert sink.arrow_tables
    fast, plain = earlier_audit(sink), earlier_audit_plain(sink)
    assert len(fast) == summary.files_seen > 0
    assert sorted(map(_key, fast)) == sorted(map(_key, plain))
    assert {type(v) for row in fast for v in row.values()} == {type(v) for row in plain for v in row.values()}
    assert all(list(row) == list(AUDIT_READ) for row in fast)


def test_earlier_audit_of_a_new_lakehouse(spark, tmp_path):
    sink = make_sink(spark, str(tmp_path / "lake"), "delta", "auto")
    assert earlier_audit(sink) == earlier_audit_plain(sink) == []


def test_earlier_audit_of_an_older_table(spark, sample_job, tmp_path):
    """An ``ingest_audit`` written before the read columns existed: they read as null both ways."""
    from deltalake import write_deltalake

    from jobs.ingest.resume import READ_COLUMNS
    from jobs.sink_read import PARTITION_COL

    lake, _ = sample_job
    old = make_sink(spark, lake, "delta", "auto").read_arrow("ingest_audit").drop_columns(list(READ_COLUMNS))
    root = str(tmp_path / "old-lake")
    write_deltalake(f"{root}/ingest_audit", old, partition_by=[PARTITION_COL])
    sink = make_sink(spark, root, "delta", "auto")
    fast, plain = earlier_audit(sink), earlier_audit_plain(sink)
    assert len(fast) == old.num_rows > 0
    assert all(row[c] is None for row in fast for c in READ_COLUMNS)
    assert sorted(map(_key, fast)) == sorted(map(_key, plain))
