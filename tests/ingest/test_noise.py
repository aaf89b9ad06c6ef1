"""Lines of other software that use the words the group prefilter looks for (group, heartbeat,
assignment, coordinator, rebalance, generation) in the layouts the logger-less and context rules
read: none becomes an event, and none is taken for a Kafka group line by a distinctive wording, the
``[thrd:]`` prefix, an MDC key or a two-line header."""

from __future__ import annotations

import pytest

from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes

NOISE = [
    '2024-05-01 10:00:00,123 INFO  [main] o.e.c.c.Coordinator - master node changed {previous [], current [node-1]}',
    "2024-05-01 10:00:00,123 INFO  [main] o.a.z.s.q.Leader - Have quorum of supporters, sids: [ [1, 2],[1, 2] ]; starting up",
    "2024-05-01 10:00:00.123 info: Microsoft.Hosting.Lifetime[0]",
    "      Application started. Press Ctrl+C to shut down.",
    "2024-05-01 10:00:00.123 warn: App.Consensus[3]",
    "      Heartbeat: node-3[7] missed, group assignment unchanged",
    "=INFO REPORT==== 1-May-2024::10:00:00.123456 ===",
    "    application: rabbit",
    "    started_at: 'rabbit@node1'",
    "=WARNING REPORT==== 1-May-2024::10:00:01.123456 ===",
    "closing AMQP connection <0.1.0> (10.0.0.1:5672): missed heartbeats from client, timeout: 60s",
    "2024-05-01T10:00:02.123456+00:00 info: Group member (ejabberd,node=a@h):, elected=false",
    "10:00:03.123 [info] Heartbeat: pg[3] ok",
    '{"level":"info","msg":"Heartbeat session expired, marking node dead","groupId":"raft-7"}',
    "2024-05-01 10:00:04,123 INFO [groupId=billing] Payment batch 42 committed for group billing-ledger",
    "2024-05-01 10:00:05,123 INFO [kafka-coordinator-heartbeat-thread | g] HikariPool-1 - Start completed.",
    "May  1 10:00:06 host consul[42]: agent: Synced check: check=service:web group.id=frontend",
    "2024-05-01 10:00:07,123 INFO [thrd:main] app.Sched - rebalance of worker pool started (generation 4)",
]


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
def test_other_software_gives_no_event(reader) -> None:
    ev, q, audit = reader(("\n".join(NOISE) + "\n").encode(), "noise.log", "c", None, "r")
    assert [(e["line_no"], e["kind"], e["dialect"], e["message"]) for e in ev.to_pylist()] == []
    assert audit["events"] == 0
