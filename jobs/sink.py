"""Where the tables go: Delta (Spark's own Delta writer, or delta-rs) or Parquet, behind one interface.

Every table lives in ``<lakehouse>/<name>`` and is written with exactly its schema from
:mod:`jobs.schemas`.  The job uses four operations:

* :meth:`Sink.write_partition` - add one ``run_id`` partition (events, quarantine, ingest_audit);
  :meth:`Sink.adopt_partition` makes already-written Parquet files (ingestion's staged events) the
  partition without rewriting them, where the sink can (delta-rs and Parquet on local paths);
* :meth:`Sink.delete_partitions` - drop the partitions of runs that never committed (crash recovery);
* :meth:`Sink.merge` - upsert on key columns (replay tables, group state);
* :meth:`Sink.overwrite` - replace the whole table (roll-ups).

Each is one atomic commit per table.  Implementations:

* :class:`SparkDeltaSink` - ``df.write.format("delta")`` and ``delta.tables.DeltaTable`` merges, used
  when Spark's Delta classes are on the classpath (Databricks, ``--packages io.delta:...``);
* :class:`DeltaRsSink` - no Delta jars needed: Spark writes Parquet files into the table folder (nothing
  event-sized passes through the driver), then ONE delta-rs transaction adds them to the Delta log.
  Merges read the Spark-staged Parquet with pyarrow and run delta-rs ``merge`` (replay tables are small);
* :class:`ParquetSink` - plain Parquet directories; a table's live directories are listed in
  ``_MANIFEST.json``, replaced atomically (``os.replace``) on each commit.

:func:`read_table` reads a table back: a Spark DataFrame, or pandas (via delta-rs / pyarrow) when no
SparkSession is given.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import warnings

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
from delta.tables import DeltaTable as SparkDeltaTable
from deltalake import DeltaTable, Schema, write_deltalake
from deltalake.transaction import AddAction
from pyspark.sql import functions as F

from jobs import schemas
from jobs.ingest.model import arrow_schema

MANIFEST = "_MANIFEST.json"
PARTITION_COL = "run_id"
#: tables written one run_id partition at a time
PARTITIONED = ("events", "quarantine", "ingest_audit")


def table_schema(name: str):
    """The Spark schema of table ``name`` (the state table may be renamed: it has GROUP_STATE)."""
    return schemas.TABLES.get(name, schemas.GROUP_STATE)


def table_arrow_schema(name: str):
    """The Arrow schema of table ``name`` (one conversion for the whole project: ``arrow_schema``)."""
    return arrow_schema(table_schema(name))


def _local(path: str) -> str:
    return path[len("file://") :] if path.startswith("file://") else path


def spark_has_delta(spark) -> bool:
    """True when Spark's own Delta writer can be used: Databricks, or the Delta session extension is
    configured (its jars are then on the classpath)."""
    if os.environ.get("DATABRICKS_RUNTIME_VERSION"):
        return True
    try:
        ext = spark.conf.get("spark.sql.extensions", "") or ""
    except Exception:  # noqa: BLE001 - Connect sessions may refuse unknown keys
        ext = ""
    return "io.delta.sql.DeltaSparkSessionExtension" in ext


def make_sink(spark, root: str, fmt: str = "delta", writer: str = "auto", run_id: str = "run") -> Sink:
    """The sink for ``output.format`` / ``output.writer`` of the configuration."""
    if fmt == "parquet":
        return ParquetSink(spark, root, run_id)
    if writer == "spark-delta" or (writer == "auto" and spark_has_delta(spark)):
        return SparkDeltaSink(spark, root, run_id)
    return DeltaRsSink(spark, root, run_id)


class Sink:
    """The interface the pipeline writes through, and the common part (table paths, staging, reading
    back through Spark). Every method the pipeline calls is declared here.

    **Spark or Arrow** (the one rule, written down once): a sink whose :attr:`arrow_tables` is true
    also reads, merges and overwrites tables as Arrow on the driver (delta-rs). The pipeline then
    merges the replay's tables from the staged union on the driver when that folder is local, and
    computes the roll-ups and the summary there while ``rebalances`` holds at most
    ``jobs.pipeline.DRIVER_ROWS`` rows; otherwise everything goes through Spark.
    """

    kind = "abstract"
    #: the sink can read / merge / overwrite tables as Arrow on the driver (see above)
    arrow_tables = False

    def __init__(self, spark, root: str, run_id: str):
        self.spark = spark
        self.root = os.path.abspath(_local(root)) if "://" not in root or root.startswith("file://") else root
        self.run_id = run_id
        if "://" not in self.root:  # local or FUSE-mounted (/dbfs, /Volumes); object stores need no mkdir
            os.makedirs(self.root, exist_ok=True)

    def path(self, name: str) -> str:
        return os.path.join(self.root, name)

    def staging(self, name: str) -> str:
        return os.path.join(self.root, "_staging", self.run_id, name)

    def cleanup_staging(self) -> None:
        shutil.rmtree(os.path.join(self.root, "_staging", self.run_id), ignore_errors=True)

    # interface -------------------------------------------------------------------------------
    def exists(self, name: str) -> bool:
        raise NotImplementedError

    def read(self, name: str):
        raise NotImplementedError

    def read_partition(self, name: str, value: str):
        """Rows of one run_id partition."""
        return self.read(name).where(F.col(PARTITION_COL) == value)

    def partition_values(self, name: str) -> list[str]:
        """The run_id partitions present in a partitioned table."""
        if not self.exists(name):
            return []
        return sorted(r[0] for r in self.read(name).select(PARTITION_COL).distinct().collect())

    def row_count(self, name: str) -> int:
        """Rows of a table (from metadata where the format keeps it)."""
        return self.read(name).count() if self.exists(name) else 0

    def write_partition(self, name: str, df, value: str) -> None:
        raise NotImplementedError

    def write_partition_arrow(self, name: str, table, value: str) -> None:
        """:meth:`write_partition` of a few rows already on the driver as an Arrow table (a sink
        that commits on the driver writes them without a Spark job)."""
        rows = table.to_pylist(maps_as_pydicts="strict")  # (Spark wants dicts for map columns)
        self.write_partition(name, self.spark.createDataFrame(rows, table_schema(name)), value)

    def adopt_partition(self, name: str, files_dir: str, value: str) -> bool:
        """Make the Parquet files in ``files_dir`` (written by Spark with exactly the table's columns
        but ``run_id``) the ``run_id=value`` partition, moving them instead of rewriting them. Returns
        False when this sink cannot (then call :meth:`write_partition`)."""
        return False

    def _move_files(self, files_dir: str, target: str) -> bool:
        """Move the ``*.parquet`` files of ``files_dir`` into a fresh ``target`` folder (local paths
        only: a rename on the same filesystem). False when there is nothing to move."""
        if "://" in self.root or not os.path.isdir(_local(files_dir)):
            return False
        src = _local(files_dir)
        names = [f for f in os.listdir(src) if f.endswith(".parquet") and not f.startswith((".", "_"))]
        if not names:
            return False
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        for f in names:
            shutil.move(os.path.join(src, f), os.path.join(target, f))
        return True

    def delete_partitions(self, name: str, values: list[str]) -> None:
        raise NotImplementedError

    def delete_lines(self, name: str, value: str, source_file: str, line_nos: list[int]) -> None:
        """Delete the rows of lines ``line_nos`` of ``source_file`` from the ``run_id=value``
        partition (a line an earlier run read while it was still being written)."""
        raise NotImplementedError

    @staticmethod
    def _lines_predicate(value: str, source_file: str, line_nos: list[int]) -> str:
        def q(v: str) -> str:
            return "'" + v.replace("'", "''") + "'"

        nums = ", ".join(str(int(n)) for n in line_nos)
        return f"{PARTITION_COL} = {q(value)} AND source_file = {q(source_file)} AND line_no IN ({nums})"

    def merge(self, name: str, df, keys: list[str]) -> None:
        raise NotImplementedError

    def overwrite(self, name: str, df) -> None:
        raise NotImplementedError

    # Arrow on the driver (only when ``arrow_tables``)
    def read_arrow(self, name: str):
        raise NotImplementedError

    def overwrite_arrow(self, name: str, table) -> None:
        raise NotImplementedError

    def merge_arrow(self, name: str, source, keys: list[str]) -> None:
        raise NotImplementedError

    # helpers ---------------------------------------------------------------------------------
    def _empty(self, name: str):
        return self.spark.createDataFrame([], table_schema(name))

    def _conform(self, name: str, df):
        """Columns of the table's schema, in order, cast to its types (missing columns are null)."""
        have = set(df.columns)
        return df.select(
            [
                (F.col(f.name) if f.name in have else F.lit(None)).cast(f.dataType).alias(f.name)
                for f in table_schema(name).fields
            ]
        )

    def _select_schema(self, name: str, df):
        """The table's columns; a column a table of an earlier version lacks reads as null."""
        have = set(df.columns)
        return df.select([F.col(f.name) if f.name in have else F.lit(None).cast(f.dataType).alias(f.name)
                          for f in table_schema(name).fields])  # fmt: skip

    def _dedupe(self, df, keys: list[str]):
        return df.dropDuplicates(keys)


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
    """Rows of ``t`` with distinct ``keys`` (nulls equal), the last row of each key kept."""
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

    def read_arrow(self, name: str):
        """The whole table as an Arrow table of its schema (for small tables read on the driver)."""
        if not self.exists(name):
            return table_arrow_schema(name).empty_table()
        return (
            DeltaTable(self.path(name))
            .to_pyarrow_dataset()
            .to_table()
            .select(table_arrow_schema(name).names)
            .cast(table_arrow_schema(name))
        )

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

    def merge_arrow(self, name: str, source, keys: list[str]) -> None:
        """:meth:`merge` of an Arrow table already on the driver (small: the replay's output read
        from its staged Parquet), without a Spark job. Duplicate keys keep their last row."""
        source = _dedupe_arrow(source.cast(table_arrow_schema(name)), keys)
        if source.num_rows == 0:
            self._table(name)
            return
        dt = self._table(name)
        predicate = " AND ".join(f"(t.{k} IS NOT DISTINCT FROM s.{k})" for k in keys)
        (
            dt.merge(source, predicate=predicate, source_alias="s", target_alias="t")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute()
        )


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


