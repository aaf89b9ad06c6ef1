"""Message dialects: every group-coordinator log message rebalance-lens understands, in ONE table.

A :class:`Dialect` maps one message wording (of one Kafka version range, or of another client) to a
canonical event ``kind`` of :data:`coordinator_core.events.EVENT_KINDS`. Its ``regex`` (RE2) runs on
the message *body*: the message after the well-known context prefix, which the parser removes and
reads first (:data:`BODY_PREFIX`):

* broker ``[GroupCoordinator 1]: `` (Scala), ``[GroupCoordinator id=1 topic=__consumer_offsets
  partition=15] `` (Java 3.7+/4.x) and ``[GroupMetadataManager brokerId=1] `` give ``coordinator``
  (and ``offsets_partition``);
* client ``[Consumer clientId=c, groupId=g] `` / ``[Consumer instanceId=i, clientId=c, groupId=g] ``
  and Connect ``[Worker clientId=c, groupId=g] `` give ``client_id``, ``group_instance_id`` and
  ``group_id`` (side ``connect`` for Worker lines);
* librdkafka's ``[thrd:main]: ``.

Named groups of the regex become event fields (``group_id``, ``member_id``, ``generation``,
``reason``, ``state``, ``protocol``, ``member_count``, ``static_count``, ``error``,
``old_member_id``, ``host``, ``client_id``, ``group_instance_id``, ``operation``,
``offsets_partition``, ``coordinator``) or are helpers converted by the parser: ``node_id``
(client-side coordinator node ``(id: 2147483646 rack: null)`` → broker id = 2147483647 − node id),
``partitions_raw`` (any rendering: ``[t-0, t-1]``, ``t-0, t-1``, ``{[t-0]}``, kafka-python
``TopicPartition(topic='t', partition=0)``), ``members_raw`` (``Set(a, b)``/``[a, b]``/``(a, b)``),
``assignment_raw`` (the leader's ``{m=Assignment(partitions=[t-0]), ...}``), ``groups_raw`` (one
event per listed group), ``static_word`` (``Static``/``Dynamic``). ``fixed`` sets constant fields.
Macros keep the table readable: ``{G}`` group id, ``{M}`` member id, ``{N}`` generation, ``{ST}``
state, ``{P}`` Scala's `` (__consumer_offsets-12)``, ``{NODE}`` a client-side Node, ``{GENOBJ}``
``Generation{generationId=4, memberId='m', protocol='range'}``, ``{IID}`` an instance-id rendering
(``Some(i)``/``None``/``null``/``Optional[i]``), ``{R}`` the rest as ``reason``.

``kind=None`` marks recognised coordinator lines that carry no group fact (lifecycle, partition
loading, offset expiry); they are counted as *unrelated*, never quarantined. Lines that pass the
group prefilter (:data:`GROUP_PREFILTER`) but match no dialect are quarantined as
``group_line_not_understood``. A dialect without ``{G}`` (Kafka logs some lines while handling one
group's request without naming it) gets its group from context: the parser's
``attribute_groups`` (else ``group_unknown``).

How to add a dialect:

1. append a ``Dialect(...)`` to its family's table, near its relatives: the classic Java broker and
   client wordings below, the KIP-848 ones in :mod:`jobs.ingest.dialects_kip848`, the non-Java
   clients' in :mod:`jobs.ingest.dialects_nonjava` (the model, macros and helpers are in
   :mod:`jobs.ingest.dialect_model`) (the first matching dialect wins, so put a
   more specific wording before a more general one); ``example`` is one body the regex must match;
2. add golden lines (one per Kafka version that logs it, in a real layout) with the expected
   fields to the family's file under ``tests/fixtures/dialects/`` (JSON lines ``{"line": ...,
   "expected": {"kind": ..., "group_id": ..., ...}}``);
3. run ``pytest tests/ingest`` - ``test_dialect_examples`` checks every ``example`` and
   ``test_golden_fixtures`` every fixture line;
4. ``tests/ingest/test_catalogue_java.py`` checks the table against the message catalogue: a dialect
   reads a catalogued statement, or its ``provenance`` says where its wording comes from.
"""

from __future__ import annotations

import re

from coordinator_core.events import EVENT_KINDS
from jobs.ingest import dialect_model as DM
from jobs.ingest.dialect_errors import ERROR_MESSAGES, ERROR_NAME  # noqa: F401 - read as D.ERROR_*
from jobs.ingest.dialect_model import (  # noqa: F401 - re-exported: the parser reads them as D.*
    CN,
    FIELD_GROUPS,
    HELPER_GROUPS,
    LEAVE,
    MACROS,
    OT,
    PYTHON_LOGGER,
    RDKAFKA_FACILITY,
    B,
    C,
    Dialect,
    first_words,
    literal_prefix,
)
from jobs.ingest.dialect_model import dialect as _d
from jobs.ingest.dialects_callbacks import CALLBACKS
from jobs.ingest.dialects_callbacks import PREFILTER as CALLBACK_PREFILTER
from jobs.ingest.dialects_client import CLIENT_MORE
from jobs.ingest.dialects_dotnet import DOTNET
from jobs.ingest.dialects_elixir import ELIXIR
from jobs.ingest.dialects_jvm import ALPAKKA, JVM, SCS
from jobs.ingest.dialects_kafkaflow import KAFKAFLOW
from jobs.ingest.dialects_kip848 import KIP848
from jobs.ingest.dialects_node import NODE
from jobs.ingest.dialects_nonjava import NON_JAVA
from jobs.ingest.dialects_quiet import QUIET
from jobs.ingest.dialects_ruby import RUBY
from jobs.ingest.dialects_streams import STREAMS_CONNECT
from jobs.ingest.open_wordings_table import OPEN as _OPEN

