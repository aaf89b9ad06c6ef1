"""The consumer-protocol group model: derived states (ConsumerGroup.maybeUpdateGroupState) and the
transition table."""

from __future__ import annotations

from coordinator_core.consumer.model import (
    ASSIGNING,
    C_ASSIGNING,
    C_DEAD,
    C_EMPTY,
    C_LOADED,
    C_RECONCILING,
    C_STABLE,
    DEAD,
    EMPTY,
    GROUP_STATES,
    RECONCILING,
    STABLE,
    STATE_OF_CONDITION,
    ConsumerGroupMember,
    ConsumerGroupModel,
    condition,
    next_state,
)


def group(ge, te, *members):
    return ConsumerGroupModel(
        "g", group_epoch=ge, target_assignment_epoch=te, members={m.member_id: m for m in members}
    )


def test_states_are_kafkas():
    assert GROUP_STATES == ("Empty", "Assigning", "Reconciling", "Stable", "Dead")


def test_condition_follows_maybe_update_group_state():
    a = ConsumerGroupMember("a", member_epoch=3, state="STABLE")
    b = ConsumerGroupMember("b", member_epoch=3, state="STABLE")
    assert condition(group(3, 3)) == C_EMPTY
    assert condition(group(4, 3, a, b)) == C_ASSIGNING
    assert condition(group(3, 3, a, b)) == C_STABLE
    b.state = "UNREVOKED_PARTITIONS"
    assert condition(group(3, 3, a, b)) == C_RECONCILING
    b.state, b.member_epoch = "STABLE", 2
    assert condition(group(3, 3, a, b)) == C_RECONCILING
    # a static member away (epoch -2) is not reconciled, as in Kafka (isReconciledTo)
    b.member_epoch = -2
    assert condition(group(3, 3, a, b)) == C_RECONCILING
    assert not b.present and a.present
    # unknown epochs are not shown reconciled
    assert condition(group(3, 3, a, ConsumerGroupMember("c"))) == C_RECONCILING


def test_next_state_is_the_derived_condition_dead_and_load_aside():
    for src in (None, EMPTY, ASSIGNING, RECONCILING, STABLE):
        assert next_state(src, C_ASSIGNING) == ASSIGNING
        assert next_state(src, C_STABLE) == STABLE
        assert next_state(src, C_DEAD) == DEAD
    # Dead takes no live condition without a load
    for cond in (C_EMPTY, C_ASSIGNING, C_RECONCILING, C_STABLE):
        assert next_state(DEAD, cond) is None
        assert next_state(RECONCILING, cond) == STATE_OF_CONDITION[cond]
    assert next_state(DEAD, C_LOADED, C_STABLE) == STABLE
    assert next_state(DEAD, C_LOADED, C_EMPTY) == EMPTY


def test_member_json_round_trip():
    m = ConsumerGroupMember(
        "a", "i-a", "c", 4, 3, "STABLE", "STABLE", "consumer", ["t-0"], [], True, 1, 2, 3, 4
    )
    assert ConsumerGroupMember.from_json(m.to_json()) == m
