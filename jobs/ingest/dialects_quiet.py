"""Recognised lines without a group fact (``kind=None``: counted unrelated, never quarantined): the
statements of the group-membership code that the catalogue (``jobs/ingest/catalogue/data``) declares
``unrelated`` but whose text would pass the group prefilter (offset loading and expiry, transactional
offset commits, task and connector bookkeeping). Part of :data:`jobs.ingest.dialects.DIALECTS`, at its
end: a wording here never shadows a dialect that reads a fact."""

from __future__ import annotations

from jobs.ingest.dialect_model import CN, OT, B, C, Dialect
from jobs.ingest.dialect_model import dialect as _d


def _q(id: str, side: str, versions: str, regex: str, example: str, **kw) -> Dialect:  # noqa: A002
    return _d(id, None, side, versions, regex, example, **kw)


QUIET: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Scala broker: offsets and loading
    _q("quiet.broker.offset_fetch_not_coordinator", B, "0.10-3.9",
       r"Could not fetch offsets for group \S+ \(not (?:group|offset) coordinator\)\.?",
       "Could not fetch offsets for group g (not group coordinator)."),
    _q("quiet.broker.marking_deleted", B, "0.10-0.11", r"Marking group \S+ as deleted\.", "Marking group g as deleted."),
    _q("quiet.broker.offset_commit_append_failed", B, "0.10-3.9",
       r"Offset commit .* from group \S+,? consumer .* with generation -?\d+ failed when appending to log due to .*",
       "Offset commit {t-0=5} from group g, consumer m1 with generation 4 failed when appending to log due to NOT_LEADER"),
    _q("quiet.broker.getting_offsets", B, "0.10-3.9", r"Getting offsets (?:of )?.* for group \S+\.",
       "Getting offsets of all partitions for group g."),
    _q("quiet.broker.loading_offsets", B, "0.10", r"(?:Loading offsets and group metadata from|Finished loading offsets from|No log found for|Error in loading offsets from) .*",
       "Loading offsets and group metadata from __consumer_offsets-12"),
    _q("quiet.broker.tombstones", B, "0.10-3.9",
       r"(?:Removed offset for .* due to tombstone entry|Ignoring redundant tombstone for .*)\.",
       "Removed offset for [g,t,0] due to tombstone entry."),
    _q("quiet.broker.mixed_commits", B, "0.11-3.9",
       r"group: \S+ with leader: .* has received offset commits from consumers as well as transactional producers\..*",
       "group: g with leader: m1 has received offset commits from consumers as well as transactional producers. Mixing both"),
    _q("quiet.broker.offset_bookkeeping", B, "0.10-3.9",
       r"(?:Loaded offset \d+ for \S+\.|Collecting expired offsets\.|Found \d+ expired offsets\.|Removed \d+ cached (?:offsets|groups) for \S+ on follower transition\.)",
       "Found 3 expired offsets."),
    _q("quiet.broker.load_phases", B, "0.10-3.9",
       r"(?:Started|Not) (?:loading|unloading|removing) offsets and group metadata (?:from|for) .*",
       "Started loading offsets and group metadata from __consumer_offsets-12 for epoch 3"),
    _q("quiet.broker.expired_offset_removal", B, "0.10-3.9",
       r"(?:Removing expired(?:/deleted)? offset and metadata for .*|Failed to mark \d+ expired offsets for deletion in \S+\.)",
       "Removing expired/deleted offset and metadata for g, t-0: OffsetAndMetadata(5)"),
    _q("quiet.broker.load_warnings", B, "0.11-3.9",
       r"(?:Loaded offsets and group metadata from .* with buffer larger .*|Unknown message key with version .*)",
       "Unknown message key with version 9 while loading offsets and group metadata from __consumer_offsets-12. Ignoring it."),
    _q("quiet.broker.loaded_with_offsets", B, "0.11-3.9",
       r"(?:Loaded group metadata .* with offsets .* and pending offsets .*|Initialized offsets .* for group \S+)",
       "Initialized offsets Map(t-0 -> 5) for group g"),
    _q("quiet.broker.group_tombstoned", B, "0.11-3.9",
       r"(?:Group \S+ removed from the metadata cache and marked for deletion in \S+\.|(?:Successfully appended|Failed to append) \d+ tombstones to .*)",
       "Group g removed from the metadata cache and marked for deletion in __consumer_offsets-12."),
    _q("quiet.broker.txn_marker_moved", B, "0.11-3.9",
       r"Group \S+ has moved away from .* after transaction marker was written.*",
       "Group g has moved away from 1 after transaction marker was written but before the cache was updated."),
    _q("quiet.broker.protocol_unparsable", B, "2.1-3.9",
       r"Failed to parse Consumer Protocol .* of group \S+\..*",
       "Failed to parse Consumer Protocol consumer:range of group g. Consumer group coordinator is not aware of the subscribed topics."),
    _q("quiet.broker.txn_offset_commit", B, "0.11-3.9", r"TxnOffsetCommit for producer .* and group \S+ with offsets? .*",
       "TxnOffsetCommit for producer 7 and group g with offsets Map(t-0 -> 5) is pending"),
    _q("quiet.broker.expired_offsets_of_group", B, "2.1-3.9", r"Expired offsets from group '[^']*': .*",
       "Expired offsets from group 'g': Set(t-0)"),
    # ------------------------------------------------------------------ Java broker (3.7+)
    _q("quiet.broker.unknown_group_type", B, "3.7-4.x",
       r"(?:(?:Removed|Loaded) group \S+|onUnloaded group) with an unknown group type .*",
       "Loaded group g with an unknown group type SHARE."),
    _q("quiet.broker.group_gone", B, "3.7-4.x", r"Cannot find the group, skipping (?:the initial )?rebalance stage\.",
       "Cannot find the group, skipping rebalance stage."),
    _q("quiet.broker.offset_tombstones", B, "3.7-4.x",
       r"Generated \d+ tombstone records in \d+ milliseconds while deleting offsets for partitions .*",
       "Generated 2 tombstone records in 1 milliseconds while deleting offsets for partitions [t-0]."),
    _q("quiet.broker.request_failed", B, "3.7-4.x",
       r"(?:[A-Za-z]+ request|Operation) .* hit an unexpected exception: .*",
       "JoinGroup request JoinGroupRequestData(groupId=g) hit an unexpected exception: boom"),
    _q("quiet.broker.service", B, "3.7-4.x",
       r"(?:Could not delete offsets for deleted partitions .*|Group coordinator is already (?:running|shutting down)\.)",
       "Group coordinator is already running."),
    # ------------------------------------------------------------------ Java consumer: lookups, offsets, commits
    _q("quiet.client.coordinator_lookup", C, "0.10-4.x",
       r"(?:Coordinator discovery failed(?: for group \S+)?, refreshing metadata|Group coordinator lookup (?:for group \S+ )?failed: .*"
       r"|No broker available to send (?:GroupCoordinator|FindCoordinator) request(?: for group \S+)?|FindCoordinator request failed due to .*"
       r"|Received (?:group coordinator|GroupCoordinator|FindCoordinator) response .*|Sending (?:coordinator|GroupCoordinator|FindCoordinator) request (?:for group \S+ )?to broker .*)",
       "Coordinator discovery failed, refreshing metadata"),
    # aiokafka's client (aiokafka/client.py, not a catalogued module) names its lookups by key: as before the
    # Java consumer's lookup became a candidate, counted unrelated
    _q("quiet.client.aiokafka_find_coordinator", OT, "aiokafka", r"Sending FindCoordinator request for key \S+ to broker \S+",
       "Sending FindCoordinator request for key g to broker 1", provenance="source:aiokafka/client.py (_find_coordinator_id)"),
    _q("quiet.client.heartbeat_thread_trouble", C, "0.10-4.x",
       r"(?:Ignoring heartbeat response with error .* during .* state|Heartbeat thread(?: for group \S+)? failed due to unexpected error"
       r"|An authentication error occurred in the heartbeat thread|Unexpected interrupt received in heartbeat thread(?: for group \S+)?"
       r"|Interrupted while waiting for consumer heartbeat thread to close)",
       "Heartbeat thread for group g failed due to unexpected error"),
    _q("quiet.client.auto_commit", C, "0.10-1.1",
       r"(?:Auto-commit of offsets .* for group \S+ (?:timed out|was interrupted) before completion|Cannot auto-commit offsets for group \S+ since the coordinator is unknown"
       r"|Completed (?:a?synchronous )?auto-?commit of offsets .*|Sending (?:a)?synchronous auto-commit of offsets .*|Auto-commit of offsets .* (?:timed out|was interrupted) before completion"
       r"|(?:Asynchronous|Synchronous) auto-commit of offsets .* failed due to retriable error.*|Asynchronous auto-commit of offsets failed with retryable error: .*)",
       "Completed autocommit of offsets {t-0=5} for group g"),
    _q("quiet.client.offset_fetch", C, "0.10-4.x",
       r"(?:Fetching committed offsets for partitions: .*|Group \S+ (?:fetching committed offsets for partitions: .*|has no committed offset for partition .*"
       r"|committed offset -?\d+ for partition .*|failed to fetch offset for partition .*)|Offset fetch for group \S+ failed: .*)",
       "Group g has no committed offset for partition t-0"),
    _q("quiet.client.offset_commit_request", C, "0.10-4.x",
       r"Sending (?:offset-commit|OffsetCommit) request with .* to coordinator .*",
       "Sending OffsetCommit request with {t-0=5} to coordinator kafka-1:9092 (id: 2147483646 rack: null) for group g"),
    _q("quiet.client.close_timeout", C, "0.10-4.x",
       r"Close timed out with \d+ pending requests to coordinator, terminating client connections(?: for group \S+)?\.?",
       "Close timed out with 1 pending requests to coordinator, terminating client connections for group g."),
    _q("quiet.client.empty_group_id", C, "2.2-3.x",
       r"Support for using the empty group id by consumers is deprecated.*",
       "Support for using the empty group id by consumers is deprecated and will be removed in the next major release."),
    _q("quiet.client.leader_topics", C, "0.10-4.x",
       r"The following (?:not-subscribed topics are assigned|subscribed topics are not assigned to any members) (?:to |in )?(?:the )?(?:group \S+)?.*",
       "The following subscribed topics are not assigned to any members in the group g : [t9]"),
    _q("quiet.client.listener_failed", C, "0.10-4.x", r"User provided listener .* failed on .*",
       "User provided listener org.example.Listener for group g failed on partition assignment"),
    _q("quiet.client.commit_unauthorized", C, "kafka-python, aiokafka", r"OffsetCommit failed for unauthorized topics .*",
       "OffsetCommit failed for unauthorized topics {'t'}",
       provenance="source:kafka-python / aiokafka consumer coordinators (jobs/ingest/catalogue/data)"),
    _q("quiet.client.new_consumer", C, "3.7-4.x",
       r"(?:Auto-commit before reconciling new assignment completed successfully\.|Fenced member onPartitionsLost callback completed.*|Leave group operation already in progress for member .*"
       r"|Member \S+ with epoch -?\d+ got (?:fatal error from the broker|fenced before sending leave group heartbeat|fenced but it (?:already left|is already leaving)).*"
       r"|Member \S+ with epoch -?\d+ transitioned to \S+ after a heartbeat was sent.*|Target assignment (?:.* received from the broker is equals to .*|updated from .*)|There are unresolved partitions.*|Topic Ids .* received in target assignment.*"
       r"|Ignoring (?:heartbeat response received from broker|new assignment .* received from server|reconciliation attempt).*|The \S+ method completed successfully; signaling to continue.*"
       r"|Member \S+ completed callback to release assignment and will send leave group heartbeat|OffsetFetch failed with .*|Refreshing committed offsets for partitions .*"
       r"|The committed offsets for the following partition\(s\) could not be refreshed.*|Operation not supported in new consumer group protocol|Couldn't refresh committed offsets before timeout expired"
       r"|No group (?:metadata|instance ID) found although .* This is a bug!)",
       "Ignoring reconciliation attempt. Another reconciliation is already in progress."),
    _q("quiet.spring.container", C, "spring-kafka 2.2-3.x",
       r"(?:Paused consumer resumed by Kafka due to rebalance; .*|Producer or '\S+' fenced during transaction|Could not pause for nack, possible rebalance in process: .*"
       r"|Could not restore the stack trace when decorating the LEFE with the group id|No current assignment for partition '.*' due to partition reassignment prior to seeking\.)",
       "Could not pause for nack, possible rebalance in process: boom"),
    # ------------------------------------------------------------------ Kafka Connect: every other line of its
    # group-membership classes (their wordings are in the catalogue, declared unrelated)
    _q("quiet.connect.membership_classes", CN, "0.10-4.x", r".*", "Finished assignment",
       logger=r"(?:^|\.)(?:DistributedHerder|IncrementalCooperativeAssignor|EagerAssignor|WorkerCoordinator|WorkerGroupMember)(?::\d+)?$"),
    # ------------------------------------------------------------------ Kafka Streams: lines without a group fact
    _q("quiet.streams.thread", C, "0.10-4.x", r"stream-(?:thread|client) \[[^\]]*\] ?.*",
       "stream-thread [app-StreamThread-1] Skipping task creation in rebalance because we are already in PENDING_SHUTDOWN state."),
    # ------------------------------------------------------------------ rust-rdkafka: its rebalance callback's trace
    # and error lines (librdkafka's own lines, which it passes on, carry the facts)
    _q("quiet.rust_rdkafka.rebalance", OT, "rust-rdkafka 0.20+",
       r"(?:Running (?:pre-|post-)?rebalance with .*|Error rebalancing: .*|invalid rebalance event: .*)",
       "Running pre-rebalance with Assign(TPL {orders/0: offset=Invalid metadata=\"\", error=Ok(())})",
       provenance="source:rust-rdkafka src/consumer (catalogue/data/rust-rdkafka.yaml)"),
)  # fmt: skip

