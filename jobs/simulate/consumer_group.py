"""The consumer-protocol (KIP-848) group as the coordinator runs it: the model driving the simulation.

Kafka 4.0's ``GroupMetadataManager.consumerGroupHeartbeat`` and ``CurrentAssignmentBuilder``,
reduced to what the logs show. No I/O and no randomness: every call takes the event time and
returns :class:`Fact` records that the driver renders and turns into ground truth.

* **group epoch** — bumped (+1) when a member joins (its subscription is new), leaves with member
  epoch -1, is fenced (session or rebalance timeout), or when the partitions of a subscribed topic
  change (seen on the next heartbeat). The join and metadata bumps are logged ("Bumped group epoch
  to E"); the bumps of a removal are not (``consumerGroupFenceMember`` writes the epoch record only).
  A static member leaving with epoch -2 bumps nothing and keeps its assignment until its session
  expires; a new member with its instance id replaces it without a bump.
* **target assignment** — computed on the first heartbeat after a bump ('uniform' assignor:
  partitions spread evenly, each member keeps what it has up to its quota).
* **reconciliation** — on each member's own heartbeat: partitions the target takes away are
  revoked first (state UNREVOKED_PARTITIONS, member epoch kept); once the member's heartbeat shows
  it no longer owns them, it moves to the target epoch and gets the partitions that no other
  member still holds (UNRELEASED_PARTITIONS until all are released, then STABLE).
* **timers** — session timeout (no heartbeat for ``session_ms``: fenced, "the member session
  expired") and rebalance timeout (still revoking ``rebalance_ms`` after entering
  UNREVOKED_PARTITIONS: fenced, "failed to transition from epoch N").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

STABLE = "STABLE"
UNREVOKED = "UNREVOKED_PARTITIONS"
UNRELEASED = "UNRELEASED_PARTITIONS"
LEAVE_EPOCH = -1
TEMP_LEAVE_EPOCH = -2

#: Fact kinds (what the coordinator did; the renderer turns each into at most one line)
JOINED = "joined"
STATIC_JOINED = "static_joined"
STATIC_REPLACED = "static_replaced"
BUMPED = "bumped"
TARGET = "target"
ASSIGNMENT_STATE = "assignment_state"
LEFT = "left"
STATIC_LEFT = "static_left"
STATIC_TEMP_LEFT = "static_temp_left"
FENCED_SESSION = "fenced_session"
FENCED_REBALANCE = "fenced_rebalance"
CONVERTED = "converted"


@dataclass(slots=True)
class Fact:
    """One thing the coordinator did at ``ts``. For ``bumped``: ``logged`` says whether Kafka logs
    the bump, ``cause``/``member_id`` what triggered it (the truth's cause and culprit)."""

    kind: str
    ts: int
    member_id: str | None = None
    group_instance_id: str | None = None
    old_member_id: str | None = None
    epoch: int | None = None
    previous_epoch: int | None = None
    state: str | None = None
    assigned: tuple[str, ...] = ()
    revoked: tuple[str, ...] = ()
    took_ms: int = 0
    metadata_hash: int | None = None
    logged: bool = True
    cause: str | None = None


@dataclass(slots=True)
class Member:
    """``ConsumerGroupMember``: the broker's view of one member."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    member_epoch: int = 0
    previous_epoch: int = 0
    state: str = STABLE
    assigned: set[str] = field(default_factory=set)
    revoking: set[str] = field(default_factory=set)
    session_deadline: int = 0
    rebalance_deadline: int | None = None
    rebalance_from_epoch: int = 0
    #: left with epoch -2: away, keeps its assignment until its session expires
    away: bool = False
    #: subscribed topic names (sorted)
    subscribed: tuple[str, ...] = ()


@dataclass(slots=True)
class HeartbeatReply:
    """``ConsumerGroupHeartbeatResponse``: error, member epoch and the assignment to own."""

    error: str
    member_id: str
    member_epoch: int
    assigned: tuple[str, ...] | None
    facts: list[Fact]


def tp_key(tp: str) -> tuple[str, int]:
    t, _, p = tp.rpartition("-")
    return (t, int(p))


def sorted_tps(tps) -> tuple[str, ...]:
    return tuple(sorted(tps, key=tp_key))


def metadata_hash(topics: dict[str, int]) -> int:
    """A stable 63-bit stand-in for Kafka 4.1's group metadata hash (topic names and partitions)."""
    raw = ";".join(f"{t}:{n}" for t, n in sorted(topics.items())).encode()
    return int.from_bytes(hashlib.sha256(raw).digest()[:8], "big") >> 1


def uniform_assign(
    members: list[str], partitions: list[str], current: dict[str, set[str]]
) -> dict[str, set[str]]:
    """Server-side 'uniform' assignor, sticky: quotas differ by at most one; a member keeps what it
    has up to its quota; the rest is dealt to members under quota (sorted, deterministic)."""
    if not members:
        return {}
    n, m = len(partitions), len(members)
    base, extra = divmod(n, m)
    valid = set(partitions)
    # the members holding the most get the +1 quotas (fewer moves)
    order = sorted(members, key=lambda x: (-len(current.get(x, set()) & valid), x))
    quota = {mid: base + (1 if i < extra else 0) for i, mid in enumerate(order)}
    out: dict[str, set[str]] = {}
    taken: set[str] = set()
    for mid in sorted(members):
        keep = sorted_tps(p for p in current.get(mid, set()) if p in valid and p not in taken)
        out[mid] = set(keep[: quota[mid]])
        taken |= out[mid]
    free = [p for p in partitions if p not in taken]
    for mid in sorted(members):
        while len(out[mid]) < quota[mid] and free:
            out[mid].add(free.pop(0))
    return out


class ConsumerGroup:
    """One consumer group on its coordinator (``ConsumerGroup`` + the heartbeat handling)."""

    __slots__ = ("group_id", "topics", "group_epoch", "target_epoch", "target", "members",
                 "static_members", "session_ms", "rebalance_ms", "bump_pending")  # fmt: skip

    def __init__(self, group_id: str, topics: dict[str, int], session_ms: int = 45_000,
                 rebalance_ms: int = 300_000) -> None:  # fmt: skip
        self.group_id = group_id
        self.topics = dict(topics)
        self.group_epoch = 0
        self.target_epoch = 0
        self.target: dict[str, set[str]] = {}
        self.members: dict[str, Member] = {}
        self.static_members: dict[str, str] = {}
        self.session_ms = session_ms
        self.rebalance_ms = rebalance_ms
        #: a bump is owed to the next heartbeat (partitions added)
        self.bump_pending = False

    # ------------------------------------------------------------------ conversion
    @classmethod
    def from_classic(cls, group_id: str, topics: dict[str, int], generation: int,
                     members: list[tuple[str, str | None, str, list[str]]], now: int,
                     session_ms: int = 45_000) -> ConsumerGroup:  # fmt: skip
        """``convertToConsumerGroup``: the classic members (id, instance, client, owned) become
        members at epoch ``generation``, which is the group epoch and the target's."""
        g = cls(group_id, topics, session_ms)
        g.group_epoch = g.target_epoch = generation
        for mid, gii, cid, owned in members:
            m = Member(
                mid, gii, cid, generation, generation, STABLE, set(owned), subscribed=tuple(sorted(topics))
            )
            m.session_deadline = now + session_ms
            g.members[mid] = m
            g.target[mid] = set(owned)
            if gii:
                g.static_members[gii] = mid
        return g

    # ------------------------------------------------------------------ helpers
    def subscribed_topics(self) -> dict[str, int]:
        """The topics some member subscribes to, with their partition counts."""
        names = {t for m in self.members.values() for t in m.subscribed}
        return {t: n for t, n in sorted(self.topics.items()) if t in names}

    def partitions(self, topics=None) -> list[str]:
        return [f"{t}-{p}" for t, n in self.subscribed_topics().items() if topics is None or t in topics
                for p in range(n)]  # fmt: skip

    def present(self) -> list[Member]:
        """Members that must reach the group epoch (not away with epoch -2)."""
        return [m for m in self.members.values() if not m.away]

    def reconciled(self) -> bool:
        return all(m.member_epoch == self.group_epoch and m.state == STABLE for m in self.present())

    def owners(self) -> dict[str, str]:
        """partition -> member id holding it (assigned or still revoking)."""
        out: dict[str, str] = {}
        for m in self.members.values():
            for p in m.assigned:
                out[p] = m.member_id
            for p in m.revoking:
                out[p] = m.member_id
        return out

    def add_partitions(self, topic: str, count: int) -> None:
        """The topic grows by ``count`` partitions; the next heartbeat bumps the epoch."""
        self.topics[topic] = self.topics.get(topic, 0) + count
        self.bump_pending = True

    def _bump(self, now: int, cause: str, member_id: str | None, logged: bool) -> Fact:
        self.group_epoch += 1
        return Fact(BUMPED, now, member_id=member_id, epoch=self.group_epoch, logged=logged, cause=cause,
                    metadata_hash=metadata_hash(self.subscribed_topics()))  # fmt: skip

    def _remove(self, m: Member) -> None:
        del self.members[m.member_id]
        if m.group_instance_id and self.static_members.get(m.group_instance_id) == m.member_id:
            del self.static_members[m.group_instance_id]

    # ------------------------------------------------------------------ heartbeat
    def heartbeat(self, now: int, member_id: str, member_epoch: int, instance_id: str | None,
                  client_id: str, owned: set[str], subscribed: tuple[str, ...] | None = None) -> HeartbeatReply:  # fmt: skip
        """One ConsumerGroupHeartbeat request. ``member_epoch`` 0 joins, -1 leaves, -2 leaves
        temporarily (static); otherwise the member reports the partitions it owns. ``subscribed``:
        the member's topics (a joining member without it subscribes to every known topic)."""
        if member_epoch in (LEAVE_EPOCH, TEMP_LEAVE_EPOCH):
            return HeartbeatReply(
                "NONE", member_id, member_epoch, None, self._leave(now, member_id, member_epoch)
            )
        facts: list[Fact] = []
        m = self.members.get(member_id)
        if member_epoch == 0:
            subs = tuple(sorted(subscribed if subscribed is not None else self.topics))
            m = self._join(now, member_id, instance_id, client_id, subs, facts)
            if m is None:
                return HeartbeatReply("UNRELEASED_INSTANCE_ID", member_id, -1, None, facts)
        elif m is None or m.away:
            return HeartbeatReply("UNKNOWN_MEMBER_ID", member_id, -1, None, facts)
        elif member_epoch not in (m.member_epoch, m.previous_epoch):
            return HeartbeatReply("FENCED_MEMBER_EPOCH", member_id, -1, None, facts)
        if self.bump_pending:
            self.bump_pending = False
            facts.append(self._bump(now, "metadata_change", None, True))
        if self.group_epoch > self.target_epoch:
            facts.append(self._compute_target(now))
        m.session_deadline = now + self.session_ms
        self._reconcile(now, m, owned if member_epoch != 0 else m.assigned | m.revoking, facts)
        return HeartbeatReply("NONE", member_id, m.member_epoch, sorted_tps(m.assigned), facts)

    def _join(self, now: int, member_id: str, instance_id: str | None, client_id: str,
              subscribed: tuple[str, ...], facts: list[Fact]) -> Member | None:  # fmt: skip
        old_id = self.static_members.get(instance_id) if instance_id else None
        if old_id is not None:
            old = self.members[old_id]
            if not old.away:
                return None  # the instance id is held by a live member
            m = Member(member_id, instance_id, client_id, old.member_epoch, old.previous_epoch, old.state,
                       set(old.assigned), set(old.revoking), subscribed=subscribed)  # fmt: skip
            self._remove(old)
            self.members[member_id] = m
            self.static_members[instance_id] = member_id
            self.target[member_id] = self.target.pop(old_id, set())
            facts.append(Fact(STATIC_REPLACED, now, member_id, instance_id, old_member_id=old_id))
            if subscribed != old.subscribed:  # a replacement with another subscription bumps
                facts.append(self._bump(now, "static_member", member_id, True))
            return m
        m = Member(member_id, instance_id, client_id, subscribed=subscribed)
        self.members[member_id] = m
        if instance_id:
            self.static_members[instance_id] = member_id
        facts.append(Fact(STATIC_JOINED if instance_id else JOINED, now, member_id, instance_id))
        facts.append(self._bump(now, "new_member", member_id, True))
        return m

    def _leave(self, now: int, member_id: str, epoch: int) -> list[Fact]:
        m = self.members.get(member_id)
        if m is None:
            return []
        gii = m.group_instance_id
        if epoch == TEMP_LEAVE_EPOCH and gii:
            m.away = True
            m.rebalance_deadline = None
            return [Fact(STATIC_TEMP_LEFT, now, member_id, gii)]
        fact = Fact(
            STATIC_LEFT if gii else LEFT, now, member_id, gii, revoked=sorted_tps(m.assigned | m.revoking)
        )
        self._remove(m)
        self.target.pop(member_id, None)
        return [fact, self._bump(now, "member_leave", member_id, False)]

    def _compute_target(self, now: int) -> Fact:
        current = {mid: set(m.assigned | m.revoking) for mid, m in self.members.items()}
        for mid, tps in self.target.items():
            if mid in current and not current[mid]:
                current[mid] = set(tps)
        parts = self.partitions()
        mids = sorted(self.members)
        if len({self.members[mid].subscribed for mid in mids}) <= 1:
            self.target = uniform_assign(mids, parts, current)
        else:  # heterogeneous subscriptions: each topic spread over its own subscribers
            self.target = {mid: set() for mid in mids}
            for t in self.subscribed_topics():
                subs = [mid for mid in mids if t in self.members[mid].subscribed]
                for mid, tps in uniform_assign(subs, self.partitions({t}), current).items():
                    self.target[mid] |= tps
        self.target_epoch = self.group_epoch
        took = 1 + len(parts) * max(1, len(self.members)) // 64
        return Fact(TARGET, now, epoch=self.group_epoch, took_ms=took)

    # ------------------------------------------------------------------ reconciliation
    def _reconcile(self, now: int, m: Member, owned: set[str], facts: list[Fact]) -> None:
        """``CurrentAssignmentBuilder.build``: move ``m`` toward the target of the target epoch."""
        before = (m.member_epoch, m.state, frozenset(m.assigned), frozenset(m.revoking))
        if m.state == UNREVOKED:
            if owned & m.revoking:
                return  # still revoking: nothing changes until it acknowledges
            m.revoking = set()
            self._next_state(m)
        elif m.member_epoch < self.target_epoch or m.state == UNRELEASED:
            self._next_state(m)
        after = (m.member_epoch, m.state, frozenset(m.assigned), frozenset(m.revoking))
        if after == before:
            return
        if m.state == UNREVOKED:
            m.rebalance_deadline = now + self.rebalance_ms
            m.rebalance_from_epoch = m.member_epoch
        else:
            m.rebalance_deadline = None
        facts.append(Fact(
            ASSIGNMENT_STATE, now, m.member_id, m.group_instance_id, epoch=m.member_epoch,
            previous_epoch=m.previous_epoch, state=m.state, assigned=sorted_tps(m.assigned),
            revoked=sorted_tps(m.revoking),
        ))  # fmt: skip

    def _next_state(self, m: Member) -> None:
        """``computeNextAssignment`` against the current target (epoch ``target_epoch``)."""
        target = self.target.get(m.member_id, set())
        keep = m.assigned & target
        revoke = m.assigned - target
        if revoke:
            m.state = UNREVOKED
            m.previous_epoch = m.member_epoch
            m.assigned, m.revoking = keep, revoke
            return
        owners = self.owners()
        free = {p for p in target - keep if owners.get(p, m.member_id) == m.member_id}
        m.assigned = keep | free
        m.previous_epoch = m.member_epoch
        m.member_epoch = self.target_epoch
        m.state = UNRELEASED if target - m.assigned else STABLE

    # ------------------------------------------------------------------ timers
    def next_deadline(self) -> int | None:
        ds = [m.session_deadline for m in self.members.values()]
        ds += [m.rebalance_deadline for m in self.members.values() if m.rebalance_deadline is not None]
        return min(ds) if ds else None

    def expire(self, now: int) -> list[Fact]:
        """Fence the members whose session or rebalance timeout passed by ``now`` (in id order)."""
        facts: list[Fact] = []
        for m in sorted(self.members.values(), key=lambda x: x.member_id):
            if m.session_deadline <= now:
                kind, cause = FENCED_SESSION, "session_timeout"
            elif m.rebalance_deadline is not None and m.rebalance_deadline <= now:
                kind, cause = FENCED_REBALANCE, "rebalance_timeout"
            else:
                continue
            facts.append(Fact(kind, now, m.member_id, m.group_instance_id, epoch=m.rebalance_from_epoch,
                              took_ms=self.rebalance_ms, revoked=sorted_tps(m.assigned | m.revoking)))  # fmt: skip
            self._remove(m)
            self.target.pop(m.member_id, None)
            facts.append(self._bump(now, cause, m.member_id, False))
        return facts
