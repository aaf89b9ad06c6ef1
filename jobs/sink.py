"""Where the tables go: Delta (Spark's own Delta writer, or delta-rs) or Parquet, behind one interface.

Every table lives in ``<lakehouse>/<name>`` and is written with exactly its schema from
:data:`jobs.schemas.ARROW` (Spark's form of it where Spark writes).  The job uses four operations:

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

:func:`read_table` reads a table back: a Spark DataFrame, or pandas (via delta-rs / pyarrow,
:mod:`jobs.sink_read`, which reads without Spark) when no SparkSession is given.
"""

from __future__ import annotations

from jobs.sink_base import (
    MANIFEST,
    PARTITION_COL,
    PARTITIONED,
    Sink,
    spark_has_delta,
    table_arrow_schema,
    table_schema,
)
from jobs.sink_delta import DeltaRsSink, SparkDeltaSink
from jobs.sink_parquet import ParquetSink
from jobs.sink_read import read_pandas, table_format

__all__ = [
    "MANIFEST", "PARTITIONED", "PARTITION_COL", "DeltaRsSink", "ParquetSink", "Sink", "SparkDeltaSink",
    "make_sink", "read_table", "spark_has_delta", "table_arrow_schema", "table_format", "table_schema",
]  # fmt: skip


def make_sink(spark, root: str, fmt: str = "delta", writer: str = "auto", run_id: str = "run") -> Sink:
    """The sink for ``output.format`` / ``output.writer`` of the configuration."""
    if fmt == "parquet":
        return ParquetSink(spark, root, run_id)
    if writer == "spark-delta" or (writer == "auto" and spark_has_delta(spark)):
        return SparkDeltaSink(spark, root, run_id)
    return DeltaRsSink(spark, root, run_id)


# ------------------------------------------------------------------------------------- reading


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
    return read_pandas(lakehouse_dir, name)