# --------------------------------------------------------------------------------------- Parquet


class ParquetSink(Sink):
    """Plain Parquet; ``_MANIFEST.json`` lists the live sub-directories (replaced atomically)."""

    kind = "parquet"

    def _manifest(self, name: str) -> list[str]:
        try:
            with open(os.path.join(self.path(name), MANIFEST), encoding="utf-8") as fh:
                return list(json.load(fh)["dirs"])
        except FileNotFoundError:
            return []

    def _commit(self, name: str, dirs: list[str]) -> None:
        tmp = os.path.join(self.path(name), f".{MANIFEST}.{self.run_id}.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"dirs": dirs, "committed_ms": int(time.time() * 1000)}, fh)
        os.replace(tmp, os.path.join(self.path(name), MANIFEST))
        live = set(dirs)
        for entry in os.listdir(self.path(name)):
            full = os.path.join(self.path(name), entry)
            if os.path.isdir(full) and entry not in live:
                shutil.rmtree(full, ignore_errors=True)

    def exists(self, name: str) -> bool:
        return os.path.exists(os.path.join(self.path(name), MANIFEST))

    def read(self, name: str):
        dirs = self._manifest(name)
        if not dirs:
            return self._empty(name)
        schema = table_schema(name)
        if name in PARTITIONED:
            parts = []
            data_schema = schemas.StructType([f for f in schema.fields if f.name != PARTITION_COL])
            for d in dirs:
                value = d.split("=", 1)[1]
                parts.append(
                    self.spark.read.schema(data_schema)
                    .parquet(os.path.join(self.path(name), d))
                    .withColumn(PARTITION_COL, F.lit(value))
                )
            out = parts[0]
            for p in parts[1:]:
                out = out.unionByName(p)
            return self._select_schema(name, out)
        return self.spark.read.schema(schema).parquet(*[os.path.join(self.path(name), d) for d in dirs])

    def partition_values(self, name: str) -> list[str]:
        return sorted(d.split("=", 1)[1] for d in self._manifest(name) if d.startswith(f"{PARTITION_COL}="))

    def _write(self, df, target: str) -> None:
        self.spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        df.write.mode("overwrite").parquet(target)

    def write_partition(self, name: str, df, value: str) -> None:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"{PARTITION_COL}={value}"
        self._write(self._conform(name, df).drop(PARTITION_COL), os.path.join(self.path(name), sub))
        self._commit(name, [d for d in self._manifest(name) if d != sub] + [sub])

    def adopt_partition(self, name: str, files_dir: str, value: str) -> bool:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"{PARTITION_COL}={value}"
        if not self._move_files(files_dir, os.path.join(self.path(name), sub)):
            return False
        self._commit(name, [d for d in self._manifest(name) if d != sub] + [sub])
        return True

    def delete_partitions(self, name: str, values: list[str]) -> None:
        drop = {f"{PARTITION_COL}={v}" for v in values}
        if self.exists(name) and drop & set(self._manifest(name)):
            self._commit(name, [d for d in self._manifest(name) if d not in drop])

    def delete_lines(self, name: str, value: str, source_file: str, line_nos: list[int]) -> None:
        """Rewrites the partition without the lines (staged, then swapped in by two renames)."""
        sub = f"{PARTITION_COL}={value}"
        if not line_nos or sub not in self._manifest(name):
            return
        data = self.read(name).where(F.col(PARTITION_COL) == value)
        gone = (F.col("source_file") == source_file) & F.col("line_no").isin([int(n) for n in line_nos])
        stage = self.staging(f"{name}-lines")
        self._write(data.where(~gone).drop(PARTITION_COL), stage)
        target = os.path.join(self.path(name), sub)
        old = os.path.join(self.path(name), f".{sub}.{self.run_id}.old")
        os.replace(target, old)
        os.replace(stage, target)
        shutil.rmtree(old, ignore_errors=True)

    def overwrite(self, name: str, df) -> None:
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"v-{self.run_id}"
        self._write(self._conform(name, df), os.path.join(self.path(name), sub))
        self._commit(name, [sub])

    def merge(self, name: str, df, keys: list[str]) -> None:
        new = self._dedupe(self._conform(name, df), keys)
        old = self.read(name)
        # keep old rows whose key is not in the new rows (null-safe key equality), then add the new
        cond = [old[k].eqNullSafe(new[k]) for k in keys]
        kept = old.join(new.select(keys), on=cond, how="left_anti") if self.exists(name) else old
        stage = self.staging(name)
        self._write(kept.unionByName(new), stage)  # materialise before replacing what it reads
        os.makedirs(self.path(name), exist_ok=True)
        sub = f"v-{self.run_id}"
        target = os.path.join(self.path(name), sub)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(stage, target)
        self._commit(name, [sub])


# ------------------------------------------------------------------------------------- reading


def table_format(lakehouse_dir: str, name: str) -> str | None:
    """``delta``, ``parquet`` or None (no such table) for ``<lakehouse_dir>/<name>``."""
    p = os.path.join(_local(lakehouse_dir), name)
    if os.path.isdir(os.path.join(p, "_delta_log")):
        return "delta"
    if os.path.exists(os.path.join(p, MANIFEST)):
        return "parquet"
    return None


def read_table(spark_or_none, lakehouse_dir: str, name: str):
    """Read a table back: a Spark DataFrame when given a SparkSession, else a pandas DataFrame.

    A missing table reads as an empty frame with the table's columns."""
    fmt = table_format(lakehouse_dir, name)
    if spark_or_none is not None:
        spark = spark_or_none
        if fmt == "parquet":
            return ParquetSink(spark, lakehouse_dir, "read").read(name)
        if fmt == "delta" and spark_has_delta(spark):
            return SparkDeltaSink(spark, lakehouse_dir, "read").read(name)
        return (
            DeltaRsSink(spark, lakehouse_dir, "read").read(name)
            if fmt
            else spark.createDataFrame([], table_schema(name))
        )
    return _read_pandas(lakehouse_dir, name, fmt)


def _read_pandas(lakehouse_dir: str, name: str, fmt: str | None):
    schema = table_arrow_schema(name)
    path = os.path.join(_local(lakehouse_dir), name)
    if fmt == "delta":
        table = DeltaTable(path).to_pyarrow_table()
    elif fmt == "parquet":
        with open(os.path.join(path, MANIFEST), encoding="utf-8") as fh:
            dirs = json.load(fh)["dirs"]
        tables = []
        for d in dirs:
            t = ds.dataset(os.path.join(path, d), format="parquet").to_table()
            if d.startswith(f"{PARTITION_COL}="):
                t = t.append_column(PARTITION_COL, pa.array([d.split("=", 1)[1]] * t.num_rows, pa.string()))
            tables.append(t.select(schema.names).cast(schema))
        table = pa.concat_tables(tables) if tables else schema.empty_table()
    else:
        table = schema.empty_table()
    return table.select(schema.names).to_pandas()
