"""Golden checks of the simulator's line formats (reference sections 3.2-3.4, 4.2/4.3)."""

from __future__ import annotations

import json

import pytest

from coordinator_core import events as ev
from jobs.simulate import render_client as rc
from jobs.simulate.render_broker import BrokerRenderer, MemberInfo
from jobs.simulate.timefmt import iso_ts, log4j_ts

M = "consumer-g-1-0b3c"
INFO = MemberInfo(M, None, "consumer-g-1", "/10.0.0.7", 45000, 300000, ("range",))


def render(dialect: str, e: ev.Event) -> list[tuple[str, str, str]]:
    return BrokerRenderer(dialect, lambda m: INFO if m == M else None).render(e, 1, 15)


def test_timestamps():
    assert log4j_ts()(1767225603123) == "2026-01-01 00:00:03,123"
    assert iso_ts()(1767225603007) == "2026-01-01T00:00:03.007Z"


def test_rebalance_prepared_per_dialect():
    e = ev.RebalancePrepared(
        ts=0, group_id="g", generation=4, reason="removing member m on heartbeat expiration"
    )
    assert render("scala3", e) == [(
        "INFO", "kafka.coordinator.group.GroupCoordinator",
        "[GroupCoordinator 1]: Preparing to rebalance group g in state PreparingRebalance with old generation 4 "
        "(__consumer_offsets-15) (reason: removing member m on heartbeat expiration)",
    )]  # fmt: skip
    assert render("java4", e) == [(
        "INFO", "org.apache.kafka.coordinator.group.GroupMetadataManager",
        "[GroupCoordinator id=1 topic=__consumer_offsets partition=15] Preparing to rebalance group g in state "
        "PreparingRebalance with old generation 4 (reason: removing member m on heartbeat expiration).",
    )]  # fmt: skip


def test_join_completed_and_assignment_received():
    jc = ev.JoinCompleted(ts=0, group_id="g", generation=5, member_count=3)
    assert (
        render("scala2", jc)[0][2]
        == "[GroupCoordinator 1]: Stabilized group g generation 5 (__consumer_offsets-15) with 3 members"
    )
    assert render("java4", jc)[0][2].endswith("Stabilized group g generation 5 with 3 members.")
    ar = ev.AssignmentReceived(ts=0, group_id="g", member_id=M, generation=5, member_count=3, static_count=0)
    assert render("scala2", ar)[0][2] == (
        "[GroupCoordinator 1]: Assignment received from leader for group g for generation 5. "
        "The group has 3 members, 0 of which are static."
    )
    assert render("scala3", ar)[0][2] == (
        f"[GroupCoordinator 1]: Assignment received from leader {M} for group g for generation 5. "
        "The group has 3 members, 0 of which are static."
    )


def test_member_left_per_dialect():
    e = ev.MemberLeft(ts=0, group_id="g", member_id=M, reason="the consumer is being closed")
    assert render("scala3", e)[0][2] == (
        "[GroupCoordinator 1]: Member MemberMetadata(memberId=consumer-g-1-0b3c, groupInstanceId=None, "
        "clientId=consumer-g-1, clientHost=/10.0.0.7, sessionTimeoutMs=45000, rebalanceTimeoutMs=300000, "
        "supportedProtocols=List(range)) has left group g through explicit `LeaveGroup`; client reason: "
        "the consumer is being closed"
    )
    assert render("scala2", e)[0][2] == (
        f"[GroupCoordinator 1]: Member[group.instance.id None, member.id {M}] in group g has left, removing it from the group"
    )
    assert render("java4", e)[0][2].endswith(
        f"[Group g] Member {M} has left group through explicit `LeaveGroup` request; client reason: the consumer is being closed"
    )


def test_levels_follow_kafka():
    req = ev.MemberIdRequired(ts=0, group_id="g", member_id=M, state="Stable")
    assert render("scala2", req)[0][0] == "DEBUG"  # 2.5-2.8: DEBUG
    assert render("scala3", req)[0][0] == "INFO"
    added = ev.MemberAdded(ts=0, group_id="g", member_id=M, state="Empty")
    assert render("scala3", added)[0][0] == "DEBUG"  # pending member's second join: DEBUG in 3.9
    assert render("java4", added)[0][0] == "INFO"  # INFO on trunk


def test_static_lines():
    rep = ev.StaticMemberReplaced(ts=0, group_id="g", member_id="new", old_member_id="old",
                                  group_instance_id="i-1", state="Stable")  # fmt: skip
    assert render("scala3", rep)[0][2].endswith(
        "Static member with groupInstanceId=i-1 and unknown member id joins group g in Stable state. "
        "Replacing previously mapped member old with this groupInstanceId."
    )
    assert render("scala2", rep)[0][2].endswith(
        "Static member Some(i-1) of group g with unknown member id rejoins, assigning new member id new, "
        "while old member id old will be removed."
    )


def test_layouts_golden():
    ts = 1767225603123
    msg = "[Consumer clientId=c, groupId=g] (Re-)joining group"
    lg = rc.CC
    assert rc.Layout("log4j", "app", 42).line(ts, "INFO", lg, "main", msg) == (
        f"[2026-01-01 00:00:03,123] INFO {msg} ({lg})\n", 1,
    )  # fmt: skip
    text, n = rc.Layout("springboot", "app", 42).line(ts, "INFO", lg, "main", msg)
    assert n == 1
    assert text == (
        "2026-01-01T00:00:03.123Z  INFO 42 --- [app] [           main] "
        "o.a.k.c.c.internals.ConsumerCoordinator  : " + msg + "\n"
    )
    text, n = rc.Layout("json", "app", 42).line(ts, "WARN", lg, "main", 'a "b"', stack="x\n\tat y")
    rec = json.loads(text)
    assert n == 1 and rec["message"] == 'a "b"' and rec["stack_trace"] == "x\n\tat y"
    assert rec["@timestamp"] == "2026-01-01T00:00:03.123Z" and rec["level_value"] == 30000


def test_logback_logger_abbreviation():
    assert rc.abbreviate_logger(rc.CC) == "o.a.k.c.c.internals.ConsumerCoordinator"
    assert rc.fit(rc.abbreviate_logger(rc.INVOKER), 40) == "k.c.c.i.ConsumerRebalanceListenerInvoker"


@pytest.mark.parametrize("dialect,logger", [("scala2", rc.AC), ("scala3", rc.CC), ("java4", rc.CC)])
def test_client_texts_by_version(dialect, logger):
    t = rc.ClientTexts(dialect)
    assert t.coord_logger == logger
    assert t.node("kafka-1", 1) == "kafka-1:9092 (id: 2147483646 rack: null)"
    assert t.generation(4, "m", "range") == "Generation{generationId=4, memberId='m', protocol='range'}"
    lost = t.coordinator_lost("n", "NOT_COORDINATOR")
    assert ("NOT_COORDINATOR.isDisconnected" in lost) == (dialect == "scala2")
    assert t.poll_timeout_reason().startswith("consumer poll timeout has expired.")
    assert t.updating_assignment(["t-0"], ["t-0", "t-1"], [], ["t-1"]) == (
        "Updating assignment with\n"
        "\tAssigned partitions:                       [t-0]\n"
        "\tCurrent owned partitions:                  [t-0, t-1]\n"
        "\tAdded partitions (assigned - owned):       []\n"
        "\tRevoked partitions (owned - assigned):     [t-1]\n"
    )
