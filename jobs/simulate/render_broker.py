"""Broker log lines of the group coordinator, rendered from ``coordinator_core.events`` per dialect.

Dialects (reference sections 3.2-3.4):

* ``scala2`` - Scala ``GroupCoordinator`` of Kafka 2.8.2,
* ``scala3`` - Scala ``GroupCoordinator`` of Kafka 3.9 (the default coordinator of 3.x),
* ``java4``  - Java ``GroupMetadataManager`` / ``ClassicGroup`` of Kafka 4.x (trunk texts).

Each ``render`` returns ``(level, logger, message)`` triples; the caller writes them with the
broker layout ``[%d] %p %m (%c)%n``. DEBUG lines are produced too (the writer drops them unless the
broker logs at DEBUG) so that the level of every text follows Kafka.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from coordinator_core import events as ev

DIALECTS = ("scala2", "scala3", "java4")
#: Kafka broker version modelled by each dialect (the coordinator model's ``version``)
DIALECT_VERSION = {"scala2": "2.8", "scala3": "3.9", "java4": "4.0"}
#: client library version paired with each dialect
CLIENT_VERSION = {"scala2": "2.8.2", "scala3": "3.9.0", "java4": "4.0.0"}

GC = "kafka.coordinator.group.GroupCoordinator"
GMD = "kafka.coordinator.group.GroupMetadata"
GMM = "kafka.coordinator.group.GroupMetadataManager"
J_GMM = "org.apache.kafka.coordinator.group.GroupMetadataManager"
J_CG = "org.apache.kafka.coordinator.group.classic.ClassicGroup"
J_SHARD = "org.apache.kafka.coordinator.group.GroupCoordinatorShard"
J_RT = "org.apache.kafka.coordinator.common.runtime.CoordinatorRuntime"


@dataclass(frozen=True, slots=True)
class MemberInfo:
    """What the broker knows of a member (for MemberMetadata / ClassicGroupMember renderings)."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    protocols: tuple[str, ...]


Line = tuple[str, str, str]
MemberLookup = Callable[[str], "MemberInfo | None"]


def scala_opt(v: str | None) -> str:
    return "None" if v is None else f"Some({v})"


def java_opt(v: str | None) -> str:
    return "null" if v is None else v


def scala_set(ids) -> str:
    return "Set(" + ", ".join(ids) + ")"


def java_set(ids) -> str:
    return "[" + ", ".join(ids) + "]"


def scala_member(info: MemberInfo, trailing: bool) -> str:
    protos = "List(" + ", ".join(info.protocols) + ")"
    tail = ", )" if trailing else ")"
    return (
        f"MemberMetadata(memberId={info.member_id}, groupInstanceId={scala_opt(info.group_instance_id)}, "
        f"clientId={info.client_id}, clientHost={info.client_host}, sessionTimeoutMs={info.session_timeout_ms}, "
        f"rebalanceTimeoutMs={info.rebalance_timeout_ms}, supportedProtocols={protos}{tail}"
    )


def java_member(info: MemberInfo) -> str:
    return (
        f"ClassicGroupMember(memberId='{info.member_id}', groupInstanceId='{java_opt(info.group_instance_id)}', "
        f"clientId='{info.client_id}', clientHost='{info.client_host}', rebalanceTimeoutMs={info.rebalance_timeout_ms}, "
        f"sessionTimeoutMs={info.session_timeout_ms}, protocolType='consumer', supportedProtocols=[{', '.join(info.protocols)}])"
    )


def _fallback_info(member_id: str) -> MemberInfo:
    return MemberInfo(member_id, None, "consumer", "/127.0.0.1", 45000, 300000, ("range",))


@dataclass(frozen=True, slots=True)
class EventContext:
    """One event being rendered, with what the lines of every kind share."""

    #: the event (typed ``Any``: each renderer of :data:`RENDERERS` reads the fields of its own kind)
    e: Any
    broker: int
    #: group_id, member_id, generation and state (``Stable`` when the event has none)
    g: str
    m: str | None
    gen: int | None
    st: str
    #: the log ident and the logger of the coordinator's lines
    pre: str
    lg: str
    #: Scala names the ``__consumer_offsets`` partition and ends without a period; Java the reverse
    suffix_p: str
    dot: str


