"""The held-out real-log corpus (``tests/fixtures/holdout/``) is well formed.

Only its structure is checked here: every ``.log`` has a ``.yaml`` with a source and one label per
line, and every label uses the corpus vocabulary (``docs/design/contracts.md`` section 4). Nothing
here reads or scores the excerpts: the holdout is scored by hand, once, with
``python -m tests.ingest.real_corpus --corpus tests/fixtures/holdout`` (see its README).
"""

from __future__ import annotations

import os
import re

import pytest

from coordinator_core.events import EVENT_FIELDS, EVENT_KINDS
from tests.ingest import real_corpus as RC

HOLDOUT = RC.HOLDOUT_DIR
LOGS = sorted(f[:-4] for f in os.listdir(HOLDOUT) if f.endswith(".log")) if os.path.isdir(HOLDOUT) else []
REQUIRED = ("source", "title", "date", "found_with", "writer", "software", "layout", "layout_tag", "notes", "lines")
WRITERS = {"broker", "client", "connect", "streams", "spring", "other-client"}
NON_EVENTS = {"unrelated", "continuation", "quarantine"}
#: label keys: the event kind, the ``events`` columns a line can state, ``reason~`` (a substring)
FACT_KEYS = {"event", "reason~"} | (set(EVENT_FIELDS) - {"kind", "side", "source_file", "line_no"})


def test_holdout_has_its_excerpts() -> None:
    yamls = sorted(f[:-5] for f in os.listdir(HOLDOUT) if f.endswith(".yaml"))
    assert yamls == LOGS
    assert len(LOGS) >= 60
    assert all(re.fullmatch(r"h-[a-z0-9][a-z0-9.-]*", n) for n in LOGS), [n for n in LOGS if not n.startswith("h-")]


def test_holdout_sources_are_not_in_the_tuned_corpus() -> None:
    tuned = {str(RC.load(n)[0]["source"]) for n in RC.excerpts()}
    held = [str(RC.load(n, HOLDOUT)[0]["source"]) for n in LOGS]
    assert not tuned & set(held), sorted(tuned & set(held))


@pytest.mark.parametrize("name", LOGS)
def test_holdout_excerpt_is_labelled(name: str) -> None:
    meta, data = RC.load(name, HOLDOUT)
    assert all(k in meta for k in REQUIRED), [k for k in REQUIRED if k not in meta]
    assert str(meta["source"]).startswith("http") or (
        str(meta["source"]).startswith("search-index:file/") and meta.get("source_note")
    )
    assert re.match(r"^\d{4}-\d{2}(-\d{2})?$", str(meta["date"]))
    assert meta["writer"] in WRITERS, meta["writer"]
    lines = data.decode("utf-8").splitlines()
    assert 1 <= len(lines) <= 80
    assert len(meta["lines"]) == len(lines), (len(meta["lines"]), len(lines))
    for i, label in enumerate(meta["lines"], start=1):
        if isinstance(label, dict):
            assert label.get("event") in EVENT_KINDS, (i, label)
            assert set(label) <= FACT_KEYS, (i, sorted(set(label) - FACT_KEYS))
        else:
            assert label in NON_EVENTS, (i, label)
