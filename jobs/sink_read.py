"""What a table folder of the lakehouse looks like, and reading a table without Spark.

Every table lives in ``<lakehouse>/<name>``: a Delta table (``_delta_log``), or the Parquet fallback
whose live sub-directories ``_MANIFEST.json`` lists. :func:`read_arrow` reads one whole with
delta-rs or pyarrow, in its schema of :data:`jobs.schemas.ARROW`: the report, the notebooks' local
reader and the command line's checks read tables here without loading Spark. Writing, and reading
through Spark, is :mod:`jobs.sink`'s.
"""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.dataset as ds
from deltalake import DeltaTable

from jobs.schemas import table_arrow_schema

MANIFEST = "_MANIFEST.json"
PARTITION_COL = "run_id"
#: tables written one run_id partition at a time
PARTITIONED = ("events", "quarantine", "ingest_audit")


def local_path(path: str) -> str:
    """A local path without its ``file://`` scheme."""
    return path[len("file://") :] if path.startswith("file://") else path


def table_format(lakehouse_dir: str, name: str) -> str | None:
    """``delta``, ``parquet`` or None (no such table) for ``<lakehouse_dir>/<name>``."""
    p = os.path.join(local_path(lakehouse_dir), name)
    if os.path.isdir(os.path.join(p, "_delta_log")):
        return "delta"
    if os.path.exists(os.path.join(p, MANIFEST)):
        return "parquet"
    return None


def manifest_dirs(table_path: str) -> list[str]:
    """The live sub-directories a Parquet table's ``_MANIFEST.json`` lists (none without one)."""
    try:
        with open(os.path.join(table_path, MANIFEST), encoding="utf-8") as fh:
            return list(json.load(fh)["dirs"])
    except FileNotFoundError:
        return []


def read_arrow(lakehouse_dir: str, name: str) -> pa.Table:
    """Table ``name`` as Arrow, its columns in schema order; a missing table is an empty one."""
    fmt = table_format(lakehouse_dir, name)
    schema = table_arrow_schema(name)
    path = os.path.join(local_path(lakehouse_dir), name)
    if fmt == "delta":
        table = DeltaTable(path).to_pyarrow_table()
    elif fmt == "parquet":
        tables = []
        for d in manifest_dirs(path):
            t = ds.dataset(os.path.join(path, d), format="parquet").to_table()
            if d.startswith(f"{PARTITION_COL}="):
                t = t.append_column(PARTITION_COL, pa.array([d.split("=", 1)[1]] * t.num_rows, pa.string()))
            tables.append(t.select(schema.names).cast(schema))
        table = pa.concat_tables(tables) if tables else schema.empty_table()
    else:
        table = schema.empty_table()
    return table.select(schema.names)


def read_pandas(lakehouse_dir: str, name: str):
    """:func:`read_arrow` as a pandas DataFrame."""
    return read_arrow(lakehouse_dir, name).to_pandas()
