"""Checks the command line makes before any Spark starts: are the inputs there, is a folder a lakehouse
and does it hold the group asked for, and where a run without ``--output`` writes. Plain Python (no
Spark, no pandas), so a wrong argument costs a fraction of a second, not a JVM start."""

from __future__ import annotations

# The modules this one uses are imported inside the checks: a wrong argument costs no import of the
# ingestion package or of pandas / delta-rs (the checks that read a lakehouse load those).
import datetime
import glob
import os

#: where ``--input`` without ``--output`` writes: a new folder per run, never the sample's ./lakehouse
RUN_OUTPUT_PREFIX = "./lakehouse-"
_GLOB_CHARS = set("*?[")


class InputError(Exception):
    """An input path that gives no file (exit 1, ``input error: ...``)."""


class LakehouseError(Exception):
    """A folder that is not a lakehouse, or a group / cluster it does not hold (exit 1)."""


def run_output_dir(stamp: datetime.datetime | str) -> str:
    """``./lakehouse-20240514-100000``: the folder of a run given ``--input`` without ``--output``."""
    if isinstance(stamp, datetime.datetime):
        stamp = stamp.strftime("%Y%m%d-%H%M%S")
    return f"{RUN_OUTPUT_PREFIX}{stamp}"


def _visible_files(directory: str) -> bool:
    """Whether ``directory`` holds a file the job reads (hidden and ``_`` entries are skipped, as by
    :func:`jobs.ingest.sources.resolve`)."""
    for _root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if not d.startswith((".", "_"))]
        if any(not f.startswith((".", "_")) for f in files):
            return True
    return False


def input_problem(path: str) -> str | None:
    """Why the local ``path`` gives no file to read, or None when it gives at least one."""
    from jobs.ingest.sources import is_remote

    if is_remote(path):
        return None  # object stores are listed by Spark at read time
    p = path[len("file://") :] if path.startswith("file://") else path
    if any(c in p for c in _GLOB_CHARS):
        matches = glob.glob(p, recursive=True)
        if not matches:
            parent = os.path.dirname(p.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]) or "."
            where = "" if os.path.isdir(parent) else f" (and {parent} does not exist)"
            return f"no file matches {path}{where}"
        if not any(os.path.isfile(m) or (os.path.isdir(m) and _visible_files(m)) for m in matches):
            return f"{path} matches only empty directories"
        return None
    if os.path.isdir(p):
        return None if _visible_files(p) else f"the directory {path} is empty (no log file in it or below it)"
    if os.path.isfile(p):
        return None
    return f"{path} does not exist"


def check_inputs(paths: list[str]) -> None:
    """Raise :class:`InputError` naming every input path that gives no file."""
    problems = [why for why in (input_problem(p) for p in paths) if why]
    if problems:
        raise InputError("; ".join(problems))


def lakehouse_tables(lakehouse: str) -> list[str]:
    """The job's tables present in ``lakehouse`` (Delta or the Parquet fallback)."""
    from jobs.schemas import TABLE_NAMES
    from jobs.sink_read import table_format  # what a table folder looks like (no Spark)

    return [name for name in TABLE_NAMES if table_format(lakehouse, name) is not None]


def check_lakehouse(lakehouse: str, group: str | None = None, cluster: str | None = None) -> None:
    """Raise :class:`LakehouseError` unless ``lakehouse`` holds the job's tables and, when given, the
    ``group`` / ``cluster`` (the groups of ``group_state``, every group the job replayed, and of
    ``rebalances``)."""
    from jobs.ingest.sources import is_remote

    if is_remote(lakehouse):
        return  # a Spark-only path: checked when it is read
    if not os.path.isdir(lakehouse):
        raise LakehouseError(f"{lakehouse} is not a directory: give the folder the job wrote (its --output)")
    present = lakehouse_tables(lakehouse)
    if "rebalances" not in present and "group_state" not in present:
        raise LakehouseError(
            f"{lakehouse} is not a rebalance-lens lakehouse (no rebalances or group_state table in it): "
            "give the folder the job wrote (its --output)"
        )
    if group is None and cluster is None:
        return
    import pandas as pd

    from jobs.sink_read import read_pandas

    keys = pd.concat([read_pandas(lakehouse, name)[["cluster", "group_id"]]
                      for name in ("group_state", "rebalances") if name in present])  # fmt: skip
    if cluster is not None and not (keys["cluster"] == cluster).any():
        raise LakehouseError(f"no cluster {cluster!r} in {lakehouse} (clusters: {_few(keys['cluster'])})")
    if cluster is not None:
        keys = keys[keys["cluster"] == cluster]
    if group is not None and not (keys["group_id"] == group).any():
        raise LakehouseError(f"no group {group!r} in {lakehouse} (groups: {_few(keys['group_id'])})")


def _few(values, n: int = 10) -> str:
    names = sorted({str(v) for v in values})
    if not names:
        return "none"
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")
