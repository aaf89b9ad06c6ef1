"""Discrete-event simulation of consumer groups on a Kafka cluster, driving the coordinator model.

A heap of timed actions (``(t, seq, fn, a, b)``) advances event time. Each broker runs one
:class:`coordinator_core.coordinator.GroupCoordinator`; a group's coordinator is the leader of
``__consumer_offsets-partition_for(group)``. Consumers (:class:`Client`) have a heartbeat thread
(``heartbeat.interval.ms``) and a poll loop; they JoinGroup (two-step MEMBER_ID_REQUIRED join),
SyncGroup (the leader assigns with :func:`coordinator_core.assignors.assign`), heartbeat, commit
offsets and leave. Every broker fact the coordinator emits is rendered into that broker's
``server.log`` in the chosen dialect; every client action into the host's log in the chosen layout.
Ground truth (rebalances with the injected cause, assignments, storms) goes to ``truth/``.

Nothing is kept per line: lines go straight to the buffered :class:`~jobs.simulate.writer.LogSink`.
Determinism: one seeded ``random.Random``; no wall clock.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from typing import Any, Protocol

from coordinator_core.assignors import assign
from coordinator_core.config import CoordinatorConfig
from coordinator_core.coordinator import GroupCoordinator
from coordinator_core.placement import partition_for
from jobs.simulate import render_client as rc
from jobs.simulate.client import Client, tp_key
from jobs.simulate.consumer_sim import ConsumerDriver
from jobs.simulate.noise import TOPICS, BrokerNoise
from jobs.simulate.render_broker import DIALECT_VERSION, BrokerRenderer, MemberInfo
from jobs.simulate.sim_types import SimConfig
from jobs.simulate.timefmt import log4j_ts
from jobs.simulate.truth import TruthRecorder
from jobs.simulate.writer import LogSink, NullSink

OFFSETS_PARTITIONS = 50
APP_WORDS = (
    "orders", "payments", "billing", "search-indexer", "fraud-check", "email-sender", "inventory",
    "shipping", "analytics", "audit", "recommendations", "ledger", "notifications", "pricing",
)  # fmt: skip


class Driver(Protocol):
    """What :meth:`Simulation.run` is given: it schedules the clients' starts and the incidents."""

    def bootstrap(self) -> None: ...


@dataclass
class SimResult:
    lines: int
    bytes: int
    files: list[str]
    truth_counts: dict[str, int]
    end_ms: int


class _Err:
    """A coordinator-level error synthesised by the simulator (request sent to a broker that is not
    the group's loaded coordinator): NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS."""

    __slots__ = ("api", "member_id", "error", "generation", "protocol_name", "leader_id", "members",
                 "assignment", "skip_assignment")  # fmt: skip

    def __init__(self, api: str, member_id: str, error: str) -> None:
        self.api = api
        self.member_id = member_id
        self.error = error
        self.generation = -1
        self.protocol_name = None
        self.leader_id = None
        #: (member id, group instance id, metadata) of a JoinGroup reply: none in an error
        self.members: list[tuple[str, str | None, Any]] = []
        self.assignment = None
        self.skip_assignment = False


class Broker:
    __slots__ = ("id", "coord", "skew", "host", "fmt", "path", "wake_at", "epoch")

    def __init__(self, bid: int, coord: GroupCoordinator, skew: int) -> None:
        self.id = bid
        self.coord = coord
        self.skew = skew
        self.host = f"kafka-{bid}.kafka.svc.cluster.local"
        self.fmt = log4j_ts()
        self.path = f"broker-{bid}/server.log"
        self.wake_at: int | None = None
        self.epoch = 0


