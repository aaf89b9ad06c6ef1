"""The heartbeat fast path of ``GroupReplay.feed_rows`` (:func:`coordinator_core.replay.fastpath.feed_rows_fast`)
gives the same output and the same snapshot as the reference path that defines the behaviour
(:func:`~coordinator_core.replay.fastpath.feed_rows_reference`), on the replay corpora: the bundled
sample, the real-log excerpts and the core benchmark's streams - fed whole and in chunks."""

from __future__ import annotations

import pytest

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import GroupReplay, ReplaySettings
from coordinator_core.replay.fastpath import feed_rows_fast, feed_rows_reference
from tests.core.replay_corpora import all_groups

pytest.importorskip("pyarrow")

GROUPS = list(all_groups())
SETTINGS = (None, ReplaySettings(version_hint="0.10.0", track_generations=True))


def _run(feed, gid: str, rows: list[tuple], settings, chunk: int | None):
    r = GroupReplay(gid, settings)
    outs = []
    step = chunk or max(1, len(rows))
    for i in range(0, len(rows), step):
        feed(r, rows[i : i + step])
        outs.append(r.flush())
    return outs, r.snapshot(), r.flush(final=True)


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "old-broker"])
@pytest.mark.parametrize(("name", "gid", "rows"), GROUPS, ids=[g[0] for g in GROUPS])
def test_fast_path_equals_reference(name, gid, rows, settings):
    for chunk in (None, 7):
        assert _run(feed_rows_fast, gid, rows, settings, chunk) == _run(
            feed_rows_reference, gid, rows, settings, chunk
        )


def test_fast_path_equals_reference_on_odd_rows():
    """Lists and dicts instead of tuples, heartbeats of unknown, pending and departed members, with
    other generations, without a time or a member: the slow cases of the heartbeat rule."""
    _, gid, rows = next(g for g in GROUPS if g[0] == "bench/heartbeat")
    rows = list(rows[:400])
    m = rows[100][4]
    ts = rows[200][0]

    def row(ts, kind, mid, gen, file, line):
        return tuple({"ts": ts, "group_id": gid, "kind": kind, "member_id": mid, "generation": gen,
                      "source_file": file, "line_no": line}.get(f) for f in EVENT_FIELDS)  # fmt: skip

    extra = [
        row(ts, "heartbeat_sent", m, 99, "x.log", 1),  # ahead of the group: generation_gap
        row(ts, "heartbeat_sent", "stranger", 3, "x.log", 2),  # unknown member
        row(ts, "heartbeat_sent", None, None, "x.log", 3),  # bare heartbeat response
        row("later", "heartbeat_sent", None, None, "x.log", 4),  # unreadable time
        row(None, "heartbeat_sent", "stranger2", 1, "x.log", 5),  # no time
        [ts, gid, "heartbeat_sent", "client", m, 0],  # a short list
        {"ts_ms": ts, "group_id": gid, "kind": "heartbeat_sent", "member_id": m, "generation": 7},
        row(ts, "member_left", m, None, "server.log", 10**6),
        row(ts + 1, "heartbeat_sent", m, 0, "x.log", 6),  # a departed member
        row(ts + 1, "member_id_required", "newbie", None, "server.log", 10**6 + 1),
        row(ts + 2, "heartbeat_sent", "newbie", 0, "y.log", 1),  # a pending member joined
    ]
    rows[200:200] = extra
    for chunk in (None, 3):
        assert _run(feed_rows_fast, gid, rows, None, chunk) == _run(
            feed_rows_reference, gid, rows, None, chunk
        )
