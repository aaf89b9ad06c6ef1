"""DataFrame-level ingestion (shared ``spark`` fixture): schemas, values, accounting, duplicates,
missing and corrupt inputs, clusters, staging."""

from __future__ import annotations

import datetime as dt
import gzip
import os
import shutil

import pytest
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.testing import assertDataFrameEqual

from jobs.ingest import IngestError, IngestSettings, InputSpec, ingest
from jobs.schemas import EVENTS, INGEST_AUDIT, QUARANTINE
from tests.ingest.helpers import DIALECT_DIR, load_family

pytestmark = pytest.mark.spark

BROKER = """[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Preparing to rebalance group orders in state PreparingRebalance with old generation 3 (__consumer_offsets-7) (reason: removing member m9 on heartbeat expiration) (kafka.coordinator.group.GroupCoordinator)
[2024-05-01 10:00:00,100] INFO [Log partition=t-0, dir=/data] Rolled new log segment at offset 5 in 1 ms. (kafka.log.LocalLog)
[2024-05-01 10:00:03,000] INFO [GroupCoordinator 1]: Stabilized group orders generation 4 (__consumer_offsets-7) with 2 members (kafka.coordinator.group.GroupCoordinator)
[2024-05-01 10:00:03,050] INFO [GroupCoordinator 1]: Frobnicated group orders (kafka.coordinator.group.GroupCoordinator)
"""
CLIENT = """2024-05-01 10:00:03.010  INFO 7 --- [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=c1, groupId=orders] Successfully joined group with generation Generation{generationId=4, memberId='m1', protocol='range'}
2024-05-01 10:00:03.020  INFO 7 --- [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=c1, groupId=orders] Finished assignment for group at generation 4: {m1=Assignment(partitions=[t-0, t-1]), m2=Assignment(partitions=[t-2])}
2024-05-01 10:00:03.030 ERROR 7 --- [ntainer#0-0-C-1] c.e.Listener                             : boom
java.lang.IllegalStateException: boom
\tat c.e.Listener.on(Listener.java:1)
"""


def _write(path, text: str, gz: bool = False) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.encode()
    with open(path, "wb") as fh:
        fh.write(gzip.compress(data) if gz else data)
    return str(path)


@pytest.fixture
def logs(tmp_path):
    d = tmp_path / "logs"
    _write(d / "broker" / "server.log", BROKER)
    _write(d / "client" / "app.log.gz", CLIENT, gz=True)
    return d


def test_schemas_equal_jobs_schemas(spark, logs) -> None:
    res = ingest(spark, [InputSpec(str(logs), cluster="prod")], run_id="r1")
    assert res.events.schema == EVENTS
    assert res.quarantine.schema == QUARANTINE
    assert res.audit.schema == INGEST_AUDIT
    res.unpersist()


def test_event_values(spark, logs) -> None:
    res = ingest(spark, [InputSpec(str(logs), cluster="prod")], run_id="r1")
    got = res.events.select(
        "cluster",
        "ts_ms",
        "group_id",
        "kind",
        "side",
        "member_id",
        "generation",
        "coordinator",
        "reason",
        "member_count",
        "offsets_partition",
        "client_id",
        "protocol",
        "line_no",
        "run_id",
    )
    expected = spark.createDataFrame(
        [
            (
                "prod",
                1714557600000,
                "orders",
                "rebalance_prepared",
                "broker",
                None,
                3,
                1,
                "removing member m9 on heartbeat expiration",
                None,
                7,
                None,
                None,
                1,
                "r1",
            ),
            (
                "prod",
                1714557603000,
                "orders",
                "join_completed",
                "broker",
                None,
                4,
                1,
                None,
                2,
                7,
                None,
                None,
                3,
                "r1",
            ),
            (
                "prod",
                1714557603010,
                "orders",
                "joined",
                "client",
                "m1",
                4,
                None,
                None,
                None,
                None,
                "c1",
                "range",
                1,
                "r1",
            ),
            (
                "prod",
                1714557603020,
                "orders",
                "leader_assigned",
                "client",
                None,
                4,
                None,
                None,
                None,
                None,
                "c1",
                None,
                2,
                "r1",
            ),
        ],
        got.schema,
    )
    assertDataFrameEqual(got, expected)
    row = (
        res.events.filter(F.col("kind") == "leader_assigned")
        .select("assignment", "ts", "event_date", "layout")
        .first()
    )
    assert row["assignment"] == {"m1": ["t-0", "t-1"], "m2": ["t-2"]}
    assert row["ts"] == dt.datetime(2024, 5, 1, 10, 0, 3, 20000)
    assert row["event_date"] == dt.date(2024, 5, 1)
    assert row["layout"] == "springboot"
    q = res.quarantine.select("source_file", "line_no", "reason", "group_id", "cluster").collect()
    assert [(r["line_no"], r["reason"], r["group_id"], r["cluster"]) for r in q] == [
        (4, "group_line_not_understood", "orders", "prod")
    ]
    assert q[0]["source_file"].endswith("broker/server.log")
    res.unpersist()


