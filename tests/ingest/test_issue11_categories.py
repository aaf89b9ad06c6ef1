"""One line of every kind that real users' logs showed and the parser lost (issue 11's list of
what failed): layouts outside the table, junk around a known layout, messages of other clients and
older versions, redacted values, lines without a timestamp. Each must become the right event."""

from __future__ import annotations

import json

import pytest

from tests.ingest.helpers import check_invariant, parse_text

T0 = 1714557600123  # 2024-05-01T10:00:00.123Z
CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
GC = "kafka.coordinator.group.GroupCoordinator"
JOINED = "[Consumer clientId=c1, groupId=orders] Successfully joined group with generation Generation{generationId=7, memberId='c1-9f', protocol='range'}"
PREP = "[GroupCoordinator 1]: Preparing to rebalance group orders in state PreparingRebalance with old generation 6 (__consumer_offsets-3) (reason: Adding new member c1-9f with group instance id None)"

CASES = [
    # ---- layouts outside the table
    ("slf4j-simple, no date", f"[main] INFO {CC} - {JOINED}", {"kind": "joined", "generation": 7, "ts_ms": None}),
    ("python logging behind a viewer's column", f"2024-05-01T10:00:09.000Z\t2024-05-01 10:00:00,123 - kafka.consumer - INFO - {JOINED}",
     {"kind": "joined", "ts_ms": T0}),
    ("bracketed logback", f"[2024-05-01 10:00:00,123][INFO][main][][c.f.KafkaConsumerService Line:576] userId[] {JOINED}",
     {"kind": "joined", "ts_ms": T0}),
    ("spring boot with MDC fields", f"2024-05-01 10:00:00.123  INFO 6 CID:4967 UID: RID:a1b2 --- [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator : {JOINED}",
     {"kind": "joined", "ts_ms": T0}),
    ("ts LEVEL [component]: msg (logger) [thread]", f"2024-05-01 10:00:00,123 INFO [orders-consumer]: {JOINED} ({CC}) [main]",
     {"kind": "joined", "ts_ms": T0}),
    ("ts INFO || msg [logger]", f"2024-05-01 10:00:00.123 INFO  ||  {JOINED}   [{CC}]", {"kind": "joined", "ts_ms": T0}),
    ("old log4j Class:line -", f"2024-05-01 10:00:00,123 INFO  AbstractCoordinator:326 - {JOINED}", {"kind": "joined", "ts_ms": T0}),
    ("JSON with a 't' key", json.dumps({"t": "2024-05-01T10:00:00.123Z", "lvl": "info", "msg": JOINED}), {"kind": "joined", "ts_ms": T0}),
    ("JSON with epoch millis", json.dumps({"time": T0, "level": "INFO", "message": JOINED}), {"kind": "joined", "ts_ms": T0}),
    ("sarama without a space", "[sarama]2024/05/01 10:00:00 client/coordinator coordinator for consumergroup orders is #1 (kafka-1:9092)",
     {"kind": "coordinator_discovered", "ts_ms": T0 - 123, "coordinator": 1}),
    # ---- junk around a known layout
    ("trailing CSV column", f"[2024-05-01 10:00:00,123] INFO {PREP} ({GC}),2024-05-01 10:00:01.000", {"kind": "rebalance_prepared", "ts_ms": T0, "generation": 6}),
    ("trailing slash", f"[2024-05-01 10:00:00,123] INFO {PREP} ({GC}) /", {"kind": "rebalance_prepared", "ts_ms": T0}),
    ("thread after the logger", f"[2024-05-01 10:00:00,123] INFO {PREP} ({GC}) [group-metadata-manager-0]",
     {"kind": "rebalance_prepared", "ts_ms": T0}),
    ("kubectl --timestamps", f"2024-05-01T10:00:05.123456789Z [2024-05-01 10:00:00,123] INFO {PREP} ({GC})", {"kind": "rebalance_prepared", "ts_ms": T0}),
    ("CloudWatch export", f"2024-05-01T10:00:03.000Z,[2024-05-01 10:00:00,123] INFO {PREP} ({GC})", {"kind": "rebalance_prepared", "ts_ms": T0}),
    ("Loki/Grafana export", f"2024-05-01 10:00:04.000\t{{pod=\"kafka-0\"}}\t[2024-05-01 10:00:00,123] INFO {PREP} ({GC})",
     {"kind": "rebalance_prepared", "ts_ms": T0}),
    ("syslog relay", f"May  1 10:00:02 kafka-0 kafka[812]: [2024-05-01 10:00:00,123] INFO {PREP} ({GC})", {"kind": "rebalance_prepared", "ts_ms": T0}),
    # ---- values people redact
    ("redacted group id", f"[2024-05-01 10:00:00,123] INFO {PREP.replace('orders', '***')} ({GC})",
     {"kind": "rebalance_prepared", "redacted": True}),
    # ---- lines without a timestamp
    ("no timestamp at all", PREP, {"kind": "rebalance_prepared", "ts_ms": None, "ts_inferred": True, "generation": 6}),
]  # fmt: skip


@pytest.mark.parametrize(("what", "line", "want"), CASES, ids=[c[0] for c in CASES])
def test_category_reads(what: str, line: str, want: dict) -> None:
    ev, q, audit = parse_text(line + "\n")
    check_invariant(audit)
    assert ev.num_rows == 1, q.to_pylist()
    row = ev.to_pylist()[0]
    for k, v in want.items():
        assert row[k] == v, (k, row)
    if want.get("redacted"):
        assert row["group_id"].startswith("redacted-")
    else:
        assert row["group_id"] == "orders"


def test_json_behind_a_viewers_columns_is_read_as_the_object() -> None:
    """A Kibana/Loki tab export: the viewer's columns, then the application's JSON line."""
    line = '\tFeb 21, 2023 @ 15:17:51.398\t{"level":"info","ts":1676981871.397773,"msg":"joining group","group":"orders"}'
    ev, q, audit = parse_text(line + "\n")
    check_invariant(audit)
    (row,) = ev.to_pylist()
    assert (row["kind"], row["group_id"], row["layout"], row["ts_ms"]) == ("join_sent", "orders", "col+json", 1676981871397)
