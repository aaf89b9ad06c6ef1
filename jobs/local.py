"""The job's pipeline in one process, without Spark: log files -> events -> each group's events in the
replay's total order -> the core's replay -> its tables.

The same steps as :mod:`jobs.pipeline` with the same functions: every file is read by the job's
pure-Python reader (:func:`jobs.ingest.parse.parse_bytes`), every group is replayed by the core
(:class:`coordinator_core.history.GroupHistory`, the per-group history the Spark UDFs call). Used by the
benchmarks (what Spark's parallelism buys over one process), the what-if (:mod:`jobs.whatif.evidence`),
the real-log scorer (``tests/ingest/real_corpus.py``) and the tests that replay simulated logs.

:func:`run_local` is the whole pipeline; its steps are public for the callers that need one of them:
:func:`log_files`, :func:`parse_files`, :func:`sort_events` (the Arrow twin of
:meth:`coordinator_core.events.Event.sort_key`), :func:`group_columns` / :func:`group_rows` /
:func:`group_events` (each group's events as the core takes them) and :func:`replay_groups`.

Groups are keyed by ``group_id`` alone: the files read together are one cluster's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from coordinator_core.events import EVENT_FIELDS, Event, event_from_row
from coordinator_core.history import GroupHistory
from coordinator_core.replay import ReplayOutput, ReplaySettings
from jobs.event_order import group_order, side_ranks
from jobs.ingest.parse import parse_bytes


@dataclass
class Parsed:
    """Every event of the files read (one table, the reader's columns) and the reader's counters."""

    events: pa.Table
    files: int = 0
    lines: int = 0
    quarantined: int = 0
    #: one audit dict per file, as :func:`jobs.ingest.parse.parse_bytes` returns it
    audits: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class LocalRun:
    """What :func:`run_local` did: each group's replay output and the counters of every step."""

    outputs: dict[str, ReplayOutput]
    parsed: Parsed
    #: sorting, grouping and replaying
    replay_s: float = 0.0
    #: inside the core's replay only (``feed_rows`` / ``flush``)
    core_s: float = 0.0

    @property
    def events(self) -> int:
        return self.parsed.events.num_rows


def log_files(root: str | os.PathLike[str]) -> list[str]:
    """Every log file under ``root`` (``*.log`` / ``*.log.gz``), ``truth/`` excluded, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "truth")
        for name in sorted(filenames):
            if name.endswith((".log", ".log.gz")):
                out.append(os.path.join(dirpath, name))
    return out


def parse_file(path: str | os.PathLike[str], name: str | None = None, cluster: str | None = None):
    """One file through the job's reader: ``(events, quarantine, audit)`` of
    :func:`jobs.ingest.parse.parse_bytes`; ``name`` is its ``source_file`` (default: the path)."""
    with open(path, "rb") as fh:
        data = fh.read()
        mtime_ms = os.fstat(fh.fileno()).st_mtime_ns // 1_000_000
    name = str(path) if name is None else name
    return parse_bytes(data, name, mtime_ms=mtime_ms) if cluster is None else parse_bytes(data, name, cluster, mtime_ms=mtime_ms)


def parse_files(
    paths: Sequence[str | os.PathLike[str]], root: str | os.PathLike[str] | None = None,
    cluster: str | None = None,
) -> Parsed:  # fmt: skip
    """Every file through the job's reader, the events in one table. ``root``: source files are
    named relative to it (default: their paths); ``cluster``: the files' cluster."""
    res = Parsed(events=pa.table({}))
    tables = []
    t0 = time.perf_counter()
    for path in paths:
        name = os.path.relpath(path, root) if root else str(path)
        events, quarantine, audit = parse_file(path, name, cluster)
        res.files += 1
        res.lines += int(audit.get("total_lines") or 0)
        res.quarantined += quarantine.num_rows
        res.audits.append(audit)
        if events.num_rows:
            tables.append(events)
    res.seconds = time.perf_counter() - t0
    if tables:
        res.events = pa.concat_tables(tables, promote_options="default")
    return res


def sort_events(events: pa.Table) -> pa.Table:
    """The events that name a group, by group and then in the replay's total order
    (:mod:`jobs.event_order`, the Arrow twin of :meth:`coordinator_core.events.Event.sort_key`)."""
    if events.num_rows == 0 or "group_id" not in events.column_names:
        return events
    events = events.filter(pc.is_valid(events["group_id"]))
    return events.take(group_order(events, side_ranks(events["side"]), keys=("group_id",)))


def _group_slices(events: pa.Table) -> Iterator[tuple[str, pa.Table]]:
    """(group id, its events) of a table in :func:`sort_events` order."""
    groups = events["group_id"].to_pylist() if events.num_rows else []
    start = 0
    for i in range(1, len(groups) + 1):
        if i == len(groups) or groups[i] != groups[start]:
            yield groups[start], events.slice(start, i - start)
            start = i


def _columns(events: pa.Table) -> dict[str, list[Any]]:
    """The :data:`EVENT_FIELDS` columns the table has, as lists (``ts`` from ``ts_ms``)."""
    return {
        name: events["ts_ms" if name == "ts" else name].to_pylist()
        for name in EVENT_FIELDS
        if name == "ts" or name in events.column_names
    }


def group_columns(events: pa.Table) -> dict[str, dict[str, list[Any]]]:
    """Each group's events as columns (``ConsumerGroupReplay.feed_columns``), in the total order."""
    return {g: _columns(sub) for g, sub in _group_slices(sort_events(events))}


def _rows(events: pa.Table) -> list[tuple]:
    cols = _columns(events)
    none = [None] * events.num_rows
    return list(zip(*[cols.get(f, none) for f in EVENT_FIELDS], strict=True))


def group_rows(events: pa.Table) -> dict[str, list[tuple]]:
    """Each group's events as rows in :data:`EVENT_FIELDS` order (``GroupHistory.feed_rows``), in
    the total order."""
    return {g: _rows(sub) for g, sub in _group_slices(sort_events(events))}


def group_events(events: pa.Table) -> dict[str, list[Event]]:
    """Each group's typed events in the total order (:meth:`~coordinator_core.events.Event.sort_key`
    itself); rows the core has no event for (an unknown kind, no time) are left out, a group with
    none of its rows left keeps an empty list."""
    out: dict[str, list[Event]] = {}
    for g, rows in group_rows(events).items():
        typed = []
        for row in rows:
            try:
                typed.append(event_from_row(dict(zip(EVENT_FIELDS, row, strict=True))))
            except (KeyError, TypeError):
                continue
        out[g] = sorted(typed, key=Event.sort_key)
    return out


def replay_groups(
    rows_by_group: dict[str, list[tuple]], settings: ReplaySettings | None = None,
    timing: list[float] | None = None,
) -> dict[str, ReplayOutput]:  # fmt: skip
    """Each group's rows (:func:`group_rows`) replayed by the core's per-group history. ``timing``
    (a one-element list) accumulates the seconds spent inside the replay itself."""
    out: dict[str, ReplayOutput] = {}
    for g, rows in rows_by_group.items():
        t0 = time.perf_counter()
        history = GroupHistory(g, settings)
        history.feed_rows(rows)
        out[g] = history.flush(final=True)
        if timing is not None:
            timing[0] += time.perf_counter() - t0
    return out


def run_local(
    files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], settings: ReplaySettings | None = None,
    root: str | os.PathLike[str] | None = None,
) -> LocalRun:  # fmt: skip
    """The whole pipeline: read ``files`` (a folder: every log under it, named relative to it; or a
    list of paths, named relative to ``root``), replay every group, return each group's output."""
    paths: list[str | os.PathLike[str]]
    if isinstance(files, str | os.PathLike):
        root, paths = files, list(log_files(files))
    else:
        paths = list(files)
    parsed = parse_files(paths, root)
    t0 = time.perf_counter()
    core = [0.0]
    outputs = replay_groups(group_rows(parsed.events), settings, core)
    return LocalRun(outputs=outputs, parsed=parsed, replay_s=time.perf_counter() - t0, core_s=core[0])