def test_audit_reconciles_per_file(spark, logs) -> None:
    res = ingest(spark, [InputSpec(str(logs), cluster="prod")], run_id="r1")
    rows = {os.path.basename(r["source_file"]): r for r in res.audit.collect()}
    assert set(rows) == {"server.log", "app.log.gz"}
    b, c = rows["server.log"], rows["app.log.gz"]
    assert (b["total_lines"], b["events"], b["continuations"], b["unrelated"], b["quarantined"]) == (
        4,
        2,
        0,
        1,
        1,
    )
    assert (c["total_lines"], c["events"], c["continuations"], c["unrelated"], c["quarantined"]) == (
        5,
        2,
        0,
        3,
        0,
    )
    assert c["compressed"] is True and b["compressed"] is False
    assert b["first_ts"] == dt.datetime(2024, 5, 1, 10, 0, 0) and b["last_ts"] == dt.datetime(
        2024, 5, 1, 10, 0, 3, 50000
    )
    assert b["layouts"] == ["log4j"]
    res.unpersist()


def test_accounting_invariant_on_a_mixed_corpus(spark, tmp_path) -> None:
    """Every golden fixture family (broker, client, Connect, other clients, KIP-848) + the layout
    fixtures + bad lines, in several files, some gzipped: total = events + continuations +
    unrelated + quarantined, per file and for the run, and the row counts agree."""
    d = tmp_path / "mixed"
    fams = sorted(f[:-6] for f in os.listdir(DIALECT_DIR) if f.endswith(".jsonl"))
    for i, fam in enumerate(fams):
        text = "\n".join(e["line"] for e in load_family(fam)) + "\n"
        _write(d / f"{fam}.log" if i % 2 else d / f"{fam}.log.gz", text, gz=bool(i % 2 == 0))
    _write(d / "bad.log", BROKER + "garbage\n\n\tat orphan\n" + CLIENT)
    with open(d / "bin.log", "wb") as fh:
        fh.write(b"\x00\x01binary\n\xff\xfe\n" + BROKER.encode())
    res = ingest(spark, [InputSpec(str(d))], run_id="mix")
    audit = res.audit.collect()
    assert len(audit) == len(fams) + 2
    for r in audit:
        assert r["total_lines"] == r["events"] + r["continuations"] + r["unrelated"] + r["quarantined"], r[
            "source_file"
        ]
    tot = {
        k: sum(r[k] for r in audit)
        for k in ("total_lines", "events", "continuations", "unrelated", "quarantined")
    }
    expected_lines = (
        sum(len(load_family(f)) for f in fams) + BROKER.count("\n") * 2 + 3 + CLIENT.count("\n") + 2
    )
    assert tot["total_lines"] == expected_lines
    assert tot["quarantined"] == res.quarantine.count()
    # one line of the fixtures names two deleted groups: two events, one event line
    assert res.events.count() == tot["events"] + 1
    assert res.events.select("line_no", "source_file").distinct().count() == tot["events"]
    assert res.events.filter(F.col("ts").isNull() | F.col("group_id").isNull()).count() == 0
    res.unpersist()


def test_same_file_twice_and_same_content_twice_are_read_once(spark, tmp_path) -> None:
    a = _write(tmp_path / "a" / "server.log", BROKER)
    b = _write(tmp_path / "b" / "copy-of-server.log", BROKER)
    c = _write(tmp_path / "c" / "server.log.gz", BROKER, gz=True)
    res = ingest(
        spark, [InputSpec(a), InputSpec(a), InputSpec(str(tmp_path / "b")), InputSpec(c)], run_id="d"
    )
    audit = {r["source_file"]: r for r in res.audit.collect()}
    assert len(audit) == 3
    assert audit[a]["duplicate_of"] is None and audit[a]["events"] == 2
    for dup in (b, c):
        assert audit[dup]["duplicate_of"] == a
        assert (audit[dup]["total_lines"], audit[dup]["events"], audit[dup]["quarantined"]) == (0, 0, 0)
    assert res.events.count() == 2
    assert res.quarantine.count() == 1
    res.unpersist()


