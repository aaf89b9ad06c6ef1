"""The KIP-848 fixtures replay to exactly the stored snapshots and records.

``tests/fixtures/kip848/expected/<name>.json`` was first written by the replay as it was before
``coordinator_core/consumer/replay.py`` was split into modules (contract, rebalance, core, broker,
client, replay), and proved the split changed nothing; it was rewritten when the classic replay's
snapshot became format 2 (the history snapshot holds it), and when the consumer-protocol snapshot became format 2 (members and records by field name). A refactoring must leave every byte of it
unchanged (per-row snapshots are compared by SHA-256). Each
fixture's groups are replayed through :class:`coordinator_core.history.GroupHistory` twice:

* ``straight``: one row at a time, the snapshot JSON after each row, then the records of
  ``flush(final=True)`` and the snapshot after it;
* ``resumed``: one row at a time, ``flush()`` after each row (its records kept), then a new history
  resumed from the snapshot (the snapshot kept), and ``flush(final=True)`` at the end.

Regenerate (only when a change of output is intended): ``python -m tests.core.test_consumer_snapshot_stable``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.history import GroupHistory
from coordinator_core.replay import ReplayOutput
from tests.core.test_history import KIP848, rows_of

EXPECTED = KIP848 / "expected"
FIXTURES = sorted(p.name for p in KIP848.glob("*.log"))
_GID = EVENT_FIELDS.index("group_id")


def records(out: ReplayOutput) -> dict[str, list[dict[str, Any]]]:
    """The flushed records as plain JSON values, in the order the replay produced them."""
    kinds = ("transitions", "rebalances", "sessions", "assignments", "anomalies")
    d: dict[str, list[Any]] = {k: [asdict(r) for r in getattr(out, k)] for k in kinds}
    d["skew"] = list(out.skew)
    return json.loads(json.dumps(d, default=list))


def _digest(snapshot: str) -> str:
    """A snapshot after one row, stored as its SHA-256 (the fixtures stay small; the final snapshot
    is stored whole)."""
    return hashlib.sha256(snapshot.encode()).hexdigest()


def straight(rows: list[tuple], group: str) -> dict[str, Any]:
    h = GroupHistory(group)
    snaps = []
    for row in rows:
        h.feed_rows([row])
        snaps.append(_digest(h.snapshot()))
    out = records(h.flush(final=True))
    return {"snapshots": snaps, "records": out, "after_flush": h.snapshot()}


def resumed(rows: list[tuple], group: str) -> dict[str, Any]:
    h = GroupHistory(group)
    flushes, snaps = [], []
    for row in rows:
        h.feed_rows([row])
        flushes.append(records(h.flush()))
        snap = h.snapshot()
        snaps.append(_digest(snap))
        h = GroupHistory.resume(group, snap)
    return {"flushes": flushes, "snapshots": snaps, "final": records(h.flush(final=True))}


def replay_fixture(name: str) -> dict[str, Any]:
    """Every group of the fixture (by its first line), replayed both ways."""
    rows = rows_of(KIP848 / name)
    groups = sorted({r[_GID] for r in rows if r[_GID] is not None})
    out: dict[str, Any] = {}
    for g in groups:
        mine = [r for r in rows if r[_GID] == g]
        out[g] = {"straight": straight(mine, g), "resumed": resumed(mine, g)}
    return out


@pytest.mark.parametrize("name", FIXTURES)
def test_replay_matches_the_stored_output(name: str) -> None:
    expected = json.loads((EXPECTED / (Path(name).stem + ".json")).read_text())
    got = replay_fixture(name)
    assert list(got) == list(expected)
    for g, exp in expected.items():
        for mode in ("straight", "resumed"):
            for key, want in exp[mode].items():
                assert got[g][mode][key] == want, (g, mode, key)


def test_every_fixture_has_its_expected_output() -> None:
    assert FIXTURES and sorted(p.stem for p in EXPECTED.glob("*.json")) == [Path(n).stem for n in FIXTURES]


def _write_all() -> None:
    EXPECTED.mkdir(exist_ok=True)
    for name in FIXTURES:
        path = EXPECTED / (Path(name).stem + ".json")
        path.write_text(json.dumps(replay_fixture(name), indent=1, sort_keys=True) + "\n")
        print(path)


if __name__ == "__main__":
    _write_all()
