"""``StickyAssignor`` (``sticky``) and ``CooperativeStickyAssignor`` (``cooperative-sticky``).

Both share Kafka's ``AbstractStickyAssignor`` (3.x, no racks here). Guarantees, in priority order:

1. **balance** — partition counts differ by at most one; when subscriptions differ, no member with
   two or more fewer partitions than another could take one of that member's partitions;
2. **stickiness** — keep as many previous owner -> partition pairs as possible.

Previous ownership comes from each member's ``owned`` partitions and generation. When several
members claim one partition: the same generation invalidates the claim for all of them (Kafka logs
ERROR ``Found multiple consumers … claiming the same TopicPartition``); otherwise the highest
generation wins (WARN). A member without a generation counts as generation -1.

Two algorithms, as in Kafka:

* **constrained** (all subscriptions identical): ``minQuota = P // C``, ``maxQuota = ceil(P / C)``
  and ``P % C`` members may hold ``maxQuota``. Members are visited in the leader's ``HashMap`` order;
  each keeps its owned partitions (ordered by partition number, then topic) up to ``maxQuota`` while
  slots for ``maxQuota`` remain, else up to ``minQuota``; the rest are filled round-robin over the
  unfilled members (sorted by member id), partitions sorted by topic then partition. This is a port
  of Kafka's steps, so results match the Java client's.
* **general** (different subscriptions): keep every valid owned partition of a still-subscribed
  topic; give each unassigned partition (topics with the fewest potential consumers first) to the
  subscribed member with the fewest partitions (ties: member id); then move partitions from members
  with 2+ more partitions to subscribed members with fewer, preferring (a) partitions whose
  previous-generation owner is the receiver, (b) partitions handed out in this round. Every move
  strictly reduces the imbalance, so it stops in a balanced state. This keeps Kafka's guarantees but
  not its exact tie-breaking (Kafka's choice there depends on Java ``HashSet`` iteration order).

Cooperative-sticky computes the same target, then withholds every partition that moves from one
owner to another (``adjustAssignment``): the old owner revokes it first and it is handed out in the
follow-up rebalance. :func:`cooperative_rounds` returns those rounds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from coordinator_core.assignors._common import (
    Assignment,
    TopicPartition,
    normalize_owned,
    normalize_subscriptions,
    partition_key,
    sorted_assignment,
)
from coordinator_core.assignors._members import java_hashmap_order, java_key

__all__ = [
    "DEFAULT_GENERATION",
    "CooperativeRound",
    "StickyPlan",
    "assign_cooperative_sticky",
    "assign_sticky",
    "balance_violations",
    "cooperative_rounds",
    "plan_sticky",
]

#: ``AbstractStickyAssignor.DEFAULT_GENERATION``: the generation of a member that reports none.
DEFAULT_GENERATION = -1

Generation = int | Mapping[str, int | None] | None


@dataclass(frozen=True)
class StickyPlan:
    """Result of one sticky assignment.

    ``assignment`` is the eager (``sticky``) assignment; ``transferring`` maps each partition that
    must first be revoked from another member to its new owner (``partitionsTransferringOwnership``);
    ``cooperative`` is ``assignment`` without those partitions (what ``cooperative-sticky`` sends).
    """

    assignment: Assignment
    transferring: dict[TopicPartition, str]
    constrained: bool
    multiply_claimed: frozenset[TopicPartition] = frozenset()

    @property
    def cooperative(self) -> Assignment:
        return {m: [tp for tp in tps if self.transferring.get(tp) != m] for m, tps in self.assignment.items()}


@dataclass(frozen=True)
class CooperativeRound:
    """One rebalance of a cooperative group: what each member gets and must give up."""

    generation: int | None  # the generation the members reported when joining this round
    assignment: Assignment  # what the leader sends (withheld partitions removed)
    revoked: dict[str, list[TopicPartition]]  # owned before this round, not assigned in it
    withheld: dict[TopicPartition, str] = field(default_factory=dict)  # partition -> its next owner


# ----------------------------------------------------------------------------------- ownership


def _generation_of(generation: Generation, member: str) -> int | None:
    if generation is None:
        return None
    if isinstance(generation, Mapping):
        g = generation.get(member)
    else:
        g = generation
    if g is not None and (isinstance(g, bool) or not isinstance(g, int)):
        raise ValueError(f"generation of member {member!r} must be an int, got {g!r}")
    return g


def _resolve_claims(
    order: list[str],
    counts: Mapping[str, int],
    claims: Mapping[str, list[TopicPartition]],
    generations: Mapping[str, int | None],
) -> tuple[dict[str, dict[TopicPartition, None]], set[TopicPartition], int]:
    """``allSubscriptionsEqual``'s ownership pass: valid owned partitions per member.

    Returns (member -> ordered set of valid owned partitions, partitions claimed by several members
    of one generation, max generation).
    """
    valid: dict[str, dict[TopicPartition, None]] = {}
    multiply_claimed: set[TopicPartition] = set()
    claimant: dict[TopicPartition, str] = {}
    max_generation = DEFAULT_GENERATION
    for member in order:
        gen = generations[member]
        gen = DEFAULT_GENERATION if gen is None else gen
        max_generation = max(max_generation, gen)
        mine: dict[TopicPartition, None] = {}
        valid[member] = mine
        for tp in claims[member]:
            n = counts.get(tp[0])
            if n is None or not 0 <= tp[1] < n:
                continue  # topic not subscribed by anyone / without metadata, or no such partition
            other = claimant.get(tp)
            if other is None:
                mine[tp] = None
                claimant[tp] = member
                continue
            other_gen = generations[other]
            other_gen = DEFAULT_GENERATION if other_gen is None else other_gen
            if gen == other_gen:
                multiply_claimed.add(tp)
                valid[other].pop(tp, None)
                claimant[tp] = member
            elif gen > other_gen:
                mine[tp] = None
                valid[other].pop(tp, None)
                claimant[tp] = member
            # else: the other member's higher generation keeps the partition
    return valid, multiply_claimed, max_generation


# ------------------------------------------------------------------------------ constrained path


class _ConstrainedAssignmentBuilder:
    """Kafka's ``ConstrainedAssignmentBuilder`` (identical subscriptions), without racks."""

    def __init__(
        self,
        order: list[str],
        counts: Mapping[str, int],
        valid: Mapping[str, Mapping[TopicPartition, None]],
        multiply_claimed: set[TopicPartition],
    ) -> None:
        self.order = order
        self.counts = counts
        self.valid = valid
        self.multiply_claimed = multiply_claimed
        total = sum(counts.values())
        self.min_quota, rest = divmod(total, len(order))
        self.max_quota = self.min_quota + (1 if rest else 0)
        self.expected_over = rest  # members that will hold maxQuota
        self.current_over = 0
        self.assignment: Assignment = {m: [] for m in order}
        self.maybe_revoked: dict[TopicPartition, str] = {}
        self.under_min: list[str] = []
        self.exactly_min: list[str] = []
        self.assigned: set[TopicPartition] = set()
        self.transferring: dict[TopicPartition, str] = {}

    def build(self) -> tuple[Assignment, dict[TopicPartition, str]]:
        """Keep owned partitions within quota, then fill the unfilled members round-robin."""
        self.assign_owned_partitions()
        unassigned = self.get_unassigned_partitions()
        self.under_min.sort(key=java_key)
        self.exactly_min.sort(key=java_key)
        self.assign_round_robin(unassigned)
        return self.assignment, self.transferring

    def assign_owned_partitions(self) -> None:
        """Reassign previously owned partitions, up to the expected number per member."""
        for member in self.order:
            owned = sorted(
                (tp for tp in self.valid[member] if tp not in self.multiply_claimed),
                key=lambda tp: (tp[1], java_key(tp[0])),
            )
            if len(owned) < self.min_quota:
                keep = owned
                self.under_min.append(member)
            elif len(owned) >= self.max_quota and self.current_over < self.expected_over:
                self.current_over += 1
                if self.current_over == self.expected_over:
                    self.exactly_min.clear()
                keep = owned[: self.max_quota]
            else:
                keep = owned[: self.min_quota]
                if self.current_over < self.expected_over:
                    self.exactly_min.append(member)
            for tp in owned[len(keep) :]:
                self.maybe_revoked[tp] = member
            self.assignment[member].extend(keep)
            self.assigned.update(keep)

    def get_unassigned_partitions(self) -> list[TopicPartition]:
        """Every partition not kept by its owner, sorted by topic then partition."""
        return [(t, p) for t, n in self.counts.items() for p in range(n) if (t, p) not in self.assigned]

    def assign_round_robin(self, unassigned: list[TopicPartition]) -> None:
        """Fill the unfilled members up to ``maxQuota`` where slots remain, else to ``minQuota``."""
        under_min = self.under_min
        exact_queue = deque(self.exactly_min)
        cursor = 0  # position of an iterator over under_min
        for tp in unassigned:
            if cursor < len(under_min):
                member = under_min[cursor]
                cursor += 1
            elif not under_min and not exact_queue:
                raise AssertionError(
                    f"sticky assignor: no unfilled member left for {tp}"
                )  # Kafka: IllegalStateException
            elif not under_min:
                member = exact_queue.popleft()
            else:
                member = under_min[0]
                cursor = 1
            count = self.assign_new_partition(tp, member)
            if count == self.min_quota:
                cursor -= 1
                del under_min[cursor]
                exact_queue.append(member)
            elif count == self.max_quota:
                self.current_over += 1

    def assign_new_partition(self, tp: TopicPartition, member: str) -> int:
        """Give ``tp`` to ``member``, recording it as transferring if another member owned it."""
        self.assignment[member].append(tp)
        if (tp in self.maybe_revoked and self.maybe_revoked[tp] != member) or tp in self.multiply_claimed:
            self.transferring[tp] = member
        return len(self.assignment[member])


