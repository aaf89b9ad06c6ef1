"""Reason text -> cause: every broker reason text of reference 3.2/3.4 in every version variant,
and the client-side rejoin/leave reasons."""

from __future__ import annotations

import pytest

from coordinator_core.causes import classify_client_reason, classify_reason, client_id_of
from coordinator_core.records import CAUSES

M = "consumer-g-1-0a6f1b2c-1234-4abc-9def-0123456789ab"

# (reason text, cause, member id, group instance id)
BROKER = [
    # addMemberAndRebalance: 2.1/2.2, 2.3 (sic "instanceid"), 2.4+, 3.2+ client reason, Java null
    (f"Adding new member {M}", "new_member", M, None),
    (f"Adding new member {M} with group instanceid None", "new_member", M, None),
    (f"Adding new member {M} with group instance id None", "new_member", M, None),
    (f"Adding new member {M} with group instance id Some(app-0)", "new_member", M, "app-0"),
    (
        f"Adding new member {M} with group instance id None; client reason: not provided",
        "new_member",
        M,
        None,
    ),
    (
        f"Adding new member {M} with group instance id None; client reason: need to re-join with the given member-id: {M}",
        "new_member",
        M,
        None,
    ),  # fmt: skip
    (
        f"Adding new member {M} with group instance id null; client reason: need to re-join with the given member-id: {M}",
        "new_member",
        M,
        None,
    ),
    (
        f"Adding new member {M} with group instance id app-0; client reason: not provided",
        "new_member",
        M,
        "app-0",
    ),
    # known member joining during PreparingRebalance (Scala 2.8+, Java "is joining")
    (f"Member {M} joining group during PreparingRebalance", "new_member", M, None),
    (f"Member {M} joining group during Stable; client reason: not provided", "new_member", M, None),
    (
        f"Member {M} is joining group during Stable; client reason: rebalance failed due to x",
        "new_member",
        M,
        None,
    ),
    (
        f"Member {M} joining group during Stable; client reason: cached metadata has changed",
        "metadata_change",
        M,
        None,
    ),
    # updating metadata: 2.1-2.7, 2.8+, 3.2+
    (f"Updating metadata for member {M}", "metadata_change", M, None),
    (f"Updating metadata for member {M} during CompletingRebalance", "metadata_change", M, None),
    (
        f"Updating metadata for member {M} during Stable; client reason: subscription has changed",
        "metadata_change",
        M,
        None,
    ),
    # leader rejoin: 2.8 lower-case, 3.0+, 3.2+ client reasons
    (f"leader {M} re-joining group during Stable", "leader_rejoin", M, None),
    (f"Leader {M} re-joining group during Stable", "leader_rejoin", M, None),
    (f"Leader {M} re-joining group during Stable; client reason: not provided", "leader_rejoin", M, None),
    (
        f"Leader {M} re-joining group during Stable; client reason: cached metadata has changed",
        "metadata_change",
        M,
        None,
    ),
    (
        f"Leader {M} re-joining group during Stable; client reason: subscription has changed",
        "metadata_change",
        M,
        None,
    ),
    # heartbeat expiry: Scala, Java (trailing period)
    (f"removing member {M} on heartbeat expiration", "session_timeout", M, None),
    (f"removing member {M} on heartbeat expiration.", "session_timeout", M, None),
    # LeaveGroup: 2.x lower-case, 3.0/3.1, 3.2+, poll timeout, Java batch
    (f"removing member {M} on LeaveGroup", "member_leave", M, None),
    (f"Removing member {M} on LeaveGroup", "member_leave", M, None),
    (
        f"Removing member {M} on LeaveGroup; client reason: the consumer is being closed",
        "member_leave",
        M,
        None,
    ),
    (
        f"Removing member {M} on LeaveGroup; client reason: the consumer unsubscribed from all topics",
        "member_leave",
        M,
        None,
    ),
    (
        f"Removing member {M} on LeaveGroup; client reason: consumer poll timeout has expired.",
        "poll_timeout_leave",
        M,
        None,
    ),
    (f"explicit `LeaveGroup` request for ({M}) members.", "member_leave", M, None),
    (f"explicit `LeaveGroup` request for ({M}, other-1) members.", "member_leave", M, None),
    # pending sync expiry: Scala Set / HashSet, Java list
    (f"Removing Set({M}) on pending sync request expiration", "sync_timeout", M, None),
    (f"Removing HashSet({M}, a, b, c, d) on pending sync request expiration", "sync_timeout", M, None),
    (f"Removing [{M}, a] on pending sync request expiration", "sync_timeout", M, None),
    # storing the assignment failed: 2.x, 3.0, 3.2+, Java (sic)
    (f"error when storing group assignment during SyncGroup (member: {M})", "store_error", M, None),
    (f"Error when storing group assignment during SyncGroup (member: {M})", "store_error", M, None),
    (
        f"Error COORDINATOR_NOT_AVAILABLE when storing group assignment during SyncGroup (member: {M})",
        "store_error",
        M,
        None,
    ),
    (
        f"Error NOT_COORDINATOR when storing group assignmentduring SyncGroup (member: {M}).",
        "store_error",
        M,
        None,
    ),
    # static members: protocol change, metadata update (2.8 Option, 3.x plain, 3.2+ client reason)
    (
        f"Group's selectedProtocol will change because static member {M} with instance id Some(app-0) joined with change of protocol",
        "static_member",
        M,
        "app-0",
    ),
    (
        f"Group's selectedProtocol will change because static member {M} with instance id app-0 joined with change of protocol; client reason: not provided",
        "static_member",
        M,
        "app-0",
    ),
    (f"Updating metadata for static member {M} with instance id Some(app-0)", "static_member", M, "app-0"),
    (
        f"Updating metadata for static member {M} with instance id app-0; client reason: not provided",
        "static_member",
        M,
        "app-0",
    ),
    # over capacity after load: 2.3-3.0 (sic "Rebalacing"), 3.1+, Java
    (
        "Freshly-loaded group is over capacity (GroupConfig.groupMaxSize). Rebalacing in order to give a chance for consumers to commit offsets",
        "coordinator_move",
        None,
        None,
    ),
    (
        "Freshly-loaded group is over capacity (10). Rebalancing in order to give a chance for consumers to commit offsets",
        "coordinator_move",
        None,
        None,
    ),
    (
        "Freshly-loaded group g (size 12) is over capacity 10. Rebalancing in order to give a chance for consumers to commit offsets",
        "coordinator_move",
        None,
        None,
    ),
    # 2.0 lines have no reason; unrecognised text
    (None, "unknown", None, None),
    ("", "unknown", None, None),
    ("something new in Kafka 5", "unknown", None, None),
]


