"""Single-process pure-Python pipeline: the same dialect table (``jobs.ingest.parse.parse_bytes``)
and the same core replay (``coordinator_core.history.GroupHistory``), without Spark.

Used by the benchmark (what Spark's parallelism buys over one Python process) and by the simulator
round-trip tests (parse + replay of simulated logs compared with the simulator's ground truth).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from coordinator_core.events import EVENT_FIELDS, SIDE_ORDER
from coordinator_core.history import GroupHistory
from coordinator_core.replay import ReplayOutput, ReplaySettings
from jobs.ingest.parse import parse_bytes


@dataclass
class PipelineResult:
    outputs: dict[str, ReplayOutput]
    lines: int = 0
    events: int = 0
    quarantined: int = 0
    files: int = 0
    parse_s: float = 0.0
    replay_s: float = 0.0
    #: time inside GroupReplay.feed_rows/flush only (the core), excluding sorting and row building
    core_s: float = 0.0
    audits: list[dict[str, Any]] = field(default_factory=list)


def log_files(root: str) -> list[str]:
    """Every log file under ``root`` (``*.log`` / ``*.log.gz``), ``truth/`` excluded, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "truth")
        for name in sorted(filenames):
            if name.endswith((".log", ".log.gz")):
                out.append(os.path.join(dirpath, name))
    return out


def parse_files(paths: list[str], root: str | None = None) -> tuple[pa.Table, PipelineResult]:
    """Parse every file; returns all events (one table) and the counters."""
    res = PipelineResult(outputs={})
    tables = []
    t0 = time.perf_counter()
    for path in paths:
        with open(path, "rb") as fh:
            data = fh.read()
        name = os.path.relpath(path, root) if root else path
        events, quarantine, audit = parse_bytes(data, name)
        res.files += 1
        res.lines += int(audit.get("total_lines") or 0)
        res.quarantined += quarantine.num_rows
        res.audits.append(audit)
        if events.num_rows:
            tables.append(events)
    res.parse_s = time.perf_counter() - t0
    if not tables:
        return pa.table({}), res
    ev = pa.concat_tables(tables, promote_options="default")
    res.events = ev.num_rows
    return ev, res


def replay_events(
    ev: pa.Table, settings: ReplaySettings | None = None, timing: list[float] | None = None
) -> dict[str, ReplayOutput]:
    """Replay each group's events in total order (ts, broker before client, source file, line).
    ``timing`` (a one-element list) accumulates the seconds spent inside the replay itself."""
    if ev.num_rows == 0:
        return {}
    ev = ev.filter(pc.is_valid(ev["group_id"]))
    side_rank = pa.array(np.array([SIDE_ORDER.get(s, 9) for s in ev["side"].to_pylist()], dtype=np.int8))
    ev = ev.append_column("_side_rank", side_rank)
    ev = ev.sort_by(
        [("group_id", "ascending"), ("ts_ms", "ascending"), ("_side_rank", "ascending"),
         ("source_file", "ascending"), ("line_no", "ascending")]
    )  # fmt: skip
    cols = {
        name: ev[("ts_ms" if name == "ts" else name)].to_pylist()
        for name in EVENT_FIELDS
        if (name == "ts" or name in ev.column_names)
    }
    n = ev.num_rows
    none = [None] * n
    rows = list(zip(*[cols.get(f, none) for f in EVENT_FIELDS]))
    groups = cols["group_id"]
    out: dict[str, ReplayOutput] = {}
    start = 0
    for i in range(1, n + 1):
        if i == n or groups[i] != groups[start]:
            g = groups[start]
            chunk = rows[start:i]
            t0 = time.perf_counter()
            r = GroupHistory(g, settings)
            r.feed_rows(chunk)
            out[g] = r.flush(final=True)
            if timing is not None:
                timing[0] += time.perf_counter() - t0
            start = i
    return out


def run_pipeline(root: str, settings: ReplaySettings | None = None) -> PipelineResult:
    """Parse every log under ``root`` and replay every group."""
    ev, res = parse_files(log_files(root), root)
    t0 = time.perf_counter()
    core = [0.0]
    res.outputs = replay_events(ev, settings, core)
    res.replay_s = time.perf_counter() - t0
    res.core_s = core[0]
    return res