#: cheap RE2 prefilter on whole messages: a line that does not match is about something else and
#: is only counted (``groupId=`` of the client prefix and the ``[GroupMetadataManager brokerId=1]``
#: prefix are excluded on purpose: ``[Gg]roup[^IM]``; their lines still count when they mention a group;
#: the subscription and committed-position wordings are always candidates, so that they become
#: ``other`` events whatever the group is called)
GROUP_PREFILTER = (
    r"[Gg]roup[^IM]|[Gg]roup$|\[GroupId |[Gg]eneration|[Hh]eartbeat|[Rr]ebalanc|known coordinator"
    r"|assigned partitions|partitions (?:assigned|revoked|lost)|[Aa]ssignment|LeaveGroup|JoinGroup"
    r"|SyncGroup|CGRP|transitioned (?:from|to (?:FATAL|fatal) state)|poll timeout|[Cc]oordinator for consumerg(?:r)?oup|MemberIDRequired"
    r"|[Ss]tatic member|fenced|assigning partitions|revoking prior"
    r"|Subscribed to (?:topic|pattern)|Unsubscribed all topics|committed offset|consumer join: metadata|owns topics:|commit failed on partition|(?:Revoked|Assigned)Partitions: \["
    r"|client/coordinator (?:requesting )?coordinator for|calling onRevoke|join (?:and sync loop|returned)|sync(?:ed(?: successfully)?|ing| failed); |(?:^|[\t ])(?:sync(?:ed(?: successfully)?|ing| failed)|joined)(?:[;\t]|$| [\w.]+=)"
    r"|Partitions assigned for `|Partitions (?:assigned|revoked)(?:: \[| \| Data: )|\. All partitions: |Assigning new partitions: |SubSources for revoked|Error committing offsets|Coordinator broker still loading|ON PARTITIONS REVOKED"
    r"|Discovered coordinator|Marking the coordinator|auto-commit of offsets|OffsetCommit failed|Offset commit (?:with offsets .* )?failed|Auto-commit of offsets .* failed|stream-(?:thread|client|application) ?\[[^\]]*\] State transition"
    r"|" + CALLBACK_PREFILTER  # a callback's verb and a client's printed partition list (dialects_callbacks)
)

_PFX_CLIENT = (
    r"\[(?P<pfx_ctype>Consumer|Worker|Producer|AdminClient)(?: instanceId=(?P<pfx_iid>[^,\]]*),)?"
    r" clientId=(?P<pfx_cid>[^,\]]*), groupId=(?P<pfx_gid>[^\]]*)\] "
)
#: the alternatives of :data:`BODY_PREFIX` by the literal their messages start with (the parser
#: extracts each on its own rows: small regexes are much cheaper sub-matches than the alternation)
BODY_PREFIXES: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("[GroupCoordinator ", "[Group Metadata Manager on Broker "),
        r"^\[(?:GroupCoordinator (?:id=)?|Group Metadata Manager on Broker )(?P<pfx_broker>\d+)(?: topic=\S+ partition=(?P<pfx_opart>\d+))?\]:? ",
    ),
    (("[GroupMetadataManager brokerId=",), r"^\[GroupMetadataManager brokerId=(?P<pfx_broker2>\d+)\] "),
    (("[Consumer ", "[Worker ", "[Producer ", "[AdminClient "), "^" + _PFX_CLIENT),
    (("[thrd:",), r"^\[thrd:[^\]]*\]: "),
)
#: context prefix of a message (removed before the dialects run); a client prefix may follow an
#: MDC block ``[a|b] ``
BODY_PREFIX = (
    r"^(?:\[(?:GroupCoordinator (?:id=)?|Group Metadata Manager on Broker )(?P<pfx_broker>\d+)(?: topic=\S+ partition=(?P<pfx_opart>\d+))?\]:? "
    r"|\[GroupMetadataManager brokerId=(?P<pfx_broker2>\d+)\] "
    r"|(?:\[[^\]|]*\|[^\]]*\] )?" + _PFX_CLIENT + r"|\[thrd:[^\]]*\]: )"
)
PREFIX_FIELDS = ("pfx_broker", "pfx_broker2", "pfx_opart", "pfx_ctype", "pfx_iid", "pfx_cid", "pfx_gid")

#: fields read from the tab-indented block that follows a dialect's head line (its ``continuation``):
#: dialect id -> ((event field, regex with group ``v``), ...); partition fields are lists, member_id a
#: string (applied before redaction, so a redacted id in the block is replaced like one in the line)
BLOCK_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "client.updating_assignment": (("partitions", r"(?s)Assigned partitions:\s*(?P<v>\[[^\]]*\])"),),
    "kip848.client.reconciling": (
        ("member_id", r"Member:\s*(?P<v>[^\s<]\S*)"),
        ("partitions", r"Added partitions \(assigned - owned\):\s*(?P<v>\[[^\]]*\])"),
        ("revoked", r"Revoked partitions \(owned - assigned\):\s*(?P<v>\[[^\]]*\])"),
    ),
}

