"""The simulator's scenarios, classic and consumer protocol: one :class:`Scenario` record each.

:data:`TABLE` is the one place a scenario is declared: its name, its weight in the seeded mix, the
planner that injects it (a method of :class:`~jobs.simulate.scenarios.ScenarioDriver` for classic
groups, of :class:`~jobs.simulate.consumer_scenarios.ConsumerScenarios` for consumer-protocol
groups; it starts the incident on one group and returns its expected duration in ms) and what it
does. The drivers get the table injected (``ScenarioDriver(sim, TABLE)``) and dispatch through it;
:data:`SCENARIOS` and :data:`CONSUMER_SCENARIOS` are its names.

The README's scenario table is generated from it (:mod:`jobs.simulate.scenario_docs`).
"""

from __future__ import annotations

from jobs.simulate.consumer_scenarios import ConsumerScenarios
from jobs.simulate.scenario_types import CLASSIC, CONSUMER, Scenario
from jobs.simulate.scenarios import ScenarioDriver

__all__ = ["CLASSIC", "CONSUMER", "CONSUMER_SCENARIOS", "SCENARIOS", "TABLE", "Scenario"]


TABLE: tuple[Scenario, ...] = (
    Scenario("steady", CLASSIC, 18, ScenarioDriver.steady, "nothing (no rebalance)"),
    Scenario("scale_out", CLASSIC, 10, ScenarioDriver.scale_out,
             "a new consumer host starts (`new_member`); at twice the size, an extra host is shut down "
             "instead (`member_leave`)"),
    Scenario("graceful_leave", CLASSIC, 12, ScenarioDriver.graceful_leave,
             "a consumer closes (`member_leave`; static: `session_timeout`) and comes back 20-90 s later "
             "(`new_member`)"),
    Scenario("crash", CLASSIC, 12, ScenarioDriver.crash,
             "a consumer dies without a word (`session_timeout`), restarts later"),
    Scenario("poll_timeout", CLASSIC, 8, ScenarioDriver.poll_timeout,
             "the poll loop blocks > max.poll.interval.ms: the heartbeat thread sends LeaveGroup "
             "(`poll_timeout_leave`), then the consumer rejoins"),
    Scenario("rolling_restart", CLASSIC, 7, ScenarioDriver.rolling_restart,
             "every consumer restarts in turn (a storm of `member_leave` / `new_member`; static members "
             "within the session timeout: none)"),
    Scenario("flapping", CLASSIC, 6, ScenarioDriver.flapping,
             "one consumer freezes longer than the session timeout several times (`session_timeout` then "
             "`new_member`, a storm)"),
    Scenario("join_during_completing", CLASSIC, 7, ScenarioDriver.join_during_completing,
             "a new consumer joins while the group is CompletingRebalance (one rebalance with two join "
             "rounds)"),
    Scenario("failover", CLASSIC, 6, ScenarioDriver.failover,
             "the `__consumer_offsets` partition moves to another broker (unload/load lines, clients "
             "rediscover; no rebalance)"),
    Scenario("static_restart", CLASSIC, 14, ScenarioDriver.static_restart,
             "a static member restarts within the session timeout (no rebalance)"),
    Scenario("steady", CONSUMER, 15, ConsumerScenarios.steady, "nothing (no rebalance)"),
    Scenario("scale_out", CONSUMER, 14, ConsumerScenarios.scale_out,
             "a new consumer starts (`new_member`); at twice the size, an extra one closes instead "
             "(`member_leave`; static: temporarily left, then `session_timeout`)"),
    Scenario("graceful_leave", CONSUMER, 14, ConsumerScenarios.graceful_leave,
             "a consumer closes (`member_leave`; static: its session expires 45 s later, "
             "`session_timeout`) and comes back later (`new_member`)"),
    Scenario("crash", CONSUMER, 12, ConsumerScenarios.crash,
             "a consumer dies silently (`session_timeout` 45 s later), restarts later"),
    Scenario("slow_revocation", CONSUMER, 6, ConsumerScenarios.slow_revocation,
             "a consumer joins and the next member asked to revoke takes longer than the rebalance "
             "timeout in its callback: fenced (a `rebalance_timeout` round of the `new_member` "
             "rebalance), then it rejoins (`new_member`)"),
    Scenario("rolling_restart", CONSUMER, 8, ConsumerScenarios.rolling_restart,
             "every consumer restarts in turn: dynamic members leave and join (a storm of `member_leave` "
             "/ `new_member`); static members within the session timeout are replaced without any "
             "rebalance"),
    Scenario("static_restart", CONSUMER, 10, ConsumerScenarios.static_restart,
             "one static member restarts within the session timeout (no rebalance)"),
    Scenario("partitions_added", CONSUMER, 8, ConsumerScenarios.partitions_added,
             "a subscribed topic gains partitions (`metadata_change`, no culprit)"),
    Scenario("rolling_upgrade", CONSUMER, 4, ConsumerScenarios.rolling_upgrade,
             "a new application version subscribes to one more topic; every consumer restarts in turn: "
             "static members are replaced with another subscription (`static_member`, one bump each), "
             "dynamic ones leave and join"),
)  # fmt: skip

#: the classic scenarios' names, in table order (``--scenarios`` also takes :data:`CONSUMER_SCENARIOS`)
SCENARIOS = tuple(s.name for s in TABLE if s.protocol == CLASSIC)
CONSUMER_SCENARIOS = tuple(s.name for s in TABLE if s.protocol == CONSUMER)
