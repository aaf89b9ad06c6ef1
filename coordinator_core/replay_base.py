"""What both evidence replays share — the classic one (:mod:`coordinator_core.replay`) and the
consumer-protocol one (:mod:`coordinator_core.consumer`): :class:`EvidenceReplay` (the output buffers,
anomalies of a row, the flush of the buffers), rebalance ids (:func:`unique_id`), and the records not
flushed yet in snapshots, by field name (:func:`dump_records`, :func:`load_records`).

The input side (``feed`` / ``feed_columns`` / the ``replay_error`` of a row) is
:class:`coordinator_core.rows.RowInput`, which :class:`EvidenceReplay` extends.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from coordinator_core.events.row import KIND, LN, SF, TS
from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition
from coordinator_core.replay.output import ReplayOutput
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.rows import RowInput

__all__ = [
    "EvidenceReplay", "OUTPUT_BUFFERS", "RECORD_TYPES", "RECORD_FIELDS", "RECENT_IDS", "unique_id", "dump_records",
    "load_records",
]  # fmt: skip

#: the output buffers of a replay (attribute ``_<key>``) and the record type each holds; ``_sk`` holds
#: ``partition_skew`` rows as dicts
RECORD_TYPES: dict[str, type] = {
    "tr": Transition, "rb": Rebalance, "ss": MemberSession, "as": AssignmentRow, "an": Anomaly,
}  # fmt: skip
RECORD_FIELDS: dict[str, tuple[str, ...]] = {k: tuple(f.name for f in fields(c)) for k, c in RECORD_TYPES.items()}
OUTPUT_BUFFERS: tuple[str, ...] = ("_tr", "_rb", "_ss", "_as", "_an", "_sk")
#: rebalance ids remembered to keep new ones unique
RECENT_IDS = 32


def unique_id(used: list[str], rid: str) -> str:
    """``rid``, or ``rid#n`` when a recent rebalance (``used``, updated here) already has it: two
    rebalances starting in the same millisecond at the same generation, or two whose start is
    unknown. The id is fixed when a rebalance starts, so every later report of it carries it."""
    out, n = rid, 1
    while out in used:
        n += 1
        out = f"{rid}#{n}"
    used.append(out)
    if len(used) > RECENT_IDS:
        del used[0]
    return out


def dump_records(rp: EvidenceReplay) -> dict[str, list[Any]]:
    """The records of ``rp`` not flushed yet, each as an object by field name (skew rows as they are)."""
    out: dict[str, list[Any]] = {}
    for key, names in RECORD_FIELDS.items():
        buf = getattr(rp, "_" + key)
        if buf:
            out[key] = [{n: getattr(rec, n) for n in names} for rec in buf]
    if rp._sk:
        out["sk"] = list(rp._sk)
    return out


def load_records(rp: EvidenceReplay, out: dict[str, Any]) -> None:
    """Put the records of a snapshot's ``out`` back into the buffers of ``rp``: objects by field name,
    or (snapshots of earlier formats) lists of values in field order."""
    for key, cls in RECORD_TYPES.items():
        names = RECORD_FIELDS[key]
        buf = getattr(rp, "_" + key)
        for vals in out.get(key, ()):
            kw = dict(vals) if isinstance(vals, dict) else dict(zip(names, vals))
            if key == "as":
                kw["partitions"] = tuple(kw["partitions"])
            buf.append(cls(**kw))
    rp._sk.extend(out.get("sk", ()))


class EvidenceReplay(RowInput):
    """The part of an evidence replay that does not depend on the protocol. A subclass holds
    ``group_id``, ``settings`` and the :data:`OUTPUT_BUFFERS` in its slots (set by
    :meth:`_init_output`) and says where the model is (``_position``: state, generation or epoch)."""

    __slots__ = ()

    group_id: str
    settings: ReplaySettings
    _tr: list[Transition]
    _rb: list[Rebalance]
    _ss: list[MemberSession]
    _as: list[AssignmentRow]
    _an: list[Anomaly]
    _sk: list[dict[str, Any]]

    def _init_output(self, group_id: str, settings: ReplaySettings | None) -> None:
        # the slots are the subclass's: set through setattr
        setattr(self, "group_id", group_id)  # noqa: B010
        setattr(self, "settings", settings or ReplaySettings())  # noqa: B010
        for name in OUTPUT_BUFFERS:
            setattr(self, name, [])

    def _take_output(self) -> ReplayOutput:
        """The records produced since the last flush (the buffers start empty again)."""
        out = ReplayOutput(*(getattr(self, name) for name in OUTPUT_BUFFERS))
        for name in OUTPUT_BUFFERS:
            setattr(self, name, [])
        return out

    def _still_open(self, out: ReplayOutput, rebalance_id: str, ts: int | None) -> None:
        """The ``rebalance_without_end`` anomaly of a rebalance still open when the logs end."""
        state, generation = self._position()
        out.anomalies.append(
            Anomaly(
                self.group_id, ts, "rebalance_without_end", f"rebalance {rebalance_id} still open when the logs end",
                state, generation,
            )
        )  # fmt: skip

    def _check_file_order(self, files: dict[str, list[Any]], row: tuple) -> None:
        """Per-file order: a line earlier (by time or line number) than the last line of its file
        (``files``: file -> [time, line] of its last line in order) is an ``out_of_order`` anomaly, and
        is still replayed. A line without a time of its own is ordered by its line number."""
        sf = row[SF]
        if sf is None:
            return
        ts, ln = row[TS], row[LN]
        rec = files.get(sf)
        if rec is None:
            rec = files[sf] = [ts, -1]
        if (ts is not None and rec[0] is not None and ts < rec[0]) or (ln is not None and ln < rec[1]):
            self._out_of_order(row, rec)
        else:
            if ts is not None:
                rec[0] = ts
            if ln is not None:
                rec[1] = ln

    def _out_of_order(self, row: tuple, rec: list[Any]) -> None:
        self._anomaly(
            row, "out_of_order",
            f"line {row[LN]} at {row[TS]} is earlier than line {rec[1]} at {rec[0]} of {row[SF]}",
        )  # fmt: skip

    def _anomaly(self, row: tuple, kind: str, detail: str) -> None:
        """An anomaly of ``kind`` about ``row``, where the model is now."""
        state, generation = self._position()
        self._an.append(Anomaly(self.group_id, row[TS], kind, detail, state, generation, row[KIND], row[SF], row[LN]))
