"""The transition table of the state changes the classic replay makes WITHOUT a broker line stating
them: a group reconstructed from client lines alone, a group re-created after it was removed, and the
hand-over between protocols. Broker lines have their own table (:mod:`coordinator_core.transitions`);
both are applied in one place (:meth:`~coordinator_core.replay.core.ReplayCore._apply` for this one,
:meth:`~coordinator_core.replay.broker.BrokerEvidence._broker` for the broker's).

``INFERRED_TRANSITIONS[(state, fact)]`` is the state after ``fact`` in ``state`` (None: the state is
not known yet). A missing pair means the fact changes nothing in that state: the handler does not
apply it (:meth:`~coordinator_core.replay.core.ReplayCore._can`), or, applied anyway, it is an
``impossible_transition`` anomaly.

=========================  ================================================  =====================
fact                       from                                               to
=========================  ================================================  =====================
rebalance_signal           Stable, Empty, unknown (a client rejoins, leaves,  PreparingRebalance
                           times out, sees REBALANCE_IN_PROGRESS)
join_round                 CompletingRebalance (a member of the new           PreparingRebalance
                           generation rejoins, or one leaves)
last_member_left           PreparingRebalance                                 Empty
joined                     PreparingRebalance, CompletingRebalance            CompletingRebalance
                           ("Successfully joined ... generation N")
joined_unseen_start        Stable, Empty, Dead, unknown (a join whose         CompletingRebalance
                           rebalance start was not logged)
synced                     PreparingRebalance, CompletingRebalance            Stable
                           (a successful SyncGroup of the new generation)
recreated                  Dead (a removed group shows up again)              Empty (Stable < 0.10.1)
handed_over                any, unknown (the group continues under the        Dead
                           consumer protocol)
taken_over                 any, unknown (the group converts back)             Stable (Empty when no
                                                                              member is handed over)
=========================  ================================================  =====================

Every entry whose source is a known state follows Kafka's valid previous states
(:data:`coordinator_core.states.VALID_PREVIOUS_STATES`) except where the logs skip a state Kafka went
through: ``joined_unseen_start`` (PreparingRebalance was not logged), ``synced`` from
PreparingRebalance (the CompletingRebalance of the generation was not logged), ``recreated`` (Kafka
creates a new group object) and the hand-over, which leaves one protocol's model for the other's; a
``joined`` in CompletingRebalance keeps the state. ``tests/core/test_replay_inferred.py`` checks that list.
"""

from __future__ import annotations

from coordinator_core.replay.model import CR, PR, D, E, S

__all__ = ["INFERRED_TRANSITIONS", "NEW_GROUP", "TAKEN_OVER", "OLD_EMPTY_VERSION", "SKIPS", "FACTS"]

#: before this broker version a new group starts Stable (Empty did not exist)
OLD_EMPTY_VERSION = (0, 10, 1)
#: target of ``recreated``: a new group's first state (Empty; Stable before 0.10.1)
NEW_GROUP = "new_group"
#: target of ``taken_over``: Stable, or Empty when no member was handed over
TAKEN_OVER = "taken_over"

_ANY = (None, E, PR, CR, S, D)

FACTS: dict[str, tuple[tuple[str | None, ...], str]] = {
    "rebalance_signal": ((S, E, None), PR),
    "join_round": ((CR,), PR),
    "last_member_left": ((PR,), E),
    "joined": ((PR, CR), CR),
    "joined_unseen_start": ((S, E, D, None), CR),
    "synced": ((PR, CR), S),
    "recreated": ((D,), NEW_GROUP),
    "handed_over": (_ANY, D),
    "taken_over": (_ANY, TAKEN_OVER),
}

#: (state, fact) -> next state (or NEW_GROUP / TAKEN_OVER, resolved by the replay)
INFERRED_TRANSITIONS: dict[tuple[str | None, str], str] = {
    (src, fact): to for fact, (sources, to) in FACTS.items() for src in sources
}

#: the (state, fact) pairs that jump over a state Kafka's coordinator passes through, because the
#: logs do not show it, or that leave one protocol's model for the other's
SKIPS: frozenset[tuple[str | None, str]] = frozenset(
    {(s, "joined_unseen_start") for s in (S, E, D)}
    | {(PR, "synced"), (D, "recreated")}
    | {(s, f) for s in (E, PR, CR, S, D) for f in ("handed_over", "taken_over")}
)