class GroupSim:
    """A consumer group: an application deployed on several hosts (slots)."""

    def __init__(
        self,
        name: str,
        app: str,
        topics: dict[str, int],
        strategies: list[str],
        static: bool,
        session_ms: int,
        index: int,
    ) -> None:
        self.name = name
        self.app = app
        self.topics = topics
        self.strategies = strategies
        self.cooperative = strategies == ["cooperative-sticky"]
        self.static = static
        self.session_ms = session_ms
        #: max.poll.interval.ms (the Java client's JoinGroup rebalance timeout) and heartbeat.interval.ms
        self.rebalance_ms = 300_000
        self.heartbeat_ms = 3_000
        self.index = index
        self.partition = partition_for(name, OFFSETS_PARTITIONS)
        self.clients: list[Client] = []
        self.hold_on_completing: list[Client] = []
        self.busy_until = 0
        self.scenario_i = 0
        self.scenario: str | None = None
        #: "classic" or "consumer" (KIP-848, run by jobs.simulate.consumer_sim)
        self.protocol = "classic"


class Simulation:
    """The whole cluster: brokers, groups, clients, rendering and truth (the incidents: the driver given
    to :meth:`run`)."""

    def __init__(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.now = cfg.start_ms
        self.end_ms = cfg.start_ms + int(cfg.hours * 3_600_000)
        self._heap: list[tuple] = []
        self._seq = 0
        self.sink = LogSink(cfg.out) if cfg.out is not None else NullSink()
        self.truth = TruthRecorder(cfg.out, keep=cfg.keep_truth)
        self.texts = rc.ClientTexts(cfg.dialect)
        self.by_member: dict[str, Client] = {}
        self.pending_ids: set[str] = set()
        version = DIALECT_VERSION[cfg.dialect]
        self.brokers: dict[int, Broker] = {}
        for bid in range(1, cfg.brokers + 1):
            coord = GroupCoordinator(
                CoordinatorConfig(version=version, initial_rebalance_delay_ms=cfg.initial_rebalance_delay_ms),
                broker_id=bid, seed=cfg.seed * 1009 + bid
            )
            self.brokers[bid] = Broker(bid, coord, self.rng.randint(-5, 5))
        self.renderer = BrokerRenderer(cfg.dialect, self._member_info)
        ids = sorted(self.brokers)
        shift = self.rng.randrange(len(ids))
        self.leader_of = {p: ids[(p + shift) % len(ids)] for p in range(OFFSETS_PARTITIONS)}
        self.loading: set[int] = set()
        self.noise = BrokerNoise(self.rng, ids, cfg.stack_rate)
        self._noise_credit = 0.0
        self._noise_per_line = cfg.noise_ratio / (1 - cfg.noise_ratio) if 0 < cfg.noise_ratio < 1 else 0.0
        self.groups: list[GroupSim] = []
        self._make_groups()
        self._parked: dict[int, tuple[Client, int]] = {}
        self._group_by_name: dict[str, GroupSim] = {}
        self.consumer = self._consumer_groups() if cfg.protocol != "classic" else None

    # ------------------------------------------------------------------ setup
    def _make_groups(self) -> None:
        cfg, r = self.cfg, self.rng
        for i in range(cfg.groups):
            word = APP_WORDS[i % len(APP_WORDS)]
            app = f"{word}-svc" if i < len(APP_WORDS) else f"{word}-svc{i // len(APP_WORDS)}"
            name = f"{app}-group"
            ntopics = 1 if r.random() < 0.7 else 2
            topics = {}
            for _ in range(ntopics):
                topics[f"{r.choice(TOPICS)}.{word}.v{r.randint(1, 3)}"] = r.choice((6, 8, 12, 12, 16, 24, 32))
            static = r.random() < cfg.static_share
            coop = r.random() < cfg.cooperative_share
            if coop:
                strategies = ["cooperative-sticky"]
            elif cfg.dialect == "scala2":
                strategies = ["range"] if r.random() < 0.7 else ["roundrobin"]
            else:
                strategies = ["range", "cooperative-sticky"] if r.random() < 0.7 else ["roundrobin"]
            if static:
                session = 60000 if cfg.dialect != "scala2" else 30000
            else:
                session = 10000 if cfg.dialect == "scala2" else 45000
            g = GroupSim(name, app, dict(sorted(topics.items())), strategies, static, session, i)
            for slot in range(cfg.members):
                g.clients.append(Client(self, g, slot))
            self.groups.append(g)

    def _consumer_groups(self):
        """Hand the consumer-protocol groups to the KIP-848 driver: every group for ``consumer``;
        for ``mixed`` the odd ones, and group 0 (classic) is converted at a third of the run."""
        if self.cfg.protocol not in ("consumer", "mixed"):
            raise ValueError(f"unknown protocol {self.cfg.protocol!r}; expected classic, consumer or mixed")
        if self.cfg.dialect != "java4":
            raise ValueError("consumer-protocol groups run on a 4.x broker: use dialect java4")
        drv = ConsumerDriver(self)
        for g in self.groups:
            if self.cfg.protocol == "consumer" or g.index % 2 == 1:
                drv.add_group(g)
        return drv

    def _member_info(self, member_id: str) -> MemberInfo | None:
        c = self.by_member.get(member_id)
        if c is None:
            return None
        return MemberInfo(
            member_id, c.instance, c.client_id, c.ip, c.grp.session_ms, c.grp.rebalance_ms, tuple(c.grp.strategies)
        )

    # ------------------------------------------------------------------ scheduling
    def at(self, t: int, fn, a=None, b=None) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (t, self._seq, fn, a, b))

    def later(self, delay: int, fn, a=None, b=None) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (self.now + delay, self._seq, fn, a, b))

    def instance_mapped(self, grp: GroupSim, instance: str | None) -> bool:
        """Whether the group's coordinator currently maps ``instance`` to a member (a static rejoin
        replaces that member; otherwise the static member is new)."""
        b = self.coordinator_of(grp)
        gm = self.brokers[b].coord.group(grp.name) if b is not None else None
        return gm is not None and instance in gm.static_members

    def coordinator_of(self, grp: GroupSim) -> int | None:
        p = grp.partition
        return None if p in self.loading else self.leader_of[p]

    # ------------------------------------------------------------------ output
    def write(self, path: str, text: str, nlines: int, who=None) -> None:
        self.sink.write(path, text, nlines)
        if self._noise_per_line:
            self._noise_credit += self._noise_per_line * nlines
            if self._noise_credit >= 1.0:
                self._emit_noise(who)

    def _emit_noise(self, who) -> None:
        r = self.rng
        while self._noise_credit >= 1.0:
            if isinstance(who, Client) and who.alive and r.random() < 0.5:
                level, logger, msg, stack = who.noise.line()
                if level == "DEBUG" and not self.cfg.debug_heartbeats:
                    level = "INFO"
                text, n = who.layout.line(self.now + who.skew, level, logger, who.thread, msg, stack)
            else:
                b = self.brokers[r.choice(list(self.brokers))]
                level, logger, msg, stack = self.noise.line(b.id)
                text = f"[{b.fmt(self.now + b.skew)}] {level} {msg} ({logger})\n"
                if stack:
                    text += stack + "\n"
                n = text.count("\n")
                who = None
                path = b.path
                self.sink.write(path, text, n)
                self._noise_credit -= n
                continue
            self.sink.write(who.path, text, n)
            self._noise_credit -= n

    def broker_lines(self, b: Broker, lines) -> None:
        ts = None
        for level, logger, msg in lines:
            if level == "DEBUG":
                continue
            if ts is None:
                ts = b.fmt(self.now + b.skew)
            self.write(b.path, f"[{ts}] {level} {msg} ({logger})\n", 1)

    # ------------------------------------------------------------------ coordinator calls
    def call(self, client: Client, api: str, ctx, **kw) -> None:
        """Send one request of ``client`` to its coordinator; render the broker's lines, record the
        truth, and deliver the responses (1-4 ms later) to the clients whose requests they answer."""
        grp = client.grp
        b = client.coord
        leader = self.leader_of[grp.partition]
        resp_api = _API_NAME[api]
        if b is None or b != leader or grp.partition in self.loading:
            err = (
                "COORDINATOR_LOAD_IN_PROGRESS"
                if (b == leader and grp.partition in self.loading)
                else "NOT_COORDINATOR"
            )
            if api == "leave_group":
                return
            if api == "heartbeat" and err == "COORDINATOR_LOAD_IN_PROGRESS":
                err = "NONE"  # "respond just blindly" while the partition loads
            self.later(
                self.rng.randint(1, 3),
                client.on_response,
                _Err(resp_api, client.member_id, err),
                client.incarnation,
            )
            return
        broker = self.brokers[b]
        coord = broker.coord
        if api == "leave_group":
            out = coord.leave_group(self.now, grp.name, kw["members"])
        else:
            out = getattr(coord, api)(self.now, grp.name, **kw)
        if out.reply is None and api in ("join_group", "sync_group"):
            self._parked[out.request_id] = (client, client.incarnation)
        self._handle(broker, out, ctx, client)
        self._after(broker)

    def _deliver(self, out, caller: Client | None) -> None:
        immediate = caller is not None and caller.immediate
        for r in out.responses:
            if caller is not None and r is out.reply:
                target, inc = caller, caller.incarnation
            else:
                entry = self._parked.pop(r.request_id, None)
                if entry is None:
                    continue
                target, inc = entry
            if immediate and target is caller:
                target.on_response(r, inc)
            else:
                self.later(self.rng.randint(1, 4), target.on_response, r, inc)

    def _handle(self, broker: Broker, out, ctx, caller: Client | None = None) -> None:
        """Render the events, then turn the transitions into truth (cause from ``ctx`` for a call,
        from the expiry that preceded the rebalance for timers)."""
        truth = self.truth
        causes: dict[str, list] = {}
        expiry: dict[str, tuple[str, str | None]] = {}
        skew = broker.skew
        fmt = broker.fmt
        path = broker.path
        for e in out.events:
            g = e.group_id
            lines = self.renderer.render(e, broker.id, partition_for(g, OFFSETS_PARTITIONS))
            if lines:
                ts = fmt(e.ts + skew)
                for level, logger, msg in lines:
                    if level != "DEBUG":
                        self.write(path, f"[{ts}] {level} {msg} ({logger})\n", 1)
            k = e.kind
            if k == "rebalance_prepared":
                if ctx is not None:
                    cause, culprit = ctx
                else:
                    cause, culprit = expiry.get(g, ("unknown", None))
                causes.setdefault(g, []).append((cause, culprit or e.member_id, e.reason))
            elif k == "member_session_expired":
                expiry[g] = ("session_timeout", e.member_id)
            elif k == "sync_expired" and not e.unexpected:
                expiry[g] = ("sync_timeout", e.members[0] if e.members else None)
            elif (
                (k == "member_added" or k == "static_member_replaced") and ctx is not None and ctx[1] is None
            ):
                ctx = (ctx[0], e.member_id)
            elif k == "join_completed":
                self._on_join_completed(g)
        for ts, g, frm, to, gen in out.transitions:
            t = ts + skew
            if to == "PreparingRebalance":
                queue = causes.get(g)
                cause, culprit, reason = queue.pop(0) if queue else ("unknown", None, None)
                if frm in ("Stable", "Empty"):
                    grp = self._group_by_name.get(g)
                    truth.prepared(
                        g, t, gen, cause, culprit, broker.id, reason, grp.scenario if grp else None
                    )
                else:
                    truth.prepared(g, t, gen, cause, culprit, broker.id, reason, None)
            elif to == "CompletingRebalance":
                truth.join_completed(g, gen)
            elif to == "Stable" and frm == "CompletingRebalance":
                truth.ended(g, t, gen, "completed")
                grp = self._group_by_name.get(g)
                if grp is not None:
                    self._maybe_end_episode(grp)
            elif to == "Empty" and frm == "PreparingRebalance":
                truth.ended(g, t, gen, "ended_empty")
        self._deliver(out, caller)

    def _after(self, broker: Broker) -> None:
        d = broker.coord.next_deadline()
        if d is not None and (broker.wake_at is None or d < broker.wake_at):
            broker.wake_at = d
            self.at(max(d, self.now), self._wake, broker)

    def _wake(self, broker: Broker, _b=None) -> None:
        if broker.wake_at is None or broker.wake_at > self.now:
            return  # superseded: a later deadline is scheduled separately
        broker.wake_at = None
        out = broker.coord.advance_to(self.now)
        self._handle(broker, out, None)
        self._after(broker)

    # ------------------------------------------------------------------ leader assignment
    def leader_assign(self, client: Client, r) -> dict[str, list[str]]:
        grp = client.grp
        subs: dict[str, list[str]] = {}
        owned: dict[str, list[tuple[str, int]]] = {}
        giis: dict[str, str | None] = {}
        for member_id, gii, md in r.members:
            raw = md.decode() if isinstance(md, bytes | bytearray) else str(md or "")
            topics, _, own = raw.partition("|")
            subs[member_id] = [t for t in topics.split(",") if t]
            owned[member_id] = [tp_key(x) for x in own.split(",") if x]
            giis[member_id] = gii
        result = assign(
            r.protocol_name or grp.strategies[0],
            subs,
            grp.topics,
            group_instance_ids=giis,
            owned=owned if grp.cooperative else None,
            generation=client.generation - 1,
        )
        assignment = {m: [f"{t}-{p}" for t, p in tps] for m, tps in result.items()}
        client.log("INFO", rc.CC, self.texts.leader_assignment(client.generation, assignment))
        b = self.brokers[client.coord] if client.coord is not None else None
        self.truth.assignment(
            grp.name,
            client.generation,
            self.now + (b.skew if b else 0),
            r.protocol_name or "",
            client.member_id,
            assignment,
        )
        return assignment

    # ------------------------------------------------------------------ scenario hooks
    def on_member_stable(self, client: Client) -> None:
        pass

    def _on_join_completed(self, group: str) -> None:
        grp = self._group_by_name.get(group)
        if grp is None or not grp.hold_on_completing:
            return
        held, grp.hold_on_completing = grp.hold_on_completing, []
        for c in held:
            self.at(self.now, _send_join_again, c)

    def _maybe_end_episode(self, grp: GroupSim) -> None:
        ep = self.truth.episodes.get(grp.name)
        if ep is not None and ep.get("done_after") is not None and self.now >= ep["done_after"]:
            self.truth.end_episode(grp.name)

    # ------------------------------------------------------------------ run
    def run(self, driver: Driver) -> SimResult:
        """Run to the end. ``driver.bootstrap()`` schedules what happens: the seeded incident mix
        (``ScenarioDriver(sim, TABLE)``, :mod:`jobs.simulate.scenarios`) or e.g. the what-if's
        scripted behaviours (:mod:`jobs.whatif.resim`)."""
        self._group_by_name = {g.name: g for g in self.groups}
        driver.bootstrap()
        heap = self._heap
        pop = heapq.heappop
        end = self.end_ms
        target = self.cfg.target_lines
        sink = self.sink
        checks = 0
        while heap:
            t, _s, fn, a, b = pop(heap)
            if t > end:
                break
            self.now = t
            fn(a, b)
            checks += 1
            if target is not None and (checks & 255) == 0 and sink.lines >= target:
                break
        if self.consumer is not None:
            self.consumer.finish()
        self.truth.close()
        files = self.sink.finish(self.cfg.gzip)
        return SimResult(self.sink.lines, self.sink.bytes, files, dict(self.truth.counts), self.now)


def _send_join_again(c: Client, _b=None) -> None:
    if c.alive and c.coord is not None and c.state == "unjoined":
        c.immediate = True
        c.send_join()


_API_NAME = {
    "join_group": "JoinGroup", "sync_group": "SyncGroup", "heartbeat": "Heartbeat",
    "leave_group": "LeaveGroup", "commit_offsets": "OffsetCommit",
}  # fmt: skip
