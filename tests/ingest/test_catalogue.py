"""The message catalogue (jobs/ingest/catalogue): its files follow the format, and every mapped statement,
rendered as its program writes it, becomes what the catalogue declares."""

from __future__ import annotations

from typing import Any

import pytest

from jobs.ingest.catalogue import UNRELATED, coverage, expected_of, golden_lines, load
from jobs.ingest.parse import parse_bytes

SOURCES = load()


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, list | tuple):
        return got is not None and list(want) == list(got)
    return want == got


def _read(source_name: str) -> list[tuple[str, str, dict[str, Any], dict[str, Any] | None, str | None]]:
    """(statement id, line, expected, event or None, quarantine reason or None) per golden line; the
    source's golden lines are read as one file, as a program would have written them."""
    src = next(s for s in SOURCES if s.name == source_name)
    items = list(golden_lines((src,)))
    data = "\n".join(line for _, _, line in items).encode("utf-8") + b"\n"
    events, quarantine, audit = parse_bytes(data, f"{src.name}.log")
    assert audit["total_lines"] == len(items)
    by_line = {}
    for ev in events.to_pylist():
        by_line.setdefault(ev["line_no"], ev)
    bad = {q["line_no"]: q["reason"] for q in quarantine.to_pylist()}
    return [
        (st.id, line, expected_of(src, st), by_line.get(i), bad.get(i))
        for i, (_, st, line) in enumerate(items, start=1)
    ]


def test_catalogue_loads_and_declares_every_statement():
    assert SOURCES, "the catalogue has no source"
    for c in coverage():
        assert c.mapped <= c.statements


@pytest.mark.parametrize("source", [s.name for s in SOURCES])
def test_every_statement_renders_to_what_it_declares(source):
    wrong = []
    for sid, line, want, event, reason in _read(source):
        if want["kind"] == UNRELATED:
            if event is not None or reason is not None:
                wrong.append(f"{sid}: declared unrelated, got {event and event['kind'] or reason}\n    {line}")
            continue
        if event is None:
            wrong.append(f"{sid}: no event ({reason or 'unrelated'})\n    {line}")
            continue
        diff = {k: (v, event.get(k)) for k, v in want.items() if not _same(v, event.get(k))}
        if diff:
            wrong.append(f"{sid}: {diff}\n    {line}")
    assert not wrong, f"{len(wrong)} statements of {source} read wrong:\n" + "\n".join(wrong)
