"""Dialects of an application's own rebalance callback: a line with a verb of the callback (``assigned``,
``on_revoke``, ``onPartitionsLost``, sarama's ``Setup`` / ``Cleanup`` …) followed by the partitions as
the client's own printer renders them (:data:`jobs.ingest.partition_reprs.PLIST`), optionally with the
member id and the generation (sarama's ``memberID=… generationID=3``) or a group after the list.

Every user words the line differently, so the wording is free; the partition list is not: a line
without a list in a client's printed form is not read. The group is the line's (after the list, or a
record key), else the file's (``attribution.file_group``); the member is the line's, else the one last
named in the file (side ``other``: one consumer per log file). Part of
:data:`jobs.ingest.dialects.DIALECTS`, registered LAST so that every library's or broker's own wording
wins; :data:`PREFILTER` is the alternative of ``dialects.GROUP_PREFILTER`` that lets such lines in.
"""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d
from jobs.ingest.partition_reprs import PLIST

#: the verbs of a callback, by the event kind they announce (case-insensitive, whole words)
VERBS: dict[str, str] = {
    "partitions_revoked": r"(?:on_?)?(?:partitions_?)?(?:revoked?|revoking)|cleanup",
    "partitions_lost": r"on_?(?:partitions_?)?lost|partitions?[ _]lost|lost partitions?",
    "partitions_assigned": r"(?:on_?)?(?:partitions_?)?assign(?:ed|ing)?|setup|claims",
}
#: text between the verb and the list: short, no bracket (``: ``, `` partitions: ``, ``=``)
_GAP = r"[^\[\]{}()<>]{0,40}?\(?"
_MEMBER = r"[Mm]ember(?:[_ .]?[Ii][Dd])?[=:]? ?['\"]?(?P<member_id>[^\s,;'\"\]\)}]+)"
_GEN = r"[Gg]eneration(?:[_ .]?[Ii][Dd])?[=:]? ?(?P<generation>-?\d+)"
_GROUP = r"[Gg]roup(?:[_ .]?[Ii][Dd])?[=:]? ?['\"]?(?P<group_id>[A-Za-z0-9._\-]+)"
#: after the list: nothing, or a delimiter and any text, in which a group, a member id and a
#: generation are read (in that order, each optional)
_AFTER = rf"(?:[\s,.;:|)(}}\]](?:.*?\b{_GROUP})?(?:.*?\b{_MEMBER})?(?:.*?\b{_GEN})?.*)?"


def nocase(rx: str) -> str:
    """``rx`` matching its letters in either case (``[aA]``; RE2's ``(?i)`` has no Python translation
    the reference reader accepts); escapes and character classes are kept as they are."""
    out, i, in_class = [], 0, False
    while i < len(rx):
        c = rx[i]
        if c == "\\":
            out.append(rx[i : i + 2])
            i += 2
            continue
        in_class = (in_class or c == "[") and c != "]"
        out.append(f"[{c.lower()}{c.upper()}]" if c.isascii() and c.isalpha() and not in_class else c)
        i += 1
    return "".join(out)


_ANY_VERB = nocase("|".join(VERBS.values()))


def _verb(kind: str) -> str:
    return rf"\b(?:{nocase(VERBS[kind])})\b"


def _regex(kind: str) -> str:
    return rf".*?{_verb(kind)}{_GAP}(?P<partitions_raw>{PLIST}){_AFTER}"


#: the alternative of ``dialects.GROUP_PREFILTER`` (a search) that admits a callback line
PREFILTER = rf"\b(?:{_ANY_VERB})\b{_GAP}{PLIST}"

#: words of lines with a verb and a partition list that are no rebalance callback: a producer's
#: partitioner, topic creation and reassignment, lag and offset tools
_NEAR_MISS = (
    r"\b(?:" + nocase(r"partitioner|producer|produced|record|records|message|messages|batch|lag|offsets? (?:reset|committed)"
    r"|reassign\w*|replicas?|leaders?|leadership|isr|created?|creating|describe\w*|partition count|sent|send|sending"
    r"|threads?|workers?|pool|tasks?|jobs?|nodes?|brokers?|hosts?|tokens?|roles?|permissions?|users?") + r")\b"
)
#: such a line (a near-miss word before the callback's verb, between it and the list, or after the list;
#: never inside the list, whose topics may have any name): recognised, unrelated
_NOT_CALLBACK = (
    rf".*?(?:{_NEAR_MISS}.*?{PREFILTER}|{PREFILTER}.*{_NEAR_MISS}"
    rf"|\b(?:{_ANY_VERB})\b[^\[\]{{}}()<>]*?{_NEAR_MISS}[^\[\]{{}}()<>]*?\(?{PLIST}).*"
)
#: (each starts with ``.*``: a catch-all, so that a library's own wording found message-first wins)

CALLBACKS: tuple[Dialect, ...] = (
    _d("callback.not_callback", None, OT, "any", _NOT_CALLBACK, "Producer partitioner assigned record to [orders-3]",
       provenance="source:near misses of the callback dialects (producer, topic tools, lag tools)"),
    _d("callback.revoked", "partitions_revoked", OT, "any", _regex("partitions_revoked"),
       "Rebalance: revoked map[orders:[0 1]]", provenance="source:application rebalance callbacks (partition_reprs)"),
    _d("callback.lost", "partitions_lost", OT, "any", _regex("partitions_lost"),
       "on_lost: [TopicPartition(topic='orders', partition=0)]",
       provenance="source:application rebalance callbacks (partition_reprs)"),
    _d("callback.assigned", "partitions_assigned", OT, "any", _regex("partitions_assigned"),
       "Setup: claims=map[orders:[0 1]] memberID=m-1 generationID=3",
       provenance="source:application rebalance callbacks (partition_reprs)"),
)  # fmt: skip
