"""The Delta sinks: :class:`DeltaRsSink` (no Delta jars: Spark writes Parquet, delta-rs commits) and
:class:`SparkDeltaSink` (Spark's own Delta writer)."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
from delta.tables import DeltaTable as SparkDeltaTable
from deltalake import DeltaTable, Schema, write_deltalake
from deltalake.transaction import AddAction

from jobs.sink_base import (
    PARTITION_COL,
    PARTITIONED,
    Sink,
    table_arrow_schema,
    table_schema,
)

# ---------------------------------------------------------------------------------------- delta-rs


def _add_actions(table_dir: str, sub: str, partition: dict[str, str] | None):
    """AddActions for the Parquet files Spark wrote into ``table_dir/sub`` (row counts from footers)."""
    actions = []
    base = os.path.join(table_dir, sub)
    for fname in sorted(os.listdir(base)):
        if not fname.endswith(".parquet") or fname.startswith((".", "_")):
            continue
        full = os.path.join(base, fname)
        st = os.stat(full)
        rows = pq.read_metadata(full).num_rows
        actions.append(
            AddAction(
                path=f"{sub}/{fname}",
                size=st.st_size,
                partition_values=dict(partition or {}),
                modification_time=int(st.st_mtime * 1000),
                data_change=True,
                stats=json.dumps({"numRecords": rows}),
            )
        )
    return actions


def _dedupe_arrow(t, keys: list[str]):
    """Rows of ``t`` with distinct ``keys`` (nulls equal), the last row of each key kept: one Arrow
    hash aggregation (the last row index per key), the same rows as :func:`_dedupe_arrow_plain`."""
    n = t.num_rows
    if n < 2:
        return t
    rows = t.select(keys).append_column("_i", pa.array(np.arange(n, dtype=np.int64)))
    last = rows.group_by(keys, use_threads=False).aggregate([("_i", "max")])["_i_max"]
    if len(last) == n:
        return t
    return t.take(pa.array(np.sort(last.to_numpy()), pa.int64()))


def _dedupe_arrow_plain(t, keys: list[str]):
    """The plain way of :func:`_dedupe_arrow` (the reference it is tested equal to)."""
    if t.num_rows < 2:
        return t
    last: dict[tuple, int] = {}
    for i, key in enumerate(zip(*(t[k].to_pylist() for k in keys))):
        last[key] = i
    if len(last) == t.num_rows:
        return t
    return t.take(pa.array(sorted(last.values()), pa.int64()))


class DeltaRsSink(Sink):
    """Delta tables committed by delta-rs; data files written by Spark."""

    kind = "delta-rs"
    arrow_tables = True

    def exists(self, name: str) -> bool:
        return os.path.isdir(os.path.join(self.path(name), "_delta_log"))

    def _table(self, name: str):
        if not self.exists(name):
            schema = table_arrow_schema(name)
            part = [PARTITION_COL] if name in PARTITIONED else None
            write_deltalake(
                self.path(name), pa.Table.from_pylist([], schema=schema), mode="append", partition_by=part
            )
            return DeltaTable(self.path(name))
        return self._evolved(DeltaTable(self.path(name)), name)

    def _evolved(self, dt, name: str):
        """A table written by an earlier version of rebalance-lens gets the columns added since
        (appended, null in its old rows), so that old lakehouses keep working."""
        have = {f.name for f in dt.schema().fields}
        missing = [f for f in table_arrow_schema(name) if f.name not in have]
        if missing:
            dt.alter.add_columns(list(Schema.from_arrow(pa.schema(missing)).fields))
            dt = type(dt)(self.path(name))
        return dt

    def _spark_write_parquet(self, df, target: str) -> None:
        self.spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        df.write.mode("overwrite").option("compression", "snappy").parquet(target)

    def read(self, name: str):
        if not self.exists(name):
            return self._empty(name)
        uris = DeltaTable(self.path(name)).file_uris()
        if not uris:
            return self._empty(name)
        reader = self.spark.read.option("basePath", self.path(name)).schema(table_schema(name))
        return self._select_schema(name, reader.parquet(*uris))

    def partition_values(self, name: str) -> list[str]:
        if not self.exists(name):
            return []
        return sorted({p[PARTITION_COL] for p in DeltaTable(self.path(name)).partitions()})

    def row_count(self, name: str) -> int:
        if not self.exists(name):
            return 0
        counts = pa.table(DeltaTable(self.path(name)).get_add_actions(flatten=True)).column("num_records")
        if counts.null_count:
            return self.read(name).count()
        return int(pa.compute.sum(counts).as_py() or 0)

    def read_partition(self, name: str, value: str):
        if not self.exists(name):
            return self._empty(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            uris = DeltaTable(self.path(name)).file_uris(partition_filters=[(PARTITION_COL, "=", value)])
        if not uris:
            return self._empty(name)
        reader = self.spark.read.option("basePath", self.path(name)).schema(table_schema(name))
        return self._select_schema(name, reader.parquet(*uris))

    def partition_files(self, name: str, value: str) -> list[str] | None:
        if "://" in self.root:
            return None
        if not self.exists(name):
            return []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return DeltaTable(self.path(name)).file_uris(partition_filters=[(PARTITION_COL, "=", value)])

    def write_partition(self, name: str, df, value: str) -> None:
        dt = self._table(name)
        sub = f"{PARTITION_COL}={value}"
        self._spark_write_parquet(
            self._conform(name, df).drop(PARTITION_COL), os.path.join(self.path(name), sub)
        )
        actions = _add_actions(self.path(name), sub, {PARTITION_COL: value})
        dt.create_write_transaction(
            actions,
            mode="overwrite",
            schema=table_arrow_schema(name),
            partition_by=[PARTITION_COL],
            partition_filters=[(PARTITION_COL, "=", value)],
        )

    def adopt_partition(self, name: str, files_dir: str, value: str) -> bool:
        dt = self._table(name)
        sub = f"{PARTITION_COL}={value}"
        if not self._move_files(files_dir, os.path.join(self.path(name), sub)):
            return False
        dt.create_write_transaction(
            _add_actions(self.path(name), sub, {PARTITION_COL: value}),
            mode="overwrite",
            schema=table_arrow_schema(name),
            partition_by=[PARTITION_COL],
            partition_filters=[(PARTITION_COL, "=", value)],
        )
        return True

    def delete_partitions(self, name: str, values: list[str]) -> None:
        if not values or not self.exists(name):
            return
        quoted = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
        self._table(name).delete(f"{PARTITION_COL} IN ({quoted})")

    def delete_lines(self, name: str, value: str, source_file: str, line_nos: list[int]) -> None:
        if line_nos and self.exists(name):
            self._table(name).delete(self._lines_predicate(value, source_file, line_nos))

    def overwrite(self, name: str, df) -> None:
        dt = self._table(name)
        sub = f"r-{self.run_id}"
        self._spark_write_parquet(self._conform(name, df), os.path.join(self.path(name), sub))
        dt.create_write_transaction(
            _add_actions(self.path(name), sub, None), mode="overwrite", schema=table_arrow_schema(name)
        )

    def merge(self, name: str, df, keys: list[str]) -> None:
        stage = self.staging(name)
        self._spark_write_parquet(self._dedupe(self._conform(name, df), keys), stage)
        self.merge_arrow(name, ds.dataset(stage, format="parquet").to_table(), keys)

    def read_arrow(self, name: str, columns: Sequence[str] | None = None):
        """The whole table (or its ``columns``) as an Arrow table of its schema, for small tables
        read on the driver; a column a table of an earlier version lacks reads as null (as
        :meth:`read` does)."""
        full = table_arrow_schema(name)
        schema = pa.schema([full.field(c) for c in columns]) if columns is not None else full
        if not self.exists(name):
            return schema.empty_table()
        data = DeltaTable(self.path(name)).to_pyarrow_dataset()
        have = set(data.schema.names)
        table = data.to_table(columns=[c for c in schema.names if c in have])
        return pa.Table.from_arrays(
            [table[f.name].cast(f.type) if f.name in have else pa.chunked_array([pa.nulls(table.num_rows, f.type)])
             for f in schema], schema=schema)  # fmt: skip

    def overwrite_arrow(self, name: str, table) -> None:
        """:meth:`overwrite` with an Arrow table already on the driver (one delta-rs commit)."""
        self._table(name)
        write_deltalake(self.path(name), table.cast(table_arrow_schema(name)), mode="overwrite")

    def write_partition_arrow(self, name: str, table, value: str) -> None:
        """:meth:`write_partition` with an Arrow table already on the driver (one delta-rs commit
        replacing the ``run_id=value`` partition)."""
        self._table(name)
        quoted = value.replace("'", "''")
        write_deltalake(self.path(name), table.cast(table_arrow_schema(name)), mode="overwrite",
                        partition_by=[PARTITION_COL], predicate=f"{PARTITION_COL} = '{quoted}'")  # fmt: skip

    def merge_arrow(self, name: str, source, keys: list[str], plain: bool = False) -> None:
        """:meth:`merge` of an Arrow table already on the driver (small: the replay's output read
        from its staged Parquet), without a Spark job. Duplicate keys keep their last row.

        A table without rows (a first run) gets the rows appended: what the MERGE would insert,
        without its join (:meth:`_append_to_empty`); ``plain=True``: always the MERGE (the
        reference it is tested equal to)."""
        source = _dedupe_arrow(source.cast(table_arrow_schema(name)), keys)
        if source.num_rows == 0:
            self._table(name)
            return
        dt = self._table(name)
        if not plain and self._append_to_empty(dt, name, source):
            return
        predicate = " AND ".join(f"(t.{k} IS NOT DISTINCT FROM s.{k})" for k in keys)
        (
            dt.merge(source, predicate=predicate, source_alias="s", target_alias="t")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute()
        )

    def _append_to_empty(self, dt, name: str, source) -> bool:
        """Append ``source`` (keys distinct) when the table has no rows and the same columns in the
        same order; returns whether it did."""
        if [f.name for f in dt.schema().fields] != source.schema.names:
            return False
        counts = pa.table(dt.get_add_actions(flatten=True)).column("num_records")
        if counts.null_count or (pa.compute.sum(counts).as_py() or 0) != 0:
            return False
        write_deltalake(self.path(name), source, mode="append")
        return True


# ----------------------------------------------------------------------------------- Spark Delta


class SparkDeltaSink(Sink):
    """Spark's own Delta writer (Databricks, or delta-spark jars on the classpath)."""

    kind = "spark-delta"

    def exists(self, name: str) -> bool:
        try:
            self.spark.read.format("delta").load(self.path(name)).schema  # noqa: B018
            return True
        except Exception:  # noqa: BLE001 - AnalysisException: not a Delta table
            return False

    def read(self, name: str):
        if not self.exists(name):
            return self._empty(name)
        return self._select_schema(name, self.spark.read.format("delta").load(self.path(name)))

    def write_partition(self, name: str, df, value: str) -> None:
        (
            self._conform(name, df)
            .write.format("delta")
            .mode("overwrite")
            .partitionBy(PARTITION_COL)
            .option("replaceWhere", f"{PARTITION_COL} = '{value}'")
            .option("mergeSchema", "true")  # (tables of earlier versions gain the new columns)
            .save(self.path(name))
        )

    def delete_partitions(self, name: str, values: list[str]) -> None:
        if values and self.exists(name):
            quoted = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
            SparkDeltaTable.forPath(self.spark, self.path(name)).delete(f"{PARTITION_COL} IN ({quoted})")

    def delete_lines(self, name: str, value: str, source_file: str, line_nos: list[int]) -> None:
        if line_nos and self.exists(name):
            pred = self._lines_predicate(value, source_file, line_nos)
            SparkDeltaTable.forPath(self.spark, self.path(name)).delete(pred)

    def overwrite(self, name: str, df) -> None:
        self._conform(name, df).write.format("delta").mode("overwrite").option(
            "overwriteSchema", "true"
        ).save(self.path(name))

    def merge(self, name: str, df, keys: list[str]) -> None:
        src = self._dedupe(self._conform(name, df), keys)
        # tables of earlier versions gain the columns added since (MERGE's schema evolution)
        self.spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")
        if not self.exists(name):
            src.write.format("delta").mode("append").save(self.path(name))
            return
        cond = " AND ".join(f"t.{k} <=> s.{k}" for k in keys)
        (
            SparkDeltaTable.forPath(self.spark, self.path(name))
            .alias("t")
            .merge(src.alias("s"), cond)
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll()
            .execute()
        )
