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


def _constrained(
    order: list[str],
    counts: Mapping[str, int],
    valid: Mapping[str, Mapping[TopicPartition, None]],
    multiply_claimed: set[TopicPartition],
) -> tuple[Assignment, dict[TopicPartition, str]]:
    """Kafka's ``ConstrainedAssignmentBuilder`` (identical subscriptions), without racks."""
    num_members = len(order)
    total = sum(counts.values())
    min_quota, rest = divmod(total, num_members)
    max_quota = min_quota + (1 if rest else 0)
    expected_over = rest  # members that will hold maxQuota
    current_over = 0

    assignment: Assignment = {m: [] for m in order}
    maybe_revoked: dict[TopicPartition, str] = {}
    under_min: list[str] = []
    exactly_min: list[str] = []
    assigned: set[TopicPartition] = set()

    for member in order:
        owned = sorted(
            (tp for tp in valid[member] if tp not in multiply_claimed),
            key=lambda tp: (tp[1], java_key(tp[0])),
        )
        if len(owned) < min_quota:
            keep = owned
            under_min.append(member)
        elif len(owned) >= max_quota and current_over < expected_over:
            current_over += 1
            if current_over == expected_over:
                exactly_min.clear()
            keep = owned[:max_quota]
        else:
            keep = owned[:min_quota]
            if current_over < expected_over:
                exactly_min.append(member)
        for tp in owned[len(keep) :]:
            maybe_revoked[tp] = member
        assignment[member].extend(keep)
        assigned.update(keep)

    unassigned = [(t, p) for t, n in counts.items() for p in range(n) if (t, p) not in assigned]
    under_min.sort(key=java_key)
    exactly_min.sort(key=java_key)
    exact_queue = deque(exactly_min)

    transferring: dict[TopicPartition, str] = {}
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
        assignment[member].append(tp)
        if (tp in maybe_revoked and maybe_revoked[tp] != member) or tp in multiply_claimed:
            transferring[tp] = member
        count = len(assignment[member])
        if count == min_quota:
            cursor -= 1
            del under_min[cursor]
            exact_queue.append(member)
        elif count == max_quota:
            current_over += 1
    return assignment, transferring


# --------------------------------------------------------------------------------- general path


def _general(
    order: list[str],
    subs: Mapping[str, frozenset[str]],
    counts: Mapping[str, int],
    valid: Mapping[str, Mapping[TopicPartition, None]],
    prev_owner: Mapping[TopicPartition, str],
) -> Assignment:
    """Balance-first, then sticky assignment for members with different subscriptions."""
    by_key = sorted(order, key=java_key)
    rank = {m: i for i, m in enumerate(by_key)}
    topic_subscribers: dict[str, list[str]] = {t: [] for t in counts}
    member_topics: dict[str, list[str]] = {}
    for m in by_key:
        mt = [t for t in counts if t in subs[m]]
        member_topics[m] = mt
        for t in mt:
            topic_subscribers[t].append(m)

    # held[m][t]: partitions of topic t held by m (ordered sets)
    held: dict[str, dict[str, dict[TopicPartition, None]]] = {m: {} for m in by_key}
    count: dict[str, int] = dict.fromkeys(by_key, 0)
    owner: dict[TopicPartition, str] = {}
    revocation_required = False
    for m in by_key:
        for tp in valid[m]:
            if tp[0] not in subs[m]:
                revocation_required = True  # the member unsubscribed from that topic
                continue
            held[m].setdefault(tp[0], {})[tp] = None
            owner[tp] = m
            count[m] += 1

    # 1. hand out unassigned partitions: topics with the fewest potential consumers first
    topic_order = sorted(counts, key=lambda t: (len(topic_subscribers[t]), java_key(t)))
    fresh: set[TopicPartition] = set()
    for t in topic_order:
        candidates = topic_subscribers[t]
        for p in range(counts[t]):
            tp = (t, p)
            if tp in owner:
                continue
            m = min(candidates, key=lambda c: (count[c], rank[c]))
            held[m].setdefault(t, {})[tp] = None
            owner[tp] = m
            count[m] += 1
            fresh.add(tp)

    # 2. balance: move partitions from members with 2+ more partitions to subscribed members
    movable_topics = {t for t, s in topic_subscribers.items() if len(s) >= 2}
    dst_topics = {m: [t for t in member_topics[m] if t in movable_topics] for m in by_key}
    fresh_held: dict[str, dict[str, dict[TopicPartition, None]]] = {m: {} for m in by_key}
    for tp in fresh:
        fresh_held[owner[tp]].setdefault(tp[0], {})[tp] = None
    returning: dict[str, list[TopicPartition]] = {}  # dst -> partitions it owned in an older generation
    for tp, m in prev_owner.items():
        if m in held and tp[0] in movable_topics:
            returning.setdefault(m, []).append(tp)

    def pick_partition(src: str, dst: str, only_fresh: bool) -> TopicPartition | None:
        """Prefer a partition that returns to its previous owner, then one handed out this round."""
        for tp in returning.get(dst, ()):
            if owner.get(tp) == src and tp[0] in subs[dst] and (tp in fresh or not only_fresh):
                return tp
        for t in reversed(dst_topics[dst]):
            if part := fresh_held[src].get(t):
                return next(reversed(part))
        if only_fresh:
            return None
        for t in reversed(dst_topics[dst]):
            if part := held[src].get(t):
                return next(reversed(part))
        return None

    def find_move(dst: str, only_fresh: bool) -> tuple[str, TopicPartition] | None:
        limit = count[dst] + 1
        sources = [s for s in by_key if count[s] > limit]
        sources.sort(key=lambda s: (-count[s], rank[s]))
        for src in sources:
            tp = pick_partition(src, dst, only_fresh)
            if tp is not None:
                return src, tp
        return None

    def move(tp: TopicPartition, src: str, dst: str) -> None:
        del held[src][tp[0]][tp]
        held[dst].setdefault(tp[0], {})[tp] = None
        if tp in fresh:
            del fresh_held[src][tp[0]][tp]
            fresh_held[dst].setdefault(tp[0], {})[tp] = None
        owner[tp] = dst
        count[src] -= 1
        count[dst] += 1

    def rebalance(only_fresh: bool) -> None:
        changed = True
        while changed:
            changed = False
            for dst in sorted(by_key, key=lambda m: (count[m], rank[m])):
                if not dst_topics[dst]:
                    continue
                while (found := find_move(dst, only_fresh)) is not None:
                    src, tp = found
                    move(tp, src, dst)
                    changed = True

    if not revocation_required:
        rebalance(only_fresh=True)
    rebalance(only_fresh=False)

    return {m: [tp for t in counts for tp in held[m].get(t, ())] for m in order}


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
