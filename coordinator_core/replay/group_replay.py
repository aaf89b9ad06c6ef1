"""The replay of one group: :class:`GroupReplay` takes evidence (events, rows or columns), routes
each line to its broker or client handler after the per-file order and duplicate checks, and hands
back the records (flush) or the whole model (snapshot / resume)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coordinator_core.events import BROKER_KINDS
from coordinator_core.events.row import CID, KIND, LN, MEMBERS, MID, PARTS, SF, TS
from coordinator_core.records import Anomaly, MemberSession
from coordinator_core.replay import fastpath, snapshot
from coordinator_core.replay.broker import BROKER_HANDLERS, BrokerEvidence
from coordinator_core.replay.client import CLIENT_HANDLERS, ClientEvidence
from coordinator_core.replay.core import joined_ts
from coordinator_core.replay.handover import ProtocolHandover
from coordinator_core.replay.output import ReplayOutput
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.rows import to_int


class GroupReplay(BrokerEvidence, ClientEvidence, ProtocolHandover):
    """Replay of one group's evidence. See :mod:`coordinator_core.replay` for the model.

    ``feed(event)`` takes :mod:`coordinator_core.events` objects; ``feed_rows(rows)`` takes flat rows
    (tuples/lists in :data:`~coordinator_core.events.EVENT_FIELDS` order, or dicts) and is the fast
    path; ``feed_columns(columns)`` takes a mapping column name -> sequence (missing columns are
    None). Values must be plain Python values (ints, strings, lists); pandas NaN is tolerated.
    """

    __slots__ = ()

    @property
    def gen(self) -> int | None:
        """The group's generation (old name of :attr:`generation`)."""
        return self.generation

    # ------------------------------------------------------------------ persistence
    @classmethod
    def resume(
        cls, group_id: str, state_json: str | None, settings: ReplaySettings | None = None
    ) -> GroupReplay:
        """A replay continuing from ``state_json`` (from :meth:`snapshot`, format 2, or a format 1
        snapshot of the single-module replay); None = a fresh group. An unreadable snapshot starts
        fresh and records a ``replay_error`` anomaly."""
        r = cls(group_id, settings)
        if not state_json:
            return r
        try:
            snapshot.restore(r, state_json)
        except Exception as exc:  # never raise on stored state either
            r = cls(group_id, settings)
            r._an.append(Anomaly(group_id, None, "replay_error", f"unreadable snapshot: {exc}"))
        return r

    def snapshot(self) -> str:
        """The whole model as compact JSON (including records not flushed yet)."""
        return snapshot.dump(self)

    # ------------------------------------------------------------------ output
    def flush(self, final: bool = False) -> ReplayOutput:
        """Records produced since the last flush, plus the open rebalance (``outcome="open"``) and
        open member sessions (``end_reason="open"``). ``final=True`` means no more evidence will
        come: an open rebalance also gets a ``rebalance_without_end`` anomaly."""
        if final:
            self._expire_unseen()
        out = self._take_output()
        if self.rebalance is not None:
            out.rebalances.append(self._rebalance_record(self.rebalance, "open", None, None, check=False))
            if final:
                self._still_open(out, self._rebalance_id(self.rebalance), self.last_ts)
        for mid, m in self.members.items():
            out.sessions.append(
                MemberSession(
                    self.group_id, mid, m.group_instance_id, m.client_id, m.client_host, joined_ts(m), None,
                    m.first_generation, m.last_generation, "open", bool(m.inferred),
                )
            )  # fmt: skip
        return out

    # ------------------------------------------------------------------ input
    def feed_rows(self, rows: Iterable[Any]) -> None:
        """Consume flat rows in total order (:func:`coordinator_core.replay.fastpath.feed_rows_fast`;
        :func:`~coordinator_core.replay.fastpath.feed_rows_reference` defines the behaviour).

        Heartbeats take an inline path (last-seen refresh and a generation check, no objects, no
        per-file order check: the order of a file is checked on its state-bearing lines). Every
        other line goes through the per-file order check, duplicate detection and its handler."""
        fastpath.feed_rows_fast(self, rows)

    # ------------------------------------------------------------------ one line
    def _check_order(self, row: tuple) -> None:
        """Per-file order of the state-bearing lines (heartbeats are not checked)."""
        self._check_file_order(self.file_positions, row)

    def _line(self, row: tuple) -> None:
        """A line that is not a heartbeat: its time, the duplicate check, then its handler."""
        ts = row[TS]
        if type(ts) is not int:  # (a bool is no time)
            ts = to_int(ts)
            if ts is None:
                self._anomaly(
                    row, "no_timestamp", "event without any time in its file: kept in events, not replayed"
                )
                return
            row = (ts,) + row[1:]
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        if self._duplicate(row, ts):
            return
        kind = row[KIND]
        if kind in BROKER_HANDLERS:  # every broker kind (BROKER_KINDS) has one
            self._broker(row)
            return
        handler = CLIENT_HANDLERS.get(kind)  # type: ignore[arg-type]
        if handler is None:
            self._anomaly(row, "unknown_kind", f"unknown event kind {kind!r}")
            return
        handler(self, row)

    def _duplicate(self, row: tuple, ts: int) -> bool:
        """The same fact at the same ms from another file (a log shipped twice) or from the same
        line again is a ``duplicate_line``; two lines of one file stating the same fact are not."""
        kind = row[KIND]
        # every fact column from kind to old_member_id (not ts, file, line), plus the partitions
        key: Any = row[KIND:MEMBERS]
        parts = row[PARTS]
        if parts:
            key = (*key, *parts)
        if row[MID] is None and kind not in BROKER_KINDS:
            key = None  # client lines without a member id are ambiguous (client ids repeat across JVMs)
        where = (row[SF], row[LN])
        if ts != self.dedup_ts:
            self.dedup_ts = ts
            self.dedup_keys = {key: where} if key is not None else {}
            return False
        if key is None:
            return False
        seen = self.dedup_keys.get(key)
        if seen is None:
            self.dedup_keys[key] = where
            return False
        if seen[0] != where[0] or seen[1] == where[1]:
            self._anomaly(
                row,
                "duplicate_line",
                f"{kind} of {row[MID] or row[CID]} at {ts} already seen in {seen[0]}:{seen[1]}",
            )
            return True
        return False