@pytest.mark.parametrize(
    ("text", "cause", "member", "instance"), BROKER, ids=[str(i) for i in range(len(BROKER))]
)
def test_broker_reason(text, cause, member, instance):
    info = classify_reason(text)
    assert info.cause in CAUSES
    assert (info.cause, info.member_id, info.group_instance_id) == (cause, member, instance)


def test_sets_of_members_are_parsed():
    assert classify_reason(f"explicit `LeaveGroup` request for ({M}, other-1) members.").members == (
        M,
        "other-1",
    )
    assert classify_reason("Removing Set(a, b) on pending sync request expiration").members == ("a", "b")
    assert classify_reason(f"Removing member {M} on LeaveGroup; client reason: x").client_reason == "x"


CLIENT = [
    (f"need to re-join with the given member-id: {M}", "new_member", M, False),
    ("need to re-join with the given member-id", "new_member", "self", False),
    (
        "rebalance failed due to 'The group member needs to have a valid member id before actually entering a consumer group.' (MemberIdRequiredException)",
        "new_member",
        "self",
        False,
    ),  # fmt: skip
    ("consumer poll timeout has expired.", "poll_timeout_leave", "self", False),
    (
        "consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time processing messages.",
        "poll_timeout_leave",
        "self",
        False,
    ),  # fmt: skip
    ("the consumer is being closed", "member_leave", "self", False),
    ("consumer pro-actively leaving the group", "member_leave", "self", False),
    ("the consumer unsubscribed from all topics", "member_leave", "self", False),
    ("encountered UNKNOWN_MEMBER_ID from HEARTBEAT response", "session_timeout", "self", False),
    ("encountered FENCED_INSTANCE_ID from JOIN_GROUP response", "static_member", "self", False),
    ("cached metadata has changed", "metadata_change", "self", False),
    (
        "cached metadata has changed from {a} at the beginning of the rebalance to {b}",
        "metadata_change",
        "self",
        False,
    ),
    ("subscription has changed", "metadata_change", "self", False),
    ("received assignment does not match the current subscription", "metadata_change", "self", False),
    ("group is already rebalancing", "unknown", None, True),
    ("need to revoke partitions and re-join", "metadata_change", "self", False),
    ("offset commit failed since group is already rebalancing", "unknown", None, True),
    (
        "rebalance failed due to 'The group is rebalancing, so a rejoin is needed.' (RebalanceInProgressException)",
        "unknown",
        None,
        True,
    ),
    ("encountered ILLEGAL_GENERATION from HEARTBEAT response", "unknown", None, True),
]


