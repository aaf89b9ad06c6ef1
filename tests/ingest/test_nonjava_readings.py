"""Non-Java readings that no catalogue golden line renders: statements whose argument decides the reading
(librdkafka's JoinGroup response with an error), and structs that applications print (sarama-cluster's
Notification). Each line is read with its kind and facts; the group comes from the file's other lines."""

from __future__ import annotations

from jobs.ingest.parse import parse_bytes

_RDK = "%7|1618474775.271|{fac}|rdkafka#consumer-2| [thrd:main]: {msg}"


def _read(lines: list[str]) -> list[tuple]:
    ev, q, _ = parse_bytes(("\n".join(lines) + "\n").encode(), "app.log")
    assert q.num_rows == 0, q.to_pylist()
    return [(r["kind"], r["group_id"], r["member_id"], r["error"]) for r in ev.to_pylist()]


def test_librdkafka_joingroup_response_with_an_error_is_a_failed_join():
    lines = [
        _RDK.format(fac="JOIN", msg='Group "g": join with 1 subscribed topic(s)'),
        _RDK.format(fac="JOINGROUP", msg="JoinGroup response: GenerationId -1, Protocol , LeaderId , my MemberId rdkafka-34c, "
                    "0 members in group: Broker: Group member needs a valid member ID"),
        _RDK.format(fac="JOINGROUP", msg="JoinGroup response: GenerationId -1, Protocol , LeaderId  (me), my MemberId , "
                    "member metadata count 0: Broker: Not coordinator"),
        _RDK.format(fac="REQERR", msg="GroupCoordinator/1: JoinGroupRequest failed: Broker: Group member needs a valid member ID: "
                    "explicit actions Ignore"),
        _RDK.format(fac="REQERR", msg="localhost:9093/0: HeartbeatRequest failed: Broker: Group rebalance in progress: explicit actions 0x0"),
        _RDK.format(fac="REQERR", msg="GroupCoordinator/1: LeaveGroupRequest failed: Broker: Unknown member: explicit actions Ignore"),
        _RDK.format(fac="JOINGROUP", msg="JoinGroup response: GenerationId 3, Protocol range, LeaderId rdkafka-34c (me), my MemberId "
                    "rdkafka-34c, member metadata count 1: (no error)"),
    ]  # fmt: skip
    assert _read(lines) == [
        ("join_sent", "g", None, None),
        ("join_failed", "g", "rdkafka-34c", "MEMBER_ID_REQUIRED"),
        ("join_failed", "g", None, "NOT_COORDINATOR"),
        ("join_failed", "g", None, "MEMBER_ID_REQUIRED"),
        ("heartbeat_failed", "g", None, "REBALANCE_IN_PROGRESS"),
        ("joined", "g", "rdkafka-34c", None),
    ]


def test_sarama_cluster_notifications_as_applications_print_them():
    lines = [
        "2017/12/08 11:17:21 cluster/consumer  rebalance",
        "2017/12/08 11:17:21 client/coordinator coordinator for consumergroup g is #1 (kafka:9092)",
        "2017/12/08 11:17:22 Rebalanced: &{Type:rebalance start Claimed:map[] Released:map[] Current:map[t:[0 1]]}",
        "2017/12/08 11:17:27 Rebalanced: &{Type:rebalance OK Claimed:map[t:[2]] Released:map[t:[0]] Current:map[t:[1 2]]}",
        "2017/12/08 11:17:30 rebalance error: EOF",
    ]
    assert [k for k, g, *_ in _read(lines) if g == "g"] == [
        "other", "coordinator_discovered", "partitions_revoked", "partitions_assigned", "join_failed"]  # fmt: skip


def test_kafka_go_member_ids_hold_its_default_client_id():
    mid = "main@localhost (github.com/segmentio/kafka-go)-df420a73-f158-4ddf-afaf-ecaff92c9da5"
    lines = [
        f"2019/12/18 11:17:56 joined group history as member {mid} in generation 17",
        f"2019/12/18 11:17:56 joinGroup succeeded for response, history.  generationID=17, memberID={mid}",
        f"2019/12/18 11:17:56 Leaving group history, member {mid}",
    ]
    assert _read(lines) == [("joined", "history", mid, None), ("joined", "history", mid, None),
                            ("leave_sent", "history", mid, None)]  # fmt: skip


def test_sarama_subscriptions_without_a_consumer_group_stay_unattributed():
    """A plain partition consumer (sarama.NewConsumer) logs the same subscription lines as a consumer
    group's sessions, but no consumer-group lookup: its file names no group, and its lines stay in the
    file's unattributed group (kept, never replayed as a group)."""
    ev, q, _ = parse_bytes(b"[sarama] 2024/05/01 10:00:00 consumer/broker/1 added subscription to t/0\n"
                           b"[sarama] 2024/05/01 10:00:05 consumer/broker/1 closed dead subscription to t/0\n"
                           b"[sarama] 2024/05/01 10:00:05 Closing Client\n", "plain.log")  # fmt: skip
    rows = ev.to_pylist()
    assert [r["kind"] for r in rows] == ["partitions_assigned", "partitions_revoked", "leave_sent"]
    assert len({r["group_id"] for r in rows}) == 1 and rows[0]["group_id"].startswith("unnamed-")
    assert q.num_rows == 0


def test_sarama_closing_client_needs_sarama_s_logger_prefix():
    """``Closing Client`` is sarama's leave under its Logger's ``[Sarama] `` prefix (any case); the
    same two words from another program, in a file that names a group, are no event."""
    head = b"[Sarama] 2024/05/01 10:00:00 client/coordinator coordinator for consumergroup g is #1 (127.0.0.1:9092)\n"
    ev, _, _ = parse_bytes(head + b"[Sarama] 2024/05/01 10:00:05 Closing Client\n"
                           b"2024/05/01 10:00:06 Closing Client\n", "app.log")  # fmt: skip
    assert [(r["line_no"], r["kind"], r["group_id"]) for r in ev.to_pylist()] == [
        (1, "coordinator_discovered", "g"), (2, "leave_sent", "g")]  # fmt: skip
