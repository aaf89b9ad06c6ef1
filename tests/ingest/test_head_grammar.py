"""Heads composed from the parts real loggers print (tests/ingest/head_grammar.py): a deterministic sample
read right by the general reader (kind, group, generation, member, time), and the heads met in real
excerpts read the same by both readers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F
from tests.ingest import head_grammar as H

MSG = "[Consumer clientId=c-1, groupId=orders] Successfully joined group with generation Generation{generationId=7, memberId='c-1-abc', protocol='range'}"
#: (head in front of MSG, the time it prints as UTC ISO): heads no layout of the table lists
HEADS = [
    ("12:00:01 AM web.1  | 2024-05-01 10:00:01,123 INFO ", "2024-05-01T10:00:01.123"),  # foreman
    ("1:00:01 PM web.1  | ", "2024-05-01T13:00:01"),  # foreman, the application prints no time
    ("orders_1  | 2024-05-01T10:00:01.123Z INFO ", "2024-05-01T10:00:01.123"),  # docker-compose
    ("0|app  | 2024-05-01 10:00:01.123 | info | ", "2024-05-01T10:00:01.123"),  # pm2
    ("May  1 10:00:01 host java[123]: AbstractCoordinator: ", "2024-05-01T10:00:01"),  # syslog, short logger
    ("2024-05-01 10:00:01,123 - 1234 - MainThread - kafka.consumer - INFO - ", "2024-05-01T10:00:01.123"),
    ("2024-05-01 01:00:01 PM [main] INFO  ConsumerCoordinator - ", "2024-05-01T13:00:01"),  # 12-hour
    ("01-May-2024 10:00:01.123 INFO [main] o.a.k.c.c.i.ConsumerCoordinator.onJoin ", "2024-05-01T10:00:01.123"),
    ("Wed May 01 10:00:01 UTC 2024 | I | ConsumerCoordinator: ", "2024-05-01T10:00:01"),
    ("2024/05/01 10:00:01.123456: [pid=1]: <6>: ", "2024-05-01T10:00:01.123"),
    ("\x1b[2m2024-05-01T11:00:01.123+01:00\x1b[0;39m: \x1b[32minfo\x1b[0m: ", "2024-05-01T10:00:01.123"),
    ("1714557601123 [main] INFO ", "2024-05-01T10:00:01.123"),  # epoch millis before a space
]


def _read(reader, line: str) -> dict:
    ev, _, audit = reader(line.encode() + b"\n", "app-2024-05-01.log", "c", F.SETTINGS, "r")
    rows = ev.to_pylist()
    assert len(rows) == 1, (line, audit)
    return rows[0]


@pytest.mark.parametrize(("head", "when"), HEADS)
def test_a_head_nobody_listed_gives_the_message_and_its_time(head: str, when: str) -> None:
    for reader in (parse_bytes, read_bytes):
        r = _read(reader, head + MSG)
        assert (r["kind"], r["group_id"], r["generation"], r["member_id"]) == ("joined", "orders", 7, "c-1-abc")
        assert r["ts_ms"] == int(datetime.fromisoformat(when).replace(tzinfo=UTC).timestamp() * 1000)


@pytest.mark.parametrize("end", ["&#xD;", "&#xD;&#xA;", "&#13;"])
def test_an_escaped_line_end_is_no_part_of_the_message(end: str) -> None:
    for reader in (parse_bytes, read_bytes):
        r = _read(reader, "2024-05-01 10:00:01.123 INFO ConsumerCoordinator: " + MSG.replace("'range'", "'range'") + end)
        assert (r["kind"], r["group_id"], r["member_id"]) == ("joined", "orders", "c-1-abc")


def test_a_quoted_key_value_head_behind_a_process_manager() -> None:
    line = f'10:00:01 worker.1 | time="2024-05-01T10:00:01.123Z" level=info logger=ConsumerCoordinator msg="{MSG}"'
    for reader in (parse_bytes, read_bytes):
        r = _read(reader, line)
        assert (r["kind"], r["group_id"], r["generation"]) == ("joined", "orders", 7)


def test_a_sample_of_the_grammar_reads_right() -> None:
    """12 composed heads x 6 statements (the whole grammar: ``python -m tests.ingest.head_grammar``)."""
    total, _, misses = H.grammar_score(H.sample_heads(12, seed=5), H.sample_messages(seed=5, per_source=3), per_file=6, seed=5)
    assert total.ok >= 0.9 * total.n, misses[:5]


def test_a_map_the_layout_writes_after_every_message_is_cut_in_both_readers() -> None:
    """log4j2's ``%m %X``: the ``{traceId=…, spanId=…}`` after each message is no part of a group name."""
    from tests.ingest import jvm_layouts as J

    msgs = [m for m in J.messages("kafka-broker-scala") if "groups were deleted" in m.lines[0] or "Stabilized" in m.lines[0]]
    assert len(msgs) >= 2
    data, _ = F.render(msgs, J.LAYOUTS["log4j2-mdc-after"])
    fast = parse_bytes(data, "f.log", "c", F.SETTINGS, "r")[0].to_pylist()
    ref = read_bytes(data, "f.log", "c", F.SETTINGS, "r")[0].to_pylist()
    assert fast == ref
    assert [r["group_id"] for r in fast] == ["orders-g7"] * len(msgs)
