"""``ClassicGroup.transition_to`` against Kafka's valid-previous-state table, all 25 (from, to)
pairs. Ports ``GroupMetadataTest`` (branch 3.9: testCanRebalanceWhenStable,
testPreparingRebalanceToPreparingRebalanceIllegalTransition, testStableToDeadTransition ...) and
``ClassicGroupTest`` (trunk), whose illegal moves throw ``IllegalStateException``."""

from __future__ import annotations

import itertools

import pytest

from coordinator_core.group import ClassicGroup, IllegalStateTransition
from coordinator_core.states import (
    COMPLETING_REBALANCE,
    DEAD,
    EMPTY,
    PREPARING_REBALANCE,
    STABLE,
    GroupState,
)

#: (from, to) pairs Kafka allows, written out independently of VALID_PREVIOUS_STATES
LEGAL = {
    (PREPARING_REBALANCE, EMPTY),
    (STABLE, PREPARING_REBALANCE),
    (COMPLETING_REBALANCE, PREPARING_REBALANCE),
    (EMPTY, PREPARING_REBALANCE),
    (PREPARING_REBALANCE, COMPLETING_REBALANCE),
    (COMPLETING_REBALANCE, STABLE),
    (STABLE, DEAD),
    (PREPARING_REBALANCE, DEAD),
    (COMPLETING_REBALANCE, DEAD),
    (EMPTY, DEAD),
    (DEAD, DEAD),
}

PAIRS = list(itertools.product(list(GroupState), repeat=2))


def test_there_are_25_pairs_and_11_legal_ones():
    assert len(PAIRS) == 25
    assert len(LEGAL) == 11


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{a.value}->{b.value}" for a, b in PAIRS])
def test_transition(source: GroupState, target: GroupState):
    group = ClassicGroup("g", source, ts=5)
    if (source, target) in LEGAL:
        group.transition_to(target, ts=7)
        assert group.state is target
        assert group.previous_state is source
        assert group.state_ts == 7
    else:
        with pytest.raises(IllegalStateTransition) as exc:
            group.transition_to(target, ts=7)
        assert group.state is source
        assert group.previous_state is source
        assert group.state_ts == 5
        assert target.value in str(exc.value) and source.value in str(exc.value)


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (EMPTY, True),
        (STABLE, True),
        (COMPLETING_REBALANCE, True),
        (PREPARING_REBALANCE, False),
        (DEAD, False),
    ],
)
def test_can_rebalance(state, expected):
    """GroupMetadataTest.testCanRebalanceWhen* / testCannotRebalanceWhen*."""
    assert ClassicGroup("g", state).can_rebalance() is expected
