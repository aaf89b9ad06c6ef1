"""Client wordings read from the clients' own sources at their release tags: kafka-python 1.0-1.3's heartbeat
and response lines and its coordinator lookup (kafka/cluster.py), kafkajs' request and response lines of the
group APIs (src/network/connection.js), librdkafka 0.9-1.5's join lines: each dialect reads a catalogued
statement, and a file of such lines gets the facts of its statements."""

from __future__ import annotations

from jobs.ingest.catalogue import load
from jobs.ingest.dialects_python import PYTHON_1X
from jobs.ingest.parse import parse_bytes
from tests.ingest.catalogue_reads import dialects_reading

SOURCES = {s.name: s for s in load()}


def _dialects_read(name: str) -> set[str]:
    return dialects_reading((SOURCES[name],))


def test_every_kafka_python_1x_dialect_reads_a_catalogued_statement():
    seen = _dialects_read("kafka-python")
    assert sorted(d.id for d in PYTHON_1X if d.kind is not None and d.id not in seen) == []


def test_kafkajs_requests_and_responses_are_catalogued_per_group_api():
    kafkajs = SOURCES["kafkajs"]
    conn = {st.id: st.kind for st in kafkajs.statements if st.file == "src/network/connection.js"}
    assert {k: v for k, v in conn.items() if k.startswith("connection.response_error.")} == {
        "connection.response_error.GroupCoordinator": "other",
        "connection.response_error.GroupCoordinator.authorization": "other",
        "connection.response_error.JoinGroup": "join_failed",
        "connection.response_error.Heartbeat": "heartbeat_failed",
        "connection.response_error.LeaveGroup": "other",
        "connection.response_error.SyncGroup": "sync_failed",
        "connection.response_error.OffsetCommit": "offset_commit_failed",
    }
    assert conn["connection.request.GroupCoordinator"] == "other"
    assert conn["connection.response.GroupCoordinator"] == "coordinator_discovered"


def _read(text: str) -> list[dict]:
    events, quarantine, _ = parse_bytes(text.encode("utf-8"), "c.log")
    assert quarantine.num_rows == 0
    keep = ("kind", "group_id", "error", "coordinator")
    return [{k: ev.get(k) for k in keep} for ev in events.to_pylist()]


def test_a_kafkajs_lookup_failure_at_error_is_the_groups_and_carries_its_error():
    lines = [
        '{"level":"ERROR","timestamp":"2020-04-30T09:20:30.555Z","logger":"kafkajs","message":"[Connection] Response GroupCoordinator'
        '(key: 10, version: 1)","broker":"b:9092","clientId":"c","error":"The group coordinator is not available","correlationId":0,"size":55}',
        '{"level":"INFO","timestamp":"2020-04-30T09:20:33.100Z","logger":"kafkajs","message":"[ConsumerGroup] Consumer has joined the group",'
        '"groupId":"g1","memberId":"m-1","leaderId":"m-1","isLeader":true,"memberAssignment":{"t":[0]},"groupProtocol":"RoundRobinAssigner"}',
    ]
    got = _read("\n".join(lines) + "\n")
    assert got == [{"kind": "other", "group_id": "g1", "error": "COORDINATOR_NOT_AVAILABLE", "coordinator": None},
                   {"kind": "synced", "group_id": "g1", "error": None, "coordinator": None}]


def test_kafka_python_1x_heartbeat_lines_take_the_files_group():
    text = (
        "2018-01-24 18:23:40,000 - kafka.coordinator - INFO - Joined group 'g1' (generation 4) with member_id m-1\n"
        "2018-01-24 18:23:49,000 - kafka.coordinator - WARNING - Coordinator unknown during heartbeat -- will retry\n"
        "2018-01-24 18:23:49,001 - kafka.coordinator - WARNING - Heartbeat failed ([Error 15] GroupCoordinatorNotAvailableError); retrying\n"
        "2018-01-24 18:23:50,000 - kafka.cluster - INFO - Coordinator for group/g1 is BrokerMetadata(nodeId='coordinator-2', "
        "host='kafka', port=9092, rack=None)\n"
    )
    assert _read(text) == [
        {"kind": "joined", "group_id": "g1", "error": None, "coordinator": None},
        {"kind": "coordinator_lost", "group_id": "g1", "error": None, "coordinator": None},
        {"kind": "heartbeat_failed", "group_id": "g1", "error": "COORDINATOR_NOT_AVAILABLE", "coordinator": None},
        {"kind": "coordinator_discovered", "group_id": "g1", "error": None, "coordinator": 2},
    ]


def test_librdkafka_15_join_lines_are_join_sent():
    text = (
        '%7|1585210740.433|JOIN|rdkafka#consumer-2| [thrd:main]: Group "g1": join with 1 (1) subscribed topic(s)\n'
        '%7|1585210740.433|JOIN|rdkafka#consumer-2| [thrd:main]: kafka:9092/0: Joining group "g1" with 1 subscribed topic(s)\n'
        "%7|1585210740.440|REQERR|rdkafka#consumer-2| [thrd:main]: GroupCoordinator/0: JoinGroupRequest failed: "
        "Group member needs a valid member ID: explicit actions Ignore\n"
    )
    assert [(e["kind"], e["group_id"], e["error"]) for e in _read(text)] == [
        ("join_sent", "g1", None), ("join_sent", "g1", None), ("join_failed", "g1", "MEMBER_ID_REQUIRED"),
    ]
