"""Seed 004's three scenarios (three consumers joining a group) as broker log evidence.

The book describes pre-0.11 Kafka (no initial rebalance delay, no reasons in the log). The broker
lines are written as a 0.10/2.0-style broker logs them: "Preparing to rebalance group g with old
generation N", "Stabilized group g generation N", "Assignment received from leader for group g for
generation N" - no member ids, no reasons.
"""

from __future__ import annotations

import pytest

from coordinator_core.replay import ReplaySettings
from tests.core.replay_helpers import broker, kinds, number, replay, states

OLD = ReplaySettings(version_hint="0.10.0")


def _round(ts: int, old_gen: int, *, sync: bool = True) -> list:
    evs = [
        broker("rebalance_prepared", ts, generation=old_gen),
        broker("join_completed", ts + 5, generation=old_gen + 1),
    ]
    if sync:
        evs.append(broker("assignment_received", ts + 10, generation=old_gen + 1))
    return evs


def scenario_1():
    """Three consumers send JoinGroup at once: consumer-3 alone completes a join round (gen 1), the
    leader's SyncGroup is rejected when consumer-2's join moves the group back to
    PreparingRebalance; consumer-3 rejoins and the round completes with all three (gen 2)."""
    return number(
        [
            broker("rebalance_prepared", 1000, generation=0),
            broker("join_completed", 1001, generation=1),
            broker("rebalance_prepared", 1002, generation=1),
            broker("join_completed", 1010, generation=2),
            broker("assignment_received", 1015, generation=2),
        ]
    )


def scenario_2():
    """consumer-1 alone completes a rebalance; a second later consumer-2 and consumer-3 join within
    one rebalance."""
    return number(_round(1000, 0) + _round(2000, 1))


def scenario_3():
    """Each consumer joins after the previous rebalance completed: three rebalances."""
    return number(_round(1000, 0) + _round(2000, 1) + _round(4000, 2))


@pytest.mark.parametrize(
    ("scenario", "rounds"),
    [(scenario_1, [2]), (scenario_2, [1, 1]), (scenario_3, [1, 1, 1])],
)
def test_rebalance_count_and_join_rounds(scenario, rounds):
    out = replay(scenario(), OLD)
    assert [r.join_rounds for r in out.rebalances] == rounds
    assert all(r.outcome == "completed" for r in out.rebalances)
    assert kinds(out) == []


def test_scenario_1_state_sequence_matches_the_book():
    out = replay(scenario_1(), OLD)
    # 稳定→准备再平衡→等待同步→准备再平衡→等待同步→稳定
    assert states(out) == [
        "Stable", "PreparingRebalance", "CompletingRebalance", "PreparingRebalance",
        "CompletingRebalance", "Stable",
    ]  # fmt: skip
    (reb,) = out.rebalances
    assert (reb.old_generation, reb.new_generation) == (0, 2)
    assert (reb.start_ts, reb.end_ts, reb.duration_ms) == (1000, 1015, 15)
    assert reb.rebalance_id == "g:1000:0"
    assert reb.coordinator_broker == 1
    assert reb.inferred is False


def test_scenario_2_state_sequence_matches_the_book():
    out = replay(scenario_2(), OLD)
    # 稳定→准备再平衡→等待同步→稳定→准备再平衡→等待同步→稳定
    assert states(out) == [
        "Stable", "PreparingRebalance", "CompletingRebalance", "Stable", "PreparingRebalance",
        "CompletingRebalance", "Stable",
    ]  # fmt: skip
    assert [(r.old_generation, r.new_generation) for r in out.rebalances] == [(0, 1), (1, 2)]
    assert [r.duration_ms for r in out.rebalances] == [10, 10]


def test_scenario_3_state_sequence_matches_the_book():
    out = replay(scenario_3(), OLD)
    assert states(out) == ["Stable"] + ["PreparingRebalance", "CompletingRebalance", "Stable"] * 3
    assert [r.rebalance_id for r in out.rebalances] == ["g:1000:0", "g:2000:1", "g:4000:2"]


def test_new_group_starts_empty_from_0_10_1():
    out = replay(scenario_3())  # no version hint: a generation-0 group was Empty
    assert states(out)[0] == "Empty"
    assert out.rebalances[0].members_before == 0


def test_shutdown_is_one_more_rebalance_that_ends_empty():
    evs = scenario_1() + number(
        [
            broker("rebalance_prepared", 9000, generation=2),
            broker("group_empty", 9000, generation=3),
        ]
    )
    out = replay(evs, OLD)
    assert [r.outcome for r in out.rebalances] == ["completed", "ended_empty"]
    last = out.rebalances[-1]
    assert (last.old_generation, last.new_generation, last.join_rounds, last.members_after) == (2, 3, 1, 0)
    assert states(out)[-1] == "Empty"
