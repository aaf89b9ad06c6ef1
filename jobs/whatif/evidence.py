"""The evidence events of log files read without Spark (the pure-Python reader of
:mod:`jobs.ingest.parse`), per group: what the accuracy benchmark and the tests feed the what-if
with after the simulator wrote a behaviour's logs."""

from __future__ import annotations

from pathlib import Path

from coordinator_core.events import Event, event_from_row
from jobs.ingest.parse import parse_bytes


def events_by_group(folder: str | Path) -> dict[str, list[Event]]:
    """Every event of every log file under ``folder`` (``truth/`` excluded), by group id, in the
    replay's total order."""
    root = Path(folder)
    out: dict[str, list[Event]] = {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or "truth" in p.relative_to(root).parts:
            continue
        table, _, _ = parse_bytes(p.read_bytes(), str(p.relative_to(root)))
        for row in table.to_pylist():
            if not row.get("group_id"):
                continue
            row["ts"] = row["ts_ms"]
            try:
                out.setdefault(row["group_id"], []).append(event_from_row(row))
            except (KeyError, TypeError):
                continue
    for events in out.values():
        events.sort(key=lambda e: e.sort_key())
    return out