def _constrained(
    order: list[str],
    counts: Mapping[str, int],
    valid: Mapping[str, Mapping[TopicPartition, None]],
    multiply_claimed: set[TopicPartition],
) -> tuple[Assignment, dict[TopicPartition, str]]:
    """Kafka's ``constrainedAssign``: the assignment and the partitions transferring ownership."""
    return _ConstrainedAssignmentBuilder(order, counts, valid, multiply_claimed).build()


# --------------------------------------------------------------------------------- general path


class _GeneralAssignmentBuilder:
    """Kafka's ``GeneralAssignmentBuilder``: balance first, then stickiness, for differing subscriptions."""

    def __init__(
        self,
        order: list[str],
        subs: Mapping[str, frozenset[str]],
        counts: Mapping[str, int],
        valid: Mapping[str, Mapping[TopicPartition, None]],
        prev_owner: Mapping[TopicPartition, str],
    ) -> None:
        self.order = order
        self.subs = subs
        self.counts = counts
        self.valid = valid
        self.prev_owner = prev_owner
        self.by_key = sorted(order, key=java_key)
        self.rank = {m: i for i, m in enumerate(self.by_key)}
        self.topic_subscribers: dict[str, list[str]] = {t: [] for t in counts}
        self.member_topics: dict[str, list[str]] = {}
        for m in self.by_key:
            mt = [t for t in counts if t in subs[m]]
            self.member_topics[m] = mt
            for t in mt:
                self.topic_subscribers[t].append(m)
        # held[m][t]: partitions of topic t held by m (ordered sets)
        self.held: dict[str, dict[str, dict[TopicPartition, None]]] = {m: {} for m in self.by_key}
        self.count: dict[str, int] = dict.fromkeys(self.by_key, 0)
        self.owner: dict[TopicPartition, str] = {}
        # handed out this round, in the order maybe_assign gave them (an ordered set: a plain set's
        # order follows the per-process string hash, and the balance picks from the end of it)
        self.fresh: dict[TopicPartition, None] = {}
        self.revocation_required = False
        self.dst_topics: dict[str, list[str]] = {}
        self.fresh_held: dict[str, dict[str, dict[TopicPartition, None]]] = {}
        # returning[dst]: partitions dst owned in an older generation
        self.returning: dict[str, list[TopicPartition]] = {}

    def build(self) -> Assignment:
        """Keep valid owned partitions, hand out the rest, then balance."""
        self.assign_owned_partitions()
        self.maybe_assign()
        self.balance()
        return {m: [tp for t in self.counts for tp in self.held[m].get(t, ())] for m in self.order}

    def _add(self, tp: TopicPartition, member: str) -> None:
        """Record ``member`` as the holder of ``tp``."""
        self.held[member].setdefault(tp[0], {})[tp] = None
        self.owner[tp] = member
        self.count[member] += 1

    def assign_owned_partitions(self) -> None:
        """Keep every valid owned partition of a topic its member still subscribes to."""
        for m in self.by_key:
            for tp in self.valid[m]:
                if tp[0] not in self.subs[m]:
                    self.revocation_required = True  # the member unsubscribed from that topic
                    continue
                self._add(tp, m)

    def maybe_assign(self) -> None:
        """Hand out unassigned partitions, topics with the fewest potential consumers first."""
        count, rank = self.count, self.rank
        topic_order = sorted(self.counts, key=lambda t: (len(self.topic_subscribers[t]), java_key(t)))
        for t in topic_order:
            candidates = self.topic_subscribers[t]
            for p in range(self.counts[t]):
                tp = (t, p)
                if tp in self.owner:
                    continue
                m = min(candidates, key=lambda c: (count[c], rank[c]))
                self._add(tp, m)
                self.fresh[tp] = None

    def balance(self) -> None:
        """Move partitions from members with 2+ more partitions to subscribed members with fewer."""
        movable_topics = {t for t, s in self.topic_subscribers.items() if len(s) >= 2}
        self.dst_topics = {m: [t for t in self.member_topics[m] if t in movable_topics] for m in self.by_key}
        self.fresh_held = {m: {} for m in self.by_key}
        for tp in self.fresh:
            self.fresh_held[self.owner[tp]].setdefault(tp[0], {})[tp] = None
        for tp, m in self.prev_owner.items():
            if m in self.held and tp[0] in movable_topics:
                self.returning.setdefault(m, []).append(tp)

        if not self.revocation_required:
            self.perform_reassignments(only_fresh=True)
        self.perform_reassignments(only_fresh=False)

    def perform_reassignments(self, only_fresh: bool) -> None:
        """Repeat moves until no member can receive a partition that improves the balance."""
        changed = True
        while changed:
            changed = False
            for dst in sorted(self.by_key, key=lambda m: (self.count[m], self.rank[m])):
                if not self.dst_topics[dst]:
                    continue
                while (found := self._find_move(dst, only_fresh)) is not None:
                    src, tp = found
                    self.reassign_partition(tp, src, dst)
                    changed = True

    def _find_move(self, dst: str, only_fresh: bool) -> tuple[str, TopicPartition] | None:
        """A (source, partition) for ``dst``: from the fullest member with 2+ more partitions."""
        limit = self.count[dst] + 1
        sources = [s for s in self.by_key if self.count[s] > limit]
        sources.sort(key=lambda s: (-self.count[s], self.rank[s]))
        for src in sources:
            tp = self._pick_partition(src, dst, only_fresh)
            if tp is not None:
                return src, tp
        return None

    def _pick_partition(self, src: str, dst: str, only_fresh: bool) -> TopicPartition | None:
        """Prefer a partition that returns to its previous owner, then one handed out this round."""
        for tp in self.returning.get(dst, ()):
            if self.owner.get(tp) == src and tp[0] in self.subs[dst] and (tp in self.fresh or not only_fresh):
                return tp
        for t in reversed(self.dst_topics[dst]):
            if part := self.fresh_held[src].get(t):
                return next(reversed(part))
        if only_fresh:
            return None
        for t in reversed(self.dst_topics[dst]):
            if part := self.held[src].get(t):
                return next(reversed(part))
        return None

    def reassign_partition(self, tp: TopicPartition, src: str, dst: str) -> None:
        """Move ``tp`` from ``src`` to ``dst``."""
        del self.held[src][tp[0]][tp]
        self.held[dst].setdefault(tp[0], {})[tp] = None
        if tp in self.fresh:
            del self.fresh_held[src][tp[0]][tp]
            self.fresh_held[dst].setdefault(tp[0], {})[tp] = None
        self.owner[tp] = dst
        self.count[src] -= 1
        self.count[dst] += 1


