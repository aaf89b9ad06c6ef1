"""The sink: delta-rs path (Spark-written Parquet + one delta-rs commit) and the Parquet alternative."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from pyspark.sql import functions as F

from jobs import schemas
from jobs.sink import DeltaRsSink, ParquetSink, make_sink, read_table, table_format
from tests.job.util import fields_of

pytestmark = pytest.mark.spark

TS = dt.datetime(2024, 1, 1, 12, 0, 0)


def _events(spark, run_id, n=3):
    rows = [
        {"cluster": "c", "event_date": TS.date(), "ts": TS, "ts_ms": i, "group_id": "g", "kind": "joined",
         "side": "client", "members": ["a", "b"], "assignment": {"m": ["t-0"]}, "partitions": ["t-0"],
         "source_file": "f.log", "line_no": i, "run_id": run_id}
        for i in range(n)
    ]  # fmt: skip
    return spark.createDataFrame(rows, schemas.EVENTS)


def _rebalance(spark, rid, outcome, start=None):
    return spark.createDataFrame(
        [("c", "g", rid, 1, 2, outcome, start)],
        "cluster string, group_id string, rebalance_id string, old_generation int, new_generation int, "
        "outcome string, start_ts timestamp",
    )


@pytest.fixture(params=["delta", "parquet"])
def sink(request, spark, tmp_path):
    return make_sink(spark, str(tmp_path / "lake"), request.param, "auto", run_id="r1")


def test_make_sink_picks_delta_rs_without_delta_jars(spark, tmp_path):
    assert isinstance(make_sink(spark, str(tmp_path), "delta", "auto"), DeltaRsSink)
    assert isinstance(make_sink(spark, str(tmp_path), "parquet", "auto"), ParquetSink)


def test_partition_write_replaces_and_deletes(spark, sink):
    sink.write_partition("events", _events(spark, "r1"), "r1")
    sink.write_partition("events", _events(spark, "r1"), "r1")  # the same partition again: replaced
    sink.write_partition("events", _events(spark, "r2", n=2), "r2")
    assert sink.partition_values("events") == ["r1", "r2"]
    got = {r.run_id: r["count"] for r in sink.read("events").groupBy("run_id").count().collect()}
    assert got == {"r1": 3, "r2": 2}
    assert sink.read_partition("events", "r2").count() == 2
    sink.delete_partitions("events", ["r2"])
    assert sink.partition_values("events") == ["r1"]
    pdf = read_table(None, sink.root, "events")
    assert len(pdf) == 3 and set(pdf.run_id) == {"r1"}
    assert list(pdf.members.iloc[0]) == ["a", "b"] and list(pdf.partitions.iloc[0]) == ["t-0"]
    assert pdf.ts.iloc[0] == dt.datetime(2024, 1, 1, 12, tzinfo=dt.UTC)
    assert fields_of(read_table(spark, sink.root, "events").schema) == fields_of(schemas.EVENTS)


def test_merge_upserts_on_keys_with_null_keys(spark, sink):
    keys = ["cluster", "group_id", "rebalance_id"]
    sink.merge("rebalances", _rebalance(spark, "g:1", "open"), keys)
    sink.merge("rebalances", _rebalance(spark, "g:1", "completed", TS), keys)
    sink.merge("rebalances", _rebalance(spark, "g:2", "open"), keys)
    pdf = read_table(None, sink.root, "rebalances").sort_values("rebalance_id")
    assert list(zip(pdf.rebalance_id, pdf.outcome)) == [("g:1", "completed"), ("g:2", "open")]
    # a null key matches a null key (sessions may have joined_ts = null)
    skeys = ["cluster", "group_id", "member_id", "joined_ts"]
    s = spark.createDataFrame([("c", "g", "m1", None, "open")],
                              "cluster string, group_id string, member_id string, joined_ts timestamp, end_reason string")  # fmt: skip
    sink.merge("member_sessions", s, skeys)
    sink.merge("member_sessions", s.withColumn("end_reason", F.lit("leave")), skeys)
    ss = read_table(None, sink.root, "member_sessions")
    assert list(ss.end_reason) == ["leave"]


def test_overwrite_replaces_everything(spark, sink):
    st = spark.createDataFrame(
        [("c", "g", "s1"), ("c", "g", "s2")], "cluster string, group_id string, storm_id string"
    )
    sink.overwrite("storms", st)
    sink.overwrite("storms", st.where("storm_id = 's2'"))
    assert [r.storm_id for r in read_table(spark, sink.root, "storms").collect()] == ["s2"]
    assert fields_of(read_table(spark, sink.root, "storms").schema) == fields_of(schemas.STORMS)


def test_delta_rs_tables_are_real_delta(spark, tmp_path):
    from deltalake import DeltaTable

    sink = make_sink(spark, str(tmp_path / "lake"), "delta", "delta-rs", run_id="r1")
    sink.write_partition("events", _events(spark, "r1"), "r1")
    sink.write_partition("events", _events(spark, "r2"), "r2")
    dt_ = DeltaTable(os.path.join(sink.root, "events"))
    assert dt_.version() == 2  # create + one commit per partition write
    assert dt_.metadata().partition_columns == ["run_id"]
    assert dt_.to_pyarrow_table().num_rows == 6
    assert table_format(sink.root, "events") == "delta"


def test_missing_table_reads_empty(spark, tmp_path):
    assert read_table(None, str(tmp_path), "storms").columns.tolist() == schemas.STORMS.fieldNames()
    assert read_table(spark, str(tmp_path), "storms").count() == 0


def test_adopt_partition_moves_the_staged_files(spark, sink, tmp_path):
    """Ingestion's staged event files (the table's columns without run_id) become the partition as
    they are: moved, not rewritten; adopting again replaces the partition."""
    staged = tmp_path / "staged"
    _events(spark, "x", n=4).drop("run_id").write.parquet(str(staged))
    files = sorted(f for f in os.listdir(staged) if f.endswith(".parquet"))
    assert sink.adopt_partition("events", str(staged), "r1") is True
    assert not [f for f in os.listdir(staged) if f.endswith(".parquet")]  # moved away
    part = os.path.join(sink.path("events"), "run_id=r1")
    assert sorted(f for f in os.listdir(part) if f.endswith(".parquet")) == files
    rows = sink.read_partition("events", "r1").orderBy("line_no").collect()
    assert [(r.run_id, r.line_no, r.members, r.assignment) for r in rows] == [
        ("r1", i, ["a", "b"], {"m": ["t-0"]}) for i in range(4)
    ]
    _events(spark, "x", n=2).drop("run_id").write.mode("overwrite").parquet(str(staged))
    assert sink.adopt_partition("events", str(staged), "r1") is True
    assert sink.row_count("events") == 2 and sink.partition_values("events") == ["r1"]
    assert sink.adopt_partition("events", str(tmp_path / "nothing-here"), "r2") is False
    assert sink.partition_values("events") == ["r1"]


def test_delta_rs_arrow_writes(spark, tmp_path):
    """The driver-side writes of the delta-rs sink: overwrite, replace one run_id partition, read."""
    import pyarrow as pa

    from jobs.ingest.model import arrow_schema
    from jobs.schemas import INGEST_AUDIT, STORMS

    sink = make_sink(spark, str(tmp_path / "lake"), "delta", "delta-rs", run_id="r1")
    assert sink.read_arrow("storms").num_rows == 0  # not created yet: empty, with the schema
    storm = dict.fromkeys(STORMS.fieldNames())
    storm.update(cluster="c", group_id="g", storm_id="s1", rebalances=4)
    sink.overwrite_arrow(
        "storms", pa.Table.from_pylist([storm, {**storm, "storm_id": "s2"}], arrow_schema(STORMS))
    )
    sink.overwrite_arrow("storms", pa.Table.from_pylist([storm], arrow_schema(STORMS)))
    assert sink.read_arrow("storms").column("storm_id").to_pylist() == ["s1"]
    assert sink.read("storms").count() == 1 and sink.row_count("storms") == 1
    audit = dict.fromkeys(INGEST_AUDIT.fieldNames())
    audit.update(cluster="c", source_file="a.log", total_lines=3, layouts=[])
    for run, files in (("r1", ["a.log", "b.log"]), ("r2", ["c.log"]), ("r1", ["d.log"])):
        rows = [{**audit, "run_id": run, "source_file": f} for f in files]
        sink.write_partition_arrow(
            "ingest_audit", pa.Table.from_pylist(rows, arrow_schema(INGEST_AUDIT)), run
        )
    got = sorted((r.run_id, r.source_file) for r in sink.read("ingest_audit").collect())
    assert got == [("r1", "d.log"), ("r2", "c.log")]  # r1 replaced, r2 kept


def test_tables_of_an_earlier_version_gain_the_new_columns(spark, tmp_path):
    """A lakehouse written before columns were added (e.g. rebalances.protocol_type,
    ingest_audit.quarantine_reasons) keeps working: the table gains them, old rows read null."""
    import pyarrow as pa
    from deltalake import DeltaTable, write_deltalake

    from jobs.sink import table_arrow_schema

    root = tmp_path / "lake"
    new = table_arrow_schema("rebalances")
    old = pa.schema([f for f in new if f.name not in ("protocol_type", "paused_partition_ms",
                                                      "partitions_revoked", "partitions_assigned")])  # fmt: skip
    row = {f.name: None for f in old} | {"cluster": "c", "group_id": "g", "rebalance_id": "g:1:1", "join_rounds": 1,
                                          "outcome": "completed", "cause": "new_member", "inferred": False}  # fmt: skip
    write_deltalake(str(root / "rebalances"), pa.Table.from_pylist([row], schema=old))
    sink = make_sink(spark, str(root), "delta", "delta-rs", run_id="r2")
    fresh = dict(row, rebalance_id="g:2:2", protocol_type="consumer", paused_partition_ms=1500)
    sink.merge_arrow("rebalances", pa.Table.from_pylist([fresh], schema=new), ["cluster", "group_id", "rebalance_id"])
    assert {f.name for f in DeltaTable(str(root / "rebalances")).schema().fields} == set(new.names)
    got = {r["rebalance_id"]: r for r in read_table(None, str(root), "rebalances").to_dict("records")}
    assert got["g:2:2"]["protocol_type"] == "consumer" and got["g:2:2"]["paused_partition_ms"] == 1500
    assert got["g:1:1"]["protocol_type"] is None


def test_the_sink_interface_declares_what_the_pipeline_calls():
    """No duck typing: every ``sink.X`` the pipeline uses is declared on ``Sink``, and a sink that says
    it works with Arrow on the driver implements those methods itself."""
    import pathlib
    import re

    from jobs import sink as S

    src = (pathlib.Path(S.__file__).parent / "pipeline.py").read_text()
    used = set(re.findall(r"\bsink\.([a-z_]+)\b", src))
    import inspect

    fields = set(re.findall(r"self\.([a-z_]+) =", inspect.getsource(S.Sink.__init__)))  # root, run_id ...
    missing = sorted(n for n in used if not hasattr(S.Sink, n) and n not in fields)
    assert used and missing == []
    for cls in (S.DeltaRsSink, S.SparkDeltaSink, S.ParquetSink):
        mine = {n for n in ("read_arrow", "merge_arrow", "overwrite_arrow") if getattr(cls, n) is not getattr(S.Sink, n)}
        assert mine == ({"read_arrow", "merge_arrow", "overwrite_arrow"} if cls.arrow_tables else set()), cls
