"""The replay's output as ONE long "union" frame: a ``_table`` discriminator column plus the union of
the replay tables' columns (timestamps as epoch-ms longs), so the replay UDF runs once per group, not
once per table; :func:`split_union` (Spark) and :func:`split_union_arrow` (pyarrow) turn it back into
the tables with their exact schemas."""

from __future__ import annotations

from dataclasses import asdict, fields, is_dataclass
from operator import attrgetter
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

from jobs import schemas
from jobs.ingest.model import arrow_schema

#: replay tables written from the union frame, in write order (group_state last)
REPLAY_TABLES: tuple[str, ...] = (
    "group_transitions",
    "rebalances",
    "member_sessions",
    "assignments",
    "anomalies",
    "partition_skew",
    "group_state",
)

#: merge keys of each replay table (upserts make re-runs replace, never duplicate)
MERGE_KEYS: dict[str, list[str]] = {
    "group_transitions": ["cluster", "group_id", "ts", "from_state", "to_state", "generation", "trigger",
                          "source_file", "line_no"],
    "rebalances": ["cluster", "group_id", "rebalance_id"],
    "member_sessions": ["cluster", "group_id", "member_id", "joined_ts"],
    "assignments": ["cluster", "group_id", "generation", "member_id", "topic", "source"],
    "anomalies": ["cluster", "group_id", "ts", "kind", "event_kind", "source_file", "line_no", "detail"],
    "partition_skew": ["cluster", "group_id", "generation", "topic"],
    "group_state": ["cluster", "group_id"],
}  # fmt: skip

TABLE_COL = "_table"


def _union_layout() -> tuple[list[tuple[str, Any]], dict[tuple[str, str], str]]:
    """Union columns ``[(name, spark type)]`` and ``{(table, column): union column}``.

    Timestamp columns become epoch-ms longs; a column whose type differs between tables gets a
    ``<table>__`` prefix."""
    cols: dict[str, Any] = {TABLE_COL: StringType(), "cluster": StringType(), "group_id": StringType()}
    mapping: dict[tuple[str, str], str] = {}
    for table in REPLAY_TABLES:
        for f in schemas.TABLES.get(table, schemas.GROUP_STATE).fields:
            typ = LongType() if isinstance(f.dataType, TimestampType) else f.dataType
            name = f.name
            if name in cols and cols[name] != typ:
                name = f"{table}__{f.name}"
            cols.setdefault(name, typ)
            mapping[(table, f.name)] = name
    return list(cols.items()), mapping


UNION_COLUMNS, UNION_MAP = _union_layout()


def union_schema():
    return StructType([StructField(n, t, True) for n, t in UNION_COLUMNS])


def union_arrow_schema():
    """:func:`union_schema` as an Arrow schema (what the UDFs return)."""
    return arrow_schema(union_schema())


def split_union(union_df, table: str):
    """Rows of ``table`` from the union frame, with the table's exact schema."""
    schema = schemas.TABLES.get(table, schemas.GROUP_STATE)
    out = []
    for f in schema.fields:
        c = F.col(UNION_MAP[(table, f.name)])
        c = F.timestamp_millis(c) if isinstance(f.dataType, TimestampType) else c.cast(f.dataType)
        out.append(c.alias(f.name))
    return union_df.where(F.col(TABLE_COL) == table).select(out)


