"""Evidence replay of one consumer-protocol (KIP-848) group. See the package docstring for what a
rebalance is; this module applies it.

Evidence (``docs/design/contracts.md`` section 2), by side:

* broker: ``consumer_member_joined``, ``consumer_member_replaced``, ``group_epoch_bumped``,
  ``target_assignment_computed``, ``consumer_member_left``, ``consumer_member_fenced``,
  ``member_assignment_state``, ``group_converted``, ``group_loaded`` / ``group_unloaded`` /
  ``group_dead``;
* client: ``member_state_changed``, ``reconciliation_started``, ``partitions_revoked``,
  ``partitions_assigned``, ``partitions_lost`` (client lines without a member id are matched to a
  member through the client id of the member's own transition lines).

Other kinds are accepted and ignored (the classic vocabulary belongs to the classic replay); kinds
outside :data:`coordinator_core.events.EVENT_KINDS` and this module's kinds
(:data:`~coordinator_core.consumer.kinds.CONSUMER_KINDS`) are ``unknown_kind`` anomalies.
Nothing raises on evidence.

The replay is split by concern, one mixin per side of the evidence over a shared core:

* :mod:`coordinator_core.consumer.kinds`: the kinds it reads, its constants, :func:`fence_cause` (rows
  are read through :mod:`coordinator_core.events.row` and :mod:`coordinator_core.rows`);
* :mod:`coordinator_core.consumer.rebalance`: the rebalance under construction and its record;
* :mod:`coordinator_core.consumer.core`: state, members, sessions, signals, the rebalance lifecycle
  (on :class:`coordinator_core.replay_base.EvidenceReplay`, the base both replays share);
* :mod:`coordinator_core.consumer.broker`: the broker's lines and the protocol conversions;
* :mod:`coordinator_core.consumer.client`: the client's lines;
* this module: :class:`ConsumerGroupReplay` (persistence, input, the dispatch of kinds to the
  ``_on_<fact>`` handlers: :data:`HANDLERS`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from coordinator_core.consumer.broker import ConsumerBrokerEvidence
from coordinator_core.consumer.client import ConsumerClientEvidence
from coordinator_core.consumer.core import STATE_ATTRS, ConsumerReplayCore
from coordinator_core.consumer.kinds import CONSUMER_KINDS, KNOWN_KINDS, STALE_MS, fence_cause
from coordinator_core.consumer.model import ConsumerGroupMember, ConsumerGroupModel
from coordinator_core.consumer.rebalance import ConsumerRebalance
from coordinator_core.events.row import COORD, KIND, NFIELDS, PTYPE, SIDE, TS
from coordinator_core.records import Anomaly
from coordinator_core.replay import ReplayOutput, ReplaySettings
from coordinator_core.replay_base import dump_records, load_records
from coordinator_core.rows import to_int

__all__ = [
    "ConsumerGroupReplay", "CONSUMER_KINDS", "SNAPSHOT_VERSION", "fence_cause",
    # re-exported from the modules the replay was split into
    "ConsumerRebalance", "ConsumerReplayCore", "STALE_MS",
]  # fmt: skip

#: 2: members and records by field name (1, read only: as lists of values in field order)
SNAPSHOT_VERSION = 2


class ConsumerGroupReplay(ConsumerBrokerEvidence, ConsumerClientEvidence):
    """Replay of one consumer-protocol group's evidence; the surface of
    :class:`coordinator_core.replay.GroupReplay` (``feed``, ``feed_rows``, ``feed_columns``,
    ``flush``, ``snapshot``, ``resume``)."""

    __slots__ = ()

    # ------------------------------------------------------------------ persistence
    @classmethod
    def resume(
        cls, group_id: str, state_json: str | None, settings: ReplaySettings | None = None
    ) -> ConsumerGroupReplay:
        """A replay continuing from ``state_json`` (from :meth:`snapshot`); None = a fresh group.
        An unreadable snapshot starts fresh and records a ``replay_error`` anomaly."""
        r = cls(group_id, settings)
        if not state_json:
            return r
        try:
            d = json.loads(state_json)
            if d.get("v") not in (1, SNAPSHOT_VERSION) or d.get("p") != "consumer":
                raise ValueError(
                    f"not a consumer snapshot v{SNAPSHOT_VERSION}: {d.get('p')!r} v{d.get('v')!r}"
                )
            for name in STATE_ATTRS:
                if name in d:
                    setattr(r, name, d[name])
            m = d["model"]
            r.model = ConsumerGroupModel(
                group_id, m["protocol_type"], m["group_epoch"], m["target_assignment_epoch"], m["state"],
                {k: ConsumerGroupMember.from_json(v) for k, v in m["members"].items()}, m["assignor"],
                m["coordinator"],
            )  # fmt: skip
            r.reb = ConsumerRebalance(**d["reb"]) if d.get("reb") else None
            r.last_reb = ConsumerRebalance(**d["last_reb"]) if d.get("last_reb") else None
            load_records(r, d.get("out", {}))
        except Exception as exc:  # never raise on stored state either
            r = cls(group_id, settings)
            r._an.append(Anomaly(group_id, None, "replay_error", f"unreadable snapshot: {exc}"))
        return r

    def snapshot(self) -> str:
        """The whole model as compact JSON (including records not flushed yet)."""
        m = self.model
        d: dict[str, Any] = {"v": SNAPSHOT_VERSION, "p": "consumer", "g": self.group_id}
        for name in STATE_ATTRS:
            d[name] = getattr(self, name)
        d["model"] = {
            "protocol_type": m.protocol_type, "group_epoch": m.group_epoch,
            "target_assignment_epoch": m.target_assignment_epoch, "state": m.state,
            "members": {k: v.to_json() for k, v in m.members.items()}, "assignor": m.assignor,
            "coordinator": m.coordinator,
        }  # fmt: skip
        d["reb"] = asdict(self.reb) if self.reb else None
        d["last_reb"] = asdict(self.last_reb) if self.last_reb else None
        out = dump_records(self)
        if out:
            d["out"] = out
        return json.dumps(d, separators=(",", ":"), default=list)

    # ------------------------------------------------------------------ output
    def flush(self, final: bool = False) -> ReplayOutput:
        """Records produced since the last flush, plus the open rebalance (``outcome="open"``) and
        open member sessions (``end_reason="open"``); ``final=True`` adds ``rebalance_without_end``
        for a rebalance still open."""
        out = self._take_output()
        r = self.reb
        if r is not None and not (not final and self._downgrade_may_follow(r)):
            # a re-opened rebalance replaces its earlier report
            out.rebalances = [x for x in out.rebalances if x.rebalance_id != r.rebalance_id]
            out.rebalances.append(self._record(r, "open", None, None))
            if final:
                self._still_open(out, r.rebalance_id, self.last_ts)
        for m in self.model.members.values():
            out.sessions.append(self._session(m, None, "open"))
        return out

    # ------------------------------------------------------------------ input
    def feed_rows(self, rows: Iterable[Any]) -> None:
        """Consume flat rows (tuples in ``EVENT_FIELDS`` order, or dicts) in total order."""
        n = 0
        for row in rows:
            n += 1
            try:
                if type(row) is not tuple or len(row) < NFIELDS:
                    row = self._normalise(row)
                self._one(row)
            except Exception as exc:  # never raise on evidence
                self._error(row, exc)
        self.events += n

    def _one(self, row: tuple) -> None:
        ts = to_int(row[TS])
        if ts is None:
            self._anomaly(
                (None,) + tuple(row[1:]),
                "no_timestamp",
                "event without any time in its file: kept in events, not replayed",
            )
            return
        if ts != row[TS]:
            row = (ts,) + row[1:]
        kind = row[KIND]
        if kind not in KNOWN_KINDS:
            self._anomaly(row, "unknown_kind", f"unknown event kind {kind!r}")
            return
        self._check_file_order(self.files, row)
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        handler = HANDLERS.get(kind)
        if handler is None:
            return  # a classic or unrelated kind: nothing for this model
        if row[SIDE] in (None, "broker") and kind not in _CLIENT_HANDLERS:
            self.broker_seen = True
            c = to_int(row[COORD])
            if c is not None and kind not in ("group_unloaded", "group_dead"):
                self.model.coordinator = c
        pt = row[PTYPE]
        if pt in ("consumer", "share", "streams") and kind != "group_converted":
            self.model.protocol_type = pt
        handler(self, row)
        if kind not in _SELF_DERIVING:
            self._derive(row)


HANDLERS: dict[str, Any] = {
    "consumer_member_joined": ConsumerGroupReplay._on_member_joined,
    "consumer_member_replaced": ConsumerGroupReplay._on_member_replaced,
    "group_epoch_bumped": ConsumerGroupReplay._on_epoch_bumped,
    "consumer_subscription_changed": ConsumerGroupReplay._on_subscription_changed,
    "target_assignment_computed": ConsumerGroupReplay._on_target_assignment,
    "consumer_member_left": ConsumerGroupReplay._on_member_left,
    "consumer_member_fenced": ConsumerGroupReplay._on_member_fenced,
    "member_assignment_state": ConsumerGroupReplay._on_assignment_state,
    "group_converted": ConsumerGroupReplay._on_converted,
    "group_loaded": ConsumerGroupReplay._on_loaded,
    "group_unloaded": ConsumerGroupReplay._on_unloaded,
    "group_dead": ConsumerGroupReplay._on_dead,
    "member_state_changed": ConsumerGroupReplay._on_member_state_changed,
    "reconciliation_started": ConsumerGroupReplay._on_reconciliation,
    "partitions_revoked": ConsumerGroupReplay._on_partitions_revoked,
    "partitions_lost": ConsumerGroupReplay._on_partitions_revoked,
    "partitions_assigned": ConsumerGroupReplay._on_partitions_assigned,
    "heartbeat_failed": ConsumerGroupReplay._on_heartbeat_failed,
    "poll_timeout": ConsumerGroupReplay._on_poll_timeout,
}
# a join is always followed by its bump in the same batch of records: the bump line derives the state
_SELF_DERIVING = frozenset({"group_loaded", "group_unloaded", "group_dead", "consumer_member_joined"})
_CLIENT_HANDLERS = frozenset(
    {
        "member_state_changed",
        "reconciliation_started",
        "partitions_revoked",
        "partitions_lost",
        "partitions_assigned",
        "heartbeat_failed",
        "poll_timeout",
    }
)
