"""Helpers shared by the replay tests: build evidence events and replay them in total order."""

from __future__ import annotations

import dataclasses

from coordinator_core.events import EVENT_TYPES, Event
from coordinator_core.replay import GroupReplay, ReplayOutput, ReplaySettings

G = "g"


def broker(kind: str, ts: int, *, file: str = "server.log", coordinator: int = 1, **kw) -> Event:
    return EVENT_TYPES[kind](ts=ts, group_id=G, coordinator=coordinator, source_file=file, **kw)


def client(kind: str, ts: int, *, file: str = "app.log", **kw) -> Event:
    return EVENT_TYPES[kind](ts=ts, group_id=G, source_file=file, **kw)


def number(events: list[Event]) -> list[Event]:
    """Give every event a line number per source file (file order = list order)."""
    out, counters = [], {}
    for e in events:
        n = counters.get(e.source_file, 0) + 1
        counters[e.source_file] = n
        out.append(dataclasses.replace(e, line_no=n))
    return out


def replay(events: list[Event], settings: ReplaySettings | None = None, *, sort: bool = True) -> ReplayOutput:
    evs = sorted(events, key=lambda e: e.sort_key()) if sort else list(events)
    r = GroupReplay(G, settings)
    for e in evs:
        r.feed(e)
    return r.flush(final=True)


def states(out: ReplayOutput) -> list[str | None]:
    """The state sequence: the first transition's from-state, then every to-state."""
    if not out.transitions:
        return []
    return [out.transitions[0].from_state] + [t.to_state for t in out.transitions]


def kinds(out: ReplayOutput) -> list[str]:
    return [a.kind for a in out.anomalies]
