"""Reconciliation: Kafka's ``CurrentAssignmentBuilder`` (``modern/consumer/``), the state machine that
moves one member from its current assignment towards the target assignment.

States (``modern/MemberState``): STABLE (at an epoch, nothing pending), UNREVOKED_PARTITIONS (must
revoke first; keeps its epoch), UNRELEASED_PARTITIONS (at the target epoch, waiting for partitions
other members still own), UNKNOWN (fenced: must rejoin without partitions). ``owned`` is what the
member's heartbeat reports (None: not sent, which counts as still owning what it must revoke).

Versioned rules (:class:`~coordinator_core.consumer.versions.ConsumerRules`): before 4.2 leaving
UNREVOKED_PARTITIONS recomputes at member epoch + 1 (so UNREVOKED -> UNREVOKED bumps the epoch) and
a member's own pending revocations count as unreleased; 4.2 revokes partitions of unsubscribed
topics even at the target epoch.
"""

from __future__ import annotations

from collections.abc import Callable

from coordinator_core.consumer.protocol import FENCED_MEMBER_EPOCH, CoordinatorError
from coordinator_core.consumer.state import M_STABLE, M_UNKNOWN, M_UNRELEASED, M_UNREVOKED, ConsumerMember
from coordinator_core.consumer.versions import ConsumerRules

__all__ = ["build_next", "owns_any"]

Parts = dict[str, frozenset[int]]


def owns_any(owned: Parts | None, pending: Parts) -> bool:
    """``ownsRevokedPartitions``: the reported owned partitions include one pending revocation."""
    if owned is None:
        return True
    for t, ps in owned.items():
        rev = pending.get(t)
        if rev and not rev.isdisjoint(ps):
            return True
    return False


def build_next(
    member: ConsumerMember,
    target_epoch: int,
    target: Parts,
    partition_epoch: Callable[[str, int], int],
    owned: Parts | None,
    rules: ConsumerRules,
    subscribed: frozenset[str] | None = None,
) -> ConsumerMember:
    """``CurrentAssignmentBuilder.build``: the member's next state (``member`` itself when nothing
    can move). ``subscribed`` (4.2 rules only): the member's subscribed topics. Raises
    :class:`CoordinatorError` ``FENCED_MEMBER_EPOCH`` for a member in UNKNOWN that still owns
    partitions."""
    st = member.state
    #: the subscribed topics when the rules strip unsubscribed partitions (4.2), else None
    enforced = subscribed if rules.enforce_subscription_consistency else None
    if st == M_STABLE:
        if member.member_epoch != target_epoch:
            return _next(member, member.member_epoch, target_epoch, target, partition_epoch, owned, rules, subscribed)
        if enforced is not None:
            return _strip_unsubscribed(member, owned, enforced)
        return member
    if st == M_UNREVOKED:
        if owns_any(owned, member.partitions_pending_revocation):
            return _strip_unsubscribed(member, owned, enforced) if enforced is not None else member
        epoch = member.member_epoch + 1 if rules.unrevoked_epoch_bump else member.member_epoch
        return _next(member, epoch, target_epoch, target, partition_epoch, owned, rules, subscribed)
    if st == M_UNRELEASED:
        return _next(member, member.member_epoch, target_epoch, target, partition_epoch, owned, rules, subscribed)
    if st == M_UNKNOWN:
        if owned is None or owned:
            raise CoordinatorError(
                FENCED_MEMBER_EPOCH,
                "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
            )
        return _next(member, target_epoch, target_epoch, target, partition_epoch, owned, rules, subscribed)
    return member


def _next(
    member: ConsumerMember, epoch: int, target_epoch: int, target: Parts,
    partition_epoch: Callable[[str, int], int], owned: Parts | None, rules: ConsumerRules,
    subscribed: frozenset[str] | None,
) -> ConsumerMember:  # fmt: skip
    """``computeNextAssignment``."""
    current = member.assigned_partitions
    own_pending = member.partitions_pending_revocation if rules.own_pending_not_unreleased else {}
    strip_to = subscribed if rules.enforce_subscription_consistency else None
    unreleased = False
    new_assigned: Parts = {}
    new_revoke: Parts = {}
    new_pending: Parts = {}
    for t in set(target) | set(current):
        tgt = target.get(t, frozenset())
        if strip_to is not None and t not in strip_to:
            tgt = frozenset()
        cur = current.get(t, frozenset())
        kept = cur & tgt
        revoke = cur - kept
        pending = tgt - kept
        if pending:
            mine = own_pending.get(t, frozenset())
            free = frozenset(p for p in pending if partition_epoch(t, p) == -1 or p in mine)
            if len(free) != len(pending):
                unreleased = True
            pending = free
        if kept:
            new_assigned[t] = kept
        if revoke:
            new_revoke[t] = revoke
        if pending:
            new_pending[t] = pending
    if new_revoke and owns_any(owned, new_revoke):
        return _with(member, M_UNREVOKED, epoch, new_assigned, new_revoke)
    if new_pending:
        for t, ps in new_pending.items():
            new_assigned[t] = new_assigned.get(t, frozenset()) | ps
        return _with(member, M_UNRELEASED if unreleased else M_STABLE, target_epoch, new_assigned, {})
    return _with(member, M_UNRELEASED if unreleased else M_STABLE, target_epoch, new_assigned, {})


def _strip_unsubscribed(member: ConsumerMember, owned: Parts | None, subscribed: frozenset[str]) -> ConsumerMember:
    """``updateCurrentAssignment`` (4.2): partitions of topics no longer subscribed go to pending
    revocation at the current epoch."""
    assigned = member.assigned_partitions
    if not any(t not in subscribed for t in assigned):
        return member
    new_assigned = {t: ps for t, ps in assigned.items() if t in subscribed}
    new_revoke = dict(member.partitions_pending_revocation)
    for t, ps in assigned.items():
        if t not in subscribed:
            new_revoke[t] = new_revoke.get(t, frozenset()) | ps
    if new_revoke and owns_any(owned, new_revoke):
        return _with(member, M_UNREVOKED, member.member_epoch, new_assigned, new_revoke)
    m = member.copy(assigned_partitions=new_assigned)
    m.update_member_epoch(member.member_epoch)
    return m


def _with(member: ConsumerMember, state: str, epoch: int, assigned: Parts, pending: Parts) -> ConsumerMember:
    m = member.copy(state=state, assigned_partitions=assigned, partitions_pending_revocation=pending)
    m.update_member_epoch(epoch)
    return m
