"""Kafka's ``UniformHeterogeneousAssignmentBuilder`` (``group/assignor/``, Kafka 4.0-4.2): the
``uniform`` server assignor when members subscribe to different topics.

1. Revoke from each member the topics it no longer subscribes to (the rest of its current target
   assignment is kept).
2. Deal the unassigned partitions topic by topic (topics by partitions per subscriber descending,
   then subscriber count ascending, then name), each partition to the least loaded subscriber
   (ties: member order).
3. Balance, at most 16 rounds over the topics with two or more subscribers: within a topic, move
   partitions (highest owner index, highest partition first) from the most to the least loaded
   subscribers until their counts differ by at most one; stop when a full round moved nothing.

Members are numbered in the order given (Java's ``groupSpec.memberIds()`` order); topic names stand
for Kafka's topic ids (ties ordered by name). Partitions of a topic beyond its partition count are
dropped from the current assignment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["assign_heterogeneous"]

MAX_ITERATION_COUNT = 16


class _Balancer:
    """``MemberAssignmentBalancer``: the least and the most loaded ranges of sorted members."""

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.sorted: list[int] = []

    def initialize(self, members: list[int]) -> int:
        sizes = self.sizes
        self.sorted = sorted(members, key=lambda i: (sizes[i], i))
        s = self.sorted
        self.least_end = 0
        self.least_count = sizes[s[0]] - 1
        self.next_least = 0
        self.most_start = self.most_end = len(s)
        self.most_count = sizes[s[-1]] + 1
        self.next_most = len(s) - 1
        return sizes[s[-1]] - sizes[s[0]]

    def next_least_loaded(self) -> int:
        s, sizes = self.sorted, self.sizes
        if self.next_least >= self.least_end:
            self.least_count += 1
            while self.least_end < len(s) and sizes[s[self.least_end]] == self.least_count:
                self.least_end += 1
            self.next_least = 0
        m = s[self.next_least]
        self.next_least += 1
        return m

    def next_most_loaded(self) -> int:
        s, sizes = self.sorted, self.sizes
        if self.next_most < self.most_start:
            if self.most_end <= self.most_start and self.most_start > 0:
                self.most_count = sizes[s[self.most_start - 1]]
            else:
                self.most_count -= 1
            while self.most_start > 0 and sizes[s[self.most_start - 1]] == self.most_count:
                self.most_start -= 1
            self.next_most = self.most_end - 1
        if self.next_most < 0:
            return -1
        m = s[self.next_most]
        self.next_most -= 1
        return m

    def exclude_most_loaded(self) -> None:
        s = self.sorted
        i = self.next_most + 1
        s[i], s[self.most_end - 1] = s[self.most_end - 1], s[i]
        self.most_end -= 1

    def is_balanced(self) -> bool:
        return self.most_count - self.least_count <= 1


class _Builder:
    def __init__(self, members: Sequence, topics: Mapping[str, int], error: type[Exception]) -> None:
        self.ids = [m[0] for m in members]
        self.subscribers: dict[str, list[int]] = {}
        for i, m in enumerate(members):
            for t in m[2]:
                if topics.get(t, -1) < 0:
                    raise error(f"Members are subscribed to topic {t} which doesn't exist in the topic metadata.")
                self.subscribers.setdefault(t, []).append(i)
        self.topics = topics
        self.sizes = [0] * len(members)
        self.owners = {t: [-1] * topics[t] for t in self.subscribers}
        self.target: list[dict[str, set[int]]] = []
        for i, m in enumerate(members):  # maybeRevokePartitions
            kept: dict[str, set[int]] = {}
            for t, ps in m[3].items():
                if t not in m[2]:
                    continue
                own = self.owners[t]
                kept[t] = {p for p in ps if p < len(own)}
                for p in kept[t]:
                    own[p] = i
                self.sizes[i] += len(kept[t])
            self.target.append(kept)

    def sort_topics(self, names) -> list[str]:
        subs, n = self.subscribers, self.topics
        return sorted(names, key=lambda t: (-n[t] / len(subs[t]), len(subs[t]), t))

    def assign_partition(self, t: str, p: int, i: int) -> None:
        old = self.owners[t][p]
        if old != -1:
            ps = self.target[old][t]
            ps.discard(p)
            if not ps:
                del self.target[old][t]
            self.sizes[old] -= 1
        self.target[i].setdefault(t, set()).add(p)
        self.owners[t][p] = i
        self.sizes[i] += 1

    def assign_remaining(self) -> None:
        unassigned = {t: [p for p, o in enumerate(own) if o == -1] for t, own in self.owners.items()}
        bal = _Balancer(self.sizes)
        for t in self.sort_topics([t for t, ps in unassigned.items() if ps]):
            bal.initialize(self.subscribers[t])
            for p in unassigned[t]:
                self.assign_partition(t, p, bal.next_least_loaded())

    def balance(self) -> None:
        names = self.sort_topics([t for t, s in self.subscribers.items() if len(s) >= 2])
        if not names:
            return
        bal = _Balancer(self.sizes)
        last = -1
        for _ in range(MAX_ITERATION_COUNT):
            for k, t in enumerate(names):
                if k == last:
                    return
                if self.balance_topic(t, bal) > 0 or last == -1:
                    last = k

    def balance_topic(self, t: str, bal: _Balancer) -> int:
        own = self.owners[t]
        if bal.initialize(self.subscribers[t]) <= 1:
            return 0
        parts = sorted(range(len(own)), key=lambda p: (own[p], p))
        start: dict[int, int] = {}
        end: dict[int, int] = {}
        for k, p in enumerate(parts):
            start.setdefault(own[p], k)
            end[own[p]] = k + 1
        moved = 0
        while not bal.is_balanced():
            most = bal.next_most_loaded()
            while most != -1 and (most not in end or end[most] - start[most] <= 0):
                bal.exclude_most_loaded()
                most = bal.next_most_loaded()
            if most == -1:
                break
            end[most] -= 1
            p = parts[end[most]]
            least = bal.next_least_loaded()
            if bal.is_balanced():
                break
            self.assign_partition(t, p, least)
            moved += 1
        return moved


def assign_heterogeneous(
    members: Sequence, topics: Mapping[str, int], error: type[Exception]
) -> dict[str, dict[str, frozenset[int]]]:
    """``UniformHeterogeneousAssignmentBuilder.build`` over ``(member_id, instance_id, subscribed
    topics, current target)``; raises ``error`` for a subscribed topic missing from ``topics``."""
    b = _Builder(members, topics, error)
    if not b.subscribers:
        return {}
    b.assign_remaining()
    b.balance()
    return {mid: {t: frozenset(ps) for t, ps in b.target[i].items() if ps} for i, mid in enumerate(b.ids)}
