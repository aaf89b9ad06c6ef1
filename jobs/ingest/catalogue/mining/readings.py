"""What each mined statement means, decided by reading the source around it: per source, an ordered list
of (regex on the verbatim ``format``, kind, extra keys of the statement). The first match wins; a
statement no reading matches keeps what its catalogue file says (``unmapped`` when mined first).

``template`` overrides the mined one where an argument's rendering is known (kafka-python's
``Generation`` object prints ``<Generation N (member_id: M, protocol: P)>``) or the automatic naming of
arguments is wrong; ``expect`` gives fixed fields the event must carry."""

from __future__ import annotations

from typing import Any

Reading = tuple[str, str, dict[str, Any]]
_GEN_OBJ = "<Generation {generation} (member_id: {member_id}, protocol: {protocol})>"
_PY_PARTS = "{{TopicPartition(topic='orders', partition=0)}}"

#: kafka-python (kafka/coordinator/*.py) and aiokafka (aiokafka/consumer/group_coordinator.py): the
#: coordinator code aiokafka started from, so most wordings are shared
PYTHON: list[Reading] = [
    (r"^\(Re-\)joining group %s$", "join_sent", {}),
    (r"^Joined group '%s' \(generation %s\) with member_id %s$", "joined", {}),
    (r"^Successfully joined group %s with generation %s$", "joined", {}),
    (r"^Successfully joined group %s %s$", "joined", {"template": "Successfully joined group {group_id} " + _GEN_OBJ}),
    (r"^Successfully synced group %s with generation %s$", "synced", {}),
    (r"^Discovered coordinator %s for group %s$", "coordinator_discovered",
     {"template": "Discovered coordinator {coordinator} for group {group_id}"}),
    (r"^Marking the coordinator dead \(node %s\) ?for group %s", "coordinator_lost", {}),
    (r"^Leaving consumer group \(%s\)\.$", "leave_sent", {}),
    (r"^Leaving consumer group %s \(member %s\)\.$", "leave_sent", {}),
    (r"^LeaveGroup request for group %s returned successfully$", "other", {}),
    (r"^LeaveGroup request succeeded$", "leave_sent", {"note": "no group in the line: the file's group"}),
    (r"^Received successful heartbeat response for group %s$", "heartbeat_sent", {}),
    (r"^Heartbeat: %s\[%s\] %s$", "heartbeat_sent", {"template": "Heartbeat: {group_id}[{generation}] {member_id}"}),
    (r"^Sending heartbeat for group %s %s$", "heartbeat_sent", {"template": "Sending heartbeat for group {group_id} " + _GEN_OBJ}),
    (r"^Elected group leader -- performing partition assignments using %s$", "other", {}),
    (r"^Heartbeat session expired[,-] ", "heartbeat_failed", {"note": "the session timed out locally: the coordinator is marked dead"}),
    (r"^Heartbeat failed for group %s because it is rebalancing$", "heartbeat_failed", {"expect": {"error": "REBALANCE_IN_PROGRESS"}}),
    (r"^Group %s is rebalancing; rejoining\.$", "heartbeat_failed", {"expect": {"error": "REBALANCE_IN_PROGRESS"},
                                                                    "note": "3.0: the heartbeat answered REBALANCE_IN_PROGRESS"}),
    (r"^Heartbeat failed for group %s: generation id is not  current\.$", "heartbeat_failed", {"expect": {"error": "ILLEGAL_GENERATION"}}),
    (r"^Heartbeat(?: failed)?: local member_id was not recognized", "heartbeat_failed", {"expect": {"error": "UNKNOWN_MEMBER_ID"}}),
    (r"^Heartbeat failed for group %s due to fenced id error", "heartbeat_failed", {"expect": {"error": "FENCED_INSTANCE_ID"}}),
    (r"^Heartbeat failed for group %s: coordinator \(node %s\) is either not started or not valid$", "heartbeat_failed",
     {"expect": {"error": "NOT_COORDINATOR"}}),
    (r"^Setting newly assigned partitions %s for group %s$", "partitions_assigned",
     {"template": "Setting newly assigned partitions " + _PY_PARTS + " for group {group_id}"}),
    (r"^Revoking previously assigned partitions %s for group %s(?: on close)?$", "partitions_revoked", {}),
    (r"^Group %s lost membership; forcibly revoking %s$", "partitions_lost",
     {"template": "Group {group_id} lost membership; forcibly revoking " + _PY_PARTS}),
    (r"^Triggering follow-up rebalance for group %s", "rejoin_requested", {}),
    (r"^Consumer poll timeout has expired\.", "poll_timeout", {}),
    (r"^Heartbeat poll expired, leaving group$", "poll_timeout", {}),
    (r"^Attempt to join group %s rejected since coordinator (?:%s )?is loading the group\.$", "join_failed",
     {"expect": {"error": "COORDINATOR_LOAD_IN_PROGRESS"}}),
    (r"^Attempt to join group %s failed due to unknown member id(?:, resetting and retrying\.)?$", "join_failed", {"expect": {"error": "UNKNOWN_MEMBER_ID"}}),
    (r"^Attempt to join group %s failed due to obsolete coordinator", "join_failed", {}),
    (r"^Attempt to join group %s failed due to RebalanceInProgressError", "join_failed", {"expect": {"error": "REBALANCE_IN_PROGRESS"}}),
    (r"^Attempt to join group %s failed due to (?:fatal|group authorization) error", "join_failed", {}),
    (r"^Failed to join group %s: %s$", "join_failed", {}),
    (r"^Attempt to join group %s failed due to: %s$", "join_failed", {"values": {"_error": "GroupAuthorizationFailedError"}}),
    (r"^Received successful sync group response for group %s: %s$", "synced",
     {"values": {"_response": "SyncGroupResponse_v0(error_code=0, member_assignment=b'x')"},
      "note": "1.0-1.3: the SyncGroup response handler on success (the member has its assignment)"}),
    # 1.0-1.3's heartbeat task and response handler: no group in the line (the file's group)
    (r"^Heartbeat successful$", "heartbeat_sent", {"note": "1.0-1.3: the heartbeat response on success; no group in the line"}),
    (r"^Heartbeat failed(?: \(%s\))?; retrying$", "heartbeat_failed",
     {"values": {"_e": "[Error 15] GroupCoordinatorNotAvailableError"}, "note": "1.0-1.3 HeartbeatTask: the request failed; no group in the line"}),
    (r"^Heartbeat: group is rebalancing; this consumer needs to re-join$", "heartbeat_failed", {"expect": {"error": "REBALANCE_IN_PROGRESS"}}),
    (r"^Heartbeat: generation id is not current; this consumer needs to re-join$", "heartbeat_failed",
     {"expect": {"error": "ILLEGAL_GENERATION"}}),
    (r"^Heartbeat failed: coordinator is either not started or not valid; will refresh metadata and retry$", "heartbeat_failed",
     {"note": "GroupCoordinatorNotAvailable or NotCoordinatorForGroup: the coordinator is marked dead"}),
    (r"^Coordinator unknown during heartbeat -- will retry$", "coordinator_lost",
     {"note": "1.0-1.3 HeartbeatTask: no known coordinator, handled as GroupCoordinatorNotAvailableError; no group in the line"}),
    (r"^Marking the coordinator dead \(node %s\): %s\.$", "coordinator_lost",
     {"template": "Marking the coordinator dead (node {coordinator}): {_error}.",
      "values": {"coordinator": 1, "_error": "[Error 16] NotCoordinatorForGroupError"}, "note": "1.0: no group in the line"}),
    (r"^Coordinator for %s/%s is %s$", "coordinator_discovered",
     {"template": "Coordinator for group/{group_id} is BrokerMetadata(nodeId='coordinator-{coordinator}', host='kafka-1', port=9092, rack=None)",
      "values": {"coordinator": 1},
      "note": "kafka/cluster.py add_coordinator('group', group_id) 2.2+; 3.0 prints the key type's name (GROUP) and the broker as "
              "its MetadataResponseBroker"}),
    (r"^Updating coordinator for %s/%s: %s$", "unrelated",
     {"template": "Updating coordinator for group/{_group}: FindCoordinatorResponse_v2(throttle_time_ms=0, error_code=0, "
                  "error_message=None, coordinator_id=1, host='kafka-1', port=9092)", "values": {"_group": "g"}}),
    (r"^(?:GroupCoordinator|FindCoordinator)Response error: %s$|^GroupCoordinator metadata conflicts", "unrelated",
     {"note": "the coordinator lookup failed (no group in the line): the client retries it, as the Java consumer's"}),
    (r"^Received member id %s for group %s; will retry join-group$", "join_failed", {"expect": {"error": "MEMBER_ID_REQUIRED"}}),
    (r"^SyncGroup for group %s failed due to (?:coordinator|group) rebalance(?:, rejoining the group)?$", "sync_failed", {"expect": {"error": "REBALANCE_IN_PROGRESS"}}),
    (r"^SyncGroup for group %s failed due to fenced id error", "sync_failed", {"expect": {"error": "FENCED_INSTANCE_ID"}}),
    (r"^SyncGroup for group %s failed due to %s", "sync_failed", {}),
    (r"^Auto offset commit failed for group %s: %s$", "offset_commit_failed", {}),
    (r"^OffsetCommit failed for unauthorized topics", "unrelated", {}),
    (r"^OffsetCommit failed before join", "offset_commit_failed",
     {"values": {"_err": "CommitFailedError: ('Commit cannot be completed since the group has already rebalanced')"},
      "note": "no group in the line: the file's group (the error text passes the group prefilter)"}),
    (r"^OffsetCommit failed for group %s|^OffsetCommit for group %s failed", "offset_commit_failed", {}),
    (r"^Pre-rebalance offset commit failed: ", "offset_commit_failed", {}),
    (r"^Offset commit failed: group membership out of date", "offset_commit_failed", {}),
    (r"^Heartbeat thread caught fenced group_instance_id", "heartbeat_failed", {"expect": {"error": "FENCED_INSTANCE_ID"},
                                                                             "template": "Heartbeat thread caught fenced group_instance_id {group_instance_id} error"}),
    (r"^Offset commit failed: ", "unrelated", {"note": "no group named and no group word: below the group prefilter"}),
    (r"returned inconsistent protocol_name", "other",
     {"template": "SyncGroup for group {group_id} returned inconsistent protocol_name {_name} (expected {_expected})"}),
    (r"^Received heartbeat response for group %s: %s$", "other", {"note": "heartbeat_sent when the response's error_code is 0"}),
    # the group named, no membership fact: understood as far as the group
    (r"\b[Gg]roup %s\b|for group %s|[Gg]roup '%s'", "other", {}),
    # no group, no membership fact (threads, offsets, metadata, errors of other requests)
    (r"^(?:Starting new|Stopping) heartbeat thread$|^Heartbeat thread |^Heartbeat (?:disabled|re-enabled|success)|"
     r"^(?:Enabling|Disabling) heartbeat|^Heartbeat loop started|^_heartbeat_loop|^Starting heartbeat loop|"
     r"^Stopping heartbeat task|^Looking up coordinator|^Waiting %s secs|^No offsets to commit|^coordinator\.poll:|"
     r"^need_rejoin|^Received (?:JoinGroup|SyncGroup|LeaveGroup|find coordinator|group coordinator|OffsetCommit|"
     r"OffsetFetch)\w* ?[Rr]esponse|^Sending (?:JoinGroup|HeartbeatRequest|LeaveGroupRequest)|^Treating RebalanceInProgressError|"
     r"^Group Coordinator Not Available|^Requesting metadata for group coordinator|^Setting offset for partition|"
     r"^Fetching committed offsets|^Committed offset|^No committed offset|^Received successful heartbeat$|"
     r"^Join group response", "unrelated", {}),
]  # fmt: skip

