"""coordinator_core: Kafka's classic group coordinator as a pure, replayable model.

Sans-IO (like h11): evidence events in; transitions, rebalance records, member sessions,
assignments and anomalies out. No Spark, pandas, Arrow or I/O; time comes from the events.
"""

from coordinator_core.config import CoordinatorConfig, Features
from coordinator_core.coordinator import GroupCoordinator, Outcome, Response
from coordinator_core.group import ClassicGroup, IllegalStateTransition, Member
from coordinator_core.placement import partition_for
from coordinator_core.replay import GroupReplay, ReplayOutput, ReplaySettings
from coordinator_core.states import GroupState
from coordinator_core.whatif import WhatIfResult, what_if

__all__ = [
    "ClassicGroup",
    "CoordinatorConfig",
    "Features",
    "GroupCoordinator",
    "GroupReplay",
    "GroupState",
    "IllegalStateTransition",
    "Member",
    "Outcome",
    "ReplayOutput",
    "ReplaySettings",
    "Response",
    "WhatIfResult",
    "partition_for",
    "what_if",
]
