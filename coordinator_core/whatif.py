"""What-if: how many rebalances (and how much paused time, how many moved partitions) a group would
have had with other settings.

:func:`what_if` replays the evidence as it happened (the *baseline*) and applies these rules to
obtain the *scenario*:

1. **Longer session timeout** (``session_timeout_ms``). A ``session_timeout`` rebalance disappears
   when its culprit came back in time: the member was last alive at ``expiry -
   baseline_session_timeout_ms`` (Kafka expires a member one session timeout after its last
   heartbeat) and the same consumer (same client id, else same host) joined again at most
   ``session_timeout_ms`` after that. With the longer timeout the broker would never have expired
   it, so the rebalance of its rejoin (a ``new_member`` rebalance whose culprit is the returning
   member) disappears as well. A timeout not longer than the baseline changes nothing.
2. **Static membership** (``static_members``: member ids, or ``fnmatch`` patterns of client ids or
   hosts). Static members do not send LeaveGroup, and a static member rejoining a Stable group with an
   unchanged protocol does not trigger a rebalance (KIP-345; reference 1.13). So a restart of a
   chosen member - a ``member_leave``, ``poll_timeout_leave`` or ``session_timeout`` rebalance
   followed by a rejoin of the same consumer within the session timeout (``session_timeout_ms`` if
   given, else the baseline) - causes no rebalance: both the departure's and the rejoin's
   rebalances disappear. (The departure time is the leave for a leave, the last-alive time for an
   expiry.)
3. **Another assignor** (``assignor``: ``range``, ``roundrobin``, ``sticky``, ``cooperative-sticky``).
   Each completed generation's assignment is recomputed with
   :func:`coordinator_core.assignors.assign` over that generation's members (sticky assignors get
   the previous scenario assignment as owned partitions) and partitions moved between consecutive
   generations are counted with :func:`coordinator_core.skew.moved_partitions`. The baseline count
   uses the leader's logged assignments when every generation has one, else the group's logged
   protocol (``range`` when unknown) recomputed the same way. ``partitions_per_topic`` defaults to
   the partitions seen in logged assignments; ``subscriptions`` (member id or client id -> topics)
   defaults to every member subscribing to every topic.

Rules 1 and 2 change the rebalance count and the paused milliseconds; rule 3 changes partition
movement (it is applied to the baseline generations). Pure: evidence in, numbers out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from coordinator_core.assignors import STRATEGIES, assign
from coordinator_core.events import Event
from coordinator_core.records import MemberSession, Rebalance
from coordinator_core.replay import GroupReplay, ReplaySettings
from coordinator_core.skew import moved_partitions

__all__ = ["WhatIfResult", "what_if"]

_DEPARTURES = ("member_leave", "poll_timeout_leave", "session_timeout")


@dataclass(frozen=True)
class WhatIfResult:
    """Baseline vs scenario. ``removed`` lists the rebalance ids that disappear in the scenario."""

    baseline_rebalances: int
    scenario_rebalances: int
    baseline_paused_ms: int
    scenario_paused_ms: int
    baseline_moved_partitions: int | None = None
    scenario_moved_partitions: int | None = None
    removed: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def rebalances_saved(self) -> int:
        return self.baseline_rebalances - self.scenario_rebalances

    @property
    def paused_ms_saved(self) -> int:
        return self.baseline_paused_ms - self.scenario_paused_ms


@dataclass
class _Group:
    rebalances: list[Rebalance]
    sessions: list[MemberSession]
    generations: list[dict[str, Any]]
    protocol: str | None


def _replay(group_id: str, events: list[Event], settings: ReplaySettings) -> _Group:
    r = GroupReplay(group_id, settings)
    for e in sorted(events, key=lambda e: e.sort_key()):
        r.feed(e)
    out = r.flush(final=True)
    rebs: dict[str, Rebalance] = {}
    for x in out.rebalances:
        rebs[x.rebalance_id] = x
    sess: dict[tuple, MemberSession] = {}
    for s in out.sessions:
        sess[(s.member_id, s.joined_ts)] = s
    return _Group(list(rebs.values()), list(sess.values()), list(r.generations), r.protocol)


def _same_consumer(a: MemberSession, b: MemberSession) -> bool:
    if a.client_id and b.client_id:
        return a.client_id == b.client_id
    return bool(a.host) and a.host == b.host


def _is_static(s: MemberSession | None, rb: Rebalance, patterns: set[str]) -> bool:
    ids = {rb.culprit_member_id, rb.culprit_client_id, rb.culprit_host}
    if s is not None:
        ids |= {s.member_id, s.client_id, s.host}
    ids.discard(None)
    return any(p == i or fnmatchcase(str(i), p) for p in patterns for i in ids)


def _rejoin(
    sessions: list[MemberSession], gone: MemberSession, since: int, within: int
) -> MemberSession | None:
    """The first later session of the same consumer that joined at most ``within`` ms after ``since``."""
    best: MemberSession | None = None
    best_ts = 0
    for s in sessions:
        joined = s.joined_ts
        if s is gone or joined is None or gone.left_ts is None:
            continue
        if joined < gone.left_ts or joined - since > within:
            continue
        if _same_consumer(gone, s) and (best is None or joined < best_ts):
            best, best_ts = s, joined
    return best


def _rejoin_rebalance(rebs: list[Rebalance], back: MemberSession) -> Rebalance | None:
    for rb in rebs:
        if rb.cause == "new_member" and rb.culprit_member_id == back.member_id:
            return rb
    return None


def _removed(
    g: _Group, session_timeout_ms: int | None, static: set[str] | None, baseline_timeout: int
) -> set[str]:
    removed: set[str] = set()
    ended = {
        (s.member_id, s.left_ts): s for s in g.sessions if s.end_reason != "open" and s.left_ts is not None
    }
    #: member id -> (left_ts, session) of its ended sessions
    by_member: dict[str, list[tuple[int, MemberSession]]] = {}
    for (member_id, left), s in ended.items():
        by_member.setdefault(member_id, []).append((left, s))
    longer = session_timeout_ms is not None and session_timeout_ms > baseline_timeout
    timeout = session_timeout_ms if session_timeout_ms is not None else baseline_timeout
    for rb in g.rebalances:
        if rb.rebalance_id in removed or rb.cause not in _DEPARTURES or not rb.culprit_member_id:
            continue
        cands = [
            (left, s)
            for left, s in by_member.get(rb.culprit_member_id, ())
            if rb.start_ts is None or left <= rb.start_ts
        ]
        if not cands:
            continue
        left, gone = max(cands, key=lambda c: c[0])
        since = left - baseline_timeout if rb.cause == "session_timeout" else left
        back = None
        if longer and rb.cause == "session_timeout":
            back = _rejoin(g.sessions, gone, since, timeout)  # longer: timeout is session_timeout_ms
        if back is None and static and _is_static(gone, rb, static):
            back = _rejoin(g.sessions, gone, since, timeout)
        if back is None:
            continue
        removed.add(rb.rebalance_id)
        other = _rejoin_rebalance(g.rebalances, back)
        if other is not None:
            removed.add(other.rebalance_id)
    return removed


def _paused(rebs: Iterable[Rebalance]) -> int:
    return sum(r.duration_ms or 0 for r in rebs)


def _generations(
    g: _Group,
) -> tuple[list[tuple[int, list[str]]], dict[int, dict[str, list[tuple[str, int]]]]]:
    members: dict[int, list[str]] = {}
    logged: dict[int, dict[str, list[tuple[str, int]]]] = {}
    for entry in g.generations:
        gen = entry.get("gen")
        if gen is None:
            continue
        if "assignment" in entry:
            logged[gen] = {m: [(t, p) for t, p in tps] for m, tps in entry["assignment"].items()}
        if entry.get("outcome") == "completed" and entry.get("members"):
            members[gen] = list(entry["members"])
    for gen, amap in logged.items():
        members.setdefault(gen, sorted(amap))
    return sorted(members.items()), logged


def _moves(gens: list[tuple[int, list[str]]], strategy: str, subs_for: Any, ppt: Mapping[str, int]) -> int:
    prev: dict[str, list[tuple[str, int]]] | None = None
    prev_gen = None
    total = 0
    for gen, members in gens:
        subs = {m: subs_for(m) for m in members}
        cur = assign(strategy, subs, ppt, owned=prev, generation=prev_gen)
        if prev is not None:
            total += moved_partitions(prev, cur)
        prev, prev_gen = {m: list(v) for m, v in cur.items()}, gen
    return total


def _replay_settings(settings: ReplaySettings | None) -> ReplaySettings:
    """The caller's settings with generation tracking on and skew off."""
    base_settings = settings or ReplaySettings()
    return ReplaySettings(**{**base_settings.__dict__, "track_generations": True, "emit_skew": False})