@pytest.mark.parametrize(
    ("text", "cause", "member", "follow"), CLIENT, ids=[str(i) for i in range(len(CLIENT))]
)
def test_client_reason(text, cause, member, follow):
    info = classify_client_reason(text, "self")
    assert (info.cause, info.member_id, info.follow) == (cause, member, follow)


def test_client_id_of_dynamic_member_ids():
    assert client_id_of(M) == "consumer-g-1"
    assert client_id_of("console-consumer-0a6f1b2c-1234-4abc-9def-0123456789ab") == "console-consumer"
    assert client_id_of("app-0-0a6f1b2c-1234-4abc-9def-0123456789ab", "app-0") is None  # static
    assert client_id_of("m1") is None
    assert client_id_of(None) is None


def test_texts_rendered_by_the_core_model_classify_as_expected():
    """Cross-check with coordinator_core.reasons (the request-level model's renderings)."""
    reasons = pytest.importorskip("coordinator_core.reasons")
    config = pytest.importorskip("coordinator_core.config")
    checked = 0
    for version in ("2.1", "2.3", "2.4", "2.7", "2.8", "3.0", "3.1", "3.2", "3.9"):
        for impl in ("scala", "java") if version == "3.9" else ("scala",):
            f = config.Features.for_version(version, impl)
            cases = [
                (reasons.add_member(f, M, None, "r"), "new_member"),
                (reasons.add_member(f, M, "app-0", None), "new_member"),
                (reasons.updating_metadata(f, M, "Stable", None), "metadata_change"),
                (reasons.heartbeat_expiration(f, M), "session_timeout"),
                (reasons.leave_group(f, M, "the consumer is being closed"), "member_leave"),
                (reasons.leave_group_batch([M]), "member_leave"),
                (reasons.pending_sync_expiration(f, [M]), "sync_timeout"),
                (reasons.static_protocol_change(f, M, "app-0", None), "static_member"),
                (reasons.static_update(f, M, "app-0", None), "static_member"),
                (reasons.over_capacity(f, "g", 5, 3), "coordinator_move"),
            ]
            lr = reasons.leader_rejoin(f, M, "Stable", None)
            cases.append((lr, "metadata_change" if lr.startswith("Updating") else "leader_rejoin"))
            for text, cause in cases:
                assert classify_reason(text).cause == cause, (version, impl, text)
                checked += 1
    assert checked == 10 * 11
