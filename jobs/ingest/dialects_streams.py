"""Dialects of Kafka Streams and Kafka Connect: their group-membership evidence besides the embedded
consumer's own lines (which the Java client dialects read).

Kafka Streams logs behind ``stream-thread [T] `` (a stream thread, its TaskManager, and as
``stream-thread [T-consumer] `` the partition assignor) and ``stream-client [C] `` (the KafkaStreams
client). With the default client id (``<application.id>-<process UUID>``) the thread name
``<application.id>-<UUID>-StreamThread-N`` carries the group (``application.id`` is the consumer group
id), which the dialects read; a custom client id leaves the group to the file's context. Read are the
stream thread's and the client's state transitions (``streams_state_changed``), the assignor's decisions
to schedule a follow-up or probing rebalance (``streams_rebalance_scheduled``, KIP-441) and the thread
triggering it (``rejoin_requested``: its cause is ``followup_rebalance`` or ``probing_rebalance``, see
:func:`coordinator_core.causes.classify_client_reason`).

Kafka Connect's distributed worker logs behind ``[Worker clientId=c, groupId=g] `` (side ``connect``).

Part of :data:`jobs.ingest.dialects.DIALECTS`, after the Java client's dialects.
"""

from __future__ import annotations

from jobs.ingest.dialect_model import CN, C, Dialect
from jobs.ingest.dialect_model import dialect as _d

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
#: ``stream-thread [T] ``: the thread name as ``client_id``, the application id as ``group_id`` when the
#: name has the default client id's process UUID
THREAD = r"stream-thread \[(?P<client_id>(?:(?P<group_id>[^\]\s]+?)-" + _UUID + r"-)?[^\]]*)\] "
#: ``stream-client [C] ``: the client id (``<application.id>-<UUID>`` by default); 1.0's KafkaStreams wrote its
#: LogContext prefix without the blank (``String.format("stream-client [%s]", clientId)``)
CLIENT = r"stream-client \[(?P<client_id>(?:(?P<group_id>[^\]\s]+?)-" + _UUID + r")?[^\]]*)\] ?"
#: the states of ``StreamThread.State`` and ``KafkaStreams.State`` (1.0-4.x)
STREAMS_STATES = r"(?:CREATED|STARTING|PARTITIONS_REVOKED|PARTITIONS_ASSIGNED|RUNNING|PENDING_SHUTDOWN|DEAD|REBALANCING|PENDING_ERROR|ERROR|NOT_RUNNING)"
_T = "stream-thread [app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-StreamThread-1] "
_TC = "stream-thread [app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-StreamThread-1-consumer] "
_SC = "stream-client [app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a] "