DIALECTS: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ broker: rebalance lifecycle
    _d("broker.prepare_rebalance", "rebalance_prepared", B, "2.1-4.x",
       r"Preparing to rebalance group {G} in state {ST} with old generation {N}{P} \(reason: {R}\)\.?",
       "Preparing to rebalance group g in state PreparingRebalance with old generation 3 (__consumer_offsets-12) "
       "(reason: removing member m1 on heartbeat expiration)"),
    # (the same line cut inside its reason: a screen capture or a truncating viewer)
    _d("broker.prepare_rebalance.cut", "rebalance_prepared", B, "2.1-4.x",
       r"Preparing to rebalance group {G} in state {ST} with old generation {N}{P} \(reason: {R}",
       "Preparing to rebalance group g in state PreparingRebalance with old generation 3 (reason: explicit `LeaveGroup` request for (m1"),
    _d("broker.prepare_rebalance.v0_11", "rebalance_prepared", B, "0.11-2.0",
       r"Preparing to rebalance group {G} with old generation {N}{P}",
       "Preparing to rebalance group g with old generation 3 (__consumer_offsets-12)"),
    _d("broker.prepare_restabilize.v0_10", "rebalance_prepared", B, "0.9-0.10",
       r"Preparing to restabilize group {G} with old generation {N}",
       "Preparing to restabilize group g with old generation 0"),
    _d("broker.stabilized", "join_completed", B, "0.10-4.x",
       r"Stabilized group {G} generation {N}{P}(?: with (?P<member_count>\d+) members)?\.?",
       "Stabilized group g generation 4 (__consumer_offsets-12) with 2 members"),
    _d("broker.group_empty", "group_empty", B, "0.10-4.x",
       r"Group {G} with generation {N} is now empty{P}\.?",
       "Group g with generation 5 is now empty (__consumer_offsets-12)"),
    _d("broker.group_dead_removed.v0_10", "group_dead", B, "0.9-0.10",
       r"Group {G} generation {N} is dead and removed", "Group g generation 2 is dead and removed"),
    _d("broker.empty_write_failed", "other", B, "0.10-3.9",
       r"Failed to write empty metadata for group {G}: {R}", "Failed to write empty metadata for group g: NOT_LEADER"),
    _d("broker.metadata_append_failed", "other", B, "0.10-3.9",
       r"Metadata from group {G} with generation {N} failed when appending to log due to {R}",
       "Metadata from group g with generation 4 failed when appending to log due to NOT_LEADER_OR_FOLLOWER"),
    _d("broker.metadata_append_failed.error", "other", B, "0.10-3.9",
       r"Appending metadata message for group {G} generation {N} failed due to (?:unexpected error: )?{R}",
       "Appending metadata message for group g generation 4 failed due to RECORD_LIST_TOO_LARGE, returning UNKNOWN error code to the client"),
    _d("broker.load_cached_conflict", "other", B, "0.11-3.9",
       r"Attempt to load group {G} from log with generation {N} failed because there is already a cached group with generation \d+",
       "Attempt to load group g from log with generation 4 failed because there is already a cached group with generation 5"),
    _d("broker.mark_deleted_failed", "other", B, "0.10-0.11",
       r"Failed to mark group {G} as deleted in \S+\.", "Failed to mark group g as deleted in __consumer_offsets-12."),
    _d("broker.removed_not_joined", "members_removed_not_joined", B, "2.7-4.x",
       r"Group {G} removed? dynamic members who haven't joined: (?P<members_raw>.*)",
       "Group g removed dynamic members who haven't joined: Set(m1, m2)"),
    _d("broker.sync_expired", "sync_expired", B, "2.8.1-4.x",
       r"Group {G} removed members who haven't sent their sync requests?: (?P<members_raw>.*)",
       "Group g removed members who haven't sent their sync request: Set(m2)"),
    _d("broker.dead_skipping", "group_dead", B, "2.3-4.x",
       r"Group {G} is dead, skipping rebalance stage\.?", "Group g is dead, skipping rebalance stage"),
    _d("broker.no_member_rejoined", "no_member_rejoined", B, "2.3-4.x",
       r"Group {G} could not complete rebalance because no members rejoined\.?",
       "Group g could not complete rebalance because no members rejoined"),
    _d("broker.transitioned_dead", "group_dead", B, "1.1-3.9",
       r"Group {G} transitioned to Dead in generation {N}", "Group g transitioned to Dead in generation 7"),
    _d("broker.assignment_received", "assignment_received", B, "3.0-4.x",
       r"Assignment received from leader {M} for group {G} for generation {N}\. The group has (?P<member_count>\d+) members, (?P<static_count>\d+) of which are static\.",
       "Assignment received from leader m1 for group g for generation 4. The group has 2 members, 0 of which are static."),
    _d("broker.assignment_received.v2_8", "assignment_received", B, "2.8",
       r"Assignment received from leader for group {G} for generation {N}\. The group has (?P<member_count>\d+) members, (?P<static_count>\d+) of which are static\.",
       "Assignment received from leader for group g for generation 4. The group has 2 members, 1 of which are static."),
    _d("broker.assignment_received.v0_10", "assignment_received", B, "0.10-2.7",
       r"Assignment received from leader for group {G} for generation {N}",
       "Assignment received from leader for group g for generation 4"),
    _d("broker.empty_assignments", "other", B, "2.5-4.x",
       r"Setting empty assignments for members (?P<members_raw>.*) of {G} for generation {N}\.?",
       "Setting empty assignments for members Set(m2) of g for generation 4"),
    _d("broker.empty_assignment_sent", "other", B, "2.5-4.x",
       r"Sending empty assignment to member {M} of {G} for generation {N} with no errors",
       "Sending empty assignment to member m2 of g for generation 4 with no errors"),
    # ------------------------------------------------------------------ broker: members
    _d("broker.member_failed", "member_session_expired", B, "0.10-4.x",
       r"Member {M} in group {G} has failed(?:, removing it from the group)?\.?",
       "Member m1 in group g has failed, removing it from the group"),
    # (a redacted group id glued to the word: "in group***")
    _d("broker.member_failed.glued", "member_session_expired", B, "0.10-4.x",
       r"Member {M} in group(?P<group_id>\*+) has failed, removing it from the group\.?",
       "Member *** in group*** has failed, removing it from the group",
       provenance='excerpt:b-librdkafka-redacted-strimzi-empty-group'),
    _d("broker.static_member_loaded", "other", B, "2.4-2.8",
       r"Static member {MEMBERMETA}\.groupInstanceId of group {G} loaded with member id (?P<old_member_id>\S+) at generation {N}\.",
       "Static member MemberMetadata(memberId=m1, groupInstanceId=Some(i1), clientId=c1, clientHost=/10.0.0.1, "
       "sessionTimeoutMs=10000, rebalanceTimeoutMs=60000, supportedProtocols=List(range), ).groupInstanceId of group g "
       "loaded with member id m1 at generation 1."),
    _d("broker.pending_member_expired", "pending_member_expired", B, "2.2-4.x",
       r"Pending member {M} in group {G} has been removed after session timeout expiration\.",
       "Pending member m3 in group g has been removed after session timeout expiration."),
    _d("broker.already_removed", None, B, "2.2-3.9",
       r"Member {M} has already been removed from the group\.", "Member m1 has already been removed from the group."),
    _d("broker.expiry_after_unload", "other", B, "2.4-4.x",
       r"Received notification of heartbeat expiration for member {M} after group {G} had already been (?:unloaded or deleted|deleted or upgraded)\.",
       "Received notification of heartbeat expiration for member m1 after group g had already been unloaded or deleted."),
    _d("broker.member_not_found", "other", B, "2.4-3.9",
       r"Member id {M} was not found in {G} during heartbeat (?:completion check|expiration\.)",
       "Member id m1 was not found in g during heartbeat completion check"),
    _d("broker.dynamic_member_id_required", "member_id_required", B, "2.4-4.x",
       r"Dynamic member with unknown member id (?:joins|rejoins) group {G} in {ST} state\. Created a new member id {M} and request(?:ing)? the member to rejoin with this id\.",
       "Dynamic member with unknown member id joins group g in Stable state. Created a new member id m4 and request the member to rejoin with this id."),
    _d("broker.dynamic_member_added.java", "member_added", B, "3.7-4.x",
       r"Dynamic member with unknown member id joins group {G} in state {ST}\. Created a new member id {M} and added the member to the group\.",
       "Dynamic member with unknown member id joins group g in state Empty. Created a new member id m4 and added the member to the group.",
       fixed={"static": False}),
    _d("broker.member_added_unknown_id", "member_added", B, "2.5-3.9",
       r"(?P<static_word>Static|Dynamic) [Mm]ember with unknown member id (?:joins|rejoins) group {G} in {ST} state\. Created a new member id {M} for this member and add to the group\.",
       "Dynamic Member with unknown member id joins group g in Empty state. Created a new member id m4 for this member and add to the group."),
    _d("broker.pending_member_joins", "member_added", B, "3.0-4.x",
       r"Pending dynamic member with id {M} joins group {G} in {ST} state\. Adding to the group now\.",
       "Pending dynamic member with id m4 joins group g in Stable state. Adding to the group now.",
       fixed={"static": False}),
    _d("broker.specific_member_joins.v2_5", "member_added", B, "2.5-2.8",
       r"Dynamic Member with specific member id {M} joins group {G} in {ST} state\. Adding to the group now\.",
       "Dynamic Member with specific member id m4 joins group g in Stable state. Adding to the group now.",
       fixed={"static": False}),
    _d("broker.static_member_new", "member_added", B, "3.0-4.x",
       r"Static member with groupInstanceId=(?P<group_instance_id>\S+) and unknown member id joins group {G} in {ST} state\. Created a new member id {M} for this member and add(?:ed)? to the group\.",
       "Static member with groupInstanceId=i1 and unknown member id joins group g in Empty state. Created a new member id m5 for this member and add to the group.",
       fixed={"static": True}),
    _d("broker.static_member_replaced", "static_member_replaced", B, "3.0-4.x",
       r"Static member with groupInstanceId=(?P<group_instance_id>\S+) and unknown member id joins group {G} in {ST} state\. Replacing previously mapped member (?P<old_member_id>\S+) with this groupInstanceId\.",
       "Static member with groupInstanceId=i1 and unknown member id joins group g in Stable state. Replacing previously mapped member m5 with this groupInstanceId."),
    _d("broker.static_member_added.v2_5", "member_added", B, "2.5-2.8",
       r"Adding new static member {IID} to group {G} with member id {M}\.",
       "Adding new static member Some(i1) to group g with member id m5.", fixed={"static": True}),
    _d("broker.static_member_replaced.v2_5", "static_member_replaced", B, "2.5-2.8",
       r"Static member {IID} of group {G} with unknown member id rejoins, assigning new member id {M}, while old member id (?P<old_member_id>\S+) will be removed\.",
       "Static member Some(i1) of group g with unknown member id rejoins, assigning new member id m6, while old member id m5 will be removed."),
    _d("broker.static_member_replaced.v2_3", "static_member_replaced", B, "2.3-2.4",
       r"Static member {IID} with unknown member id rejoins, assigning new member id {M}, while old member (?P<old_member_id>\S+) will be removed\.",
       "Static member Some(i1) with unknown member id rejoins, assigning new member id m6, while old member m5 will be removed."),
    _d("broker.static_no_rebalance", "static_member_no_rebalance", B, "2.3-4.x",
       r"Static member (?:which )?joins during {ST} stage (?:and doesn't affect (?:selectProtocol|the selected protocol) )?will not trigger (?:a )?rebalance\.",
       "Static member which joins during Stable stage and doesn't affect selectProtocol will not trigger rebalance."),
    _d("broker.static_persist_failed", "other", B, "2.7-3.9",
       r"Failed to persist metadata for group {G}: {R}", "Failed to persist metadata for group g: NOT_LEADER_OR_FOLLOWER"),
    _d("broker.fenced", "static_member_fenced", B, "3.0-4.x",
       r"Request memberId={M} for static member with groupInstanceId=(?P<group_instance_id>\S+) is fenced by (?:current|existing) memberId=(?P<old_member_id>\S+) during operation (?P<operation>\S+)",
       "Request memberId=m5 for static member with groupInstanceId=i1 is fenced by current memberId=m6 during operation heartbeat"),
    _d("broker.fenced.v2_3", "static_member_fenced", B, "2.3-2.8",
       r"given member\.id {M} is identified as a known static member (?P<group_instance_id>[^\s,]+), ?but not matching the expected member\.id (?P<old_member_id>[^\s,]+?)(?: during (?P<operation>\S+), will respond with instance fenced error)?",
       "given member.id m5 is identified as a known static member i1, but not matching the expected member.id m6 during heartbeat, will respond with instance fenced error"),
    _d("broker.rejoin_unexpected_state", "rejoin_unexpected_state", B, "2.2-4.x",
       r"Attempt to add rejoining member {M} of group {G} in unexpected group state {ST}",
       "Attempt to add rejoining member m1 of group g in unexpected group state Empty"),
    _d("broker.member_left", "member_left", B, "3.0-3.9",
       r"Member {MEMBERMETA} has left group {G} through explicit " + LEAVE + r"(?: request)?(?:; client reason: {R})?",
       "Member MemberMetadata(memberId=m1, groupInstanceId=None, clientId=c1, clientHost=/10.0.0.1, sessionTimeoutMs=45000, "
       "rebalanceTimeoutMs=300000, supportedProtocols=List(range)) has left group g through explicit `LeaveGroup`; client reason: the consumer is being closed"),
    _d("broker.member_left.v2_4", "member_left", B, "2.4-2.8",
       r"Member\[group\.instance\.id {IID}, member\.id {M}\] in group {G} has left, removing it from the group",
       "Member[group.instance.id None, member.id m1] in group g has left, removing it from the group"),
    _d("broker.member_left.v0_10", "member_left", B, "0.10-2.3",
       r"Member {M} in group {G} has left, removing it from the group",
       "Member m1 in group g has left, removing it from the group"),
    _d("broker.pending_member_left", "member_left", B, "3.0-3.9",
       r"Pending member with memberId={M} has left group {G} through explicit " + LEAVE + r" request",
       "Pending member with memberId=m4 has left group g through explicit `LeaveGroup` request", fixed={"pending": True}),
    _d("broker.pending_member_left.v2_2", "member_left", B, "2.2-2.8",
       r"Pending member {M} is leaving group {G}\.", "Pending member m4 is leaving group g.", fixed={"pending": True}),
    _d("broker.member_left.java", "member_left", B, "3.7-4.x",
       r"\[Group {G}\] Member {M} has left group through explicit " + LEAVE + r" request(?:; client reason: {R})?",
       "[Group g] Member m1 has left group through explicit `LeaveGroup` request; client reason: the consumer is being closed"),
    _d("broker.pending_member_left.java", "member_left", B, "3.7-4.x",
       r"\[Group {G}\] Pending member {M} has left group through explicit " + LEAVE + r" request(?:; client reason: {R})?",
       "[Group g] Pending member m4 has left group through explicit `LeaveGroup` request; client reason: not provided",
       fixed={"pending": True}),
    _d("broker.leader_reelected", "leader_reelected", B, "2.3-3.9",
       r"Group leader \[member\.id: (?P<old_member_id>\S+?), group\.instance\.id: {IID}\] failed to join before rebalance timeout, while new leader MemberMetadata\(memberId=(?P<member_id>[^,]+),.*\) was elected\.",
       "Group leader [member.id: m1, group.instance.id: None] failed to join before rebalance timeout, while new leader "
       "MemberMetadata(memberId=m2, groupInstanceId=None, clientId=c2, clientHost=/10.0.0.2, sessionTimeoutMs=45000, "
       "rebalanceTimeoutMs=300000, supportedProtocols=List(range)) was elected."),
    _d("broker.leader_reelected.java", "leader_reelected", B, "3.7-4.x",
       r"Group leader \[memberId: (?P<old_member_id>\S+?), groupInstanceId: {IID}\] failed to join before the rebalance timeout\. Member {M} was elected as the new leader\.",
       "Group leader [memberId: m1, groupInstanceId: null] failed to join before the rebalance timeout. Member m2 was elected as the new leader."),
    _d("broker.leader_gone_no_member", "no_member_rejoined", B, "2.3-4.x",
       r"Group leader \[(?:member\.id|memberId): (?P<old_member_id>\S+?), (?:group\.instance\.id|groupInstanceId): {IID}\] failed to join before (?:the )?rebalance timeout,?(?:\.| and)? ?the group couldn't proceed to (?:the )?next generation ?because no member joined\.",
       "Group leader [member.id: m1, group.instance.id: Some(i1)] failed to join before rebalance timeout, and the group couldn't proceed to next generationbecause no member joined."),
    # ------------------------------------------------------------------ broker: load / unload / cleanup
    _d("broker.loaded_group.trace", "group_loaded", B, "0.10",
       r"Loaded group metadata for group {G} with generation {N}", "Loaded group metadata for group g with generation 7"),
    _d("broker.loading_group", "group_loaded", B, "0.10-3.9",
       r"Loading group metadata for {G} with generation {N}", "Loading group metadata for g with generation 7"),
    _d("broker.unloading_group", "group_unloaded", B, "0.10-3.9",
       r"Unloading group metadata for {G} with generation {N}", "Unloading group metadata for g with generation 7"),
    _d("broker.loaded_classic_group", "group_loaded", B, "3.7-4.x",
       r"Loaded classic group {G} with (?P<member_count>\d+) members\.", "Loaded classic group g with 2 members."),
    _d("broker.loaded_member_classic", "other", B, "3.7-4.x",
       r"Loaded member {M} in classic group {G}\.", "Loaded member m1 in classic group g."),
    _d("broker.unloading_group.java", "group_unloaded", B, "3.7-4.x",
       r"\[GroupId=(?P<group_id>[^\]]+)\] Unloading group metadata for generation {N}\.",
       "[GroupId=g] Unloading group metadata for generation 7."),
    _d("broker.loaded_member", "other", B, "2.8-3.9",
       r"Loaded member {MEMBERMETA} in group {G} with generation {N}\.",
       "Loaded member MemberMetadata(memberId=m1, groupInstanceId=None, clientId=c1, clientHost=/10.0.0.1, sessionTimeoutMs=45000, "
       "rebalanceTimeoutMs=300000, supportedProtocols=List(range)) in group g with generation 7."),
    _d("broker.groups_deleted", "group_dead", B, "1.1-4.x",
       r"The following groups were deleted: (?P<groups_raw>.*?)(?:\. A total of \d+ offsets were removed\.)?",
       "The following groups were deleted: g1, g2. A total of 3 offsets were removed."),
    _d("broker.offsets_deleted", "other", B, "2.4-4.x",
       r"The following offsets of the group {G} were deleted: .*", "The following offsets of the group g were deleted: t-0. A total of 1 offsets were removed."),
    _d("broker.simple_group_commit", "other", B, "4.x",
       r"Creating simple consumer group {G} via manual offset commit\.", "Creating simple consumer group g via manual offset commit."),
    _d("broker.simple_group_commit.java", "other", B, "4.x",
       r"\[GroupId {G}\] Creating a simple consumer group via manual offset commit\.",
       "[GroupId g] Creating a simple consumer group via manual offset commit."),
    _d("broker.sync_expiry_old_generation", "sync_expired", B, "2.8.1-4.x",
       r"Received unexpected notification of sync expiration for {G} with an old generation \d+ while the group has {N}\.",
       "Received unexpected notification of sync expiration for g with an old generation 3 while the group has 4.",
       fixed={"unexpected": True}),
    _d("broker.sync_expiry_after_transition", "sync_expired", B, "2.8.1-4.x",
       r"Received unexpected notification of sync expiration after group {G} already transitioned to (?:the )?{ST} state\.",
       "Received unexpected notification of sync expiration after group g already transitioned to the Stable state.",
       fixed={"unexpected": True}),
    _d("broker.no_longer_coordinator", "other", B, "1.0-3.9",
       r"BrokerId \d+ is no longer a coordinator for the group {G}\. Proceeding cleanup for other alive groups",
       "BrokerId 1 is no longer a coordinator for the group g. Proceeding cleanup for other alive groups"),
    _d("broker.cannot_complete_join", "other", B, "3.7-4.x",
       r"Cannot complete join phase of group {G} because {R}", "Cannot complete join phase of group g because the group is in Empty state."),
    _d("broker.elected_resigned", None, B, "2.8-3.9",
       r"(?:Elected as|Resigned as) the group coordinator for partition (?P<offsets_partition>\d+)(?: in epoch \d+)?",
       "Elected as the group coordinator for partition 12 in epoch 3"),
    _d("broker.lifecycle", None, B, "0.10-4.x",
       r"(?:Starting up|Startup complete|Shutting down|Shutdown complete)\.?", "Startup complete."),
    _d("broker.expired_offsets", None, B, "0.10-3.9",
       r"Removed \d+ (?:expired offsets in \d+ milliseconds|offsets associated with deleted partitions: .*)\.?",
       "Removed 0 expired offsets in 1 milliseconds."),
    _d("broker.offsets_loading", None, B, "0.10-3.9",
       r"(?:Scheduling loading of offsets and group metadata from|Finished loading offsets and group metadata from|Scheduling unloading of offsets and group metadata from|Already loading offsets and group metadata from|Attempted to load offsets and group metadata from|Error loading offsets from|Finished unloading) .*",
       "Scheduling loading of offsets and group metadata from __consumer_offsets-12 for epoch 3"),
    _d("broker.java_runtime_loading", None, B, "3.7-4.x",
       r"(?:Scheduling loading of metadata from|Finished loading of metadata from|Scheduling unloading of metadata for) .*",
       "Scheduling loading of metadata from __consumer_offsets-12 with epoch 3",
       provenance="source:CoordinatorRuntime partition loading (names no group: outside the catalogue's filter)"),
    _d("broker.tombstones", None, B, "3.7-4.x",
       r"Generated \d+ tombstone records while cleaning up group metadata in \d+ milliseconds\.",
       "Generated 0 tombstone records while cleaning up group metadata in 1 milliseconds."),
    *KIP848,
    # ------------------------------------------------------------------ client: coordinator
    _d("client.discovered", "coordinator_discovered", C, "0.10-4.x",
       r"Discovered (?:group )?coordinator {NODE}(?: for group {G})?\.?",
       "Discovered group coordinator kafka-1:9092 (id: 2147483646 rack: null)"),
    _d("client.coordinator_unavailable", "coordinator_lost", C, "2.7-4.x",
       r"Group coordinator {NODE} is unavailable or invalid due to cause: (?P<reason>.*?)\.(?: ?isDisconnected: (?:true|false)\.)? Rediscovery will be attempted\.",
       "Group coordinator kafka-1:9092 (id: 2147483646 rack: null) is unavailable or invalid due to cause: coordinator unavailable. isDisconnected: false. Rediscovery will be attempted."),
    _d("client.coordinator_unavailable.v2_0", "coordinator_lost", C, "2.0-2.6",
       r"Group coordinator {NODE} is unavailable or invalid, will attempt rediscovery",
       "Group coordinator kafka-1:9092 (id: 2147483646 rack: null) is unavailable or invalid, will attempt rediscovery"),
    _d("client.coordinator_dead.v0_10", "coordinator_lost", C, "0.10-1.1",
       r"Marking the coordinator {NODE} dead(?: for group {G})?\.?",
       "Marking the coordinator kafka-1:9092 (id: 2147483646 rack: null) dead for group g"),
    _d("client.disconnect_coordinator", "coordinator_lost", C, "3.1-4.x",
       r"Requesting disconnect from last known coordinator {NODE}",
       "Requesting disconnect from last known coordinator kafka-1:9092 (id: 2147483646 rack: null)",
       fixed={"reason": "requesting disconnect from last known coordinator"}),
    # ------------------------------------------------------------------ client: join / sync
    _d("client.joining", "join_sent", C, "0.10-4.x", r"\(Re-\)joining group(?: {G})?", "(Re-)joining group"),
    _d("client.joined", "joined", C, "2.7-4.x", r"Successfully joined group with generation {GENOBJ}",
       "Successfully joined group with generation Generation{generationId=4, memberId='m1', protocol='range'}"),
    _d("client.joined.v0_10", "joined", C, "0.10-2.6", r"Successfully joined group(?: {G})? with generation {N}",
       "Successfully joined group with generation 4"),
    _d("client.join_failed_with", "join_failed", C, "2.2-2.6", r"Join group failed with {R}",
       "Join group failed with org.apache.kafka.common.errors.MemberIdRequiredException: The group member needs to "
       "have a valid member id before actually entering a consumer group"),
    _d("client.issuing_join_group", "join_sent", C, "0.9-0.10",
       r"Issuing request \(JOIN_GROUP: \{group_id=(?P<group_id>[^,]+),session_timeout=\d+,member_id=(?P<member_id>[^,]*),.*\}\) to coordinator (?P<node_id>\d+)",
       "Issuing request (JOIN_GROUP: {group_id=g,session_timeout=15000,member_id=m1,protocol_type=consumer,"
       "group_protocols=[{protocol_name=range,protocol_metadata=java.nio.HeapByteBuffer[pos=0 lim=22 cap=22]}]}) to coordinator 2147483646",
       provenance='excerpt:c-springkafka195-custom-log4j-pre23'),
    _d("client.join_failed", "join_failed", C, "2.7-4.x", r"JoinGroup failed:? (?P<reason>.*?)(?: Sent generation was {GENOBJ})?",
       "JoinGroup failed: The coordinator is not aware of this member. Need to re-join the group. Sent generation was Generation{generationId=4, memberId='m1', protocol='range'}"),
    _d("client.join_failed.v2_0", "join_failed", C, "0.10-2.6", r"Attempt to join group(?: {G})? failed due to {R}",
       "Attempt to join group failed due to unknown member id."),
    _d("client.finished_assignment", "leader_assigned", C, "0.10-4.x",
       r"Finished assignment for group(?: at generation {N}| {G})?: (?P<assignment_raw>\{.*\})",
       "Finished assignment for group at generation 4: {m1=Assignment(partitions=[t-0, t-1]), m2=Assignment(partitions=[t-2])}"),
    _d("client.skipped_assignment", "other", C, "3.2-4.x",
       r"Skipped assignment for returning static leader at generation {N}\. The static leader will continue with its existing assignment\.",
       "Skipped assignment for returning static leader at generation 4. The static leader will continue with its existing assignment."),
    _d("client.synced", "synced", C, "2.7-4.x", r"Successfully synced group in generation {GENOBJ}",
       "Successfully synced group in generation Generation{generationId=4, memberId='m1', protocol='range'}"),
    _d("client.sync_failed", "sync_failed", C, "2.7-4.x", r"SyncGroup failed(?::| due to)? ?(?P<reason>.*?)(?: Sent generation was {GENOBJ})?",
       "SyncGroup failed: The group began another rebalance. Need to re-join the group. Sent generation was Generation{generationId=4, memberId='m1', protocol='range'}"),
    _d("client.notifying_assignor", "assignment_notified", C, "2.6-4.x",
       r"Notifying assignor about the new Assignment\(partitions=(?P<partitions_raw>\[[^\]]*\])(?:, userDataSize=\d+)?\)",
       "Notifying assignor about the new Assignment(partitions=[t-0, t-1])"),
    _d("client.updating_assignment", "assignment_notified", C, "2.4-4.x", r"Updating assignment with\s*",
       "Updating assignment with",
       provenance='source:ConsumerCoordinator 2.4+ (the head line of the multi-line statement consumer-coordinator.updating-assignment-with-assigned-partitions-current)'),
    # ------------------------------------------------------------------ client: subscription / positions
    # (understood but not replayed: the member's subscription and its assignment being applied; the
    # prefix-less fallbacks are keyless on purpose - ``(?:Setting)`` - so they run after the
    # keyless prefixed variants)
    _d("client.subscribed", "other", C, "2.x-4.x",
       r"(?P<reason>Subscribed to (?:topic\(s\)|pattern): .*)", "Subscribed to topic(s): t1, t2"),
    _d("client.unsubscribed", "other", C, "2.x-4.x",
       r"(?P<reason>Unsubscribed all topics or patterns and assigned partitions)",
       "Unsubscribed all topics or patterns and assigned partitions"),
    _d("client.offset_committed_position", "other", C, "2.x-4.x",
       r"(?P<reason>Setting offset for partition (?P<partitions_raw>\S+) to the committed offset .*)",
       "Setting offset for partition t-0 to the committed offset FetchPosition{offset=5, offsetEpoch=Optional.empty, "
       "currentLeader=LeaderAndEpoch{leader=Optional[kafka-1:9092 (id: 1 rack: null)], epoch=0}}",
       needs_prefix=True),
    _d("client.offset_committed_position.plain", None, C, "3.7-4.x",
       r"(?:Setting) offset for partition \S+ to the committed offset .*",
       "Setting offset for partition t-0 to the committed offset FetchPosition{offset=5}"),
    _d("client.no_committed_offset", "other", C, "2.x-4.x",
       r"(?P<reason>Found no committed offset for partition (?P<partitions_raw>\S+))",
       "Found no committed offset for partition t-0", needs_prefix=True),
    _d("client.no_committed_offset.plain", None, C, "2.x-4.x",
       r"(?:Found) no committed offset for partition \S+", "Found no committed offset for partition t-0"),
    # ------------------------------------------------------------------ client: lifecycle (no group fact)
    _d("client.config_dump", None, C, "0.10-4.x",
       r"(?:ConsumerConfig|ProducerConfig|AdminClientConfig|StreamsConfig|DistributedConfig|WorkerConfig) values:.*",
       "ConsumerConfig values: ",
       provenance='source:AbstractConfig (not a membership class)'),
    _d("client.app_info", None, C, "0.10-4.x",
       r"App info kafka\.\S+ for \S+ unregistered", "App info kafka.consumer for consumer-g-1 unregistered",
       provenance='excerpt:c-atleon422-csv-quoted-reverse'),
    _d("client.version_info", None, C, "0.10-4.x",
       r"Kafka (?:version|commitId|startTimeMs) ?: .*", "Kafka version: 3.7.0",
       provenance='excerpt:c-springkafka878-springboot-abbrev-partitions-revoked'),
    _d("client.metrics", None, C, "2.x-4.x",
       r"(?:Metrics scheduler closed|Metrics reporters closed|Closing reporter .*)", "Metrics scheduler closed",
       provenance='excerpt:c-atleon422-csv-quoted-reverse'),
    _d("client.last_seen_epoch", None, C, "2.x-4.x",
       r"Resetting the last seen epoch of partition .*", "Resetting the last seen epoch of partition t-0 to 0 since the associated topicId changed from null to abc",
       provenance='source:Metadata (not a membership class)'),
    _d("client.offset_reset", None, C, "0.10-4.x",
       r"Resetting offset for partition .*", "Resetting offset for partition t-0 to position FetchPosition{offset=0}.",
       provenance='excerpt:b-playground-shell-comment-dead-v30'),
    _d("client.cluster_id", None, C, "0.10-4.x", r"Cluster ID: .*", "Cluster ID: abc",
       provenance='excerpt:c-scsb1060-pretty-json-array'),
    _d("client.seeking", None, C, "0.10-4.x", r"Seeking to .*", "Seeking to offset 5 for partition t-0",
       provenance='source:KafkaConsumer / SubscriptionState seeks (not about the group)'),
    _d("client.fetch_out_of_range", None, C, "0.10-4.x",
       r"Fetch position .* is out of range.*", "Fetch position FetchPosition{offset=5} is out of range for partition t-0, resetting offset",
       provenance='source:Fetcher (not a membership class)'),
    _d("client.node_disconnected", None, C, "0.10-4.x", r"Node -?\d+ disconnected\.?", "Node -1 disconnected.",
       provenance='excerpt:b-k9s-bitnami-kafka4-truncated'),
    _d("client.producer_line", None, C, "0.10-4.x",
       r"\[(?:Producer|AdminClient) clientId=[^\]]*\] .*", "[Producer clientId=producer-1] Closing the Kafka producer",
       provenance="source:KafkaProducer / AdminClient lines behind their own prefix (not a consumer group's)"),
    # ------------------------------------------------------------------ client: partitions
    _d("client.partitions_added", "partitions_assigned", C, "2.4-4.x",
       r"Adding newly assigned partitions:? ?(?P<partitions_raw>.*)", "Adding newly assigned partitions: t-0, t-1"),
    _d("client.partitions_set", "partitions_assigned", C, "0.10-2.3",
       r"Setting newly assigned partitions:? ?(?P<partitions_raw>.*?)(?: for group {G})?",
       "Setting newly assigned partitions [t-0, t-1] for group g"),
    _d("client.partitions_revoke", "partitions_revoked", C, "2.4-4.x",
       r"Revoke previously assigned partitions:? ?(?P<partitions_raw>.*)", "Revoke previously assigned partitions t-0, t-1"),
    _d("client.partitions_revoking", "partitions_revoked", C, "0.10-2.3",
       r"Revoking previously assigned partitions:? ?(?P<partitions_raw>.*?)(?: for group {G})?",
       "Revoking previously assigned partitions [t-0, t-1] for group g"),
    _d("client.partitions_lost", "partitions_lost", C, "2.4-4.x",
       r"Lost previously assigned partitions:? ?(?P<partitions_raw>.*)", "Lost previously assigned partitions t-0"),
    _d("client.giving_away_lost", "partitions_lost", C, "2.4-4.x",
       r"Giving away all assigned partitions as lost since generation(?:/memberID)? has been reset, ?(?P<reason>indicating.*)",
       "Giving away all assigned partitions as lost since generation/memberID has been reset,indicating that consumer is in old state or no longer part of the group"),
    _d("spring.partitions_assigned", "partitions_assigned", C, "spring-kafka",
       r"{G}: partitions assigned: ?(?P<partitions_raw>\[.*\])", "g: partitions assigned: [t-0, t-1]"),
    _d("spring.partitions_revoked", "partitions_revoked", C, "spring-kafka",
       r"{G}: partitions revoked: ?(?P<partitions_raw>\[.*\])", "g: partitions revoked: [t-0]"),
    _d("spring.partitions_assigned.nogroup", "partitions_assigned", C, "spring-kafka",
       r"partitions assigned: ?(?P<partitions_raw>\[.*\])", "partitions assigned: [t-0, t-1]"),
    _d("spring.partitions_revoked.nogroup", "partitions_revoked", C, "spring-kafka",
       r"partitions revoked: ?(?P<partitions_raw>\[.*\])", "partitions revoked: []"),
    _d("spring.partitions_lost", "partitions_lost", C, "spring-kafka",
       r"{G}: partitions lost: ?(?P<partitions_raw>\[.*\])", "g: partitions lost: [t-0]"),
    # ------------------------------------------------------------------ client: rejoin / reset
    _d("client.request_rejoin", "rejoin_requested", C, "3.0-4.x", r"Request joining group due to: {R}",
       "Request joining group due to: need to re-join with the given member-id: m1"),
    _d("client.need_revoke.v2_4", "rejoin_requested", C, "2.4-2.8",
       r"Need to revoke partitions (?P<partitions_raw>\[.*?\]) and re-join the group",
       "Need to revoke partitions [t-0] and re-join the group", fixed={"reason": "need to revoke partitions and re-join"}),
    _d("client.metadata_changed.v2_4", "rejoin_requested", C, "2.4-2.8",
       r"(?P<reason>Requesting to re-join the group and trigger rebalance since the (?:assignment metadata|subscription) has changed from .*)",
       "Requesting to re-join the group and trigger rebalance since the assignment metadata has changed from a to b"),
    _d("client.reset_generation", "generation_reset", C, "3.0-4.x",
       r"Resetting generation(?: and member id)? due to:? {R}", "Resetting generation and member id due to: consumer pro-actively leaving the group"),
    _d("client.reset_generation.v2_4", "generation_reset", C, "2.4-2.8",
       r"Resetting generation after encountering (?P<reason>.*)",
       "Resetting generation after encountering UNKNOWN_MEMBER_ID from HEARTBEAT response and requesting re-join"),
    _d("client.executing_on_join_prepare", "other", C, "2.8-4.x",
       r"Executing onJoinPrepare with generation {N}(?: and memberId {M})?", "Executing onJoinPrepare with generation 4 and memberId m1"),
    # ------------------------------------------------------------------ client: heartbeat / poll / leave / commit
    _d("client.heartbeat_sent", "heartbeat_sent", C, "2.0-4.x",
       r"Sending Heartbeat request with generation {N} and member id {M} to coordinator {NODE}",
       "Sending Heartbeat request with generation 4 and member id m1 to coordinator kafka-1:9092 (id: 2147483646 rack: null)"),
    _d("client.heartbeat_sent.v0_10", "heartbeat_sent", C, "0.10-1.1",
       r"Sending Heartbeat request for group {G} to coordinator {NODE}",
       "Sending Heartbeat request for group g to coordinator kafka-1:9092 (id: 2147483646 rack: null)"),
    _d("client.heartbeat_ok", "heartbeat_sent", C, "0.10-4.x", r"Received successful [Hh]eartbeat response(?: for group {G})?",
       "Received successful Heartbeat response"),
    _d("client.heartbeat_coordinator_invalid", "heartbeat_failed", C, "2.0-4.x",
       r"Attempt to heartbeat(?: failed)? since coordinator {NODE} is either not started or not valid\.?",
       "Attempt to heartbeat failed since coordinator kafka-1:9092 (id: 2147483646 rack: null) is either not started or not valid",
       fixed={"error": "COORDINATOR_NOT_AVAILABLE"}),
    _d("client.heartbeat_failed_generation", "heartbeat_failed", C, "2.7-4.x",
       r"Attempt to heartbeat with (?:stale )?{GENOBJ} and group instance id {IID} failed due to (?P<error>[A-Z_]+), (?P<reason>resetting generation|ignoring the error)",
       "Attempt to heartbeat with Generation{generationId=4, memberId='m1', protocol='range'} and group instance id Optional.empty failed due to UNKNOWN_MEMBER_ID, resetting generation"),
    _d("client.heartbeat_rebalancing", "heartbeat_failed", C, "0.10-2.8",
       r"Attempt to heartbeat failed(?: for group {G})? since group is rebalancing",
       "Attempt to heartbeat failed since group is rebalancing", fixed={"error": "REBALANCE_IN_PROGRESS"}),
    _d("client.heartbeat_generation_not_current", "heartbeat_failed", C, "2.0-2.6",
       r"Attempt to heartbeat failed since generation {N} is not current", "Attempt to heartbeat failed since generation 4 is not current",
       fixed={"error": "ILLEGAL_GENERATION"}),
    _d("client.heartbeat_member_invalid", "heartbeat_failed", C, "2.0-2.6",
       r"Attempt to heartbeat failed for since member id {M} is not valid\.", "Attempt to heartbeat failed for since member id m1 is not valid.",
       fixed={"error": "UNKNOWN_MEMBER_ID"}),
    _d("client.heartbeat_failed.v0_10", "heartbeat_failed", C, "0.10-1.1",
       r"Attempt to heart ?beat failed for group {G} since {R}", "Attempt to heartbeat failed for group g since generation id is not legal."),
    _d("client.heartbeat_thread", None, C, "0.10-4.x",
       r"(?:Heartbeat thread (?:for group \S+ )?(?:started|has closed)|(?:Enabling|Disabling) heartbeat thread(?: for group \S+)?)\.?",
       "Heartbeat thread has closed"),
    _d("client.poll_timeout", "poll_timeout", C, "2.1-4.x",
       r"(?P<reason>(?:This member will leave the group because )?[Cc]onsumer poll timeout has expired\..*)",
       "consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms"),
    *CLIENT_MORE,
    *STREAMS_CONNECT,
    *NON_JAVA,
    *ELIXIR,
    *DOTNET,
    *RUBY,
    *JVM,
    *SCS,
    *ALPAKKA,
    *NODE,
    *KAFKAFLOW,
    *QUIET,
    *CALLBACKS,  # an application's own rebalance callback: last, so every library's wording wins
)  # fmt: skip

