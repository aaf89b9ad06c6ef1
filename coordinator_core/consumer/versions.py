"""The consumer-protocol coordinator's versioned rules: what changed between Kafka 4.0, 4.1 and 4.2,
one boolean per behaviour, each citing the Kafka change that introduced it.

``ConsumerRules.for_version("4.1")`` gives the rules of a release; the coordinator reads only
these booleans (a rule lives here, nowhere else).
"""

from __future__ import annotations

from dataclasses import dataclass

from coordinator_core.config import parse_version

__all__ = ["ConsumerRules", "SUPPORTED_VERSIONS"]

SUPPORTED_VERSIONS = ("4.0", "4.1", "4.2")


@dataclass(frozen=True, slots=True)
class ConsumerRules:
    version: tuple[int, int, int]
    #: ConsumerGroupHeartbeat v1 requires a client-generated member id on every request, the
    #: first one included (4.0, KIP-1082, KAFKA-17116); v0 requests may still join with "".
    member_id_required_v1: bool
    #: regular-expression subscriptions (``SubscribedTopicRegex``) are accepted and resolved by
    #: the coordinator (4.0, KIP-848 regex support, KAFKA-17554 / KAFKA-14485 series)
    regex_subscriptions: bool
    #: the group epoch record carries the subscribed topics' metadata hash and no
    #: ConsumerGroupPartitionMetadata record is written; "Bumped group epoch to E with metadata
    #: hash H." (4.1, KIP-1101, KAFKA-17747)
    metadata_hash_epoch_record: bool
    #: a member whose subscription drops a topic has that topic's partitions revoked at once,
    #: even when it is already at the target epoch (4.2, KAFKA-19431, apache/kafka#20055)
    enforce_subscription_consistency: bool
    #: leaving UNREVOKED_PARTITIONS for UNREVOKED_PARTITIONS bumps the member epoch by one
    #: (4.0, 4.1); removed in 4.2 (KAFKA-19974, apache/kafka#21107)
    unrevoked_epoch_bump: bool
    #: partitions pending revocation by the reconciling member itself are not counted as
    #: unreleased (4.2, KAFKA-19449, apache/kafka#20781)
    own_pending_not_unreleased: bool

    @classmethod
    def for_version(cls, version: str) -> ConsumerRules:
        v = parse_version(version)
        if v[:2] < (4, 0):
            raise ValueError(f"consumer-protocol coordinator modelled from 4.0; got {version!r}")
        return cls(
            version=v,
            member_id_required_v1=True,
            regex_subscriptions=True,
            metadata_hash_epoch_record=v >= (4, 1, 0),
            enforce_subscription_consistency=v >= (4, 2, 0),
            unrevoked_epoch_bump=v < (4, 2, 0),
            own_pending_not_unreleased=v >= (4, 2, 0),
        )