def _general(
    order: list[str],
    subs: Mapping[str, frozenset[str]],
    counts: Mapping[str, int],
    valid: Mapping[str, Mapping[TopicPartition, None]],
    prev_owner: Mapping[TopicPartition, str],
) -> Assignment:
    """Kafka's ``generalAssign``: balance-first, then sticky assignment for different subscriptions."""
    return _GeneralAssignmentBuilder(order, subs, counts, valid, prev_owner).build()


# ---------------------------------------------------------------------------------------- API


def plan_sticky(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    *,
    owned: Mapping[str, Iterable[TopicPartition]] | None = None,
    generation: Generation = None,
) -> StickyPlan:
    """Compute the sticky target assignment and the partitions that change owner.

    ``generation``: one int for every member, or member -> generation (missing members have none,
    i.e. -1), or ``None`` (no member reports a generation). ``owned`` claims of members not in
    ``subscriptions`` are ignored (those members left; an eager member revoked everything anyway).
    """
    subs, counts = normalize_subscriptions(subscriptions, partitions_per_topic)
    if not subs:
        return StickyPlan({}, {}, True)
    order = java_hashmap_order(list(subs))
    claims = normalize_owned(owned, order)
    generations = {m: _generation_of(generation, m) for m in order}
    valid, multiply_claimed, max_generation = _resolve_claims(order, counts, claims, generations)

    first = next(iter(subs.values()))
    all_equal = all(s == first for s in subs.values())
    if all_equal:
        assignment, transferring = _constrained(order, counts, valid, multiply_claimed)
        assignment = {m: assignment[m] for m in subs}
        return StickyPlan(sorted_assignment(assignment), transferring, True, frozenset(multiply_claimed))

    # prevAssignment: claims of members with an older generation (or none, when others have one)
    prev: dict[TopicPartition, tuple[str, int]] = {}
    for m in order:
        g = generations[m]
        if g is not None and g < max_generation:
            rec_gen = g
        elif g is None and max_generation > DEFAULT_GENERATION:
            rec_gen = DEFAULT_GENERATION
        else:
            continue
        for tp in claims[m]:
            if tp not in prev or rec_gen > prev[tp][1]:
                prev[tp] = (m, rec_gen)
    prev_owner = {tp: m for tp, (m, _) in prev.items()}

    assignment = _general(order, subs, counts, valid, prev_owner)
    assignment = {m: assignment[m] for m in subs}

    # computePartitionsTransferringOwnership: added to a member and revoked from another
    added: dict[TopicPartition, str] = {}
    revoked: set[TopicPartition] = set()
    for m in order:
        mine = set(claims[m])
        got = set(assignment[m])
        for tp in assignment[m]:
            if tp not in mine:
                added[tp] = m
        revoked.update(tp for tp in claims[m] if tp not in got)
    transferring = {tp: m for tp, m in added.items() if tp in revoked}
    return StickyPlan(sorted_assignment(assignment), transferring, False, frozenset(multiply_claimed))


