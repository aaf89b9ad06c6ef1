"""What each consumer of a group *did*, independent of the group's settings: the input of the
re-simulation what-if (:mod:`jobs.whatif`).

A replay's records say what the coordinator decided (a member was removed after its session
timeout, left on a poll timeout, was replaced...). Those decisions depend on the settings. The
behaviour underneath does not: a process started and stopped, froze for 50 s, blocked in its poll
loop for 7 minutes. :func:`infer_behaviour` reads the behaviour back from one group's replay
(sessions, rebalances, assignments and the client-side evidence) under the settings that were in
force (:class:`GroupSettings`); the re-simulation then plays the same behaviour under other
settings.

Behaviour actions (:data:`ACTIONS`), per consumer (one process slot: a host, a static instance, or
a client id):

* ``start`` - a consumer process starts (it discovers the coordinator and joins);
* ``close`` - graceful shutdown (revocation, LeaveGroup for a dynamic member);
* ``crash`` - the process is gone without a word (heartbeats stop);
* ``pause`` - the whole process freezes for ``duration_ms`` (GC, VM or container freeze): no
  heartbeats, no polls;
* ``stall`` - the poll loop blocks for ``duration_ms`` (slow record handler); the heartbeat thread
  keeps running.

How each ending of a member session is read back (``session.end_reason`` → behaviour):

===================  =============================================================================
``leave``            ``close`` at the leave; a later session of the same consumer is a ``start``
                     (a restart) at its join
``poll_timeout_leave``  ``stall`` from ``leave - max.poll.interval.ms`` until the consumer's next
                     join (it rejoins as soon as its poll loop runs again)
``session_timeout``  the last heartbeat was at ``expiry - session.timeout.ms``, the process stopped
                     half a heartbeat interval later (on average). A ``crash`` when the
                     consumer joined again *before* the expiry (a new process) or when its client
                     log shows a new process discovering the coordinator before the rejoin;
                     otherwise a ``pause`` until the rejoin. Never back: a ``crash``.
``not_rejoined``,    the member did not rejoin a rebalance in time: its poll loop was blocked
``sync_timeout``     (``stall``) from that rebalance's start until its next join
``replaced``         a static member restarted: ``close`` at its last own evidence (else a
                     restart gap before the replacement), ``start`` at the replacement's join
===================  =============================================================================

Consumers present when the evidence begins (no line shows them joining) start before the window
(``present_at_start``).
Pauses shorter than the session timeout and stalls shorter than ``max.poll.interval.ms`` leave no
trace in INFO logs and cannot be inferred: a prediction for *shorter* timeouts than the logged ones
is blind to them (the accuracy benchmark measures this).

Pure: records and events in, behaviour out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from coordinator_core.events import Event
from coordinator_core.records import AssignmentRow, MemberSession, Rebalance

__all__ = [
    "ACTIONS", "Action", "ConsumerBehaviour", "GroupBehaviour", "GroupSettings", "infer_behaviour",
]  # fmt: skip

ACTIONS = ("start", "close", "crash", "pause", "stall")

#: a process start is seen this long before its member's first JoinGroup (discovery + join)
JOIN_LATENCY_MS = 250
#: a static member's restart gap when no evidence dates its shutdown
RESTART_GAP_MS = 5_000
#: consumers present at the start are started this long before the window
WARMUP_MS = 60_000
#: group.consumer.heartbeat.interval.ms default (KIP-848)
CONSUMER_HEARTBEAT_MS = 5_000


@dataclass(frozen=True, slots=True)
class Action:
    ts: int
    kind: str  # one of ACTIONS
    duration_ms: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ACTIONS:
            raise ValueError(f"unknown behaviour action {self.kind!r}; expected one of {ACTIONS}")


@dataclass(slots=True)
class ConsumerBehaviour:
    """One consumer process slot and what it did, in time order."""

    consumer: str
    client_id: str | None = None
    group_instance_id: str | None = None
    host: str | None = None
    subscription: tuple[str, ...] = ()
    present_at_start: bool = False
    actions: list[Action] = field(default_factory=list)


@dataclass(slots=True)
class GroupBehaviour:
    """A group's consumers and the world around them over ``[start_ts, end_ts]``."""

    group_id: str
    start_ts: int
    end_ts: int
    #: partitions per subscribed topic (at the start)
    topics: dict[str, int]
    consumers: list[ConsumerBehaviour]
    #: (ts, topic, new partition count): partitions added while the group ran
    topic_changes: list[tuple[int, str, int]] = field(default_factory=list)
    #: coordinator moves (the group's ``__consumer_offsets`` partition changed leader)
    coordinator_moves: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GroupSettings:
    """The settings a what-if changes, with Kafka's names and the Java client's defaults.

    ``static_consumers``: consumers (behaviour keys) that set ``group.instance.id``; ``"*"`` = all.
    ``assignor``: the consumer's ``partition.assignment.strategy`` (classic) - ``range``,
    ``roundrobin``, ``sticky`` or ``cooperative-sticky``. ``group_protocol``: ``classic`` or
    ``consumer`` (KIP-848, server-side assignment).
    """

    session_timeout_ms: int = 45_000
    max_poll_interval_ms: int = 300_000
    heartbeat_interval_ms: int = 3_000
    static_consumers: frozenset[str] = frozenset()
    assignor: str = "range"
    group_initial_rebalance_delay_ms: int = 3_000
    group_protocol: str = "classic"

    @property
    def heartbeat_ms(self) -> int:
        """The interval members heartbeat at: the client's ``heartbeat.interval.ms`` (classic), the
        broker's ``group.consumer.heartbeat.interval.ms`` (consumer protocol, 5 s by default)."""
        return CONSUMER_HEARTBEAT_MS if self.group_protocol == "consumer" else self.heartbeat_interval_ms

    def is_static(self, consumer: str) -> bool:
        return "*" in self.static_consumers or consumer in self.static_consumers

    def with_changes(self, **changes) -> GroupSettings:
        return replace(self, **changes)


