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
outside :data:`coordinator_core.events.EVENT_KINDS` and this module's kinds are ``unknown_kind``
anomalies. Nothing raises on evidence.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from coordinator_core.causes import client_id_of
from coordinator_core.consumer.model import (
    C_DEAD,
    C_LOADED,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ConsumerGroupMember,
    ConsumerGroupModel,
    condition,
    next_state,
)
from coordinator_core.conversion import HandedOverMember
from coordinator_core.events import EVENT_FIELDS, EVENT_KINDS, Event
from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition
from coordinator_core.replay import ReplayOutput, ReplaySettings

__all__ = ["ConsumerGroupReplay", "CONSUMER_KINDS", "SNAPSHOT_VERSION", "fence_cause"]

SNAPSHOT_VERSION = 1

_F = {name: i for i, name in enumerate(EVENT_FIELDS)}
TS, GID, KIND, SIDE, MID, GEN = (_F[n] for n in ("ts", "group_id", "kind", "side", "member_id", "generation"))
GIID, CID, COORD, REASON, STATE, PROTO = (
    _F[n] for n in ("group_instance_id", "client_id", "coordinator", "reason", "state", "protocol")
)
OLDMID, PARTS, STATIC, MCOUNT = _F["old_member_id"], _F["partitions"], _F["static"], _F["member_count"]
PTYPE, MEPOCH, FROM, REVOKED = _F["protocol_type"], _F["member_epoch"], _F["from_state"], _F["revoked"]
SF, LN = _F["source_file"], _F["line_no"]
NFIELDS = len(EVENT_FIELDS)

#: the KIP-848 kinds of contract section 2 plus the client kinds this replay reads
CONSUMER_KINDS = frozenset(
    {
        "consumer_member_joined", "consumer_member_replaced", "group_epoch_bumped",
        "consumer_subscription_changed", "target_assignment_computed", "consumer_member_left", "consumer_member_fenced",
        "member_assignment_state", "group_converted", "member_state_changed", "reconciliation_started",
    }
)  # fmt: skip
_KNOWN_KINDS = CONSUMER_KINDS | frozenset(EVENT_KINDS)
_SIGNALS_MAX = 16
#: client lines only: a rebalance whose members showed nothing for this long (twice Kafka's default
#: rebalance timeout, max.poll.interval.ms = 300 s, after which the coordinator fences a member that
#: did not reconcile) is over unseen; the next bump closes it (inferred, end unknown)
STALE_MS = 600_000
_ACTIVE = ("JOINING", "RECONCILING", "ACKNOWLEDGING")
_GONE = ("FENCED", "PREPARE_LEAVING", "LEAVING", "UNSUBSCRIBED", "FATAL", "STALE")


def _int(v: Any) -> int | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        if v != v:
            return None
        return int(v)
    except (TypeError, ValueError):
        return None


def _parts(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    try:
        return [str(x) for x in v]
    except TypeError:
        return []


def fence_cause(reason: str | None) -> tuple[str, str]:
    """(rebalance cause, session end reason) of a ``consumer_member_fenced`` reason text
    (``GroupMetadataManager``: "the member session expired", 3.7 "its session expired", "it failed
    to transition from epoch N within Tms", classic members "failed to join within the rebalance
    timeout" / "failed to sync within timeout")."""
    low = (reason or "").lower()
    if "session" in low:
        return "session_timeout", "session_timeout"
    if "failed to transition" in low or "rebalance timeout" in low or "failed to join" in low:
        return "rebalance_timeout", "fenced"
    if "sync" in low:
        return "sync_timeout", "sync_timeout"
    return "unknown", "fenced"


@dataclass(slots=True)
class ConsumerRebalance:
    """The rebalance under construction (and the last closed one, kept for a second phase)."""

    rebalance_id: str
    start_ts: int | None
    old_generation: int | None
    new_generation: int | None
    join_rounds: int = 1
    cause: str = "metadata_change"
    reason: str | None = None
    culprit_member_id: str | None = None
    culprit_client_id: str | None = None
    culprit_group_instance_id: str | None = None
    members_before: int | None = None
    protocol: str | None = None
    coordinator_broker: int | None = None
    inferred: bool = False
    start_unknown: bool = False
    protocol_type: str = "consumer"
    last_bump_ts: int | None = None
    #: member-level lines seen since the start, and the time of the last one
    evidence: bool = False
    last_activity_ts: int | None = None
    #: some partition movement of this rebalance is known (revoked / added lists)
    moves_known: bool = False
    #: client-visible participants: member id -> reached the epoch (matched by time)
    active: dict[str, bool] = field(default_factory=dict)
    #: partition -> time of its revocation, not re-assigned yet
    revoked_at: dict[str, int] = field(default_factory=dict)
    paused_ms: int = 0
    revoked: list[str] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)
    # set when closed
    outcome: str | None = None
    end_ts: int | None = None
    members_after: int | None = None


_RECORD_TYPES = {"tr": Transition, "rb": Rebalance, "ss": MemberSession, "as": AssignmentRow, "an": Anomaly}
_RECORD_FIELDS = {k: tuple(f.name for f in fields(c)) for k, c in _RECORD_TYPES.items()}

_STATE_ATTRS = (
    "known", "broker_seen", "broker_lines", "implicit", "signals", "cid_map", "files", "last_ts",
    "events", "rids", "bumps",
)  # fmt: skip