def assign_sticky(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    *,
    owned: Mapping[str, Iterable[TopicPartition]] | None = None,
    generation: Generation = None,
) -> Assignment:
    """The ``sticky`` (eager) assignment."""
    return plan_sticky(subscriptions, partitions_per_topic, owned=owned, generation=generation).assignment


def assign_cooperative_sticky(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    *,
    owned: Mapping[str, Iterable[TopicPartition]] | None = None,
    generation: Generation = None,
) -> Assignment:
    """The ``cooperative-sticky`` assignment of this round (partitions changing owner withheld)."""
    return plan_sticky(subscriptions, partitions_per_topic, owned=owned, generation=generation).cooperative


def cooperative_rounds(
    subscriptions: Mapping[str, Iterable[str]],
    partitions_per_topic: Mapping[str, int],
    *,
    owned: Mapping[str, Iterable[TopicPartition]] | None = None,
    generation: Generation = None,
    max_rounds: int = 5,
) -> list[CooperativeRound]:
    """The rebalances a cooperative-sticky group goes through until nobody has to revoke anything.

    Round 1 is what the leader sends now. A member that revoked partitions rejoins, so another round
    follows in which every member reports its previous round's assignment as owned, in the next
    generation. Usually two rounds (one when nothing moves); stops after ``max_rounds``.
    """
    subs, _ = normalize_subscriptions(subscriptions, partitions_per_topic)
    members = list(subs)
    claims = normalize_owned(owned, members)
    gens: Generation = generation
    rounds: list[CooperativeRound] = []
    for _ in range(max_rounds):
        plan = plan_sticky(subs, partitions_per_topic, owned=claims, generation=gens)
        assignment = plan.cooperative
        revoked = {}
        for m in members:
            got = set(assignment[m])
            lost = sorted((tp for tp in claims[m] if tp not in got), key=partition_key)
            if lost:
                revoked[m] = lost
        current_gen = gens if isinstance(gens, int) or gens is None else _max_generation(gens, members)
        rounds.append(CooperativeRound(current_gen, assignment, revoked, dict(plan.transferring)))
        if not revoked:
            break
        claims = {m: list(assignment[m]) for m in members}
        gens = (DEFAULT_GENERATION if current_gen is None else current_gen) + 1
    return rounds


def _max_generation(gens: Mapping[str, int | None], members: Iterable[str]) -> int | None:
    values = [g for m in members if (g := gens.get(m)) is not None]
    return max(values) if values else None


def balance_violations(
    assignment: Mapping[str, Iterable[TopicPartition]], subscriptions: Mapping[str, Iterable[str]]
) -> list[tuple[TopicPartition, str, str]]:
    """Moves that would improve balance: (partition, from member, to member) triples.

    Empty when the assignment satisfies the sticky assignor's balance guarantee: no member with
    ``k`` partitions is subscribed to a partition held by a member with more than ``k + 1``.
    """
    sizes = {m: len(list(tps)) for m, tps in assignment.items()}
    holder: dict[str, list[tuple[TopicPartition, str]]] = {}
    for m, tps in assignment.items():
        for tp in tps:
            holder.setdefault(tp[0], []).append((tp, m))
    found: list[tuple[TopicPartition, str, str]] = []
    for m, topics in subscriptions.items():
        for t in set(topics):
            for tp, other in holder.get(t, ()):
                if other != m and sizes.get(other, 0) > sizes.get(m, 0) + 1:
                    found.append((tp, other, m))
    return found
