"""Dialects of kafka-python's oldest releases (1.0-1.3: ``kafka/coordinator/base.py``'s heartbeat task and
response handlers) and of its coordinator lookup in ``kafka/cluster.py`` (1.0-3.0), from the statements of
``jobs/ingest/catalogue/data/kafka-python.yaml``. Most of these lines name no group: the parser's context
attribution gives them the group of their file (``jobs/ingest/attribution.py``). Part of
:data:`jobs.ingest.dialects.DIALECTS`, before the other non-Java clients (whose catch-alls would read
``sync group response`` as a group called ``response``). Its ``Attempt to join group g failed due to unknown member id, …`` and ``… rejected since coordinator is loading
the group.`` are read by the Java client's and the later releases' dialects."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

#: kafka-python's coordinator loggers (``kafka.coordinator``, ``.base``, ``.consumer``, ``.heartbeat``)
PY_COORD = r"^kafka\.coordinator(?:\.(?:base|consumer|heartbeat))?$"
#: the broker a lookup found, as ``BrokerMetadata`` (1.x: ``nodeId=1``; 2.0+: ``nodeId='coordinator-1'``)
#: or 3.0's ``MetadataResponseBroker`` (``node_id=…``)
_BROKER = r"\w+\((?:nodeId|node_id)='?(?:coordinator-)?(?P<coordinator>\d+)'?, host='(?P<host>[^']*)'.*\)"

PYTHON_1X: tuple[Dialect, ...] = (
    _d("python.synced.v1", "synced", OT, "kafka-python 1.0-1.3",
       r"Received successful sync group response for group {G}: .*",
       "Received successful sync group response for group g: SyncGroupResponse_v0(error_code=0, member_assignment=b'x')"),
    _d("python.join_failed.v1", "join_failed", OT, "kafka-python 1.0-1.3", r"Attempt to join group {G} failed due to: {R}",
       "Attempt to join group g failed due to: GroupAuthorizationFailedError"),
    _d("python.heartbeat_ok.v1", "heartbeat_sent", OT, "kafka-python 1.0-1.3", r"Heartbeat successful",
       "Heartbeat successful", logger=PY_COORD),
    _d("python.heartbeat_failed.v1", "heartbeat_failed", OT, "kafka-python 1.0-1.3",
       r"(?P<reason>Heartbeat failed(?: \((?:\[Error \d+\] )?\w+(?:\(.*\))?\))?); retrying",
       "Heartbeat failed ([Error 15] GroupCoordinatorNotAvailableError); retrying"),
    _d("python.heartbeat_rejoin.v1", "heartbeat_failed", OT, "kafka-python 1.0-1.3",
       r"(?P<reason>Heartbeat: (?:group is rebalancing|generation id is not current); this consumer needs to re-join)",
       "Heartbeat: group is rebalancing; this consumer needs to re-join"),
    _d("python.heartbeat_coordinator.v1", "heartbeat_failed", OT, "kafka-python 1.0-1.3",
       r"(?P<reason>Heartbeat failed: coordinator is either not started or not valid); will refresh metadata and retry",
       "Heartbeat failed: coordinator is either not started or not valid; will refresh metadata and retry"),
    _d("python.coordinator_unknown.v1", "coordinator_lost", OT, "kafka-python 1.0-1.3",
       r"(?P<reason>Coordinator unknown during heartbeat) -- will retry", "Coordinator unknown during heartbeat -- will retry"),
    _d("python.coordinator_dead.v1", "coordinator_lost", OT, "kafka-python 1.0-1.3",
       r"Marking the coordinator dead \(node (?P<coordinator>\d+)\): (?P<reason>.*?)\.",
       "Marking the coordinator dead (node 1): [Error 16] NotCoordinatorForGroupError."),
    # kafka/cluster.py add_coordinator(): 2.2's 'group/<id>', 3.0's 'GROUP/<id>' (a TRANSACTION key is no group)
    _d("python.coordinator_for.v2", "coordinator_discovered", OT, "kafka-python 2.2+",
       r"Coordinator for (?:group|GROUP)/(?P<group_id>\S+) is " + _BROKER,
       "Coordinator for group/g is BrokerMetadata(nodeId='coordinator-1', host='kafka-1', port=9092, rack=None)"),
    # the lookup's failures name no group; the client retries them (as the Java consumer's: recognised, no event)
    # (its DEBUG "Updating coordinator for g: <response>" is python.client_debug_quiet's)
    _d("python.coordinator_lookup_quiet", None, OT, "kafka-python 1.0-2.0", r"GroupCoordinatorResponse error: .*",
       "GroupCoordinatorResponse error: <class 'kafka.errors.GroupCoordinatorNotAvailableError'>", logger=r"^kafka\.cluster$"),
    _d("python.coordinator_conflict_quiet", None, OT, "kafka-python 1.3-1.4",
       r"GroupCoordinator metadata conflicts with existing broker metadata\..*",
       "GroupCoordinator metadata conflicts with existing broker metadata. Coordinator: x, Broker: y", logger=r"^kafka\.cluster$"),
    _d("python.coordinator_lookup_quiet.v2", None, OT, "kafka-python 2.2-2.3", r"FindCoordinatorResponse error: .*",
       "FindCoordinatorResponse error: <class 'kafka.errors.CoordinatorNotAvailableError'>", logger=r"^kafka\.cluster$"),
)  # fmt: skip
