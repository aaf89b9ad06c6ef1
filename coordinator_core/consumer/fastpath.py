"""The steady-state heartbeat fast path of the consumer-group coordinator: the one named place for
speed, beside the reference path (:mod:`coordinator_core.consumer.heartbeat`), and tested equal to
it (``tests/core/test_consumer_coordinator_fastpath.py``).

A heartbeat takes the fast path when the reference path would do nothing but re-arm the session
timeout and answer: a known member at its current epoch, fully reconciled to the target epoch, the
group's target assignment current, its metadata not due for a refresh, and a request that changes
no member field and reports no owned partitions (``topic_partitions`` None, as the Java client
sends once its assignment is acknowledged). Anything else returns None and the reference path
answers.
"""

from __future__ import annotations

from coordinator_core.consumer.membership import T_SESSION
from coordinator_core.consumer.protocol import HeartbeatRequest, HeartbeatResponse

__all__ = ["FastPathMixin"]


class FastPathMixin:
    """Mixed into :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    def _fast_heartbeat(self, req: HeartbeatRequest) -> HeartbeatResponse | None:
        epoch = req.member_epoch
        if epoch <= 0 or req.topic_partitions is not None or req.subscribed_topic_regex is not None:
            return None
        gid = req.group_id
        g = self._groups.get(gid) if gid else None
        if g is None:
            return None
        mid = req.member_id
        m = g.members.get(mid) if mid else None
        if (
            m is None
            or m.member_epoch != epoch
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
