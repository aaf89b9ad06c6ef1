"""Coordinator configuration and the version switch.

``CoordinatorConfig.version`` names the Kafka broker release whose classic-group behaviour is
modelled; :class:`Features` turns it into booleans, one per behaviour that changed between
releases (reference ``kafka-coordinator.md`` section 1.14, checked against the Kafka sources at the
tags listed in section 0).

Version strings: ``"0.10"`` (= 0.10.0: no Empty state, no initial rebalance delay, no rebalance
timeout in JoinGroup), ``"0.10.1"``, ``"0.11"``, ``"1.0"`` ... ``"3.9"``, ``"4.0"``, also with a patch
part (``"2.6.1"``, ``"2.8.1"``).  ``implementation`` selects the Scala ``GroupCoordinator`` or the
Java ``GroupMetadataManager``; the default is Java from 4.0 on, Scala before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SCALA = "scala"
JAVA = "java"


def parse_version(version: str) -> tuple[int, int, int]:
    """``"2.8.1"`` -> (2, 8, 1); ``"3.9"`` -> (3, 9, 0). Raises ValueError on garbage."""
    parts = str(version).strip().split(".")
    if not parts or len(parts) > 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"invalid Kafka version {version!r} (expected e.g. '3.9' or '2.8.1')")
    nums = [int(p) for p in parts] + [0] * (3 - len(parts))
    return nums[0], nums[1], nums[2]


def parse_version_hint(text: str | None) -> tuple[int, ...] | None:
    """A lenient reading of a version hint for the replay: the leading numeric parts (``"3.9.0-rc3"``
    -> (3, 9, 0), ``"0.10"`` -> (0, 10)); None when there is none."""
    if not text:
        return None
    out = []
    for part in str(text).split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out) or None


@dataclass(frozen=True, slots=True)
class Features:
    """Behaviour switches derived from the broker version (first version in brackets)."""

    version: tuple[int, int, int]
    implementation: str
    #: groups start Empty and an empty group goes Empty (0.10.1, KAFKA-2720); before: start
    #: Stable, empty after a join phase -> Dead and removed
    empty_state: bool
    #: JoinGroup carries rebalanceTimeoutMs (0.10.1, KIP-62); before: session timeout is used
    rebalance_timeout: bool
    #: "(reason: ...)" in the rebalance log line (2.1)
    rebalance_reason: bool
    #: MEMBER_ID_REQUIRED two-step join, pending members, group.max.size, 5-minute new-member
    #: join timeout (2.2, KIP-394 / KAFKA-7610)
    member_id_required: bool
    #: group.instance.id, maybeElectNewJoinedLeader, static members kept at join completion (2.3)
    static_membership: bool
    #: heartbeat validates dead/fenced/member/generation before looking at the state (2.3)
    heartbeat_validate_first: bool
    #: JoinGroup/SyncGroup/OffsetCommit on a Dead group -> COORDINATOR_NOT_AVAILABLE (2.4, KAFKA-8386)
    dead_coordinator_not_available: bool
    #: LeaveGroup with several members and admin removal by group.instance.id (2.4, KIP-345)
    batch_leave: bool
    #: SyncGroup checks protocolType/protocolName (2.5, KIP-559)
    sync_protocol_check: bool
    #: acceptJoiningMember max-size rule (2.6.0)
    accept_joining_member: bool
    #: heartbeat in CompletingRebalance answers NONE and resets the deadline (2.6.1 / 2.7, KAFKA-10134)
    heartbeat_none_in_completing: bool
    #: rebalance reasons name the state ("Member m joining group during S") (2.7)
    reasons_with_state: bool
    #: DelayedSync: members that don't SyncGroup within the rebalance timeout are removed
    #: (2.8.1 / 3.0, KAFKA-12890)
    delayed_sync: bool
    #: KIP-800 client reasons in JoinGroup/LeaveGroup and "; client reason: r" in logs (3.2)
    client_reasons: bool
    #: KIP-814 skipAssignment for a static leader rejoining a Stable group (3.2)
    skip_assignment: bool
    #: session/rebalance timeouts updated when a known member rejoins (3.4, KAFKA-14009)
    update_timeouts_on_rejoin: bool
    #: Java coordinator rules: newMemberAdded when previousState == Empty; removals complete the
    #: join phase even during the initial delay; one rebalance per LeaveGroup batch
    java: bool

    @classmethod
    def for_version(cls, version: str, implementation: str | None = None) -> Features:
        v = parse_version(version)
        impl = implementation or (JAVA if v >= (4, 0, 0) else SCALA)
        if impl not in (SCALA, JAVA):
            raise ValueError(f"implementation must be 'scala' or 'java', not {implementation!r}")
        if impl == JAVA and v < (3, 7, 0):
            raise ValueError(f"the Java coordinator does not exist before 3.7 (version {version!r})")
        return cls(
            version=v,
            implementation=impl,
            empty_state=v >= (0, 10, 1),
            rebalance_timeout=v >= (0, 10, 1),
            rebalance_reason=v >= (2, 1, 0),
            member_id_required=v >= (2, 2, 0),
            static_membership=v >= (2, 3, 0),
            heartbeat_validate_first=v >= (2, 3, 0),
            dead_coordinator_not_available=v >= (2, 4, 0),
            batch_leave=v >= (2, 4, 0),
            sync_protocol_check=v >= (2, 5, 0),
            accept_joining_member=v >= (2, 6, 0),
            heartbeat_none_in_completing=v >= (2, 6, 1),
            reasons_with_state=v >= (2, 7, 0),
            delayed_sync=(v >= (2, 8, 1) and v[:2] == (2, 8)) or v >= (3, 0, 0),
            client_reasons=v >= (3, 2, 0),
            skip_assignment=v >= (3, 2, 0),
            update_timeouts_on_rejoin=v >= (3, 4, 0),
            java=impl == JAVA,
        )


@dataclass(frozen=True)
class CoordinatorConfig:
    """Broker settings of the modelled coordinator.

    ``None`` means "the default of ``version``": ``initial_rebalance_delay_ms`` is 3000 from 0.11
    (``group.initial.rebalance.delay.ms``, KAFKA-4925) and 0 before; ``max_session_timeout_ms`` is
    300000 up to 2.2 and 1800000 from 2.3. After construction both fields hold ints.
    """

    version: str = "3.9"
    implementation: str | None = None
    initial_rebalance_delay_ms: int | None = None
    min_session_timeout_ms: int = 6000
    max_session_timeout_ms: int | None = None
    group_max_size: int = 2**31 - 1
    new_member_join_timeout_ms: int = 300000
    offsets_topic_partitions: int = 50
    features: Features = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        feats = Features.for_version(self.version, self.implementation)
        object.__setattr__(self, "features", feats)
        object.__setattr__(self, "implementation", feats.implementation)
        if self.initial_rebalance_delay_ms is None:
            object.__setattr__(self, "initial_rebalance_delay_ms", 3000 if feats.version >= (0, 11, 0) else 0)
        if self.max_session_timeout_ms is None:
            object.__setattr__(
                self, "max_session_timeout_ms", 1800000 if feats.version >= (2, 3, 0) else 300000
            )
        for name in ("initial_rebalance_delay_ms", "min_session_timeout_ms", "max_session_timeout_ms",
                     "group_max_size", "new_member_join_timeout_ms", "offsets_topic_partitions"):  # fmt: skip
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"CoordinatorConfig.{name} must be a non-negative int, not {value!r}")
        if self.offsets_topic_partitions == 0:
            raise ValueError("CoordinatorConfig.offsets_topic_partitions must be > 0")
