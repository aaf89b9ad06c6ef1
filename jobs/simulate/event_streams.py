"""Synthetic evidence streams of one group, as rows in ``EVENT_FIELDS`` order (what the job feeds
the core): the core benchmark's (``benchmarks/bench_core.py``) and the replay tests' corpora.

* :func:`heartbeat_stream`: a stable group of M members on their own client log files, heartbeating
  every 3 s, with a rebalance (broker + client lines) every ~10 minutes - DEBUG heartbeats are > 99 %
  of the lines, like real client logs at DEBUG;
* :func:`storm_stream`: back-to-back rebalances of the same group (members leaving and joining, poll
  timeouts, every rebalance 4-6 broker lines and ~6 client lines per member), no heartbeats.
"""

from __future__ import annotations

from typing import Any

from coordinator_core.events import EVENT_FIELDS

F = {n: i for i, n in enumerate(EVENT_FIELDS)}
N = len(EVENT_FIELDS)
#: the group id of every stream
G = "orders-consumer"


def row(ts: int, kind: str, side: str, file: str, line: int, **kw: Any) -> list[Any]:
    """One event row of group :data:`G` (``kw``: its other fields by name)."""
    r: list[Any] = [None] * N
    r[F["ts"]], r[F["group_id"]], r[F["kind"]], r[F["side"]] = ts, G, kind, side
    r[F["source_file"]], r[F["line_no"]] = file, line
    for k, v in kw.items():
        r[F[k]] = v
    return r


class Stream:
    """Rows appended in order, each file's lines numbered from 1."""

    def __init__(self) -> None:
        self.rows: list[list[Any]] = []
        self.lines: dict[str, int] = {}

    def add(self, ts: int, kind: str, side: str, file: str, **kw: Any) -> None:
        n = self.lines.get(file, 0) + 1
        self.lines[file] = n
        self.rows.append(row(ts, kind, side, file, n, **kw))

    def tuples(self) -> list[tuple]:
        return [tuple(r) for r in self.rows]


def member(i: int) -> str:
    return f"consumer-{G}-{i}-0a6f1b2c-1234-4abc-9def-{i:012d}"


def rebalance(s: Stream, ts: int, gen: int, members: list[str], culprit: str, reason: str) -> None:
    """One rebalance of ``members`` from generation ``gen``: prepare, join, sync (broker and client lines)."""
    _prepare_rebalance(s, ts, gen, members, reason)
    _complete_join(s, ts, gen, members)
    _sync(s, ts, gen, members)


def _prepare_rebalance(s: Stream, ts: int, gen: int, members: list[str], reason: str) -> None:
    """PreparingRebalance: the broker's line, then every member rejoins, revokes and sends its JoinGroup."""
    s.add(ts, "rebalance_prepared", "broker", "server.log", generation=gen, coordinator=1, reason=reason)
    for i, m in enumerate(members):
        f = f"client-{m[-4:]}.log"
        s.add(
            ts + 5 + i,
            "rejoin_requested",
            "client",
            f,
            member_id=m,
            client_id=m[:-37],
            reason="group is already rebalancing",
        )
        s.add(
            ts + 6 + i, "partitions_revoked", "client", f, member_id=m, client_id=m[:-37], partitions=("t-0",)
        )
        s.add(ts + 7 + i, "join_sent", "client", f, member_id=m, client_id=m[:-37])


def _complete_join(s: Stream, ts: int, gen: int, members: list[str]) -> None:
    """CompletingRebalance: the join completes, every member joined, the leader computes the assignment."""
    s.add(
        ts + 300,
        "join_completed",
        "broker",
        "server.log",
        generation=gen + 1,
        member_count=len(members),
        coordinator=1,
    )
    amap = tuple((m, (f"t-{i}", f"u-{i}")) for i, m in enumerate(members))
    for m in members:
        f = f"client-{m[-4:]}.log"
        s.add(
            ts + 301,
            "joined",
            "client",
            f,
            member_id=m,
            generation=gen + 1,
            protocol="range",
            client_id=m[:-37],
        )
    s.add(
        ts + 302,
        "leader_assigned",
        "client",
        f"client-{members[0][-4:]}.log",
        member_id=members[0],
        generation=gen + 1,
        assignment=amap,
    )


def _sync(s: Stream, ts: int, gen: int, members: list[str]) -> None:
    """SyncGroup: the broker receives the leader's assignment, every member syncs and gets its partitions."""
    s.add(
        ts + 310,
        "assignment_received",
        "broker",
        "server.log",
        member_id=members[0],
        generation=gen + 1,
        member_count=len(members),
        coordinator=1,
    )
    for i, m in enumerate(members):
        f = f"client-{m[-4:]}.log"
        s.add(ts + 311, "synced", "client", f, member_id=m, generation=gen + 1, protocol="range")
        s.add(ts + 312, "assignment_notified", "client", f, member_id=m, partitions=(f"t-{i}", f"u-{i}"))


def heartbeat_stream(n_rows: int, n_members: int = 30) -> list[tuple]:
    s = Stream()
    members = [member(i) for i in range(n_members)]
    ts, gen = 1_700_000_000_000, 0
    s.add(ts, "group_loaded", "broker", "server.log", generation=gen, member_count=n_members, coordinator=1)
    for m in members:
        s.add(
            ts,
            "member_added",
            "broker",
            "server.log",
            member_id=m,
            client_id=m[:-37],
            host="/10.0.0.1",
            coordinator=1,
        )
    next_reb = ts + 600_000
    while len(s.rows) < n_rows:
        ts += 3000
        if ts >= next_reb:
            rebalance(
                s,
                ts,
                gen,
                members,
                members[1],
                f"Leader {members[0]} re-joining group during Stable; client reason: not provided",
            )
            gen += 1
            next_reb = ts + 600_000
            ts += 1000
        for i, m in enumerate(members):
            s.add(ts + i, "heartbeat_sent", "client", f"client-{m[-4:]}.log", member_id=m, generation=gen)
    return s.tuples()[:n_rows]


def storm_stream(n_rows: int, n_members: int = 8) -> list[tuple]:
    s = Stream()
    members = [member(i) for i in range(n_members)]
    ts, gen, k = 1_700_000_000_000, 0, n_members
    s.add(ts, "group_loaded", "broker", "server.log", generation=gen, member_count=n_members, coordinator=1)
    for m in members:
        s.add(ts, "member_added", "broker", "server.log", member_id=m, coordinator=1)
    while len(s.rows) < n_rows:
        ts += 2000
        gone = members.pop(0)
        s.add(ts, "poll_timeout", "client", f"client-{gone[-4:]}.log", member_id=gone)
        s.add(
            ts,
            "leave_sent",
            "client",
            f"client-{gone[-4:]}.log",
            member_id=gone,
            reason="consumer poll timeout has expired.",
        )
        s.add(
            ts + 1,
            "member_left",
            "broker",
            "server.log",
            member_id=gone,
            reason="consumer poll timeout has expired.",
            coordinator=1,
        )
        rebalance(
            s,
            ts + 1,
            gen,
            members,
            gone,
            f"Removing member {gone} on LeaveGroup; client reason: consumer poll timeout has expired.",
        )
        gen += 1
        new = member(k)
        k += 1
        members.append(new)
        s.add(ts + 1000, "member_id_required", "broker", "server.log", member_id=new, coordinator=1)
        rebalance(
            s,
            ts + 1001,
            gen,
            members,
            new,
            f"Adding new member {new} with group instance id None; client reason: need to re-join with the given member-id: {new}",
        )
        gen += 1
    return s.tuples()[:n_rows]
