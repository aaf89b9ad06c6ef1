"""How rows are fed: :func:`feed_rows_reference` defines the behaviour line by line;
:func:`feed_rows_fast` is the same with the heartbeat rule and the per-file order check inlined
(heartbeats are > 99 % of DEBUG client logs). ``tests/core/test_replay_fastpath.py`` asserts both
give equal output and equal snapshots on the replay corpora."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coordinator_core.events.row import GEN, KIND, LN, MID, SF, TS
from coordinator_core.replay.feed_types import RowFed
from coordinator_core.row_rules import HEARTBEAT

# the fast path reads these positions as literals
assert (TS, KIND, MID, GEN) == (0, 2, 4, 5)



def feed_rows_reference(rp: RowFed, rows: Iterable[Any]) -> None:
    """Consume flat rows in total order: a heartbeat is :meth:`~.heartbeat.HeartbeatEvidence._heartbeat`;
    any other line goes through the per-file order check, then :meth:`~.group_replay.GroupReplay._line`
    (duplicate check and handler). Nothing raises: an exception is a ``replay_error`` anomaly."""
    if not isinstance(rows, (list, tuple)):
        rows = list(rows)
    for row in rows:
        try:
            if type(row) is not tuple:
                row = rp._normalise(row)
            if row[KIND] == HEARTBEAT:
                rp._heartbeat(row)
            else:
                rp._check_order(row)
                rp._line(row)
        except Exception as exc:  # never raise on evidence
            rp._error(row, exc)
    rp.events += len(rows)


def feed_rows_fast(rp: RowFed, rows: Iterable[Any]) -> None:
    """:func:`feed_rows_reference` with locals: a known member's heartbeat of the group's (or its
    own) generation costs a dict lookup and an attribute store; the file record of consecutive
    lines of one file is looked up once."""
    if not isinstance(rows, (list, tuple)):
        rows = list(rows)
    members = rp.members
    files = rp.file_positions
    line = rp._line
    cur_sf: Any = None
    cur_rec: list[Any] = [0, -1]
    gen = rp.generation
    hb = HEARTBEAT
    for row in rows:
        try:
            if type(row) is not tuple:
                row = rp._normalise(row)
            if row[2] == hb:  # KIND
                m = members.get(row[4])  # MID
                if m is not None:
                    m.last_seen = row[0]  # TS
                    g = row[5]  # GEN
                    if g is None or g == gen or g == m.client_generation:
                        continue
                elif row[4] is None and row[5] is None and type(row[0]) is int:
                    # "Received successful Heartbeat response": only the time is new
                    if rp.last_ts is None or row[0] > rp.last_ts:
                        rp.last_ts = row[0]
                    continue
                rp._heartbeat_slow(row)
            else:
                sf = row[SF]
                if sf is not None:
                    ts = row[0]
                    if sf != cur_sf:
                        cur_sf = sf
                        cur_rec = files.get(sf)  # type: ignore[assignment]
                        if cur_rec is None:
                            cur_rec = files[sf] = [ts, -1]
                    ln = row[LN]
                    if (ts is not None and cur_rec[0] is not None and ts < cur_rec[0]) or (
                        ln is not None and ln < cur_rec[1]
                    ):
                        rp._out_of_order(row, cur_rec)
                    else:
                        if ts is not None:
                            cur_rec[0] = ts
                        if ln is not None:
                            cur_rec[1] = ln
                line(row)
            members = rp.members
            gen = rp.generation
        except Exception as exc:  # never raise on evidence
            rp._error(row, exc)
            members = rp.members
            gen = rp.generation
    rp.events += len(rows)
