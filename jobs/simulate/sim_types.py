"""What the parts of the cluster simulation share, below all of them: its settings
(:class:`SimConfig`) and the narrow views its members have of it.

The clients (:mod:`jobs.simulate.client`, :mod:`jobs.simulate.consumer_sim`) are built by the
cluster (:mod:`jobs.simulate.cluster`) and call back into it; they are written against the protocols
here (:class:`SimHost`, :class:`GroupView`, :class:`BrokerView`), which
:class:`~jobs.simulate.cluster.Simulation`, :class:`~jobs.simulate.cluster.GroupSim` and
:class:`~jobs.simulate.cluster.Broker` satisfy, so no member module imports the cluster.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from coordinator_core.coordinator import GroupCoordinator
from jobs.simulate.render_client import ClientTexts
from jobs.simulate.truth import TruthRecorder

START_MS = 1767225600000  # 2026-01-01T00:00:00Z


@dataclass
class SimConfig:
    """Parameters of one simulation (see ``python -m jobs.simulate --help``)."""

    #: output folder of the logs and truth/ (None: no logs, truth kept in memory; the what-if uses it)
    out: str | None
    groups: int = 4
    members: int = 3
    hours: float = 1.0
    seed: int = 1
    target_lines: int | None = None
    dialect: str = "scala3"
    layout: str = "log4j"
    debug_heartbeats: bool = False
    gzip: bool = False
    brokers: int = 3
    noise_ratio: float = 0.1
    #: scenarios to inject, cycled per group in order (None: random mix by seed)
    scenarios: tuple[str, ...] | None = None
    #: mean gap between incidents of one group (ms)
    incident_gap_ms: int = 15 * 60_000
    #: share of groups using static membership / cooperative-sticky (by seed)
    static_share: float = 0.25
    cooperative_share: float = 0.25
    stack_rate: float = 0.002
    start_ms: int = START_MS
    #: group protocol: classic, consumer (KIP-848) or mixed (some of each, one group converted)
    protocol: str = "classic"
    #: consumer-protocol line flavour ("4.0" or "4.1", see jobs.simulate.render_consumer)
    consumer_flavour: str = "4.0"
    #: brokers log at DEBUG (consumer groups' "new assignment state" lines)
    broker_debug: bool = False
    #: group.initial.rebalance.delay.ms of the brokers (None: the version's default)
    initial_rebalance_delay_ms: int | None = None
    #: keep the truth records in memory too (``Simulation.truth.records``)
    keep_truth: bool = False
    #: extra fields written into truth/summary.json
    extra: dict[str, Any] = field(default_factory=dict)


#: a scheduled action: ``fn(a, b)`` runs at its time (see :meth:`SimHost.at`)
Action = Callable[[Any, Any], object]


class BrokerView(Protocol):
    """A broker as its clients and the consumer driver see it: where and how its lines go, and its
    classic coordinator (a group converted to the consumer protocol is unloaded from it)."""

    @property
    def id(self) -> int: ...
    @property
    def host(self) -> str: ...
    @property
    def skew(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def fmt(self) -> Callable[[int], str]: ...
    @property
    def coord(self) -> GroupCoordinator: ...


class GroupView(Protocol):
    """A simulated group as its members see it: its settings and the lists they join."""

    name: str
    app: str
    index: int
    topics: dict[str, int]
    strategies: list[str]
    cooperative: bool
    static: bool
    session_ms: int
    rebalance_ms: int
    heartbeat_ms: int
    partition: int
    protocol: str
    #: the scenario it is playing (None: none yet)
    scenario: str | None
    clients: list[Any]
    hold_on_completing: list[Any]


class SimHost(Protocol):
    """The simulation as its members see it: clock, seeded randomness, scheduling, output, truth and
    the coordinator calls (``client`` is the calling member)."""

    cfg: SimConfig
    rng: random.Random
    now: int
    texts: ClientTexts
    truth: TruthRecorder
    leader_of: dict[int, int]
    by_member: dict[str, Any]
    pending_ids: set[str]

    @property
    def brokers(self) -> Mapping[int, BrokerView]: ...
    def at(self, t: int, fn: Action, a: Any = None, b: Any = None) -> None: ...
    def later(self, delay: int, fn: Action, a: Any = None, b: Any = None) -> None: ...
    def write(self, path: str, text: str, nlines: int, who: Any = None) -> None: ...
    def coordinator_of(self, grp: Any) -> int | None: ...
    def instance_mapped(self, grp: Any, instance: str | None) -> bool: ...
    def call(self, client: Any, api: str, ctx: Any, **kw: Any) -> None: ...
    def leader_assign(self, client: Any, r: Any) -> dict[str, list[str]]: ...
    def on_member_stable(self, client: Any) -> None: ...