# --------------------------------------------------------------------------------- inference


def consumer_key(s: MemberSession, client_logs: Mapping[str, str] | None = None) -> str:
    """The process slot of a member session: its static instance, else the client log file that
    names its member id (one process, one file: the steadiest evidence), else its host, else its
    client id (Java's default ``consumer-<group>-1`` is shared by every process of a group:
    :func:`consumer_slots` splits those)."""
    log = client_logs.get(s.member_id) if client_logs else None
    return s.group_instance_id or (f"log:{log}" if log else None) or s.host or s.client_id or s.member_id


def client_log_files(events: Iterable[Event]) -> dict[str, str]:
    """member id -> the client log file whose lines name it (one process writes one file)."""
    out: dict[str, str] = {}
    for e in events:
        if e.side != "broker" and e.member_id and e.source_file:
            out.setdefault(e.member_id, e.source_file)
    return out


def _silent_since(last: MemberSession, settings) -> int | None:
    """Since when a slot's last session's process is silent: its end; an expired member's last
    heartbeat; a replaced static member at once (its replacement is its successor)."""
    if last.end_reason == "replaced":
        return -(2**62)
    if last.left_ts is None:
        return None
    return last.left_ts - (settings.session_timeout_ms if last.end_reason == "session_timeout" else 0)


def consumer_slots(sessions: list[MemberSession], client_logs: Mapping[str, str], settings) -> dict[str, list]:
    """Sessions per process slot. A session (in join order) follows a slot that shares one of its
    identities (static instance, client log file, host, client id; never a different instance or log
    file) and whose process went silent before it joined - the most recently silent one: the end of
    its last session, an expired member's last heartbeat (a crashed process restarted before its
    old member expired), a replaced static member at once. Otherwise it opens a new slot (Java's
    default client id ``consumer-<group>-1`` is shared by every process: overlapping sessions are
    different processes)."""
    slots: dict[str, list[MemberSession]] = {}
    idents: dict[str, dict[str, set[str]]] = {}
    for s in sessions:
        mine = _identities(s, client_logs)
        best = None
        for k, theirs in idents.items():
            if not _compatible(mine, theirs):
                continue
            silent = _silent_since(slots[k][-1], settings)
            if silent is not None and (s.joined_ts is None or silent <= s.joined_ts) and (
                best is None or silent > best[0]
            ):
                best = (silent, k)
        if best is None:
            key = consumer_key(s, client_logs)
            n = sum(1 for k in slots if k == key or k.startswith(key + "#"))
            best = (0, key if n == 0 else f"{key}#{n + 1}")
            slots[best[1]] = []
            idents[best[1]] = {}
        slots[best[1]].append(s)
        for kind, values in mine.items():
            idents[best[1]].setdefault(kind, set()).update(values)
    return slots


