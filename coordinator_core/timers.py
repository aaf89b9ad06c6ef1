"""Event-time timer heap (the model's purgatory / CoordinatorTimer).

Kafka keeps delayed operations (DelayedJoin, InitialDelayedJoin, DelayedHeartbeat, DelayedSync) in
purgatories driven by a wall clock. Here every timer has a *key* (at most one live timer per key:
scheduling again replaces it, like Java's ``CoordinatorTimer.schedule``) and an absolute deadline in
event-time milliseconds. Due timers pop in a deterministic order: deadline, then the sequence number
of the ``schedule`` call that set them. Cancelled or replaced entries are dropped lazily.

Postponing a live timer (the common case: every heartbeat pushes a member's deadline further out)
does not touch the heap: the new deadline is recorded and the heap entry is re-pushed only when it
surfaces. The observable order is the same as if every ``schedule`` pushed a fresh entry.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

# record fields (a small list per live key)
_SEQ, _DEADLINE, _PAYLOAD, _HEAP_SEQ, _HEAP_DEADLINE = 0, 1, 2, 3, 4

#: the key type of one heap (each coordinator uses tuples of strings)
K = TypeVar("K", bound=Hashable)


class TimerHeap(Generic[K]):
    """Keyed one-shot timers ordered by (deadline, sequence)."""

    __slots__ = ("_heap", "_live", "_seq")

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, K]] = []
        #: key -> [seq, deadline, payload, seq of its heap entry, deadline of its heap entry]
        self._live: dict[K, list[Any]] = {}
        self._seq = 0

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, key: object) -> bool:
        return key in self._live

    def schedule(self, key: K, deadline: int, payload: Any = None) -> None:
        """Arm ``key`` to fire at ``deadline``; replaces a live timer with the same key."""
        self._seq += 1
        seq = self._seq
        rec = self._live.get(key)
        if rec is not None and rec[_HEAP_DEADLINE] <= deadline:
            # postpone: the existing (earlier) heap entry will be re-pushed when it surfaces
            rec[_SEQ] = seq
            rec[_DEADLINE] = deadline
            rec[_PAYLOAD] = payload
            return
        self._live[key] = [seq, deadline, payload, seq, deadline]
        heapq.heappush(self._heap, (deadline, seq, key))
        heap = self._heap
        if len(heap) > 256 and len(heap) > 4 * len(self._live):
            live = self._live
            self._heap = [e for e in heap if (r := live.get(e[2])) is not None and r[_HEAP_SEQ] == e[1]]
            heapq.heapify(self._heap)

    def cancel(self, key: K) -> bool:
        """Disarm ``key``; returns whether a live timer existed."""
        return self._live.pop(key, None) is not None

    def deadline(self, key: K) -> int | None:
        rec = self._live.get(key)
        return None if rec is None else rec[_DEADLINE]

    def _settle(self) -> None:
        """Drop stale entries and re-push postponed ones until the top entry is exact."""
        heap, live = self._heap, self._live
        while heap:
            d, s, key = heap[0]
            rec = live.get(key)
            if rec is None or rec[_HEAP_SEQ] != s:
                heapq.heappop(heap)
                continue
            if rec[_DEADLINE] != d or rec[_SEQ] != s:
                heapq.heapreplace(heap, (rec[_DEADLINE], rec[_SEQ], key))
                rec[_HEAP_SEQ] = rec[_SEQ]
                rec[_HEAP_DEADLINE] = rec[_DEADLINE]
                continue
            return

    def next_deadline(self) -> int | None:
        self._settle()
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: int) -> tuple[int, K, Any] | None:
        """Remove and return the earliest live timer with ``deadline <= now`` as
        ``(deadline, key, payload)``, or None."""
        heap = self._heap
        if not heap or heap[0][0] > now:
            return None  # fast path: even the earliest (possibly stale) entry is not due
        self._settle()
        if not heap or heap[0][0] > now:
            return None
        deadline, _seq, key = heapq.heappop(heap)
        rec = self._live.pop(key)
        return deadline, key, rec[_PAYLOAD]

    def cancel_where(self, predicate: Callable[[K], bool]) -> int:
        """Cancel every live timer whose key satisfies ``predicate``; returns how many."""
        doomed = [k for k in self._live if predicate(k)]
        for k in doomed:
            del self._live[k]
        return len(doomed)
