"""The evidence transition table: which broker log facts a group in a given state can show.

``TRANSITIONS[(state, kind)]`` is the state the group is in *after* the logged fact, ``STAY`` when
the fact does not change the state, or ``LOADED`` for ``group_loaded`` (Stable, or Empty when the
loaded group has no members: ``GroupMetadataManager`` loads a group as Stable/Empty).

A ``(state, kind)`` pair that is missing is impossible for Kafka's coordinator: the replay records an
``impossible_transition`` anomaly and *adopts* the evidence (logs are the truth), so it re-synchronises
with the broker. The state-changing entries are built from Kafka's own valid-previous-state table
(:data:`coordinator_core.states.VALID_PREVIOUS_STATES`):

==================  =================================================  ============================
kind                from                                                to
==================  =================================================  ============================
rebalance_prepared  Stable, CompletingRebalance, Empty                 PreparingRebalance
join_completed      PreparingRebalance                                 CompletingRebalance
                    ("Stabilized group ..." is logged on entering CompletingRebalance)
group_empty         PreparingRebalance                                 Empty
assignment_received CompletingRebalance                                Stable (inferred: the
                                                                       leader's assignment is
                                                                       persisted, Stable is not
                                                                       logged)
group_stable        CompletingRebalance (Stable: stay)                 Stable
group_unloaded      any (Dead included)                                Dead (coordinator moved)
group_dead          any                                                Dead
group_loaded        Dead                                               Stable / Empty
==================  =================================================  ============================

Member facts (added, left, expired, pending, static replacement, fencing ...) never change the state;
they are possible in the live states in which Kafka logs them and impossible in Dead (except the
WARN about a rejoin in an unexpected state, which Kafka logs precisely in Empty and Dead).

A group whose state is not known yet (the logs begin) accepts every fact without anomaly; that case
is handled by the replay, not by this table.
"""

from __future__ import annotations

from coordinator_core.states import (
    COMPLETING_REBALANCE,
    DEAD,
    EMPTY,
    PREPARING_REBALANCE,
    STABLE,
    VALID_PREVIOUS_STATES,
    GroupState,
)

__all__ = ["TRANSITIONS", "STAY", "LOADED", "STATE_KINDS", "MEMBER_KINDS", "target"]

STAY = "stay"
LOADED = "loaded"

LIVE = (EMPTY, PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE)

#: broker kinds whose fact is a state change
STATE_KINDS: dict[str, GroupState] = {
    "rebalance_prepared": PREPARING_REBALANCE,
    "join_completed": COMPLETING_REBALANCE,
    "group_empty": EMPTY,
    "assignment_received": STABLE,
    "group_stable": STABLE,
    "group_unloaded": DEAD,
    "group_dead": DEAD,
}

#: broker kinds about members (or the join phase) that leave the state unchanged, with the states
#: in which Kafka can log them
MEMBER_KINDS: dict[str, tuple[GroupState, ...]] = {
    "member_id_required": LIVE,
    "member_added": LIVE,
    "member_left": LIVE,
    "member_session_expired": LIVE,
    "pending_member_expired": LIVE,
    "sync_expired": LIVE,
    "static_member_replaced": LIVE,
    "static_member_no_rebalance": (STABLE,),
    "static_member_fenced": LIVE,
    # logged inside onCompleteJoin, i.e. while the group is still PreparingRebalance
    "members_removed_not_joined": (PREPARING_REBALANCE,),
    "leader_reelected": (PREPARING_REBALANCE,),
    "no_member_rejoined": (PREPARING_REBALANCE,),
    # WARN "Attempt to add rejoining member ... in unexpected group state S" (Empty or Dead)
    "rejoin_unexpected_state": (EMPTY, DEAD),
}


def _build() -> dict[tuple[GroupState, str], str]:
    table: dict[tuple[GroupState, str], str] = {}
    for kind, tgt in STATE_KINDS.items():
        for src in VALID_PREVIOUS_STATES[tgt]:
            table[(src, kind)] = tgt.value
    table[(STABLE, "group_stable")] = STAY
    table[(DEAD, "group_loaded")] = LOADED
    for kind, states in MEMBER_KINDS.items():
        for st in states:
            table[(st, kind)] = STAY
    return table


#: (state, kind) -> target state value, STAY or LOADED
TRANSITIONS: dict[tuple[GroupState, str], str] = _build()

# plain-string keyed copy for the replay's hot path (states are kept as their string values)
_BY_VALUE: dict[tuple[str, str], str] = {(s.value, k): t for (s, k), t in TRANSITIONS.items()}



def target(state: str, kind: str) -> str | None:
    """Target for ``state`` (a GroupState value) and ``kind``; None when impossible."""
    return _BY_VALUE.get((state, kind))
