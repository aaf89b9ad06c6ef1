"""The declared host of the consumer coordinator's mixins.

:class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator` is assembled from mixins
(heartbeat handling, membership timers and fencing, classic-protocol members, the fast path); each
uses state that the coordinator's ``__init__`` creates and methods that the coordinator or another
mixin defines. :class:`ConsumerCoordinatorHost` declares that shared surface once, with types, and
every mixin derives from it so a type checker sees it. The attribute annotations create nothing at
run time, and the method signatures exist only for the type checker (``TYPE_CHECKING``), so no
declaration can shadow an implementation in the MRO.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coordinator_core.consumer.protocol import ConsumerOutcome
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig
from coordinator_core.consumer.state import ConsumerGroupState
from coordinator_core.consumer.versions import ConsumerRules
from coordinator_core.timers import TimerHeap

if TYPE_CHECKING:
    from coordinator_core.consumer.protocol import CoordinatorError, HeartbeatRequest, HeartbeatResponse
    from coordinator_core.consumer.records import Parts
    from coordinator_core.consumer.state import ConsumerMember


class ConsumerCoordinatorHost:
    """State and cross-mixin methods of
    :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    config: ConsumerCoordinatorConfig
    rules: ConsumerRules
    broker_id: int
    #: take the steady-state fast path; False runs the reference path only
    use_fast_path: bool
    _groups: dict[str, ConsumerGroupState]
    _topics: dict[str, int]
    #: timer keys: (kind, group_id, member_id)
    _timers: TimerHeap[tuple[str, str, str]]
    #: group id -> group epoch at which its subscription metadata was last computed
    _refresh_epochs: dict[str, int]
    _now: int
    _out: ConsumerOutcome
    _token: int
    _rng: random.Random
    #: inconsistencies met while replaying records (never expected from this coordinator)
    anomalies: list[tuple[str, str]]
    #: the fast path's cache of steady members (dropped on every state change)
    _steady: dict[str, dict[str, tuple[int, list[Any]]]]

    if TYPE_CHECKING:
        # coordinator.py
        def heartbeat(
            self, now_ms: int, request: HeartbeatRequest | None = None, **fields: Any
        ) -> ConsumerOutcome: ...
        def _begin(self, now_ms: int) -> ConsumerOutcome: ...
        def _finish(self, out: ConsumerOutcome) -> ConsumerOutcome: ...
        def _commit(self, records: list[Any]) -> None: ...
        def _log(self, kind: str, group_id: str, **kw: Any) -> None: ...

        # heartbeat.py
        def _consumer_group(self, group_id: str, create: bool) -> ConsumerGroupState: ...
        def _throw_if_full(self, g: ConsumerGroupState, member_id: str) -> None: ...
        def _unknown_member(self, g: ConsumerGroupState, member_id: str) -> CoordinatorError: ...
        def _dynamic_member(
            self,
            g: ConsumerGroupState,
            mid: str,
            epoch: int,
            owned: Parts | None,
            create: bool,
            classic: bool = False,
        ) -> ConsumerMember: ...
        def _static_member(
            self, g: ConsumerGroupState, mid: str, epoch: int, iid: str, owned: Parts | None, create: bool,
            records: list[Any], classic: bool = False,
        ) -> tuple[ConsumerMember, str | None]: ...  # fmt: skip
        @staticmethod
        def _remove_member_records(gid: str, mid: str, records: list[Any]) -> None: ...
        def _bump_assign_reconcile(
            self, g: ConsumerGroupState, member: ConsumerMember, updated: ConsumerMember, bump: bool,
            replaced: str | None, owned: Parts | None, records: list[Any],
        ) -> ConsumerMember: ...  # fmt: skip
        def _subscription_changed(
            self,
            g: ConsumerGroupState,
            member: ConsumerMember,
            updated: ConsumerMember,
            records: list[Any],
            new: bool,
        ) -> bool: ...

        # membership.py
        def _fence_records(self, g: ConsumerGroupState, m: ConsumerMember, cause: str) -> list[Any]: ...
        def _epoch_bump_records(
            self, g: ConsumerGroupState, meta: dict[str, Any], records: list[Any]
        ) -> int: ...
        def _schedule_session(self, gid: str, mid: str, timeout_ms: int | None = None) -> None: ...
        def _schedule_rebalance(self, gid: str, mid: str, member_epoch: int, timeout_ms: int) -> None: ...
        def _cancel_rebalance(self, gid: str, mid: str) -> None: ...
        def _cancel_member_timers(self, gid: str, mid: str) -> None: ...

        # classic.py
        @staticmethod
        def _others_all_classic(g: ConsumerGroupState, member_id: str) -> bool: ...
        def _downgrade(
            self, g: ConsumerGroupState, leaving: str, joining: ConsumerMember | None, records: list[Any]
        ) -> None: ...

        # fastpath.py
        def _fast_heartbeat(self, req: HeartbeatRequest) -> HeartbeatResponse | None: ...
