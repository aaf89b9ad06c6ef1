"""Call plumbing: one call's :class:`Outcome`, event time, firing due timers (the keyed
:class:`~coordinator_core.timers.TimerHeap`) and recording responses, events and transitions."""

from __future__ import annotations

import uuid
from typing import Any

from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import Outcome, Response
from coordinator_core.events import Event
from coordinator_core.group import ClassicGroup
from coordinator_core.placement import partition_for
from coordinator_core.states import EMPTY, STABLE, GroupState

# timer key kinds: (kind, group_id) for join/sync, (kind, group_id, member_id) for hb/pending
T_JOIN, T_SYNC, T_HB, T_PENDING = "join", "sync", "hb", "pending"


class CallsMixin(CoordinatorHost):
    """Begin/finish a call, fire due timers, record what the call produced.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

    def _begin(self, now_ms: int) -> Outcome:
        self._token += 1
        out = Outcome(request_id=self._token)
        self._out = out
        heap = self._timers._heap  # noqa: SLF001 - fast path: nothing can be due
        if heap and heap[0][0] <= now_ms - self._lag:
            self._fire_due(now_ms)
        elif now_ms > self._now:
            self._now = now_ms
        return out

    def _instance_id(self, group_instance_id: str | None) -> str | None:
        """The request's ``group.instance.id`` as this broker reads it: a broker before static
        membership (KIP-345, 2.3) ignores it."""
        return group_instance_id if self.features.static_membership else None

    def _finish(self, out: Outcome) -> Outcome:
        heap = self._timers._heap  # noqa: SLF001
        if heap and heap[0][0] <= self._now - self._lag:
            self._fire_due(self._now)
        return out

    def _fire_due(self, now_ms: int) -> None:
        timers = self._timers
        due = now_ms - self._lag
        if self._lag and now_ms > self._now:
            # MockTimer semantics: the clock moves first, expired tasks then run at the new time
            self._now = now_ms
        while True:
            item = timers.pop_due(due)
            if item is None:
                break
            deadline, key, payload = item
            if deadline > self._now:
                self._now = deadline
            kind = key[0]
            if kind == T_HB:
                self._on_heartbeat_expiry(key[1], key[2])
            elif kind == T_JOIN:
                self._on_join_timer(key[1], payload)
            elif kind == T_SYNC:
                self._on_sync_expiry(key[1], payload)
            elif kind == T_PENDING:
                self._on_pending_expiry(key[1], key[2])
        if now_ms > self._now:
            self._now = now_ms

    def _reply(self, resp: Response) -> None:
        resp.request_id = self._token
        out = self._out
        out.reply = resp
        out.responses.insert(0, resp)

    def _respond(self, resp: Response, token: int) -> None:
        """Answer a parked request; when it was parked by the current call it is the reply."""
        resp.request_id = token
        out = self._out
        if token == self._token and out.reply is None:
            out.reply = resp
            out.responses.insert(0, resp)
        else:
            out.responses.append(resp)

    def _emit(self, cls: type[Event], group: ClassicGroup, **kw: Any) -> None:
        self._out.events.append(cls(ts=self._now, group_id=group.group_id, coordinator=self.broker_id, **kw))

    def _transition(self, group: ClassicGroup, target: GroupState) -> None:
        old = group.state
        group.transition_to(target, self._now)
        self._out.transitions.append((self._now, group.group_id, old.value, target.value, group.generation))

    def _partition(self, group_id: str) -> int:
        return partition_for(group_id, self.config.offsets_topic_partitions)

    def _create_group(self, group_id: str, state: GroupState | None = None) -> ClassicGroup:
        if state is None:
            state = EMPTY if self.features.empty_state else STABLE
        group = ClassicGroup(group_id, state, self._now)
        self._groups[group_id] = group
        self._out.transitions.append((self._now, group_id, None, state.value, 0))
        return group

    def _new_member_id(self, prefix: str) -> str:
        if self._id_factory is not None:
            return self._id_factory(prefix)
        return f"{prefix}-{uuid.UUID(int=self._rng.getrandbits(128), version=4)}"

    def _cancel_group_timers(self, group_id: str) -> None:
        self._timers.cancel_where(lambda k: k[1] == group_id)
