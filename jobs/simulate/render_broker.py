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
        k = e.kind
        g = e.group_id
        m = e.member_id
        gen = e.generation
        st = getattr(e, "state", None) or "Stable"
        p = partition
        J = self.java
        pre = self.ident(broker, partition)
        lg = J_GMM if J else GC
        suffix_p = "" if J else f" (__consumer_offsets-{p})"
        dot = "." if J else ""
        if k == "rebalance_prepared":
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Preparing to rebalance group {g} in state PreparingRebalance with old generation {gen}{suffix_p} (reason: {e.reason}){dot}",
                )
            ]
        if k == "join_completed":
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Stabilized group {g} generation {gen}{suffix_p} with {e.member_count} members{dot}",
                )
            ]
        if k == "group_empty":
            return [("INFO", lg, f"{pre}Group {g} with generation {gen} is now empty{suffix_p}{dot}")]
        if k == "assignment_received":
            counts = f"The group has {e.member_count} members, {e.static_count or 0} of which are static."
            if self.v2:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Assignment received from leader for group {g} for generation {gen}. {counts}",
                    )
                ]
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Assignment received from leader {m} for group {g} for generation {gen}. {counts}",
                )
            ]
        if k == "member_id_required":
            if J:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Dynamic member with unknown member id joins group {g} in {st} state. Created a new member id {m} and requesting the member to rejoin with this id.",
                    )
                ]
            level = "DEBUG" if self.v2 else "INFO"
            return [
                (
                    level,
                    lg,
                    f"{pre}Dynamic member with unknown member id joins group {g} in {st} state. Created a new member id {m} and request the member to rejoin with this id.",
                )
            ]
        if k == "member_added":
            if e.static:
                i = e.group_instance_id
                if J:
                    return [
                        (
                            "INFO",
                            lg,
                            f"{pre}Static member with groupInstanceId={i} and unknown member id joins group {g} in {st} state. Created a new member id {m} for this member and added to the group.",
                        )
                    ]
                if self.v2:
                    return [
                        (
                            "INFO",
                            lg,
                            f"{pre}Static Member with unknown member id joins group {g} in {st} state. Created a new member id {m} for this member and add to the group.",
                        ),
                        (
                            "INFO",
                            lg,
                            f"{pre}Adding new static member {scala_opt(i)} to group {g} with member id {m}.",
                        ),
                    ]
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Static member with groupInstanceId={i} and unknown member id joins group {g} in {st} state. Created a new member id {m} for this member and add to the group.",
                    )
                ]
            if J:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Pending dynamic member with id {m} joins group {g} in {st} state. Adding to the group now.",
                    )
                ]
            if self.v2:
                return [
                    (
                        "DEBUG",
                        lg,
                        f"{pre}Dynamic Member with specific member id {m} joins group {g} in {st} state. Adding to the group now.",
                    )
                ]
            return [
                (
                    "DEBUG",
                    lg,
                    f"{pre}Pending dynamic member with id {m} joins group {g} in {st} state. Adding to the group now.",
                )
            ]
        if k == "member_left":
            if e.pending:
                if J:
                    return [
                        (
                            "INFO",
                            lg,
                            f"{pre}[Group {g}] Pending member {m} has left group through explicit `LeaveGroup` request; client reason: {e.reason}",
                        )
                    ]
                if self.v2:
                    return [("INFO", lg, f"{pre}Pending member {m} is leaving group {g}.")]
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Pending member with memberId={m} has left group {g} through explicit `LeaveGroup` request",
                    )
                ]
            if J:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}[Group {g}] Member {m} has left group through explicit `LeaveGroup` request; client reason: {e.reason}",
                    )
                ]
            if self.v2:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Member[group.instance.id {scala_opt(e.group_instance_id)}, member.id {m}] in group {g} has left, removing it from the group",
                    )
                ]
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Member {scala_member(self._info(m), False)} has left group {g} through explicit `LeaveGroup`; client reason: {e.reason}",
                )
            ]
        if k == "member_session_expired":
            return [("INFO", lg, f"{pre}Member {m} in group {g} has failed, removing it from the group{dot}")]
        if k == "pending_member_expired":
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Pending member {m} in group {g} has been removed after session timeout expiration.",
                )
            ]
        if k == "members_removed_not_joined":
            ids = java_set(e.members) if J else scala_set(e.members)
            return [("INFO", lg, f"{pre}Group {g} removed dynamic members who haven't joined: {ids}")]
        if k == "leader_reelected":
            info = self._info(m)
            if J:
                return [
                    (
                        "INFO",
                        J_CG,
                        f"{pre}Group leader [memberId: {e.old_member_id}, groupInstanceId: {java_opt(self._info(e.old_member_id).group_instance_id)}] failed to join before the rebalance timeout. Member {m} was elected as the new leader.",
                    )
                ]
            old = self._info(e.old_member_id)
            return [
                (
                    "INFO",
                    GMD,
                    f"Group leader [member.id: {e.old_member_id}, group.instance.id: {scala_opt(old.group_instance_id)}] failed to join before rebalance timeout, while new leader {scala_member(info, self.v2)} was elected.",
                )
            ]
        if k == "no_member_rejoined":
            return [
                ("ERROR", lg, f"{pre}Group {g} could not complete rebalance because no members rejoined{dot}")
            ]
        if k == "sync_expired":
            if e.unexpected:
                return [
                    (
                        "ERROR",
                        lg,
                        f"{pre}Received unexpected notification of sync expiration for {g} with an old generation {gen} while the group has {gen}.",
                    )
                ]
            if J:
                return [
                    (
                        "DEBUG",
                        lg,
                        f"{pre}Group {g} removed members who haven't sent their sync requests: {java_set(e.members)}",
                    )
                ]
            return [
                (
                    "DEBUG",
                    lg,
                    f"{pre}Group {g} removed members who haven't sent their sync request: {scala_set(e.members)}",
                )
            ]
        if k == "static_member_replaced":
            i = e.group_instance_id
            if J:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Static member with groupInstanceId={i} and unknown member id joins group {g} in {st} state. Replacing previously mapped member {e.old_member_id} with this groupInstanceId.",
                    )
                ]
            if self.v2:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Static member {scala_opt(i)} of group {g} with unknown member id rejoins, assigning new member id {m}, while old member id {e.old_member_id} will be removed.",
                    )
                ]
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Static member with groupInstanceId={i} and unknown member id joins group {g} in {st} state. Replacing previously mapped member {e.old_member_id} with this groupInstanceId.",
                )
            ]
        if k == "static_member_no_rebalance":
            if J:
                return [
                    (
                        "INFO",
                        lg,
                        f"{pre}Static member which joins during Stable stage and doesn't affect the selected protocol will not trigger a rebalance.",
                    )
                ]
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Static member which joins during Stable stage and doesn't affect selectProtocol will not trigger rebalance.",
                )
            ]
        if k == "static_member_fenced":
            op = e.operation or "heartbeat"
            if J:
                return [
                    (
                        "INFO",
                        J_CG,
                        f"{pre}Request memberId={m} for static member with groupInstanceId={e.group_instance_id} is fenced by existing memberId={e.old_member_id} during operation {op}",
                    )
                ]
            if self.v2:
                return [
                    (
                        "ERROR",
                        GMD,
                        f"given member.id {m} is identified as a known static member {e.group_instance_id}, but not matching the expected member.id {e.old_member_id} during {op}, will respond with instance fenced error",
                    )
                ]
            return [
                (
                    "INFO",
                    lg,
                    f"{pre}Request memberId={m} for static member with groupInstanceId={e.group_instance_id} is fenced by current memberId={e.old_member_id} during operation {op}",
                )
            ]
        if k == "rejoin_unexpected_state":
            return [
                (
                    "WARN",
                    lg,
                    f"{pre}Attempt to add rejoining member {m} of group {g} in unexpected group state {st}",
                )
            ]
        if k == "group_loaded":
            if J:
                return [("INFO", lg, f"{pre}Loaded classic group {g} with {e.member_count or 0} members.")]
            return [("INFO", lg, f"{pre}Loading group metadata for {g} with generation {gen}")]
        if k == "group_unloaded":
            if J:
                return [("INFO", lg, f"{pre}[GroupId={g}] Unloading group metadata for generation {gen}.")]
            return [("INFO", lg, f"{pre}Unloading group metadata for {g} with generation {gen}")]
        if k == "group_dead":
            if J:
                return [("INFO", lg, f"{pre}Group {g} is dead, skipping rebalance stage.")]
            return [
                (
                    "INFO",
                    GMM,
                    f"[GroupMetadataManager brokerId={broker}] Group {g} transitioned to Dead in generation {gen}",
                )
            ]
        return []

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