def _by_group(events: Iterable[Event]) -> dict[str, list[Event]]:
    """The events of each group id, in their given order."""
    groups: dict[str, list[Event]] = {}
    for e in events:
        groups.setdefault(e.group_id, []).append(e)
    return groups


def _partitions_per_topic(
    given: Mapping[str, int] | None, logged: Mapping[int, Mapping[str, list[tuple[str, int]]]]
) -> dict[str, int]:
    """``given``, else the partition counts seen in the logged assignments."""
    ppt = dict(given or {})
    if not ppt:
        for amap in logged.values():
            for tps in amap.values():
                for t, p in tps:
                    ppt[t] = max(ppt.get(t, 0), p + 1)
    return ppt


def _subscriptions_for(
    g: _Group, subscriptions: Mapping[str, Iterable[str]] | None, ppt: Mapping[str, int]
) -> Callable[[str], list[str]]:
    """Member id -> topics: from ``subscriptions`` by member id or client id, else every topic."""
    cid = {s.member_id: s.client_id for s in g.sessions}

    def subs_for(m: str) -> list[str]:
        if subscriptions:
            for key in (m, cid.get(m)):
                if key is not None and key in subscriptions:
                    return list(subscriptions[key])
        return sorted(ppt)

    return subs_for


def _assignor_moves(
    g: _Group,
    assignor: str,
    partitions_per_topic: Mapping[str, int] | None,
    subscriptions: Mapping[str, Iterable[str]] | None,
) -> tuple[int | None, int] | None:
    """(baseline, scenario) moved partitions of one group (rule 3); ``None`` when nothing is known.
    The baseline is ``None`` when some generation's assignment is not logged and the logged
    protocol is not an assignor this model knows (a custom one, or Connect's ``sessioned``)."""
    gens, logged = _generations(g)
    ppt = _partitions_per_topic(partitions_per_topic, logged)
    if not ppt or not gens:
        return None
    subs_for = _subscriptions_for(g, subscriptions, ppt)
    if gens and all(gen in logged for gen, _ in gens):
        seq = [logged[gen] for gen, _ in gens]
        base_moves: int | None = sum(moved_partitions(a, b) for a, b in zip(seq, seq[1:]))
    else:
        logged_assignor = g.protocol or "range"
        base_moves = _moves(gens, logged_assignor, subs_for, ppt) if logged_assignor in STRATEGIES else None
    return base_moves, _moves(gens, assignor, subs_for, ppt)


