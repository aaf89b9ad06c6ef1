"""Loading the lakehouse tables the report and the notebooks plot.

Two ways in, same pandas frames out (columns and types of the Arrow schemas of
:data:`jobs.schemas.ARROW`, ``*_ts`` columns as tz-aware UTC ``datetime64``):

* with a SparkSession (Databricks, a cluster): ``spark.read.format("delta").load(path)``, filtered
  and projected in Spark, then ``toPandas()`` of the (small) result;
* without one (a laptop, the tests, ``python -m jobs report``): :func:`jobs.sink_read.read_pandas`
  (delta-rs for Delta tables, pyarrow for the Parquet fallback), which loads no Spark; one group's
  rows of a Delta table are read with the group filter pushed down to delta-rs.

A table that does not exist yet is an empty frame with the right columns, so a report of a lakehouse
without storms simply says "no storms".
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from typing import Any, Literal

import pandas as pd
import pyarrow as pa
from deltalake import DeltaTable, write_deltalake

from jobs.schemas import table_arrow_schema
from jobs.sink_read import read_pandas, table_format

#: the tables the report and notebooks read (never ``events``: event-sized, not a roll-up)
REPORT_TABLES: tuple[str, ...] = (
    "rebalances",
    "rebalance_frequency",
    "storms",
    "group_transitions",
    "member_sessions",
    "partition_skew",
    "anomalies",
    "group_state",
)
#: the columns of ``group_state`` the report reads: which groups exist (never the stored states)
GROUP_STATE_COLUMNS = ("cluster", "group_id", "last_ts", "events_replayed")

#: most rows of one table brought to the driver through Spark (rebalance-sized tables only)
MAX_ROWS = 500_000


def columns(name: str) -> list[str]:
    return list(table_arrow_schema(name).names)


def timestamp_columns(name: str) -> list[str]:
    return [f.name for f in table_arrow_schema(name) if pa.types.is_timestamp(f.type)]


def integer_columns(name: str) -> list[str]:
    return [f.name for f in table_arrow_schema(name) if pa.types.is_integer(f.type)]


def empty_frame(name: str) -> pd.DataFrame:
    """An empty frame with the columns (and pandas dtypes) of table ``name``."""
    return table_arrow_schema(name).empty_table().to_pandas()


def normalise(df: pd.DataFrame, name: str) -> pd.DataFrame:
    """Columns in schema order (missing ones added as nulls), timestamps as tz-aware UTC.

    Accepts frames built by hand or from replay records too: numeric timestamps are epoch ms.
    """
    df = df.copy()
    for col in columns(name):
        if col not in df.columns:
            df[col] = None
    for col in timestamp_columns(name):
        s = df[col]
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            df[col] = pd.to_datetime(s, unit="ms", utc=True)
        else:
            df[col] = pd.to_datetime(s, utc=True)
    for col in integer_columns(name):  # nullable ints (a generation is 5, not 5.0, even with gaps)
        if not pd.api.types.is_integer_dtype(df[col]) or df[col].isna().any():
            df[col] = pd.to_numeric(df[col], errors="coerce").astype("Int64")
    extra = [c for c in df.columns if c not in columns(name)]
    return df[columns(name) + extra].reset_index(drop=True)


def table_path(lakehouse: str, name: str) -> str:
    return os.path.join(str(lakehouse), name)


def read_table(
    lakehouse: str,
    name: str,
    *,
    spark: Any = None,
    group: str | None = None,
    cluster: str | None = None,
    cols: Iterable[str] | None = None,
    max_rows: int = MAX_ROWS,
    kinds: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Table ``name`` of ``lakehouse`` as pandas, optionally only one group / cluster, and for
    ``events`` only the lines of ``kinds`` (pushed down: a group's events are mostly heartbeats).

    With ``spark`` the filter and projection run in Spark and at most ``max_rows`` rows come back.
    A table that does not exist reads as an empty frame.
    """
    wanted = list(cols) if cols is not None else columns(name)
    if spark is not None:
        return _read_spark(spark, lakehouse, name, wanted, group, cluster, kinds, max_rows)
    pdf = _read_local(lakehouse, name, group, kinds)
    if group is not None and len(pdf):
        pdf = pdf[pdf["group_id"] == group]
    if kinds is not None and len(pdf):
        pdf = pdf[pdf["kind"].isin(list(kinds))]
    if cluster is not None and len(pdf):
        pdf = pdf[pdf["cluster"] == cluster]
    return normalise(pdf, name)[wanted]


def _read_spark(
    spark: Any, lakehouse: str, name: str, wanted: list[str], group: str | None, cluster: str | None,
    kinds: Iterable[str] | None, max_rows: int,
) -> pd.DataFrame:
    """:func:`read_table` through Spark, filtered and projected there (Spark is imported here only:
    the local reader loads none)."""
    from pyspark.sql import functions as F

    from jobs.sink import read_table as sink_read  # Delta (Spark or delta-rs) or the Parquet fallback

    sdf = sink_read(spark, lakehouse, name)
    if group is not None:
        sdf = sdf.where(F.col("group_id") == group)
    if cluster is not None:
        sdf = sdf.where(F.col("cluster") == cluster)
    if kinds is not None:
        sdf = sdf.where(F.col("kind").isin(list(kinds)))
    pdf = sdf.select(*[c for c in wanted if c in sdf.columns]).limit(max_rows).toPandas()
    if len(pdf) >= max_rows:
        warnings.warn(
            f"{name}: only the first {max_rows:,} rows were read; filter by group or cluster",
            stacklevel=3,
        )
    return normalise(pdf, name)[wanted]


def _read_local(
    lakehouse: str, name: str, group: str | None, kinds: Iterable[str] | None = None
) -> pd.DataFrame:
    if group is not None and table_format(lakehouse, name) == "delta":
        try:  # push the group filter down (events of one group)
            filters = [("group_id", "=", group)] + (
                [("kind", "in", list(kinds))] if kinds is not None else []
            )
            return DeltaTable(table_path(lakehouse, name)).to_pandas(filters=filters)
        except Exception:  # e.g. string_view columns the arrow filter kernel cannot compare
            pass
    return read_pandas(lakehouse, name)


def load_tables(
    lakehouse: str,
    *,
    spark: Any = None,
    group: str | None = None,
    cluster: str | None = None,
    names: Iterable[str] = REPORT_TABLES,
) -> dict[str, pd.DataFrame]:
    """Every table in ``names`` as pandas (see :func:`read_table`).

    Storms are kept whole even for one group, so its storms' concurrent groups stay visible.
    """
    out: dict[str, pd.DataFrame] = {}
    for name in names:
        out[name] = read_table(
            lakehouse, name, spark=spark, group=None if name == "storms" else group, cluster=cluster,
            cols=GROUP_STATE_COLUMNS if name == "group_state" else None,
        )
    if group is not None and "storms" in out:
        st = out["storms"]
        keep = st["group_id"].eq(group) | st["concurrent_groups"].map(
            lambda gs: gs is not None and group in list(gs)
        )
        out["storms"] = st[keep].reset_index(drop=True)
    return out


def write_tables(
    lakehouse: str, frames: dict[str, pd.DataFrame], mode: Literal["error", "append", "overwrite", "ignore"] = "overwrite"
) -> None:
    """Write hand-made frames as Delta tables with the job's schemas (tests, demos; not the job's sink)."""
    for name, df in frames.items():
        schema = table_arrow_schema(name)
        table = pa.Table.from_pandas(normalise(df, name)[columns(name)], schema=schema, preserve_index=False)
        write_deltalake(table_path(lakehouse, name), table, mode=mode)
