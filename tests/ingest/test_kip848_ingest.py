"""KIP-848 (consumer-protocol) lines as Kafka writes them, read by both readers: the new consumer's
multi-line ``Reconciling assignment`` entry (Added / Revoked partitions and the member id come from its
tab-indented block; the local epoch is not a member epoch), a 4.x broker excerpt, and the conversion
line."""

from __future__ import annotations

import pytest

from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes

P = "[Consumer clientId=consumer-g-1, groupId=g] "
CMM = "(org.apache.kafka.clients.consumer.internals.ConsumerMembershipManager)"
J = "[GroupCoordinator id=1 topic=__consumer_offsets partition=12] "
GMM = "(org.apache.kafka.coordinator.group.GroupMetadataManager)"

RECONCILING = (
    f"[2025-03-01 10:00:00,100] INFO {P}Member m1 with epoch 4 transitioned from STABLE to RECONCILING. {CMM}\n"
    f"[2025-03-01 10:00:00,120] INFO {P}Reconciling assignment with local epoch 2\n"
    "\tMember:                                    m1\n"
    "\tAssigned partitions:                       [orders-0, orders-1]\n"
    "\tCurrent owned partitions:                  [orders-0, orders-1, orders-2]\n"
    "\tAdded partitions (assigned - owned):       []\n"
    "\tRevoked partitions (owned - assigned):     [orders-2]\n"
    f" {CMM}\n"
    f"[2025-03-01 10:00:00,130] INFO {P}Revoking previously assigned partitions orders-2 {CMM}\n"
    f"[2025-03-01 10:00:05,000] INFO {P}Member m1 with epoch 4 transitioned from RECONCILING to ACKNOWLEDGING. {CMM}\n"
    f"[2025-03-01 10:00:10,000] INFO {P}Member m1 with epoch 5 transitioned from ACKNOWLEDGING to STABLE. {CMM}\n"
)

BROKER_41 = (
    f"[2025-03-01 10:00:00,000] INFO {J}[GroupId g] Member m3 joins the consumer group using the consumer protocol. {GMM}\n"
    f"[2025-03-01 10:00:00,001] INFO {J}[GroupId g] Bumped group epoch to 5 with metadata hash 2421248355301747518. {GMM}\n"
    f"[2025-03-01 10:00:00,004] INFO {J}[GroupId g] Computed a new target assignment for epoch 5 with 'uniform' assignor in 3ms. {GMM}\n"
    f"[2025-03-01 10:01:00,000] INFO {J}[GroupId g] Member m2 fenced from the group because the member session expired.. {GMM}\n"
    f"[2025-03-01 10:02:00,000] INFO {J}[GroupId g] Converted the consumer group to a classic group. {GMM}\n"
)


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes], ids=["fast", "reference"])
def test_reconciliation_block(reader) -> None:
    ev, q, audit = reader(RECONCILING.encode(), "client.log", "c1", None, "r")
    rows = ev.to_pylist()
    assert [r["kind"] for r in rows] == [
        "member_state_changed", "reconciliation_started", "partitions_revoked", "member_state_changed",
        "member_state_changed",
    ]  # fmt: skip
    rec = rows[1]
    assert rec["member_id"] == "m1" and rec["partitions"] == [] and rec["revoked"] == ["orders-2"]
    assert rec["member_epoch"] is None and rec["generation"] is None and rec["reason"] == "local epoch 2"
    assert [(r["from_state"], r["state"], r["member_epoch"]) for r in rows if r["kind"] == "member_state_changed"] == [
        ("STABLE", "RECONCILING", 4), ("RECONCILING", "ACKNOWLEDGING", 4), ("ACKNOWLEDGING", "STABLE", 5),
    ]  # fmt: skip
    assert audit["quarantined"] == 0 and audit["continuations"] == 6


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes], ids=["fast", "reference"])
def test_broker_41_excerpt(reader) -> None:
    ev, q, audit = reader(BROKER_41.encode(), "broker.log", "c1", None, "r")
    got = [(r["kind"], r["member_id"], r["generation"], r["protocol_type"], r["reason"]) for r in ev.to_pylist()]
    assert got == [
        ("consumer_member_joined", "m3", None, "consumer", None),
        ("group_epoch_bumped", None, 5, None, "metadata hash 2421248355301747518"),
        ("target_assignment_computed", None, 5, None, None),
        ("consumer_member_fenced", "m2", None, None, "the member session expired"),
        ("group_converted", None, None, "classic", "Converted the consumer group to a classic group"),
    ]
    assert {r["coordinator"] for r in ev.to_pylist()} == {1}
    assert audit["quarantined"] == 0
