"""``group.consumer.migration.policy``: when Kafka converts a classic group into a consumer group on a
consumer member's join (online upgrade) and a consumer group back into a classic group when its
last consumer-protocol member leaves (online downgrade). ``GroupMetadataManager.validateOnlineUpgrade``
and ``validateOnlineDowngradeWithFencedMember``; each refusal is Kafka's log reason.

``ConsumerGroupMigrationPolicy``: ``disabled``, ``upgrade``, ``downgrade``, ``bidirectional``.
"""

from __future__ import annotations

__all__ = ["upgrade_refusal", "downgrade_refusal", "downgrade_replacement_refusal"]


def upgrade_refusal(policy: str, group_id: str, protocol_type: str | None, num_members: int, max_size: int) -> str | None:
    """Why the classic group cannot be upgraded (None: it can)."""
    if policy not in ("upgrade", "bidirectional"):
        return f"Cannot upgrade classic group {group_id} to consumer group because the online upgrade is disabled."
    if protocol_type != "consumer":
        return (
            f"Cannot upgrade classic group {group_id} to consumer group because the group does not use the "
            "consumer embedded protocol."
        )
    if num_members > max_size:
        return (
            f"Cannot upgrade classic group {group_id} to consumer group because the group size exceeds the "
            "consumer group maximum size."
        )
    return None


def downgrade_refusal(
    policy: str, group_id: str, others_all_classic: bool, num_members: int, classic_max_size: int
) -> str | None:
    """Why the consumer group is not downgraded when a member leaves (None: it is). ``others_all_classic``:
    every other member uses the classic protocol."""
    if not others_all_classic:
        return "not every other member uses the classic protocol"
    if num_members <= 1:
        return f"Skip downgrading the consumer group {group_id} to classic group because it's empty."
    if policy not in ("downgrade", "bidirectional"):
        return f"Cannot downgrade consumer group {group_id} to classic group because the online downgrade is disabled."
    if num_members - 1 > classic_max_size:
        return (
            f"Cannot downgrade consumer group {group_id} to classic group because its group size is greater "
            "than classic group max size."
        )
    return None


def downgrade_replacement_refusal(
    policy: str, group_id: str, others_all_classic: bool, num_members: int, classic_max_size: int
) -> str | None:
    """Why the consumer group is not downgraded when a classic static member replaces the member
    (``validateOnlineDowngradeWithReplacedMemberId``; None: it is)."""
    if not others_all_classic:
        return "not every other member uses the classic protocol"
    if policy not in ("downgrade", "bidirectional"):
        return f"Cannot downgrade consumer group {group_id} to classic group because the online downgrade is disabled."
    if num_members > classic_max_size:
        return (
            f"Cannot downgrade consumer group {group_id} to classic group because its group size is greater "
            "than classic group max size."
        )
    return None
