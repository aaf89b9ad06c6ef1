"""Event-time timer heap (the model's purgatory / CoordinatorTimer).

Kafka keeps delayed operations (DelayedJoin, InitialDelayedJoin, DelayedHeartbeat, DelayedSync) in
purgatories driven by a wall clock. Here every timer has a *key* (at most one live timer per key:
scheduling again replaces it, like Java's ``CoordinatorTimer.schedule``) and an absolute deadline in
event-time milliseconds. A timer is due when ``now >= deadline``. Due timers pop in a deterministic
order: deadline, then scheduling sequence. Cancelled or replaced entries are dropped lazily.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Any


class TimerHeap:
    """Keyed one-shot timers ordered by (deadline, sequence)."""

    __slots__ = ("_heap", "_live", "_seq")

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Hashable, Any]] = []
        self._live: dict[Hashable, int] = {}  # key -> sequence of its live entry
        self._seq = 0

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._live

    def schedule(self, key: Hashable, deadline: int, payload: Any = None) -> None:
        """Arm ``key`` to fire at ``deadline``; replaces a live timer with the same key."""
        self._seq += 1
        self._live[key] = self._seq
        heapq.heappush(self._heap, (deadline, self._seq, key, payload))
        if len(self._heap) > 256 and len(self._heap) > 4 * len(self._live):
            live = self._live
            self._heap = [e for e in self._heap if live.get(e[2]) == e[1]]
            heapq.heapify(self._heap)

    def cancel(self, key: Hashable) -> bool:
        """Disarm ``key``; returns whether a live timer existed."""
        return self._live.pop(key, None) is not None

    def deadline(self, key: Hashable) -> int | None:
        """Deadline of the live timer of ``key`` (O(n); for tests and inspection)."""
        seq = self._live.get(key)
        if seq is None:
            return None
        for deadline, s, _k, _p in self._heap:
            if s == seq:
                return deadline
        return None

    def _prune(self) -> None:
        heap, live = self._heap, self._live
        while heap and live.get(heap[0][2]) != heap[0][1]:
            heapq.heappop(heap)

    def next_deadline(self) -> int | None:
        self._prune()
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: int) -> tuple[int, Hashable, Any] | None:
        """Remove and return the earliest live timer with ``deadline <= now`` as
        ``(deadline, key, payload)``, or None."""
        self._prune()
        heap = self._heap
        if not heap or heap[0][0] > now:
            return None
        deadline, _seq, key, payload = heapq.heappop(heap)
        del self._live[key]
        return deadline, key, payload

    def cancel_where(self, predicate) -> int:
        """Cancel every live timer whose key satisfies ``predicate``; returns how many."""
        doomed = [k for k in self._live if predicate(k)]
        for k in doomed:
            del self._live[k]
        return len(doomed)
