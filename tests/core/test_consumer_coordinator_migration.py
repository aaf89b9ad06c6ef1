"""``group.consumer.migration.policy`` rules (Kafka's ``validateOnlineUpgrade`` /
``validateOnlineDowngradeWithFencedMember``) and the installation of an upgraded group."""

from __future__ import annotations

import pytest

from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.migration import downgrade_refusal, upgrade_refusal
from coordinator_core.consumer.protocol import HeartbeatRequest
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig


@pytest.mark.parametrize(
    ("policy", "ptype", "n", "why"),
    [
        ("bidirectional", "consumer", 3, None),
        ("upgrade", "consumer", 3, None),
        ("downgrade", "consumer", 3, "online upgrade is disabled"),
        ("disabled", "consumer", 3, "online upgrade is disabled"),
        ("bidirectional", "connect", 3, "does not use the consumer embedded protocol"),
        ("bidirectional", "consumer", 6, "exceeds the consumer group maximum size"),
    ],
)
def test_upgrade_rule(policy, ptype, n, why):
    got = upgrade_refusal(policy, "g", ptype, n, 5)
    assert got is None if why is None else why in got


@pytest.mark.parametrize(
    ("policy", "classic", "n", "why"),
    [
        ("bidirectional", True, 3, None),
        ("downgrade", True, 3, None),
        ("upgrade", True, 3, "online downgrade is disabled"),
        ("bidirectional", False, 3, "not every other member"),
        ("bidirectional", True, 1, "because it's empty"),
        ("bidirectional", True, 8, "greater than classic group max size"),
    ],
)
def test_downgrade_rule(policy, classic, n, why):
    got = downgrade_refusal(policy, "g", classic, n, 5)
    assert got is None if why is None else why in got


def test_upgraded_group_is_installed_and_continues():
    c = ConsumerGroupCoordinator(topics={"t": 4})
    out = c.load_converted_group(1000, "g", 7, [("a", None, "ca", ["t"], ["t-0", "t-1"]), ("b", None, "cb", ["t"], ["t-2", "t-3"])])
    assert out.kinds() == ["converted"] and c.group("g").state == "Stable" and c.group("g").group_epoch == 7
    r = c.heartbeat(2000, HeartbeatRequest("g", "c", 0, rebalance_timeout_ms=1000, subscribed_topic_names=["t"],
                                           topic_partitions=[])).reply  # fmt: skip
    assert (r.error, r.member_epoch) == ("NONE", 8)
    assert c.timer_deadline("session", "g", "a") == 1000 + 45_000


def test_upgrade_refused_by_the_policy():
    c = ConsumerGroupCoordinator(ConsumerCoordinatorConfig(migration_policy="disabled"), topics={"t": 4})
    out = c.load_converted_group(0, "g", 7, [("a", None, "ca", ["t"], ["t-0"])])
    assert (out.reply.error, out.reply.error_message) == ("GROUP_ID_NOT_FOUND", "Group g is not a consumer group")
    assert out.records == [] and c.group("g") is None and out.kinds() == ["upgrade_refused"]
