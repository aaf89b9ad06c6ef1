"""Configuration of the request-level consumer-group coordinator (``GroupCoordinatorConfig`` /
``GroupConfig``'s consumer entries, with Kafka's defaults)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from coordinator_core.assignors import server_range, server_uniform
from coordinator_core.consumer.versions import ConsumerRules

__all__ = ["ConsumerCoordinatorConfig", "DEFAULT_ASSIGNORS", "MIGRATION_POLICIES"]

#: ``group.consumer.assignors`` default: uniform, range (the first is the default assignor)
DEFAULT_ASSIGNORS: Mapping[str, Callable[..., Any]] = {
    server_uniform.NAME: server_uniform.assign,
    server_range.NAME: server_range.assign,
}
#: ``group.consumer.migration.policy`` values (``ConsumerGroupMigrationPolicy``)
MIGRATION_POLICIES = ("disabled", "upgrade", "downgrade", "bidirectional")


@dataclass(frozen=True)
class ConsumerCoordinatorConfig:
    """``version``: the Kafka release whose rules apply (4.0, 4.1, 4.2)."""

    version: str = "4.0"
    #: group.consumer.session.timeout.ms
    session_timeout_ms: int = 45_000
    #: group.consumer.heartbeat.interval.ms
    heartbeat_interval_ms: int = 5_000
    #: group.consumer.max.size (Integer.MAX_VALUE in 4.0)
    max_size: int = 2**31 - 1
    #: group.consumer.assignors: name -> assign(members, topics); the first one is the default
    assignors: Mapping[str, Callable[..., Any]] = field(default_factory=lambda: dict(DEFAULT_ASSIGNORS))
    #: group.consumer.migration.policy
    migration_policy: str = "bidirectional"
    #: group.min.session.timeout.ms / group.max.session.timeout.ms (classic members' JoinGroup)
    classic_min_session_timeout_ms: int = 6_000
    classic_max_session_timeout_ms: int = 1_800_000
    #: group.classic.max.size (the online downgrade's limit)
    classic_max_size: int = 2**31 - 1

    def __post_init__(self) -> None:
        if self.migration_policy not in MIGRATION_POLICIES:
            raise ValueError(f"unknown migration policy {self.migration_policy!r}; expected one of {MIGRATION_POLICIES}")
        if not self.assignors:
            raise ValueError("at least one server assignor is required")

    @property
    def rules(self) -> ConsumerRules:
        return ConsumerRules.for_version(self.version)

    @property
    def default_assignor(self) -> str:
        return next(iter(self.assignors))
