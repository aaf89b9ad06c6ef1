"""Reason text -> rebalance cause and culprit.

Brokers log *why* they prepare a rebalance ("Preparing to rebalance group g ... (reason: r)", Scala
2.1+, Java 3.7+); clients log why they rejoin or leave ("Request joining group due to: r", "Member m
sending LeaveGroup request ... due to r"). :func:`classify_reason` maps every broker reason text of
reference sections 3.2/3.4 (all version variants: Scala ``Some(x)``/``None`` and Java ``x``/``null``
renderings, 2.x lower-case spellings, the 2.3-3.0 "Rebalacing" typo, KIP-800 ``client reason:``
suffixes) to the closed vocabulary :data:`coordinator_core.records.CAUSES` plus the member ids it
names. :func:`classify_client_reason` does the same for client-side reasons (Kafka Streams triggering
the rebalance its assignor scheduled gives ``followup_rebalance`` or ``probing_rebalance``,
:func:`streams_cause`); a client reason that
only says *someone else* started the rebalance ("group is already rebalancing", "need to revoke
partitions") yields ``follow=True`` and cause ``unknown``: the replay then looks for the earliest
decisive signal.

Pure functions over strings; no state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["CauseInfo", "classify_reason", "classify_client_reason", "client_id_of", "streams_cause", "UNKNOWN"]


@dataclass(frozen=True, slots=True)
class CauseInfo:
    """What a reason text says: the cause, the member(s) it names and the KIP-800 client reason."""

    cause: str
    member_id: str | None = None
    group_instance_id: str | None = None
    members: tuple[str, ...] = ()
    client_reason: str | None = None
    #: the text says the rebalance was started by someone else (look for an earlier signal)
    follow: bool = False


UNKNOWN = CauseInfo("unknown")

_OPT = r"(?:Some\((?P<inst>[^)]*)\)|(?P<inst2>\S+?))"
_CLIENT = r"(?:;\s*client reason:\s*(?P<client>.*))?"

# order matters: the static variants before the generic "Updating metadata"
_BROKER_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (cause, re.compile(rx, re.IGNORECASE | re.DOTALL))
    for cause, rx in (
        ("new_member", rf"^Adding new member (?P<m>\S+?)(?: with group instance ?id {_OPT})?{_CLIENT}\s*$"),
        ("new_member", rf"^Member (?P<m>\S+) (?:is )?joining group during (?P<st>\w+){_CLIENT}\s*$"),
        (
            "static_member",
            rf"^Group's selectedProtocol will change because static member (?P<m>\S+) with instance id "
            rf"{_OPT} joined with change of protocol{_CLIENT}\s*$",
        ),
        (
            "static_member",
            rf"^Updating metadata for static member (?P<m>\S+) with instance id {_OPT}{_CLIENT}\s*$",
        ),
        (
            "metadata_change",
            rf"^Updating metadata for member (?P<m>\S+?)(?: during (?P<st>\w+))?{_CLIENT}\s*$",
        ),
        ("leader_rejoin", rf"^Leader (?P<m>\S+) re-joining group during (?P<st>\w+){_CLIENT}\s*$"),
        ("session_timeout", r"^removing member (?P<m>\S+?) on heartbeat expiration\.?\s*$"),
        ("member_leave", rf"^Removing member (?P<m>\S+) on LeaveGroup{_CLIENT}\s*$"),
        ("member_leave", r"^explicit `?LeaveGroup`? request for \((?P<set>.*)\) members\.?\s*$"),
        ("sync_timeout", r"^Removing (?P<set>.*) on pending sync request expiration\.?\s*$"),
        (
            "store_error",
            r"^Error (?:(?P<err>\S+) )?when storing group assignment ?during SyncGroup \(member: (?P<m>[^)]+)\)\.?\s*$",
        ),
        ("coordinator_move", r"^Freshly-loaded group .*over capacity"),
    )
)

_POLL = ("poll timeout has expired", "max.poll.interval.ms")
_METADATA = (
    "cached metadata has changed",
    "subscription has changed",
    "assignment metadata has changed",
    "received assignment does not match the current subscription",
)
_LEAVE = (
    "the consumer is being closed",
    "pro-actively leaving the group",
    "unsubscribed from all topics",
    "consumer is closing",
)
_FOLLOW = (
    "group is already rebalancing",
    "group is rebalancing",
    "began another rebalance",
    "rebalanceinprogress",
    "rebalance_in_progress",
    "illegal_generation",
    "illegalgeneration",
    "generation is not current",
    "offset commit failed",
)
_NEW = ("need to re-join with the given member-id", "memberidrequired", "valid member id before actually")
_GIVEN = re.compile(r"given member-id:?\s*(?P<m>\S+)")

_SET = re.compile(r"^(?:Set|HashSet|List|ListSet)?\(?\[?(?P<body>.*?)\]?\)?$")

#: Kafka Streams triggering the rebalance its assignor scheduled ("Triggering the followup rebalance
#: scheduled for T." / the consumer's "triggered followup rebalance scheduled for <ms>"): T is epoch 0
#: for an immediate follow-up, a time for a probing rebalance (StreamThread, StreamsPartitionAssignor)
_STREAMS_FOLLOWUP = re.compile(r"followup rebalance scheduled for (?P<when>\S+)", re.IGNORECASE)
_EPOCH_ZERO = re.compile(r"^(?:0|1970-01-01|1969-12-31)\b")


def streams_cause(text: str | None) -> str | None:
    """``followup_rebalance`` / ``probing_rebalance`` when ``text`` is Kafka Streams triggering a
    rebalance it scheduled itself (or finishing version probing), else None."""
    if not text:
        return None
    m = _STREAMS_FOLLOWUP.search(text)
    if m:
        return "followup_rebalance" if _EPOCH_ZERO.match(m.group("when")) else "probing_rebalance"
    if "version probing detected" in text.lower():
        return "followup_rebalance"
    return None


def _members(text: str) -> tuple[str, ...]:
    """Member ids of a rendered Scala ``Set(a, b)`` / Java ``[a, b]`` / plain ``a, b`` list."""
    body = _SET.match(text.strip())
    inner = body.group("body") if body else text
    return tuple(x.strip() for x in inner.split(",") if x.strip())


def _instance(m: re.Match[str]) -> str | None:
    d = m.groupdict()
    inst = d.get("inst")
    if inst is None:
        inst = d.get("inst2")
    if inst is None or inst in ("None", "null", ""):
        return None
    return inst


@lru_cache(maxsize=8192)
def classify_reason(reason: str | None) -> CauseInfo:
    """Classify a broker rebalance reason (the text inside ``(reason: ...)``).

    ``None``/empty (2.0-style lines without a reason) and unrecognised texts give ``unknown``; the
    replay then infers the cause from the evidence immediately preceding the line.
    """
    if not reason:
        return UNKNOWN
    text = reason.strip()
    for cause, rx in _BROKER_PATTERNS:
        m = rx.match(text)
        if m is None:
            continue
        d = m.groupdict()
        client = d.get("client")
        client = client.strip() if client else None
        members = _members(d["set"]) if d.get("set") else ()
        member = d.get("m") or (members[0] if members else None)
        inst = _instance(m)
        if client:
            streams = streams_cause(client)
            if streams is not None and cause in ("leader_rejoin", "metadata_change"):
                cause = streams
            elif cause == "member_leave" and _has(client, _POLL):
                cause = "poll_timeout_leave"
            elif _has(client, _METADATA) and (cause in ("leader_rejoin", "metadata_change") or d.get("st")):
                # "Leader m re-joining ... / Member m joining group during S; client reason: cached
                # metadata has changed": the rejoin is a metadata change
                cause = "metadata_change"
        return CauseInfo(cause, member, inst, members or ((member,) if member else ()), client)
    return CauseInfo("unknown", client_reason=None)


def _has(text: str, needles: tuple[str, ...]) -> bool:
    low = text.lower()
    return any(n in low for n in needles)


@lru_cache(maxsize=8192)
def classify_client_reason(reason: str | None, member_id: str | None = None) -> CauseInfo:
    """Classify a client-side rejoin / leave / generation-reset reason.

    ``member_id`` is the member whose log line it is (the culprit when the reason is about itself).
    """
    if not reason:
        return UNKNOWN
    streams = streams_cause(reason)
    if streams is not None:
        return CauseInfo(streams, member_id, client_reason=reason)
    low = reason.lower()
    if _has(low, _POLL):
        return CauseInfo("poll_timeout_leave", member_id, client_reason=reason)
    if "unknown_member_id" in low or "unknownmemberid" in low or "member id is not valid" in low:
        return CauseInfo("session_timeout", member_id, client_reason=reason)
    if "fenced_instance_id" in low or "fencedinstanceid" in low or "has been fenced" in low:
        return CauseInfo("static_member", member_id, client_reason=reason)
    if _has(low, _NEW):
        g = _GIVEN.search(reason)
        m = g.group("m") if g else member_id
        return CauseInfo("new_member", m, client_reason=reason)
    if _has(low, _METADATA):
        return CauseInfo("metadata_change", member_id, client_reason=reason)
    if "need to revoke partitions" in low:
        # cooperative protocol: the member rejoins with its owned partitions changed; the broker
        # logs "Updating metadata for member ..." (or "Leader ... re-joining" for the leader)
        return CauseInfo("metadata_change", member_id, client_reason=reason)
    if _has(low, _LEAVE):
        return CauseInfo("member_leave", member_id, client_reason=reason)
    if _has(low, _FOLLOW):
        return CauseInfo("unknown", None, client_reason=reason, follow=True)
    return CauseInfo("unknown", None, client_reason=reason, follow=True)


_UUID_SUFFIX = re.compile(
    r"^(?P<c>.+)-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)


def client_id_of(member_id: str | None, group_instance_id: str | None = None) -> str | None:
    """The client id encoded in a dynamic member id (``<clientId>-<uuid>``, Kafka's
    ``generateMemberId``); None for static members (``<instanceId>-<uuid>``) and other ids."""
    if not member_id or group_instance_id:
        return None
    m = _UUID_SUFFIX.match(member_id)
    return m.group("c") if m else None
