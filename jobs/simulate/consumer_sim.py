"""Consumer-protocol (KIP-848) groups inside the cluster simulation: new-consumer clients and the
driver that runs each group on the core's consumer-group coordinator
(:class:`~jobs.simulate.consumer_core.GroupModel`), renders the broker lines from the
coordinator's log entries, the client lines from the clients, and records the truth.

A :class:`ConsumerClient` is one new-consumer process (``group.protocol=consumer``): it heartbeats
every ``heartbeat.interval.ms`` (5 s) with its member epoch and owned partitions, reconciles each
new assignment (revoke, then assign; the revocation callback may be slow), acknowledges at once
with an extra heartbeat, and leaves with epoch -1 (static members: -2) on close. Every member id is
a fresh client-side UUID per process start (static members keep their ``group.instance.id``).
"""

from __future__ import annotations

import base64

from coordinator_core.consumer.protocol import ConsumerLog
from jobs.simulate import render_client as rc
from jobs.simulate import render_consumer as rcon
from jobs.simulate.consumer_core import LEAVE_EPOCH, TEMP_LEAVE_EPOCH, GroupModel, Reply, sorted_tps
from jobs.simulate.consumer_truth import ConsumerTruth
from jobs.simulate.sim_types import GroupView, SimHost

HEARTBEAT_MS = 5_000
SESSION_MS = 45_000
REBALANCE_MS = 300_000
ASYNC_CONSUMER = rc.PKG + "AsyncKafkaConsumer"


