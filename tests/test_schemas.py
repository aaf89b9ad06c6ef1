"""One set of output schemas: the Arrow schemas are stated once, Spark's are derived from them and
equal those the job wrote in Spark types, the sinks write the Arrow schemas, and the core's records
agree column by column."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os

import pyarrow as pa
import pytest

from coordinator_core import records
from coordinator_core.events import EVENT_FIELDS
from jobs import schemas

PAIRS = [
    (records.Transition, schemas.GROUP_TRANSITIONS),
    (records.Rebalance, schemas.REBALANCES),
    (records.MemberSession, schemas.MEMBER_SESSIONS),
    (records.AssignmentRow, schemas.ASSIGNMENTS),
    (records.Anomaly, schemas.ANOMALIES),
]


@pytest.mark.parametrize("record, schema", PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_record_fields_are_the_table_columns_after_cluster(record, schema):
    assert schema.fieldNames()[0] == "cluster"
    assert [f.name for f in dataclasses.fields(record)] == schema.fieldNames()[1:]


def test_every_event_field_is_an_events_column():
    assert set(EVENT_FIELDS) <= set(schemas.EVENTS.fieldNames())


def test_every_table_starts_with_cluster_and_names_are_unique():
    assert len(schemas.ARROW) == 12 and tuple(schemas.ARROW) == schemas.TABLE_NAMES
    for name, schema in schemas.ARROW.items():
        assert schema.names[0] == "cluster", name
        assert len(schema.names) == len(set(schema.names)), name
        assert all(f.nullable for f in schema), name


# Spark's types as text (``DataType.simpleString``), written here independently of jobs.schemas_spark
_SPARK_OF = {
    pa.string(): "string", pa.int32(): "int", pa.int64(): "bigint", pa.bool_(): "boolean",
    pa.float64(): "double", pa.date32(): "date", pa.timestamp("us", tz="UTC"): "timestamp",
}  # fmt: skip


def _spark_text(t: pa.DataType) -> str:
    if pa.types.is_list(t):
        return f"array<{_spark_text(t.value_type)}>"
    if pa.types.is_map(t):
        return f"map<{_spark_text(t.key_type)},{_spark_text(t.item_type)}>"
    return _SPARK_OF[t]


def test_the_spark_schemas_are_derived_column_by_column():
    """Same names, order and types; every field, list item and map value nullable (Spark's defaults)."""
    for name, arrow in schemas.ARROW.items():
        spark = schemas.TABLES[name]
        assert spark is getattr(schemas, name.upper()) is schemas.spark_schema(name)
        assert spark.fieldNames() == arrow.names, name
        assert [f.dataType.simpleString() for f in spark.fields] == [_spark_text(f.type) for f in arrow], name
        assert all(f.nullable for f in spark.fields), name
        for f in spark.fields:
            assert getattr(f.dataType, "containsNull", True) and getattr(f.dataType, "valueContainsNull", True)


#: sha256 of the Spark schemas as the project wrote them in Spark types before they were derived from
#: the Arrow ones (``json.dumps([[name, TABLES[name].jsonValue()] ...], sort_keys=True)``: names,
#: types, nullability, order); a deliberate schema change replaces it
SPARK_SCHEMAS_SHA256 = "ca7a7af0df4ffa8bceda5371849bfd7d0c21d5b578d99631142b7ed3e3a912df"


def test_the_derived_spark_schemas_equal_those_written_in_spark_types():
    text = json.dumps([[name, schemas.TABLES[name].jsonValue()] for name in schemas.TABLE_NAMES], sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest() == SPARK_SCHEMAS_SHA256


def test_the_conversions_go_both_ways():
    from jobs.schemas_spark import arrow_schema, spark_struct

    for name, arrow in schemas.ARROW.items():
        assert arrow_schema(spark_struct(arrow)).equals(arrow), name
    assert schemas.table_arrow_schema("my_state") is schemas.ARROW["group_state"]  # a renamed state table


def _plain(t: pa.DataType) -> pa.DataType:
    """``t`` with the default names of list items and map entries (Parquet writers name them
    ``element`` / ``key_value``) and plain strings; nullability kept."""
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(pa.field("item", _plain(t.value_type), t.value_field.nullable))
    if pa.types.is_map(t):
        return pa.map_(_plain(t.key_type), pa.field("value", _plain(t.item_type), t.item_field.nullable))
    return pa.string() if t in (pa.large_string(), pa.string_view()) else t


def _plain_schema(schema) -> pa.Schema:
    return pa.schema([pa.field(f.name, _plain(f.type), f.nullable) for f in pa.schema(schema)])


@pytest.mark.spark
def test_the_sinks_write_the_arrow_schemas(spark, sample_job, tmp_path):
    """The sample's Delta lakehouse (Spark-written data files, delta-rs log) and a Parquet-sink table of
    every schema: stored schemas equal :data:`jobs.schemas.ARROW` (``run_id``, the partition column,
    lives in the folder names)."""
    import pyarrow.parquet as pq
    from deltalake import DeltaTable

    from jobs.sink import PARTITION_COL, PARTITIONED, ParquetSink, read_table

    lake, _ = sample_job
    for name, arrow in schemas.ARROW.items():
        table = DeltaTable(os.path.join(lake, name))
        assert _plain_schema(table.schema().to_arrow()).equals(arrow), name
        in_files = pa.schema([f for f in arrow if not (name in PARTITIONED and f.name == PARTITION_COL)])
        for uri in table.file_uris():
            assert _plain_schema(pq.read_schema(uri.removeprefix("file://"))).equals(in_files), (name, uri)
    sink = ParquetSink(spark, str(tmp_path), "r1")
    for name in ("storms", "ingest_audit", "events"):
        sink.overwrite(name, read_table(spark, lake, name))
        (written,) = [os.path.join(sink.path(name), d) for d in sink._manifest(name)]
        assert _plain_schema(pq.ParquetDataset(written).schema).equals(schemas.ARROW[name]), name


def _readme_tables() -> dict[str, list[str]]:
    """docs/tables.md's "## Columns" rows: table -> column names (parenthesised notes dropped)."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "tables.md").read_text(encoding="utf-8")
    section = text.split("\n## Columns", 1)[1].split("\n## ", 1)[0]
    out = {}
    for m in re.finditer(r"^\| `(\w+)` \| ([^|]*(?:\\\|[^|]*)*) \|", section, re.M):
        cols = re.sub(r"\([^()]*\)", "", m.group(2))
        out[m.group(1)] = [c.strip() for c in cols.split(",") if c.strip()]
    return out


#: columns documented in an internals page until the README's table lists them (README.md is
#: rewritten by its owner; the column is named there at the merge)
_DOCUMENTED_IN: dict[tuple[str, str], str] = {}  # (table, column) -> the page documenting it instead


def test_the_readme_documents_every_table_with_its_columns():
    import pathlib

    documented = _readme_tables()
    assert set(documented) == set(schemas.TABLES)
    root = pathlib.Path(__file__).resolve().parents[1]
    for name, schema in schemas.TABLES.items():
        elsewhere = [c for c in schema.fieldNames() if (name, c) in _DOCUMENTED_IN and c not in documented[name]]
        for c in elsewhere:
            assert f"`{c}`" in (root / _DOCUMENTED_IN[(name, c)]).read_text(encoding="utf-8"), (name, c)
        assert documented[name] == [c for c in schema.fieldNames() if c not in elsewhere], name
