"""A supervisor's or system log's prefix on every physical line (svlogd/s6 TAI64N, s6-log ISO, syslog,
journalctl) is peeled before the entry's lines are read, so that an entry written over several lines
joins (jobs/ingest/line_prefixes.py); the same in both readers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobs.ingest import line_prefixes as LP
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest.framework_layouts import tai64n

READERS = [parse_bytes, read_bytes]
T = datetime(2024, 5, 1, 13, 0, 0, 500000, tzinfo=UTC)
JAVA = [
    "2024-05-01 13:00:00,123 ERROR [main] o.a.k.c.c.i.ConsumerCoordinator - [Consumer clientId=c, groupId=g] "
    "Offset commit failed on partition t-0 at offset 5: The coordinator is not aware of this member.",
    "org.apache.kafka.clients.consumer.CommitFailedException: Commit cannot be completed",
    "\tat org.apache.kafka.clients.consumer.internals.ConsumerCoordinator.commit(ConsumerCoordinator.java:1)",
    "2024-05-01 13:00:01,456 INFO [main] o.a.k.c.c.i.AbstractCoordinator - [Consumer clientId=c, groupId=g] "
    "Successfully joined group with generation Generation{generationId=8, memberId='m', protocol='range'}",
]
PREFIXES = {
    "svlogd": tai64n(T) + " ",
    "s6-log": "2024-05-01 13:00:00.500000000  ",
    "syslog": "May  1 13:00:00 node-3 app[812]: ",
    "journalctl": "2024-05-01T13:00:00.500000+0000 node-3 app[812]: ",
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("prefix", PREFIXES)
def test_a_java_stack_trace_behind_a_per_line_prefix_continues_its_entry(reader, prefix: str) -> None:
    data = "".join(PREFIXES[prefix] + x + "\n" for x in JAVA).encode()
    ev, q, audit = reader(data, "app.log", "c", IngestSettings(default_year=2024), "r")
    assert [(r["line_no"], r["kind"], r["generation"]) for r in ev.to_pylist()] == [(1, "offset_commit_failed", None), (4, "joined", 8)]
    assert ev.column("ts_ms").to_pylist() == [1714568400123, 1714568401456]  # (the application's times)
    # the prefix's time is kept as the envelope's (syslog's has no fraction)
    env = T.replace(microsecond=0) if prefix == "syslog" else T
    assert [e.astimezone(UTC) for e in ev.column("envelope_ts").to_pylist()] == [env, env]
    assert (audit["events"], audit["continuations"], q.num_rows) == (2, 2, 0)


def test_the_prefix_stays_when_the_application_prints_no_time() -> None:
    """``LEVEL:name:msg`` behind svlogd: each line is an entry whose only time is the prefix's."""
    lines = [PREFIXES["svlogd"] + "INFO:kafka.coordinator:Successfully joined group g with generation 3",
             PREFIXES["svlogd"] + "2024-05-01 13:00:00,123 INFO other line"]  # fmt: skip
    assert LP.line_prefix(lines) is None
    assert LP.line_prefix([PREFIXES["s6-log"] + x for x in JAVA]) is not None
    assert LP.line_prefix(JAVA) is None  # (a plain log4j file: its timestamps are the application's)


def test_the_applications_indentation_is_kept() -> None:
    """The text behind the prefix keeps its indentation; the prefix's time is the peeled ``pts``."""
    rx = LP.line_prefix([PREFIXES["s6-log"] + "2024-05-01 13:00:00,123 INFO x", PREFIXES["s6-log"] + "    {retries,3}"])
    assert rx is not None
    import re

    assert LP.peel(PREFIXES["s6-log"] + "    {retries,3}", re.compile(rx)) == ("    {retries,3}", PREFIXES["s6-log"].strip())
