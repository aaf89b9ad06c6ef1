"""Dialects of the non-Java clients read from the message catalogue (``jobs/ingest/catalogue/data``):
sarama and sarama-cluster, segmentio/kafka-go, franz-go, kafkajs, ruby-kafka, brod, faust and arroyo. Each
entry is checked against the catalogue (``tests/ingest/test_catalogue.py`` renders every statement;
``tests/ingest/test_catalogue_nonjava.py`` checks that every dialect here is the reading of a catalogued
statement). Part of :data:`jobs.ingest.dialects_nonjava.NON_JAVA`, before the older entries of the
same clients there."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

#: ruby-kafka's tagged logger inside the consumer loop: ``[[group] {topic: 0, 1}:] `` (the group)
_RTAG = r"(?:\[\[(?P<group_id>[^\]]+)\] \{[^}]*\}:\] )?"
_RTAGX = r"(?:\[\[[^\]]+\] \{[^}]*\}:\] )?"
#: brod's group member prefix (3.3+ and before): a record header, then the message after OTP logger's
#: single-line ``\n`` -> ``, ``, or on the next line (a multi-line formatter; joined with a space)
_BROD = r"Group member \((?P<group_id>[^,]+),coor=(?:#PID)?<[\d.]+>,cb=(?:#PID)?<[\d.]+>,generation=(?P<generation>-?\d+)\):,? "
#: kafka-go's member id: the coordinator's ``<client id>-<uuid>``, and kafka-go's default client id is
#: ``<program>@<host> (github.com/segmentio/kafka-go)`` (conn.go ``DefaultClientID``), with a space
_KGO_M = r"(?P<member_id>\S+? \(github\.com/segmentio/kafka-go\)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\S+?)"
#: mode's service label in front of faust's messages (``[^--Consumer]: ``)
_FAUST = r"(?:\[\^-*[\w.]+\]: )?"
_BROD_OLD = (r"group (?:coordinator|controller) \(groupId=(?P<group_id>[^,]+),memberId=(?P<member_id>[^,]*),"
             r"generation=(?P<generation>-?\d+),pid=(?:#PID)?<[\d.]+>\):,? ")


def _brod(id_: str, kind: str | None, body: str, example: str, new: bool = True, old: bool = True, **kw) -> tuple[Dialect, ...]:
    """A brod coordinator wording behind its 3.3+ prefix (``new``) and its older one (``old``)."""
    return (
        *([_d(f"brod.{id_}", kind, OT, "brod 3.3+", _BROD + body,
              "Group member (g,coor=<0.1.0>,cb=<0.2.0>,generation=3):, " + example, **kw)] if new else []),
        *([_d(f"brod.{id_}.v2", kind, OT, "brod 2.1-3.2", _BROD_OLD + body,
              "group coordinator (groupId=g,memberId=m,generation=3,pid=<0.1.0>):, " + example, **kw)] if old else []),
    )


CLIENT_DIALECTS: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ sarama (Go log: "[sarama] 2024/05/01 10:00:00 ...")
    _d("sarama.lost_ownership", "partitions_lost", OT, "sarama 1.60+",
       r"consumergroup/(?P<group_id>[^\s:]+): lost ownership of (?P<reason>.*)", "consumergroup/g: lost ownership of map[t:[0]] due to x"),
    _d("sarama.partition_count_changed", "rejoin_requested", OT, "sarama 1.41+",
       r"consumergroup/{G} (?P<reason>loop check partition number goroutine find partitions in topics .* changed from \d+ to \d+)",
       "consumergroup/g loop check partition number goroutine find partitions in topics [t] changed from 3 to 6"),
    _d("sarama.session_released", "partitions_revoked", OT, "sarama 1.31+", r"consumergroup/session/(?P<member_id>[^/\s]*)/{N} released",
       "consumergroup/session/m-1/3 released"),
    _d("sarama.heartbeat_stopped", "other", OT, "sarama 1.31+",
       r"consumergroup/session/(?P<member_id>[^/\s]*)/{N} (?P<reason>heartbeat loop stopped)", "consumergroup/session/m-1/3 heartbeat loop stopped"),
    _d("sarama.coordinator_unavailable", "coordinator_lost", OT, "sarama 1.37+",
       r"client/coordinator (?P<reason>coordinator for {G} is not available)", "client/coordinator coordinator for g is not available"),
    # its partition consumers (consumer.go, every release): in a consumer group, a session's claims are consumed
    # by partition consumers started after SyncGroup and Setup (each claim "added subscription"), and stopped when
    # the session ends (each "closed dead subscription", before Cleanup): the member's new assignment and its
    # revocation; the group is the file's context (its coordinator lookups), a file without one (a plain
    # partition consumer) stays unattributed. An abandoned subscription is re-added on another broker: no fact.
    _d("sarama.subscription_added", "partitions_assigned", OT, "sarama",
       r"consumer/broker/\d+ added subscription to (?P<partitions_raw>\S+/\d+)", "consumer/broker/1 added subscription to t/0"),
    _d("sarama.subscription_closed", "partitions_revoked", OT, "sarama",
       r"consumer/broker/\d+ closed dead subscription to (?P<partitions_raw>\S+/\d+)", "consumer/broker/1 closed dead subscription to t/0"),
    # (consumerGroup.Close() sends LeaveGroup, then closes its client: "Closing Client" is the file's member leaving;
    # in a file that names no group it stays unattributed; two words other software says too: only under
    # the "[Sarama] " prefix of sarama's Logger, any case)
    _d("sarama.closing_client", "leave_sent", OT, "sarama", r"(?P<reason>Closing Client)", "Closing Client",
       logger=r"^[Ss][Aa][Rr][Aa][Mm][Aa]$"),
    # (sarama's own wordings: read whatever logger, or none, the application gives sarama.Logger)
    _d("sarama.coordinator_unavailable.v1_36", "other", OT, "sarama 1.24-1.36",
       r"(?P<reason>client/coordinator coordinator for consumer group {G} is not available)",
       "client/coordinator coordinator for consumer group g is not available"),
    _d("sarama.not_authorized", "other", OT, "sarama 1.24+",
       r"(?P<reason>client was not authorized to access group {G} while attempting to find coordinator)",
       "client was not authorized to access group g while attempting to find coordinator"),
    _d("sarama.group_noise", None, OT, "sarama 1.24+",
       r"(?:consumergroup/\S+ (?:loop check partition number|topic \S+ get partition number failed)|consumergroup/\S+: falling back to static user data"
       r"|consumer-group/claim |Consumer Group (?:refresh metadata|topic \S+ get partition number) failed|loop check partition number coroutine).*",
       "consumer-group/claim t/0 retrying after 250ms... (3 attempts remaining): x"),
    _d("sarama_cluster.rebalance_member", "join_sent", OT, "sarama-cluster 2.0", r"cluster/consumer (?P<member_id>\S+) rebalance",
       "cluster/consumer m-1 rebalance"),
    _d("sarama_cluster.joined", "joined", OT, "sarama-cluster 2.0", r"cluster/consumer {M}/{N} joined group {G}",
       "cluster/consumer m-1/3 joined group g"),
    # ------------------------------------------------------------------ segmentio/kafka-go (Go log, its Logger / ErrorLogger)
    _d("kafkago.coordinator", "coordinator_discovered", OT, "kafka-go 0.2", r"coordinator for group, {G}, set to (?P<host>\S+)",
       "coordinator for group, g, set to kafka-1:9092"),
    _d("kafkago.rebalancing", "join_sent", OT, "kafka-go 0.2", r"rebalancing consumer group, {G}", "rebalancing consumer group, g"),
    _d("kafkago.membership_changed", "joined", OT, "kafka-go 0.2",
       r"response membership changed\.\s+generationID: -?\d+ => {N}, memberID: '[^']*' => '(?P<member_id>[^']*)'",
       "response membership changed.  generationID: 2 => 3, memberID: '' => 'm-1'"),
    _d("kafkago.syncing_as_leader", "leader_assigned", OT, "kafka-go 0.2+", r"Syncing \d+ assignments for generation {N} as member " + _KGO_M,
       "Syncing 2 assignments for generation 3 as member m-1"),
    _d("kafkago.partition_changes", "rejoin_requested", OT, "kafka-go 0.2+",
       r"(?P<reason>Partition changes found), reb?a?lancing group: (?P<group_id>\S+?)\.", "Partition changes found, rebalancing group: g."),
    _d("kafkago.join_succeeded", "joined", OT, "kafka-go 0.2+",
       r"joinGroup succeeded for response, {G}\.\s+generationID={N}, memberID=" + _KGO_M, "joinGroup succeeded for response, g.  generationID=3, memberID=m-1"),
    _d("kafkago.joined", "joined", OT, "kafka-go 0.3+", r"[Jj]oined group {G} as member " + _KGO_M + r" in generation {N}",
       "Joined group g as member m-1 in generation 3"),
    _d("kafkago.empty_assignments", "synced", OT, "kafka-go 0.2+",
       r"received empty assignments for group, {G} as member " + _KGO_M + r" for generation {N}", "received empty assignments for group, g as member m-1 for generation 3"),
    _d("kafkago.sync_finished", "synced", OT, "kafka-go 0.2+", r"sync group finished for group, {G}", "sync group finished for group, g"),
    _d("kafkago.coordinator_lost", "coordinator_lost", OT, "kafka-go 0.3+",
       r"Unable to establish connection to consumer group coordinator for group {G}: {R}",
       "Unable to establish connection to consumer group coordinator for group g: dial tcp: i/o timeout"),
    _d("kafkago.join_failed", "join_failed", OT, "kafka-go 0.3+, kafka-python 2.2-2.3", r"Failed to join group {G}: {R}",
       "Failed to join group g: [27] Rebalance In Progress: the coordinator has begun rebalancing the group, the client should rejoin"),
    _d("kafkago.sync_failed", "sync_failed", OT, "kafka-go 0.3+", r"Failed to sync group {G}: {R}",
       "Failed to sync group g: [27] Rebalance In Progress: the coordinator has begun rebalancing the group, the client should rejoin"),
    _d("kafkago.leaving", "leave_sent", OT, "kafka-go 0.3+", r"Leaving group (?P<group_id>[^\s,]+), member " + _KGO_M, "Leaving group g, member m-1"),
    _d("kafkago.group_other", "other", OT, "kafka-go 0.2+",
       r"(?P<reason>(?:selected as leader for group|entering loop for consumer group"
       r"|started heartbeat for group|stopped heartbeat for group)),? {G}(?: \[.*\])?",
       "started heartbeat for group, g [3s]"),
    _d("kafkago.balancer", "other", OT, "kafka-go 0.2+", r"using '(?P<protocol>[^']*)' balancer to assign group, {G}",
       "using 'range' balancer to assign group, g"),
    _d("kafkago.leave_failed", "other", OT, "kafka-go 0.3+", r"(?P<reason>leave group failed) for group, {G}, and member, " + _KGO_M + r": .*",
       "leave group failed for group, g, and member, m-1: x"),
    _d("kafkago.rebalance_failed", "other", OT, "kafka-go 0.2",
       r"rebalance failed for consumer group, (?P<group_id>[^\s:]+): {R}",
       "rebalance failed for consumer group, g: syncGroup failed: [27] Rebalance In Progress: the coordinator has begun rebalancing the group, "
       "the client should rejoin the group"),
    # (its partition watcher returns on the error, which ends the Generation: the group joins its next one)
    _d("kafkago.watcher_failed", "rejoin_requested", OT, "kafka-go 0.3+", r"(?P<reason>Problem getting partitions during startup), .*",
       "Problem getting partitions during startup, [3] Unknown Topic Or Partition"),
    _d("kafkago.noise", None, OT, "kafka-go 0.2+",
       r"(?:committed offsets: |Failed to fetch offsets for group |(?:started|stopped) partition watcher for group|(?:started|stopped) commit for group,? ).*",
       "started commit for group g"),
    # ------------------------------------------------------------------ franz-go (kgo's Logger: a message and its arguments as keys)
    # ({KEYS}: the keys after the message in any syntax - BasicLogger's "; group: g, member_id: m", a
    # console writer's " group=g", zap's "\t{...}" - or none, when a JSON/logfmt record holds them)
    _d("franzgo.joining.v1", "join_sent", OT, "franz-go", r"joining group{KEYS}", "joining group; group: g"),
    _d("franzgo.joined", "joined", OT, "franz-go",
       r"joined(?:, balancing group| as leader but unable to balance group due to KIP-345 limitations|, skipping assignment even though leader \(KIP-814\))?{KEYS}",
       "joined, balancing group; group: g, member_id: m-1, instance_id: <nil>, generation: 3, balance_protocol: cooperative-sticky, leader: true"),
    _d("franzgo.member_id_required.v1", "join_failed", OT, "franz-go",
       r"join returned MemberIDRequired, rejoining with response's MemberID{KEYS}",
       "join returned MemberIDRequired, rejoining with response's MemberID; group: g, member_id: m-1", fixed={"error": "MEMBER_ID_REQUIRED"}),
    _d("franzgo.unknown_member", "join_failed", OT, "franz-go", r"join returned UnknownMemberID, rejoining without a member id{KEYS}",
       "join returned UnknownMemberID, rejoining without a member id; group: g", fixed={"error": "UNKNOWN_MEMBER_ID"}),
    _d("franzgo.join_failed", "join_failed", OT, "franz-go", r"(?:join group failed|join and sync loop errored|group manage loop errored){KEYS}",
       "join group failed; group: g, err: REBALANCE_IN_PROGRESS"),
    _d("franzgo.sync_rebalancing", "sync_failed", OT, "franz-go", r"sync failed with RebalanceInProgress, rejoining{KEYS}",
       "sync failed with RebalanceInProgress, rejoining; group: g", fixed={"error": "REBALANCE_IN_PROGRESS"}),
    _d("franzgo.sync_failed", "sync_failed", OT, "franz-go", r"sync (?:group )?failed{KEYS}", "sync group failed; group: g, err: x"),
    _d("franzgo.synced", "synced", OT, "franz-go", r"synced(?: successfully)?{KEYS}", "synced; group: g, assigned: t[0 1]"),
    _d("franzgo.session_begun", "partitions_assigned", OT, "franz-go", r"(?P<reason>new group session begun){KEYS}",
       "new group session begun; group: g, added: t[0], lost: "),
    _d("franzgo.revoke", "partitions_revoked", OT, "franz-go",
       r"(?P<reason>(?:(?:eager|cooperative) )?consumer (?:revoking prior assigned partitions|calling onRevoke)[^;]*|calling onRevoke at the end of a session)"
       r"(?:; consumer did not change any client-side subscription)?{KEYS}",
       "calling onRevoke at the end of a session; group: g, lost: , stage: x"),
    _d("franzgo.heartbeating", "heartbeat_sent", OT, "franz-go", r"heartbeating{KEYS}", "heartbeating; group: g"),
    _d("franzgo.heartbeat_complete", "heartbeat_sent", OT, "franz-go", r"heartbeat complete{KEYS}", "heartbeat complete; group: g, err: <nil>"),
    _d("franzgo.heartbeat_failed", "heartbeat_failed", OT, "franz-go",
       r"heartbeat (?:errored(?: again while waiting for user revoke to finish)?|hit retryable error[^;]*){KEYS}",
       "heartbeat errored; group: g, err: REBALANCE_IN_PROGRESS: The group is rebalancing, so a rejoin is needed."),
    _d("franzgo.rejoin", "rejoin_requested", OT, "franz-go",
       r"(?P<reason>heartbeat saw a change in group status; partitions were added or lost|forced rejoin quitting heartbeat loop){KEYS}",
       "forced rejoin quitting heartbeat loop; why: x"),
    _d("franzgo.leaving", "leave_sent", OT, "franz-go", r"leaving group{KEYS}", "leaving group; group: g, member_id: m-1"),
    _d("franzgo.commit_fatal", "offset_commit_failed", OT, "franz-go", r"offset commit returned a fatal group member error, triggering rejoin{KEYS}",
       "offset commit returned a fatal group member error, triggering rejoin; group: g, err: x"),
    _d("franzgo.other", "other", OT, "franz-go", r"(?P<reason>syncing|balancing group as leader|heartbeat loop complete|beginning heartbeat loop){KEYS}",
       "syncing; group: g, protocol: x"),
    _d("franzgo.noise", None, OT, "franz-go",
       r"(?:beginning to manage the group lifecycle|beginning autocommit loop|tried to leave group but we have no member ID yet|balance group member"
       r"|group members indicated interest|fetching offsets|fetch offsets|fetched committed offsets|in CommitOffsetsSync|left CommitOffsetsSync"
       r"|skipping autocommit|waiting for prior commit|offset commit(?: got| stale|:)|broker returned (?:topic|partition)|member was assigned topic"
       r"|received an OffsetCommitResponse|CommitOffsets spanned|unable to log|downgrading from cooperative|received STALE_MEMBER_EPOCH"
       r"|parsing group balance|sync assignment (?:parse failed|raw)|updated (?:un)?committed|unable to commit offsets? for topic partition"
       r"|default commit (?:failed|canceled)|in default commit: |autocommitting|canceling prior commit|issuing commit"
       r"|(?:Kafka|broker) replied to our OffsetCommitRequest incorrectly!|[\w ]+ could not find (?:Kafka|broker)-chosen balancer)[^;]*(?:;.*)?",
       "beginning to manage the group lifecycle; group: g"),
    # ------------------------------------------------------------------ kafkajs (JSON logger: groupId, memberId, generationId keys)
    _d("kafkajs.leader", "other", OT, "kafkajs", r"\[ConsumerGroup\] (?P<reason>Chosen as group leader){KEYS}", "[ConsumerGroup] Chosen as group leader"),
    _d("kafkajs.group_assignment", "leader_assigned", OT, "kafkajs", r"\[ConsumerGroup\] Group assignment{KEYS}", "[ConsumerGroup] Group assignment"),
    _d("kafkajs.received_assignment", "synced", OT, "kafkajs", r"\[ConsumerGroup\] Received assignment{KEYS}", "[ConsumerGroup] Received assignment"),
    _d("kafkajs.joined.runner", "synced", OT, "kafkajs 1.0-1.14", r"\[Runner\] Consumer has joined the group{KEYS}", "[Runner] Consumer has joined the group"),
    _d("kafkajs.unknown_member", "rejoin_requested", OT, "kafkajs",
       r"\[Runner\] (?P<reason>The coordinator is not aware of this member, re-joining the group){KEYS}",
       "[Runner] The coordinator is not aware of this member, re-joining the group"),
    _d("kafkajs.resync", "rejoin_requested", OT, "kafkajs 1.4+", r"\[ConsumerGroup\] (?P<reason>.*), resync group{KEYS}",
       "[ConsumerGroup] Topic has been updated, resync group"),
    # (consumer.stop() and disconnect() log it after runner.stop() sent LeaveGroup; kafkajs 1.x's disconnect() too)
    _d("kafkajs.stopped", "leave_sent", OT, "kafkajs", r"\[Consumer\] (?P<reason>Stopped){KEYS}", "[Consumer] Stopped"),
    _d("kafkajs.noise", None, OT, "kafkajs",
       r"\[(?:ConsumerGroup|Runner)\] (?:Pausing fetching|Resuming fetching|Seek offset|No active topic|Fetching from|Stale cluster metadata"
       r"|Offset out of range|Preferred read replica|Consumer group received unsubscribed topics|Consumer is not aware of all assigned partitions"
       r"|stop consumer group).*",
       "[ConsumerGroup] Consumer group received unsubscribed topics"),
    # ------------------------------------------------------------------ ruby-kafka (Ruby Logger; tags "[[group] {t: 0}:] " in the consumer loop)
    _d("rubykafka.coordinator_lost", "coordinator_lost", OT, "ruby-kafka",
       _RTAGX + r"(?P<reason>(?:Failed to find coordinator|Group coordinator not available)) for group `{G}`(?:; retrying\.\.\.)?",
       "Failed to find coordinator for group `g`; retrying..."),
    _d("rubykafka.join_connection_error", "join_failed", OT, "ruby-kafka",
       _RTAGX + r"(?P<reason>Connection error while trying to join group) `{G}`; retrying\.\.\.", "Connection error while trying to join group `g`; retrying..."),
    _d("rubykafka.leaving", "leave_sent", OT, "ruby-kafka", _RTAGX + r"(?:\[(?P<member_id>[^\]=\s]+)\] )?Leaving group `{G}`", "Leaving group `g`"),
    _d("rubykafka.kicked_out", "heartbeat_failed", OT, "ruby-kafka 0.1-0.2", r"(?P<reason>Kicked out of group); rejoining",
       "Kicked out of group; rejoining", fixed={"error": "UNKNOWN_MEMBER_ID"}),
    _d("rubykafka.illegal_generation", "heartbeat_failed", OT, "ruby-kafka 0.1-0.2", r"Illegal generation {N}; rejoining group",
       "Illegal generation 3; rejoining group", fixed={"error": "ILLEGAL_GENERATION"}),
    _d("rubykafka.heartbeat_connection", "heartbeat_failed", OT, "ruby-kafka 0.1-0.2", r"(?P<reason>Connection error while sending heartbeat); rejoining",
       "Connection error while sending heartbeat; rejoining"),
    _d("rubykafka.heartbeat_rebalancing", "heartbeat_failed", OT, "ruby-kafka 0.1-0.2", r"(?P<reason>Group is rebalancing); rejoining",
       "Group is rebalancing; rejoining", fixed={"error": "REBALANCE_IN_PROGRESS"}),
    _d("rubykafka.heartbeat", "heartbeat_sent", OT, "ruby-kafka", _RTAG + r"(?:\[(?P<member_id>[^\]=\s]+)\] )?Sending heartbeat\.\.\.",
       "[[g] {t: 0}:] Sending heartbeat..."),
    _d("rubykafka.joined.v0_2", "joined", OT, "ruby-kafka 0.1-0.2", r"\[(?P<member_id>[^\]=\s]+)\] Joined group `{G}` with member id `[^`]*`",
       "[m-1] Joined group `g` with member id `m-1`"),
    _d("rubykafka.synchronizing", "other", OT, "ruby-kafka 0.1-0.2", r"(?:\[(?P<member_id>[^\]=\s]+)\] )?(?P<reason>Synchronizing group)", "[m-1] Synchronizing group"),
    _d("rubykafka.leader.v0_2", "other", OT, "ruby-kafka 0.1-0.2", r"\[(?P<member_id>[^\]=\s]+)\] (?P<reason>Chosen as leader of group `(?P<group_id>[^`]+)`)",
       "[m-1] Chosen as leader of group `g`"),
    _d("rubykafka.partitions_assigned", "partitions_assigned", OT, "ruby-kafka",
       _RTAG + r"(?:\[(?P<member_id>[^\]=\s]+)\] )?(?P<reason>Partitions assigned for `[^`]*`: .*)", "[[g] {t: 0}:] Partitions assigned for `t`: 0, 1"),
    _d("rubykafka.commit_error", "offset_commit_failed", OT, "ruby-kafka", _RTAG + r"Error committing offsets: {R}",
       "[[g] {t: 0}:] Error committing offsets: Kafka::RebalanceInProgress"),
    _d("rubykafka.coordinator_loading", "join_failed", OT, "ruby-kafka",
       _RTAG + r"(?P<reason>Coordinator broker still loading), retrying in 1s\.\.\.", "Coordinator broker still loading, retrying in 1s...",
       fixed={"error": "COORDINATOR_LOAD_IN_PROGRESS"}),
    _d("rubykafka.rebalance_rejoin", "rejoin_requested", OT, "ruby-kafka 0.5+", _RTAG + r"(?P<reason>Group rebalance in progress), re-joining\.\.\.",
       "[[g] {t: 0}:] Group rebalance in progress, re-joining..."),
    # ------------------------------------------------------------------ brod (OTP logger, single line: "...generation=3):, elected=true")
    *_brod("leaving", "leave_sent", r"(?:[Ll]eaving group), reason:? {R}", "Leaving group, reason: shutdown"),
    *_brod("connected", "coordinator_discovered", r"connected to group coordinator (?P<host>[^:\s]+):\d+", "connected to group coordinator kafka-1:9092"),
    *_brod("rejoining", "rejoin_requested", r"re-joining group, reason:{R}", "re-joining group, reason:rebalance_in_progress"),
    *_brod("join_failed", "join_failed", r"failed to join group, reason: ?{R}", "failed to join group, reason: unknown_member_id"),
    *_brod("fenced", "join_failed", r"(?P<reason>Static member was fenced .*)",
           "Static member was fenced by another member using the same group_instance_id; check for duplicate group member configuration. "
           "Retrying stabilization after 30 seconds.", old=False, fixed={"error": "FENCED_INSTANCE_ID"}),
    *_brod("elected", "joined", r"(?P<reason>elected=(?:true|false))", "elected=true"),
    *_brod("assignments", "synced", r"assignments received:(?P<reason>.*)", "assignments received:, orders:, 0: 0"),
    *_brod("commit_failed", "offset_commit_failed", r"(?P<reason>failed to commit offset.*)", "failed to commit offset for topic=t, partition=0", new=False),
    *_brod("static_stopped", "other", r"(?P<reason>Static member stopped without leaving group), reason: .*",
           "Static member stopped without leaving group, reason: shutdown", old=False),
    *_brod("static_unsupported", None, r"Broker does not support all static membership API versions; using dynamic membership",
           "Broker does not support all static membership API versions; using dynamic membership", old=False),
    # brod's subscribers and their workers (2.0+): message handling and committed offsets, no group fact
    _d("brod.subscriber_quiet", None, OT, "brod 2.0+",
       r"(?:(?:group subscriber \(groupId=[^,]+,memberId=[^,]*,generation=-?\d+,pid=\S+\)|Group member \([^)]*\)):,? discarded message:.*"
       r"|group_subscriber_v2 \S+ failed to flush commits before termination .*|group_subscriber_v2 worker crashed\.,? .*"
       r"|Starting group_subscriber_worker: .*|Discarded invalid committed offset .*|No committed offset for \S+, starting from .*)",
       "No committed offset for orders-0, starting from consumer config begin_offset=-1"),
    # ------------------------------------------------------------------ faust (mode's service logger "[^--Consumer]: ")
    _d("faust.partitions_revoked", "partitions_revoked", OT, "faust", _FAUST + r"ON PARTITIONS REVOKED", "[^Worker]: ON PARTITIONS REVOKED"),
    _d("faust.restarting", "other", OT, "faust 0.2+", _FAUST + r"(?P<reason>Restarting on rebalance)", "[^--Consumer]: Restarting on rebalance"),
    _d("faust.generation_changed", "other", OT, "faust 0.7+", _FAUST + r"(?P<reason>Generation id changed) from -?\d+ to {N}\. Cancelling getmany\.",
       "[^--Consumer]: Generation id changed from 6 to 7. Cancelling getmany."),
    _d("faust.rebalance_sensor", None, OT, "faust",
       r"(?:\[\^-*\w+\]: )?(?:Missing sensor state for rebalance|Previous rebalance did not clear state).*",
       "[^Worker]: Missing sensor state for rebalance #3"),
    # the table manager's and the recovery service's own lines (1.0+): no group fact (the consumer's lines carry it)
    _d("faust.recovery_quiet", None, OT, "faust 1.0+",
       _FAUST + r"(?:New assignments (?:found|handled)|Seek stream partitions to committed offsets\.|Resuming streams with empty assignment"
       r"|Recovery rebalancing again(?: app id .*)?|rebalance again generation id .*|generation id -?\d+ app consumers id .*)",
       "[^---Recovery]: Resuming streams with empty assignment"),
    # ------------------------------------------------------------------ arroyo (Sentry's stream processor; its rebalance lines are the
    # callback dialects' "New partitions assigned: {...}" / "Partitions to revoke: [...]"): its processing strategy's
    # lifecycle and its consumer's paused set around a rebalance carry no group fact
    _d("arroyo.rebalance_quiet", None, OT, "arroyo",
       r"(?:Partition assignment while processing strategy active|.* exited successfully, releasing assignment\."
       r"|skipping empty assignment|Paused partitions after (?:assignment|revocation): .*)",
       "Paused partitions after assignment: set()", logger=r"^arroyo\."),
)  # fmt: skip