def split_union_arrow(union, table: str):
    """:func:`split_union` on an Arrow table of the union schema (e.g. the staged union read with
    pyarrow): the rows of ``table`` with its exact Arrow schema."""
    schema = arrow_schema(schemas.TABLES.get(table, schemas.GROUP_STATE))
    rows = union.filter(pc.equal(union[TABLE_COL], table))
    arrays = []
    for f in schema:
        arrays.append(_table_column(rows[UNION_MAP[(table, f.name)]].combine_chunks(), f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def split_union_arrow_all(union) -> dict[str, Any]:
    """:func:`split_union_arrow` of every replay table in one pass: the union's rows ordered by
    table once (a stable sort: each table's rows keep their order), then one slice per table (the
    same tables, tests/job/test_replay_buckets.py)."""
    ordered = union.take(pc.sort_indices(union, sort_keys=[(TABLE_COL, "ascending")]))
    runs = pc.value_counts(union[TABLE_COL]).to_pylist()
    sizes = {r["values"]: r["counts"] for r in runs if r["values"] is not None}
    out, start = {}, 0
    for name in sorted(sizes):  # the sort's order (UTF-8 bytes; the table names are ASCII)
        if name in REPLAY_TABLES:
            out[name] = split_union_arrow(ordered.slice(start, sizes[name]), name)
        start += sizes[name]
    return {t: out[t] if t in out else split_union_arrow(union.slice(0, 0), t) for t in REPLAY_TABLES}


def record_columns(table: str, cluster: str, group_id: str, records: list[Any]) -> dict[str, list[Any]]:
    """The union columns of ``records`` (dataclasses or dicts) of one table, built column-wise:
    tuples become lists, ``group_id`` comes from the record, ``cluster`` is given, fields without a
    union column are left out."""
    n = len(records)
    first = records[0]
    if is_dataclass(first) and all(type(r) is type(first) for r in records):
        names = [f.name for f in fields(first)]
        # one C-level pass: each record's fields as a tuple, transposed to the columns
        cols = zip(*map(attrgetter(*names), records)) if len(names) > 1 else ([getattr(r, names[0]) for r in records],)
        raw = {k: list(c) for k, c in zip(names, cols, strict=True)}
        gids = raw["group_id"] if "group_id" in raw else [group_id] * n
    else:
        dicts = [asdict(r) if is_dataclass(r) and not isinstance(r, type) else dict(r) for r in records]
        names = list(dict.fromkeys(k for d in dicts for k in d))
        raw = {k: [d.get(k) for d in dicts] for k in names}
        gids = [d.get("group_id", group_id) for d in dicts]
    out: dict[str, list[Any]] = {TABLE_COL: [table] * n, "cluster": [cluster] * n, "group_id": gids}
    for k in names:
        col = UNION_MAP.get((table, k))
        if col is None or k in ("cluster", "group_id"):
            continue
        vals = raw[k]
        if tuple in set(map(type, vals)):
            vals = [list(v) if isinstance(v, tuple) else v for v in vals]
        out[col] = vals
    return out


def union_table(parts: list[dict[str, list[Any]]]):
    """One Arrow table of the union schema from column dicts (columns a part lacks are null)."""
    schema = union_arrow_schema()
    if not parts:
        return schema.empty_table()
    tables = []
    for part in parts:
        n = len(part[TABLE_COL])
        arrays = [
            pa.array(part[f.name], type=f.type) if f.name in part else pa.nulls(n, type=f.type)
            for f in schema
        ]
        tables.append(pa.Table.from_arrays(arrays, schema=schema))
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)


def replay_tables(parts: list[dict[str, list[Any]]]) -> dict[str, Any]:
    """The replay tables of column dicts (:func:`record_columns`, one table each), each with its
    exact Arrow schema: what :func:`split_union_arrow_all` gives of :func:`union_table` of the same
    parts (the reference, tested equal in tests/job/test_replay_buckets.py), built directly, without
    the union's null columns of the other tables."""
    by_table: dict[str, list[dict[str, list[Any]]]] = {}
    for part in parts:
        by_table.setdefault(part[TABLE_COL][0], []).append(part)
    union = union_arrow_schema()
    out = {}
    for table in REPLAY_TABLES:
        schema = arrow_schema(schemas.TABLES.get(table, schemas.GROUP_STATE))
        mine = by_table.get(table)
        if not mine:
            out[table] = schema.empty_table()
            continue
        arrays = []
        for f in schema:
            name = UNION_MAP[(table, f.name)]
            typ = union.field(name).type
            chunks = [pa.array(p[name], type=typ) if name in p else pa.nulls(len(p[TABLE_COL]), type=typ) for p in mine]
            col = chunks[0] if len(chunks) == 1 else pa.concat_arrays(chunks)
            arrays.append(_table_column(col, f.type))
        out[table] = pa.Table.from_arrays(arrays, schema=schema)
    return out


def _table_column(col, typ):
    """A union column as the table column of type ``typ`` (epoch-ms longs as timestamps)."""
    if pa.types.is_timestamp(typ):
        col = col.cast(pa.int64()).cast(pa.timestamp("ms", tz="UTC")).cast(typ)
    return col.cast(typ)


def tables_count_rows(tables: dict[str, Any]):
    """:func:`union_count_rows` of the replay tables given one by one (:func:`replay_tables`): rows
    per table, and per anomaly kind (the same :func:`count_summary`)."""
    rows: list[tuple[str, str | None, int]] = []
    for table, t in tables.items():
        if not t.num_rows:
            continue
        if table != "anomalies":
            rows.append((table, None, t.num_rows))
            continue
        out = pa.table({"kind": t["kind"]}).group_by(["kind"], use_threads=False).aggregate([([], "count_all")])
        rows += [(table, k, int(n)) for k, n in zip(out["kind"].to_pylist(), out["count_all"].to_pylist(), strict=True)]
    return pa.Table.from_pylist([dict(zip(COUNT_SCHEMA.names, r, strict=True)) for r in rows], schema=COUNT_SCHEMA)


def anomaly_columns(
    cluster: str, group_id: str, ts: int | None, kind: str, detail: str
) -> dict[str, list[Any]]:
    return record_columns("anomalies", cluster, group_id, [{"ts": ts, "kind": kind, "detail": detail}])


#: the columns of :func:`union_count_rows` (what a replay task reports of its own output)
COUNT_SCHEMA = pa.schema([(TABLE_COL, pa.string()), ("kind", pa.string()), ("n", pa.int64())])

#: the anomaly kinds the run summary counts: ``replay_error``; ``no_timestamp`` and
#: ``unattributed`` (one per event without any time / naming no group: kept, not replayed)
COUNTED_KINDS = ("replay_error", "no_timestamp", "unattributed")


def union_count_rows(union):
    """Rows per (table, anomaly kind) of an Arrow union table (``kind`` null outside
    ``anomalies``): a few rows, folded by :func:`count_summary`."""
    if union.num_rows == 0:
        return COUNT_SCHEMA.empty_table()
    is_anomaly = pc.equal(union[TABLE_COL], "anomalies")
    kinds = pc.if_else(is_anomaly, union["kind"], pa.scalar(None, pa.string()))
    keyed = pa.table({TABLE_COL: union[TABLE_COL], "kind": kinds})
    out = keyed.group_by([TABLE_COL, "kind"], use_threads=False).aggregate([([], "count_all")])
    return pa.table({TABLE_COL: out[TABLE_COL], "kind": out["kind"], "n": out["count_all"].cast(pa.int64())})


def count_summary(rows) -> tuple[dict[str, int], int, int, int]:
    """Rows per replay table and the run's ``replay_error``, ``no_timestamp`` and ``unattributed``
    anomalies from ``(table, kind, n)`` rows (:func:`union_count_rows`, of one or several tasks)."""
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for table, kind, n in rows:
        counts[table] = counts.get(table, 0) + int(n)
        if table == "anomalies" and kind is not None:
            kinds[kind] = kinds.get(kind, 0) + int(n)
    errors, untimed, unattributed = (kinds.get(k, 0) for k in COUNTED_KINDS)
    return counts, errors, untimed, unattributed
