"""Evidence replay: one consumer group's log facts -> transitions, rebalances, sessions, anomalies.

Logs show *outcomes*, not requests. :class:`GroupReplay` consumes the evidence events of ONE group in
the total order (ts, broker before client, source_file, line_no) and reconciles them with a model of
the group (state, generation, members, leader, protocol, coordinator):

* **Broker lines drive the state** through the evidence transition table
  (:mod:`coordinator_core.transitions`). A fact that is impossible in the model's state becomes an
  ``impossible_transition`` anomaly and the replay *adopts* it (logs are the truth). Generations are
  adopted forward only: a logged generation that differs from the model's expectation is a
  ``generation_gap`` anomaly; the model never goes back (except for a new incarnation of a group
  after it was Dead and removed).
* **Client lines enrich** (member ids, client ids, protocol, coordinator, assignments, leave
  reasons). A group with no broker evidence at all is reconstructed from client lines alone
  (``inferred=True``): a rebalance starts at the first rejoin/join/revoke/leave/poll-timeout/
  heartbeat-REBALANCE_IN_PROGRESS signal while Stable or Empty, the new generation comes from
  "Successfully joined ... generationId=N", and it ends at the first sync / leader assignment /
  assignment notification of that generation (a successful SyncGroup response exists only once the
  group is Stable).
* **Rebalance** (the project's definition): starts when the group enters PreparingRebalance from
  Stable or Empty, ends when it is Stable again (leader's assignment received: ``completed``) or
  Empty (``ended_empty``). A join round completed ("Stabilized", generation + 1) but interrupted by a
  new PreparingRebalance belongs to the same rebalance (``join_rounds`` + 1).
* **Member sessions** are keyed (group_id, member_id, joined_ts): ``joined_ts`` is never None. It
  comes from a line naming the member joining ("Adding new member", member added, the client's
  "Successfully joined"); otherwise from the earliest evidence - the MEMBER_ID_REQUIRED line of a
  pending id whose second join was logged at DEBUG (Scala 3.x; such ids fill the logged member
  count of "Stabilized ... with N members", or show up heartbeating or in the leader's map), the
  start of the open rebalance for a member a known membership lacked, else the first line naming
  it - and the session is ``inferred``. It is fixed when the member is first seen, so it survives
  cut-and-resume. Client lines (``[Consumer instanceId=i, clientId=c, ...]``) give client ids of
  members and culprits by member id or group.instance.id; client lines never give the host.
* **Heartbeats** (DEBUG, the bulk of the volume) only refresh the member's last-seen time and check
  the generation; :meth:`GroupReplay.feed_rows` handles them inline without building objects.

Nothing here raises on evidence: inconsistent input becomes :class:`~coordinator_core.records.Anomaly`
records. Sans-IO: no clocks, no files; time comes from the events.

Flush semantics: :meth:`GroupReplay.flush` drains the records produced since the last flush and
reports the rebalance under construction (``outcome="open"``) and every open member session
(``end_reason="open"``); they are emitted again, with the same keys (``rebalance_id``; ``group_id,
member_id, joined_ts``), when they close. :meth:`GroupReplay.snapshot` / :meth:`GroupReplay.resume`
carry the whole model between runs, so cut-and-resume equals one replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from coordinator_core.causes import CauseInfo, classify_client_reason, classify_reason, client_id_of
from coordinator_core.conversion import HandedOverMember
from coordinator_core.events import BROKER_KINDS, EVENT_FIELDS, Event
from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition
from coordinator_core.transitions import LOADED, STATE_KINDS, STAY, target

__all__ = ["GroupReplay", "ReplaySettings", "ReplayOutput", "SNAPSHOT_VERSION"]

SNAPSHOT_VERSION = 1

# row positions (EVENT_FIELDS order)
_F = {name: i for i, name in enumerate(EVENT_FIELDS)}
TS, GID, KIND, SIDE, MID, GEN = (_F[n] for n in ("ts", "group_id", "kind", "side", "member_id", "generation"))
GIID, CID, COORD, HOST, REASON, STATE = (
    _F[n] for n in ("group_instance_id", "client_id", "coordinator", "host", "reason", "state")
)
PROTO, MCOUNT, SCOUNT, ERR, OLDMID, MEMBERS = (
    _F[n] for n in ("protocol", "member_count", "static_count", "error", "old_member_id", "members")
)
PARTS, ASSIGN, STATIC, PENDING, UNEXP = (
    _F[n] for n in ("partitions", "assignment", "static", "pending", "unexpected")
)
SF, LN = _F["source_file"], _F["line_no"]
NFIELDS = len(EVENT_FIELDS)

# member record (a list, so snapshots are plain JSON)
M_CID, M_HOST, M_GIID, M_JOINED, M_FIRST, M_LAST, M_SEEN, M_INF, M_CGEN = range(9)

E, PR, CR, S, D = "Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"

HEARTBEAT = "heartbeat_sent"

_CLIENT_TRIGGERS = frozenset(
    {"rejoin_requested", "join_sent", "partitions_revoked", "heartbeat_failed", "leave_sent", "poll_timeout"}
)
_CLIENT_ROUND = frozenset({"rejoin_requested", "join_sent", "leave_sent", "poll_timeout"})
_GONE_MAX = 512
_HINT_MAX = 256


@dataclass(frozen=True)
class ReplaySettings:
    """Knobs of the replay (not part of snapshots: pass them again to :meth:`GroupReplay.resume`).

    * ``version_hint`` — broker version of the logs when known ("0.10.0", "2.0", "3.9" ...); used
      where evidence is version dependent (a new group starts Stable before 0.10.1, Empty after).
    * ``clock_skew_tolerance_ms`` — how far a client line may run ahead of the broker line it
      contradicts before a ``clock_skew`` anomaly is recorded.
    * ``signal_window_ms`` — how far back a member fact (left, expired, added, client leave / poll
      timeout) explains a rebalance line that carries no reason (2.0-style logs).
    * ``coordinator_move_window_ms`` — a rebalance starting this soon after ``group_loaded`` without
      a departure/arrival reason is attributed to the coordinator move.
    * ``emit_skew`` — emit ``partition_skew`` rows whenever a generation's assignment is known.
    * ``track_generations`` — keep per-generation membership/assignments (used by what-if).
    * ``source_file_memory_ms`` — per-source-file order state older than this is dropped from
      snapshots.
    """

    version_hint: str | None = None
    clock_skew_tolerance_ms: int = 5000
    signal_window_ms: int = 3000
    coordinator_move_window_ms: int = 60000
    emit_skew: bool = True
    track_generations: bool = False
    source_file_memory_ms: int = 7 * 86_400_000


@dataclass
class ReplayOutput:
    """Records produced by a replay since the previous flush."""

    transitions: list[Transition] = field(default_factory=list)
    rebalances: list[Rebalance] = field(default_factory=list)
    sessions: list[MemberSession] = field(default_factory=list)
    assignments: list[AssignmentRow] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    #: partition_skew rows (dicts, columns of jobs.schemas.PARTITION_SKEW minus cluster)
    skew: list[dict[str, Any]] = field(default_factory=list)

    def extend(self, other: ReplayOutput) -> None:
        self.transitions += other.transitions
        self.rebalances += other.rebalances
        self.sessions += other.sessions
        self.assignments += other.assignments
        self.anomalies += other.anomalies
        self.skew += other.skew


def _version(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    out = []
    for part in str(text).split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out) or None


def _int(v: Any) -> int | None:
    if v is None:
        return None
    try:
        if v != v:  # NaN from pandas
            return None
        return int(v)
    except (TypeError, ValueError):
        return None


def _split_tp(tp: Any) -> tuple[str, int] | None:
    """``"topic-3"`` (or a (topic, partition) pair) as ``("topic", 3)``; None when unreadable."""
    if type(tp) is str:
        topic, sep, p = tp.rpartition("-")
        if sep and topic and p.isascii() and p.isdigit():
            return topic, int(p)
        return None
    if isinstance(tp, (tuple, list)) and len(tp) == 2:
        p = _int(tp[1])
        return (str(tp[0]), p) if p is not None else None
    return None


def _assignment_map(v: Any) -> dict[str, list[Any]]:
    """The leader's assignment as {member: [partition strings]} from a tuple of pairs, a dict or an
    Arrow map (list of (key, value) pairs)."""
    if v is None:
        return {}
    items = v.items() if isinstance(v, Mapping) else v
    out: dict[str, list[Any]] = {}
    for item in items:
        try:
            m, parts = item
        except (TypeError, ValueError):
            continue
        out[str(m)] = list(parts) if parts is not None else []
    return out


def _joined(m: list[Any]) -> int | None:
    """A member's ``joined_ts`` (part of the session key, so never None once a member exists):
    members restored from snapshots older than this rule get their last-seen time, fixed once."""
    if m[M_JOINED] is None:
        m[M_JOINED] = m[M_SEEN]
    return m[M_JOINED]


def _json_default(o: Any) -> Any:
    """numpy scalars / arrays and other iterables that may arrive in rows."""
    if hasattr(o, "item") and callable(o.item):
        try:
            return o.item()
        except (TypeError, ValueError):
            pass
    if isinstance(o, (set, frozenset)):
        return sorted(o, key=str)
    try:
        return list(o)
    except TypeError:
        return str(o)


_RECORD_TYPES = {
    "tr": Transition,
    "rb": Rebalance,
    "ss": MemberSession,
    "as": AssignmentRow,
    "an": Anomaly,
}
_RECORD_FIELDS = {k: tuple(f.name for f in fields(c)) for k, c in _RECORD_TYPES.items()}

_STATE_ATTRS = (
    "state", "gen", "members", "pending", "gone", "cid_map", "leader", "protocol", "coordinator",
    "reb", "stable_members", "known", "broker_seen", "client_state", "loaded_ts", "signal", "hints",
    "files", "dd_ts", "last_ts", "hb_gap", "client_ahead", "masg", "prev_asg", "skew_gen",
    "warned", "generations", "events", "removed", "rids", "last_close", "last_reb", "giid_cid",
)  # fmt: skip


class GroupReplay:
    """Replay of one group's evidence. See the module docstring for the model.

    ``feed(event)`` takes :mod:`coordinator_core.events` objects; ``feed_rows(rows)`` takes flat rows
    (tuples/lists in :data:`~coordinator_core.events.EVENT_FIELDS` order, or dicts) and is the fast
    path; ``feed_columns(columns)`` takes a mapping column name -> sequence (missing columns are
    None). Values must be plain Python values (ints, strings, lists); pandas NaN is tolerated.
    """

    __slots__ = (
        "group_id", "settings", "_v", "_tr", "_rb", "_ss", "_as", "_an", "_sk", "dd_keys",
        *_STATE_ATTRS,
    )  # fmt: skip

    def __init__(self, group_id: str, settings: ReplaySettings | None = None) -> None:
        self.group_id = group_id
        self.settings = settings or ReplaySettings()
        self._v = _version(self.settings.version_hint)
        self._tr: list[Transition] = []
        self._rb: list[Rebalance] = []
        self._ss: list[MemberSession] = []
        self._as: list[AssignmentRow] = []
        self._an: list[Anomaly] = []
        self._sk: list[dict[str, Any]] = []
        self.state: str | None = None
        self.gen: int | None = None
        self.members: dict[str, list[Any]] = {}
        self.pending: dict[str, list[Any]] = {}
        self.gone: dict[str, list[Any]] = {}
        self.cid_map: dict[str, str] = {}
        self.leader: str | None = None
        self.protocol: str | None = None
        self.coordinator: int | None = None
        self.reb: dict[str, Any] | None = None
        self.stable_members: int | None = None
        self.known = False
        self.broker_seen = False
        self.client_state = False  # the current state was inferred from client lines
        self.loaded_ts: int | None = None
        self.signal: list[Any] | None = None
        self.hints: dict[str, list[Any]] = {}
        self.files: dict[str, list[Any]] = {}
        self.dd_ts: int | None = None
        #: facts seen at ``dd_ts``: key -> (source_file, line_no) of the first line stating it
        self.dd_keys: dict[tuple, tuple] = {}
        self.last_ts: int | None = None
        self.hb_gap = -1
        self.client_ahead: list[Any] | None = None
        self.masg: dict[str, Any] | None = None
        self.prev_asg: dict[str, list[list[Any]]] | None = None
        self.skew_gen: int | None = None
        self.warned: list[str] = []
        self.generations: list[dict[str, Any]] = []
        self.events = 0
        self.removed = False  # Dead because removed (group_dead), not because unloaded
        self.rids: list[str] = []  # ids of recent rebalances (kept unique)
        self.last_close: list[Any] | None = None  # [ts, generation] of the last completed rebalance
        self.last_reb: dict[str, Any] | None = None  # the last closed rebalance
        #: group.instance.id -> client id, from client lines ("[Consumer instanceId=i, clientId=c, ...]")
        self.giid_cid: dict[str, str] = {}

    # ------------------------------------------------------------------ construction / persistence
    @classmethod
    def resume(
        cls, group_id: str, state_json: str | None, settings: ReplaySettings | None = None
    ) -> GroupReplay:
        """A replay continuing from ``state_json`` (from :meth:`snapshot`); None = a fresh group.
        An unreadable snapshot starts fresh and records a ``replay_error`` anomaly."""
        r = cls(group_id, settings)
        if not state_json:
            return r
        try:
            d = json.loads(state_json)
            if d.get("v") != SNAPSHOT_VERSION:
                raise ValueError(f"snapshot version {d.get('v')!r}")
            for name in _STATE_ATTRS:
                if name in d:
                    setattr(r, name, d[name])
            r.dd_keys = {tuple(k): (sf, ln) for k, sf, ln in d.get("dd_keys", ())}
            for key, cls_ in _RECORD_TYPES.items():
                names = _RECORD_FIELDS[key]
                buf = getattr(r, "_" + key)
                for vals in d.get("out", {}).get(key, ()):
                    kw = dict(zip(names, vals))
                    if key == "as":
                        kw["partitions"] = tuple(kw["partitions"])
                    buf.append(cls_(**kw))
            r._sk.extend(d.get("out", {}).get("sk", ()))
            for m in r.members.values():
                _joined(m)
            if not isinstance(r.giid_cid, dict):
                r.giid_cid = {}
        except Exception as exc:  # never raise on stored state either
            r = cls(group_id, settings)
            r._an.append(Anomaly(group_id, None, "replay_error", f"unreadable snapshot: {exc}"))
        return r

    def snapshot(self) -> str:
        """The whole model as compact JSON (including records not flushed yet)."""
        d: dict[str, Any] = {"v": SNAPSHOT_VERSION, "g": self.group_id}
        for name in _STATE_ATTRS:
            d[name] = getattr(self, name)
        mem = self.settings.source_file_memory_ms
        if self.last_ts is not None and mem is not None:
            d["files"] = {k: v for k, v in self.files.items() if v[0] is None or v[0] >= self.last_ts - mem}
        d["dd_keys"] = [[k, sf, ln] for k, (sf, ln) in self.dd_keys.items()]
        out: dict[str, list[Any]] = {}
        for key in _RECORD_TYPES:
            buf = getattr(self, "_" + key)
            if buf:
                out[key] = [[getattr(rec, n) for n in _RECORD_FIELDS[key]] for rec in buf]
        if self._sk:
            out["sk"] = self._sk
        if out:
            d["out"] = out
        return json.dumps(d, separators=(",", ":"), default=_json_default)

    # ------------------------------------------------------------------ output
    def flush(self, final: bool = False) -> ReplayOutput:
        """Records produced since the last flush, plus the open rebalance (``outcome="open"``) and
        open member sessions (``end_reason="open"``). ``final=True`` means no more evidence will
        come: an open rebalance also gets a ``rebalance_without_end`` anomaly."""
        out = ReplayOutput(self._tr, self._rb, self._ss, self._as, self._an, self._sk)
        self._tr, self._rb, self._ss, self._as, self._an, self._sk = [], [], [], [], [], []
        if self.reb is not None:
            out.rebalances.append(self._reb_record(self.reb, "open", None, None, check=False))
            if final:
                out.anomalies.append(
                    Anomaly(
                        self.group_id, self.last_ts, "rebalance_without_end",
                        f"rebalance {self._reb_id(self.reb)} still open when the logs end",
                        self.state, self.gen,
                    )
                )  # fmt: skip
        for mid, m in self.members.items():
            out.sessions.append(
                MemberSession(
                    self.group_id, mid, m[M_GIID], m[M_CID], m[M_HOST], _joined(m), None,
                    m[M_FIRST], m[M_LAST], "open", bool(m[M_INF]),
                )
            )  # fmt: skip
        return out

    # ------------------------------------------------------------------ protocol conversion
    def hand_over(self, row: Any) -> tuple[int | None, list[HandedOverMember]]:
        """The group converts to the consumer protocol at ``row`` (:mod:`coordinator_core.conversion`):
        an open rebalance ends there (``inferred``: the conversion takes over), the group goes Dead in
        this model, and its members leave it WITHOUT a session end: returned with their partitions
        (the current generation's assignment when known) for the consumer model to continue."""
        row = self._normalise(row)
        if self.reb is not None:
            self.reb["inf"] = True
            self._close(row, "completed", len(self.members) or None)
        masg = self.masg if self.masg is not None and self.masg.get("g") == self.gen else None
        table = dict(masg["a"] or {}) if masg is not None else {}
        if masg is not None:
            table.update(masg["m"])
        out = [
            HandedOverMember(
                mid, m[M_GIID], m[M_CID], _joined(m), bool(m[M_INF]),
                tuple(f"{t}-{p}" for t, p in table[mid]) if mid in table else None, m[M_HOST],
            )
            for mid, m in self.members.items()
        ]  # fmt: skip
        gen = self.gen
        self.members, self.pending, self.leader, self.stable_members = {}, {}, None, None
        self._set_state(row, D)
        return gen, out

    def take_over(self, row: Any, generation: int | None, members: Iterable[HandedOverMember]) -> None:
        """The group converts back to the classic protocol at ``row``: Kafka's classic group starts
        Stable at generation = the consumer group's epoch, with the handed-over members (their
        sessions continue: same ``joined_ts``)."""
        row = self._normalise(row)
        if generation is not None:
            self.gen = generation if self.gen is None else max(self.gen, generation)
        for h in members:
            m = self._add_member(h.member_id, h.joined_ts, cid=h.client_id, host=h.host, giid=h.group_instance_id,
                                 inferred=h.inferred)  # fmt: skip
            m[M_JOINED], m[M_SEEN] = h.joined_ts, row[TS]
            m[M_CGEN] = m[M_FIRST] = m[M_LAST] = self.gen
        self.known = self.broker_seen = True
        self.stable_members = len(self.members)
        self._set_state(row, S if self.members else E)

    # ------------------------------------------------------------------ input
    def feed(self, event: Event) -> None:
        """Consume one evidence event (any :mod:`coordinator_core.events` class)."""
        try:
            row = event.to_row()
        except Exception as exc:
            self._an.append(Anomaly(self.group_id, None, "replay_error", f"unreadable event: {exc}"))
            return
        self.feed_rows((tuple(row.get(f) for f in EVENT_FIELDS),))

    def feed_columns(self, columns: Mapping[str, Sequence[Any]]) -> None:
        """Consume column lists (e.g. ``pyarrow.Table.to_pydict()``); missing columns are None."""
        n = 0
        for v in columns.values():
            n = len(v)
            break
        none = [None] * n
        self.feed_rows(zip(*[columns.get(f, none) for f in EVENT_FIELDS]))

    def feed_rows(self, rows: Iterable[Any]) -> None:
        """Consume flat rows in total order.

        Heartbeats take an inline path (last-seen refresh and a generation check, no objects, no
        per-file order check: the order of a file is checked on its state-bearing lines). Every
        other line goes through the per-file order check, duplicate detection and its handler."""
        if not isinstance(rows, (list, tuple)):
            rows = list(rows)
        members = self.members
        files = self.files
        slow = self._slow
        hb = HEARTBEAT
        cur_sf: Any = None
        cur_rec: list[Any] = [0, -1]
        gen = self.gen
        for row in rows:
            try:
                if type(row) is not tuple:
                    row = self._normalise(row)
                if row[2] == hb:
                    m = members.get(row[4])
                    if m is not None:
                        m[6] = row[0]
                        g = row[5]
                        if g is None or g == gen or g == m[8]:
                            continue
                    elif row[4] is None and row[5] is None and type(row[0]) is int:
                        # "Received successful Heartbeat response": only the time is new
                        if self.last_ts is None or row[0] > self.last_ts:
                            self.last_ts = row[0]
                        continue
                    self._heartbeat(row)
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
                        # (a line without any time of its own - ts None - is ordered by its line)
                        if (ts is not None and cur_rec[0] is not None and ts < cur_rec[0]) or (
                            ln is not None and ln < cur_rec[1]
                        ):
                            self._out_of_order(row, cur_rec)
                        else:
                            if ts is not None:
                                cur_rec[0] = ts
                            if ln is not None:
                                cur_rec[1] = ln
                    slow(row)
                members = self.members
                gen = self.gen
            except Exception as exc:  # never raise on evidence
                self._error(row, exc)
                members = self.members
                gen = self.gen
        self.events += len(rows)

    # ------------------------------------------------------------------ internals: plumbing
    @staticmethod
    def _normalise(row: Any) -> tuple:
        if isinstance(row, Mapping):
            if "ts" not in row and "ts_ms" in row:
                row = {**row, "ts": row["ts_ms"]}
            return tuple(row.get(f) for f in EVENT_FIELDS)
        t = tuple(row)
        if len(t) < NFIELDS:
            t = t + (None,) * (NFIELDS - len(t))
        return t

    def _error(self, row: Any, exc: Exception) -> None:
        try:
            ts, kind, sf, ln = row[0], row[2], row[SF], row[LN]
        except Exception:
            ts = kind = sf = ln = None
        self._an.append(
            Anomaly(
                self.group_id, ts if isinstance(ts, int) else None, "replay_error",
                f"{type(exc).__name__}: {exc}", self.state, self.gen,
                kind if isinstance(kind, str) else None, sf if isinstance(sf, str) else None,
                ln if isinstance(ln, int) else None,
            )
        )  # fmt: skip

    def _anom(self, row: tuple, kind: str, detail: str) -> None:
        self._an.append(
            Anomaly(self.group_id, row[TS], kind, detail, self.state, self.gen, row[KIND], row[SF], row[LN])
        )

    def _out_of_order(self, row: tuple, rec: list[Any]) -> None:
        self._anom(
            row, "out_of_order",
            f"line {row[LN]} at {row[TS]} is earlier than line {rec[1]} at {rec[0]} of {row[SF]}",
        )  # fmt: skip

    def _set_state(self, row: tuple, to: str, inferred: bool = False) -> None:
        self.client_state = inferred and (not self.broker_seen or self.client_state)
        if to == self.state:
            return
        self._tr.append(
            Transition(
                self.group_id, row[TS], self.state, to, self.gen if self.gen is not None else -1,
                row[KIND], inferred, row[SF], row[LN],
            )
        )  # fmt: skip
        self.state = to

    def _adopt_gen(self, row: tuple, g: int | None, expected: int | None) -> None:
        """Adopt a logged generation forward; a mismatch with ``expected`` is a generation gap."""
        if g is None:
            if expected is not None:
                self.gen = expected
            return
        if self.gen is None:
            self.gen = g
            return
        if expected is not None and g != expected:
            self._anom(row, "generation_gap", f"logged generation {g}, model expected {expected}")
        if g > self.gen:
            self.gen = g

    def _slow(self, row: tuple) -> None:
        ts = row[TS]
        if not isinstance(ts, int) or isinstance(ts, bool):
            ts = _int(ts)
            if ts is None:
                self._anom(row, "no_timestamp", "event without any time in its file: kept in events, not replayed")
                return
            row = (ts,) + row[1:]
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        kind = row[KIND]
        # every fact column from kind to old_member_id (not ts, file, line), plus the partitions
        key: Any = row[KIND:MEMBERS]
        parts = row[PARTS]
        if parts:
            key = (*key, *parts)
        if row[MID] is None and kind not in BROKER_KINDS:
            key = None  # client lines without a member id are ambiguous (client ids repeat across JVMs)
        # the same fact at the same ms from another file (a log shipped twice) or from the same
        # line again is a duplicate; two lines of one file stating the same fact are not
        where = (row[SF], row[LN])
        if ts != self.dd_ts:
            self.dd_ts = ts
            self.dd_keys = {key: where} if key is not None else {}
        elif key is not None:
            seen = self.dd_keys.get(key)
            if seen is None:
                self.dd_keys[key] = where
            elif seen[0] != where[0] or seen[1] == where[1]:
                self._anom(
                    row,
                    "duplicate_line",
                    f"{kind} of {row[MID] or row[CID]} at {ts} already seen in {seen[0]}:{seen[1]}",
                )
                return
        handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
        if handler is None:
            self._anom(row, "unknown_kind", f"unknown event kind {kind!r}")
            return
        if kind in BROKER_KINDS:
            self._broker(row, handler)
        else:
            handler(self, row)

    # ------------------------------------------------------------------ members and sessions
    def _member_info(self, mid: str | None) -> tuple[str | None, str | None, str | None]:
        """(client id, host, group instance id) of a current, gone or pending member."""
        if not mid:
            return None, None, None
        m = self.members.get(mid) or self.gone.get(mid)
        if m is not None:
            cid, host, giid = m[0], m[1], m[2]
        else:
            p = self.pending.get(mid)
            cid, host, giid = (p[0], p[1], None) if p else (None, None, None)
        if not cid and giid:
            cid = self.giid_cid.get(giid)
        return cid or client_id_of(mid, giid), host, giid

    def _add_member(
        self, mid: str, ts: int | None, *, cid: Any = None, host: Any = None, giid: Any = None,
        inferred: bool = False, joined: bool = True,
    ) -> list[Any]:  # fmt: skip
        m = self.members.get(mid)
        if m is None:
            p = self.pending.pop(mid, None)
            first_ts = ts
            if p is not None:
                cid = cid or p[0]
                host = host or p[1]
                if not joined and len(p) > 2 and p[2] is not None and (ts is None or p[2] < ts):
                    first_ts = p[2]  # the member id was handed out then (MEMBER_ID_REQUIRED)
            r = self.reb
            if (
                not joined
                and first_ts == ts
                and self.known
                and r is not None
                and r["start"] is not None
                and ts is not None
                and r["start"] <= ts
            ):
                first_ts = r["start"]  # a member the known membership lacked joined in this rebalance
            if not cid and giid:
                cid = self.giid_cid.get(giid)
            # joined_ts is part of the session key: never None. Without a line naming the member
            # joining it is the earliest evidence of the member (and the session is inferred).
            m = [
                cid or client_id_of(mid, giid),
                host,
                giid,
                first_ts,
                None,
                None,
                ts,
                inferred or not joined,
                None,
            ]
            self.members[mid] = m
            self.gone.pop(mid, None)
        else:
            if cid and not m[M_CID]:
                m[M_CID] = cid
            if host and not m[M_HOST]:
                m[M_HOST] = host
            if giid and not m[M_GIID]:
                m[M_GIID] = giid
            m[M_SEEN] = ts
        if cid:
            self.cid_map[cid] = mid
        return m

    def _end(self, row: tuple, mid: str, reason: str, *, inferred: bool = False) -> None:
        ts = row[TS]
        m = self.members.pop(mid, None)
        if m is None:
            if mid in self.gone:
                return
            p = self.pending.pop(mid, None)
            if self.known and p is None:
                self._anom(row, "unknown_member", f"{row[KIND]} of member {mid} the model does not know")
            cid = row[CID] if row[KIND] != "static_member_fenced" else None
            giid = row[GIID]
            if not cid and giid:
                cid = self.giid_cid.get(giid)
            # the ending line is the only evidence of the member (a pending id: its creation)
            first_ts = p[2] if p is not None and len(p) > 2 and p[2] is not None else ts
            m = [cid or client_id_of(mid, giid), row[HOST], giid, first_ts, None, None, ts, True, None]
            inferred = True
        elif row[HOST] and not m[M_HOST] and row[MID] == mid:
            m[M_HOST] = row[HOST]
        self._ss.append(
            MemberSession(
                self.group_id, mid, m[M_GIID], m[M_CID], m[M_HOST], _joined(m), ts, m[M_FIRST],
                m[M_LAST], reason, bool(m[M_INF]) or inferred,
            )
        )  # fmt: skip
        # cid, host, giid, left ts, joined ts, first/last generation, inferred, end reason
        self.gone[mid] = [
            m[M_CID],
            m[M_HOST],
            m[M_GIID],
            ts,
            m[M_JOINED],
            m[M_FIRST],
            m[M_LAST],
            m[M_INF],
            reason,
        ]
        if len(self.gone) > _GONE_MAX:
            self.gone.pop(next(iter(self.gone)))
        if self.leader == mid:
            self.leader = None

    def _end_all(self, row: tuple, reason: str) -> None:
        for mid in list(self.members):
            self._end(row, mid, reason, inferred=True)

    def _signal(self, ts: int, cause: str, mid: str | None) -> None:
        self.signal = [ts, cause, mid]

    def _hint(self, ts: int, mid: str | None, cause: str) -> None:
        if not mid:
            return
        self.hints[mid] = [ts, cause]
        if len(self.hints) > _HINT_MAX:
            self.hints.pop(next(iter(self.hints)))

    # ------------------------------------------------------------------ rebalance records
    def _reb_new(self, ts: int | None, old_gen: int | None, *, start_unknown: bool, inferred: bool) -> dict:
        mb = self.stable_members
        if mb is None and self.known:
            mb = len(self.members)
        r = {
            "start": ts, "su": start_unknown, "og": old_gen, "ng": None, "jr": 0, "cause": "unknown",
            "reason": None, "cm": None, "cc": None, "ch": None, "cg": None, "mb": mb, "lead": None,
            "proto": None, "coord": self.coordinator, "inf": inferred, "follow": False,
            # the id is fixed when the rebalance starts, so every later report of it (open, then
            # completed, possibly in a later run) carries the same id
            "id": self._unique_id(f"{self.group_id}:{ts or 'unknown'}:{old_gen}"),
        }  # fmt: skip
        self.reb = r
        return r

    def _unique_id(self, rid: str) -> str:
        """``rid``, or ``rid#n`` when a recent rebalance already used it (two rebalances starting in
        the same millisecond at the same generation, or two whose start is unknown)."""
        used = self.rids
        out, n = rid, 1
        while out in used:
            n += 1
            out = f"{rid}#{n}"
        used.append(out)
        if len(used) > 32:
            del used[0]
        return out

    def _reb_id(self, r: dict) -> str:
        return r.get("id") or f"{self.group_id}:{r['start'] or 'unknown'}:{r['og']}"

    def _set_cause(
        self, r: dict, cause: str, mid: str | None, giid: str | None = None, cid: str | None = None
    ) -> None:
        r["cause"] = cause
        r["follow"] = False
        r["cm"] = mid
        mcid, host, mgiid = self._member_info(mid)
        r["cc"] = cid or mcid
        r["ch"] = host
        r["cg"] = giid or mgiid

    def _reb_record(
        self, r: dict, outcome: str, end_ts: int | None, after: int | None, *, check: bool = True
    ) -> Rebalance:
        start = r["start"]
        dur = None
        if start is not None and end_ts is not None:
            dur = end_ts - start
            if dur < 0:
                if check:
                    self._an.append(
                        Anomaly(
                            self.group_id, end_ts, "clock_skew",
                            f"rebalance {self._reb_id(r)} ends {-dur} ms before it starts", self.state, self.gen,
                        )
                    )  # fmt: skip
                dur = 0
        cm = r["cm"]
        cc, ch, cg = r["cc"], r["ch"], r["cg"]
        if cm and (cc is None or ch is None or cg is None):
            icid, ihost, igiid = self._member_info(cm)
            cc, ch, cg = cc or icid, ch or ihost, cg or igiid
        return Rebalance(
            self.group_id, self._reb_id(r), r["og"], r["ng"], r["jr"], start, end_ts, dur, outcome,
            r["cause"], r["reason"], cm, cc, ch, cg, r["mb"], after, r["lead"], r["proto"], r["coord"],
            bool(r["inf"]), bool(r["su"]),
        )  # fmt: skip

    def _close(self, row: tuple, outcome: str, after: int | None) -> None:
        r = self.reb
        if r is None:
            return
        if r["ng"] is None or (self.gen is not None and r["ng"] < self.gen):
            # generations only move forward: the group's generation when the rebalance ends is its
            # result (a client-inferred round may have recorded an older one before the broker's)
            r["ng"] = self.gen
        if outcome == "completed":
            r["jr"] = max(r["jr"], 1)
            if r["lead"] is None:
                r["lead"] = self.leader
        if r["proto"] is None and outcome == "completed":
            r["proto"] = self.protocol
        if r["coord"] is None:
            r["coord"] = self.coordinator
        self._rb.append(self._reb_record(r, outcome, row[TS], after))
        r["out"], r["end"], r["after"] = outcome, row[TS], after
        self.last_reb = r  # kept for refinements by evidence logged (or clocked) just after the end
        self.reb = None
        self.stable_members = after
        if outcome == "completed":
            self.last_close = [row[TS], self.gen]
        if self.settings.track_generations:
            self.generations.append(
                {"gen": self.gen, "ts": row[TS], "members": sorted(self.members), "outcome": outcome}
            )

    def _reemit(self, r: dict) -> None:
        """Report a closed rebalance again after a refinement (same ``rebalance_id``: the sink keeps
        the latest row); a report of it not flushed yet is replaced, not duplicated."""
        rec = self._reb_record(r, r["out"], r["end"], r["after"], check=False)
        self._rb = [x for x in self._rb if x.rebalance_id != rec.rebalance_id]
        self._rb.append(rec)

    def _start_unknown(self, row: tuple, old_gen: int | None, inferred: bool) -> dict:
        self._anom(row, "rebalance_without_start", f"{row[KIND]} without the start of its rebalance")
        return self._reb_new(None, old_gen, start_unknown=True, inferred=inferred)

    def _members_after(self, count: Any) -> int | None:
        n = _int(count)
        if n is not None:
            return n
        return len(self.members) if self.members else None

    # ------------------------------------------------------------------ broker evidence
    def _broker(self, row: tuple, handler: Any) -> None:
        kind = row[KIND]
        st = self.state
        check = st is not None and not self.client_state
        if st == D and self.removed and kind not in ("group_loaded", "group_unloaded", "group_dead"):
            # the group was removed; Kafka creates a new incarnation (Empty, generation 0)
            self.removed = False
            self.gen = 0
            self.known = True
            self.stable_members = 0
            self._set_state(row, S if (self._v is not None and self._v < (0, 10, 1)) else E, inferred=True)
            st = self.state
        if not self.broker_seen:
            self.broker_seen = True
        if self.client_state and (kind in STATE_KINDS or kind == "group_loaded"):
            self.client_state = False  # the broker's state facts replace the client-inferred state
        if row[COORD] is not None and kind not in ("group_unloaded", "group_dead"):
            self.coordinator = _int(row[COORD])
        natural = (
            STATE_KINDS[kind].value if kind in STATE_KINDS else (LOADED if kind == "group_loaded" else STAY)
        )
        tgt = natural
        if check:
            t = target(st, kind)  # type: ignore[arg-type]
            if t is None:
                self._anom(row, "impossible_transition", f"{kind} is impossible in state {st}; adopted")
            else:
                tgt = t
        handler(self, row, tgt)

    def _b_prepared(self, row: tuple, tgt: str) -> None:
        ts = row[TS]
        g = _int(row[GEN])
        prev = self.state
        if prev is None and g == 0:
            # a brand-new group: Empty (0.10.1+), Stable before Empty existed
            self.state = S if (self._v is not None and self._v < (0, 10, 1)) else E
            self.known = True
            self.gen = 0
        if g is not None:
            self._adopt_gen(row, g, self.gen)
        info = classify_reason(row[REASON])
        if info.cause == "new_member" and info.member_id and info.member_id not in self.members:
            self._add_member(info.member_id, ts, giid=info.group_instance_id)
        cause, culprit, giid = self._resolve_cause(row, info)
        r = self.reb
        if r is None:
            r = self._reb_new(ts, self.gen, start_unknown=False, inferred=False)
            if self.state == E:
                r["mb"] = 0
            r["reason"] = row[REASON]
            self._set_cause(r, cause, culprit, giid)
        else:
            takeover = r["inf"]  # the broker takes over a rebalance inferred from client lines
            r["inf"] = False
            if takeover:
                # the group entered PreparingRebalance now (the client's signal came first); the id
                # stays the one given when the rebalance was first seen
                r["start"] = ts
                r["og"] = self.gen
                if self.gen == 0 and r["mb"] is None:
                    r["mb"] = 0
            if cause != "unknown" and (takeover or r["cause"] == "unknown"):
                r["reason"] = row[REASON]
                self._set_cause(r, cause, culprit, giid)
            elif r["reason"] is None and row[REASON] and r["cause"] == cause:
                r["reason"] = row[REASON]
        if r["coord"] is None:
            r["coord"] = self.coordinator
        self._set_state(row, PR)

    def _poll_hint(self, mid: str, ts: int) -> bool:
        """Did the member's client (by member id, else by client id) just log a poll timeout?"""
        window = self.settings.signal_window_ms
        keys = [mid]
        cid = self._member_info(mid)[0]
        if cid:
            keys.append("client:" + cid)
        for key in keys:
            h = self.hints.get(key)
            if h is not None and h[1] == "poll_timeout_leave" and 0 <= ts - h[0] <= window:
                return True
        return False

    def _resolve_cause(self, row: tuple, info: CauseInfo) -> tuple[str, str | None, str | None]:
        ts = row[TS]
        cause, culprit, giid = info.cause, info.member_id, info.group_instance_id
        window = self.settings.signal_window_ms
        if cause == "unknown":
            sig = self.signal
            if sig is not None and ts - sig[0] <= window:
                cause, culprit = sig[1], sig[2]
        if cause == "member_leave":
            for mid in info.members or ((culprit,) if culprit else ()):
                if self._poll_hint(mid, ts):
                    cause, culprit = "poll_timeout_leave", mid
                    break
        if (
            cause in ("leader_rejoin", "metadata_change", "unknown")
            and self.loaded_ts is not None
            and 0 <= ts - self.loaded_ts <= self.settings.coordinator_move_window_ms
        ):
            cause = "coordinator_move"
        self.signal = None
        return cause, culprit, giid

    def _b_join_completed(self, row: tuple, tgt: str) -> None:
        g = _int(row[GEN])
        if self.reb is None:
            self._start_unknown(row, g - 1 if g is not None else self.gen, inferred=False)
        r = self.reb
        assert r is not None
        expected = self.gen + 1 if self.gen is not None else None
        self._adopt_gen(row, g, expected)
        self._check_client_ahead(row)
        r["jr"] += 1
        r["ng"] = self.gen
        r["inf"] = False
        self._promote_pending(row, _int(row[MCOUNT]), r["start"])
        self._reconcile(row, _int(row[MCOUNT]))
        self._set_state(row, CR)
        gen = self.gen
        for m in self.members.values():
            m[M_LAST] = gen
            if m[M_FIRST] is None:
                m[M_FIRST] = gen

    def _promote_pending(self, row: tuple, n: int | None, start: int | None) -> None:
        """Pending members (MEMBER_ID_REQUIRED) whose second join was not logged (DEBUG in Scala
        3.x): Kafka completes a join phase only when no member is pending, so when the logged
        member count exceeds the model's membership the pending ids filled the gap. Ids handed out
        during this rebalance go first, oldest first. Their ``joined_ts`` is when the id was
        handed out; the session is inferred."""
        if n is None or not self.pending:
            return
        free = n - len(self.members)
        if free <= 0:
            return

        def order(kv: tuple[str, list[Any]]) -> tuple[bool, int]:
            pts = kv[1][2] if len(kv[1]) > 2 and kv[1][2] is not None else 0
            return (start is not None and pts < start, pts)

        for mid, _ in sorted(self.pending.items(), key=order)[:free]:
            self._add_member(mid, row[TS], inferred=True, joined=False)

    def _reconcile(self, row: tuple, n: int | None) -> None:
        """Match the model's membership with a logged member count."""
        if n is None:
            return
        have = len(self.members)
        if n < have:
            # members that did not rejoin (2.0-2.6 remove them silently): the least recently seen
            order = sorted(
                self.members.items(), key=lambda kv: (kv[1][M_SEEN] is not None, kv[1][M_SEEN] or 0)
            )
            for mid, _ in order[: have - n]:
                self._end(row, mid, "not_rejoined", inferred=True)
            self.known = True
        elif n > have:
            self.known = False
        else:
            self.known = True

    def _b_group_empty(self, row: tuple, tgt: str) -> None:
        g = _int(row[GEN])
        if self.reb is None:
            self._start_unknown(row, g - 1 if g is not None else self.gen, inferred=False)
        r = self.reb
        assert r is not None
        self._adopt_gen(row, g, self.gen + 1 if self.gen is not None else None)
        r["jr"] += 1
        r["inf"] = False
        self._end_all(row, "not_rejoined")
        self.known = True
        self._set_state(row, E)
        self._close(row, "ended_empty", 0)

    def _b_assignment(self, row: tuple, tgt: str) -> None:
        g = _int(row[GEN])
        self._adopt_gen(row, g, self.gen)
        leader = row[MID]
        if leader:
            if leader not in self.members:
                if self.known:
                    self._anom(row, "unknown_member", f"leader {leader} is not a known member")
                m = self._add_member(leader, row[TS], inferred=True, joined=False)
                if self.gen is not None:  # the leader of generation N is a member of it
                    m[M_FIRST] = m[M_LAST] = m[M_CGEN] = self.gen
            self.leader = leader
        if self.reb is None and self.state != S:
            self._start_unknown(row, g - 1 if g is not None else None, inferred=False)
        self._set_state(row, S, inferred=True)
        r = self.reb
        if r is not None and self.state == S:
            r["lead"] = leader or r["lead"]
            r["inf"] = False
            self._close(row, "completed", self._members_after(row[MCOUNT]))
            self._maybe_member_skew(row)

    def _b_group_stable(self, row: tuple, tgt: str) -> None:
        self._adopt_gen(row, _int(row[GEN]), self.gen)
        self._set_state(row, S)
        if self.reb is not None:
            self._close(row, "completed", self._members_after(row[MCOUNT]))

    def _b_loaded(self, row: tuple, tgt: str) -> None:
        g = _int(row[GEN])
        self._adopt_gen(row, g, self.gen if self.gen is not None and g is not None and g < self.gen else None)
        self.loaded_ts = row[TS]
        self.removed = False
        n = _int(row[MCOUNT])
        count = n if n is not None else len(self.members)
        to = S if count > 0 else E
        if to == E:
            self._end_all(row, "not_rejoined")
            self.known = True
        self._set_state(row, to)
        if to == E and self.reb is not None:
            self._close(row, "ended_empty", 0)
        elif self.reb is None:
            self.stable_members = count

    def _b_unloaded(self, row: tuple, tgt: str) -> None:
        self._adopt_gen(row, _int(row[GEN]), None)
        self._set_state(row, D)

    def _b_dead(self, row: tuple, tgt: str) -> None:
        self._adopt_gen(row, _int(row[GEN]), None)
        self._end_all(row, "group_dead")
        self.pending.clear()
        self.known = True
        self.removed = True
        self._set_state(row, D)
        if self.reb is not None:
            r = self.reb
            r["inf"] = False
            self._close(row, "ended_empty", 0)

    def _b_member_id_required(self, row: tuple, tgt: str) -> None:
        mid = row[MID]
        if mid:
            self.pending[mid] = [row[CID] or client_id_of(mid, row[GIID]), row[HOST], row[TS]]

    def _b_member_added(self, row: tuple, tgt: str) -> None:
        mid = row[MID]
        if not mid:
            return
        self._add_member(mid, row[TS], cid=row[CID], host=row[HOST], giid=row[GIID])
        self._signal(row[TS], "new_member", mid)

    def _b_member_left(self, row: tuple, tgt: str) -> None:
        mid = row[MID]
        if not mid:
            return
        if row[PENDING]:
            self.pending.pop(mid, None)
            return
        cause = "member_leave"
        reason = row[REASON]
        if (
            reason
            and classify_client_reason(reason).cause == "poll_timeout_leave"
            or self._poll_hint(mid, row[TS])
        ):
            cause = "poll_timeout_leave"
        self._hint(row[TS], mid, cause)
        self._end(row, mid, "poll_timeout_leave" if cause == "poll_timeout_leave" else "leave")
        self._signal(row[TS], cause, mid)

    def _b_expired(self, row: tuple, tgt: str) -> None:
        mid = row[MID]
        if mid:
            self._end(row, mid, "session_timeout")
            self._signal(row[TS], "session_timeout", mid)

    def _b_pending_expired(self, row: tuple, tgt: str) -> None:
        mid = row[MID]
        if not mid:
            return
        if self.pending.pop(mid, None) is None and mid in self.members:
            self._end(row, mid, "pending_expired")

    def _b_sync_expired(self, row: tuple, tgt: str) -> None:
        if row[UNEXP]:
            return
        removed = [m for m in (row[MEMBERS] or ()) if m]
        for mid in removed:
            self._end(row, mid, "sync_timeout")
        if removed:
            self._signal(row[TS], "sync_timeout", removed[0])

    def _b_not_joined(self, row: tuple, tgt: str) -> None:
        for mid in row[MEMBERS] or ():
            if mid:
                self._end(row, mid, "not_rejoined")

    def _b_static_replaced(self, row: tuple, tgt: str) -> None:
        new, old = row[MID], row[OLDMID]
        cid = host = None
        if old and old in self.members:
            cid, host = self.members[old][M_CID], self.members[old][M_HOST]
            was_leader = self.leader == old
            self._end(row, old, "replaced")
            if was_leader and new:
                self.leader = new
        if new:
            self._add_member(new, row[TS], cid=row[CID] or cid, host=row[HOST] or host, giid=row[GIID])
            self._signal(row[TS], "static_member", new)

    def _b_fenced(self, row: tuple, tgt: str) -> None:
        mid, owner = row[MID], row[OLDMID]
        if mid and mid != owner and mid in self.members:
            self._end(row, mid, "fenced")

    def _b_leader(self, row: tuple, tgt: str) -> None:
        if row[MID]:
            self.leader = row[MID]
            if self.reb is not None:
                self.reb["lead"] = row[MID]

    def _b_noop(self, row: tuple, tgt: str) -> None:
        return

    # ------------------------------------------------------------------ heartbeats
    def _heartbeat(self, row: tuple) -> None:
        """Slow part of the heartbeat path: unknown member or a generation other than the model's."""
        mid = row[MID]
        ts = row[TS]
        if not isinstance(ts, int):
            ts = _int(ts)
            if ts is None:
                self._anom(row, "no_timestamp", "event without any time in its file: kept in events, not replayed")
                return
        if self.last_ts is None or ts > self.last_ts:
            self.last_ts = ts
        g = _int(row[GEN])
        m = self.members.get(mid) if mid else None
        if m is None and mid and mid in self.pending and mid not in self.gone:
            # a client heartbeats only after its JoinGroup succeeded: the pending id joined (its
            # second join was logged at DEBUG, or not at all)
            m = self._add_member(mid, ts, cid=row[CID], inferred=True, joined=False)
            if g is not None:
                m[M_CGEN] = m[M_FIRST] = m[M_LAST] = g
        if m is None and mid:
            if mid in self.gone or mid in self.pending:
                return  # a removed member keeps heartbeating until it learns it was removed
            if self.known and mid not in self.warned:
                self.warned.append(mid)
                if len(self.warned) > _HINT_MAX:
                    del self.warned[0]
                self._anom(row, "unknown_member", f"heartbeat of member {mid} the model does not know")
            m = self._add_member(mid, ts, cid=row[CID], inferred=True, joined=False)
            if g is not None and m[M_CGEN] is None:
                m[M_CGEN] = g
                m[M_FIRST] = m[M_LAST] = g
        if g is not None and self.gen is not None and g > self.gen and g > self.hb_gap:
            self.hb_gap = g
            self._anom(
                row, "generation_gap", f"heartbeat with generation {g} ahead of the model's {self.gen}"
            )

    # ------------------------------------------------------------------ client evidence
    def _client_member(self, row: tuple) -> str | None:
        """The member a client line is about: its member id; else the member last seen with the same
        client id in the same log file (one consumer instance); else the member last seen with that
        client id anywhere - unless several current members share it (every JVM numbers its
        consumers ``consumer-<group>-1``, ``-2`` ...), which makes the line ambiguous."""
        mid = row[MID]
        cid = row[CID]
        sf = row[SF]
        giid = row[GIID]
        if cid and (giid or mid):
            self._client_evidence(mid, giid, cid)
        if mid:
            if cid:
                self.cid_map[cid] = mid
                if sf:
                    self.cid_map[f"{sf}\x1f{cid}"] = mid
            return mid
        if cid:
            if sf:
                cand = self.cid_map.get(f"{sf}\x1f{cid}")
                if cand is not None:
                    return cand
            cand = self.cid_map.get(cid)
            if cand is not None and sum(1 for m in self.members.values() if m[M_CID] == cid) <= 1:
                return cand
        return None

    def _client_evidence(self, mid: str | None, giid: str | None, cid: str) -> None:
        """A client line names its client id with its member id and/or group.instance.id: fill the
        client id of the member(s) it names (static members' ids do not encode the client id).
        Client lines never give the client's host (the host they show is the coordinator's)."""
        if giid and self.giid_cid.get(giid) != cid:
            self.giid_cid[giid] = cid
            if len(self.giid_cid) > _GONE_MAX:
                self.giid_cid.pop(next(iter(self.giid_cid)))
        for m in (self.members.get(mid) if mid else None, self.gone.get(mid) if mid else None):
            if m is not None and not m[M_CID]:
                m[M_CID] = cid
        if giid:
            for m in self.members.values():
                if m[M_GIID] == giid and not m[M_CID]:
                    m[M_CID] = cid
        for r in (self.reb, self.last_reb):
            if r is None or r["cc"] is not None or not r["cm"]:
                continue
            if r["cm"] == mid or (giid and r["cg"] == giid):
                r["cc"] = cid
                if r is self.last_reb and r.get("out"):
                    # the culprit's client logged after the rebalance ended: report it again (same id)
                    self._reemit(r)

    def _c_coordinator(self, row: tuple) -> None:
        c = _int(row[COORD])
        if c is not None:
            self.coordinator = c
            if self.reb is not None and self.reb["coord"] is None:
                self.reb["coord"] = c

    def _c_trigger(self, row: tuple) -> None:
        kind = row[KIND]
        ts = row[TS]
        mid = self._client_member(row)
        cid = row[CID]
        reason = row[REASON]
        if kind == "poll_timeout":
            info = CauseInfo("poll_timeout_leave", mid)
        elif kind == "heartbeat_failed":
            err = (row[ERR] or "").upper()
            if "UNKNOWN_MEMBER" in err:
                info = CauseInfo("session_timeout", mid)
            elif "REBALANCE_IN_PROGRESS" in err or "REBALANCING" in err:
                info = CauseInfo("unknown", follow=True)
            else:
                return
        elif kind == "leave_sent":
            info = classify_client_reason(reason, mid)
            if info.follow or info.cause == "unknown":
                info = CauseInfo("member_leave", mid)
        elif kind == "partitions_revoked":
            info = CauseInfo("unknown", follow=True)
        elif kind == "join_sent" and self.state in (S, E, None) and (cid or mid):
            known = bool(mid and mid in self.members)
            # a new consumer: its member id comes with its "Successfully joined" line
            info = CauseInfo("unknown", follow=True) if known else CauseInfo("new_member", None)
        else:
            info = classify_client_reason(reason, mid)
        leaving = (
            info.cause in ("poll_timeout_leave", "member_leave", "session_timeout")
            and kind != "rejoin_requested"
        )
        weak = info.cause == "session_timeout" and kind != "leave_sent"
        if info.cause in ("poll_timeout_leave", "member_leave"):
            self._hint(ts, mid, info.cause)
            if cid:
                self._hint(ts, "client:" + cid, info.cause)
        if not info.follow and info.cause != "unknown":
            self._signal(ts, info.cause, info.member_id or mid)
        if self.broker_seen:
            if info.cause == "poll_timeout_leave":
                self._late_poll_timeout(ts, mid, cid)
            return
        # ---- client-only reconstruction
        r = self.reb
        lc = self.last_close
        if (
            r is None
            and lc is not None
            and self.state == S
            and mid in self.members
            and self.members[mid][M_CGEN] is not None
            and self.members[mid][M_CGEN] < lc[1]
            and ts - lc[0] <= self.settings.clock_skew_tolerance_ms
            and kind not in ("leave_sent", "poll_timeout")
        ):
            return  # a straggler of the rebalance that just completed (its clock or logging lags)
        if r is None:
            if self.state in (S, E, None) and not (kind == "heartbeat_failed" and self.state == E):
                r = self._reb_new(ts, self.gen, start_unknown=False, inferred=True)
                self._client_cause(r, info, cid, weak, row[SF])
                self._set_state(row, PR, inferred=True)
        else:
            if (
                (r["cause"] == "unknown" or (r.get("weak") and not weak))
                and not info.follow
                and info.cause != "unknown"
            ):
                self._client_cause(r, info, cid, weak, row[SF])
            if self.state == CR and kind in _CLIENT_ROUND and self._rejoins_current(kind, mid):
                self._set_state(row, PR, inferred=True)
        if leaving and mid and mid in self.members:
            end = {"poll_timeout_leave": "poll_timeout_leave", "member_leave": "leave"}.get(
                info.cause, "session_timeout"
            )
            self._end(row, mid, end, inferred=True)
            if not self.members and self.state == PR and self.reb is not None:
                self.gen = (self.gen + 1) if self.gen is not None else None
                self.reb["jr"] += 1
                self._set_state(row, E, inferred=True)
                self._close(row, "ended_empty", 0)

    def _late_poll_timeout(self, ts: int, mid: str | None, cid: str | None) -> None:
        """A client's poll-timeout line logged (by its clock) just after the broker removed the member
        on LeaveGroup: the leave was a poll-timeout leave. Refines the open rebalance and re-emits
        the member's session (same key) with the corrected end reason."""
        window = self.settings.signal_window_ms
        r = self.reb
        if (
            r is not None
            and r["cause"] == "member_leave"
            and r["start"] is not None
            and 0 <= ts - r["start"] <= window
            and ((mid and r["cm"] == mid) or (not mid and cid and r["cc"] == cid))
        ):
            r["cause"] = "poll_timeout_leave"
        target = mid if mid else (r["cm"] if r is not None and r["cause"] == "poll_timeout_leave" else None)
        g = self.gone.get(target) if target else None
        if g is not None and len(g) > 8 and g[8] == "leave" and 0 <= ts - g[3] <= window:
            g[8] = "poll_timeout_leave"
            self._ss.append(
                MemberSession(
                    self.group_id, target, g[2], g[0], g[1], g[4], g[3], g[5], g[6], g[8], bool(g[7])
                )
            )

    def _client_cause(
        self, r: dict, info: CauseInfo, cid: str | None, weak: bool = False, sf: str | None = None
    ) -> None:
        if info.cause == "metadata_change" and info.member_id and info.member_id == self.leader:
            info = CauseInfo("leader_rejoin", info.member_id, client_reason=info.client_reason)
        """Set a client-inferred rebalance's cause. ``weak`` causes (a member learning from an
        UNKNOWN_MEMBER_ID error that it was removed - possibly long before) give way to a later
        decisive signal, e.g. the same consumer rejoining as a new member."""
        if info.follow or info.cause == "unknown":
            sig = self.signal
            if (
                sig is not None
                and r["start"] is not None
                and r["start"] - sig[0] <= self.settings.signal_window_ms
            ):
                self._set_cause(r, sig[1], sig[2])
            r["follow"] = True
            return
        mid = info.member_id
        self._set_cause(
            r, info.cause, mid, cid=cid if not mid or mid == self.cid_map.get(cid or "") else None
        )
        r["reason"] = info.client_reason
        r["weak"] = weak
        r["cf"] = sf  # the culprit consumer's log file (its member id may come later)

    def _c_joined(self, row: tuple) -> None:
        ts = row[TS]
        g = _int(row[GEN])
        mid = self._client_member(row)
        cid = row[CID]
        if not mid and cid and not self.broker_seen:
            mid = cid  # 2.x "Successfully joined group with generation N" has no member id
            self.cid_map[cid] = mid
        if (
            self.broker_seen
            and g is not None
            and self.gen is not None
            and abs(g - self.gen) > 2
            and not (mid and mid in self.members)
        ):
            # a client claims a generation the broker's lines contradict (more than the couple of join
            # rounds that client/broker clock skew can explain): do not trust its membership
            self._anom(
                row, "generation_gap", f"client joined generation {g} while the broker is at {self.gen}"
            )
            return
        if row[PROTO]:
            self.protocol = row[PROTO]
            if self.reb is not None and self.reb["proto"] is None:
                self.reb["proto"] = row[PROTO]
        self._c_coordinator(row)
        if mid:
            new = mid not in self.members
            m = self._add_member(mid, ts, cid=cid, giid=row[GIID], inferred=not self.broker_seen)
            if g is not None:
                m[M_CGEN] = g
                m[M_LAST] = g if m[M_LAST] is None else max(m[M_LAST], g)
                if m[M_FIRST] is None:
                    m[M_FIRST] = g
            r = self.reb
            if (
                new
                and r is not None
                and ((r["cause"] == "unknown" and r["follow"]) or r.get("weak"))
                and not self.broker_seen
            ):
                self._set_cause(r, "new_member", mid, cid=cid)
                r["weak"] = False
            late = r is None and not self.broker_seen
            if late:
                r = self.last_reb  # the culprit's own "joined" may be logged after the end
            if (
                r is not None
                and r["cm"] is None
                and r["cc"]
                and r["cc"] == cid
                and r.get("cf") in (None, row[SF])
            ):
                r["cm"] = mid
                if late and r.get("out"):
                    self._reemit(r)
        if self.broker_seen:
            if g is not None and self.gen is not None and g > self.gen:
                self.client_ahead = [g, ts]
            return
        if g is None:
            return
        st = self.state
        if st == PR or (st == CR and self.gen is not None and g > self.gen):
            r = self.reb or self._start_unknown(row, self.gen, inferred=True)
            if self.gen is not None and g > self.gen + 1:
                self._anom(
                    row, "generation_gap", f"client joined generation {g}, model expected {self.gen + 1}"
                )
            if self.gen is None or g > self.gen:
                self.gen = g
                r["jr"] += 1
                r["ng"] = g
                self._set_state(row, CR, inferred=True)
        elif st in (S, E, None, D) and (self.gen is None or g > self.gen):
            r = self._start_unknown(row, self.gen, inferred=True)
            if self.gen is not None and g > self.gen + 1:
                self._anom(
                    row, "generation_gap", f"client joined generation {g}, model expected {self.gen + 1}"
                )
            self.gen = g
            r["jr"] = 1
            r["ng"] = g
            r["proto"] = row[PROTO] or self.protocol
            self._set_state(row, CR, inferred=True)

    def _check_client_ahead(self, row: tuple) -> None:
        ca = self.client_ahead
        if ca is None or self.gen is None or self.gen < ca[0]:
            return
        self.client_ahead = None
        lag = row[TS] - ca[1]
        if lag > self.settings.clock_skew_tolerance_ms:
            self._anom(
                row, "clock_skew",
                f"client logged generation {ca[0]} {lag} ms before the broker completed it",
            )  # fmt: skip

    def _rejoins_current(self, kind: str, mid: str | None) -> bool:
        """Client-only, CompletingRebalance: does this line start another join round? A leave does;
        a (re)join only from a member already in the new generation (its own "Successfully
        joined" was logged) - other members' joins belong to the round that is completing (client
        clocks and log timing put them on either side of the others' "joined" lines)."""
        if kind in ("leave_sent", "poll_timeout"):
            return True
        m = self.members.get(mid) if mid else None
        return m is not None and m[M_CGEN] == self.gen

    def _c_end_signal(self, row: tuple, mid: str | None) -> None:
        """Client-only: a successful sync (or an assignment) of the generation the open rebalance
        produced means the group reached Stable: Kafka answers SyncGroup only once the leader's
        assignment is stored."""
        r = self.reb
        if self.broker_seen or r is None or self.state not in (CR, PR) or r["ng"] is None:
            return
        g = _int(row[GEN])
        if g is None and mid and mid in self.members:
            g = self.members[mid][M_CGEN]
        if g is None or g != self.gen or g != r["ng"]:
            return
        self._set_state(row, S, inferred=True)
        masg = self.masg
        after = len(masg["a"]) if masg and masg["a"] is not None and masg["g"] == self.gen else None
        if after is None:
            after = sum(1 for m in self.members.values() if m[M_CGEN] == self.gen) or len(self.members)
        self._close(row, "completed", after)

    def _c_synced(self, row: tuple) -> None:
        mid = self._client_member(row)
        if row[PROTO]:
            self.protocol = row[PROTO]
        if mid and mid in self.members:
            g = _int(row[GEN])
            if g is not None:
                self.members[mid][M_CGEN] = g
        self._c_end_signal(row, mid)

    def _c_leader_assigned(self, row: tuple) -> None:
        ts = row[TS]
        mid = self._client_member(row)
        g = _int(row[GEN])
        if g is None and mid and mid in self.members:
            g = self.members[mid][M_CGEN]
        if g is None:
            g = self.gen
        if mid:
            self.leader = mid
            if self.reb is not None and (self.reb["lead"] is None or not self.broker_seen):
                self.reb["lead"] = mid
        amap = _assignment_map(row[ASSIGN])
        if g is not None and amap:
            table: dict[str, list[list[Any]]] = {}
            for m, parts in amap.items():
                tps = [tp for tp in map(_split_tp, parts) if tp is not None]
                table[m] = [list(tp) for tp in tps]
                self._assignment_rows(g, m, tps, "leader_map", ts)
            masg = self.masg
            if masg is None or masg["g"] != g:
                masg = self.masg = {"g": g, "a": None, "m": {}, "src": {}}
            masg["a"] = table
            for m in table:
                # the leader's map lists the generation's members: pending ids in it joined
                if (
                    m not in self.members
                    and m not in self.gone
                    and (not self.broker_seen or m in self.pending)
                ):
                    mm = self._add_member(m, ts, inferred=True, joined=False)
                    mm[M_CGEN] = mm[M_FIRST] = mm[M_LAST] = g
            if self.settings.track_generations:
                self.generations.append({"gen": g, "ts": ts, "assignment": table})
            self._emit_skew(g, table, ts)
        self._c_end_signal(row, mid)
        if not self.broker_seen and amap and g == self.gen:
            # client-only: members of an older generation missing from the leader's map were removed;
            # with nobody logging a leave, that is a session timeout (a crash, a long pause)
            missing = [m for m in self.members if m not in amap and (self.members[m][M_CGEN] or -1) < g]
            r = self.reb if self.reb is not None and self.reb["ng"] == g else None
            lr = self.last_reb
            if r is None and lr is not None and lr.get("ng") == g and lr.get("inf"):
                r = lr
            timeout = r is not None and bool(missing) and r["cause"] == "unknown"
            if timeout:
                self._set_cause(r, "session_timeout", missing[0])  # type: ignore[arg-type]
                if r is lr:
                    self._reemit(lr)
            for m in missing:
                self._end(row, m, "session_timeout" if timeout else "not_rejoined", inferred=True)

    def _c_member_assignment(self, row: tuple) -> None:
        ts = row[TS]
        mid = self._client_member(row)
        if not mid:
            return
        m = self.members.get(mid)
        g = _int(row[GEN])
        if g is None and m is not None:
            g = m[M_CGEN]
        if g is None:
            g = self.gen
        kind = row[KIND]
        masg = self.masg
        if g is not None:
            if masg is None or masg["g"] != g:
                masg = self.masg = {"g": g, "a": None, "m": {}, "src": {}}
            src = masg["src"]
            # "Adding newly assigned partitions" lists only the added partitions under the
            # cooperative protocol; "Notifying assignor about the new Assignment" is the full set
            cooperative = "cooperative" in (self.protocol or "")
            usable = kind == "assignment_notified" or (src.get(mid) is None and not cooperative)
            if usable and src.get(mid) != "assignment_notified":
                tps = [tp for tp in map(_split_tp, row[PARTS] or ()) if tp is not None]
                masg["m"][mid] = [list(tp) for tp in tps]
                src[mid] = kind
                self._assignment_rows(g, mid, tps, "member", ts)
        self._c_end_signal(row, mid)
        self._maybe_member_skew(row)

    def _maybe_member_skew(self, row: tuple) -> None:
        masg = self.masg
        if (
            masg is None
            or masg["a"] is not None
            or masg["g"] != self.gen
            or self.state != S
            or not self.members
        ):
            return
        if all(mid in masg["m"] for mid in self.members):
            self._emit_skew(masg["g"], masg["m"], row[TS])

    def _assignment_rows(self, g: int, mid: str, tps: list[tuple[str, int]], source: str, ts: int) -> None:
        by_topic: dict[str, list[int]] = {}
        for t, p in tps:
            by_topic.setdefault(t, []).append(p)
        for t in sorted(by_topic):
            self._as.append(AssignmentRow(self.group_id, g, mid, t, tuple(sorted(by_topic[t])), source, ts))

    def _emit_skew(self, g: int, table: dict[str, list[list[Any]]], ts: int) -> None:
        if not self.settings.emit_skew or self.skew_gen == g:
            return
        try:
            from coordinator_core.skew import skew_rows
        except ImportError:  # the skew module is optional for the replay
            return
        cur = {m: [(t, p) for t, p in tps] for m, tps in table.items()}
        prev = {m: [(t, p) for t, p in tps] for m, tps in self.prev_asg.items()} if self.prev_asg else None
        self._sk.extend(skew_rows(self.group_id, g, cur, prev, self.protocol, ts))
        self.prev_asg = table
        self.skew_gen = g

    def _c_enrich(self, row: tuple) -> None:
        self._client_member(row)
        if row[COORD] is not None and row[KIND] == "coordinator_discovered":
            self._c_coordinator(row)

    def _c_noop(self, row: tuple) -> None:
        return


_HANDLERS: dict[str, Any] = {
    # broker
    "rebalance_prepared": GroupReplay._b_prepared,
    "join_completed": GroupReplay._b_join_completed,
    "group_empty": GroupReplay._b_group_empty,
    "assignment_received": GroupReplay._b_assignment,
    "group_stable": GroupReplay._b_group_stable,
    "group_loaded": GroupReplay._b_loaded,
    "group_unloaded": GroupReplay._b_unloaded,
    "group_dead": GroupReplay._b_dead,
    "member_id_required": GroupReplay._b_member_id_required,
    "member_added": GroupReplay._b_member_added,
    "member_left": GroupReplay._b_member_left,
    "member_session_expired": GroupReplay._b_expired,
    "pending_member_expired": GroupReplay._b_pending_expired,
    "sync_expired": GroupReplay._b_sync_expired,
    "members_removed_not_joined": GroupReplay._b_not_joined,
    "static_member_replaced": GroupReplay._b_static_replaced,
    "static_member_fenced": GroupReplay._b_fenced,
    "static_member_no_rebalance": GroupReplay._b_noop,
    "leader_reelected": GroupReplay._b_leader,
    "no_member_rejoined": GroupReplay._b_noop,
    "rejoin_unexpected_state": GroupReplay._b_noop,
    # client
    "coordinator_discovered": GroupReplay._c_coordinator,
    "coordinator_lost": GroupReplay._c_noop,
    "rejoin_requested": GroupReplay._c_trigger,
    "join_sent": GroupReplay._c_trigger,
    "partitions_revoked": GroupReplay._c_trigger,
    "heartbeat_failed": GroupReplay._c_trigger,
    "leave_sent": GroupReplay._c_trigger,
    "poll_timeout": GroupReplay._c_trigger,
    "joined": GroupReplay._c_joined,
    "synced": GroupReplay._c_synced,
    "leader_assigned": GroupReplay._c_leader_assigned,
    "assignment_notified": GroupReplay._c_member_assignment,
    "partitions_assigned": GroupReplay._c_member_assignment,
    "heartbeat_sent": GroupReplay._c_noop,  # reached only through _slow for odd rows
    "join_failed": GroupReplay._c_enrich,
    "sync_failed": GroupReplay._c_enrich,
    "partitions_lost": GroupReplay._c_enrich,
    "generation_reset": GroupReplay._c_enrich,
    "offset_commit_failed": GroupReplay._c_enrich,
    "kip848": GroupReplay._c_noop,
    "other": GroupReplay._c_noop,
}