STREAMS: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Kafka Streams
    _d("streams.thread_state", "streams_state_changed", C, "0.10-4.x",
       THREAD + r"State transition from (?P<from_state>[A-Z_]+) to (?P<state>[A-Z_]+)\.?",
       _T + "State transition from RUNNING to PARTITIONS_REVOKED", fixed={"reason": "stream-thread"}),
    _d("streams.client_state", "streams_state_changed", C, "1.0-4.x",
       CLIENT + r"State transition from (?P<from_state>[A-Z_]+) to (?P<state>[A-Z_]+)\.?",
       _SC + "State transition from RUNNING to REBALANCING", fixed={"reason": "stream-client"}),
    _d("streams.followup_triggered", "rejoin_requested", C, "2.6-4.x",
       THREAD + r"(?P<reason>Triggering the followup rebalance scheduled for .*?)\.?",
       _T + "Triggering the followup rebalance scheduled for 1970-01-01 00:00:00,000 Z."),
    _d("streams.version_probing_triggered", "rejoin_requested", C, "2.0-4.x",
       THREAD + r"(?P<reason>Version probing detected\. Triggering new rebalance\.)",
       _T + "Version probing detected. Triggering new rebalance."),
    _d("streams.schedule_requested", "streams_rebalance_scheduled", C, "2.6-4.x",
       THREAD + r"(?P<reason>Requested to schedule (?:immediate rebalance|next probing rebalance|probing rebalance) .*)",
       _TC + "Requested to schedule next probing rebalance at 2024-05-01 10:10:00,123 Z to try for a more balanced assignment."),
    _d("streams.client_followup_requested", "streams_rebalance_scheduled", C, "2.6-4.x",
       THREAD + r"(?P<reason>Requested client \S+ to schedule a followup rebalance)",
       _TC + "Requested client 4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a to schedule a followup rebalance"),
    _d("streams.followup_requested", "streams_rebalance_scheduled", C, "2.6-4.x",
       THREAD + r"(?P<reason>Requesting followup rebalance be scheduled (?:immediately )?(?:by (?P<member_id>\S+) )?"
       r"(?:for .* )?(?:due to tasks changing ownership|to probe for caught-up replica tasks)\.)",
       _TC + "Requesting followup rebalance be scheduled immediately by app-StreamThread-1-consumer-9a1b due to tasks changing ownership."),
    _d("streams.unstable_assignment", "streams_rebalance_scheduled", C, "2.6-4.x",
       THREAD + r"(?P<reason>Finished unstable assignment of tasks, a followup rebalance will be scheduled\.)",
       _TC + "Finished unstable assignment of tasks, a followup rebalance will be scheduled."),
    _d("streams.no_followup", "other", C, "2.6-4.x",
       THREAD + r"(?P<reason>(?:Finished stable assignment of tasks, no followup rebalances required|No followup rebalance was requested, resetting the rebalance schedule)\.)",
       _TC + "No followup rebalance was requested, resetting the rebalance schedule."),
    _d("streams.partitions_at_rebalance", "other", C, "0.10-2.x",
       THREAD + r"(?P<reason>(?:at state [A-Z_]+: )?(?:[Nn]ew )?partitions \[?(?P<partitions_raw>.*?)\]? (?:assigned at the end|revoked at the beginning) of consumer rebalance|lost due to missed rebalance)\..*",
       _T + "at state RUNNING: partitions [t-0] revoked at the beginning of consumer rebalance. current assigned active tasks: [0_0]"),
    # the thread dropped out of the group (a migrated task, fencing) and rejoins it
    _d("streams.dropped_out", "rejoin_requested", C, "2.x-4.x",
       THREAD + r"(?P<reason>Detected (?:a task|task \S+|that the thread is being fenced)\.? ?.*missed a rebalance and dropped out of the consumer group\..*)",
       _T + "Detected that the thread is being fenced. This implies that this thread missed a rebalance and dropped out of the consumer group. Will close out all assigned tasks and rejoin the consumer group."),
    # rebalances Streams causes for other reasons, and the assignor's failures (understood, not replayed)
    _d("streams.self_triggered", "other", C, "2.x-4.x",
       THREAD + r"(?P<reason>(?:Active task\(s\) got corrupted\. Triggering a rebalance|StreamThread has detected an update to the topology, triggering a rebalance to refresh the assignment"
       r"|(?:Stream|Standby) task \S+ is already closed, probably because it got unexpectedly migrated to another thread already\. Notifying the thread to trigger a new rebalance immediately"
       r"|Failed to (?:process|punctuate) stream task \S+ since it got migrated to another thread already\. Will trigger a new rebalance.*)\.?)",
       _T + "Active task(s) got corrupted. Triggering a rebalance."),
    _d("streams.assignor_failed", "other", C, "2.x-4.x",
       THREAD + r"(?P<reason>Rebalance failed due to task assignor returning assignment with error .*"
       r"|Failed to fetch end offsets for changelogs, will return previous assignment to clients and trigger another rebalance to retry\."
       r"|Caught an error in the task assignment\. Returning an error assignment\.)",
       _TC + "Caught an error in the task assignment. Returning an error assignment."),
    _d("streams.remove_static_failed", "other", C, "2.x-4.x",
       CLIENT + r"(?P<reason>Could not remove static member (?P<group_instance_id>\S+) from consumer group \S+ due to.*)",
       _SC + "Could not remove static member i1 from consumer group app due to a timeout: boom"),
    # the leader's assignor: StreamsPartitionAssignor.assign runs on the group leader (2.0-3.4 log its result)
    _d("streams.leader_assigned", "leader_assigned", C, "2.0-3.4",
       THREAD + r"(?P<reason>Assigned tasks (?:.* including stateful .* )?to clients as:?)(?: .*)?",
       _TC + "Assigned tasks to clients as {4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a=[activeTasks: ([0_0]) standbyTasks: ([])]}."),
    # a stream thread dying on an error, and the client whose last thread died: their consumers leave the group
    _d("streams.thread_died", "other", C, "1.0-4.x",
       THREAD + r"(?P<reason>Encountered the following (?:error|unexpected Kafka exception|exception) during processing(?:,| and)? ?[^:]*:?)(?: .*)?",
       _T + "Encountered the following error during processing:"),
    _d("streams.client_died", "other", C, "1.0-4.x",
       CLIENT + r"(?P<reason>All stream threads have died\. The instance will be in error state and should be closed\."
       r"|Encountered the following exception during processing.*(?:shut down now|entire application)\.)",
       _SC + "All stream threads have died. The instance will be in error state and should be closed."),
    # the JVM's default uncaught-exception handler (ThreadGroup.uncaughtException) on a stream thread: the
    # thread died (the default client id's thread name names the group)
    _d("streams.thread_uncaught", "other", C, "0.10-4.x",
       r'Exception in thread "(?P<client_id>(?:(?P<group_id>[^"\s]+?)-' + _UUID + r'-)?[^"]*StreamThread-\d+)" '
       r"(?P<reason>(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)(?:: .*)?)",
       'Exception in thread "app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-StreamThread-1" '
       "org.apache.kafka.streams.errors.StreamsException: stream-thread [app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-StreamThread-1] Failed to rebalance.",
       provenance="source:java.lang.ThreadGroup.uncaughtException (the JVM's default handler prints 'Exception in thread \"<name>\" ' and the exception)"),
    # a state transition whose context prefix a paste dropped: the bare statement, with the states of Kafka
    # Streams' StreamThread.State and KafkaStreams.State (no other group-membership code logs this wording)
    _d("streams.state_bare", "streams_state_changed", C, "1.0-4.x",
       r"State transition from (?P<from_state>" + STREAMS_STATES + r") to (?P<state>" + STREAMS_STATES + r")\.?",
       "State transition from RUNNING to PARTITIONS_REVOKED",
       provenance="source:StreamThread / KafkaStreams 'State transition from {} to {}' (the catalogue's statements, without their prefix)"),
    # HighAvailabilityTaskAssignor (KIP-441): the leader's decision, warm-up tasks included (no prefix)
    _d("streams.ha_probing", "streams_rebalance_scheduled", C, "2.6-4.x",
       r"(?P<reason>Decided on assignment: .* with followup probing rebalance\.)",
       "Decided on assignment: {uuid=[activeTasks: ([0_0]) standbyTasks: ([]) prevActiveTasks: ([0_0])]} with followup probing rebalance."),
    _d("streams.ha_no_probing", "other", C, "2.6-4.x",
       r"(?P<reason>Decided on assignment: .* with no followup probing rebalance\.)",
       "Decided on assignment: {uuid=[activeTasks: ([0_0])]} with no followup probing rebalance.",
       provenance="source:HighAvailabilityTaskAssignor (statement high-availability-task-assignor.decided-on-assignment-with-followup-probing with ' no')"),
)  # fmt: skip

