"""coordinator_core: Kafka's classic group coordinator as a pure, replayable model.

Sans-IO (like h11): evidence events in; transitions, rebalance records, member sessions,
assignments and anomalies out. No Spark, pandas, Arrow or I/O; time comes from the events.
"""

from coordinator_core.placement import partition_for
from coordinator_core.states import GroupState

__all__ = ["GroupState", "partition_for"]