def _identities(s: MemberSession, client_logs: Mapping[str, str]) -> dict[str, set[str]]:
    log = client_logs.get(s.member_id)
    found = {"instance": s.group_instance_id, "log": log, "host": s.host, "client": s.client_id}
    return {k: {v} for k, v in found.items() if v}


def _compatible(mine: dict[str, set[str]], theirs: dict[str, set[str]]) -> bool:
    for kind in ("instance", "log"):  # one process: one instance id, one log file
        if kind in mine and kind in theirs and not (mine[kind] & theirs[kind]):
            return False
    return any(mine[k] & theirs.get(k, set()) for k in mine)


def infer_behaviour(
    group_id: str,
    sessions: Iterable[MemberSession],
    rebalances: Iterable[Rebalance],
    assignments: Iterable[AssignmentRow] = (),
    events: Iterable[Event] = (),
    settings: GroupSettings | None = None,
    *,
    start_ts: int | None = None,
    end_ts: int | None = None,
) -> GroupBehaviour:
    """Read one group's behaviour back from its replay (see the module docstring for the rules)."""
    settings = settings or GroupSettings()
    sessions = sorted(sessions, key=lambda s: (s.joined_ts is not None, s.joined_ts or 0, s.member_id))
    rebs = sorted((r for r in rebalances if r.start_ts is not None), key=lambda r: r.start_ts or 0)  # all dated
    events = list(events)
    times = [t for s in sessions for t in (s.joined_ts, s.left_ts) if t is not None]
    times += [t for r in rebs for t in (r.start_ts, r.end_ts) if t is not None]
    times += [e.ts for e in events if e.ts is not None]
    if start_ts is None:
        start_ts = min(times) if times else 0
    if end_ts is None:
        end_ts = max(times) if times else start_ts
    topics, changes = _topics(assignments, rebs)
    discovered = _discoveries(events)
    by_consumer = consumer_slots(sessions, client_log_files(events), settings)
    consumers = [
        _consumer(key, ss, rebs, discovered, settings, start_ts, end_ts, tuple(topics))
        for key, ss in by_consumer.items()
    ]
    moves = sorted({e.ts for e in events if e.kind == "group_loaded" and e.ts is not None})
    # a consumer that joins as the evidence begins starts (a join latency) before it: the window
    # opens with that start, so the group's first rebalance is inside it
    starts = [c.actions[0].ts for c in consumers if not c.present_at_start and c.actions]
    start_ts = min([start_ts, *starts])
    return GroupBehaviour(group_id, start_ts, end_ts, topics, consumers, changes, moves[1:])


def _topics(
    assignments: Iterable[AssignmentRow], rebs: list[Rebalance]
) -> tuple[dict[str, int], list[tuple[int, str, int]]]:
    """Partitions per topic at the start (the first generation that shows the topic), and each
    growth later: ``(the start of the metadata_change rebalance that produced the generation, topic,
    new size)``."""
    per_gen: dict[int, dict[str, int]] = {}
    for a in assignments:
        if not a.partitions:
            continue
        cur = per_gen.setdefault(a.generation, {})
        cur[a.topic] = max(cur.get(a.topic, 0), max(a.partitions) + 1)
    first: dict[str, int] = {}
    size: dict[str, int] = {}
    changes: list[tuple[int, str, int]] = []
    for gen in sorted(per_gen):
        for topic, n in sorted(per_gen[gen].items()):
            if topic not in size:
                first[topic] = size[topic] = n
            elif n > size[topic]:
                size[topic] = n
                grew = [
                    r.start_ts for r in rebs
                    if r.new_generation == gen and r.cause == "metadata_change" and r.start_ts is not None
                ]  # fmt: skip
                if grew:
                    changes.append((grew[0], topic, n))
                elif not any(t == topic for _, t, _ in changes):
                    first[topic] = n  # a fuller view of the same topic (partial assignment lines)
    return first, changes


