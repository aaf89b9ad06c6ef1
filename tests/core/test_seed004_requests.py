"""The three scenarios of seed 004 (book excerpt on the 0.10-era coordinator): three consumers
joining at once (one assignment, but the group passes PreparingRebalance twice), staggered by 1 s
(two rebalances) and staggered by 1 s + 2 s (three rebalances).

The book describes Kafka 0.10.0 (``version="0.10"``): a new group starts in Stable (the Empty state
arrived in 0.10.1), there is no initial rebalance delay (0.11) and no MEMBER_ID_REQUIRED step (2.2),
and the rebalance timeout is the session timeout. A group whose last member leaves goes Dead.
"""

from __future__ import annotations

import pytest

from coordinator_core.config import CoordinatorConfig
from coordinator_core.coordinator import GroupCoordinator, Outcome

G = "seed004"
SESSION = 10000  # consumer default session.timeout.ms before 3.0


class Book:
    """Drives a GroupCoordinator like the book's consumers and records what happened."""

    def __init__(self, version: str = "0.10") -> None:
        self.c = GroupCoordinator(CoordinatorConfig(version=version))
        self.outcomes: list[Outcome] = []
        self.ids: dict[str, str] = {}
        self.gen_by_id: dict[str, int] = {}

    def _take(self, out: Outcome) -> Outcome:
        self.outcomes.append(out)
        for r in out.responses:
            if r.api == "JoinGroup" and r.error == "NONE":
                self.gen_by_id[r.member_id] = r.generation
        return out

    @property
    def gen(self) -> dict[str, int]:
        return {n: self.gen_by_id[mid] for n, mid in self.ids.items() if mid in self.gen_by_id}

    def join(self, t: int, name: str) -> Outcome:
        out = self._take(
            self.c.join_group(
                t, G, member_id=self.ids.get(name, ""), client_id=name, session_timeout_ms=SESSION
            )
        )
        if out.reply is not None and out.reply.member_id and name not in self.ids:
            self.ids[name] = out.reply.member_id
        elif name not in self.ids:
            # parked new member: its id is the newest member of the group
            self.ids[name] = list(self.c.group(G).members)[-1]
        return out

    def sync(self, t: int, name: str, assignments=None) -> Outcome:
        return self._take(
            self.c.sync_group(
                t, G, member_id=self.ids[name], generation=self.gen[name], assignments=assignments
            )
        )

    def heartbeat(self, t: int, name: str) -> str:
        return self._take(
            self.c.heartbeat(t, G, member_id=self.ids[name], generation=self.gen[name])
        ).reply.error

    def leave(self, t: int, name: str) -> Outcome:
        return self._take(self.c.leave_group(t, G, [(self.ids[name], None, None)]))

    def sync_all(self, t: int, names: list[str]) -> None:
        """The leader assigns one partition per member, then the followers sync."""
        group = self.c.group(G)
        leader = next(n for n in names if self.ids[n] == group.leader_id)
        parts = {mid: [f"topic-{i}"] for i, mid in enumerate(group.members)}
        assert self.sync(t, leader, parts).reply.error == "NONE"
        for n in names:
            if n != leader:
                assert self.sync(t, n).reply.error == "NONE"

    # observations -------------------------------------------------------------------------------
    def states(self) -> list[str]:
        return [to for out in self.outcomes for (_ts, _g, _frm, to, _gen) in out.transitions]

    def generations(self) -> list[int]:
        return [
            gen
            for out in self.outcomes
            for (_ts, _g, _frm, to, gen) in out.transitions
            if to == "CompletingRebalance"
        ]

    def count(self, kind: str) -> int:
        return sum(e.kind == kind for out in self.outcomes for e in out.events)


def test_scenario1_three_consumers_join_at_once_one_assignment():
    """Scenario 1: consumer-3's JoinGroup is handled first and completes alone (generation 1);
    consumer-2 and consumer-1 join while consumer-3 is in CompletingRebalance, so the group goes back
    to PreparingRebalance; consumer-3's SyncGroup gets REBALANCE_IN_PROGRESS; it rejoins and the
    join completes for all three (generation 2). One assignment in total."""
    b = Book()
    first = b.join(0, "consumer-3")
    assert first.reply.error == "NONE" and first.reply.generation == 1
    assert first.reply.leader_id == b.ids["consumer-3"]
    assert b.c.group(G).state.value == "CompletingRebalance"
    assert b.join(0, "consumer-2").reply is None  # parked: waiting for consumer-3 to rejoin
    assert b.c.group(G).state.value == "PreparingRebalance"
    assert b.join(0, "consumer-1").reply is None
    assert b.sync(1, "consumer-3").reply.error == "REBALANCE_IN_PROGRESS"
    rejoin = b.join(2, "consumer-3")
    assert rejoin.reply.error == "NONE" and rejoin.reply.generation == 2
    answered = {r.member_id: r for r in rejoin.responses if r.api == "JoinGroup"}
    assert set(answered) == set(b.ids.values())
    assert {r.generation for r in answered.values()} == {2}
    assert {r.leader_id for r in answered.values()} == {b.ids["consumer-3"]}
    assert len(answered[b.ids["consumer-3"]].members) == 3
    b.sync_all(3, ["consumer-3", "consumer-2", "consumer-1"])

    assert b.states() == [
        "Stable", "PreparingRebalance", "CompletingRebalance", "PreparingRebalance", "CompletingRebalance", "Stable",
    ]  # fmt: skip
    assert b.generations() == [1, 2]
    assert b.count("assignment_received") == 1
    # 0.10.0 logs no reason in "Preparing to restabilize group ..."
    assert all(e.reason is None for out in b.outcomes for e in out.events if e.kind == "rebalance_prepared")

    # closing the application: everybody leaves, the group is Dead and removed (0.10.0)
    for i, n in enumerate(["consumer-1", "consumer-2", "consumer-3"]):
        b.leave(10 + i, n)
    assert b.states()[6:] == ["PreparingRebalance", "Dead"]
    assert b.count("group_dead") == 1 and b.c.group(G) is None


