"""The consumer-protocol (KIP-848) group model: epochs, members and the derived group state.

Kafka's names throughout (``group-coordinator/.../modern/consumer/ConsumerGroup.java``,
``ConsumerGroupMember.java``, ``modern/MemberState.java``; client ``MemberState.java``):

* ``group_epoch`` — bumped by the coordinator when the group's subscriptions or metadata change
  (a member joins, leaves or is fenced; its subscription changes; partitions are added; a regex
  resolves; since 4.1 a rack changes). A static member that *temporarily* leaves (member epoch -2)
  does not bump it.
* ``target_assignment_epoch`` — follows the group epoch once the target assignment for it is
  computed ("Computed a new target assignment for epoch N").
* ``member_epoch`` — each member's own epoch; it reaches the target epoch when the member has
  revoked what it must revoke (``CurrentAssignmentBuilder``: STABLE -> UNREVOKED_PARTITIONS (epoch
  kept) -> UNRELEASED_PARTITIONS / STABLE (epoch = target)). New members own nothing and get the
  target epoch at once.

The group state is *derived*, never logged (``ConsumerGroup.maybeUpdateGroupState``): EMPTY when
there are no members; ASSIGNING when the group epoch is ahead of the target assignment epoch;
RECONCILING when some member is not reconciled to the target (``isReconciledTo``: broker state
STABLE and member epoch == target epoch; a static member away with epoch -2 counts as not
reconciled, as in Kafka); STABLE otherwise. DEAD when the group is unloaded or deleted.

:func:`next_state` applies that rule: a live group's state is what its epochs say now (one condition,
:func:`condition`, any live state following any other, as in Kafka); the two facts that are not
derived are the group's unload or deletion (DEAD, from any state) and its load (the state its epochs
give, from any state). A live condition while DEAD without a load is impossible: the replay records
an ``impossible_transition`` anomaly and adopts the evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "EMPTY", "ASSIGNING", "RECONCILING", "STABLE", "DEAD", "GROUP_STATES", "BROKER_MEMBER_STATES",
    "CLIENT_MEMBER_STATES", "JOIN_GROUP_MEMBER_EPOCH", "LEAVE_GROUP_MEMBER_EPOCH", "LEAVE_GROUP_STATIC_MEMBER_EPOCH", "group_condition",
    "STATE_OF_CONDITION",
    "ConsumerGroupMember", "ConsumerGroupModel", "condition", "condition_plain", "next_state",
]  # fmt: skip

# ConsumerGroup.ConsumerGroupState (toString values)
EMPTY, ASSIGNING, RECONCILING, STABLE, DEAD = "Empty", "Assigning", "Reconciling", "Stable", "Dead"
GROUP_STATES = (EMPTY, ASSIGNING, RECONCILING, STABLE, DEAD)

#: broker-side member states (modern/MemberState.java)
BROKER_MEMBER_STATES = ("STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS", "UNKNOWN")
#: client-side member states (clients/.../internals/MemberState.java)
CLIENT_MEMBER_STATES = (
    "UNSUBSCRIBED", "JOINING", "RECONCILING", "ACKNOWLEDGING", "STABLE", "FENCED", "PREPARE_LEAVING",
    "LEAVING", "STALE", "FATAL",
)  # fmt: skip

JOIN_GROUP_MEMBER_EPOCH = 0
LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2

# conditions (what the epochs say) and facts that are not derived
C_EMPTY, C_ASSIGNING, C_RECONCILING, C_STABLE = "empty", "assigning", "reconciling", "stable"
C_DEAD, C_LOADED = "dead", "loaded"
_BY_CONDITION = {C_EMPTY: EMPTY, C_ASSIGNING: ASSIGNING, C_RECONCILING: RECONCILING, C_STABLE: STABLE}
#: condition -> group state (``ConsumerGroupState`` toString value)
STATE_OF_CONDITION = _BY_CONDITION


def next_state(state: str | None, cond: str, derived: str | None = None) -> str | None:
    """The state after ``cond`` in ``state``: DEAD for ``dead``; for ``loaded`` the state of
    ``derived`` (the condition of the epochs); for a live condition its state
    (``ConsumerGroup.maybeUpdateGroupState``), except while DEAD, where it is impossible (None)."""
    if cond == C_DEAD:
        return DEAD
    if cond == C_LOADED:
        return _BY_CONDITION.get(derived or C_EMPTY)
    if state == DEAD:
        return None
    return _BY_CONDITION.get(cond)


@dataclass(slots=True)
class ConsumerGroupMember:
    """A member as far as the evidence tells (None = unknown)."""

    member_id: str
    group_instance_id: str | None = None
    client_id: str | None = None
    #: the member's epoch (-2: static member temporarily away); None until evidence gives it
    member_epoch: int | None = None
    previous_member_epoch: int | None = None
    #: broker MemberState (STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS) when known
    state: str | None = None
    #: client MemberState of the member's own last transition line
    client_state: str | None = None
    #: consumer (KIP-848 heartbeats) or classic (a classic member in a consumer group)
    protocol: str | None = None
    assigned_partitions: list[str] = field(default_factory=list)
    partitions_pending_revocation: list[str] = field(default_factory=list)
    #: the full assignment is known (from a broker line, or tracked from an empty join)
    assignment_known: bool = False
    joined_ts: int | None = None
    last_seen_ts: int | None = None
    first_epoch: int | None = None
    last_epoch: int | None = None
    #: joined_ts is the earliest evidence, not a join line
    inferred: bool = False
    #: member-level reconciliation lines (client transitions / broker assignment state) seen
    tracked: bool = False
    coordinator: int | None = None
    #: client lines only: the member's own heartbeat lines (their longest gap is its heartbeat
    #: interval; a member silent for several intervals stopped heartbeating)
    last_heartbeat_ts: int | None = None
    heartbeat_interval_ms: int | None = None

    @property
    def present(self) -> bool:
        """In the group and counted for a rebalance (not a static member temporarily away)."""
        return self.member_epoch is None or self.member_epoch >= 0

    def is_reconciled_to(self, target_epoch: int | None) -> bool:
        """``ModernGroupMember.isReconciledTo``."""
        return self.state == "STABLE" and self.member_epoch is not None and self.member_epoch == target_epoch

    def to_json(self) -> dict[str, Any]:
        """The member by field name (fields that are None or empty left out)."""
        return {n: v for n in _MEMBER_FIELDS if (v := getattr(self, n)) is not None and v != [] and v is not False}

    @classmethod
    def from_json(cls, vals: dict[str, Any] | list[Any]) -> ConsumerGroupMember:
        """A member from :meth:`to_json` (or, from a format 1 snapshot, its values in field order)."""
        return cls(**(vals if isinstance(vals, dict) else dict(zip(_MEMBER_FIELDS, vals))))


_MEMBER_FIELDS = tuple(ConsumerGroupMember.__dataclass_fields__)


@dataclass(slots=True)
class ConsumerGroupModel:
    """The group: epochs, members and the derived state."""

    group_id: str
    protocol_type: str = "consumer"
    group_epoch: int | None = None
    target_assignment_epoch: int | None = None
    state: str | None = None
    members: dict[str, ConsumerGroupMember] = field(default_factory=dict)
    #: the assignor of the last target assignment ('uniform', 'range' ...)
    assignor: str | None = None
    coordinator: int | None = None

    def present_members(self) -> list[ConsumerGroupMember]:
        return [m for m in self.members.values() if m.present]

    def static_member(self, instance_id: str | None) -> ConsumerGroupMember | None:
        if not instance_id:
            return None
        for m in self.members.values():
            if m.group_instance_id == instance_id:
                return m
        return None


def group_condition(has_members: bool, group_epoch: int | None, target_epoch: int | None, reconciled) -> str:
    """``ConsumerGroup.maybeUpdateGroupState``, the one rule both the evidence replay and the
    request-level coordinator derive the group state with: empty without members; assigning while
    the group epoch is ahead of the target assignment epoch; reconciling while some member is not
    reconciled (``reconciled``: an iterable of booleans, read lazily); else stable."""
    if not has_members:
        return C_EMPTY
    if group_epoch is not None and (target_epoch is None or group_epoch > target_epoch):
        return C_ASSIGNING
    for ok in reconciled:
        if not ok:
            return C_RECONCILING
    return C_STABLE


def condition(g: ConsumerGroupModel) -> str:
    """What the epochs say now (:func:`group_condition`, the rule, with the members' reconciliation
    read inline: the replay derives the state on every line). Unknown epochs count as not
    reconciled: the state is only STABLE when the evidence shows it. Equal to
    :func:`condition_plain` (tests/core/test_consumer_speed.py)."""
    members = g.members
    if not members:
        return C_EMPTY
    te, ge = g.target_assignment_epoch, g.group_epoch
    if ge is not None and (te is None or ge > te):
        return C_ASSIGNING
    if te is None:  # ``is_reconciled_to(None)`` is false for every member
        return C_RECONCILING
    for m in members.values():
        if m.state != "STABLE" or m.member_epoch != te:
            return C_RECONCILING
    return C_STABLE


def condition_plain(g: ConsumerGroupModel) -> str:
    """:func:`condition` through :func:`group_condition` and ``is_reconciled_to`` (the reference)."""
    te = g.target_assignment_epoch
    return group_condition(
        bool(g.members), g.group_epoch, te, (m.is_reconciled_to(te) for m in g.members.values())
    )
