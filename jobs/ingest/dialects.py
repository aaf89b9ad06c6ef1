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

1. append a ``Dialect(...)`` to its family's table, near its relatives: the classic Java broker's
   wordings in :mod:`jobs.ingest.dialects_broker`, the classic Java client's in
   :mod:`jobs.ingest.dialects_java_client`, the KIP-848 ones in :mod:`jobs.ingest.dialects_kip848`, the non-Java
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
from jobs.ingest.dialects_broker import BROKER
from jobs.ingest.dialects_callbacks import CALLBACKS
from jobs.ingest.dialects_callbacks import PREFILTER as CALLBACK_PREFILTER
from jobs.ingest.dialects_client import CLIENT_MORE
from jobs.ingest.dialects_dotnet import DOTNET
from jobs.ingest.dialects_elixir import ELIXIR
from jobs.ingest.dialects_java_client import JAVA_CLIENT
from jobs.ingest.dialects_jvm import ALPAKKA, JVM, SCS
from jobs.ingest.dialects_kafkaflow import KAFKAFLOW
from jobs.ingest.dialects_kip848 import KIP848
from jobs.ingest.dialects_node import NODE
from jobs.ingest.dialects_nonjava import NON_JAVA
from jobs.ingest.dialects_python import PYTHON_1X
from jobs.ingest.dialects_quiet import QUIET
from jobs.ingest.dialects_ruby import RUBY
from jobs.ingest.dialects_streams import STREAMS_CONNECT, STREAMS_STATES
from jobs.ingest.open_wordings_table import OPEN as _OPEN

#: cheap RE2 prefilter on whole messages: a line that does not match is about something else and
#: is only counted (``groupId=`` of the client prefix and the ``[GroupMetadataManager brokerId=1]``
#: prefix are excluded on purpose: ``[Gg]roup[^IM]``; their lines still count when they mention a group;
#: the subscription and committed-position wordings are always candidates, so that they are recognised as
#: unrelated whatever the group is called, and so is the Java consumer's coordinator lookup)
GROUP_PREFILTER = (
    r"[Gg]roup[^IM]|[Gg]roup$|\[GroupId |[Gg]eneration|[Hh]eartbeat|[Rr]ebalanc|known coordinator"
    r"|assigned partitions|partitions (?:assigned|revoked|lost)|[Aa]ssignment|LeaveGroup|JoinGroup"
    r"|SyncGroup|CGRP|transitioned (?:from|to (?:FATAL|fatal) state)|poll timeout|[Cc]oordinator for consumerg(?:r)?oup|MemberIDRequired"
    r"|[Ss]tatic member|fenced|assigning partitions|revoking prior|FindCoordinator (?:request|response)"
    r"|Subscribed to (?:topic|pattern)|Unsubscribed all topics|committed offset|consumer join: metadata|owns topics:|commit failed on partition|(?:Revoked|Assigned)Partitions: \["
    r"|client/coordinator (?:requesting )?coordinator for|consumer/broker/\d+ (?:added|closed dead) subscription to |^Closing Client$|^\[Consumer\] Stopped\b|Problem getting partitions during startup, |calling onRevoke|join (?:and sync loop|returned)|sync(?:ed(?: successfully)?|ing| failed); |(?:^|[\t ])(?:sync(?:ed(?: successfully)?|ing| failed)|joined)(?:[;\t]|$| [\w.]+=)"
    r"|Partitions assigned for `|Partitions (?:assigned|revoked)(?:: \[| \| Data: )|\. All partitions: |Assigning new partitions: |SubSources for revoked|Error committing offsets|Coordinator broker still loading|ON PARTITIONS REVOKED"
    r"|Response OffsetCommit\(key: \d+, version: \d+\)(?: error: |.*\"error\":)|Discovered coordinator|Marking the coordinator|auto-commit of offsets|OffsetCommit failed|Offset commit (?:with offsets .* )?failed|Auto-commit of offsets .* failed|stream-(?:thread|client|application) ?\[[^\]]*\] ?State transition"
    r"|State transition from " + STREAMS_STATES + " to " + STREAMS_STATES
    + r"|stream-(?:thread|client) \[[^\]]*\] ?(?:Encountered the following|All stream threads have died|Assigned tasks )"
    r"|Exception in thread \"[^\"]*StreamThread-\d+\" "
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
    *BROKER,
    *KIP848,
    *JAVA_CLIENT,
    *CLIENT_MORE,
    *STREAMS_CONNECT,
    *PYTHON_1X,
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