def test_scenario2_staggered_by_one_second_two_rebalances():
    """Scenario 2: consumer-1 joins and syncs alone (generation 1, Stable); consumer-2 (t=1 s) and
    consumer-3 (t=2 s) join and wait for consumer-1, which learns about the rebalance from its
    heartbeat and rejoins; generation 2 with all three."""
    b = Book()
    assert b.join(0, "consumer-1").reply.generation == 1
    b.sync_all(10, ["consumer-1"])
    assert b.c.group(G).state.value == "Stable"
    assert b.join(1000, "consumer-2").reply is None
    assert b.join(2000, "consumer-3").reply is None
    assert b.heartbeat(3000, "consumer-1") == "REBALANCE_IN_PROGRESS"
    rejoin = b.join(3000, "consumer-1")
    assert rejoin.reply.generation == 2 and len(rejoin.reply.members) == 3
    b.sync_all(3010, ["consumer-1", "consumer-2", "consumer-3"])

    assert b.states() == [
        "Stable", "PreparingRebalance", "CompletingRebalance", "Stable",
        "PreparingRebalance", "CompletingRebalance", "Stable",
    ]  # fmt: skip
    assert b.generations() == [1, 2]
    assert b.count("rebalance_prepared") == 2 and b.count("assignment_received") == 2
    assert {b.gen[n] for n in ("consumer-1", "consumer-2", "consumer-3")} == {2}


def test_scenario3_staggered_one_then_two_seconds_three_rebalances():
    """Scenario 3: each consumer's arrival triggers its own rebalance: consumer-1 experiences three,
    consumer-2 two, consumer-3 one."""
    b = Book()
    assert b.join(0, "consumer-1").reply.generation == 1
    b.sync_all(10, ["consumer-1"])
    assert b.join(1000, "consumer-2").reply is None
    assert b.heartbeat(1500, "consumer-1") == "REBALANCE_IN_PROGRESS"
    assert b.join(1500, "consumer-1").reply.generation == 2
    b.sync_all(1510, ["consumer-1", "consumer-2"])
    assert b.join(3000, "consumer-3").reply is None
    assert b.heartbeat(3500, "consumer-1") == "REBALANCE_IN_PROGRESS"
    assert b.join(3500, "consumer-1").reply is None  # still waiting for consumer-2
    assert b.heartbeat(3600, "consumer-2") == "REBALANCE_IN_PROGRESS"
    last = b.join(3600, "consumer-2")
    assert last.reply.generation == 3
    b.sync_all(3610, ["consumer-1", "consumer-2", "consumer-3"])

    assert b.states() == [
        "Stable",
        "PreparingRebalance", "CompletingRebalance", "Stable",
        "PreparingRebalance", "CompletingRebalance", "Stable",
        "PreparingRebalance", "CompletingRebalance", "Stable",
    ]  # fmt: skip
    assert b.generations() == [1, 2, 3]
    assert b.count("assignment_received") == 3
    joined = {n: sum(1 for out in b.outcomes for r in out.responses
                     if r.api == "JoinGroup" and r.error == "NONE" and r.member_id == b.ids[n])
              for n in b.ids}  # fmt: skip
    assert joined == {"consumer-1": 3, "consumer-2": 2, "consumer-3": 1}


@pytest.mark.parametrize("version", ["0.11", "3.9"])
def test_scenario1_with_initial_delay_is_a_single_join_phase(version):
    """Contrast (not in the book): with group.initial.rebalance.delay.ms (0.11+) the three
    simultaneous joins fall into one initial delayed join: Empty -> PreparingRebalance ->
    CompletingRebalance (generation 1) -> Stable."""
    c = GroupCoordinator(CoordinatorConfig(version=version))
    ids = []
    for n in ("consumer-3", "consumer-2", "consumer-1"):
        out = c.join_group(0, G, client_id=n, session_timeout_ms=SESSION)
        if out.reply is not None and out.reply.error == "MEMBER_ID_REQUIRED":  # 2.2+ two-step join
            out = c.join_group(0, G, member_id=out.reply.member_id, client_id=n, session_timeout_ms=SESSION)
        ids.append(list(c.group(G).members)[-1])
        assert out.reply is None
    # d0 = 3000 fires with newMemberAdded set: extended by min(3000, 300000 - 3000) = 3000
    extended = c.advance_to(3000)
    assert extended.responses == [] and c.timer_deadline("join", G) == 6000
    done = c.advance_to(6000)
    assert [(r.api, r.error, r.generation) for r in done.responses] == [("JoinGroup", "NONE", 1)] * 3
    assert [t[3] for t in done.transitions] == ["CompletingRebalance"]
    assert c.group(G).leader_id == ids[0]
