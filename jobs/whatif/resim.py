"""Re-simulation: play one group's behaviour (:mod:`coordinator_core.behaviour`) under chosen
settings through the cluster simulator, and measure what the group would have lived through.

The simulator (:mod:`jobs.simulate`) drives the request-level coordinator model
(:class:`coordinator_core.coordinator.GroupCoordinator`, or the KIP-848 consumer-group model for
``group_protocol="consumer"``) with real client state machines: heartbeat thread, poll loop,
JoinGroup/SyncGroup, the assignors. Here it runs one group with no log output and its ground truth
kept in memory; :class:`ScriptDriver` replaces the seeded incident mix with the behaviour's actions.

:func:`resimulate` returns an :class:`Outcome`: the rebalances that *start* inside the behaviour's
window (consumers present at the start join during a warm-up before it), the paused time (the sum of
the rebalances' durations: an eager group stops consuming for the whole rebalance), the
partition-time paused (eager: every assigned partition for the whole rebalance; cooperative-sticky:
the partitions that moved; consumer protocol: each revoked partition until it is reassigned) and
the partitions moved between consecutive assignments (owners compared per consumer, so a static
member that keeps its partitions across a restart moves none).
"""

from __future__ import annotations

from dataclasses import dataclass

from coordinator_core.behaviour import WARMUP_MS, GroupBehaviour, GroupSettings
from coordinator_core.placement import partition_for
from coordinator_core.skew import moved_partitions
from jobs.simulate.client import Client
from jobs.simulate.cluster import OFFSETS_PARTITIONS, GroupSim, SimConfig, Simulation
from jobs.simulate.consumer_sim import ConsumerClient, ConsumerDriver
from jobs.simulate.scenarios import ScenarioDriver

__all__ = ["Outcome", "SimRebalance", "resimulate"]

#: after the window, time left for the last rebalances to finish
SETTLE_MS = 120_000
#: the broker version the classic coordinator model runs (Java GroupMetadataManager of 4.0)
CLASSIC_DIALECT = "java4"


@dataclass(frozen=True, slots=True)
class SimRebalance:
    start_ts: int
    end_ts: int | None
    duration_ms: int | None
    cause: str
    culprit: str | None  # consumer key
    paused_partition_ms: int | None


@dataclass(frozen=True, slots=True)
class Outcome:
    settings: GroupSettings
    rebalances: tuple[SimRebalance, ...]
    paused_ms: int
    paused_partition_ms: int | None
    moved_partitions: int | None

    @property
    def rebalance_count(self) -> int:
        return len(self.rebalances)


class ScriptDriver(ScenarioDriver):
    """Executes a :class:`GroupBehaviour` instead of random incidents (one group)."""

    def __init__(self, sim: Simulation, grp: GroupSim, behaviour: GroupBehaviour, clients: dict) -> None:
        super().__init__(sim, ())  # no seeded mix: the behaviour's actions only
        self.grp = grp
        self.behaviour = behaviour
        self.clients = clients  # consumer key -> client

    def bootstrap(self) -> None:
        sim = self.sim
        for b in self.behaviour.consumers:
            for a in b.actions:
                sim.at(max(a.ts, sim.cfg.start_ms), self._act, self.clients[b.consumer], a)
        for ts, topic, n in self.behaviour.topic_changes:
            sim.at(ts, self._grow, (topic, n))
        for ts in self.behaviour.coordinator_moves:
            sim.at(ts, self._move)

    def _act(self, c, a) -> None:
        if a.kind == "start":
            c.start()
        elif a.kind == "close":
            c.close()
        elif a.kind == "crash":
            c.die()
        elif a.kind == "pause":
            c.pause(a.duration_ms)
        else:
            self._stall(c, a.duration_ms)

    def _stall(self, c, duration: int, _b=None) -> None:
        if isinstance(c, Client):
            if c.alive and c.state != "stable" and duration > 100:
                self.sim.later(100, self._stall_later, (c, duration - 100))  # stalls hit the poll loop
                return
            c.get_stuck(duration)
        else:
            c.stall(duration)

    def _stall_later(self, args, _b=None) -> None:
        self._stall(*args)

    def _grow(self, args, _b=None) -> None:
        topic, n = args
        grp = self.grp
        grp.topics[topic] = max(n, grp.topics.get(topic, 0))
        if grp.protocol == "consumer":
            driver = consumer_driver(self.sim)
            driver.set_partitions(driver.groups[grp.name], topic, grp.topics[topic])
            return
        for c in grp.clients:  # the leader sees the new metadata and rejoins
            if c.alive and c.leader:
                c.rejoin_reason = "cached metadata has changed"
                c.rejoin_now(c.incarnation)

    def _move(self, _a=None, _b=None) -> None:
        self.failover(self.grp)


def resimulate(
    behaviour: GroupBehaviour, settings: GroupSettings, *, seed: int = 1, out: str | None = None
) -> Outcome:
    """Play ``behaviour`` under ``settings``; see the module docstring for what is measured.
    ``out``: also write the logs (and truth files) there, as ``python -m jobs.simulate`` does (the
    accuracy benchmark reads them back)."""
    start = behaviour.start_ts - WARMUP_MS - 1_000
    hours = (behaviour.end_ts + SETTLE_MS - start) / 3_600_000
    consumer = settings.group_protocol == "consumer"
    cfg = SimConfig(
        out=out, groups=0, members=0, hours=hours, seed=seed, dialect=CLASSIC_DIALECT, noise_ratio=0.0,
        start_ms=start, protocol="consumer" if consumer else "classic", stack_rate=0.0,
        initial_rebalance_delay_ms=settings.group_initial_rebalance_delay_ms, keep_truth=True,
    )  # fmt: skip
    sim = Simulation(cfg)
    grp = _group(sim, behaviour, settings)
    clients = _clients(sim, grp, behaviour, settings)
    sim.run(ScriptDriver(sim, grp, behaviour, clients))
    return _outcome(sim, grp, behaviour, settings, clients)