def what_if(
    events: Iterable[Event],
    *,
    session_timeout_ms: int | None = None,
    static_members: set[str] | None = None,
    assignor: str | None = None,
    partitions_per_topic: Mapping[str, int] | None = None,
    subscriptions: Mapping[str, Iterable[str]] | None = None,
    baseline_session_timeout_ms: int = 45000,
    settings: ReplaySettings | None = None,
) -> WhatIfResult:
    """Compare the logged baseline with a scenario (rules in the module docstring). ``events`` may
    hold several groups; the result sums over them."""
    st = _replay_settings(settings)
    groups = _by_group(events)
    notes: list[str] = []
    if session_timeout_ms is not None and session_timeout_ms <= baseline_session_timeout_ms:
        notes.append("session timeout not longer than the baseline: no session-timeout rebalance disappears")
    b_count = s_count = b_paused = s_paused = 0
    removed_all: list[str] = []
    b_moved: int | None = None
    s_moved: int | None = None
    for gid in sorted(groups):
        g = _replay(gid, groups[gid], st)
        removed = _removed(g, session_timeout_ms, static_members, baseline_session_timeout_ms)
        b_count += len(g.rebalances)
        s_count += len(g.rebalances) - len(removed)
        b_paused += _paused(g.rebalances)
        s_paused += _paused(r for r in g.rebalances if r.rebalance_id not in removed)
        removed_all += [r.rebalance_id for r in g.rebalances if r.rebalance_id in removed]
        if assignor is None:
            continue
        moves = _assignor_moves(g, assignor, partitions_per_topic, subscriptions)
        if moves is None:
            notes.append(f"{gid}: no partitions or generations known; assignor scenario skipped")
            continue
        if moves[0] is None:
            notes.append(f"{gid}: logged assignor {g.protocol!r} is not modelled and not every generation's "
                         "assignment is logged; baseline moves not counted")  # fmt: skip
        else:
            b_moved = (b_moved or 0) + moves[0]
        s_moved = (s_moved or 0) + moves[1]
    return WhatIfResult(
        b_count, s_count, b_paused, s_paused, b_moved, s_moved, tuple(removed_all), tuple(notes)
    )
