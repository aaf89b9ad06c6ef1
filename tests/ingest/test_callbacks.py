"""An application's own rebalance callback (jobs/ingest/dialects_callbacks.py) and the clients' printed
partition collections (jobs/ingest/partition_reprs.py): every client's printed form, in many wordings an
application uses, in several layouts, becomes the callback's event with its partitions in both readers;
near misses (a producer's partitioner, topic tools, lag tools, thread pools) stay unrelated; and a
client group known from callbacks alone replays to its rebalances."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from jobs.ingest import partition_reprs as PR
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.clients.score import replay_logs

READERS = [parse_bytes, read_bytes]

#: (form name, printed value) -> the partitions it holds (orders-0, orders-1 unless said otherwise)
PRINTED: list[tuple[str, str, list[str]]] = [
    ("java", "[orders-0, orders-1]", ["orders-0", "orders-1"]),
    ("kafka-python list", "[TopicPartition(topic='orders', partition=0), TopicPartition(topic='orders', partition=1)]",
     ["orders-0", "orders-1"]),
    ("aiokafka set", "{TopicPartition(topic='orders', partition=0), TopicPartition(topic='orders', partition=1)}",
     ["orders-0", "orders-1"]),
    ("aiokafka frozenset", "frozenset({TopicPartition(topic='orders', partition=1)})", ["orders-1"]),
    ("kafka-python one", "TopicPartition(topic='orders', partition=0)", ["orders-0"]),
    ("confluent-kafka-python", "[TopicPartition{topic=orders,partition=0,offset=-1001,leader_epoch=None,error=None}, "
     "TopicPartition{topic=orders,partition=1,offset=-1001,leader_epoch=None,error=None}]", ["orders-0", "orders-1"]),
    ("confluent-kafka-python 1.x", "[TopicPartition{topic=orders,partition=0,offset=-1001,error=None}]", ["orders-0"]),
    ("confluent-kafka-go", "[orders[0]@unset orders[1]@unset]", ["orders-0", "orders-1"]),
    ("confluent-kafka-go offsets", "[orders[0]@-1001 payments[3]@42]", ["orders-0", "payments-3"]),
    ("dotnet", "orders [[0]], orders [[1]]", ["orders-0", "orders-1"]),
    ("dotnet offsets", "[orders [[0]] @Unset [-1001], orders [[1]] @1234]", ["orders-0", "orders-1"]),
    ("sarama claims", "map[orders:[0 1] payments:[2]]", ["orders-0", "orders-1", "payments-2"]),
    ("kafka-go", "map[orders:[{0 -1} {1 -1}]]", ["orders-0", "orders-1"]),
    ("kafka-go %+v", "map[orders:[{ID:0 Offset:-1} {ID:1 Offset:-1}]]", ["orders-0", "orders-1"]),
    ("kafkajs inspect", "[ { topic: 'orders', partitions: [ 0, 1 ] } ]", ["orders-0", "orders-1"]),
    ("kafkajs JSON", '[{"topic":"orders","partitions":[0,1]}]', ["orders-0", "orders-1"]),
    ("node-rdkafka", "[ { topic: 'orders', partition: 0 }, { topic: 'orders', partition: 1 } ]", ["orders-0", "orders-1"]),
    ("kafkajs memberAssignment", "{ orders: [ 0, 1 ], 'pay-ments': [ 2 ] }", ["orders-0", "orders-1", "pay-ments-2"]),
    ("rdkafka-ruby", '<TopicPartitionList: {"orders"=>[<Partition 0>, <Partition 1 offset=5>]}>', ["orders-0", "orders-1"]),
    ("arroyo revoked", "[Partition(topic=Topic(name='orders'), index=0), Partition(topic=Topic(name='orders'), index=1)]",
     ["orders-0", "orders-1"]),
    ("arroyo assigned", "{Partition(topic=Topic(name='orders'), index=1): 1834400}", ["orders-1"]),
]  # fmt: skip

#: an application's wordings of its callback ({L}: the printed list) -> the event kind
WORDINGS: list[tuple[str, str]] = [
    ("Partitions assigned: {L}", "partitions_assigned"),
    ("on_assign {L}", "partitions_assigned"),
    ("onPartitionsAssigned: {L}", "partitions_assigned"),
    ("on_partitions_assigned({L})", "partitions_assigned"),
    ("Consumer rebalanced, assigned {L}", "partitions_assigned"),
    ("Rebalance: assigned {L}", "partitions_assigned"),
    ("Assigned partitions = {L}", "partitions_assigned"),
    ("Setup: claims={L}", "partitions_assigned"),
    ("Partitions revoked: {L}", "partitions_revoked"),
    ("on_revoke {L}", "partitions_revoked"),
    ("onPartitionsRevoked: {L}", "partitions_revoked"),
    ("Rebalance: revoked {L}", "partitions_revoked"),
    ("Cleanup: claims={L}", "partitions_revoked"),
    ("Revoking {L}", "partitions_revoked"),
    ("New partitions assigned: {L}", "partitions_assigned"),
    ("Partitions to revoke: {L}", "partitions_revoked"),
    ("Partitions lost: {L}", "partitions_lost"),
    ("onPartitionsLost {L}", "partitions_lost"),
]

#: layouts the lines are written in ({M}: the message)
LAYOUTS = [
    "2024-05-01 10:00:{S:02d},123 INFO  [main] com.acme.Listener - {M}",
    "2024-05-01 10:00:{S:02d},123 - app.consumer - INFO - {M}",
    "2024/05/01 10:00:{S:02d} {M}",
    "{J}",
]


def _line(layout: str, second: int, message: str) -> str:
    if layout == "{J}":
        return json.dumps({"time": f"2024-05-01T10:00:{second:02d}.123Z", "level": "info", "msg": message})
    return layout.format(S=second, M=message)


def test_every_form_reads_by_both_grammars() -> None:
    """Each form's example and each printed value: the RE2 grammar (``PLIST``) takes it whole and
    :func:`partition_reprs.parse` gives its partitions in printed order."""
    values = [f.example for f in PR.FORMS] + [v for _, v, _ in PRINTED]
    expected = [list(f.expected) for f in PR.FORMS] + [p for _, _, p in PRINTED]
    whole = pc.match_substring_regex(pa.array(values), "^" + PR.PLIST + "$").to_pylist()
    assert whole == [True] * len(values)
    assert [PR.parse(v) for v in values] == expected
    assert [PR.parse(v) for v in ("[]", "set()", "map[]", "t-0, t-1", "{[t-0]}", "")] == [
        [], [], [], ["t-0", "t-1"], ["t-0"], []]  # fmt: skip
    assert PR.parse(None) is None


def _generated() -> tuple[str, list[tuple[str, list[str]]]]:
    lines: list[str] = []
    want: list[tuple[str, list[str]]] = []
    for k, (wording, kind) in enumerate(WORDINGS):
        for j, (_, printed, parts) in enumerate(PRINTED):
            layout = LAYOUTS[(k + j) % len(LAYOUTS)]
            lines.append(_line(layout, len(lines) % 60, wording.replace("{L}", printed)))
            want.append((kind, parts))
    return "\n".join(lines) + "\n", want


@pytest.mark.parametrize("reader", READERS)
def test_wordings_by_printed_forms(reader) -> None:
    """Every wording x every printed form (in four layouts): one event per line, of the wording's
    kind, with the printed partitions, none quarantined."""
    text, want = _generated()
    ev, q, _ = reader(text.encode(), "app.log", "c", None, "r")
    got = [(e["kind"], e["partitions"]) for e in sorted(ev.to_pylist(), key=lambda e: e["line_no"])]
    misses = [(i + 1, text.splitlines()[i], g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert misses == [] and len(got) == len(want)
    assert q.num_rows == 0


@pytest.mark.parametrize("reader", READERS)
def test_member_generation_and_group_from_the_line(reader) -> None:
    """sarama's ``Setup`` prints its member id and generation after the claims; a group named after
    the list is the event's; a line naming none takes the file's group."""
    text = "\n".join([
        "2024/05/01 10:00:00 Setup: claims=map[orders:[0 1]] memberID=sarama-6b2e generationID=3",
        "2024/05/01 10:00:01 on_assign [orders-0] group=billing generation=4",
        "2024/05/01 10:00:02 on_revoke [orders[0]@unset]",
    ]) + "\n"  # fmt: skip
    ev, _, _ = reader(text.encode(), "app.log", "c", None, "r")
    got = [(e["kind"], e["group_id"], e["member_id"], e["generation"]) for e in ev.to_pylist()]
    assert got == [
        ("partitions_assigned", "billing", "sarama-6b2e", 3),
        ("partitions_assigned", "billing", None, 4),
        ("partitions_revoked", "billing", None, None),
    ]


NEAR_MISSES = [
    "2024-05-01 10:00:00,123 INFO  [main] com.acme.Producer - Partitioner assigned record to [orders-3]",
    "2024-05-01 10:00:01,123 DEBUG [main] o.a.k.c.p.i.BuiltInPartitioner - Sticky partitioner assigned new batch [orders-1]",
    "2024-05-01 10:00:02,123 INFO  [main] com.acme.Admin - Created topic orders, assigned partitions [orders-0, orders-1]",
    "2024-05-01 10:00:03,123 INFO  [main] com.acme.Admin - Reassignment of partitions [orders-0, orders-1] completed",
    "2024-05-01 10:00:04,123 INFO  [main] com.acme.Lag - lag check: assigned [orders-0, orders-1] lag=120",
    "2024-05-01 10:00:05,123 INFO  [main] com.acme.Pool - Task assigned to [worker-3]",
    "2024-05-01 10:00:07,123 WARN  [main] com.acme.Net - Connection lost [kafka-1]",
    "2024-05-01 10:00:08,123 INFO  [main] com.acme.Auth - Token revoked [user-17]",
    "2024-05-01 10:00:09,123 INFO  [main] com.acme.Admin - Assigned leader for partitions [orders-0, orders-1]",
    "2024-05-01 10:00:10,123 INFO  [main] com.acme.App - Sent 12 messages to [orders-0]",
    "2024-05-01 10:00:11,123 INFO  [main] com.acme.App - assigned orders-0 to the slow path",
    "2024-05-01 10:00:12,123 INFO  [main] com.acme.Replicas - replicas assigned map[orders:[0 1]]",
    "2024-05-01 10:00:13,123 INFO  [main] com.acme.App - Revoked: nothing to commit",
]


@pytest.mark.parametrize("reader", READERS)
def test_near_misses_stay_unrelated(reader) -> None:
    """No event; the one quarantined line is one the group prefilter admits by its word
    ``Reassignment`` whatever its partitions (no callback's verb)."""
    ev, q, audit = reader(("\n".join(NEAR_MISSES) + "\n").encode(), "near.log", "c", None, "r")
    assert [(e["line_no"], e["kind"], e["dialect"]) for e in ev.to_pylist()] == []
    assert audit["events"] == 0
    assert [(r["line_no"], r["reason"]) for r in q.to_pylist()] == [(4, "group_line_not_understood")]


def test_callbacks_alone_in_the_replay() -> None:
    """Two consumers whose logs hold only their application's callbacks (sarama's Setup / Cleanup with
    member id, generation and group on the line), replayed as tests/clients/score.py does. What the
    replay makes of them: a consumer's first assignment is its arrival (``new_member``; the rebalance that
    admitted it started before its log shows anything), the revocation starts a rebalance and the first new
    assignment ends it (``ClientOnlyEvidence._assigned_without_join``: Kafka's consumer calls
    ``onPartitionsAssigned`` only after its SyncGroup succeeded), which also admitted the second consumer;
    the generation stays unknown where the line does not give it, and each file's consumer is followed
    through its stand-in member."""
    a = [
        "2024/05/01 10:00:00 Setup: claims=map[orders:[0 1 2 3]] memberID=m-a generationID=1 group=billing",
        "2024/05/01 10:01:00 Cleanup: claims=map[orders:[0 1 2 3]] memberID=m-a generationID=1 group=billing",
        "2024/05/01 10:01:02 Setup: claims=map[orders:[0 1]] memberID=m-a generationID=2 group=billing",
    ]
    b = ["2024/05/01 10:01:02 Setup: claims=map[orders:[2 3]] memberID=m-b generationID=2 group=billing"]
    outs, quarantine = replay_logs({"a.log": _text(a), "b.log": _text(b)})
    assert quarantine == [] and list(outs) == ["billing"]
    final = {r.rebalance_id: r for r in outs["billing"].rebalances}
    got = [(r.outcome, r.start_ts, r.end_ts, r.new_generation, r.cause) for r in final.values()]
    assert got == [("completed", None, 1714557600000, None, "new_member"),
                   ("completed", 1714557660000, 1714557662000, None, "new_member")]  # fmt: skip
    assert [(s.member_id, s.end_reason) for s in outs["billing"].sessions] == [
        ("<consumer of a.log>", "open"), ("<consumer of b.log>", "open")]  # fmt: skip


def _text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()

