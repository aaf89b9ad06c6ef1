"""One group's history across protocols: the classic model or the consumer-protocol model, chosen
from the evidence, and the hand-over between them when the group converts.

A group id names ONE group at a time, of one type (``classic``, ``consumer``, ``share``,
``streams``). :class:`GroupHistory` keeps a :class:`~coordinator_core.replay.GroupReplay` (classic
JoinGroup/SyncGroup rounds) and a :class:`~coordinator_core.consumer.ConsumerGroupReplay` (KIP-848
epochs; share and streams groups are replayed by the same epoch model) and routes each event to the
model of the group's current protocol:

* the protocol is the one the evidence shows: a KIP-848 line (:data:`CONSUMER_SIGNS`: the broker's
  ``[GroupId g]`` member / epoch / assignment lines, ``Loaded consumer group``, the new consumer's
  ``transitioned from`` / ``Reconciling assignment``) makes it ``consumer``; a classic broker line
  (:data:`CLASSIC_SIGNS`: ``Preparing to rebalance``, ``Stabilized``, member added ...) makes it
  ``classic``; lines that both protocols log (client partition lines, coordinator moves, load and
  unload without a type) go to the current model, classic until the evidence says otherwise;
* a conversion hands the group over (:mod:`coordinator_core.conversion`): the logged ``Converted the
  classic group to a consumer group.`` (4.1+), or, where Kafka logs no conversion (4.0), the first
  line of the other protocol (the hand-over is then marked by a ``protocol_converted`` anomaly, so a
  reader sees that the switch was inferred). The members carry over with their sessions (same key),
  so a converted group reads as ONE history: its classic rebalances, then its consumer-protocol
  rebalances, every row with its ``protocol_type``.

Same interface as the two replays (``resume`` / ``snapshot`` / ``feed_rows`` / ``feed_columns`` /
``feed`` / ``flush``), sans-IO. The snapshot is ``{"history": 1, "protocol", "classic", "consumer",
"events"}``; a classic replay's own snapshot (every ``group_state`` row written before this module)
resumes as a classic history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from coordinator_core.consumer.replay import ConsumerGroupReplay
from coordinator_core.events.row import KIND, LN, PTYPE, SF, TS
from coordinator_core.records import Anomaly
from coordinator_core.replay import GroupReplay
from coordinator_core.replay.output import ReplayOutput
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.row_rules import CLASSIC_SIGNS, CONSUMER_SIGNS, ROUTE_KINDS, route_positions
from coordinator_core.rows import RowInput, normalise

__all__ = ["GroupHistory", "CONSUMER_SIGNS", "CLASSIC_SIGNS", "ROUTE_KINDS", "HISTORY_VERSION", "UNATTRIBUTED_PREFIX"]

HISTORY_VERSION = 1
#: ingestion's group id for the client lines of a file that names no group (``unnamed-<sha8>``,
#: ``jobs.ingest.parse``): the lines stay in ``events``, unattributed; they are not replayed as a
#: group of their own (a client's view without its group is no group's history)
UNATTRIBUTED_PREFIX = "unnamed-"
CLASSIC, CONSUMER = "classic", "consumer"
_MODERN_TYPES = ("consumer", "share", "streams")




def _unattributed(group_id: str, row: tuple) -> Anomaly:
    """The anomaly of one event that names no group (its file names none either)."""
    return Anomaly(
        group_id, row[TS], "unattributed", "the line names no group and its file names none: kept in events, not replayed",
        event_kind=row[KIND], source_file=row[SF], line_no=row[LN],
    )  # fmt: skip


def _by_time(record: Any) -> int:
    ts = record.ts
    return -(1 << 62) if ts is None else ts


class GroupHistory(RowInput):
    """One group's evidence replay across protocols (see the module docstring)."""

    __slots__ = ("group_id", "settings", "classic", "consumer", "protocol", "events", "_an")

    def __init__(self, group_id: str, settings: ReplaySettings | None = None) -> None:
        self.group_id = group_id
        self.settings = settings or ReplaySettings()
        self.classic: GroupReplay | None = None
        self.consumer: ConsumerGroupReplay | None = None
        #: the group's current protocol (None until the evidence shows one)
        self.protocol: str | None = None
        self.events = 0
        self._an: list[Anomaly] = []

    # ------------------------------------------------------------------ persistence
    @classmethod
    def resume(cls, group_id: str, state_json: str | None, settings: ReplaySettings | None = None) -> GroupHistory:
        """A history continuing from ``state_json`` (this class's snapshot, or a classic replay's)."""
        h = cls(group_id, settings)
        if not state_json:
            return h
        try:
            d = json.loads(state_json)
        except ValueError as exc:
            h._an.append(Anomaly(group_id, None, "replay_error", f"unreadable snapshot: {exc}"))
            return h
        if not isinstance(d, dict) or "history" not in d:
            h.classic = GroupReplay.resume(group_id, state_json, h.settings)  # a pre-history snapshot
            h.protocol, h.events = CLASSIC, h.classic.events
            return h
        h.protocol, h.events = d.get("protocol"), int(d.get("events") or 0)
        if d.get("classic"):
            h.classic = GroupReplay.resume(group_id, d["classic"], h.settings)
        if d.get("consumer"):
            h.consumer = ConsumerGroupReplay.resume(group_id, d["consumer"], h.settings)
        return h

    def snapshot(self) -> str:
        d = {
            "history": HISTORY_VERSION, "g": self.group_id, "protocol": self.protocol, "events": self.events,
            "classic": self.classic.snapshot() if self.classic is not None else None,
            "consumer": self.consumer.snapshot() if self.consumer is not None else None,
        }  # fmt: skip
        return json.dumps(d, separators=(",", ":"))

    # ------------------------------------------------------------------ output
    def flush(self, final: bool = False) -> ReplayOutput:
        out = ReplayOutput(anomalies=self._an)
        self._an = []
        for model in (self.classic, self.consumer):
            if model is not None:
                out.extend(model.flush(final))
        if self.classic is not None and self.consumer is not None:
            # one time line across the two models (stable: ties keep the classic model's first)
            for name in ("transitions", "anomalies", "assignments"):
                setattr(out, name, sorted(getattr(out, name), key=_by_time))
            # sessions by their end, open ones last (a key reported twice: the later report wins)
            out.sessions = sorted(out.sessions, key=lambda m: (m.left_ts is None, m.left_ts or 0))
        return out

    # ------------------------------------------------------------------ input
    def feed_rows(self, rows: Iterable[Any], route_rows: Sequence[int] | None = None) -> None:
        """Rows in the total order (tuples in ``EVENT_FIELDS`` order, or dicts). The rows between two
        lines that may switch the protocol (:data:`ROUTE_KINDS`) go to the current model as one batch,
        so routing costs one set lookup per row and the classic replay's heartbeat fast path sees its
        runs of heartbeats. A row that switches the protocol first lets the rows before it reach their
        model, then hands the group over.

        ``route_rows``: the positions of the rows whose kind is in :data:`ROUTE_KINDS`, when the caller
        has them already (the job computes them with one vectorised Arrow call,
        ``jobs.replay_udf.route_rows``); None = :func:`coordinator_core.row_rules.route_positions`."""
        rows = rows if isinstance(rows, list) else list(rows)
        if not rows:
            return
        if self.group_id.startswith(UNATTRIBUTED_PREFIX):
            self.events += len(rows)  # evidence of no group: kept in events, never a group of its own
            self._an.extend(_unattributed(self.group_id, normalise(r) if isinstance(r, Mapping) else r) for r in rows)
            return
        if isinstance(rows[0], Mapping):
            rows = [normalise(r) for r in rows]
        self.events += len(rows)
        cur = self.protocol or CLASSIC
        start = 0
        if route_rows is None:
            route_rows = route_positions(rows)
        for i in route_rows:
            row = normalise(rows[i])
            to, switch, logged = self._route(row)
            if switch is None and to == cur:
                continue
            if i > start:
                self._feed(cur, rows[start:i])
            if switch is not None:
                self._switch(row, switch, logged=logged)
            if to is None:  # consumed here
                start, cur = i + 1, self.protocol or CLASSIC
            else:
                start, cur = i, to
        if start < len(rows):
            self._feed(cur, rows[start:] if start else rows)

    def count_skipped(self, n: int) -> None:
        """``n`` events the caller left out because replaying them changes nothing (heartbeats of
        known members, ``jobs.replay_udf.compact_heartbeats``) still count as fed."""
        self.events += n
        model = self.consumer if self.protocol == CONSUMER else self.classic
        if model is not None:
            model.events += n

    def _feed(self, model: str | None, rows: list[tuple]) -> None:
        if model == CONSUMER:
            self._consumer().feed_rows(rows)
        elif model == CLASSIC:
            self._classic().feed_rows(rows)

    # ------------------------------------------------------------------ routing and conversion
    def _route(self, row: tuple) -> tuple[str | None, str | None, bool]:
        """(the model ``row`` goes to - None: consumed here -, the protocol it switches the group
        to - None: no switch -, whether a conversion line says so)."""
        kind = row[KIND]
        current = self.protocol
        if kind in CONSUMER_SIGNS or (kind == "group_loaded" and row[PTYPE] in _MODERN_TYPES):
            return CONSUMER, (CONSUMER if current != CONSUMER else None), False
        if kind in CLASSIC_SIGNS or (kind == "group_loaded" and row[PTYPE] == CLASSIC):
            return CLASSIC, (CLASSIC if current != CLASSIC else None), False
        if kind == "group_converted":
            to = CLASSIC if row[PTYPE] == CLASSIC else CONSUMER
            # the consumer model records the line (its group type); the classic one has no use for it
            return (CONSUMER if to == CONSUMER else None), (to if current != to else None), True
        return current or CLASSIC, None, False

    def _switch(self, row: tuple, to: str, *, logged: bool) -> None:
        """Make ``to`` the group's protocol; from the other one, hand the group over."""
        frm = self.protocol
        self.protocol = to
        if frm is None or frm == to:
            return
        source = self.classic if frm == CLASSIC else self.consumer
        if source is None:
            return
        epoch, members = source.hand_over(row)
        target = self._consumer() if to == CONSUMER else self._classic()
        target.take_over(row, epoch, members)
        if not logged:
            self._an.append(
                Anomaly(
                    self.group_id, row[TS], "protocol_converted",
                    f"{row[KIND]} of the {to} protocol in a {frm} group: converted here (no conversion line "
                    f"logged; Kafka 4.0 logs none), {len(members)} member(s) carried over",
                )
            )  # fmt: skip

    def _classic(self) -> GroupReplay:
        if self.classic is None:
            self.classic = GroupReplay(self.group_id, self.settings)
        return self.classic

    def _consumer(self) -> ConsumerGroupReplay:
        if self.consumer is None:
            self.consumer = ConsumerGroupReplay(self.group_id, self.settings)
        return self.consumer