def test_missing_path_raises_naming_it(spark, tmp_path) -> None:
    with pytest.raises(IngestError, match="nope/server.log"):
        ingest(spark, [InputSpec(str(tmp_path / "nope" / "server.log"))])


def test_missing_path_quarantined_on_request(spark, logs, tmp_path) -> None:
    missing = str(tmp_path / "nope" / "*.log")
    res = ingest(
        spark,
        [InputSpec(str(logs)), InputSpec(missing, cluster="c2")],
        IngestSettings(on_missing="quarantine"),
        run_id="m",
    )
    a = res.audit.filter(F.col("source_file") == missing).collect()
    assert len(a) == 1 and a[0]["error"].startswith("missing_file") and a[0]["cluster"] == "c2"
    q = res.quarantine.filter(F.col("reason") == "missing_file").collect()
    assert [r["source_file"] for r in q] == [missing]
    assert res.events.count() == 4
    res.unpersist()


def test_corrupt_gzip_raises_naming_the_file(spark, tmp_path) -> None:
    good = _write(tmp_path / "l" / "ok.log", BROKER)
    with open(tmp_path / "l" / "broken.log.gz", "wb") as fh:
        fh.write(gzip.compress(os.urandom(4000))[:1000])
    with pytest.raises(IngestError, match="broken.log.gz"):
        ingest(spark, [InputSpec(str(tmp_path / "l"))], IngestSettings(on_corrupt="error"))
    res = ingest(spark, [InputSpec(str(tmp_path / "l"))])  # on_corrupt: quarantine by default
    audit = {os.path.basename(r["source_file"]): r for r in res.audit.collect()}
    assert audit["broken.log.gz"]["error"].startswith("corrupt_gzip")
    assert audit["ok.log"]["error"] is None
    assert [r["reason"] for r in res.quarantine.filter(F.col("line_no").isNull()).collect()] == [
        "corrupt_gzip"
    ]
    assert res.events.filter(F.col("source_file") == good).count() == 2
    res.unpersist()


def test_empty_file_has_an_audit_row(spark, tmp_path) -> None:
    _write(tmp_path / "e" / "empty.log", "")
    _write(tmp_path / "e" / "server.log", BROKER)
    res = ingest(spark, [InputSpec(str(tmp_path / "e"))])
    audit = {os.path.basename(r["source_file"]): r for r in res.audit.collect()}
    assert audit["empty.log"]["total_lines"] == 0 and audit["empty.log"]["error"] is None
    assert audit["server.log"]["total_lines"] == 4
    res.unpersist()


def test_clusters_and_globs(spark, tmp_path) -> None:
    _write(tmp_path / "eu" / "server.log", BROKER)
    _write(tmp_path / "us" / "server.log.gz", BROKER.replace("orders", "payments"), gz=True)
    res = ingest(
        spark,
        [InputSpec(str(tmp_path / "eu" / "*.log"), "eu"), InputSpec(str(tmp_path / "us" / "*.gz"), "us")],
    )
    got = res.events.groupBy("cluster", "group_id").count()
    assertDataFrameEqual(
        got, [Row(cluster="eu", group_id="orders", count=2), Row(cluster="us", group_id="payments", count=2)]
    )
    res.unpersist()


def test_parquet_staging_gives_the_same_tables(spark, logs, tmp_path) -> None:
    cached = ingest(spark, [InputSpec(str(logs))], run_id="s")
    staged = ingest(
        spark, [InputSpec(str(logs))], IngestSettings(staging_dir=str(tmp_path / "staging")), run_id="s"
    )
    assertDataFrameEqual(staged.events, cached.events)
    assertDataFrameEqual(staged.quarantine, cached.quarantine)
    assertDataFrameEqual(staged.audit, cached.audit)
    assert os.path.isdir(tmp_path / "staging" / "run_id=s" / "_rt=e")
    cached.unpersist()
    shutil.rmtree(tmp_path / "staging")


