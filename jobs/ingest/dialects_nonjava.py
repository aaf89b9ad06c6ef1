"""Dialects of the non-Java clients: kafka-python (its ``kafka.coordinator*`` loggers), librdkafka
(and the bindings on it), kafkajs, franz-go and sarama. The last part of
:data:`jobs.ingest.dialects.DIALECTS` (after the Java client and Connect wordings, whose 0.10 forms
kafka-python shares)."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, RDKAFKA_FACILITY, Dialect
from jobs.ingest.dialect_model import dialect as _d
from jobs.ingest.dialects_clients import CLIENT_DIALECTS

#: the coordinator loggers of kafka-python (``kafka.coordinator``, ``.consumer``, ``.heartbeat``) and
#: aiokafka (``aiokafka.consumer.group_coordinator``): a condition for their generic wordings
PY_LOGGERS = r"^(?:kafka\.coordinator(?:\.(?:base|consumer|heartbeat|assignors.*))?|aiokafka\.consumer\.group_coordinator)$"

#: the head of kafka-python's and aiokafka's DEBUG request and response lines: the connection's
#: (kafka-python 2.0 ``<BrokerConnection …> Request 4: ``, ``… Response 1 (1.2 ms): ``; 3.0
#: ``<KafkaConnection …> Request 4: ``, ``…>: Response 2 (8.4 ms): ``; aiokafka 0.8 ``<AIOKafkaConnection …>
#: Request 4: ``, 0.14 ``Request to h:9092 4: ``, ``Response from h:9092 2: ``)
_PY_CONN = (r"(?:<(?:BrokerConnection|AIOKafkaConnection|KafkaConnection) .*?>:? (?:Request|Response) \d+(?: \([\d.]+ ms\))?: "
            r"|(?:Request to|Response from) \S+ \d+: )")
#: a protocol struct's repr: ``HeartbeatRequest_v1(`` (kafka-python 2.0, aiokafka) or ``HeartbeatRequest(version=3, `` (3.0)
_PY_STRUCT = r"(?:_v\d+\(|\(version=\d+, )"
_PY_CONN_LOGGERS = r"^(?:kafka\.conn|kafka\.net\.connection|aiokafka\.conn)$"
#: a kafkajs response's error: `` error: <text>`` (the reader appends a JSON record's ``error`` key) or the
#: ``"error":"<text>"`` key of the JSON object an application's logger writes after the message (NestJS)
_KJ_ERR = r'(?: error: |\s*\{.*"error":\s*")(?P<reason>[^"]*)(?:".*)?'

NON_JAVA: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ kafka-python and aiokafka (jobs/ingest/catalogue/data)
    # (their "Successfully joined group g with generation N" (kafka-python 1.4-2.0) and "(Re-)joining
    # group g" are the Java 0.10 wordings above; the Python logger makes their side "other")
    _d("python.joined.v2", "joined", OT, "kafka-python 1.0-1.3, aiokafka", r"Joined group '{G}' \(generation {N}\) with member_id {M}",
       "Joined group 'g' (generation 3) with member_id kafka-python-2.0.2-uuid"),
    _d("python.joined.gen", "joined", OT, "kafka-python 2.2+",
       r"Successfully joined group {G} <Generation {N} \(member_id: {M}, protocol: (?P<protocol>[^)]*)\)>",
       "Successfully joined group g <Generation 2 (member_id: 0x7f1, protocol: range)>"),
    _d("python.synced", "synced", OT, "aiokafka", r"Successfully synced group {G} with generation {N}",
       "Successfully synced group g with generation 3"),
    _d("python.discovered", "coordinator_discovered", OT, "kafka-python, aiokafka",
       r"Discovered coordinator (?:coordinator-)?(?P<coordinator>\d+) for group {G}", "Discovered coordinator coordinator-1 for group g"),
    _d("python.coordinator_dead", "coordinator_lost", OT, "kafka-python, aiokafka",
       r"Marking the coordinator dead \(node (?:(?:coordinator-)?(?P<coordinator>\d+)|[^)]*)\) ?(?:for group {G})?(?:: {R}|\.)",
       "Marking the coordinator dead (node 1) for group g: Heartbeat session expired."),
    _d("python.leaving", "leave_sent", OT, "kafka-python 1.4+",
       r"Leaving consumer group \(?(?P<group_id>[^\s()]+)\)?(?: \(member {M}\))?\.", "Leaving consumer group g (member 0x7f1)."),
    _d("python.leave_succeeded", "leave_sent", OT, "kafka-python 1.3, aiokafka", r"(?P<reason>LeaveGroup request succeeded)",
       "LeaveGroup request succeeded", logger=PY_LOGGERS, distinctive=True),
    _d("python.heartbeat_request", "heartbeat_sent", OT, "kafka-python 1.x, aiokafka", r"Heartbeat: {G}\[{N}\] {M}",
       "Heartbeat: g[3] 0x7f1", logger=PY_LOGGERS),
    _d("python.heartbeat_sending", "heartbeat_sent", OT, "kafka-python 2.2+",
       r"Sending heartbeat for group {G} <Generation {N} \(member_id: {M}, protocol: (?P<protocol>[^)]*)\)>",
       "Sending heartbeat for group g <Generation 2 (member_id: 0x7f1, protocol: range)>"),
    _d("python.heartbeat_response", "heartbeat_sent", OT, "kafka-python 2.2+",
       r"Received heartbeat response for group {G}: HeartbeatResponse\(.*error_code=0\)",
       "Received heartbeat response for group g: HeartbeatResponse(version=3, throttle_time_ms=0, error_code=0)"),
    _d("python.rebalancing_rejoining", "heartbeat_failed", OT, "kafka-python 3.0", r"Group {G} is rebalancing; rejoining\.",
       "Group g is rebalancing; rejoining.", fixed={"error": "REBALANCE_IN_PROGRESS"}),
    _d("python.heartbeat_rebalancing", "heartbeat_failed", OT, "kafka-python 1.x-2.x, aiokafka",
       r"Heartbeat failed for group {G} because it is rebalancing", "Heartbeat failed for group g because it is rebalancing",
       fixed={"error": "REBALANCE_IN_PROGRESS"}),
    _d("python.heartbeat_generation", "heartbeat_failed", OT, "kafka-python, aiokafka",
       r"Heartbeat failed for group {G}: generation id is not  ?current\.", "Heartbeat failed for group g: generation id is not  current.",
       fixed={"error": "ILLEGAL_GENERATION"}),
    _d("python.heartbeat_fenced", "heartbeat_failed", OT, "kafka-python 2.3+",
       r"Heartbeat failed for group {G} due to fenced id error: {R}", "Heartbeat failed for group g due to fenced id error: i1",
       fixed={"error": "FENCED_INSTANCE_ID"}),
    _d("python.heartbeat_thread_fenced", "heartbeat_failed", OT, "kafka-python 2.3+",
       r"Heartbeat thread caught fenced group_instance_id (?P<group_instance_id>\S+) error", "Heartbeat thread caught fenced group_instance_id i1 error",
       fixed={"error": "FENCED_INSTANCE_ID"}, logger=PY_LOGGERS, distinctive=True),
    _d("python.heartbeat_coordinator", "heartbeat_failed", OT, "kafka-python, aiokafka",
       r"Heartbeat failed for group {G}: (?P<reason>coordinator \(node [^)]*\) is either not started or not valid)",
       "Heartbeat failed for group g: coordinator (node 1) is either not started or not valid", fixed={"error": "NOT_COORDINATOR"}),
    _d("python.lost", "partitions_lost", OT, "kafka-python 3.0",
       r"Group {G} lost membership; forcibly revoking (?:frozenset\(|set\()?(?P<partitions_raw>\{.*?\}|)\)?",
       "Group g lost membership; forcibly revoking {TopicPartition(topic='t', partition=0)}"),
    _d("python.followup", "rejoin_requested", OT, "kafka-python 3.0",
       r"Triggering follow-up rebalance for group {G} (?P<reason>to complete cooperative move .*)",
       "Triggering follow-up rebalance for group g to complete cooperative move of 1 partition(s)"),
    _d("python.poll_expired", "poll_timeout", OT, "kafka-python 1.4-2.0", r"(?P<reason>Heartbeat poll expired), leaving group",
       "Heartbeat poll expired, leaving group"),
    _d("python.join_loading", "join_failed", OT, "kafka-python, aiokafka",
       r"Attempt to join group {G} (?P<reason>rejected since coordinator (?:.* )?is loading the group)\.",
       "Attempt to join group g rejected since coordinator 1 is loading the group.", fixed={"error": "COORDINATOR_LOAD_IN_PROGRESS"}),
    # kafka-python 2.2-2.3's "Failed to join group {G}: {R}" is kafka-go's wording: kafkago.join_failed reads both;
    # its "Received successful heartbeat response for group {G}" and "SyncGroup for group {G} failed due to ..."
    # are the Java 0.10 client's wordings, read by the Java client dialects
    _d("python.member_id_received", "join_failed", OT, "kafka-python 2.2+",
       r"Received member id {M} for group {G}; will retry join-group", "Received member id 0x7f1 for group g; will retry join-group",
       fixed={"error": "MEMBER_ID_REQUIRED"}),
    # (kafka-python's and aiokafka's OffsetCommit handler; the error is its exception class)
    _d("python.commit_group_error", "offset_commit_failed", OT, "kafka-python, aiokafka",
       r"OffsetCommit failed for group {G} due to group error \({R}\), will rejoin",
       "OffsetCommit failed for group g due to group error ([Error 27] RebalanceInProgressError: g), will rejoin"),
    _d("python.commit_for_group_failed", "offset_commit_failed", OT, "kafka-python", r"OffsetCommit for group {G} failed:? {R}",
       "OffsetCommit for group g failed: [Error 25] UnknownMemberIdError"),
    _d("python.commit_failed_for_group", "offset_commit_failed", OT, "kafka-python, aiokafka",
       r"(?:OffsetCommit failed for group|Auto offset commit failed for group) {G}(?::| -|) {R}",
       "Auto offset commit failed for group g: [Error 25] UnknownMemberIdError"),
    _d("aiokafka.commit_before_join", "offset_commit_failed", OT, "aiokafka",
       r"OffsetCommit failed before join, ignoring: {R}",
       "OffsetCommit failed before join, ignoring: CommitFailedError: ('Commit cannot be completed since the group has already rebalanced')"),
    _d("python.auto_commit_failed", "offset_commit_failed", OT, "kafka-python",
       r"(?:Auto offset commit|Offset commit|Pre-rebalance offset commit) failed: {R}", "Auto offset commit failed: UnknownMemberIdError - 25",
       logger=PY_LOGGERS, distinctive=True),
    _d("aiokafka.listener_failed", "other", OT, "aiokafka",
       r"User provided subscription listener .* for group {G} failed (?P<reason>on_partitions_(?:revoked|assigned))",
       "User provided subscription listener <L object at 0x1> for group g failed on_partitions_revoked"),
    _d("python.elected_leader", "other", OT, "kafka-python, aiokafka",
       r"(?P<reason>Elected group leader -- performing partition assignments using (?P<protocol>\S+))",
       "Elected group leader -- performing partition assignments using range"),
    # (DEBUG lines of the coordinator code that pass the group prefilter but carry no group fact)
    _d("python.noise", None, OT, "kafka-python, aiokafka",
       r"(?:(?:Starting new|Stopping) heartbeat thread|Heartbeat thread (?:started|closed|did not).*|Heartbeat (?:disabled\. Waiting|re-enabled\.|success)"
       r"|Heartbeat task unneeded now.*|(?:Enabling|Disabling) heartbeat.*|Heartbeat loop started\.|_heartbeat_loop: closed"
       r"|Starting heartbeat loop|Stopping heartbeat task|Group state is not stable, disabling heartbeats"
       r"|Treating RebalanceInProgressError as successful heartbeat|Heartbeat failure: .*|Waiting \S+ secs to send next heartbeat"
       r"|Sending (?:JoinGroup|HeartbeatRequest|LeaveGroupRequest) .*|Received (?:JoinGroup|SyncGroup) response: .*"
       r"|Received LeaveGroupResponse: .*|Join group response .*|need_rejoin: .*|Fetching committed offsets for partitions: .*"
       r"|No committed offset for partition .*|Received (?:successful heartbeat|group coordinator response.*)"
       r"|Group Coordinator Not Available; retry|Requesting metadata for group coordinator request: .*|coordinator\.poll: .*)",
       "Treating RebalanceInProgressError as successful heartbeat", logger=PY_LOGGERS),
    _d("python.coordinator_request", "other", OT, "kafka-python",
       r"(?P<reason>Sending group coordinator request for group (?P<group_id>[^\s:]+).*)",
       "Sending group coordinator request for group g to broker 1", logger=PY_LOGGERS, distinctive=True),
    # (the Java 0.10 client logs "Group coordinator lookup for group g failed: ..." too)
    _d("python.coordinator_lookup", "other", OT, "kafka-python",
       r"(?P<reason>Group [Cc]oordinator lookup for group (?P<group_id>[^\s:]+).*)",
       "Group coordinator lookup for group g failed: NodeNotReadyError", logger=PY_LOGGERS),
    _d("python.heartbeat_session_expired_group", "other", OT, "kafka-python 1.x",
       r"(?P<reason>Heartbeat session expired - marking coordinator dead for group (?P<group_id>[^\s,:'<]+))",
       "Heartbeat session expired - marking coordinator dead for group g", logger=PY_LOGGERS, distinctive=True),
    # (their other lines naming a group that the Java client does not log: distinctive, read without the
    # logger; the wordings kafka-python shares with the 0.10 Java client stay with the catch-all)
    _d("python.wordings.for_group", "other", OT, "kafka-python, aiokafka",
       r"(?P<reason>(?:Finished assignment|Sending offset-commit request with .*|Sending (?:follower|leader) SyncGroup"
       r"|Successfully auto-committed offsets|Failed to auto-commit offsets|Received heartbeat response"
       r"|User provided (?:subscription )?rebalance listener .*|(?:JoinGroup|SyncGroup)|Rebalance listener \S+"
       r"|Cooperative (?:rebalance complete|pre-rebalance)) for group (?P<group_id>[^\s:']+)(?:[: ].*)?)",
       "Successfully auto-committed offsets for group g", logger=PY_LOGGERS, distinctive=True),
    _d("python.wordings.commit_partition_failed", "other", OT, "kafka-python",
       r"(?P<reason>Group (?P<group_id>\S+) failed to commit partition .*)",
       "Group g failed to commit partition TopicPartition(topic='t', partition=0) at offset 5: CommitFailedError",
       logger=PY_LOGGERS, distinctive=True),
    _d("python.any_group", "other", OT, "kafka-python, aiokafka", r"(?P<reason>.*?\b[Gg]roup '?(?P<group_id>[^\s,:'<]+)'?.*)",
       "Heartbeat session expired - marking coordinator dead for group g", logger=PY_LOGGERS),
    # ------------------------------------------------------------------ librdkafka (debug=cgrp: its facility in the logger column)
    _d("librdkafka.join_state", "other", OT, "librdkafka",
       r"Group \"{G}\" changed join state (?P<reason>\S+ -> \S+)(?: \(state {ST}\))?",
       'Group "g" changed join state init -> wait-join (state up)'),
    # (the same statement with the response's error: rdkafka_cgrp.c logs it before handling the error;
    # the error is rd_kafka_err2str's text, "Broker: Group member needs a valid member ID" ...)
    _d("librdkafka.joingroup_error", "join_failed", OT, "librdkafka",
       r"JoinGroup response: GenerationId -1, Protocol \S*, LeaderId \S*(?: \(me\))?, my MemberId (?P<member_id>\S*), "
       r"(?:member metadata count \d+|\d+ members in group): (?P<reason>(?:Broker|Local): .+)",
       "JoinGroup response: GenerationId -1, Protocol , LeaderId , my MemberId rdkafka-1, member metadata count 0: "
       "Broker: Group member needs a valid member ID"),
    # (REQERR, rd_kafka_err_action(): "<broker>: <ApiKey>Request failed: <rd_kafka_err2str>: [explicit ]actions <a>")
    _d("librdkafka.reqerr_heartbeat", "heartbeat_failed", OT, "librdkafka",
       r"(?:\S+: )?HeartbeatRequest failed: (?P<reason>.+?): (?:explicit )?actions .*",
       "localhost:9093/0: HeartbeatRequest failed: Broker: Group rebalance in progress: explicit actions 0x0"),
    _d("librdkafka.reqerr_join", "join_failed", OT, "librdkafka", r"(?:\S+: )?JoinGroupRequest failed: (?P<reason>.+?): (?:explicit )?actions .*",
       "GroupCoordinator/1: JoinGroupRequest failed: Broker: Group member needs a valid member ID: explicit actions Ignore"),
    _d("librdkafka.reqerr_sync", "sync_failed", OT, "librdkafka", r"(?:\S+: )?SyncGroupRequest failed: (?P<reason>.+?): (?:explicit )?actions .*",
       "GroupCoordinator/1: SyncGroupRequest failed: Broker: Group rebalance in progress: explicit actions Ignore"),
    _d("librdkafka.reqerr_quiet", None, OT, "librdkafka", r"(?:\S+: )?\w+Request failed: .+?: (?:explicit )?actions .*",
       "GroupCoordinator/1: LeaveGroupRequest failed: Broker: Unknown member: explicit actions Ignore"),
    _d("librdkafka.joingroup_response", "joined", OT, "librdkafka",
       r"JoinGroup response: GenerationId {N}, Protocol (?P<protocol>\S+), LeaderId (?P<old_member_id>\S+?)(?: \(me\))?, my MemberId {M}, .*",
       "JoinGroup response: GenerationId 3, Protocol range, LeaderId rdkafka-l1 (me), my MemberId rdkafka-l1, member metadata count 2: (no error)"),
    # (librdkafka wordings distinctive enough to need no facility column: they are read in every
    # layout its log callbacks are written in - .NET / Go / Python handlers, pipes, glog)
    _d("librdkafka.join_topics", "join_sent", OT, "librdkafka",
       r"Group \"{G}\": join with (?P<reason>\d+ (?:\(\d+\) )?subscribed topic\(s\))", 'Group "g": join with 2 subscribed topic(s)'),
    _d("librdkafka.joining", "join_sent", OT, "librdkafka",
       r"(?:\S+: )?Joining group \"{G}\" with \d+ subscribed topic\(s\)(?: and member id \"(?P<member_id>[^\"]*)\")?",
       'kafka-1:9092/1: Joining group "g" with 1 subscribed topic(s) and member id "rdkafka-1"'),
    _d("librdkafka.sync_outdated", None, OT, "librdkafka", r"SyncGroup response: discarding outdated request.*",
       "SyncGroup response: discarding outdated request (now in join-state wait-join)"),
    _d("librdkafka.synced", "synced", OT, "librdkafka", r"SyncGroup response: Success \(\d+ bytes of MemberState data\)",
       "SyncGroup response: Success (38 bytes of MemberState data)"),
    _d("librdkafka.sync_failed", "sync_failed", OT, "librdkafka", r"SyncGroup response: {R}",
       "SyncGroup response: Broker: Group rebalance in progress (0 bytes of MemberState data)"),
    _d("librdkafka.sync_failed_rejoin", "rejoin_requested", OT, "librdkafka",
       r"Group \"{G}\": (?P<reason>synchronization failed: .*: rejoining)", 'Group "g": synchronization failed: Broker: Group rebalance in progress: rejoining'),
    _d("librdkafka.sync_failed.v0_9", "sync_failed", OT, "librdkafka 0.9",
       r"Group \"{G}\": (?P<reason>synchronization failed: .*)", 'Group "g": synchronization failed: Broker: Group rebalance in progress'),
    _d("librdkafka.delegating_revoke", "partitions_revoked", OT, "librdkafka",
       r"Group \"{G}\": delegating revoke of (?P<reason>\d+ partition\(s\)) to application rebalance callback.*",
       'Group "g": delegating revoke of 3 partition(s) to application rebalance callback on queue rd_kafka_cgrp_new: group is rebalancing'),
    _d("librdkafka.delegating_revoke.v2", "partitions_revoked", OT, "librdkafka 1.6+",
       r"Group \"{G}\": delegating revoke of (?P<reason>\d+ partition\(s\) to application on queue .*)",
       'Group "g": delegating revoke of 4 partition(s) to application on queue rd_kafka_cgrp_new: rebalance in progress'),
    _d("librdkafka.lost", "partitions_lost", OT, "librdkafka 1.6+",
       r"Group \"{G}\": current assignment of \d+ partition\(s\) lost: {R}", 'Group "g": current assignment of 4 partition(s) lost: max.poll.interval.ms exceeded'),
    _d("librdkafka.leave", "leave_sent", OT, "librdkafka", r"Group \"{G}\": (?P<reason>leave \(in state \S+\))",
       'Group "g": leave (in state up)'),
    _d("librdkafka.leaving", "leave_sent", OT, "librdkafka", r"(?:\S+: )?(?P<reason>Leaving group)", "kafka-1:9092/1: Leaving group",
       logger=RDKAFKA_FACILITY),
    _d("librdkafka.heartbeat", "heartbeat_sent", OT, "librdkafka",
       r"(?:(?:GroupCoordinator/(?P<coordinator>\d+)|\S+): )?Heartbeat for group \"{G}\" generation id {N}",
       'GroupCoordinator/0: Heartbeat for group "g" generation id 102'),
    _d("librdkafka.heartbeat_error", "heartbeat_failed", OT, "librdkafka",
       r"Group \"{G}\" heartbeat error response in state \S+ \(join[- ]state .*?\): {R}",
       'Group "g" heartbeat error response in state up (join-state steady, 3 partition(s) assigned): Broker: Group rebalance in progress'),
    _d("librdkafka.heartbeat_failed", "heartbeat_failed", OT, "librdkafka",
       r"Heartbeat failed(?: due to coordinator \([^)]*\) no longer available)?: (?P<error>[A-Z_]+): {R}",
       "Heartbeat failed: REBALANCE_IN_PROGRESS: group is rebalancing"),
    _d("librdkafka.heartbeat_coordinator", "heartbeat_failed", OT, "librdkafka",
       r"Heartbeat failed due to coordinator \([^)]*\) no longer available: {R}",
       "Heartbeat failed due to coordinator (none) no longer available: Local: Broker transport failure: re-querying for coordinator"),
    _d("librdkafka.rebalancing", "rejoin_requested", OT, "librdkafka",
       r"Group \"{G}\" (?:is rebalancing|initiating rebalance) (?P<reason>.*)",
       'Group "g" is rebalancing (EAGER) in state up (join-state steady) with 3 assigned partition(s): rebalance in progress'),
    _d("librdkafka.member_id", "other", OT, "librdkafka",
       r"Group \"{G}\": updating member id \"(?P<old_member_id>[^\"]*)\" -> \"{M}\"", 'Group "g": updating member id "" -> "rdkafka-1"'),
    _d("librdkafka.session_timeout", "rejoin_requested", OT, "librdkafka",
       r"(?P<reason>Consumer group session timed out \(in join-state \S+\) after \d+ ms without a successful response from the group coordinator .*): revoking assignment and rejoining group",
       "Consumer group session timed out (in join-state steady) after 45012 ms without a successful response from the group coordinator "
       "(broker 1, last error was Success): revoking assignment and rejoining group"),
    _d("librdkafka.max_poll", "poll_timeout", OT, "librdkafka",
       r"(?P<reason>Application maximum poll interval \(\d+ms\) exceeded by \d+ms.*)",
       "Application maximum poll interval (300000ms) exceeded by 89ms (adjust max.poll.interval.ms for long-running message processing): leaving group"),
    # the consumer protocol (KIP-848, group.protocol=consumer): the member's epoch after each heartbeat
    _d("librdkafka.cgh_response", "member_state_changed", OT, "librdkafka 2.10+",
       r"ConsumerGroupHeartbeat response received for member id \"{M}\" with epoch (?P<member_epoch>-?\d+)",
       'ConsumerGroupHeartbeat response received for member id "m1" with epoch 5', fixed={"protocol_type": "consumer"}),
    _d("librdkafka.cgh_reconciliation", "member_state_changed", OT, "librdkafka 2.5+",
       r"(?P<reason>Reconciliation starts with new target assignment \"[^\"]*\".*)",
       'Reconciliation starts with new target assignment "t(id)[0], t(id)[1]". Next assignment cleared',
       fixed={"protocol_type": "consumer", "from_state": "STABLE", "state": "RECONCILING"}),
    _d("librdkafka.cgh_acked", "member_state_changed", OT, "librdkafka 2.5+",
       r"(?P<reason>Target assignment acked, new current assignment +\"[^\"]*\")",
       'Target assignment acked, new current assignment  "t(id)[0], t(id)[1]"',
       fixed={"protocol_type": "consumer", "from_state": "ACKNOWLEDGING", "state": "STABLE"}),
    # the heartbeat request: member epoch 0 joins, -1 leaves, -2 is a static member leaving for a restart
    _d("librdkafka.cgh_join", "member_state_changed", OT, "librdkafka 2.5+",
       r"(?:\S+: )?(?P<reason>ConsumerGroupHeartbeat of member id \"{M}\", group id \"{G}\", generation id 0, .*)",
       'GroupCoordinator/1: ConsumerGroupHeartbeat of member id "m1", group id "g", generation id 0, group instance id "(null)", '
       'current assignment "", subscribed topics "t((null))[-1]"',
       fixed={"protocol_type": "consumer", "from_state": "UNSUBSCRIBED", "state": "JOINING", "member_epoch": 0}),
    _d("librdkafka.cgh_leave", "member_state_changed", OT, "librdkafka 2.5+",
       r"(?:\S+: )?(?P<reason>ConsumerGroupHeartbeat of member id \"{M}\", group id \"{G}\", generation id (?P<member_epoch>-1|-2), .*)",
       'GroupCoordinator/1: ConsumerGroupHeartbeat of member id "m1", group id "g", generation id -1, group instance id "(null)", '
       'current assignment "NULL", subscribed topics "NULL"',
       fixed={"protocol_type": "consumer", "from_state": "STABLE", "state": "LEAVING"}),
    _d("librdkafka.cgh_failed", "heartbeat_failed", OT, "librdkafka 2.5+",
       r"ConsumerGroupHeartbeat failed(?: due to)?: {R}", "ConsumerGroupHeartbeat failed due to: Broker: Unknown member: will rejoin the group"),
    _d("librdkafka.clearing_assignment", "other", OT, "librdkafka",
       r"(?P<reason>Clearing current assignment of \d+ partition\(s\))", "Clearing current assignment of 3 partition(s)"),
    _d("librdkafka.join_metadata", "other", OT, "librdkafka",
       r"(?P<reason>consumer join: metadata for subscription (?:is up to date|only available for \d+/\d+ topics) \(-?\d+ms old\))",
       "consumer join: metadata for subscription is up to date (0ms old)", logger=RDKAFKA_FACILITY),
    # (debug lines of the group code that pass the group prefilter but carry no group fact)
    _d("librdkafka.noise", None, OT, "librdkafka",
       r"(?:Assignment dump \(.*|Current assignment of \d+ partition.*|Added \d+ partition\(s\) to assignment.*|No current assignment to clear"
       r"|Fetching committed offsets for \d+ pending partition.*|All partitions awaiting stop are now stopped: serving assignment"
       r"|Removing .* from assignment .*|(?:Pausing|Resuming) fetchers for \d+ assigned partition.*|(?:Starting|Querying committed offset for) pending assigned partition.*"
       r"|\s*Member \".*\"(?: \(me\))? (?:with \d+ owned|assigned \d+) partition.*|\w[\w-]*: Topic .* with \d+ partition\(s\) and \d+ subscribing member.*"
       r"|(?:LeaveGroup|ConsumerGroupHeartbeat|ShareGroupHeartbeat) response (?:received in state|error in state) .*|LeaveGroup response: .*"
       r"|Consumer group sub-system terminated.*|(?:SyncGroup|JoinGroup|Heartbeat) response: discarding outdated request.*"
       r"|KIP-848 Consumer Group Protocol is in (?:Early Access|'Preview').*|Not reconciling new assignment: .*|Reconciliation in progress, postponing next one"
       r"|(?:Acknowledging|ConsumerGroupHeartbeat (?:response )?received) target assignment .*"
       r"|Sending new subscription .*|Metadata (?:available for|not found for the assigned) .*|No metadata to request, continuing"
       r"|Expediting next heartbeat.*|Revoking assignment as lost an rejoining .*|\S+: ConsumerGroupHeartbeat of member id .*)",
       "Assignment dump (started_cnt=0, wait_stop_cnt=0)", logger=RDKAFKA_FACILITY),
    # its committed-offset handling around an assignment (OFFSET, REMOVEASSIGN; rdkafka_request.c,
    # rdkafka_partition.c, rdkafka_assignment.c 1.9 - 2.x): no group fact
    _d("librdkafka.offsets_quiet", None, OT, "librdkafka 1.9+",
       r"(?:\S+: )?(?:Fetch committed offsets (?:for \d+/\d+ partition\(s\)|all the partitions)"
       r"|Group \S+ OffsetFetchRequest\(v\d+\) for (?:\d+/\d+ partition\(s\)|all partitions)"
       r"|Topic \S+ \[\d+\]: .*not including in commit"
       r"|Removed \d+ partition\(s\) \(\d+ with outstanding offset queries\) from assignment of \d+ partition\(s\))",
       "GroupCoordinator/1: Fetch committed offsets for 4/4 partition(s)", logger=RDKAFKA_FACILITY),
    _d("librdkafka.any_group", "other", OT, "librdkafka", r"(?P<reason>.*?\b[Gg]roup \"(?P<group_id>[^\"]+)\".*)",
       'Group "g": new assignment of 2 partition(s) in join-state wait-assign-call'),
    _d("librdkafka.any_cgrp", "other", OT, "librdkafka", r"(?P<reason>.*\b(?:[Gg]eneration(?:Id| id)?|MemberId|member id)\b.*)",
       "Heartbeat for generation 3 member id rdkafka-l1", logger=RDKAFKA_FACILITY),
    # ------------------------------------------------------------------ Go, JS, Ruby, Erlang and faust clients read from the catalogue
    *CLIENT_DIALECTS,
    # ------------------------------------------------------------------ kafkajs (its JSON lines: groupId, memberId, generationId keys)
    # (logged once SyncGroup answered: the member has its assignment; catalogue consumerGroup.s53, runner.s28)
    _d("kafkajs.joined", "synced", OT, "kafkajs", r"(?:\[ConsumerGroup\] )?Consumer has joined the group{KEYS}",
       "[ConsumerGroup] Consumer has joined the group"),
    _d("kafkajs.rebalancing", "rejoin_requested", OT, "kafkajs", r"\[(?:Runner|ConsumerGroup)\] The group is rebalancing, re-joining{KEYS}",
       "[Runner] The group is rebalancing, re-joining", fixed={"reason": "The group is rebalancing, so a rejoin is needed"}),
    _d("kafkajs.heartbeat_request", "heartbeat_sent", OT, "kafkajs", r"\[Connection\] Request Heartbeat\(key: 12, version: \d+\)",
       "[Connection] Request Heartbeat(key: 12, version: 3)"),
    _d("kafkajs.joingroup_request", "join_sent", OT, "kafkajs", r"\[Connection\] Request JoinGroup\(key: 11, version: \d+\)",
       "[Connection] Request JoinGroup(key: 11, version: 4)"),
    # (a response line whose JSON has an "error" key: the reader appends " error: <its text>")
    _d("kafkajs.heartbeat_response_error", "heartbeat_failed", OT, "kafkajs",
       r"\[Connection\] Response Heartbeat\(key: 12, version: \d+\)" + _KJ_ERR,
       "[Connection] Response Heartbeat(key: 12, version: 3) error: The group is rebalancing, so a rejoin is needed"),
    _d("kafkajs.joingroup_response_error", "join_failed", OT, "kafkajs",
       r"\[Connection\] Response JoinGroup\(key: 11, version: \d+\)" + _KJ_ERR,
       "[Connection] Response JoinGroup(key: 11, version: 4) error: The group member needs to have a valid member id before actually entering a consumer group"),
    # (DEBUG: the decoded response as its "data" key: generationId, groupProtocol, leaderId, memberId, members)
    _d("kafkajs.joingroup_response", "joined", OT, "kafkajs", r"\[Connection\] Response JoinGroup\(key: 11, version: \d+\){KEYS}",
       "[Connection] Response JoinGroup(key: 11, version: 5)"),
    _d("kafkajs.syncgroup_response_error", "sync_failed", OT, "kafkajs",
       r"\[Connection\] Response SyncGroup\(key: 14, version: \d+\)" + _KJ_ERR,
       "[Connection] Response SyncGroup(key: 14, version: 3) error: The group is rebalancing, so a rejoin is needed"),
    _d("kafkajs.leavegroup_request", "leave_sent", OT, "kafkajs", r"\[Connection\] Request LeaveGroup\(key: 13, version: \d+\){KEYS}",
       "[Connection] Request LeaveGroup(key: 13, version: 3)"),
    _d("kafkajs.leavegroup_response_error", "other", OT, "kafkajs",
       r"\[Connection\] Response LeaveGroup\(key: 13, version: \d+\)" + _KJ_ERR,
       "[Connection] Response LeaveGroup(key: 13, version: 3) error: The coordinator is not aware of this member"),
    # (the coordinator lookup, GroupCoordinator (key 10) in every release: its request, its answer, its failure;
    # the lines name no group: the file's)
    # (GROUP_COORDINATOR_NOT_AVAILABLE's text, src/protocol/error.js: the error of an "other" event is its dialect's)
    _d("kafkajs.coordinator_response_unavailable", "other", OT, "kafkajs",
       r"\[Connection\] Response GroupCoordinator\(key: 10, version: \d+\)(?: error: |\s*\{.*\"error\":\s*\")(?P<reason>The group coordinator is not available)(?:\".*)?",
       "[Connection] Response GroupCoordinator(key: 10, version: 1) error: The group coordinator is not available",
       fixed={"error": "COORDINATOR_NOT_AVAILABLE"}),
    _d("kafkajs.coordinator_response_error", "other", OT, "kafkajs",
       r"\[Connection\] Response GroupCoordinator\(key: 10, version: \d+\)" + _KJ_ERR,
       "[Connection] Response GroupCoordinator(key: 10, version: 1) error: The group coordinator is not available"),
    _d("kafkajs.offsetcommit_response_error", "offset_commit_failed", OT, "kafkajs",
       r"\[Connection\] Response OffsetCommit\(key: 8, version: \d+\)" + _KJ_ERR,
       "[Connection] Response OffsetCommit(key: 8, version: 5) error: Specified group generation id is not valid"),
    _d("kafkajs.coordinator_request", "other", OT, "kafkajs",
       r"\[Connection\] (?P<reason>Request GroupCoordinator\(key: 10, version: \d+\)){KEYS}",
       "[Connection] Request GroupCoordinator(key: 10, version: 2)"),
    _d("kafkajs.coordinator_response", "coordinator_discovered", OT, "kafkajs",
       r"\[Connection\] Response GroupCoordinator\(key: 10, version: \d+\){KEYS}",
       "[Connection] Response GroupCoordinator(key: 10, version: 2)"),
    # (the other group requests and responses - after the error ones above: the lines around them carry the facts)
    _d("kafkajs.group_protocol_quiet", None, OT, "kafkajs",
       r"\[Connection\] (?:Request SyncGroup\(key: 14, version: \d+\)"
       r"|Response (?:SyncGroup|Heartbeat|LeaveGroup)\(key: 1[2-4], version: \d+\)){KEYS}",
       "[Connection] Request SyncGroup(key: 14, version: 3)"),
    _d("kafkajs.coordinator", "coordinator_discovered", OT, "kafkajs", r"\[Cluster\] Found group coordinator{KEYS}",
       "[Cluster] Found group coordinator"),
    _d("kafkajs.leaving", "leave_sent", OT, "kafkajs", r"\[ConsumerGroup\] (?P<reason>Consumer (?:has left the group|leaving group).*)",
       "[ConsumerGroup] Consumer has left the group"),
    # ------------------------------------------------------------------ franz-go (kgo; JSON with a "group" key; its text lines: dialects_clients)
    _d("franzgo.assigning", "partitions_assigned", OT, "franz-go", r"assigning partitions", "assigning partitions"),
    # ------------------------------------------------------------------ kafka-python (more wordings)
    _d("python.heartbeat_session_expired", "heartbeat_failed", OT, "kafka-python, aiokafka",
       r"(?P<reason>Heartbeat session expired)(?:,| -) marking coordinator dead", "Heartbeat session expired, marking coordinator dead",
       logger=PY_LOGGERS, distinctive=True),
    _d("python.heartbeat_unknown_member", "heartbeat_failed", OT, "kafka-python, aiokafka",
       r"(?P<reason>Heartbeat(?: failed)?: local member_id was not recognized; .*)",
       "Heartbeat: local member_id was not recognized; this consumer needs to re-join",
       fixed={"error": "UNKNOWN_MEMBER_ID"}),
    _d("python.skipping_heartbeat", "other", OT, "kafka-python",
       r"(?P<reason>Skipping heartbeat: no auto-assignment or waiting on rebalance)(?:, [\w-]+)?",
       "Skipping heartbeat: no auto-assignment or waiting on rebalance"),
    # (kafka-python 2.0 names the coordinator node 'coordinator-<id>', quoted)
    _d("python.coordinator_for_group", "coordinator_discovered", OT, "kafka-python",
       r"Group coordinator for {G} is BrokerMetadata\(nodeId='?(?:coordinator-)?(?P<coordinator>\d+)'?, host='(?P<host>[^']*)'.*",
       "Group coordinator for g is BrokerMetadata(nodeId=0, host='kafka-1', port=9092, rack=None)"),
    # the subscription state's lines (kafka/consumer/subscription_state.py): the coordinator's "Setting newly
    # assigned partitions ... for group g" beside them carries the group fact
    # (faust's layout names no logger, and prints the topics as a table on the next lines)
    _d("python.subscription_state", None, OT, "kafka-python, aiokafka",
       r"(?:Updated partition assignment|Updating subscribed topics to|Subscribed to topic\(s\)): ?.*",
       "Updated partition assignment: [TopicPartition(topic='t', partition=0)]"),
    # DEBUG lines of their protocol parser, cluster metadata, fetcher and metrics that name a group or a
    # group request (kafka/protocol/parser.py, kafka/cluster.py, aiokafka/cluster.py, the fetchers): no group fact
    _d("python.client_debug_quiet", None, OT, "kafka-python, aiokafka",
       r"(?:(?:node=\S+ )?(?:Sending request|Processing response|Received response)(?: \d+)? (?:Heartbeat|JoinGroup|SyncGroup|LeaveGroup|OffsetCommit|OffsetFetch"
       r"|GroupCoordinator|FindCoordinator)(?:Request|Response)(?:_v\d+|\(version=\d+, ).*|(?:Updated cluster metadata to|Received cluster metadata:) ClusterMetadata\(.*"
       r"|Updating coordinator for \S+: (?:GroupCoordinator|FindCoordinator)Response_v\d+\(.*|No committed offset found for TopicPartition\(.*"
       r"|Added sensor with name heartbeat-latency)",
       "Processing response HeartbeatResponse_v1", logger=r"^(?:kafka|aiokafka)\.[\w.]+$"),
    # the connection's DEBUG request and response lines (kafka/conn.py, kafka/net/connection.py, aiokafka/conn.py:
    # '%s Request %d: %s', '%s Response %d (%s ms): %s' with the protocol struct's repr): a heartbeat request
    # names the group, the generation and the member, a JoinGroup response the member's generation and id; the
    # rest carry no fact of their own (a LeaveGroup request follows the coordinator's own leave line)
    _d("python.conn_heartbeat_request", "heartbeat_sent", OT, "kafka-python, aiokafka",
       _PY_CONN + r"HeartbeatRequest" + _PY_STRUCT + r"group(?:_id)?='(?P<group_id>[^']+)', generation_id={N}, member_id='(?P<member_id>[^']+)'.*\)",
       "<BrokerConnection node_id=coordinator-1 host=h:9092 <connected> [IPv4 ('h', 9092)]> Request 4: "
       "HeartbeatRequest_v1(group='g', generation_id=3, member_id='m1')", logger=_PY_CONN_LOGGERS),
    _d("python.conn_joingroup_response", "joined", OT, "kafka-python, aiokafka",
       _PY_CONN + r"JoinGroupResponse" + _PY_STRUCT + r"(?:throttle_time_ms=\d+, )?error_code=0, generation_id={N}, "
       r"(?:group_protocol|protocol_name)='(?P<protocol>[^']*)', leader(?:_id)?='[^']*', member_id='(?P<member_id>[^']+)'.*\)",
       "<AIOKafkaConnection host=h port=9092> Response 3: JoinGroupResponse_v2(throttle_time_ms=0, error_code=0, generation_id=3, "
       "group_protocol='range', leader_id='m1', member_id='m1', members=[])", logger=_PY_CONN_LOGGERS),
    _d("python.conn_group_protocol", None, OT, "kafka-python, aiokafka",
       _PY_CONN + r"(?:Heartbeat|JoinGroup|SyncGroup|LeaveGroup|OffsetCommit|OffsetFetch|GroupCoordinator|FindCoordinator)"
       r"(?:Request|Response)" + _PY_STRUCT + r".*",
       "<AIOKafkaConnection host=h port=9092> Response 4: HeartbeatResponse_v1(throttle_time_ms=0, error_code=0)",
       logger=_PY_CONN_LOGGERS),
    # ------------------------------------------------------------------ sarama (Go)
    # (also sarama 2015's "Coordinator for consumergoup g is #1 (h:9092).": capitalised, typo, final '.')
    _d("sarama.coordinator", "coordinator_discovered", OT, "sarama",
       r"client/coordinator [Cc]oordinator for (?:consumerg(?:r)?oup )?{G} is #(?P<coordinator>\d+) \((?P<host>[^)]+)\)\.?",
       "client/coordinator coordinator for consumergroup g is #1 (kafka-1:9092)"),
    _d("sarama.requesting_coordinator", "other", OT, "sarama",
       r"(?P<reason>client/coordinator [Rr]equesting coordinator for (?:consumerg(?:r)?oup )?(?P<group_id>\S+) from .*)",
       "client/coordinator requesting coordinator for consumergroup g from kafka-1:9092"),
    # (its Consumer.handleError without Return.Errors: "<ctx> error: <err>", ctx heartbeat, topics, commit or rebalance)
    _d("sarama_cluster.rebalance_error", "join_failed", OT, "sarama-cluster 2.0+", r"(?P<reason>rebalance error: .+)", "rebalance error: EOF"),
    # its Notification as an application prints it with %+v (the README's `log.Printf("Rebalanced: %+v\n", ntf)`;
    # balancer.go: NotificationType.String()): "rebalance start" is issued after the consumer released its
    # partitions and before it joins, "rebalance OK" with the claims of the new generation
    _d("scluster_ntf.start", "partitions_revoked", OT, "sarama-cluster (printed Notification)",
       r"(?:.*?: )?&\{Type:(?P<reason>rebalance start) Claimed:map\[.*\] Released:map\[.*\] Current:map\[.*\]\}",
       "Rebalanced: &{Type:rebalance start Claimed:map[] Released:map[] Current:map[t:[0 1]]}"),
    _d("scluster_ntf.ok", "partitions_assigned", OT, "sarama-cluster (printed Notification)",
       r"(?:.*?: )?&\{Type:(?P<reason>rebalance OK) Claimed:map\[.*\] Released:map\[.*\] Current:map\[.*\]\}",
       "Rebalanced: &{Type:rebalance OK Claimed:map[t:[0 1]] Released:map[] Current:map[t:[0 1]]}"),
    _d("scluster_ntf.error", "other", OT, "sarama-cluster (printed Notification)",
       r"(?:.*?: )?&\{Type:(?P<reason>rebalance error) Claimed:map\[.*\] Released:map\[.*\] Current:map\[.*\]\}",
       "Rebalanced: &{Type:rebalance error Claimed:map[] Released:map[] Current:map[]}"),
    _d("sarama_cluster.rebalance", "other", OT, "sarama-cluster",
       r"(?P<reason>cluster/consumer\s+rebalance|rebalance, metadata (?:done|coordinator for consumer group refreshed))",
       "cluster/consumer  rebalance"),
    _d("sarama.consumer_broker", None, OT, "sarama", r"consumer/broker/\d+ .*", "consumer/broker/1 abandoned subscription to t/0 because consuming was taking too long"),
    _d("sarama.any_group", "other", OT, "sarama", r"(?P<reason>.*?\b(?:consumergroup|group) (?P<group_id>[^\s,:]+).*)",
       "consumergroup g rebalance", logger=r"^sarama$"),
    # ------------------------------------------------------------------ ruby-kafka (its tagged logger: "[[group] {assignment}:] ")
    _d("rubykafka.heartbeat_error", "heartbeat_failed", OT, "ruby-kafka",
       r"(?:\[\[(?P<group_id>[^\]]+)\] \{[^}]*\}:\] )?Error sending heartbeat: {R}",
       "[[g] {}:] Error sending heartbeat: Kafka::UnknownMemberId"),
    _d("rubykafka.joining", "join_sent", OT, "ruby-kafka", r"(?:\[\[[^\]]+\] \{[^}]*\}:\] )?Joining group `{G}`",
       "[[g] {}:] Joining group `g`"),
    _d("rubykafka.join_failed", "join_failed", OT, "ruby-kafka",
       r"(?:\[\[(?P<group_id>[^\]]+)\] \{[^}]*\}:\] )?(?P<reason>Failed to join group; resetting member id and retrying.*)",
       "Failed to join group; resetting member id and retrying in 1s..."),
    _d("rubykafka.joined", "joined", OT, "ruby-kafka", r"(?:\[\[[^\]]+\] \{[^}]*\}:\] )?Joined group `{G}` with member id `{M}`",
       "Joined group `g` with member id `ruby-kafka-1`"),
    _d("rubykafka.leader", "other", OT, "ruby-kafka", r"(?:\[\[[^\]]+\] \{[^}]*\}:\] )?(?P<reason>Chosen as leader of group `(?P<group_id>[^`]+)`)",
       "Chosen as leader of group `g`"),
    # ------------------------------------------------------------------ confluent-kafka-go (its rebalance events' String(), wherever an app prints them)
    _d("ckgo.revoked_event", "partitions_revoked", OT, "confluent-kafka-go",
       r"(?P<reason>.*\bRevokedPartitions: \[.*)", "revoking partitions RevokedPartitions: [t[9]@unset t[10]@unset]"),
    _d("ckgo.assigned_event", "partitions_assigned", OT, "confluent-kafka-go",
       r"(?P<reason>.*\bAssignedPartitions: \[.*)", "assigned AssignedPartitions: [t[9]@unset t[10]@unset]"),
    # ------------------------------------------------------------------ kafka-node (npm debug lines: "... +4ms" at the end)
    _d("kafkanode.sync_request", "other", OT, "kafka-node", r"(?P<reason>SyncGroup Request) from {M}(?: \+\d+m?s)?",
       "SyncGroup Request from kafka-node-client-1 +0ms", logger=r"^kafka-node:"),
    _d("kafkanode.sync_response", "synced", OT, "kafka-node", r"SyncGroup Response(?: \+\d+m?s)?", "SyncGroup Response +4ms",
       logger=r"^kafka-node:"),
    _d("kafkanode.owns", "partitions_assigned", OT, "kafka-node", r"\S+ (?P<reason>owns topics:\s+\{.*\})(?: \+\d+m?s)?",
       "kafka-node-client owns topics:  { wym: [ 0 ] } +0ms", logger=r"^kafka-node:"),
    _d("kafkanode.generation", "other", OT, "kafka-node", r"generationId {N}(?: \+\d+m?s)?", "generationId 10359 +0ms",
       logger=r"^kafka-node:"),
    # (logger.warn('%s Heartbeat error:', clientId, err): a structured logger keeps the error out of the message)
    _d("kafkanode.heartbeat_error", "heartbeat_failed", OT, "kafka-node", r"\S+ Heartbeat error:(?: \{? ?{R})?",
       "kafka-node-client Heartbeat error: { RebalanceInProgress: Kafka Error Code: 27", logger=r"^kafka-node:"),
)  # fmt: skip