def _discoveries(events: list[Event]) -> dict[str, list[int]]:
    """Client-side process starts (a coordinator discovery) per client id and host."""
    out: dict[str, list[int]] = {}
    for e in events:
        if e.kind == "coordinator_discovered" and e.ts is not None:
            for k in (getattr(e, "client_id", None), getattr(e, "group_instance_id", None)):
                if k:
                    out.setdefault(k, []).append(e.ts)
    return out


def _consumer(
    key: str,
    sessions: list[MemberSession],
    rebs: list[Rebalance],
    discovered: Mapping[str, list[int]],
    settings: GroupSettings,
    start_ts: int,
    end_ts: int,
    subscription: tuple[str, ...],
) -> ConsumerBehaviour:
    first = sessions[0]
    c = ConsumerBehaviour(
        key, first.client_id, first.group_instance_id, first.host, subscription,
        # no line shows it joining (the replay dates it by its first evidence): it was there before
        present_at_start=first.joined_ts is None or first.joined_ts < start_ts or first.inferred,
    )  # fmt: skip
    acts = c.actions
    joined = first.joined_ts
    if joined is None or c.present_at_start:
        acts.append(Action(start_ts - WARMUP_MS, "start"))
    else:
        acts.append(Action(joined - JOIN_LATENCY_MS, "start"))
    for i, s in enumerate(sessions):
        nxt = sessions[i + 1] if i + 1 < len(sessions) else None
        acts.extend(_ending(s, nxt, rebs, discovered, settings))
    acts.sort(key=lambda a: a.ts)
    return c


def _ending(
    s: MemberSession,
    nxt: MemberSession | None,
    rebs: list[Rebalance],
    discovered: Mapping[str, list[int]],
    settings: GroupSettings,
) -> list[Action]:
    """The actions a session's end (and the consumer's next session) stand for."""
    back = nxt.joined_ts if nxt is not None else None
    restart = [Action(back - JOIN_LATENCY_MS, "start")] if back is not None else []
    left, why = s.left_ts, s.end_reason
    if left is None or why in ("open", "group_dead", "fenced", "pending_expired"):
        return restart if why != "open" else []
    if why == "leave":
        return [Action(left, "close"), *restart]
    if why == "poll_timeout_leave":
        since = left - settings.max_poll_interval_ms
        return [Action(since, "stall", _until(back, since, left))]
    if why == "session_timeout":
        # the session expires one timeout after the last heartbeat; the process stopped somewhere in
        # the heartbeat interval after it: the middle is the unbiased guess
        stopped = left - settings.session_timeout_ms + settings.heartbeat_ms // 2
        if back is None or back < left or _new_process(s, discovered, stopped, back):
            if restart:  # a crash is never dated after its successor's start (a restart within a heartbeat)
                stopped = min(stopped, restart[0].ts - 1)
            return [Action(stopped, "crash"), *restart]
        return [Action(stopped, "pause", max(1, back - JOIN_LATENCY_MS - stopped))]
    if why in ("not_rejoined", "sync_timeout"):
        began = max((r.start_ts for r in rebs if r.start_ts is not None and r.start_ts <= left), default=left)
        return [Action(began, "stall", _until(back, began, left))]
    if why == "replaced":
        if back is None:
            return []
        return [Action(back - RESTART_GAP_MS, "close"), *restart]
    return restart


def _until(back: int | None, since: int, left: int) -> int:
    """A stall's length: until the consumer's next join (the poll loop runs again), else past ``left``."""
    end = back - 5 if back is not None else left + 1
    return max(1, end - since)


def _new_process(s: MemberSession, discovered: Mapping[str, list[int]], since: int, back: int) -> bool:
    keys = [k for k in (s.client_id, s.group_instance_id) if k]
    return any(since < t <= back for k in keys for t in discovered.get(k, ()))