def _group(sim: Simulation, behaviour: GroupBehaviour, settings: GroupSettings) -> GroupSim:
    strategies = [settings.assignor]
    grp = GroupSim(
        behaviour.group_id, "app", dict(behaviour.topics) or {"topic": 1}, strategies,
        bool(settings.static_consumers), settings.session_timeout_ms, 0,
    )  # fmt: skip
    grp.partition = partition_for(behaviour.group_id, OFFSETS_PARTITIONS)
    grp.rebalance_ms = settings.max_poll_interval_ms
    grp.heartbeat_ms = settings.heartbeat_interval_ms
    sim.groups.append(grp)
    sim._group_by_name[grp.name] = grp
    if settings.group_protocol == "consumer":
        consumer_driver(sim).add_group(grp, settings.session_timeout_ms, settings.max_poll_interval_ms)
    return grp


def _clients(sim: Simulation, grp: GroupSim, behaviour: GroupBehaviour, settings: GroupSettings) -> dict:
    out: dict[str, Client | ConsumerClient] = {}
    for slot, b in enumerate(behaviour.consumers):
        static = settings.is_static(b.consumer)
        if grp.protocol == "consumer":
            driver = consumer_driver(sim)
            cc = driver.new_client(driver.groups[grp.name])
            cc.instance = (b.group_instance_id or b.consumer) if static else None
            out[b.consumer] = cc
        else:
            c = Client(sim, grp, slot)
            grp.clients.append(c)
            c.instance = (b.group_instance_id or b.consumer) if static else None
            c.client_id = b.client_id or f"consumer-{grp.name}-{slot + 1}"
            out[b.consumer] = c
    return out


def _outcome(
    sim: Simulation, grp: GroupSim, behaviour: GroupBehaviour, settings: GroupSettings, clients: dict
) -> Outcome:
    records = sim.truth.records
    if records is None:
        raise ValueError("the re-simulation reads its truth from memory: a SimConfig with out=None")
    owner = _member_owner(sim, clients)
    lo, hi = behaviour.start_ts, behaviour.end_ts
    total = sum(grp.topics.values())
    assignments = sorted(
        (a for a in records["assignments"] if a["group_id"] == grp.name), key=lambda a: (a["ts_ms"], a["generation"])
    )
    moved_at = _moves(assignments, owner, lo)
    rebs = []
    for r in records["rebalances"]:
        if r["group_id"] != grp.name or not (lo <= r["start_ms"] <= hi):
            continue
        dur = r.get("duration_ms")
        if dur is None:
            dur = max(0, hi + SETTLE_MS - r["start_ms"])
        if r.get("protocol_type") == "consumer":
            ppm = r.get("paused_partition_ms")
        elif grp.cooperative:
            gen = r.get("new_generation")
            ppm = dur * (moved_at.get(gen, 0) if gen is not None else 0)
        else:
            ppm = dur * total
        culprit = r.get("culprit_member_id")
        culprit_key = owner.get(culprit, culprit) if culprit is not None else None
        rebs.append(SimRebalance(r["start_ms"], r.get("end_ms"), dur, r["cause"], culprit_key, ppm))
    rebs.sort(key=lambda r: r.start_ts)
    moved = sum(n for gen, n in moved_at.items() if gen is not None) if assignments else None
    paused_pm = sum(r.paused_partition_ms or 0 for r in rebs)
    return Outcome(settings, tuple(rebs), sum(r.duration_ms or 0 for r in rebs), paused_pm, moved)


def consumer_driver(sim: Simulation) -> ConsumerDriver:
    """The simulation's KIP-848 driver, which a consumer-protocol group needs."""
    if sim.consumer is None:
        raise ValueError("a consumer-protocol group needs a simulation with the KIP-848 driver (SimConfig.protocol)")
    return sim.consumer


def _member_owner(sim: Simulation, clients: dict) -> dict[str, str]:
    """member id -> consumer key (every member id a client ever had)."""
    key_of = {id(c): k for k, c in clients.items()}
    out = {m: key_of[id(c)] for m, c in sim.by_member.items() if id(c) in key_of}
    if sim.consumer is not None:
        for g in sim.consumer.groups.values():
            for m, c in g.member_clients.items():
                if id(c) in key_of:
                    out[m] = key_of[id(c)]
    return out


def _moves(assignments: list[dict], owner: dict[str, str], since: int) -> dict[int, int]:
    """Partitions moved into each generation (from the previous one), owners compared per consumer;
    generations assigned before ``since`` (the warm-up) count as the starting point only."""
    out: dict[int, int] = {}
    prev = None
    for a in assignments:
        cur: dict[str, list[tuple[str, int]]] = {}
        for m, tps in a["assignment"].items():
            k = owner.get(m, m)
            cur.setdefault(k, []).extend(_tp(x) for x in tps)
        if prev is not None and a["ts_ms"] >= since:
            out[a["generation"]] = out.get(a["generation"], 0) + moved_partitions(prev, cur)
        prev = cur
    return out


def _tp(x: str) -> tuple[str, int]:
    t, _, p = x.rpartition("-")
    return t, int(p)