class ConsumerGroupReplay:
    """Replay of one consumer-protocol group's evidence; the surface of
    :class:`coordinator_core.replay.GroupReplay` (``feed``, ``feed_rows``, ``feed_columns``,
    ``flush``, ``snapshot``, ``resume``)."""

    __slots__ = (
        "group_id",
        "settings",
        "model",
        "reb",
        "last_reb",
        "_tr",
        "_rb",
        "_ss",
        "_as",
        "_an",
        *_STATE_ATTRS,
    )

    def __init__(self, group_id: str, settings: ReplaySettings | None = None) -> None:
        self.group_id = group_id
        self.settings = settings or ReplaySettings()
        self.model = ConsumerGroupModel(group_id)
        self.reb: ConsumerRebalance | None = None
        self.last_reb: ConsumerRebalance | None = None
        self._tr: list[Transition] = []
        self._rb: list[Rebalance] = []
        self._ss: list[MemberSession] = []
        self._as: list[AssignmentRow] = []
        self._an: list[Anomaly] = []
        #: the membership is complete (the group was created in these logs, or loaded empty)
        self.known = False
        self.broker_seen = False
        #: broker per-member assignment lines seen (3.8-3.9 INFO, 4.x DEBUG): the end is exact
        self.broker_lines = False
        #: a group epoch implied by a leave/fence line (Kafka bumps without logging it)
        self.implicit: int | None = None
        #: recent member facts that explain a bump: [ts, cause, member, instance, client, coordinator,
        #: reason, members before, used]
        self.signals: list[list[Any]] = []
        self.cid_map: dict[str, str] = {}
        self.files: dict[str, list[Any]] = {}
        self.last_ts: int | None = None
        self.events = 0
        self.rids: list[str] = []
        #: group-epoch bumps seen (logged or implied)
        self.bumps = 0

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
            if d.get("v") != SNAPSHOT_VERSION or d.get("p") != "consumer":
                raise ValueError(
                    f"not a consumer snapshot v{SNAPSHOT_VERSION}: {d.get('p')!r} v{d.get('v')!r}"
                )
            for name in _STATE_ATTRS:
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
            for key, rec in _RECORD_TYPES.items():
                buf = getattr(r, "_" + key)
                for vals in d.get("out", {}).get(key, ()):
                    kw = dict(zip(_RECORD_FIELDS[key], vals))
                    if key == "as":
                        kw["partitions"] = tuple(kw["partitions"])
                    buf.append(rec(**kw))
        except Exception as exc:  # never raise on stored state either
            r = cls(group_id, settings)
            r._an.append(Anomaly(group_id, None, "replay_error", f"unreadable snapshot: {exc}"))
        return r

    def snapshot(self) -> str:
        """The whole model as compact JSON (including records not flushed yet)."""
        m = self.model
        d: dict[str, Any] = {"v": SNAPSHOT_VERSION, "p": "consumer", "g": self.group_id}
        for name in _STATE_ATTRS:
            d[name] = getattr(self, name)
        d["model"] = {
            "protocol_type": m.protocol_type, "group_epoch": m.group_epoch,
            "target_assignment_epoch": m.target_assignment_epoch, "state": m.state,
            "members": {k: v.to_json() for k, v in m.members.items()}, "assignor": m.assignor,
            "coordinator": m.coordinator,
        }  # fmt: skip
        d["reb"] = asdict(self.reb) if self.reb else None
        d["last_reb"] = asdict(self.last_reb) if self.last_reb else None
        out: dict[str, list[Any]] = {}
        for key in _RECORD_TYPES:
            buf = getattr(self, "_" + key)
            if buf:
                out[key] = [[getattr(rec, n) for n in _RECORD_FIELDS[key]] for rec in buf]
        if out:
            d["out"] = out
        return json.dumps(d, separators=(",", ":"), default=list)

    # ------------------------------------------------------------------ output
    def flush(self, final: bool = False) -> ReplayOutput:
        """Records produced since the last flush, plus the open rebalance (``outcome="open"``) and
        open member sessions (``end_reason="open"``); ``final=True`` adds ``rebalance_without_end``
        for a rebalance still open."""
        out = ReplayOutput(self._tr, self._rb, self._ss, self._as, self._an, [])
        self._tr, self._rb, self._ss, self._as, self._an = [], [], [], [], []
        r = self.reb
        if r is not None and not (not final and self._downgrade_may_follow(r)):
            # a re-opened rebalance replaces its earlier report
            out.rebalances = [x for x in out.rebalances if x.rebalance_id != r.rebalance_id]
            out.rebalances.append(self._record(r, "open", None, None))
            if final:
                out.anomalies.append(
                    Anomaly(
                        self.group_id, self.last_ts, "rebalance_without_end",
                        f"rebalance {r.rebalance_id} still open when the logs end", self.model.state,
                        self.model.group_epoch,
                    )
                )  # fmt: skip
        for m in self.model.members.values():
            out.sessions.append(self._session(m, None, "open"))
        return out

    def _downgrade_may_follow(self, r: ConsumerRebalance) -> bool:
        """The open rebalance is only the implied bump of the last line, a departure that left
        classic-protocol members alone: Kafka may convert the group to classic at that very time
        instead (:meth:`hand_over` then drops it), so it is reported once a later line shows which."""
        g = self.model
        present = [m for m in g.members.values() if m.present]
        return (
            self.implicit is not None and self.implicit == g.group_epoch and r.join_rounds == 1
            and r.start_ts == self.last_ts and bool(present) and all(m.protocol == "classic" for m in present)
        )  # fmt: skip

    # ------------------------------------------------------------------ input
    def feed(self, event: Event) -> None:
        """Consume one evidence event (any :mod:`coordinator_core.events` class)."""
        try:
            row = event.to_row()
        except Exception as exc:
            self._an.append(Anomaly(self.group_id, None, "replay_error", f"unreadable event: {exc}"))
            return
        self.feed_rows((row,))

    def feed_columns(self, columns: Mapping[str, Sequence[Any]]) -> None:
        """Consume column lists; missing columns are None."""
        n = 0
        for v in columns.values():
            n = len(v)
            break
        none = [None] * n
        self.feed_rows(zip(*[columns.get(f, none) for f in EVENT_FIELDS]))

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

    # ------------------------------------------------------------------ plumbing
    @staticmethod
    def _normalise(row: Any) -> tuple:
        if isinstance(row, Mapping):
            if "ts" not in row and "ts_ms" in row:
                row = {**row, "ts": row["ts_ms"]}
            return tuple(row.get(f) for f in EVENT_FIELDS)
        t = tuple(row)
        return t + (None,) * (NFIELDS - len(t)) if len(t) < NFIELDS else t

    def _error(self, row: Any, exc: Exception) -> None:
        try:
            ts, kind, sf, ln = row[TS], row[KIND], row[SF], row[LN]
        except Exception:
            ts = kind = sf = ln = None
        self._an.append(
            Anomaly(
                self.group_id, ts if isinstance(ts, int) else None, "replay_error",
                f"{type(exc).__name__}: {exc}", self.model.state, self.model.group_epoch,
                kind if isinstance(kind, str) else None, sf if isinstance(sf, str) else None,
                ln if isinstance(ln, int) else None,
            )
        )  # fmt: skip

    def _anom(self, row: tuple, kind: str, detail: str) -> None:
        self._an.append(
            Anomaly(
                self.group_id, row[TS], kind, detail, self.model.state, self.model.group_epoch, row[KIND],
                row[SF], row[LN],
            )
        )  # fmt: skip

    def _one(self, row: tuple) -> None:
        ts = _int(row[TS])
        if ts is None:
            self._anom((None,) + tuple(row[1:]), "no_timestamp", "event without any time in its file: kept in events, not replayed")
            return
        if ts != row[TS]:
            row = (ts,) + row[1:]
        kind = row[KIND]
        if kind not in _KNOWN_KINDS:
            self._anom(row, "unknown_kind", f"unknown event kind {kind!r}")
            return
        sf = row[SF]
        if sf is not None:
            rec = self.files.get(sf)
            ln = row[LN]
            if rec is None:
                self.files[sf] = [ts, ln if ln is not None else -1]
            elif ts < rec[0] or (ln is not None and ln < rec[1]):
                self._anom(
                    row,
                    "out_of_order",
                    f"line {ln} at {ts} is earlier than line {rec[1]} at {rec[0]} of {sf}",
                )
            else:
                rec[0] = ts
                if ln is not None:
                    rec[1] = ln
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        handler = _HANDLERS.get(kind)
        if handler is None:
            return  # a classic or unrelated kind: nothing for this model
        if row[SIDE] in (None, "broker") and kind not in _CLIENT_HANDLERS:
            self.broker_seen = True
            c = _int(row[COORD])
            if c is not None and kind not in ("group_unloaded", "group_dead"):
                self.model.coordinator = c
        pt = row[PTYPE]
        if pt in ("consumer", "share", "streams") and kind != "group_converted":
            self.model.protocol_type = pt
        handler(self, row)
        if kind not in _SELF_DERIVING:
            self._derive(row)

    # ------------------------------------------------------------------ state
    def _derive(self, row: tuple, cond: str | None = None) -> None:
        """Apply the transition table to what the epochs say now (or to ``cond``)."""
        g = self.model
        derived = condition(g)
        if cond is None:
            cond = derived
        to = next_state(g.state, cond, derived)
        if to is None:
            # a live group after Dead without a load line: adopt the evidence
            self._anom(row, "impossible_transition", f"{cond} is impossible in state {g.state}; adopted")
            to = next_state(None, cond, derived) or g.state
        if to == g.state or to is None:
            return
        self._tr.append(
            Transition(
                self.group_id, row[TS], g.state, to, g.group_epoch if g.group_epoch is not None else -1,
                row[KIND], row[SIDE] not in (None, "broker"), row[SF], row[LN], g.protocol_type,
            )
        )  # fmt: skip
        g.state = to

    # ------------------------------------------------------------------ members and sessions
    def _member(
        self, row: tuple, mid: str | None, *, create: bool = True, anomaly: bool = True
    ) -> ConsumerGroupMember | None:
        if not mid:
            return None
        m = self.model.members.get(mid)
        if m is None and create:
            if anomaly and self.known:
                self._anom(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            giid = row[GIID]
            cid = row[CID] if row[SIDE] == "client" else None
            m = ConsumerGroupMember(
                mid, giid, cid or self._cid_of(mid) or client_id_of(mid, giid), joined_ts=row[TS], inferred=True,
                coordinator=self.model.coordinator,
            )  # fmt: skip
            self.model.members[mid] = m
        if m is not None:
            m.last_seen_ts = row[TS]
            if row[GIID] and not m.group_instance_id:
                m.group_instance_id = row[GIID]
            if row[SIDE] == "client" and row[CID] and not m.client_id:
                m.client_id = row[CID]
        return m

    def _cid_of(self, mid: str) -> str | None:
        for cid, m in self.cid_map.items():
            if m == mid:
                return cid
        return None

    def _session(self, m: ConsumerGroupMember, left_ts: int | None, end: str) -> MemberSession:
        return MemberSession(
            self.group_id, m.member_id, m.group_instance_id, m.client_id, None, m.joined_ts, left_ts,
            m.first_epoch, m.last_epoch, end, m.inferred, self.model.protocol_type,
        )  # fmt: skip

    def _remove(self, row: tuple, m: ConsumerGroupMember, end: str) -> None:
        self.model.members.pop(m.member_id, None)
        self._ss.append(self._session(m, row[TS], end))
        r = self.reb
        if r is not None:
            r.active.pop(m.member_id, None)

    def _set_epoch(self, m: ConsumerGroupMember, epoch: int | None) -> None:
        if epoch is None:
            return
        if m.member_epoch != epoch:
            m.previous_member_epoch = m.member_epoch
        m.member_epoch = epoch
        if epoch > 0:
            if m.first_epoch is None:
                m.first_epoch = epoch
            if m.last_epoch is None or epoch > m.last_epoch:
                m.last_epoch = epoch

    def _present(self) -> int:
        return sum(1 for m in self.model.members.values() if m.present)

    def _signal(
        self, row: tuple, cause: str, m: ConsumerGroupMember | None, reason: str | None, before: int
    ) -> list[Any]:
        s = [
            row[TS], cause, m.member_id if m else row[MID], m.group_instance_id if m else row[GIID],
            m.client_id if m else None, _int(row[COORD]), reason, before, False,
        ]  # fmt: skip
        self.signals.append(s)
        if len(self.signals) > _SIGNALS_MAX:
            del self.signals[0]
        return s

    # ------------------------------------------------------------------ rebalances
    def _unique_id(self, rid: str) -> str:
        out, n = rid, 1
        while out in self.rids:
            n += 1
            out = f"{rid}#{n}"
        self.rids.append(out)
        if len(self.rids) > 32:
            del self.rids[0]
        return out

    def _bump(self, row: tuple, epoch: int | None, signal: list[Any] | None) -> None:
        """The group epoch moved to ``epoch`` at this line: start a rebalance, or extend the one in
        progress (one more round)."""
        g = self.model
        ts = row[TS]
        old = g.group_epoch
        if old is None and epoch is not None:
            old = epoch - 1  # every bump is +1
        g.group_epoch = epoch
        self.bumps += 1
        r = self.reb
        if r is not None:
            if self.broker_lines or (
                r.evidence and r.last_activity_ts is not None and ts - r.last_activity_ts <= STALE_MS
            ) or (
                r.last_bump_ts is not None and ts - r.last_bump_ts <= self.settings.signal_window_ms
            ):  # fmt: skip
                r.join_rounds += 1
                r.new_generation = epoch
                r.last_bump_ts = ts
                self._join_epoch(signal, epoch)
                return
            # no member-level evidence can show its end: it ends unseen, before this bump
            self._close(row, "completed", None, inferred=True)
        if not g.members or self._present() == 0:
            return  # the last member left: the group is empty, nothing to reconcile
        r = ConsumerRebalance(
            self._unique_id(f"{self.group_id}:{ts}:{old}"), ts, old, epoch, protocol_type=g.protocol_type,
            coordinator_broker=g.coordinator, last_bump_ts=ts, members_before=self._present(),
        )  # fmt: skip
        if signal is not None:
            signal[8] = True
            r.cause, r.culprit_member_id, r.culprit_group_instance_id = signal[1], signal[2], signal[3]
            r.culprit_client_id, r.reason, r.members_before = signal[4], signal[6], signal[7]
        else:
            r.reason = row[REASON] if row[KIND] == "group_epoch_bumped" else None
        self.reb = r
        self._join_epoch(signal, epoch)
        if (
            signal is not None
            and signal[1] in ("new_member", "static_member")
            and signal[2] in self.model.members
            and signal[2] in self.cid_map.values()
        ):
            r.active[signal[2]] = False  # its client logs are here: it will show its reconciliation

    def _join_epoch(self, signal: list[Any] | None, epoch: int | None) -> None:
        """A member that joined owns nothing to revoke: it gets the new epoch at once."""
        if signal is None or signal[1] not in ("new_member", "static_member"):
            return
        m = self.model.members.get(signal[2])
        if m is not None and (m.member_epoch is None or m.member_epoch <= 0):
            self._set_epoch(m, epoch)

    def _find_signal(self, row: tuple) -> list[Any] | None:
        ts, coord = row[TS], _int(row[COORD])
        for s in reversed(self.signals):
            if s[8] or s[0] > ts:
                continue
            if ts - s[0] > self.settings.signal_window_ms:
                break
            if coord is not None and s[5] is not None and coord != s[5]:
                continue
            return s
        return None

    def _close(self, row: tuple, outcome: str, end_ts: int | None, *, inferred: bool = False) -> None:
        r = self.reb
        if r is None:
            return
        self.reb = None
        if r.new_generation is None and r.start_unknown:
            r.new_generation = self.model.group_epoch
        r.outcome, r.end_ts, r.members_after = outcome, end_ts, self._present()
        r.inferred = r.inferred or inferred
        if r.protocol is None:
            r.protocol = self.model.assignor
        self._emit(r)
        self.last_reb = r

    def _emit(self, r: ConsumerRebalance) -> None:
        rec = self._record(r, r.outcome or "open", r.end_ts, r.members_after)
        self._rb = [x for x in self._rb if x.rebalance_id != rec.rebalance_id]
        self._rb.append(rec)

    def _record(self, r: ConsumerRebalance, outcome: str, end_ts: int | None, after: int | None) -> Rebalance:
        dur = None
        if r.start_ts is not None and end_ts is not None:
            dur = max(0, end_ts - r.start_ts)
        paused: int | None = None
        if r.moves_known:
            paused = r.paused_ms
            if r.revoked_at:
                if end_ts is None:
                    paused = None  # revoked partitions still paused, end unknown
                else:
                    paused += sum(max(0, end_ts - t) for t in r.revoked_at.values())
        n_rev = len(r.revoked) if r.moves_known else None
        n_asg = len(r.assigned) if r.moves_known else None
        cc = r.culprit_client_id
        if r.culprit_member_id and not cc:
            m = self.model.members.get(r.culprit_member_id)
            cc = (m.client_id if m else None) or self._cid_of(r.culprit_member_id)
        return Rebalance(
            self.group_id, r.rebalance_id, r.old_generation, r.new_generation, r.join_rounds, r.start_ts,
            end_ts, dur, outcome, r.cause, r.reason, r.culprit_member_id, cc, None,
            r.culprit_group_instance_id, r.members_before, after, None, r.protocol or self.model.assignor,
            r.coordinator_broker, r.inferred, r.start_unknown, r.protocol_type, paused, n_rev, n_asg,
        )  # fmt: skip

    def _check_end(self, row: tuple) -> None:
        """Close the open rebalance when every member has reached its epoch."""
        r = self.reb
        if r is None:
            return
        g = self.model
        present = g.present_members()
        if not present:
            self._close(row, "ended_empty", row[TS])
            return
        if self.broker_lines:
            e = r.new_generation
            if all(
                m.state == "STABLE" and m.member_epoch is not None and (e is None or m.member_epoch >= e)
                for m in present
            ):
                if e is not None and (g.target_assignment_epoch is None or g.target_assignment_epoch < e):
                    g.target_assignment_epoch = e
                self._close(row, "completed", row[TS])
            return
        if r.active and all(r.active.values()):
            # client lines only: the members that reconciled are done; the others' epochs moved
            # unseen. Kafka would show them reconciled once they heartbeat: assume it.
            e = r.new_generation
            untracked = any(not m.tracked for m in present)
            for m in present:
                if e is not None:
                    self._set_epoch(m, e)
                m.state = "STABLE"
            if e is not None and (g.target_assignment_epoch is None or g.target_assignment_epoch < e):
                g.target_assignment_epoch = e
            self._close(row, "completed", row[TS], inferred=untracked or not self.broker_seen)

    def _reopen(self, row: tuple, mid: str) -> ConsumerRebalance | None:
        """A member of the group reconciles at the epoch of the last rebalance after it was closed
        by client lines (it heartbeated later than the others, or gets the partitions others
        released): the rebalance was not over."""
        lr = self.last_reb
        g = self.model
        if (
            self.reb is None and lr is not None and lr.outcome == "completed" and lr.end_ts is not None
            and lr.new_generation == g.group_epoch and not self.broker_lines
            and row[TS] - lr.end_ts <= STALE_MS and self._member_of(mid, lr)
        ):  # fmt: skip
            lr.outcome, lr.end_ts, lr.members_after = None, None, None
            self.reb, self.last_reb = lr, None
            return lr
        return None

    def _member_of(self, mid: str, r: ConsumerRebalance) -> bool:
        """``mid`` was in the group when ``r`` closed: its reconciliation at the same epoch belongs to
        ``r`` (a member that joined since, e.g. a restarted static member, reconciles without one)."""
        if mid in r.active:
            return True
        m = self.model.members.get(mid)
        return m is not None and m.joined_ts is not None and r.end_ts is not None and m.joined_ts <= r.end_ts

    def _revoke(self, r: ConsumerRebalance | None, tps: Iterable[str], ts: int) -> None:
        if r is None:
            return
        r.moves_known = True
        for tp in tps:
            if tp not in r.revoked_at:
                r.revoked_at[tp] = ts
            if tp not in r.revoked:
                r.revoked.append(tp)

    def _assign(self, r: ConsumerRebalance | None, tps: Iterable[str], ts: int) -> None:
        if r is None:
            return
        r.moves_known = True
        for tp in tps:
            t0 = r.revoked_at.pop(tp, None)
            if t0 is not None:
                r.paused_ms += max(0, ts - t0)
            if tp not in r.assigned:
                r.assigned.append(tp)

    @staticmethod
    def _touch(r: ConsumerRebalance, ts: int) -> None:
        r.evidence = True
        if r.last_activity_ts is None or ts > r.last_activity_ts:
            r.last_activity_ts = ts

    def _in_reb(self, ts: int) -> ConsumerRebalance | None:
        r = self.reb
        if r is not None and (r.start_ts is None or ts >= r.start_ts):
            return r
        return None

    def _assignment_rows(self, m: ConsumerGroupMember, epoch: int | None, ts: int) -> None:
        if epoch is None or epoch < 0:
            return
        by_topic: dict[str, list[int]] = {}
        for tp in m.assigned_partitions:
            topic, sep, p = tp.rpartition("-")
            if sep and p.isdigit():
                by_topic.setdefault(topic, []).append(int(p))
        for topic in sorted(by_topic):
            self._as.append(
                AssignmentRow(
                    self.group_id, epoch, m.member_id, topic, tuple(sorted(by_topic[topic])), "member", ts
                )
            )

    # ------------------------------------------------------------------ broker evidence
    def _b_joined(self, row: tuple) -> None:
        mid = row[MID]
        if not mid:
            return
        before = self._present()
        g = self.model
        m = g.members.get(mid)
        if m is None:
            m = ConsumerGroupMember(
                mid, row[GIID], self._cid_of(mid) or client_id_of(mid, row[GIID]), joined_ts=row[TS],
                coordinator=g.coordinator,
            )  # fmt: skip
            g.members[mid] = m
        m.last_seen_ts = row[TS]
        m.protocol = row[PROTO] or m.protocol
        m.assigned_partitions, m.assignment_known = [], True
        m.member_epoch = 0
        if row[GIID]:
            m.group_instance_id = row[GIID]
        self._signal(row, "new_member", m, None, before)

    def _b_subscription(self, row: tuple) -> None:
        """"Member m updated its subscribed topics to: [...]." (INFO 3.7-3.9): the member behind the
        metadata bump that follows (cause ``metadata_change``, culprit the member, reason the line)."""
        mid = row[MID]
        m = self.model.members.get(mid) if mid else None
        if m is not None:
            m.last_seen_ts = row[TS]
        self._signal(row, "metadata_change", m, row[REASON], self._present())

    def _b_replaced(self, row: tuple) -> None:
        mid, old = row[MID], row[OLDMID]
        if not mid:
            return
        g = self.model
        before = self._present()
        prev = g.members.get(old) if old else None
        if prev is None and row[GIID]:
            prev = g.static_member(row[GIID])
        if prev is None and old and self.known:
            self._anom(row, "unknown_member", f"static replacement of member {old} the model does not know")
        m = ConsumerGroupMember(
            mid, row[GIID], self._cid_of(mid), joined_ts=row[TS], coordinator=g.coordinator,
            protocol=row[PROTO],
        )  # fmt: skip
        if prev is not None:
            self._remove(row, prev, "replaced")
            # the new member takes over the instance's assignment with epoch 0 (replaceMember)
            m.assigned_partitions = list(prev.assigned_partitions)
            m.assignment_known = prev.assignment_known
            if not m.client_id:
                m.client_id = prev.client_id
        m.member_epoch = 0
        g.members[mid] = m
        self._signal(row, "static_member", m, None, before)
        self._check_end(row)

    def _b_bumped(self, row: tuple) -> None:
        n = _int(row[GEN])
        g = self.model
        ge = g.group_epoch
        if n is None:
            n = ge + 1 if ge is not None else None
        if (ge is None or (n is not None and n >= ge)) and self._adopt_client_start(row, n):
            return  # (a client line may have shown the epoch first)
        if ge is not None and n is not None and n <= ge:
            if n == ge and self.implicit == ge:
                self.implicit = None  # the leave/fence bump, logged after all
                return
            self._anom(row, "generation_gap", f"group epoch {n} is not after the model's {ge}; ignored")
            return
        if ge is not None and n is not None and n > ge + 1:
            self._anom(row, "generation_gap", f"group epoch bumped to {n}, model at {ge}: bumps missing")
        if n == 1 and ge is None and all(not m.inferred for m in g.members.values()):
            self.known = True  # the group is created in these logs: its membership is complete
        self.implicit = None
        self._bump(row, n, self._find_signal(row))

    def _adopt_client_start(self, row: tuple, n: int | None) -> bool:
        """The first bump of a group whose rebalance a member's client line began just before it
        (``JOINING -> RECONCILING`` logged by a client whose clock runs ahead, within
        ``clock_skew_tolerance_ms``): it is that rebalance, timed and numbered by the broker."""
        r = self.reb
        lr = self.last_reb
        if r is None and lr is not None and lr.inferred and lr.end_ts is not None:
            r = lr  # closed by the client's own STABLE before the broker's line: re-opened here
        if (
            r is None or not r.inferred or r.old_generation is not None or r.join_rounds != 1
            or r.start_ts is None or r.last_bump_ts != r.start_ts or n is None
            or not 0 <= row[TS] - r.start_ts <= self.settings.clock_skew_tolerance_ms
        ):  # fmt: skip
            return False
        g = self.model
        if r is not self.reb:
            r.outcome, r.end_ts, r.members_after = None, None, None
            self.reb = r
        r.old_generation, r.new_generation, r.start_ts, r.last_bump_ts = n - 1, n, row[TS], row[TS]
        r.inferred, r.coordinator_broker = False, g.coordinator
        g.group_epoch = n
        self.bumps += 1
        return True

    def _b_target(self, row: tuple) -> None:
        n = _int(row[GEN])
        g = self.model
        if row[PROTO]:
            g.assignor = row[PROTO]
            if self.reb is not None:
                self.reb.protocol = row[PROTO]
        if n is None:
            return
        if g.group_epoch is None:
            g.group_epoch = n
        elif n > g.group_epoch:
            self._anom(
                row, "generation_gap", f"target assignment for epoch {n} ahead of group epoch {g.group_epoch}"
            )
            self._bump(row, n, self._find_signal(row))
        if g.target_assignment_epoch is not None and n < g.target_assignment_epoch:
            self._anom(
                row, "generation_gap", f"target assignment epoch {n} before {g.target_assignment_epoch}"
            )
            return
        g.target_assignment_epoch = n

    def _departure(
        self, row: tuple, m: ConsumerGroupMember | None, cause: str, end: str, reason: str | None
    ) -> None:
        g = self.model
        before = self._present()
        tps: list[str] = []
        if m is not None:
            tps = list(m.assigned_partitions) + [
                p for p in m.partitions_pending_revocation if p not in m.assigned_partitions
            ]
            self._remove(row, m, end)
        s = self._signal(row, cause, m, reason, before)
        s[8] = True
        # Kafka bumps the group epoch when it removes a member (consumerGroupFenceMember) and logs
        # no "Bumped group epoch" line for it: the bump is implied here
        epoch = g.group_epoch + 1 if g.group_epoch is not None else None
        self.implicit = epoch
        if not g.members:
            g.group_epoch = epoch
            self._close(row, "ended_empty", row[TS])
            return
        self._bump(row, epoch, s)
        if m is not None and m.assignment_known:
            self._revoke(self._in_reb(row[TS]), tps, row[TS])
        self._check_end(row)

    def _b_left(self, row: tuple) -> None:
        mid = row[MID]
        g = self.model
        m = g.members.get(mid) if mid else None
        if m is None and row[GIID]:
            m = g.static_member(row[GIID])
        epoch = _int(row[MEPOCH])
        temporary = (
            epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH or "temporarily" in str(row[REASON] or "").lower()
        )
        if m is None:
            if self.known:
                self._anom(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            m = self._member(row, mid, anomaly=False)
        elif row[GIID] and not m.group_instance_id:
            m.group_instance_id = row[GIID]
        if temporary and (m is None or m.group_instance_id or row[GIID]):
            # a static member away for a restart: epoch -2, no bump, the session goes on
            if m is not None:
                m.previous_member_epoch, m.member_epoch = m.member_epoch, LEAVE_GROUP_STATIC_MEMBER_EPOCH
                m.partitions_pending_revocation = []
                if self.reb is not None:
                    self.reb.active.pop(m.member_id, None)
            self._check_end(row)
            return
        self._departure(row, m, "member_leave", "leave", None)

    def _b_fenced(self, row: tuple) -> None:
        mid = row[MID]
        m = self.model.members.get(mid) if mid else None
        if m is None:
            if self.known:
                self._anom(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            m = self._member(row, mid, anomaly=False)
        reason = (row[REASON] or "").rstrip(". ") or None
        cause, end = fence_cause(reason)
        self._departure(row, m, cause, end, reason)

    def _b_assignment_state(self, row: tuple) -> None:
        mid = row[MID]
        m = self._member(row, mid)
        if m is None:
            return
        self.broker_lines = True
        m.tracked = True
        ts = row[TS]
        g = self.model
        epoch = _int(row[MEPOCH])
        if epoch is not None and m.member_epoch is not None and 0 <= epoch < m.member_epoch:
            self._anom(
                row, "generation_gap", f"member {mid} epoch went back from {m.member_epoch} to {epoch}"
            )
        prev_epoch = _int(row[GEN])
        self._set_epoch(m, epoch)
        if prev_epoch is not None:
            m.previous_member_epoch = prev_epoch
        if row[STATE]:
            m.state = str(row[STATE]).upper()
        if epoch is not None:
            if g.group_epoch is None or epoch > g.group_epoch:
                if g.group_epoch is not None and self.bumps:  # bumps are logged here: one is missing
                    self._anom(
                        row, "generation_gap", f"member epoch {epoch} ahead of group epoch {g.group_epoch}"
                    )
                g.group_epoch = epoch
            if g.target_assignment_epoch is None or epoch > g.target_assignment_epoch:
                g.target_assignment_epoch = epoch
        assigned = _parts(row[PARTS])
        revoked = _parts(row[REVOKED])
        old = set(m.assigned_partitions) if m.assignment_known else None
        r = self._in_reb(ts)
        if r is None and self.bumps == 0 and self.last_reb is None and m.state != "STABLE":
            # the logs begin while the group reconciles: a rebalance whose start is not in them
            self._anom(
                row, "rebalance_without_start", f"member {mid} reconciling ({m.state}) before any bump"
            )
            r = self.reb = ConsumerRebalance(
                self._unique_id(f"{self.group_id}:unknown:None"), None, None, None, cause="unknown",
                protocol_type=g.protocol_type, coordinator_broker=g.coordinator, start_unknown=True,
            )  # fmt: skip
        if r is not None:
            self._touch(r, ts)
            self._revoke(r, revoked, ts)
            # newly assigned: not owned before (when the member's assignment was unknown, only a
            # partition revoked in this rebalance is known to be new to it)
            new = [tp for tp in assigned if tp in r.revoked_at or (old is not None and tp not in old)]
            self._assign(r, new, ts)
        m.assigned_partitions, m.partitions_pending_revocation, m.assignment_known = assigned, revoked, True
        if m.state == "STABLE":
            self._assignment_rows(m, epoch, ts)
        self._check_end(row)

    def _b_converted(self, row: tuple) -> None:
        pt = row[PTYPE]
        if pt:
            self.model.protocol_type = pt

    # ------------------------------------------------------------------ protocol conversion
    def hand_over(self, row: Any) -> tuple[int | None, list[HandedOverMember]]:
        """The group converts to the classic protocol at ``row`` (:mod:`coordinator_core.conversion`):
        an open rebalance ends there (``inferred``), the group is Dead in this model, and its members
        leave it without a session end, returned for the classic model to continue."""
        row = self._normalise(row)
        g = self.model
        r = self.reb
        if (
            r is not None and self.implicit is not None and self.implicit == g.group_epoch
            and r.start_ts == row[TS] and r.join_rounds == 1
        ):  # fmt: skip
            # the departure that triggers the downgrade bumps nothing: Kafka converts instead (the
            # classic group keeps the epoch as its generation and rebalances classically)
            self.reb, self.implicit = None, None
            g.group_epoch = g.target_assignment_epoch = self.implicit_base(g.group_epoch)
        elif r is not None:
            self._close(row, "completed", row[TS], inferred=True)
        out = [
            HandedOverMember(
                m.member_id, m.group_instance_id, m.client_id, m.joined_ts, m.inferred,
                tuple(m.assigned_partitions) if m.assignment_known else None,
            )
            for m in g.members.values()
            if m.present
        ]  # fmt: skip
        epoch = g.group_epoch
        g.members = {}
        self._derive(row, C_DEAD)
        return epoch, out

    @staticmethod
    def implicit_base(epoch: int | None) -> int | None:
        """The group epoch before an implied bump."""
        return epoch - 1 if epoch is not None else None

    def take_over(self, row: Any, generation: int | None, members: Iterable[HandedOverMember]) -> None:
        """The group converts to the consumer protocol at ``row``: Kafka's consumer group starts with
        group epoch = target assignment epoch = the classic generation, every member at that epoch
        with its partitions (classic-protocol members until they rejoin with the consumer protocol)."""
        row = self._normalise(row)
        g = self.model
        if generation is not None:
            g.group_epoch = generation if g.group_epoch is None else max(g.group_epoch, generation)
            g.target_assignment_epoch = g.group_epoch
        for h in members:
            m = ConsumerGroupMember(
                h.member_id, h.group_instance_id, h.client_id, member_epoch=g.group_epoch, state="STABLE",
                protocol="classic", joined_ts=h.joined_ts, last_seen_ts=row[TS], inferred=h.inferred,
                coordinator=g.coordinator,
            )  # fmt: skip
            if h.partitions is not None:
                m.assigned_partitions, m.assignment_known = list(h.partitions), True
            g.members[h.member_id] = m
            if h.client_id:
                self.cid_map[h.client_id] = h.member_id
        self.known = self.broker_seen = True
        pt = row[PTYPE]
        g.protocol_type = pt if pt in ("consumer", "share", "streams") else "consumer"
        self._derive(row, C_LOADED)

    def _b_loaded(self, row: tuple) -> None:
        if _int(row[MCOUNT]) == 0 and not self.model.members:
            self.known = True
        self._derive(row, C_LOADED)

    def _b_unloaded(self, row: tuple) -> None:
        self._derive(row, C_DEAD)

    def _b_dead(self, row: tuple) -> None:
        for m in list(self.model.members.values()):
            self._remove(row, m, "group_dead")
        self._close(row, "ended_empty", row[TS])
        self._derive(row, C_DEAD)

    # ------------------------------------------------------------------ client evidence
    def _client_member(self, row: tuple) -> ConsumerGroupMember | None:
        mid = row[MID]
        cid = row[CID]
        if mid and cid:
            self.cid_map[cid] = mid
        if not mid and cid:
            mid = self.cid_map.get(cid)
        if not mid:
            return None
        return self.model.members.get(mid)

    def _c_state(self, row: tuple) -> None:
        ts = row[TS]
        to = str(row[STATE] or "").upper()
        frm = str(row[FROM] or "").upper()
        m = self._client_member(row)
        g = self.model
        if m is None:
            if to in ("JOINING", "UNSUBSCRIBED") or frm in ("UNSUBSCRIBED",) or to in _GONE:
                return  # before the broker admits it (or after it is gone): nothing to track
            m = self._member(row, row[MID], anomaly=self.broker_seen)
            if m is None:
                return
        m.tracked = True
        m.client_state = to
        m.last_seen_ts = ts
        if row[CID] and not m.client_id:
            m.client_id = row[CID]
        logged = _int(row[MEPOCH])
        prev_epoch = g.group_epoch
        if logged is not None and logged > 0:
            if g.group_epoch is not None and logged > g.group_epoch and self.broker_seen:
                self._anom(
                    row, "generation_gap", f"client epoch {logged} ahead of group epoch {g.group_epoch}"
                )
            if not self.broker_seen and (g.group_epoch is None or logged > g.group_epoch):
                # client lines only: the best we know (the broker gave the member that epoch, so
                # the target assignment had reached it)
                g.group_epoch = logged
                if g.target_assignment_epoch is None or logged > g.target_assignment_epoch:
                    g.target_assignment_epoch = logged
        r = self._in_reb(ts)
        if r is None and to in ("RECONCILING", "ACKNOWLEDGING"):
            r = self._reopen(row, m.member_id)
            if r is None and not self.broker_seen:
                r = self._client_start(row, m, frm, prev_epoch)
        if r is None:
            if to == "STABLE" and not self.broker_lines:
                # no rebalance in progress: the member is at the target epoch ("with epoch N" may lag)
                m.state = "STABLE"
                e = max(logged or 0, g.target_assignment_epoch or 0, m.member_epoch or 0)
                if e > 0:
                    self._set_epoch(m, e)
            return
        self._touch(r, ts)
        if (
            not self.broker_seen
            and logged is not None
            and logged > (r.old_generation or 0)
            and (r.new_generation is None or logged > r.new_generation)
        ):
            r.new_generation = logged  # client lines only: the members' epochs are all we know
        if to in _ACTIVE:
            r.active[m.member_id] = False
        elif to == "STABLE":
            # "with epoch N" lags during reconciliation: the line counts by time, not by epoch
            r.active[m.member_id] = True
            if not self.broker_lines:
                # the client's STABLE is the broker's only when the broker shows no member state: a
                # member waiting for partitions others still revoke (broker UNRELEASED_PARTITIONS)
                # is STABLE on its side with what it has
                m.state = "STABLE"
                if r.new_generation is not None:
                    self._set_epoch(m, r.new_generation)
                elif logged is not None:
                    self._set_epoch(m, logged)
                if m.assignment_known:
                    self._assignment_rows(m, m.member_epoch, ts)
        elif to in _GONE:
            r.active.pop(m.member_id, None)
        if not self.broker_lines:
            self._check_end(row)

    def _client_start(
        self, row: tuple, m: ConsumerGroupMember, frm: str, old: int | None
    ) -> ConsumerRebalance:
        """Client lines only: reconciliation begins a rebalance nobody logged the start of."""
        g = self.model
        r = ConsumerRebalance(
            self._unique_id(f"{self.group_id}:{row[TS]}:{old}"), row[TS], old, None,
            cause="new_member" if frm in ("JOINING", "UNSUBSCRIBED") else "unknown",
            culprit_member_id=m.member_id if frm in ("JOINING", "UNSUBSCRIBED") else None,
            members_before=self._present(), protocol_type=g.protocol_type, inferred=True, last_bump_ts=row[TS],
        )  # fmt: skip
        self.reb = r
        return r

    def _c_reconciliation(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        added, revoked = _parts(row[PARTS]), _parts(row[REVOKED])
        r = self._in_reb(ts)
        if m is not None:
            m.tracked = True
            m.last_seen_ts = ts
            if r is None:
                r = self._reopen(row, m.member_id)
            if r is not None:
                self._touch(r, ts)
                r.active[m.member_id] = False
            if m.assignment_known:
                m.assigned_partitions = [p for p in m.assigned_partitions if p not in revoked] + [
                    p for p in added if p not in m.assigned_partitions
                ]
        if r is not None:
            self._touch(r, ts)
            self._revoke(r, revoked, ts)
            self._assign(r, added, ts)

    def _c_revoked(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        tps = _parts(row[PARTS])
        r = self._in_reb(ts)
        if r is not None and tps:
            self._touch(r, ts)
            self._revoke(r, tps, ts)
        if m is not None and m.assignment_known:
            m.assigned_partitions = [p for p in m.assigned_partitions if p not in tps]

    def _c_assigned(self, row: tuple) -> None:
        ts = row[TS]
        m = self._client_member(row)
        tps = _parts(row[PARTS])
        r = self._in_reb(ts)
        if r is not None and tps:
            self._touch(r, ts)
            self._assign(r, tps, ts)
        if m is not None and m.assignment_known:
            m.assigned_partitions += [p for p in tps if p not in m.assigned_partitions]


_HANDLERS: dict[str, Any] = {
    "consumer_member_joined": ConsumerGroupReplay._b_joined,
    "consumer_member_replaced": ConsumerGroupReplay._b_replaced,
    "group_epoch_bumped": ConsumerGroupReplay._b_bumped,
    "consumer_subscription_changed": ConsumerGroupReplay._b_subscription,
    "target_assignment_computed": ConsumerGroupReplay._b_target,
    "consumer_member_left": ConsumerGroupReplay._b_left,
    "consumer_member_fenced": ConsumerGroupReplay._b_fenced,
    "member_assignment_state": ConsumerGroupReplay._b_assignment_state,
    "group_converted": ConsumerGroupReplay._b_converted,
    "group_loaded": ConsumerGroupReplay._b_loaded,
    "group_unloaded": ConsumerGroupReplay._b_unloaded,
    "group_dead": ConsumerGroupReplay._b_dead,
    "member_state_changed": ConsumerGroupReplay._c_state,
    "reconciliation_started": ConsumerGroupReplay._c_reconciliation,
    "partitions_revoked": ConsumerGroupReplay._c_revoked,
    "partitions_lost": ConsumerGroupReplay._c_revoked,
    "partitions_assigned": ConsumerGroupReplay._c_assigned,
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
    }
)
