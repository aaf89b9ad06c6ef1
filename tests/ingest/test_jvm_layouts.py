"""JVM catalogue statements in the JVM's logging layouts (tests/ingest/jvm_layouts.py) read right by both
readers: kind, group, generation, member id and the application's time."""

from __future__ import annotations

import pytest

from jobs.ingest import day_dates as DD
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F
from tests.ingest import jvm_layouts as J

#: layouts that do not read whole yet (see docs/ingestion.md)
OPEN = {"log4j2-mdc-after"}
SAMPLE = 4  # statements per source
CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"


def _sample(source: str) -> list[F.Msg]:
    msgs = J.messages(source)
    step = max(1, len(msgs) // SAMPLE)
    return msgs[::step][:SAMPLE]


#: a sample of every source in one file (statements that need a neighbour's group left out: the
#: sources' groups differ)
MIXED = [m for s in J.SOURCES for m in _sample(s) if m.expected["kind"] != "static_member_no_rebalance"]


@pytest.mark.parametrize("layout", [n for n in J.LAYOUTS if n not in OPEN])
def test_each_jvm_layout_reads_every_source(layout: str) -> None:
    ok, bad = F.score(MIXED, J.LAYOUTS[layout], parse_bytes, f"app-{layout}.2024-05-01")
    assert ok == len(MIXED), bad


@pytest.mark.parametrize("layout", ["quarkus-file", "wildfly-console", "log4j2-fields-after", "micronaut-ansi",
                                    "spring-boot3-correlation", "jul-simpleformatter", "log4j2-json-gelf"])  # fmt: skip
def test_the_reference_reader_reads_them_the_same(layout: str) -> None:
    for src in ("kafka-broker-scala", "kafka-consumer-classic", "kafka-streams", "spring-kafka"):
        data, _ = F.render(_sample(src), J.LAYOUTS[layout])
        fast = parse_bytes(data, "app.2024-05-01.log", "c", F.SETTINGS, "r")
        ref = read_bytes(data, "app.2024-05-01.log", "c", F.SETTINGS, "r")
        assert fast[0].to_pylist() == ref[0].to_pylist()
        assert fast[2] == ref[2]


def test_logger_abbreviations_follow_each_framework() -> None:
    assert J.logback_abbrev(CC, 36) == "o.a.k.c.c.i.ConsumerCoordinator"
    assert J.logback_abbrev(CC, 39) == "o.a.k.c.c.internals.ConsumerCoordinator"
    assert J.spring_logger("org.apache.kafka.clients.consumer.internals.AbstractHeartbeatRequestManager") == (
        ".k.c.c.i.AbstractHeartbeatRequestManager")  # (cut from the left to 40)
    assert J.dot_abbrev(CC) == "o.a.k.c.c.i.ConsumerCoordinator"
    assert J.dot_abbrev("io.smallrye.reactive.messaging.kafka", 3) == "io.sma.rea.mes.kafka"
    assert J.short(CC) == "ConsumerCoordinator"


def test_a_jboss_line_gives_its_logger_thread_and_message() -> None:
    line = (b"2024-05-01 13:00:00,123 orders-host orders-service[4242] INFO  [org.apa.kaf.cli.con.int.ConsumerCoordinator] "
            b"(executor-thread-1) Successfully joined group orders-g7 with generation 7\n")  # fmt: skip
    for reader in (parse_bytes, read_bytes):
        ev = reader(line, "q.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["layout"], e["kind"], e["group_id"], e["generation"], e["ts_ms"]) for e in ev] == [
            ("jboss", "joined", "orders-g7", 7, 1714568400123)]


def test_a_time_of_day_takes_the_date_in_the_file_name() -> None:
    for name, want in [("/var/log/app/orders.2024-05-01.0.log", "2024-05-01"), ("server.log.2024-05-01-13", "2024-05-01"),
                       ("app_20240501.log", "2024-05-01"), ("2024-05-01/app.log", None), ("app-12345678.log", None)]:
        assert DD.file_dates(name, None, None, "UTC").name == want, name
    line = b"13:00:00.123 [main] INFO  o.a.k.c.c.i.ConsumerCoordinator - Successfully joined group g with generation 7\n"
    for reader in (parse_bytes, read_bytes):
        dated = reader(line, "app.2024-05-01.log", "c", F.SETTINGS, "r")[0].to_pylist()
        bare = reader(line, "app.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [e["ts_ms"] for e in dated] == [1714568400123]
        assert [(e["kind"], e["ts_ms"]) for e in bare] == [("joined", None)]


def test_recall_covers_every_jvm_source() -> None:
    counts = {s: len(J.messages(s)) for s in J.SOURCES}
    assert all(n > 0 for n in counts.values()), counts
    assert sum(counts.values()) == 717  # (the classic consumer's fatal FindCoordinator line is an event)


@pytest.mark.parametrize(("record", "ts_ms"), [
    ('{"instant":{"epochSecond":1714568400,"nanoOfSecond":123456789},"level":"INFO","message":"M"}', 1714568400123),
    ('{"timestampSeconds":1714568400,"timestampNanos":5000000,"severity":"INFO","message":"M"}', 1714568400005),
    ('{"timeMillis":1714568400123,"level":"INFO","loggerName":"x","message":"M"}', 1714568400123),
    ('{"@timestamp":"2024-05-01T13:00:01.000Z","instant":{"epochSecond":1714568400,"nanoOfSecond":0},"message":"M"}', 1714568401000),
])  # fmt: skip
def test_a_json_time_in_seconds_and_nanoseconds_keys(record: str, ts_ms: int) -> None:
    """log4j2 JsonLayout's ``instant``, Stackdriver's ``timestampSeconds``/``timestampNanos``, ``timeMillis``;
    a ``ts`` key wins over the pair."""
    line = (record.replace('"M"', '"Successfully joined group g with generation 7"') + "\n").encode()
    for reader in (parse_bytes, read_bytes):
        ev = reader(line, "j.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["kind"], e["ts_ms"]) for e in ev] == [("joined", ts_ms)]


@pytest.mark.parametrize("text", [
    "2024-05-01 13:00:00,123 [main] INFO  o.a.k.c.c.i.AbstractCoordinator [traceId=6d5f spanId=2b1e] - Successfully joined group g with generation 7",
    "1357 [main] INFO  org.apache.kafka.clients.consumer.internals.AbstractCoordinator  - Successfully joined group g with generation 7",
])  # fmt: skip
def test_a_message_starts_after_a_dash_that_follows_a_separator(text: str) -> None:
    for reader in (parse_bytes, read_bytes):
        ev = reader((text + "\n").encode(), "d.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["kind"], e["group_id"], e["generation"]) for e in ev] == [("joined", "g", 7)]