LIBRDKAFKA: list[Reading] = [
    (r"^JoinGroup response: GenerationId %d, Protocol %s, LeaderId %s%s, my MemberId %s", "joined",
     {"template": "JoinGroup response: GenerationId {generation}, Protocol {protocol}, LeaderId {_leader}{_me}, "
                  "my MemberId {member_id}, member metadata count {_member_cnt}: {_error}",
      "values": {"_me": " (me)", "_leader": "rdkafka-l1", "_member_cnt": 2, "_error": "(no error)"}}),
    (r"^SyncGroup response: %s \(%d bytes of MemberState data\)$", "synced",
     {"values": {"_errorcode": "Success", "_len_memberstate": 38},
      "note": "Success: the member got its assignment; an error here is followed by GRPSYNC 'synchronization failed'"}),
    (r"^Group \"%s\": synchronization failed: %s: rejoining$", "rejoin_requested", {}),
    (r"^Group \"%s\" changed join state %s -> %s \(state %s\)$", "other", {}),
    (r"^Group \"%s\": join with %d (?:\(%d\) )?subscribed topic", "join_sent",
     {"note": "the JoinGroup about to be sent; 0.9-1.5 print the subscription's count of topics matched in metadata, then "
              "of topics subscribed (\"join with 1 (1)\")"}),
    (r"^Group \"%s\" heartbeat error response in state %s", "heartbeat_failed", {}),
    (r"^Heartbeat failed due to coordinator \(%s\) no longer available: %s: re-querying", "heartbeat_failed", {}),
    (r"^%s: Heartbeat for group \"%s\" generation id %d$", "heartbeat_sent", {"values": {"_rkb": "GroupCoordinator/2"},
                                                                          "expect": {"coordinator": 2}}),
    (r"^Group \"%s\" %s \(%s\) in state %s \(join-state %s\) with %d assigned partition\(s\)", "rejoin_requested",
     {"template": "Group \"{group_id}\" {_is_rebalancing} ({_protocol}) in state {_state} (join-state {_join_state}) with {_cnt} "
                  "assigned partition(s){_lost}{_reason}",
      "values": {"_is_rebalancing": "is rebalancing", "_protocol": "EAGER", "_cnt": 3, "_lost": "", "_reason": ": rebalance in progress"}}),
    (r"^Group \"%s\": leave \(in state %s\)$", "leave_sent", {}),
    (r"^Group \"%s\" is rebalancing in state %s \(join-state %s\) %s assignment: %s$", "rejoin_requested",
     {"values": {"_assignment": "without"}, "note": "1.0-1.5's rd_kafka_cgrp_rebalance(): the member rejoins, the reason last"}),
    (r"^%s: %sRequest failed: %s: explicit actions 0x%x$", "heartbeat_failed",
     {"template": "{_rkb}: HeartbeatRequest failed: {_err}: explicit actions 0x{_actions}",
      "values": {"_rkb": "GroupCoordinator/1", "_err": "Broker: Group rebalance in progress", "_actions": 4},
      "expect": {"error": "REBALANCE_IN_PROGRESS"},
      "note": "0.9's form of the request error line below (its actions as a hexadecimal mask); names no group (the file's)"}),
    (r"^Heartbeat failed: %s: %s$", "heartbeat_failed",
     {"template": "Heartbeat failed: {_err}: {_errstr}",
      "values": {"_err": "REBALANCE_IN_PROGRESS", "_errstr": "Broker: Group rebalance in progress"},
      "expect": {"error": "REBALANCE_IN_PROGRESS"},
      "note": "0.11-1.3: the heartbeat's error (rd_kafka_err2name, rd_kafka_err2str); names no group (the file's)"}),
    (r"^%s: Leaving group$", "leave_sent", {"values": {"_rkb": "kafka-1:9092/1"}}),
    (r"^%s: Joining group \"%s\" with %d subscribed topic\(s\)(?: and member id \"%s\")?$", "join_sent",
     {"values": {"_rkb": "kafka-1:9092/1"}}),
    (r"^Group \"%s\": unsubscribe from current %ssubscription of size %d \(leave group=%s, has joined=%s, %s, ", "other",
     {"template": "Group \"{group_id}\": unsubscribe from current {_unset}subscription of size {_cnt} (leave group={_leave}, "
                  "has joined={_joined}, {_member}, join-state {_join_state})", "values": {"_cnt": 1}}),
    (r"^Group \"%s\": rebalance \(%s\) already in progress", "other",
     {"template": "Group \"{group_id}\": rebalance ({_protocol}) already in progress, skipping in state {_state} (join-state "
                  "{_join_state}) with {_cnt} assigned partition(s){_a}{_b}{_c}: {_reason}", "values": {"_cnt": 3}}),
    (r"Share|^%s: Share consumer", "unmapped", {"note": "share groups (KIP-932) are not replayed"}),
    (r"^Application maximum poll interval \(%dms\) exceeded by %dms", "poll_timeout", {}),
    (r"^Group \"%s\": delegating revoke of %d partition", "partitions_revoked", {}),
    (r"^Group \"%s\": delegating incremental %s of %d partition", "other", {}),
    (r"^Group \"%s\": delegating %s of %d partition", "other", {}),
    (r"^Group \"%s\": updating member id \"%s\" -> \"%s\"$", "other",
     {"template": "Group \"{group_id}\": updating member id \"{old_member_id}\" -> \"{member_id}\""}),
    (r"^Group \"%s\": current assignment of %d partition\(s\) lost: %s$", "partitions_lost", {}),
    (r"^ConsumerGroupHeartbeat response received for member id \"%s\" with epoch %d", "member_state_changed",
     {"template": "ConsumerGroupHeartbeat response received for member id \"{member_id}\" with epoch {member_epoch}",
      "expect": {"protocol_type": "consumer"},
      "note": "the member's epoch after a heartbeat (KIP-848): its current membership"}),
    (r"^ConsumerGroupHeartbeat (?:response )?received target assignment|^Acknowledging target"
     r"|^Not reconciling|^Reconciliation in progress|^Sending new subscription|^Metadata (?:available|not found)"
     r"|^No metadata to request|^Expediting next heartbeat|^Revoking assignment as lost",
     "unrelated", {"note": "the consumer protocol's reconciliation steps: its start, its ack and the epochs carry the facts"}),
    (r"^%s: ConsumerGroupHeartbeat of member id", "unrelated",
     {"note": "the request; with generation id -1 it is the member's leave (read as member_state_changed to LEAVING)"}),
    (r"^Reconciliation starts with new target assignment", "member_state_changed",
     {"template": "Reconciliation starts with new target assignment \"orders(id)[0]\". Next assignment {_next}",
      "expect": {"protocol_type": "consumer", "state": "RECONCILING"},
      "note": "the member's reconciliation begins (the Java consumer's transition to RECONCILING)"}),
    (r"^Target assignment acked, new current assignment", "member_state_changed",
     {"template": "Target assignment acked, new current assignment  \"orders(id)[0]\"",
      "expect": {"protocol_type": "consumer", "state": "STABLE"}, "note": "the member reconciled (STABLE)"}),
    (r"^ConsumerGroupHeartbeat failed due to: %s: will rejoin the group$|^ConsumerGroupHeartbeat failed: ", "heartbeat_failed", {}),
    (r"^(?:LeaveGroup|ConsumerGroupHeartbeat) response (?:received|error) in state|^LeaveGroup response: |^Consumer group sub-system terminated"
     r"|response: discarding outdated request|^KIP-848 Consumer Group Protocol is in Early Access", "unrelated", {}),
    (r"[Gg]roup \"%s\"|[Gg]roup \"%s\"|group id \"%s\"", "other", {}),
]  # fmt: skip

READINGS: dict[str, list[Reading]] = {"kafka-python": PYTHON, "aiokafka": PYTHON, "librdkafka": LIBRDKAFKA}