def test_staged_event_files_hold_exactly_the_events(spark, logs, tmp_path) -> None:
    """The ``_rt=e`` files of the staging folder have the events table's columns (without the
    ``run_id`` partition value) and exactly the result's events, so a sink may adopt them."""
    from jobs.ingest.task_files import EVENT_DATA

    res = ingest(spark, [InputSpec(str(logs))], IngestSettings(staging_dir=str(tmp_path / "st")), run_id="s")
    assert res.events_dir == str(tmp_path / "st") + "/run_id=s/_rt=e"
    files = spark.read.parquet(res.events_dir)
    assert files.columns == EVENT_DATA.fieldNames()
    assertDataFrameEqual(files, res.events.drop("run_id"))
    assert sum(a["events"] for a in res.audit_rows) == files.count() > 0


def test_duplicate_files_are_not_adoptable(spark, tmp_path) -> None:
    """A second copy of a file is marked ``duplicate_of`` and its events dropped; the staged files
    then hold more than the events, so ``events_dir`` is None (the sink rewrites instead)."""
    src = tmp_path / "in"
    src.mkdir()
    line = (
        "[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 3 "
        "(__consumer_offsets-1) with 1 members (kafka.coordinator.group.GroupCoordinator)\n"
    )
    (src / "a.log").write_text(line)
    (src / "b.log").write_text(line)
    res = ingest(spark, [InputSpec(str(src))], IngestSettings(staging_dir=str(tmp_path / "st")), run_id="d")
    assert res.events_dir is None
    assert res.events.count() == 1
    by_file = {os.path.basename(a["source_file"]): a for a in res.audit_rows}
    assert by_file["b.log"]["duplicate_of"].endswith("a.log") and by_file["b.log"]["events"] == 0
    assert by_file["a.log"]["events"] == 1


