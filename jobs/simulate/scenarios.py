"""Incidents injected into the simulated cluster, mixed by seed over time.

Each group gets an incident every ``incident_gap_ms`` on average (exponential gaps), drawn by weight
from the scenario table the driver is given (:data:`jobs.simulate.scenario_table.TABLE`: what each
scenario does, its weight, its planner) or cycled from ``SimConfig.scenarios``. An incident starts
only when its group is quiet (no open rebalance); the next one is planned after the incident's
expected duration (what its planner, one method here per classic scenario, returns) plus a gap, so
incidents of one group do not overlap and the truth's cause is the injected one. The table's
``consumer`` rows go to :class:`~jobs.simulate.consumer_scenarios.ConsumerScenarios` for the
consumer-protocol groups.

Cooperative-sticky groups add the two-phase revocation follow-up rebalance to any of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from jobs.simulate.client import Client
from jobs.simulate.cluster import GroupSim, Simulation
from jobs.simulate.consumer_scenarios import ConsumerScenarios

if TYPE_CHECKING:
    from jobs.simulate.consumer_sim import ConsumerDriver
    from jobs.simulate.scenario_types import Scenario


class ScenarioDriver:
    """Plans incidents per group from ``table`` and executes them through the clients (the seeded mix:
    ``Simulation.run(ScenarioDriver(sim, TABLE))``)."""

    def __init__(self, sim: Simulation, table: Sequence[Scenario]) -> None:
        self.sim = sim
        self.rng = sim.rng
        self.table = tuple(table)
        self._classic = {s.name: s for s in self.table if s.protocol == "classic"}
        self.names = self._cycled(sim.cfg.scenarios)
        self._epochs: dict[int, int] = {}

    def _cycled(self, names: tuple[str, ...] | None) -> list[str] | None:
        """``SimConfig.scenarios`` checked against the table; the ones classic groups play."""
        if names is None:
            return None
        known = tuple(self._classic)
        if self.sim.cfg.protocol != "classic":
            known = tuple(dict.fromkeys(s.name for s in self.table))
            # classic groups of a mixed run play the classic ones (or stay steady)
            names = tuple(n for n in names if n in self._classic or n not in known) or ("steady",)
        bad = [n for n in names if n not in known]
        if bad:
            raise ValueError(f"unknown scenario(s) {bad}; expected some of {known}")
        return list(names) if names else None

    # ------------------------------------------------------------------ planning
    def bootstrap(self) -> None:
        """Start the clients, plan each group's first incident and each broker's offsets cleanup."""
        sim, r = self.sim, self.rng
        t0 = sim.cfg.start_ms
        for grp in sim.groups:
            if grp.protocol != "classic":
                continue  # consumer-protocol groups: jobs.simulate.consumer_scenarios
            base = t0 + r.randint(0, 5000)
            for c in grp.clients:
                sim.at(base + r.randint(0, 15000), c.start)
            sim.at(t0 + 60_000 + self._gap(), self.incident, grp)
        for b in sim.brokers.values():
            sim.at(t0 + r.randint(1, 600_000), self.cleanup, b)
        if sim.consumer is not None:
            self._bootstrap_consumer(sim.consumer)

    def _bootstrap_consumer(self, driver: ConsumerDriver) -> None:
        """The consumer-protocol groups' incidents (``driver``: the simulation's KIP-848 driver); in a
        mixed run, group 0's conversion a third in."""
        sim = self.sim
        consumer = ConsumerScenarios(driver, [s for s in self.table if s.protocol == "consumer"])
        consumer.bootstrap()
        if sim.cfg.protocol == "mixed" and sim.groups[0].protocol == "classic":
            at = sim.cfg.start_ms + max(120_000, (sim.end_ms - sim.cfg.start_ms) // 3)
            sim.at(at, consumer.convert, sim.groups[0])

    def _gap(self) -> int:
        mean = self.sim.cfg.incident_gap_ms
        return int(self.rng.expovariate(1.0 / mean)) if mean > 0 else 0

    def _pick(self, grp: GroupSim) -> str:
        if self.names is not None:
            name = self.names[grp.scenario_i % len(self.names)]
            grp.scenario_i += 1
            return name
        total = sum(s.weight for s in self._classic.values())
        x = self.rng.uniform(0, total)
        for s in self._classic.values():
            x -= s.weight
            if x <= 0:
                return s.name
        return "steady"

    def _quiet(self, grp: GroupSim) -> bool:
        sim = self.sim
        if sim.truth.is_open(grp.name) or grp.name in sim.truth.episodes:
            return False
        return all(c.state in ("stable", "down") and not c.stuck and not c.paused for c in grp.clients)

    def incident(self, grp: GroupSim, _b=None) -> None:
        sim = self.sim
        if grp.protocol != "classic":
            return  # converted to the consumer protocol
        if not self._quiet(grp):
            sim.later(15_000, self.incident, grp)
            return
        name = self._pick(grp)
        grp.scenario = name
        duration = self._classic[name].planner(self, grp)
        sim.later(max(duration, 1000), self._clear_scenario, grp, name)
        sim.later(max(duration, 1000) + 10_000 + self._gap(), self.incident, grp)

    def _clear_scenario(self, grp: GroupSim, name: str) -> None:
        if grp.scenario == name:
            grp.scenario = None

    def cleanup(self, b, _x=None) -> None:
        """The periodic offsets cleanup line of each broker (every 10 minutes)."""
        sim = self.sim
        removed = self.rng.choice((0, 0, 1, 3, 12))
        if removed or sim.cfg.dialect == "java4":
            sim.broker_lines(b, [sim.renderer.cleanup_line(b.id, removed, self.rng.randint(0, 4))])
        sim.later(600_000, self.cleanup, b)

    # ------------------------------------------------------------------ helpers
    def _alive(self, grp: GroupSim) -> list[Client]:
        return [c for c in grp.clients if c.alive and c.state == "stable"]

    def _victim(self, grp: GroupSim) -> Client | None:
        alive = self._alive(grp)
        return self.rng.choice(alive) if alive else None

    def _new_slot(self, grp: GroupSim) -> Client:
        c = Client(self.sim, grp, len(grp.clients))
        grp.clients.append(c)
        return c

    # ------------------------------------------------------------------ scenarios (return duration)
    def steady(self, grp: GroupSim) -> int:
        return 0

    def scale_out(self, grp: GroupSim) -> int:
        sim = self.sim
        alive = self._alive(grp)
        if len(alive) >= 2 * sim.cfg.members:
            extra = [c for c in alive if c.slot >= sim.cfg.members]
            victim = extra[-1] if extra else alive[-1]
            victim.close()
            return 30_000
        down = [c for c in grp.clients if not c.alive]
        c = down[0] if down else self._new_slot(grp)
        c.start()
        return 30_000

    def _down_or_new(self, grp: GroupSim) -> Client:
        down = [c for c in grp.clients if not c.alive and c not in grp.hold_on_completing]
        return down[0] if down else self._new_slot(grp)

    def graceful_leave(self, grp: GroupSim) -> int:
        c = self._victim(grp)
        if c is None:
            return 0
        c.close()
        back = (
            (grp.session_ms + self.rng.randint(10_000, 40_000))
            if grp.static
            else self.rng.randint(20_000, 90_000)
        )
        self.sim.later(back, c.start)
        return back + 30_000

    def crash(self, grp: GroupSim) -> int:
        c = self._victim(grp)
        if c is None:
            return 0
        c.die()
        back = grp.session_ms + self.rng.randint(10_000, 60_000)
        self.sim.later(back, c.start)
        return back + 30_000

    def poll_timeout(self, grp: GroupSim) -> int:
        if grp.static:
            return self.crash(grp)
        c = self._victim(grp)
        if c is None:
            return 0
        blocked = 300_000 + self.rng.randint(5_000, 60_000)
        c.get_stuck(blocked)
        return blocked + 30_000

    def rolling_restart(self, grp: GroupSim) -> int:
        sim, r = self.sim, self.rng
        alive = self._alive(grp)
        if not alive:
            return 0
        sim.truth.begin_episode(grp.name, "rolling_restart", sim.now)
        t = 0
        for c in alive:
            down = r.randint(5_000, 15_000)
            sim.later(t, c.close)
            sim.later(t + down, c.start)
            t += down + r.randint(15_000, 30_000)
        sim.truth.episodes[grp.name]["done_after"] = sim.now + t
        sim.later(t + 120_000, self._end_episode, grp)
        return t + 30_000

    def flapping(self, grp: GroupSim) -> int:
        sim, r = self.sim, self.rng
        c = self._victim(grp)
        if c is None:
            return 0
        sim.truth.begin_episode(grp.name, "flapping", sim.now)
        t = 0
        for _ in range(r.randint(3, 5)):
            sim.later(t, c.pause, grp.session_ms + r.randint(2_000, 8_000))
            t += grp.session_ms + r.randint(40_000, 80_000)
        sim.truth.episodes[grp.name]["done_after"] = sim.now + t
        sim.later(t + 120_000, self._end_episode, grp)
        return t + 30_000

    def _end_episode(self, grp: GroupSim, _b=None) -> None:
        self.sim.truth.end_episode(grp.name)

    def join_during_completing(self, grp: GroupSim) -> int:
        if len(self._alive(grp)) + 2 > 2 * self.sim.cfg.members:
            return self.scale_out(grp)  # at the size limit: shut an extra host down instead
        a = self._down_or_new(grp)
        grp.hold_on_completing.append(a)  # reserve a while picking b
        b = self._down_or_new(grp)
        grp.hold_on_completing[-1] = b
        a.start()
        b.start()
        return 40_000

    def failover(self, grp: GroupSim) -> int:
        sim, r = self.sim, self.rng
        p = grp.partition
        if p in sim.loading:
            return 0
        same = [g for g in sim.groups if g.partition == p and g.protocol == "classic"]
        if any(sim.truth.is_open(g.name) for g in same):
            return 0
        old = sim.brokers[sim.leader_of[p]]
        others = [b for b in sim.brokers if b != old.id]
        if not others:
            return 0
        new = sim.brokers[r.choice(others)]
        epoch = self._epochs.get(p, r.randint(3, 20)) + 1
        self._epochs[p] = epoch
        names = [g.name for g in same if old.coord.group(g.name) is not None]
        snapshots = {n: old.coord.group(n) for n in names}
        before, after = sim.renderer.unload_lines(old.id, p, epoch, len(names))
        sim.loading.add(p)
        sim.leader_of[p] = new.id
        sim.broker_lines(old, before)
        for n in names:
            out = old.coord.unload_group(sim.now, n)
            sim._handle(old, out, ("coordinator_move", None))
        sim.broker_lines(old, after)
        took = r.randint(20, 900)
        sim.later(took, self._load, (p, old.id, new.id, epoch, names, snapshots, took, sim.now))
        return took + 20_000

    def _load(self, args, _b=None) -> None:
        p, old_id, new_id, epoch, names, snapshots, took, started = args
        sim = self.sim
        new = sim.brokers[new_id]
        before, after = sim.renderer.load_lines(new_id, p, epoch, took, len(names))
        sim.broker_lines(new, before)
        for n in names:
            out = new.coord.load_group(sim.now, n, snapshots[n])
            sim._handle(new, out, ("coordinator_move", None))
        sim.broker_lines(new, after)
        sim.loading.discard(p)
        sim._after(new)
        sim.truth.coordinator_move({
            "partition": p, "from_broker": old_id, "to_broker": new_id, "epoch": epoch,
            "unload_ms": started + sim.brokers[old_id].skew, "load_ms": sim.now + new.skew, "groups": names,
        })  # fmt: skip

    def static_restart(self, grp: GroupSim) -> int:
        if not grp.static:
            return self.graceful_leave(grp)
        c = self._victim(grp)
        if c is None:
            return 0
        c.close()
        back = self.rng.randint(3_000, min(20_000, grp.session_ms // 2))
        self.sim.later(back, c.start)
        return back + 30_000
