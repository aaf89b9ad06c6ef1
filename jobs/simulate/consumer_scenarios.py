"""Incidents of consumer-protocol groups (and the classic -> consumer conversion of a mixed run).

What each scenario does (its planner here, one method per scenario returning the incident's expected
duration), its weight and the README's table: the ``consumer`` rows of
:data:`jobs.simulate.scenario_table.TABLE`, injected by
:class:`~jobs.simulate.scenarios.ScenarioDriver`.

The conversion (``--protocol mixed``): one classic group is upgraded mid-run. When it is quiet,
a new consumer-protocol member joins: the coordinator converts the group (members keep their
ids and partitions, the group epoch is the classic generation) and the join bumps the epoch
(``new_member``). Then the classic members are replaced one by one (``member_leave`` /
``new_member``). Simplification: the converted classic members heartbeat like consumer members
and write no client lines (Kafka keeps them on JoinGroup/SyncGroup until they restart).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from jobs.simulate.consumer_sim import REBALANCE_MS, SESSION_MS

if TYPE_CHECKING:
    from jobs.simulate.cluster import GroupSim
    from jobs.simulate.consumer_sim import ConsumerClient, ConsumerDriver, ConsumerGroupSim
    from jobs.simulate.scenario_types import Scenario


class ConsumerScenarios:
    """Plans incidents per consumer group and runs them through the clients."""

    def __init__(self, drv: ConsumerDriver, table: Sequence[Scenario]) -> None:
        self.drv = drv
        self.sim = drv.sim
        self.rng = drv.sim.rng
        self._scenarios = {s.name: s for s in table}
        names = self.sim.cfg.scenarios  # the consumer ones are cycled, the classic ones ignored
        self.names = [n for n in names or () if n in self._scenarios] or None
        self._i: dict[str, int] = {}

    # ------------------------------------------------------------------ planning
    def bootstrap(self) -> None:
        sim, r = self.sim, self.rng
        t0 = sim.cfg.start_ms
        for g in list(self.drv.groups.values()):
            base = t0 + r.randint(0, 5000)
            for _ in range(sim.cfg.members):
                sim.at(base + r.randint(0, 15000), self.drv.new_client(g).start)
            sim.at(t0 + 60_000 + self._gap(), self.incident, g)

    def _gap(self) -> int:
        mean = self.sim.cfg.incident_gap_ms
        return int(self.rng.expovariate(1.0 / mean)) if mean > 0 else 0

    def _pick(self, g: ConsumerGroupSim) -> str:
        if self.names is not None:
            i = self._i.get(g.grp.name, 0)
            self._i[g.grp.name] = i + 1
            return self.names[i % len(self.names)]
        x = self.rng.uniform(0, sum(s.weight for s in self._scenarios.values()))
        for s in self._scenarios.values():
            x -= s.weight
            if x <= 0:
                return s.name
        return "steady"

    def quiet(self, g: ConsumerGroupSim) -> bool:
        if g.truth.is_open() or g.model.metadata_pending:
            return False
        return all((c.state == "STABLE" and not c.busy) or not c.alive for c in g.clients)

    def incident(self, g: ConsumerGroupSim, _b=None) -> None:
        if not self.quiet(g):
            self.sim.later(15_000, self.incident, g)
            return
        name = self._pick(g)
        g.truth.scenario = g.grp.scenario = name
        duration = max(self._scenarios[name].planner(self, g), 1000)
        self.sim.later(duration, self._clear, (g, name))
        self.sim.later(duration + 10_000 + self._gap(), self.incident, g)

    def _clear(self, args, _b=None) -> None:
        g, name = args
        if g.truth.scenario == name:
            g.truth.scenario = g.grp.scenario = None

    # ------------------------------------------------------------------ helpers
    def _alive(self, g: ConsumerGroupSim) -> list[ConsumerClient]:
        return [c for c in g.clients if c.alive and c.state == "STABLE"]

    def _victim(self, g: ConsumerGroupSim) -> ConsumerClient | None:
        alive = self._alive(g)
        return self.rng.choice(alive) if alive else None

    def _down_or_new(self, g: ConsumerGroupSim) -> ConsumerClient:
        down = [c for c in g.clients if not c.alive and not c.quiet]
        return down[0] if down else self.drv.new_client(g)

    # ------------------------------------------------------------------ scenarios (return duration)
    def steady(self, g: ConsumerGroupSim) -> int:
        return 0

    def scale_out(self, g: ConsumerGroupSim) -> int:
        alive = self._alive(g)
        if len(alive) >= 2 * self.sim.cfg.members:
            alive[-1].close()
            return SESSION_MS + 30_000
        self._down_or_new(g).start()
        return 30_000

    def graceful_leave(self, g: ConsumerGroupSim) -> int:
        c = self._victim(g)
        if c is None:
            return 0
        c.close()
        back = (
            SESSION_MS + self.rng.randint(10_000, 40_000) if c.instance else self.rng.randint(20_000, 90_000)
        )
        self.sim.later(back, c.start)
        return back + 30_000

    def crash(self, g: ConsumerGroupSim) -> int:
        c = self._victim(g)
        if c is None:
            return 0
        c.die()
        back = SESSION_MS + self.rng.randint(10_000, 60_000)
        self.sim.later(back, c.start)
        return back + 30_000

    def slow_revocation(self, g: ConsumerGroupSim) -> int:
        alive = self._alive(g)
        if not alive or len(alive) >= 2 * self.sim.cfg.members:
            return self.crash(g)
        slow = REBALANCE_MS + self.rng.randint(20_000, 60_000)
        g.slow_ms = slow  # the first member asked to revoke is slow
        self._down_or_new(g).start()
        return slow + 60_000

    def rolling_restart(self, g: ConsumerGroupSim) -> int:
        sim, r = self.sim, self.rng
        t = 0
        for c in self._alive(g):
            down = r.randint(5_000, 15_000)
            sim.later(t, c.close)
            sim.later(t + down, c.start)
            t += down + r.randint(15_000, 30_000)
        return t + 30_000

    def static_restart(self, g: ConsumerGroupSim) -> int:
        c = self._victim(g)
        if c is None or not c.instance:
            return self.graceful_leave(g)
        c.close()
        back = self.rng.randint(3_000, 20_000)
        self.sim.later(back, c.start)
        return back + 30_000

    def partitions_added(self, g: ConsumerGroupSim) -> int:
        topic = self.rng.choice(sorted(g.model.topics))
        self.drv.set_partitions(g, topic, g.model.topics[topic] + self.rng.choice((2, 4, 6, 8)))
        return 30_000

    def rolling_upgrade(self, g: ConsumerGroupSim) -> int:
        extra = f"{g.grp.app}-retry-{sum(t.startswith(g.grp.app + '-retry') for t in g.model.topics) + 1}"
        self.drv.set_partitions(g, extra, self.rng.choice((3, 6, 12)))
        g.subscription = tuple(sorted((*g.subscription, extra)))
        return self.rolling_restart(g)

    # ------------------------------------------------------------------ classic -> consumer
    def convert(self, grp: GroupSim, _b=None) -> None:
        """Upgrade the classic group ``grp`` once it is quiet (see the module docstring)."""
        sim = self.sim
        clients = [c for c in grp.clients if c.alive]
        quiet = not sim.truth.is_open(grp.name) and all(c.state == "stable" and not c.stuck for c in clients)
        b = sim.coordinator_of(grp)
        if not clients or not quiet or b is None or grp.name in sim.truth.episodes:
            sim.later(15_000, self.convert, grp)
            return
        generation = clients[0].generation
        members = [(c.member_id, c.instance, c.client_id, list(c.owned)) for c in clients]
        for c in clients:
            c.die()  # their lines stop: from now on the converted group speaks for them
        sim.brokers[b].coord.unload_group(sim.now, grp.name)
        g = self.drv.add_group(grp, SESSION_MS, REBALANCE_MS)
        out = g.model.convert(sim.now, generation, members)
        for mid, _gii, _cid, owned in members:
            self.drv.new_client(g, quiet=True).adopt(mid, generation, owned)
        self.drv.apply(g, out.logs)
        g.truth.scenario = grp.scenario = "conversion"
        self._down_or_new(g).start()
        t = 30_000
        for old in [c for c in g.clients if c.quiet]:
            sim.later(t, old.close)
            sim.later(t + 2_000, self._down_or_new(g).start)
            t += self.rng.randint(25_000, 40_000)
        sim.later(t + 60_000, self.incident, g)