CONNECT: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Kafka Connect worker
    # DistributedHerder.onAssigned logs Connect's protocol *version* (0 eager, 1 compatible, 2
    # sessioned), not the protocol name the coordinator selected: it is not read as the protocol
    _d("connect.joined", "joined", CN, "1.0-4.x",
       r"Joined group at generation {N}(?: with protocol version \d+)? and got assignment: (?P<reason>Assignment\{.*\})(?: with rebalance delay: \d+)?",
       "Joined group at generation 7 with protocol version 2 and got assignment: Assignment{error=0, leader='connect-1-uuid', "
       "leaderUrl='http://w1:8083/', offset=12, connectorIds=[c1], taskIds=[c1-0], revokedConnectorIds=[], revokedTaskIds=[], delay=0} with rebalance delay: 0"),
    _d("connect.joined.v1_0", "joined", CN, "0.10-1.1",
       r"Joined group and got assignment: (?P<reason>Assignment\{.*\})", "Joined group and got assignment: Assignment{error=0, leader='w1'}"),
    _d("connect.rebalance_started", "other", CN, "0.10-4.x", r"(?P<reason>Rebalance started)", "Rebalance started"),
    _d("connect.resume_failed", "other", CN, "0.10-4.x", r"(?P<reason>Wasn't (?:un)?able to resume work after last rebalance.*)",
       "Wasn't able to resume work after last rebalance, can skip stopping connectors and tasks"),
    _d("connect.poll_timeout", "poll_timeout", CN, "3.x-4.x",
       r"(?P<reason>worker poll timeout has expired\..*)",
       "worker poll timeout has expired. The last known action being performed by the worker is : reading to end of config log"),
    _d("connect.coordinator_unreachable", "coordinator_lost", CN, "2.3-4.x",
       r"(?P<reason>Broker coordinator was unreachable for \d+ms)\. Revoking previous assignment .*",
       "Broker coordinator was unreachable for 3000ms. Revoking previous assignment Assignment{error=0} to avoid running tasks while not being a member the group"),
    _d("connect.assignment_failed", "other", CN, "0.10-4.x",
       r"(?P<reason>Join group completed, but assignment failed.*)",
       "Join group completed, but assignment failed and we are the leader. Reading to end of config and retrying."),
    # DistributedHerder asks its WorkerGroupMember to rejoin (member.requestRejoin)
    _d("connect.rejoin_requested", "rejoin_requested", CN, "0.10-4.x",
       r"(?P<reason>(?:Current config state offset -?\d+ does not match group assignment -?\d+\. Forcing rebalance"
       r"|Requesting rebalance (?:because scheduled rebalance timeout has been reached|due to reconfiguration of tasks)).*)",
       "Current config state offset 5 does not match group assignment 7. Forcing rebalance."),
    _d("connect.rebalance_requested", "other", CN, "0.10-4.x",
       r"(?P<reason>(?:Revoking current running assignment .* because after \d+ retries the worker has not caught up"
       r"|Was selected to perform assignments, but do not have latest config found in sync request"
       r"|Cooperative rebalance triggered\. Keeping assignment .* until it's explicitly revoked"
       r"|Revoking previous assignment ).*)",
       "Was selected to perform assignments, but do not have latest config found in sync request. Returning an empty configuration to trigger re-sync."),
    _d("connect.performing_assignment", "other", CN, "2.3-4.x",
       r"(?P<reason>Performing task assignment during generation: {N} with memberId: {M})\.?",
       "Performing task assignment during generation: 7 with memberId: connect-1-uuid"),
)  # fmt: skip

STREAMS_CONNECT: tuple[Dialect, ...] = (*STREAMS, *CONNECT)