def test_part_writer_renames_at_close_and_a_retry_replaces(tmp_path) -> None:
    """The worker-side writer: nothing visible before close, one ``part-<partition>.parquet`` after it
    (row groups buffered), and a second attempt of the same partition replaces the file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from jobs.ingest.task_files import EVENT_DATA_ARROW, PartWriter

    def rows(n: int, kind: str) -> pa.Table:
        t = EVENT_DATA_ARROW.empty_table().to_pydict()
        t = {k: [None] * n for k in t}
        t.update(cluster=["c"] * n, group_id=["g"] * n, kind=[kind] * n, line_no=list(range(n)))
        return pa.Table.from_pydict(t, schema=EVENT_DATA_ARROW)

    d = tmp_path / "_rt=e"
    w = PartWriter(str(d), "part-00003.parquet")
    w.ROW_GROUP = 4
    w.add(rows(3, "a"))
    w.add(rows(3, "b"))  # 6 >= 4: a row group is written to the hidden temporary file
    assert [p.name for p in d.iterdir() if not p.name.startswith(".")] == []
    w.add(rows(1, "c"))
    w.close()
    assert sorted(p.name for p in d.iterdir()) == ["part-00003.parquet"]
    got = pq.read_table(d / "part-00003.parquet")
    assert got.schema.equals(EVENT_DATA_ARROW) and got.column("kind").to_pylist() == ["a"] * 3 + ["b"] * 3 + [
        "c"
    ]
    retry = PartWriter(str(d), "part-00003.parquet")
    retry.add(rows(2, "r"))
    retry.close()
    assert pq.read_table(d / "part-00003.parquet").column("kind").to_pylist() == ["r", "r"]
    empty = PartWriter(str(tmp_path / "_rt=q"), "part-00000.parquet")
    empty.close()
    assert not (tmp_path / "_rt=q").exists()  # no rows, no file
    meta = pq.read_metadata(d / "part-00003.parquet").row_group(0)
    stats = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert {k for k, c in stats.items() if c.is_stats_set} == set(PartWriter.STATISTICS)  # (none for long texts)
    assert stats["line_no"].statistics.max == 1 and stats["kind"].statistics.min == "r"
    assert "RLE_DICTIONARY" in stats["kind"].encodings and "RLE_DICTIONARY" not in stats["ts_ms"].encodings


@pytest.mark.parametrize(
    "path,local",
    [("/data/lake/_staging", True), ("file:///data/lake", True), ("/dbfs/mnt/lake", True),
     ("dbfs:/mnt/lake", False), ("s3://bucket/lake", False), ("abfss://c@acct.dfs.core.windows.net/x", False)],
)  # fmt: skip
def test_worker_writable_paths(path, local) -> None:
    from jobs.ingest.spark_ingest import worker_writable

    assert worker_writable(path) is local


def test_a_file_that_vanishes_before_its_task_reads_it_is_quarantined(tmp_path) -> None:
    """The workers read local files themselves: a file listed by the driver but gone when its task
    runs becomes a missing_file audit row and quarantine row; the other files of the task go on."""
    import pyarrow.parquet as pq

    from jobs.ingest.spark_ingest import _write_parsed
    from jobs.ingest.task_files import TaskWriters, local_items

    good = tmp_path / "a.log"
    good.write_text(
        "[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 3 "
        "(__consumer_offsets-1) with 1 members (kafka.coordinator.group.GroupCoordinator)\n"
    )
    gone = str(tmp_path / "gone.log")
    out = tmp_path / "out"
    audits = _write_parsed(
        local_items([(gone, "c"), (str(good), "c")]),
        IngestSettings(),
        "r",
        TaskWriters(str(out), "f00000", 2),
    )
    by_file = {a["source_file"]: a for a in audits}
    assert by_file[gone]["error"].startswith("missing_file") and by_file[gone]["total_lines"] == 0
    assert by_file[str(good)]["events"] == 1 and by_file[str(good)]["error"] is None
    q = pq.read_table(out / "_rt=q" / "part-f00000.parquet").to_pylist()
    assert [(r["source_file"], r["reason"]) for r in q] == [(gone, "missing_file")]
    (event_file,) = os.listdir(out / "_rt=e")
    from jobs.buckets import bucket_of, file_name

    assert event_file == file_name("f00000", bucket_of("c", "g", 2))


def test_binary_file_tasks_write_what_local_tasks_write(spark, logs, tmp_path) -> None:
    """Remote inputs (s3://, abfss://, dbfs:/) still go through Spark's binaryFile reader; with a
    worker-writable staging folder their tasks write the same bucketed event files and audit as the
    tasks that read local files themselves."""
    import pyarrow.dataset as ds

    from jobs.ingest.spark_ingest import RECORD, _binary_files, _parse_partition, audit_from_json

    local = ingest(
        spark,
        [InputSpec(str(logs))],
        IngestSettings(staging_dir=str(tmp_path / "a"), group_buckets=3),
        run_id="s",
    )
    assert local.buckets == 3 and any("-b0" in f for f in os.listdir(local.bucket_dir))
    paths = sorted(os.path.join(r, f) for r, _, fs in os.walk(logs) for f in fs)
    files = _binary_files(spark, [(p, "default") for p in paths], IngestSettings(), [])
    out = str(tmp_path / "b")
    records = files.mapInArrow(_parse_partition(IngestSettings(), "s", out, 3), RECORD).collect()
    audits = sorted((audit_from_json(r["message"]) for r in records), key=lambda a: a["source_file"])
    assert [(a["source_file"], a["events"]) for a in audits] == [
        (a["source_file"], a["events"]) for a in local.audit_rows
    ]

    def by_bucket(folder):
        from jobs.buckets import bucket_files

        return {
            b: sorted(
                ds.dataset(fs, format="parquet").to_table().to_pylist(),
                key=lambda r: (r["source_file"], r["line_no"]),
            )
            for b, fs in bucket_files(folder).items()
        }

    assert by_bucket(out + "/_rt=e") == by_bucket(local.bucket_dir) != {}


def test_times_of_day_are_dated_from_the_file_modification_time(spark, tmp_path) -> None:
    """A file whose lines carry only a time of day, with no date in its lines or name: the job dates
    them from the file's modification time (jobs/ingest/day_dates.py)."""
    line = ("{t} [main] INFO  o.a.k.c.c.i.AbstractCoordinator - [Consumer clientId=c, groupId=g] Successfully joined "
            "group with generation Generation{{generationId=3, memberId='m', protocol='range'}}\n")  # fmt: skip
    p = tmp_path / "t" / "app.log"
    p.parent.mkdir()
    p.write_text(line.format(t="13:00:00.100"))
    mtime = int(dt.datetime(2024, 5, 1, 18, tzinfo=dt.UTC).timestamp()) * 1_000_000_000
    os.utime(p, ns=(mtime, mtime))
    res = ingest(spark, [InputSpec(str(p))], run_id="mt")
    got = [r["ts_ms"] for r in res.events.select("ts_ms").collect()]
    assert got == [int(dt.datetime(2024, 5, 1, 13, 0, 0, 100000, tzinfo=dt.UTC).timestamp() * 1000)]
    res.unpersist()