class BrokerRenderer:
    """Renders coordinator events of one dialect. ``prefix(broker, partition)`` is the log ident."""

    def __init__(self, dialect: str, members: MemberLookup) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"unknown broker dialect {dialect!r}; expected one of {DIALECTS}")
        self.dialect = dialect
        self.java = dialect == "java4"
        self.v2 = dialect == "scala2"
        self.members = members

    # ------------------------------------------------------------------ prefixes
    def ident(self, broker: int, partition: int) -> str:
        if self.java:
            return f"[GroupCoordinator id={broker} topic=__consumer_offsets partition={partition}] "
        return f"[GroupCoordinator {broker}]: "

    def _info(self, member_id: str | None) -> MemberInfo:
        info = self.members(member_id or "")
        return info if info is not None else _fallback_info(member_id or "")

    # ------------------------------------------------------------------ events
    def render(self, e: ev.Event, broker: int, partition: int) -> list[Line]:
        """The lines of ``e``: the renderer of its kind in :data:`RENDERERS`, none for other kinds."""
        c = self._context(e, broker, partition)
        renderer = RENDERERS.get(e.kind)
        return renderer(self, c) if renderer is not None else []

    def _context(self, e: ev.Event, broker: int, partition: int) -> EventContext:
        """What the lines of every kind share: the ident, the logger and the dialect's punctuation."""
        J = self.java
        return EventContext(
            e=e,
            broker=broker,
            g=e.group_id,
            m=e.member_id,
            gen=e.generation,
            st=getattr(e, "state", None) or "Stable",
            pre=self.ident(broker, partition),
            lg=J_GMM if J else GC,
            suffix_p="" if J else f" (__consumer_offsets-{partition})",
            dot="." if J else "",
        )

    # -- rebalance rounds
    def _rebalance_prepared(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Preparing to rebalance group {c.g} in state PreparingRebalance with old generation {c.gen}{c.suffix_p} (reason: {c.e.reason}){c.dot}"
        return [("INFO", c.lg, msg)]

    def _join_completed(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Stabilized group {c.g} generation {c.gen}{c.suffix_p} with {c.e.member_count} members{c.dot}"
        return [("INFO", c.lg, msg)]

    def _group_empty(self, c: EventContext) -> list[Line]:
        return [("INFO", c.lg, f"{c.pre}Group {c.g} with generation {c.gen} is now empty{c.suffix_p}{c.dot}")]

    def _assignment_received(self, c: EventContext) -> list[Line]:
        counts = f"The group has {c.e.member_count} members, {c.e.static_count or 0} of which are static."
        if self.v2:
            msg = f"{c.pre}Assignment received from leader for group {c.g} for generation {c.gen}. {counts}"
        else:
            msg = f"{c.pre}Assignment received from leader {c.m} for group {c.g} for generation {c.gen}. {counts}"
        return [("INFO", c.lg, msg)]

    def _no_member_rejoined(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Group {c.g} could not complete rebalance because no members rejoined{c.dot}"
        return [("ERROR", c.lg, msg)]

    def _leader_reelected(self, c: EventContext) -> list[Line]:
        """The leader missed the join round; Scala logs it from GroupMetadata, without the ident."""
        old_iid = self._info(c.e.old_member_id).group_instance_id
        if self.java:
            msg = f"{c.pre}Group leader [memberId: {c.e.old_member_id}, groupInstanceId: {java_opt(old_iid)}] failed to join before the rebalance timeout. Member {c.m} was elected as the new leader."
            return [("INFO", J_CG, msg)]
        leader = scala_member(self._info(c.m), self.v2)
        msg = f"Group leader [member.id: {c.e.old_member_id}, group.instance.id: {scala_opt(old_iid)}] failed to join before rebalance timeout, while new leader {leader} was elected."
        return [("INFO", GMD, msg)]

    def _sync_expired(self, c: EventContext) -> list[Line]:
        if c.e.unexpected:
            msg = f"{c.pre}Received unexpected notification of sync expiration for {c.g} with an old generation {c.gen} while the group has {c.gen}."
            return [("ERROR", c.lg, msg)]
        if self.java:
            msg = f"{c.pre}Group {c.g} removed members who haven't sent their sync requests: {java_set(c.e.members)}"
        else:
            msg = f"{c.pre}Group {c.g} removed members who haven't sent their sync request: {scala_set(c.e.members)}"
        return [("DEBUG", c.lg, msg)]

    # -- joining members
    def _member_id_required(self, c: EventContext) -> list[Line]:
        joins = f"{c.pre}Dynamic member with unknown member id joins group {c.g} in {c.st} state."
        if self.java:
            msg = f"{joins} Created a new member id {c.m} and requesting the member to rejoin with this id."
            return [("INFO", c.lg, msg)]
        msg = f"{joins} Created a new member id {c.m} and request the member to rejoin with this id."
        return [("DEBUG" if self.v2 else "INFO", c.lg, msg)]

    def _member_added(self, c: EventContext) -> list[Line]:
        if c.e.static:
            return self._static_member_added(c)
        if self.v2:
            msg = f"{c.pre}Dynamic Member with specific member id {c.m} joins group {c.g} in {c.st} state. Adding to the group now."
        else:
            msg = f"{c.pre}Pending dynamic member with id {c.m} joins group {c.g} in {c.st} state. Adding to the group now."
        return [("INFO" if self.java else "DEBUG", c.lg, msg)]

    def _static_member_added(self, c: EventContext) -> list[Line]:
        """``member_added`` of a static member (Scala 2.8 logs it twice)."""
        i = c.e.group_instance_id
        if self.v2:
            joins = f"{c.pre}Static Member with unknown member id joins group {c.g} in {c.st} state. Created a new member id {c.m} for this member and add to the group."
            adding = f"{c.pre}Adding new static member {scala_opt(i)} to group {c.g} with member id {c.m}."
            return [("INFO", c.lg, joins), ("INFO", c.lg, adding)]
        joins = f"{c.pre}Static member with groupInstanceId={i} and unknown member id joins group {c.g} in {c.st} state."
        added = "added" if self.java else "add"
        msg = f"{joins} Created a new member id {c.m} for this member and {added} to the group."
        return [("INFO", c.lg, msg)]

    def _rejoin_unexpected_state(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Attempt to add rejoining member {c.m} of group {c.g} in unexpected group state {c.st}"
        return [("WARN", c.lg, msg)]

    # -- departing members
    def _member_left(self, c: EventContext) -> list[Line]:
        """``member_left`` through an explicit LeaveGroup (a pending member's in its own wording)."""
        if c.e.pending:
            return self._pending_member_left(c)
        if self.java:
            msg = f"{c.pre}[Group {c.g}] Member {c.m} has left group through explicit `LeaveGroup` request; client reason: {c.e.reason}"
        elif self.v2:
            msg = f"{c.pre}Member[group.instance.id {scala_opt(c.e.group_instance_id)}, member.id {c.m}] in group {c.g} has left, removing it from the group"
        else:
            msg = f"{c.pre}Member {scala_member(self._info(c.m), False)} has left group {c.g} through explicit `LeaveGroup`; client reason: {c.e.reason}"
        return [("INFO", c.lg, msg)]

    def _pending_member_left(self, c: EventContext) -> list[Line]:
        if self.java:
            msg = f"{c.pre}[Group {c.g}] Pending member {c.m} has left group through explicit `LeaveGroup` request; client reason: {c.e.reason}"
        elif self.v2:
            msg = f"{c.pre}Pending member {c.m} is leaving group {c.g}."
        else:
            msg = f"{c.pre}Pending member with memberId={c.m} has left group {c.g} through explicit `LeaveGroup` request"
        return [("INFO", c.lg, msg)]

    def _member_session_expired(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Member {c.m} in group {c.g} has failed, removing it from the group{c.dot}"
        return [("INFO", c.lg, msg)]

    def _pending_member_expired(self, c: EventContext) -> list[Line]:
        msg = f"{c.pre}Pending member {c.m} in group {c.g} has been removed after session timeout expiration."
        return [("INFO", c.lg, msg)]

    def _members_removed_not_joined(self, c: EventContext) -> list[Line]:
        ids = java_set(c.e.members) if self.java else scala_set(c.e.members)
        return [("INFO", c.lg, f"{c.pre}Group {c.g} removed dynamic members who haven't joined: {ids}")]

    # -- static membership
    def _static_member_replaced(self, c: EventContext) -> list[Line]:
        i = c.e.group_instance_id
        if self.v2:
            msg = f"{c.pre}Static member {scala_opt(i)} of group {c.g} with unknown member id rejoins, assigning new member id {c.m}, while old member id {c.e.old_member_id} will be removed."
        else:
            msg = f"{c.pre}Static member with groupInstanceId={i} and unknown member id joins group {c.g} in {c.st} state. Replacing previously mapped member {c.e.old_member_id} with this groupInstanceId."
        return [("INFO", c.lg, msg)]

    def _static_member_no_rebalance(self, c: EventContext) -> list[Line]:
        if self.java:
            msg = f"{c.pre}Static member which joins during Stable stage and doesn't affect the selected protocol will not trigger a rebalance."
        else:
            msg = f"{c.pre}Static member which joins during Stable stage and doesn't affect selectProtocol will not trigger rebalance."
        return [("INFO", c.lg, msg)]

    def _static_member_fenced(self, c: EventContext) -> list[Line]:
        """A stale member id of a static member; Scala 2.8 logs it as an ERROR from GroupMetadata."""
        op = c.e.operation or "heartbeat"
        i, old = c.e.group_instance_id, c.e.old_member_id
        if self.java:
            msg = f"{c.pre}Request memberId={c.m} for static member with groupInstanceId={i} is fenced by existing memberId={old} during operation {op}"
            return [("INFO", J_CG, msg)]
        if self.v2:
            msg = f"given member.id {c.m} is identified as a known static member {i}, but not matching the expected member.id {old} during {op}, will respond with instance fenced error"
            return [("ERROR", GMD, msg)]
        msg = f"{c.pre}Request memberId={c.m} for static member with groupInstanceId={i} is fenced by current memberId={old} during operation {op}"
        return [("INFO", c.lg, msg)]

    # -- group metadata (load, unload, death)
    def _group_loaded(self, c: EventContext) -> list[Line]:
        if self.java:
            msg = f"{c.pre}Loaded classic group {c.g} with {c.e.member_count or 0} members."
        else:
            msg = f"{c.pre}Loading group metadata for {c.g} with generation {c.gen}"
        return [("INFO", c.lg, msg)]

    def _group_unloaded(self, c: EventContext) -> list[Line]:
        if self.java:
            msg = f"{c.pre}[GroupId={c.g}] Unloading group metadata for generation {c.gen}."
        else:
            msg = f"{c.pre}Unloading group metadata for {c.g} with generation {c.gen}"
        return [("INFO", c.lg, msg)]

    def _group_dead(self, c: EventContext) -> list[Line]:
        if self.java:
            return [("INFO", c.lg, f"{c.pre}Group {c.g} is dead, skipping rebalance stage.")]
        msg = f"[GroupMetadataManager brokerId={c.broker}] Group {c.g} transitioned to Dead in generation {c.gen}"
        return [("INFO", GMM, msg)]

    # ------------------------------------------------------------------ partition moves
    def load_lines(
        self, broker: int, partition: int, epoch: int, took_ms: int, groups: int
    ) -> tuple[list[Line], list[Line]]:
        """Lines before and after loading ``__consumer_offsets-<partition>`` (coordinator election)."""
        tp = f"__consumer_offsets-{partition}"
        if self.java:
            rt = f"[GroupCoordinator id={broker}] "
            before = [("INFO", J_RT, f"{rt}Scheduling loading of metadata from {tp} with epoch {epoch}")]
            after = [
                (
                    "INFO",
                    J_RT,
                    f"{rt}Finished loading of metadata from {tp} with epoch {epoch} in {took_ms}ms where 0ms was spent in the scheduler. Loaded {groups * 7 + 3} records which total to {groups * 1311 + 120} bytes.",
                )
            ]
            return before, after
        gmm = f"[GroupMetadataManager brokerId={broker}] "
        before = [
            (
                "INFO",
                GC,
                f"[GroupCoordinator {broker}]: Elected as the group coordinator for partition {partition} in epoch {epoch}",
            ),
            (
                "INFO",
                GMM,
                f"{gmm}Scheduling loading of offsets and group metadata from {tp} for epoch {epoch}",
            ),
        ]
        after = [
            (
                "INFO",
                GMM,
                f"{gmm}Finished loading offsets and group metadata from {tp} in {took_ms} milliseconds for epoch {epoch}, of which 0 milliseconds was spent in the scheduler.",
            )
        ]
        return before, after

    def unload_lines(
        self, broker: int, partition: int, epoch: int, groups: int
    ) -> tuple[list[Line], list[Line]]:
        tp = f"__consumer_offsets-{partition}"
        if self.java:
            rt = f"[GroupCoordinator id={broker}] "
            return [("INFO", J_RT, f"{rt}Scheduling unloading of metadata for {tp} with epoch {epoch}")], []
        gmm = f"[GroupMetadataManager brokerId={broker}] "
        before = [
            (
                "INFO",
                GC,
                f"[GroupCoordinator {broker}]: Resigned as the group coordinator for partition {partition} in epoch {epoch}",
            ),
            ("INFO", GMM, f"{gmm}Scheduling unloading of offsets and group metadata from {tp}"),
        ]
        after = [
            (
                "INFO",
                GMM,
                f"{gmm}Finished unloading {tp} for coordinator epoch {epoch}. Removed {groups * 12} cached offsets and {groups} cached groups.",
            )
        ]
        return before, after

    def cleanup_line(self, broker: int, removed: int, took_ms: int) -> Line:
        """The periodic offsets-expiry line (every offsets.retention.check.interval.ms)."""
        if self.java:
            return (
                "INFO",
                J_SHARD,
                f"[GroupCoordinator id={broker} topic=__consumer_offsets partition={removed % 50}] Generated {removed} tombstone records while cleaning up group metadata in {took_ms} milliseconds.",
            )
        return (
            "INFO",
            GMM,
            f"[GroupMetadataManager brokerId={broker}] Removed {removed} expired offsets in {took_ms} milliseconds.",
        )


#: Every event kind the broker renders, with its renderer; other kinds give no line.
RENDERERS: dict[str, Callable[[BrokerRenderer, EventContext], list[Line]]] = {
    "rebalance_prepared": BrokerRenderer._rebalance_prepared,
    "join_completed": BrokerRenderer._join_completed,
    "group_empty": BrokerRenderer._group_empty,
    "assignment_received": BrokerRenderer._assignment_received,
    "no_member_rejoined": BrokerRenderer._no_member_rejoined,
    "leader_reelected": BrokerRenderer._leader_reelected,
    "sync_expired": BrokerRenderer._sync_expired,
    "member_id_required": BrokerRenderer._member_id_required,
    "member_added": BrokerRenderer._member_added,
    "rejoin_unexpected_state": BrokerRenderer._rejoin_unexpected_state,
    "member_left": BrokerRenderer._member_left,
    "member_session_expired": BrokerRenderer._member_session_expired,
    "pending_member_expired": BrokerRenderer._pending_member_expired,
    "members_removed_not_joined": BrokerRenderer._members_removed_not_joined,
    "static_member_replaced": BrokerRenderer._static_member_replaced,
    "static_member_no_rebalance": BrokerRenderer._static_member_no_rebalance,
    "static_member_fenced": BrokerRenderer._static_member_fenced,
    "group_loaded": BrokerRenderer._group_loaded,
    "group_unloaded": BrokerRenderer._group_unloaded,
    "group_dead": BrokerRenderer._group_dead,
}