class ConsumerClient:
    """One new-consumer process on one host (slot); restarts reuse the slot."""

    __slots__ = ("drv", "cg", "slot", "host", "skew", "instance", "client_id", "path", "layout", "prefix",
                 "incarnation", "alive", "member_id", "epoch", "state", "owned", "latest", "local_epoch",
                 "hb_token", "busy", "quiet", "topics", "stalled")  # fmt: skip

    def __init__(self, drv: ConsumerDriver, group: ConsumerGroupSim, slot: int, quiet: bool = False) -> None:
        sim = drv.sim
        grp = group.grp
        self.drv = drv
        self.cg = group
        self.slot = slot
        self.host = f"{grp.app}-{slot}"
        self.skew = sim.rng.randint(-60, 60)
        self.instance = f"{grp.app}-{slot}" if grp.static else None
        self.client_id = f"consumer-{grp.name}-{slot + 1}"
        self.path = f"clients/{self.host}/{grp.app}.log"
        self.layout = rc.Layout(sim.cfg.layout, grp.app, 1000 + sim.rng.randrange(60000))
        self.prefix = rcon.client_prefix(self.client_id, grp.name)
        self.incarnation = 0
        self.alive = False
        self.member_id = ""
        self.epoch = 0
        self.state = "UNSUBSCRIBED"
        self.owned: set[str] = set()
        self.latest: tuple[str, ...] | None = None
        self.local_epoch = 0
        self.hb_token = 0
        self.busy = False
        #: an adopted classic-protocol member (conversion): heartbeats, writes no client lines
        self.quiet = quiet
        #: subscribed topics (taken from the group's subscription at each start)
        self.topics: tuple[str, ...] = group.subscription
        #: the poll loop is blocked (what-if behaviour): no reconciliation, leave at max.poll.interval.ms
        self.stalled = False

    # ------------------------------------------------------------------ logging
    def log(self, level: str, msg: str, logger: str = rcon.CMM, plain: bool = False) -> None:
        if self.quiet:
            return
        sim = self.drv.sim
        text, n = self.layout.line(sim.now + self.skew, level, logger, "consumer_background_thread",
                                   msg if plain else self.prefix + msg)  # fmt: skip
        sim.write(self.path, text, n)

    def transition(self, to: str) -> None:
        self.log("INFO", rcon.transitioned(self.member_id, self.epoch, self.state, to))
        self.state = to

    # ------------------------------------------------------------------ lifecycle
    def start(self, _a=None, _b=None) -> None:
        if self.alive:
            return
        sim = self.drv.sim
        self.incarnation += 1
        self.alive = True
        self.member_id = _uuid(sim.rng)
        self.cg.member_clients[self.member_id] = self
        self.epoch = 0
        self.owned = set()
        self.latest = None
        self.busy = False
        self.stalled = False
        self.state = "UNSUBSCRIBED"
        self.topics = self.cg.subscription
        self.log("INFO", f"Kafka version: {self.drv.client_version}", rc.APPINFO, plain=True)
        self.log("INFO", f"Subscribed to topic(s): {', '.join(self.topics)}", ASYNC_CONSUMER)
        self.transition("JOINING")
        self.schedule_hb(sim.rng.randint(50, 400))

    def adopt(self, member_id: str, epoch: int, owned: list[str]) -> None:
        """A classic member taken over by the converted group (conversion)."""
        self.incarnation += 1
        self.alive = True
        self.member_id = member_id
        self.epoch = epoch
        self.owned = set(owned)
        self.state = "STABLE"
        self.schedule_hb(self.drv.sim.rng.randint(100, HEARTBEAT_MS))

    def schedule_hb(self, delay: int) -> None:
        self.hb_token += 1
        self.drv.sim.later(delay, self.heartbeat, self.hb_token)

    def heartbeat(self, token: int, _b=None) -> None:
        if token != self.hb_token or not self.alive:
            return
        sim = self.drv.sim
        epoch = 0 if self.state == "JOINING" else self.epoch
        reply = self.drv.call(self, epoch, set(self.owned))
        if reply is not None:
            sim.later(sim.rng.randint(1, 4), self.on_reply, (self.incarnation, reply))
        if token == self.hb_token:
            self.schedule_hb(HEARTBEAT_MS + sim.rng.randint(-5, 5))

    def on_reply(self, args, _b=None) -> None:
        inc, reply = args
        if inc != self.incarnation or not self.alive or self.state in ("PREPARE_LEAVING", "LEAVING"):
            return
        if reply.error != "NONE":
            if self.state != "JOINING":
                self.fenced()
            return
        self.epoch = reply.member_epoch
        if reply.assigned is not None:
            self.latest = reply.assigned
        if self.busy or self.stalled:
            return
        if self.latest is not None and (set(self.latest) != self.owned or self.state == "JOINING"):
            self.reconcile()
        elif self.state == "ACKNOWLEDGING":
            self.transition("STABLE")

    def reconcile(self) -> None:
        assigned = set(self.latest or ())
        added = sorted_tps(assigned - self.owned)
        revoked = sorted_tps(self.owned - assigned)
        self.transition("RECONCILING")
        self.local_epoch += 1
        self.log("INFO", rcon.reconciling(self.local_epoch, self.member_id, sorted_tps(assigned),
                                          sorted_tps(self.owned), added, revoked))  # fmt: skip
        self.busy = True
        took = self.drv.sim.rng.randint(2, 30)
        if revoked:
            self.log("INFO", rcon.revoking(revoked))
            if self.cg.slow_ms:
                took, self.cg.slow_ms = self.cg.slow_ms, 0
        self.drv.sim.later(took, self.reconciled, (self.incarnation, tuple(sorted(assigned))))

    def reconciled(self, args, _b=None) -> None:
        inc, assigned = args
        if inc != self.incarnation or not self.alive or not self.busy:
            return
        self.busy = False
        self.owned = set(assigned)
        if self.state != "RECONCILING":
            return
        self.transition("ACKNOWLEDGING")
        self.schedule_hb(1)  # the acknowledgement goes out at once

    def fenced(self) -> None:
        """FENCED_MEMBER_EPOCH / UNKNOWN_MEMBER_ID: partitions lost, rejoin with epoch 0."""
        self.busy = False
        self.transition("FENCED")
        self.owned = set()
        self.latest = None
        self.epoch = 0
        self.transition("JOINING")
        self.schedule_hb(self.drv.sim.rng.randint(5, 100))

    def close(self, _a=None, _b=None) -> None:
        """Graceful shutdown: leave with epoch -1 (static: -2, temporarily)."""
        if not self.alive:
            return
        self.transition("PREPARE_LEAVING")
        self.owned = set()
        self.transition("LEAVING")
        self.drv.call(self, TEMP_LEAVE_EPOCH if self.instance else LEAVE_EPOCH, set())
        self.transition("UNSUBSCRIBED")
        self.die()

    def die(self, _a=None, _b=None) -> None:
        self.alive = False
        self.busy = False
        self.hb_token += 1

    # ------------------------------------------------------------------ what-if behaviours
    def pause(self, duration: int, _b=None) -> None:
        """The process freezes for ``duration`` ms: no heartbeats (the session may expire)."""
        if not self.alive:
            return
        self.hb_token += 1
        self.drv.sim.later(duration, self.resume, self.incarnation)

    def resume(self, inc: int, _b=None) -> None:
        if inc == self.incarnation and self.alive:
            self.schedule_hb(1)

    def stall(self, duration: int, _b=None) -> None:
        """The poll loop blocks for ``duration`` ms. The background thread keeps heartbeating, but
        nothing is reconciled (the callbacks run in poll); after max.poll.interval.ms the member
        leaves with epoch -1 and rejoins with epoch 0 when poll runs again (AsyncKafkaConsumer)."""
        if not self.alive or self.stalled:
            return
        self.stalled = True
        sim = self.drv.sim
        sim.later(self.cg.model.rebalance_ms, self.poll_expired, self.incarnation)
        sim.later(duration, self.unstall, self.incarnation)

    def poll_expired(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive or not self.stalled:
            return
        self.drv.call(self, LEAVE_EPOCH, set())
        self.owned = set()
        self.latest = None
        self.epoch = 0
        self.state = "STALE"
        self.hb_token += 1

    def unstall(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive:
            return
        self.stalled = False
        if self.state == "STALE":
            self.transition("JOINING")
        self.schedule_hb(1)


def _uuid(rng) -> str:
    """Kafka ``Uuid.randomUuid().toString()``: 16 random bytes, URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(rng.getrandbits(128).to_bytes(16, "big")).decode().rstrip("=")


class ConsumerGroupSim:
    """A consumer-protocol group: its model, clients, truth and timer."""

    __slots__ = ("grp", "model", "clients", "truth", "wake_at", "slow_ms", "subscription", "member_clients")

    def __init__(self, grp: GroupView, model: GroupModel, truth: ConsumerTruth) -> None:
        self.grp = grp
        self.model = model
        self.clients: list[ConsumerClient] = []
        #: every member id a client of this group ever had -> that client
        self.member_clients: dict[str, ConsumerClient] = {}
        self.truth = truth
        self.wake_at: int | None = None
        #: the next revocation callback of any member takes this long (slow_revocation scenario)
        self.slow_ms = 0
        #: the topics a consumer (re)started now subscribes to (rolling_upgrade adds one)
        self.subscription: tuple[str, ...] = tuple(sorted(grp.topics))


class ConsumerDriver:
    """Runs every consumer-protocol group of a :class:`~jobs.simulate.cluster.Simulation`."""

    def __init__(self, sim: SimHost) -> None:
        self.sim = sim
        cfg = sim.cfg
        self.renderer = rcon.ConsumerBrokerRenderer(cfg.consumer_flavour)
        self.client_version = "4.0.0" if cfg.consumer_flavour == "4.0" else "4.1.0"
        self.groups: dict[str, ConsumerGroupSim] = {}

    def add_group(self, grp: GroupView, session_ms: int = SESSION_MS, rebalance_ms: int = REBALANCE_MS) -> ConsumerGroupSim:
        grp.protocol = "consumer"
        grp.clients = []
        model = GroupModel(grp.name, grp.topics, session_ms, rebalance_ms, self.sim.cfg.consumer_flavour)
        g = ConsumerGroupSim(grp, model, ConsumerTruth(grp.name, self.sim.truth))
        self.groups[grp.name] = g
        return g

    def new_client(self, g: ConsumerGroupSim, quiet: bool = False) -> ConsumerClient:
        c = ConsumerClient(self, g, len(g.clients), quiet)
        g.clients.append(c)
        return c

    # ------------------------------------------------------------------ coordinator calls
    def call(self, c: ConsumerClient, epoch: int, owned: set[str]) -> Reply | None:
        """One heartbeat of ``c`` to its group's coordinator (None while the coordinator loads)."""
        sim = self.sim
        g = c.cg
        if sim.coordinator_of(g.grp) is None:
            return None
        reply, out = g.model.heartbeat(sim.now, c.member_id, epoch, c.instance, c.client_id, owned, c.topics)
        self.apply(g, out.logs)
        return reply

    def set_partitions(self, g: ConsumerGroupSim, topic: str, count: int) -> None:
        """A topic of the group gets ``count`` partitions (a new topic is created)."""
        self.apply(g, g.model.set_partitions(self.sim.now, topic, count).logs)
        g.grp.topics[topic] = count

    def apply(self, g: ConsumerGroupSim, logs: list[ConsumerLog]) -> None:
        """Render the coordinator's log entries, feed the truth, re-arm the group's timer."""
        sim = self.sim
        b = sim.brokers[sim.leader_of[g.grp.partition]]
        present = len(g.model.present())
        ts = sim.now + b.skew
        debug = sim.cfg.broker_debug
        for f in logs:
            if f.kind == "target":  # the assignor's wall time, which the event-time core cannot know
                f.took_ms = 1 + g.model.partition_count() * max(1, g.model.member_count()) // 64
            for level, logger, msg in self.renderer.render(f, g.grp.name, b.id, g.grp.partition):
                if level != "DEBUG" or debug:
                    sim.write(b.path, f"[{b.fmt(ts)}] {level} {msg} ({logger})\n", 1)
            g.truth.on_fact(f, ts, b.id, present)
            if f.kind == "target":
                sim.truth.assignment(g.grp.name, g.model.target_epoch, ts, f.assignor or "uniform", "", {
                    m: list(a) for m, a in g.model.target.items()
                })  # fmt: skip
        g.truth.check_end(ts, g.model)
        self._arm(g)

    def _arm(self, g: ConsumerGroupSim) -> None:
        d = g.model.next_deadline()
        if d is not None and (g.wake_at is None or d < g.wake_at):
            g.wake_at = d
            self.sim.at(max(d, self.sim.now), self._wake, g)

    def _wake(self, g: ConsumerGroupSim, _b=None) -> None:
        if g.wake_at is None or g.wake_at > self.sim.now:
            return
        g.wake_at = None
        self.apply(g, g.model.advance_to(self.sim.now).logs)

    def finish(self) -> None:
        for g in self.groups.values():
            g.truth.close()
