"""The steady-state heartbeat fast path of the consumer-group coordinator: the one named place for
speed, beside the reference path (:mod:`coordinator_core.consumer.heartbeat`), and tested equal to
it (``tests/core/test_consumer_coordinator_fastpath.py``).

A heartbeat takes the fast path when the reference path would do nothing but re-arm the session
timeout and answer: a known member at its current epoch, fully reconciled to the target epoch, the
group's target assignment current, its metadata not due for a refresh, and a request that changes
no member field and reports no owned partitions (``topic_partitions`` None, as the Java client
sends once its assignment is acknowledged). Anything else returns None and the reference path
answers.

:meth:`FastPathMixin.heartbeat_stream` runs a stream of such heartbeats ``(now_ms, group_id,
member_id, member_epoch)`` (no other field sent, client id / host as the member's): a steady row
only re-arms the session deadline (the timer heap's postponement, inlined) and answers None,
meaning "NONE at the same epoch, partial response, no records"; any other row goes through
:meth:`heartbeat` and answers its :class:`ConsumerOutcome`. Timers due before a row fire first,
as in :meth:`heartbeat`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from coordinator_core.consumer.membership import T_SESSION
from coordinator_core.consumer.protocol import ConsumerOutcome, HeartbeatRequest, HeartbeatResponse

if TYPE_CHECKING:
    from coordinator_core.consumer.settings import ConsumerCoordinatorConfig
    from coordinator_core.consumer.state import ConsumerGroupState
    from coordinator_core.consumer.versions import ConsumerRules
    from coordinator_core.timers import TimerHeap

__all__ = ["FastPathMixin"]

_NEVER = 1 << 62


class _FastPathHost(Protocol):
    """What the fast path uses of its host,
    :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    config: ConsumerCoordinatorConfig
    rules: ConsumerRules
    use_fast_path: bool
    _groups: dict[str, ConsumerGroupState]
    _refresh_epochs: dict[str, int]
    _timers: TimerHeap
    _now: int
    _token: int
    _steady: dict[str, dict[str, tuple[int, list]]]

    def heartbeat(self, now_ms: int, request: HeartbeatRequest | None = None) -> ConsumerOutcome: ...

    def _steady_member(self: _FastPathHost, now: int, gid: str, mid: str, epoch: int) -> bool: ...


class FastPathMixin:
    """Mixed into :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    def _fast_heartbeat(self: _FastPathHost, req: HeartbeatRequest) -> HeartbeatResponse | None:
        epoch = req.member_epoch
        if epoch <= 0 or req.topic_partitions is not None or req.subscribed_topic_regex is not None:
            return None
        gid = req.group_id
        g = self._groups.get(gid) if gid else None
        if g is None or not gid:
            return None
        mid = req.member_id
        m = g.members.get(mid) if mid else None
        if m is None or not mid:
            return None
        if (
            m.member_epoch != epoch
            or m.state != "STABLE"
            or epoch != g.assignment_epoch
            or g.group_epoch != epoch
            or self._refresh_epochs.get(gid) != epoch
            or m.client_id != req.client_id
            or m.client_host != req.client_host
            or m.classic_member_metadata is not None
            or m.instance_id != req.instance_id
            or (req.rack_id is not None and req.rack_id != m.rack_id)
            or (req.rebalance_timeout_ms != -1 and req.rebalance_timeout_ms != m.rebalance_timeout_ms)
            or (req.server_assignor is not None and req.server_assignor != m.server_assignor_name)
            or (req.subscribed_topic_names is not None and frozenset(req.subscribed_topic_names) != m.subscribed_topic_names)
            or not mid.strip()
            or not gid.strip()
            or (req.instance_id is not None and not req.instance_id.strip())
            or (req.server_assignor is not None and req.server_assignor not in self.config.assignors)
            or self.rules.enforce_subscription_consistency
        ):
            return None
        self._timers.schedule((T_SESSION, gid, mid), self._now + self.config.session_timeout_ms)
        return HeartbeatResponse("NONE", mid, epoch, self.config.heartbeat_interval_ms, None, group_id=gid)

    def heartbeat_stream(
        self: _FastPathHost, rows: Iterable[tuple[int, str, str, int]]
    ) -> list[ConsumerOutcome | None]:
        """Heartbeats ``(now_ms, group_id, member_id, member_epoch)`` in order; see the module doc.

        Steady members are cached (group -> member -> (epoch, live session-timer record)); the
        cache is dropped whenever records are committed, topics change or state is replayed, so a
        cached member is always one that :meth:`_steady_member` accepted since the last change."""
        out: list[ConsumerOutcome | None] = []
        append = out.append
        steady = self._steady
        timers = self._timers
        session_ms = self.config.session_timeout_ms
        enabled = self.use_fast_path and not self.rules.enforce_subscription_consistency
        heap = timers._heap  # noqa: SLF001
        due = heap[0][0] if heap else _NEVER
        now_max, token, seq = self._now, self._token, timers._seq  # noqa: SLF001
        for now, gid, mid, epoch in rows:
            if due <= now:
                c = None
            else:
                sg = steady.get(gid)
                c = sg.get(mid) if sg is not None else None
            if c is None or c[0] != epoch:
                self._now, self._token, timers._seq = now_max, token, seq  # noqa: SLF001
                if c is None and enabled and due > now and self._steady_member(now, gid, mid, epoch):
                    continue_fast = True
                else:
                    continue_fast = False
                if not continue_fast:
                    append(self.heartbeat(now, HeartbeatRequest(gid, mid, epoch)))
                    now_max, token, seq = self._now, self._token, timers._seq  # noqa: SLF001
                    heap = timers._heap  # noqa: SLF001
                    due = heap[0][0] if heap else _NEVER
                    steady = self._steady
                    continue
                c = steady[gid][mid]
            if now > now_max:
                now_max = now
            seq += 1
            token += 1
            rec = c[1]
            rec[0] = seq
            rec[1] = now_max + session_ms
            append(None)
        self._now, self._token, timers._seq = now_max, token, seq  # noqa: SLF001
        return out

    def _steady_member(self: _FastPathHost, now: int, gid: str, mid: str, epoch: int) -> bool:
        """The checks of :meth:`_fast_heartbeat` for a bare heartbeat; a member that passes is
        cached with its live session-timer record (created now if it has none)."""
        g = self._groups.get(gid)
        m = g.members.get(mid) if g is not None else None
        if (
            g is None or m is None or m.member_epoch != epoch or epoch <= 0 or m.state != "STABLE"
            or g.assignment_epoch != epoch or g.group_epoch != epoch or self._refresh_epochs.get(gid) != epoch
            or m.client_id or m.client_host or m.instance_id is not None or m.classic_member_metadata is not None
            or not mid.strip() or not gid.strip()
        ):  # fmt: skip
            return False
        key = (T_SESSION, gid, mid)
        rec = self._timers._live.get(key)  # noqa: SLF001
        if rec is None or rec[4] > max(now, self._now) + self.config.session_timeout_ms:
            return False
        self._steady.setdefault(gid, {})[mid] = (epoch, rec)
        return True