DIALECT_BY_ID = {d.id: d for d in DIALECTS}

#: every logger condition of the table: a logger none of them meets is *unknown* (none too)
LOGGER_CONDITIONS: tuple[str, ...] = tuple(sorted({d.logger for d in DIALECTS if d.logger}))


def open_wording(d: Dialect) -> str | None:
    """What of a gated dialect reads a message whose logger is unknown although it does not meet the
    condition (:mod:`jobs.ingest.open_wordings`, decided from the catalogue): ``""`` its whole
    pattern, a regex the body must match too (its open wordings), None nothing."""
    return _OPEN.get(d.id) if DM.logger_condition(d) is not None else None


def validate_table() -> None:
    """Raise if the table is inconsistent (unknown kinds/sides/groups, duplicate ids, bad examples)."""
    seen: set[str] = set()
    for d in DIALECTS:
        if d.id in seen:
            raise ValueError(f"duplicate dialect id {d.id}")
        seen.add(d.id)
        if d.kind is not None and d.kind not in EVENT_KINDS:
            raise ValueError(f"{d.id}: unknown kind {d.kind}")
        if d.side not in ("broker", "client", "connect", "other"):
            raise ValueError(f"{d.id}: unknown side {d.side}")
        rx = re.compile(d.pattern)
        unknown = set(rx.groupindex) - FIELD_GROUPS - HELPER_GROUPS
        if unknown:
            raise ValueError(f"{d.id}: unknown named groups {sorted(unknown)}")
        if not rx.match(d.example):
            raise ValueError(f"{d.id}: example does not match: {d.example!r}")


def markdown_table() -> str:
    """The dialect table as markdown (for the README): id, kind, side, versions, example."""
    out = [
        "| dialect | kind | side | versions | example message (after the context prefix) |",
        "|---|---|---|---|---|",
    ]
    for d in DIALECTS:
        ex = d.example if len(d.example) <= 140 else d.example[:137] + "..."
        ex = ex.replace("|", "\\|").replace("`", "'")
        out.append(
            f"| `{d.id}` | {d.kind or '(recognised, counted unrelated)'} | {d.side} | {d.versions} | {ex} |"
        )
    return "\n".join(out) + "\n"
