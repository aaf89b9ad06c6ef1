"""The sink's interface (:class:`Sink`) and what every implementation shares: the tables' schemas
(Arrow, and Spark's derived from it), paths, staging folders and reading back through Spark. The
implementations: :mod:`jobs.sink_delta` (delta-rs, Spark's Delta writer) and :mod:`jobs.sink_parquet`;
:mod:`jobs.sink` chooses one. What a table folder looks like, and reading one without Spark, is
:mod:`jobs.sink_read`'s."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

from pyspark.sql import functions as F

from jobs.schemas import spark_schema, table_arrow_schema
from jobs.sink_read import MANIFEST, PARTITION_COL, PARTITIONED, local_path

__all__ = [
    "MANIFEST", "PARTITIONED", "PARTITION_COL", "Sink", "local_path", "spark_has_delta", "table_arrow_schema",
    "table_schema",
]  # fmt: skip


def table_schema(name: str):
    """The Spark schema of table ``name``, derived from its Arrow schema (:func:`table_arrow_schema`;
    the state table may be renamed: it has ``group_state``'s)."""
    return spark_schema(name)


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


class Sink:
    """The interface the pipeline writes through, and the common part (table paths, staging, reading
    back through Spark). Every method the pipeline calls is declared here.

    **Spark or Arrow** (the one rule, written down once): a sink whose :attr:`arrow_tables` is true
    also reads, merges and overwrites tables as Arrow on the driver (delta-rs). The pipeline then
    merges the replay's tables from the staged union on the driver when that folder is local, and
    computes the roll-ups and the summary there while ``rebalances`` holds at most
    ``jobs.run_summary.DRIVER_ROWS`` rows; otherwise everything goes through Spark.
    """

    kind = "abstract"
    #: the sink can read / merge / overwrite tables as Arrow on the driver (see above)
    arrow_tables = False

    def __init__(self, spark, root: str, run_id: str):
        self.spark = spark
        self.root = os.path.abspath(local_path(root)) if "://" not in root or root.startswith("file://") else root
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
        if "://" in self.root or not os.path.isdir(local_path(files_dir)):
            return False
        src = local_path(files_dir)
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
    def read_arrow(self, name: str, columns: Sequence[str] | None = None):
        raise NotImplementedError

    def overwrite_arrow(self, name: str, table) -> None:
        raise NotImplementedError

    def merge_arrow(self, name: str, source, keys: list[str]) -> None:
        raise NotImplementedError

    def partition_files(self, name: str, value: str) -> list[str] | None:
        """The local Parquet files of the ``run_id=value`` partition of ``name``, for a small read
        with pyarrow on the driver; None when the sink cannot list them (then read with Spark)."""
        return None

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
