"""Group states and Kafka's valid-previous-state table.

Identical in Scala (``GroupMetadata.scala``, 1.1.0 -> 3.9) and Java (``classic/ClassicGroupState.java``).
``CompletingRebalance`` was called ``AwaitingSync`` up to 1.0.x (the dialects map those logs' state
names).
"""

from __future__ import annotations

from enum import StrEnum


class GroupState(StrEnum):
    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


EMPTY = GroupState.EMPTY
PREPARING_REBALANCE = GroupState.PREPARING_REBALANCE
COMPLETING_REBALANCE = GroupState.COMPLETING_REBALANCE
STABLE = GroupState.STABLE
DEAD = GroupState.DEAD

#: target state -> states it may be entered from (GroupMetadata.validPreviousStates)
VALID_PREVIOUS_STATES: dict[GroupState, frozenset[GroupState]] = {
    EMPTY: frozenset({PREPARING_REBALANCE}),
    PREPARING_REBALANCE: frozenset({STABLE, COMPLETING_REBALANCE, EMPTY}),
    COMPLETING_REBALANCE: frozenset({PREPARING_REBALANCE}),
    STABLE: frozenset({COMPLETING_REBALANCE}),
    DEAD: frozenset({STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD}),
}


def can_rebalance(state: GroupState) -> bool:
    """``canRebalance``: the state is a valid previous state of PreparingRebalance."""
    return state in VALID_PREVIOUS_STATES[PREPARING_REBALANCE]
