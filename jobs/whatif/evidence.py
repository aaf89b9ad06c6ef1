"""The evidence events of log files read without Spark (the job's local pipeline,
:mod:`jobs.local`), per group: what the accuracy benchmark and the tests feed the what-if with after
the simulator wrote a behaviour's logs."""

from __future__ import annotations

from pathlib import Path

from coordinator_core.events import Event
from jobs.local import group_events, parse_files


def events_by_group(folder: str | Path) -> dict[str, list[Event]]:
    """Every event of every file under ``folder`` (``truth/`` excluded), by group id, in the
    replay's total order (:meth:`coordinator_core.events.Event.sort_key`)."""
    root = Path(folder)
    paths = [
        p for p in sorted(root.rglob("*")) if p.is_file() and "truth" not in p.relative_to(root).parts
    ]
    return group_events(parse_files(paths, root).events)
