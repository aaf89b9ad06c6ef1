"""``GroupCoordinator``: the coordinator's state and public entry points, assembled from one mixin
per concern (JoinGroup, the join phase, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, group
load/unload, validation, call plumbing). See the package docstring for the call semantics."""

from __future__ import annotations

import random
from collections.abc import Callable

from coordinator_core.config import CoordinatorConfig
from coordinator_core.coordinator.calls import CallsMixin
from coordinator_core.coordinator.heartbeat import HeartbeatMixin
from coordinator_core.coordinator.join import JoinMixin
from coordinator_core.coordinator.leave import LeaveMixin
from coordinator_core.coordinator.loading import LoadingMixin
from coordinator_core.coordinator.offsets import OffsetsMixin
from coordinator_core.coordinator.protocol import Outcome
from coordinator_core.coordinator.rebalance import RebalanceMixin
from coordinator_core.coordinator.sync import SyncMixin
from coordinator_core.coordinator.validation import ValidationMixin
from coordinator_core.group import ClassicGroup
from coordinator_core.timers import TimerHeap


class GroupCoordinator(
    JoinMixin,
    RebalanceMixin,
    SyncMixin,
    HeartbeatMixin,
    LeaveMixin,
    OffsetsMixin,
    LoadingMixin,
    ValidationMixin,
    CallsMixin,
):
    """One broker's classic-group coordinator for many groups; pure and event-time driven."""

    def __init__(
        self,
        config: CoordinatorConfig | None = None,
        broker_id: int = 0,
        *,
        seed: int = 0,
        member_id_factory: Callable[[str], str] | None = None,
        strict_timers: bool = False,
    ) -> None:
        """``strict_timers``: a timer fires only once time is strictly past its deadline, like
        Kafka's ``MockTimer`` in the unit tests; the default fires at ``now >= deadline`` like the
        broker's ``SystemTimer``."""
        self.config = config if config is not None else CoordinatorConfig()
        self.features = self.config.features
        self.broker_id = broker_id
        self._groups = {}
        self._timers = TimerHeap()
        self._join_op = {}
        self._now = -(2**62)
        self._out = Outcome()
        self._token = 0
        self._rng = random.Random(seed)
        self._id_factory = member_id_factory
        self._lag = 1 if strict_timers else 0

    def group(self, group_id: str) -> ClassicGroup | None:
        return self._groups.get(group_id)

    @property
    def groups(self) -> dict[str, ClassicGroup]:
        return self._groups

    def add_group(self, group: ClassicGroup) -> None:
        """Install a group object as-is (tests, replay bootstrapping); it is owned by this broker."""
        group.owned = True
        self._groups[group.group_id] = group

    def next_deadline(self) -> int | None:
        """Earliest ``now_ms`` at which ``advance_to`` fires a timer (for discrete-event drivers)."""
        d = self._timers.next_deadline()
        return None if d is None else d + self._lag

    def timer_deadline(self, kind: str, group_id: str, member_id: str | None = None) -> int | None:
        """Deadline of one timer: kind ``join``, ``sync``, ``hb`` (member heartbeat) or ``pending``."""
        key = (kind, group_id) if member_id is None else (kind, group_id, member_id)
        return self._timers.deadline(key)

    def advance_to(self, now_ms: int) -> Outcome:
        """Fire every timer due at ``now_ms``."""
        return self._finish(self._begin(now_ms))
