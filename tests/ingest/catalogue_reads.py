"""Which dialects read a set of catalogue sources' golden lines (one statement a line): the dialect of every
event, and of every line quarantined as recognised but not understood (``recognised (<dialect>)``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from jobs.ingest.catalogue import golden_lines
from jobs.ingest.parse import parse_bytes


def dialects_reading(sources: Iterable) -> set[str]:
    """Dialect ids that read at least one golden line of ``sources`` (each parsed as one file)."""
    seen: set[str] = set()
    for src in sources:
        items = list(golden_lines((src,)))
        data = "\n".join(line for _, _, line in items).encode("utf-8") + b"\n"
        events, quarantine, _ = parse_bytes(data, f"{src.name}.log")
        seen.update(d for d in events.column("dialect").to_pylist() if d)
        for detail in quarantine.column("detail").to_pylist():
            m = re.search(r"recognised \(([^)]+)\)", detail or "")
            if m:
                seen.add(m.group(1))
    return seen
