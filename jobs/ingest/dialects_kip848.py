"""Dialects of the consumer-protocol (KIP-848) groups: Kafka's Java group coordinator
(``GroupMetadataManager`` 3.7 -> 4.x, lines behind ``[GroupId g] ``) and the new consumer's membership
manager (3.8+). Part of :data:`jobs.ingest.dialects.DIALECTS`, in its place there (between the broker's
classic wordings and the Java client's)."""

from __future__ import annotations

from jobs.ingest.dialect_model import LEAVE, B, C, Dialect
from jobs.ingest.dialect_model import dialect as _d

KIP848: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ KIP-848 (broker and client)
    # GroupMetadataManager 3.7+ ("[GroupId g] " after the Java coordinator prefix); a named
    # ``protocol_type`` where the line says which group type it is (consumer / share / streams),
    # else null (the replay takes the group's type from its other lines)
    _d("kip848.member_joins", "consumer_member_joined", B, "3.7-4.x",
       r"\[GroupId {G}\] Member {M} joins the (?P<protocol_type>consumer|share|streams) group(?: using the (?P<protocol>\w+) protocol)?\.",
       "[GroupId g] Member m1 joins the consumer group using the consumer protocol."),
    _d("kip848.static_joins", "consumer_member_joined", B, "3.7-4.x",
       r"\[GroupId {G}\] Static member {M} with instance id (?P<group_instance_id>.+?) joins the (?P<protocol_type>consumer|streams) group(?: using the (?P<protocol>\w+) protocol)?\.",
       "[GroupId g] Static member m1 with instance id i1 joins the consumer group using the consumer protocol.",
       fixed={"static": True}),
    _d("kip848.static_replaces", "consumer_member_replaced", B, "3.8-4.x",
       r"\[GroupId {G}\] Static member with (?:unknown member id and )?instance id (?P<group_instance_id>.+?) re-joins the (?P<protocol_type>consumer|streams) group(?: using the (?P<protocol>\w+) protocol)?\. Created a new member {M} to replace the existing member (?P<old_member_id>\S+?)\.",
       "[GroupId g] Static member with instance id i1 re-joins the consumer group using the consumer protocol. "
       "Created a new member m2 to replace the existing member m1."),
    _d("kip848.static_rejoins", "consumer_member_replaced", B, "3.7-3.8",
       r"\[GroupId {G}\] Static member {M} with instance id (?P<group_instance_id>.+?) re-joins the (?P<protocol_type>consumer) group\.",
       "[GroupId g] Static member m2 with instance id i1 re-joins the consumer group."),
    _d("kip848.dynamic_unknown_member", "other", B, "3.8-4.x",
       r"\[GroupId {G}\] (?P<reason>Dynamic member with unknown member id joins the (?P<protocol_type>consumer) group\. Created a new member id {M} and requesting the member to rejoin with this id\.)",
       "[GroupId g] Dynamic member with unknown member id joins the consumer group. Created a new member id m1 and requesting the member to rejoin with this id."),
    _d("kip848.epoch_bumped", "group_epoch_bumped", B, "3.7-4.x",
       r"\[GroupId {G}\] Bumped group epoch to {N}(?: with (?P<reason>metadata hash -?\d+))?\.",
       "[GroupId g] Bumped group epoch to 7 with metadata hash 2421248355301747518."),
    _d("kip848.streams_epoch_bumped", "group_epoch_bumped", B, "4.1-4.x",
       r"\[GroupId {G}\](?:\[MemberId {M}\])? Bumped streams group epoch to {N}(?: with (?P<reason>metadata hash -?\d+(?: and validated topic epoch -?\d+)?))?\.",
       "[GroupId g][MemberId m1] Bumped streams group epoch to 3 with metadata hash 99 and validated topic epoch 2.",
       fixed={"protocol_type": "streams"}),
    _d("kip848.target_assignment", "target_assignment_computed", B, "3.7-4.x",
       r"\[GroupId {G}\] Computed a new target assignment for epoch {N} with '(?P<protocol>[^']*)' assignor(?: in \d+ms)?(?:: .*)?\.",
       "[GroupId g] Computed a new target assignment for epoch 7 with 'uniform' assignor in 3ms."),
    _d("kip848.subscription_changed", "consumer_subscription_changed", B, "3.7-4.x",
       r"\[GroupId {G}\] Member {M} (?P<reason>updated its (?:subscribed (?:topics|regex) to: |member (?:metadata|metdata) to ).*?)\.?",
       "[GroupId g] Member m1 updated its subscribed topics to: [t1, t2]."),
    _d("kip848.member_left", "consumer_member_left", B, "3.7-4.x",
       r"\[GroupId {G}\] Member {M} left the (?P<protocol_type>consumer|share|streams) group\.",
       "[GroupId g] Member m1 left the consumer group.", fixed={"member_epoch": -1}),
    _d("kip848.static_temporarily_left", "consumer_member_left", B, "3.7-4.x",
       r"\[GroupId {G}\] Static [Mm]ember {M} with instance id (?P<group_instance_id>.+?) temporarily left the (?P<protocol_type>consumer|streams) group\.",
       "[GroupId g] Static Member m1 with instance id i1 temporarily left the consumer group.",
       fixed={"static": True, "member_epoch": -2}),
    _d("kip848.static_left", "consumer_member_left", B, "3.7-4.x",
       r"\[GroupId {G}\] Static [Mm]ember {M} with instance id (?P<group_instance_id>.+?) left the (?P<protocol_type>consumer|streams) group\.",
       "[GroupId g] Static Member m1 with instance id i1 left the consumer group.",
       fixed={"static": True, "member_epoch": -1}),
    _d("kip848.fenced_transition", "consumer_member_fenced", B, "3.8-4.x",
       r"\[GroupId {G}\] Member {M} fenced from the group because (?P<reason>it failed to transition from epoch (?P<member_epoch>-?\d+) within \d+ms)\.*",
       "[GroupId g] Member m1 fenced from the group because it failed to transition from epoch 6 within 300000ms."),
    _d("kip848.fenced", "consumer_member_fenced", B, "3.7-4.x",
       r"\[GroupId {G}\] (?:Streams )?[Mm]ember {M} fenced from the group because (?P<reason>.*?)\.*",
       "[GroupId g] Member m1 fenced from the group because the member session expired.."),
    _d("kip848.assignment_state", "member_assignment_state", B, "3.8-4.x",
       r"\[GroupId {G}\] Member {M} new assignment state: epoch=(?P<member_epoch>-?\d+), previousEpoch={N}, state=(?P<state>[A-Za-z_]+), assignedPartitions=(?P<partitions_raw>\[.*?\])(?: and revokedPartitions=(?P<revoked_raw>\[.*?\]))?\.?\s*",
       "[GroupId g] Member m1 new assignment state: epoch=5, previousEpoch=4, state=STABLE, assignedPartitions=[t-0] and revokedPartitions=[]."),
    _d("kip848.assignment_transition", "member_assignment_state", B, "3.7",
       r"\[GroupId {G}\] Member {M} transitioned from CurrentAssignment\(.*?\) to CurrentAssignment\(memberEpoch=(?P<member_epoch>-?\d+), previousMemberEpoch={N}, targetMemberEpoch=-?\d+, state=(?P<state>[A-Za-z_]+), assignedPartitions=(?P<partitions_raw>\{.*?\}), partitionsPendingRevocation=(?P<revoked_raw>\{.*?\}), partitionsPendingAssignment=\{.*?\}\)\.",
       "[GroupId g] Member m1 transitioned from CurrentAssignment(memberEpoch=4, previousMemberEpoch=3, targetMemberEpoch=5, "
       "state=STABLE, assignedPartitions={}, partitionsPendingRevocation={}, partitionsPendingAssignment={}) to "
       "CurrentAssignment(memberEpoch=5, previousMemberEpoch=4, targetMemberEpoch=5, state=STABLE, assignedPartitions={}, "
       "partitionsPendingRevocation={}, partitionsPendingAssignment={})."),
    _d("kip848.converted", "group_converted", B, "4.0-4.x",
       r"\[GroupId {G}\] (?P<reason>Converted the (?:empty )?(?:classic|consumer|streams) group to a (?P<protocol_type>consumer|classic|streams) group)\.",
       "[GroupId g] Converted the classic group to a consumer group.",
       provenance='excerpt:b-kip848-demo-readme-converted-v41'),
    _d("kip848.cannot_convert", "other", B, "3.8-4.x",
       r"(?P<reason>Cannot (?:upgrade|downgrade) (?:the )?(?:classic|consumer) group {G}(?::? (?:to (?:consumer|classic) group )?because .*| to (?:consumer|classic) group: .*))",
       "Cannot upgrade classic group g to consumer group because the online upgrade is disabled."),
    _d("kip848.cannot_downgrade_protocol", "other", B, "3.8-4.x",
       r"(?P<reason>Cannot downgrade the consumer group {G}: fail to parse the Consumer Protocol .*)",
       "Cannot downgrade the consumer group g: fail to parse the Consumer Protocol consumer."),
    _d("kip848.skip_downgrade_empty", "other", B, "3.8-4.x",
       r"(?P<reason>Skip downgrading the consumer group {G} to classic group because it's empty\.)",
       "Skip downgrading the consumer group g to classic group because it's empty."),
    _d("kip848.sync_expiry_unknown_group", "other", B, "3.8-4.x",
       r"Received notification of sync expiration for an unknown classic group {G}\.",
       "Received notification of sync expiration for an unknown classic group g."),
    _d("kip848.static_persist_failed", "other", B, "3.7-4.x",
       r"Failed to persist metadata for group {G} static member {M} with group instance id (?P<group_instance_id>\S+) due to (?P<reason>.*)\. Reverting to old member id (?P<old_member_id>\S+)\.",
       "Failed to persist metadata for group g static member m2 with group instance id i1 due to NOT_LEADER_OR_FOLLOWER. Reverting to old member id m1."),
    _d("kip848.loaded_group", "group_loaded", B, "3.7-4.x",
       r"Loaded (?P<protocol_type>consumer|share|streams) group {G} with (?P<member_count>\d+) members\.",
       "Loaded consumer group g with 2 members."),
    _d("kip848.loaded_member", "other", B, "3.7-4.x",
       r"Loaded member {M} in (?P<protocol_type>consumer|share|streams) group {G}\.", "Loaded member m1 in consumer group g."),
    _d("kip848.unloaded_group", "group_unloaded", B, "3.8-4.x",
       r"\[GroupId={G}\] Unloaded group metadata for group epoch {N}\.", "[GroupId=g] Unloaded group metadata for group epoch 7."),
    _d("kip848.classic_member_left", "consumer_member_left", B, "3.8-3.9",
       r"\[Group {G}\] (?P<static_word>Dynamic|Static) Member {M}(?: with instance id (?P<group_instance_id>\S+?))? has left group through explicit " + LEAVE + r" request(?:; client reason: {R})?",
       "[Group g] Dynamic Member m1 has left group through explicit `LeaveGroup` request; client reason: the consumer is being closed",
       fixed={"protocol": "classic", "member_epoch": -1}),
    _d("kip848.classic_member_left_4x", "consumer_member_left", B, "4.0-4.x",
       r"\[GroupId {G}\] (?P<static_word>Dynamic|Static) member {M}(?: with instance id (?P<group_instance_id>\S+?))? has left group through explicit " + LEAVE + r" request(?:; client reason: {R})?",
       "[GroupId g] Dynamic member m1 has left group through explicit `LeaveGroup` request; client reason: the consumer is being closed",
       fixed={"protocol": "classic", "member_epoch": -1}),
    _d("kip848.streams.member_metadata", "consumer_subscription_changed", B, "4.1-4.x",
       r"\[GroupId {G}\]\[MemberId {M}\] Member (?P<reason>updated its member (?:metadata|metdata) to .*?)\.?",
       "[GroupId app][MemberId m1] Member updated its member metadata to StreamsGroupMember(memberId=m1).",
       fixed={"protocol_type": "streams"}),
    _d("kip848.streams.member_joins", "consumer_member_joined", B, "4.1-4.x",
       r"\[GroupId {G}\]\[MemberId {M}\] Member joins the (?P<protocol_type>streams) group\.",
       "[GroupId app][MemberId m1] Member joins the streams group."),
    _d("kip848.streams.member_left", "consumer_member_left", B, "4.1-4.x",
       r"\[GroupId {G}\]\[MemberId {M}\] Member \S+ left the (?P<protocol_type>streams) group\.",
       "[GroupId app][MemberId m1] Member m1 left the streams group.", fixed={"member_epoch": -1}),
    _d("kip848.streams.assignment_state", "member_assignment_state", B, "4.1-4.x",
       r"\[GroupId {G}\]\[MemberId {M}\] Member's new assignment state: epoch=(?P<member_epoch>-?\d+), previousEpoch={N}, state=(?P<state>[A-Za-z_]+), assignedTasks=.*",
       "[GroupId app][MemberId m1] Member's new assignment state: epoch=5, previousEpoch=4, state=STABLE, assignedTasks=Tasks(activeTasks={0=[0]}) and tasksPendingRevocation=Tasks(activeTasks={}).",
       fixed={"protocol_type": "streams"}),
    _d("kip848.streams.any", "other", B, "4.1-4.x", r"\[GroupId {G}\]\[MemberId {M}\] {R}",
       "[GroupId app][MemberId m1] Computed new metadata hash: 42.", fixed={"protocol_type": "streams"}),
    _d("kip848.broker.any", "other", B, "3.7-4.x", r"\[GroupId {G}\] {R}", "[GroupId g] Computed new subscription metadata: {t=1}."),
    # the new consumer (AbstractMembershipManager; ConsumerMembershipManager 4.x, MembershipManagerImpl
    # 3.7-3.9): the member's state machine (INFO 3.9+, TRACE before) and its reconciliations
    _d("kip848.client.transition", "member_state_changed", C, "3.9-4.x",
       r"Member (?:<no ID>|{M}) with epoch (?P<member_epoch>-?\d+) transitioned from (?P<from_state>[A-Z_]+) to (?P<state>[A-Z_]+)\.?",
       "Member m1 with epoch 5 transitioned from RECONCILING to STABLE."),
    _d("kip848.client.fatal", "member_state_changed", C, "3.7-4.x",
       r"(?:Member {M} with epoch (?P<member_epoch>-?\d+)|Non-member) transitioned to (?:FATAL|fatal) state",
       "Member m1 with epoch 5 transitioned to fatal state", fixed={"state": "FATAL"}),
    _d("kip848.client.streams_reconciling", "reconciliation_started", C, "4.1-4.x",
       r"Assigned tasks with (?P<reason>local epoch \d+)(?: and group \S+)?\s.*",
       "Assigned tasks with local epoch 4 and group ready Member: m1 Assigned active tasks: [0_0]"),
    _d("kip848.client.share_poll_timeout", "poll_timeout", C, "4.0-4.x",
       r"(?P<reason>Share consumer poll timeout has expired\..*)",
       "Share consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms"),
    _d("kip848.client.reconciling", "reconciliation_started", C, "3.8-4.x",
       r"Reconciling assignment with (?P<reason>local epoch \d+)\s*", "Reconciling assignment with local epoch 4"),
    # the new consumer's heartbeats, leaves and the rest of its membership manager (3.7+), found by the
    # catalogue (jobs/ingest/catalogue/data/kafka-consumer-async.yaml)
    _d("kip848.client.heartbeat_failed", "heartbeat_failed", C, "3.7-4.x",
       r"(?:Consumer|Share|Streams)?(?:GroupHeartbeatRequest|GroupHeartbeat) failed (?:for member {M} with state [A-Z_]+ )?(?:due to|because of) "
       r"(?:fatal error: |unexpected error:? |error: |group authorization failure: |fenced instance id \S+: |unreleased instance id \S+: |the instance id \S+ was not released: )?{R}",
       "ConsumerGroupHeartbeatRequest failed due to FENCED_MEMBER_EPOCH: The member epoch is fenced by the group coordinator."),
    _d("kip848.client.heartbeat_regex_unsupported", "heartbeat_failed", C, "4.1-4.x",
       r"ConsumerGroupHeartbeatRequest regex resolution not supported: {R}",
       "ConsumerGroupHeartbeatRequest regex resolution not supported: The cluster does not support regular expressions resolution on ConsumerGroupHeartbeat API"),
    _d("kip848.client.heartbeat_ok", "heartbeat_sent", C, "3.7-4.x", r"(?:Share|Streams)?GroupHeartbeat(?:Request)? responded successfully: .*",
       "GroupHeartbeat responded successfully: ConsumerGroupHeartbeatResponseData(errorCode=0, memberEpoch=5)"),
    _d("kip848.client.poll_timer_leave", "poll_timeout", C, "3.7-4.x",
       r"(?P<reason>Member {M} (?:with epoch (?P<member_epoch>-?\d+) generated the heartbeat|sent heartbeat) to leave due to expired poll timer.*)",
       "Member m1 with epoch 5 generated the heartbeat to leave due to expired poll timer. It will remain stale (no heartbeat) until it rejoins the group on the next consumer poll."),
    _d("kip848.client.leave_heartbeat", "leave_sent", C, "3.7-4.x",
       r"Member {M} (?:with epoch (?P<member_epoch>-?\d+) generated the heartbeat to leave the group|sent heartbeat to leave group)\.",
       "Member m1 with epoch 5 generated the heartbeat to leave the group."),
    _d("kip848.client.closing", "leave_sent", C, "3.7-4.x",
       r"(?P<reason>(?:Releasing assignment and leaving group before closing consumer|Leaving the consumer group during consumer close))",
       "Releasing assignment and leaving group before closing consumer"),
    _d("kip848.client.poll_interval_rejoin", "rejoin_requested", C, "3.8-4.x",
       r"(?P<reason>Time between subsequent calls to poll\(\) was longer than the configured max\.poll\.interval\.ms, .*)",
       "Time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, exceeded approximately by 812 ms. Member m1 will rejoin the group now."),
    _d("kip848.client.membership", "other", C, "3.7-4.x",
       r"(?P<reason>(?:Member (?:{M}|<no ID>) (?:with epoch (?P<member_epoch>-?\d+) )?(?:got fenced|transitioned to|was leaving|received a (?:successful|failed) response to the heartbeat to leave|won't send leave group request|"
       r"completed callback to (?:release assignment|revoke task assignment)|callback to (?:release assignment|revoke task assignment) failed|is triggering callbacks to release assignment"
       r"|sent leave group heartbeat and released|won't include (?:member id|epoch)|is staled|updated its target assignment|will join the group on the next call|attempting to leave has no rebalance callbacks)"
       r"|Interrupting reconciliation .*|Heartbeat (?:to leave group cannot be sent|for leaving group could not be sent).*|No action taken to join the group.*|Leaving newly assigned partitions .*"
       r"|Completed releasing assignment and sending leave group.*|Unsubscribing all topics or patterns and assigned partitions.*|Consumer triggered an unsubscribe event to leave the group.*"
       r"|Expired poll timer has been reset so stale member .*|Auto-commit request before reconciling new assignment failed.*|The \S+ method completed with an error .*"
       r"|onPartitionsLost callback invocation failed while releasing assignment.*|Auto-commit sync before rebalance .*|Completed leaving the group|Consumer attempted to leave the group .*"
       r"|Task revocation callback invocation failed .*|onAllTasksLost callback invocation failed .*|Ignoring new assignment: .*|Fenced member onAllTasksLost callback .*"
       r"|The on(?:TasksRevoked|TasksAssigned|AllTasksLost) callback completed .*|Invoking tasks assigned callback .*|Streams rebalance listener failed on invocation .*).*)",
       "Member m1 with epoch 5 got fenced but it is already preparing to leave the group, so it will stop sending heartbeat and won't attempt to send the leave request or rejoin."),
    # ------------------------------------------------------------------ share groups' state (4.x): no membership fact
    # (kind None: recognised, counted unrelated; the share-group state persister and record replay of
    # GroupCoordinatorService, GroupCoordinatorShard and GroupMetadataManager)
    _d("kip848.quiet.share_state", None, B, "4.0-4.x",
       r"(?:ShareGroup\w+ tombstone (?:without group|for groupId) - .*|ShareGroupStatePartitionMetadata tombstone for non-existent share group .*"
       r"|Initializing topic \S+ for share group .*|Some topics for share group id .*|Existing deleting entries found in share group .*"
       r"|Unable to delete share group(?: offsets)?\. .*|Unable to (?:initialize share group state|cleanup topic partitions from share group state|delete share group partition).*"
       r"|Received error while (?:calling initialize state for|deleting share group) .*|Error deleting share group .*|Failed to delete share group state .*"
       r"|Failed to retrieve (?:partition end offsets while calculating share partitions lag|deleteState request parameters) .*"
       r"|Persister initialization failed|Failed to read summary of the share partition|Result is null for the (?:read state summary|delete share group state)"
       r"|Partition end offset fetch failed for topicPartition .*|Unable to cleanup state for the deleted topics .*)",
       "Unable to initialize share group state for g, NOT_COORDINATOR while altering share group offsets"),
)  # fmt: skip
