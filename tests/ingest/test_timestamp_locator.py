"""The timestamp locator and the general reader's head fields (jobs/ingest/timestamps.py, general.py)."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pytest

from jobs.ingest import general as G
from jobs.ingest import timestamps as T
from jobs.ingest.epoch_ms import parse_timestamps
from tests.ingest.helpers import parse_text

LOC = re.compile(T.LOCATE)


@pytest.mark.parametrize(
    ("line", "ts"),
    [
        ("2024-05-01 10:00:00,123 INFO x", "2024-05-01 10:00:00,123"),
        ("[2024-05-01T10:00:00.123456789+02:00] x", "2024-05-01T10:00:00.123456789+02:00"),
        ("2024-05-01 10:00:00 UTC INFO x", "2024-05-01 10:00:00 UTC"),
        ("[sarama]2018/01/18 04:38:29 client/coordinator", "2018/01/18 04:38:29"),
        ("04 Mar 2021 10:00:00,123 INFO x", "04 Mar 2021 10:00:00,123"),
        ("May 01, 2024 10:00:00 AM org.Foo bar", "May 01, 2024 10:00:00 AM"),
        ("Mar  4 10:00:00 host app: x", "Mar  4 10:00:00"),
        ("10:00:00.123 [main] INFO a - b", "10:00:00.123"),
        ("%7|1714557600.123|CGRP|rdkafka#consumer-1| x", "1714557600.123"),
        ("member consumer-1-1234567890123 joined", None),  # (an id is not an epoch)
        ("generation 1714557600 is a number in a message", "1714557600"),
        ("no timestamp here", None),
        ("2024/05/01 10:00:00.123: INFO x", "2024/05/01 10:00:00.123"),  # (a colon after it separates)
        ("2024-05-01T11:00:00.123+01:00: x", "2024-05-01T11:00:00.123+01:00"),
        ("01:00:00 PM web.1  | x", "01:00:00 PM"),
        ("1:00:00 PM web.1  | x", "1:00:00 PM"),
        ("2024-05-01 01:00:00 PM [main] INFO x", "2024-05-01 01:00:00 PM"),
        ("01-May-2024 10:00:00.123 INFO [main] x", "01-May-2024 10:00:00.123"),
        ("Wed May 01 10:00:00 UTC 2024 | x", "Wed May 01 10:00:00 UTC 2024"),
        # the grammar's forms: a two-digit year is a date, not a time of day behind a number
        (">>> 18/08/31 17:02:28 INFO internals.AbstractCoordinator: x", "18/08/31 17:02:28"),
        ("^C21/04/30 02:54:18 INFO x", "21/04/30 02:54:18"),  # (a terminal's Ctrl-C echo)
        ("24-03-17.12:29:01.334 [main] INFO x", "24-03-17.12:29:01.334"),
        ("2025.03.14 08:44:26.725868 [ 344 ] {} <Warning> x", "2025.03.14 08:44:26.725868"),
        ("x^C21/04/30 02:54:18 INFO x", "02:54:18"),  # (^C only at the line's start)
    ],
)
def test_locator_finds_the_first_timestamp(line: str, ts: str | None) -> None:
    m = LOC.match(line)
    assert (m.group("ts") if m else None) == ts


@pytest.mark.parametrize(
    ("raw", "year", "date", "ms"),
    [
        ("04 Mar 2021 10:00:00,123", None, None, 1614852000123),
        ("2024-05-01 10:00:00.123 UTC", None, None, 1714557600123),
        ("Mar  4 10:00:00", 2021, None, 1614852000000),
        ("10:00:00.123", None, "2024-05-01", 1714557600123),
        ("10:00:00 PM", None, "2024-05-01", 1714600800000),
        ("12:00:01 AM", None, "2024-05-01", 1714521601000),
        ("2024-05-01 01:00:00 PM", None, None, 1714568400000),
        ("01-May-2024 10:00:00.123", None, None, 1714557600123),
        ("Wed May 01 10:00:00 UTC 2024", None, None, 1714557600000),
    ],
)
def test_to_iso_reads_the_other_forms(raw: str, year, date, ms: int) -> None:
    iso = T.to_iso(raw, year=year, date=date)
    assert parse_timestamps(pa.array([iso]), "UTC").to_pylist() == [ms]


def test_forms_without_context_stay_unreadable() -> None:
    assert T.to_iso("Mar  4 10:00:00") is None and T.to_iso("10:00:00.123") is None


def test_general_reader_prefers_the_applications_timestamp_and_finds_level_and_logger() -> None:
    text = pa.array([
        "2024-05-01T10:00:09.000Z stdout F [2024-05-01 10:00:00,123] WARN hello (a.b.C)",
        "INFO something without a time",
        "    at a.b.C(C.java:1)",
        "    2024-05-01 10:00:00,123 INFO indented entry",
    ])  # fmt: skip
    hint = np.array([False, False, False, False])
    cont = np.array([False, False, True, True])
    head, st = G.read_heads(text, hint, cont)
    assert head.tolist() == [True, True, False, True]
    assert st["ts"].to_pylist()[0] == "2024-05-01 10:00:00,123"
    assert st["pts"].to_pylist()[0] == "2024-05-01T10:00:09.000Z"
    assert st["level"].to_pylist()[:2] == ["WARN", "INFO"]
    assert st["logger"].to_pylist()[0] == "a.b.C"
    assert st["message"].to_pylist()[0] == "hello"


def test_message_candidates_start_at_separators_and_cut_end_junk() -> None:
    cands, owner, rank = G.message_candidates(["[a][INFO][t][][x.Y Line:5] uid[] Stabilized group g (x.y.Z) [main]"])
    assert cands[-2:] == ["Stabilized group g", "Stabilized group g (x.y.Z) [main]"][::-1] or "Stabilized group g" in cands
    assert owner == [0] * len(cands) and rank == sorted(rank)
    assert cands.index("Stabilized group g") < len(cands)


def test_syslog_year_comes_from_a_dated_line_of_the_file() -> None:
    ev, q, _ = parse_text(
        "2021-03-04 09:00:00,000 INFO warm-up\n"
        "Mar  4 10:00:00 kafka-0 kafka: [GroupCoordinator 1]: Stabilized group g generation 4 (__consumer_offsets-1) with 2 members\n"
    )
    assert q.num_rows == 0
    assert ev.column("ts_ms").to_pylist() == [1614852000000]


@pytest.mark.parametrize(
    ("line", "ts", "ms"),
    [
        # Python logging datefmts: US 12-hour clock, a day > 12 first is day/month, %d-%b-%y
        ("05/01/2024 01:00:00 PM INFO kafka.coordinator: x", "05/01/2024 01:00:00 PM", 1714568400000),
        ("05/01/2024 12:30:00 AM INFO x", "05/01/2024 12:30:00 AM", 1714523400000),
        ("25/12/2024 13:00:00 INFO x", "25/12/2024 13:00:00", 1735131600000),
        ("[Nest] 42  - 05/01/2024, 1:00:00 PM     LOG [X] x", "05/01/2024, 1:00:00 PM", 1714568400000),
        ("01-May-24 13:00:00 - kafka.coordinator - INFO - x", "01-May-24 13:00:00", 1714568400000),
        # gunicorn's zone after a space; svlogd/s6-log TAI64N (2^62 + 10 + Unix seconds, nanoseconds)
        ("[2024-05-01 13:00:00 +0200] [42] [INFO] x", "2024-05-01 13:00:00 +0200", 1714561200000),
        ("@400000006632403a075bcd15 INFO:kafka.coordinator:x", "@400000006632403a075bcd15", 1714569264123),
    ],
)
def test_locator_reads_python_supervisor_and_server_forms(line: str, ts: str, ms: int) -> None:
    m = LOC.match(line)
    assert m is not None and m.group("ts") == ts
    iso = T.to_iso(ts)
    assert parse_timestamps(pa.array([iso]), "UTC").to_pylist() == [ms]
    assert T.date_of(ts) == "2024-05-01" or ts.startswith("25/12")


def test_a_python_logger_name_and_level_lead_no_message() -> None:
    assert re.sub(G.LEAD, "", " kafka.coordinator - INFO - (Re-)joining group g", count=1) == "(Re-)joining group g"
    assert re.sub(G.LEAD, "", " INFO kafka.coordinator: (Re-)joining group g", count=1) == "(Re-)joining group g"
    # (a bracket or a Java exception name is the message's own)
    assert re.sub(G.LEAD, "", " [Consumer clientId=c, groupId=g] x", count=1) == " [Consumer clientId=c, groupId=g] x"
    assert re.sub(G.LEAD, "", " org.apache.kafka.X: y", count=1) == " org.apache.kafka.X: y"
    cands, _, _ = G.message_candidates(["<0.5.0>@brod_group_coordinator:log:375 group coordinator (groupId=g):",
                                        "1:00PM INF client/coordinator coordinator for consumergroup g is #1 (k:9092)"])  # fmt: skip
    assert "group coordinator (groupId=g):" in cands
    assert "client/coordinator coordinator for consumergroup g is #1 (k:9092)" in cands


def test_a_message_starts_after_any_head_word_but_not_inside_a_sentence() -> None:
    """Blanks start candidates while the words before them are head parts (``pid=1``, a lower-case or
    CamelCase logger, a level); a capitalised word is the message's."""
    cands, _, _ = G.message_candidates(["org.a.AbstractCoordinator pid=1 Attempt to join group g"])
    assert "Attempt to join group g" in cands and "pid=1 Attempt to join group g" in cands
    cands, _, _ = G.message_candidates(["Received SyncGroup response: x"])
    assert "SyncGroup response: x" not in cands


def test_a_map_every_message_ends_with_is_the_layouts() -> None:
    msgs = ["Joined group g {traceId=a, spanId=b}", "Left group g {traceId=c, spanId=d}", "plain"]
    regex = G.layout_map_tail(msgs)
    assert regex is not None and re.sub(regex, "", msgs[0]) == "Joined group g"
    # (a message's own map, once: not the layout's)
    assert G.layout_map_tail(["Assigned {t-0=a}", "Joined group g", "Left group g"]) is None
