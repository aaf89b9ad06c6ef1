"""The group a line's context names when its message does not (:mod:`jobs.ingest.context`): MDC and
key=value context in text patterns, the Java consumer's heartbeat thread, and the default client id
``consumer-<group.id>-<n>`` (only among the groups its file names); both readers agree."""

from __future__ import annotations

import json

import pytest

from jobs.ingest.parse import parse_bytes
from tests.ingest.helpers import check_invariant
from tests.ingest.test_reference_equivalence import assert_same

_JOINED = "Successfully joined group with generation 3"  # (the 0.10-2.2 client: no group in the message)


def _read(text: str) -> tuple[list[dict], list[dict]]:
    data = text.encode()
    assert_same(data, "ctx.log")
    ev, q, audit = parse_bytes(data, "ctx.log", "c", None, "r")
    check_invariant(audit)
    return ev.to_pylist(), q.to_pylist()


@pytest.mark.parametrize("line", [
    # logback %X: "k=v, k=v"
    f"2024-05-01 10:00:00,123 [main] INFO  o.a.k.c.c.i.AbstractCoordinator groupId=orders, clientId=c1 - {_JOINED}",
    # log4j2 %X / %MDC: "{k=v, k=v}"
    f"2024-05-01 10:00:00,123 INFO  [main] o.a.k.c.c.i.AbstractCoordinator {{clientId=c1, groupId=orders}} - {_JOINED}",
    # a pattern's own [groupId=%X{{groupId}}]
    f"[2024-05-01 10:00:00,123] INFO [groupId=orders] {_JOINED} (org.apache.kafka.clients.consumer.internals.AbstractCoordinator)",
    # librdkafka's / a Python application's group.id and group_id keys after the message
    f"2024-05-01 10:00:00,123 INFO {_JOINED} group.id=orders",
    f"2024-05-01 10:00:00,123 INFO {_JOINED} kafka.group=orders",
])  # fmt: skip
def test_an_mdc_group_key_names_the_group(line: str) -> None:
    ev, q = _read(line + "\n")
    assert [(e["kind"], e["group_id"], e["generation"]) for e in ev] == [("joined", "orders", 3)]
    assert q == []


def test_a_message_naming_its_group_keeps_it_and_a_null_key_names_none() -> None:
    text = (
        "2024-05-01 10:00:00,123 INFO [main] o.a.k.c.c.i.AbstractCoordinator groupId=mdc - "
        "[Consumer clientId=c1, groupId=own] (Re-)joining group\n"
        f"2024-05-01 10:00:01,123 INFO [main] o.a.k.c.c.i.AbstractCoordinator groupId=null - {_JOINED}\n"
    )
    ev, _ = _read(text)
    # (the second line names no group: its file's one group)
    assert [(e["line_no"], e["group_id"]) for e in ev] == [(1, "own"), (2, "own")]


def test_the_heartbeat_thread_names_its_group() -> None:
    text = (
        "2024-05-01 10:00:00,123 INFO [main] o.a.k.c.c.i.AbstractCoordinator - [Consumer clientId=c1, groupId=a] (Re-)joining group\n"
        "2024-05-01 10:00:09,123 INFO [kafka-coordinator-heartbeat-thread | billing] o.a.k.c.c.i.AbstractCoordinator - "
        "Attempt to heartbeat failed since group is rebalancing\n"
        "2024-05-01 10:00:19,123 INFO [kafka-coordinator-heartbeat-thread | a] o.a.k.c.c.i.AbstractCoordinator - "
        "Attempt to heartbeat failed since group is rebalancing\n"
    )  # fmt: skip
    ev, _ = _read(text)
    assert [(e["line_no"], e["kind"], e["group_id"]) for e in ev] == [
        (1, "join_sent", "a"), (2, "heartbeat_failed", "billing"), (3, "heartbeat_failed", "a")]  # fmt: skip


def test_the_default_client_id_picks_among_the_files_groups_and_invents_none() -> None:
    rows = [
        {"@timestamp": "2024-05-01T10:00:00.123Z", "message": "[Consumer clientId=consumer-orders-1, groupId=orders] (Re-)joining group"},
        {"@timestamp": "2024-05-01T10:00:00.200Z", "message": "[Consumer clientId=consumer-pay-2, groupId=pay] (Re-)joining group"},
        {"@timestamp": "2024-05-01T10:00:05.123Z", "message": _JOINED, "clientId": "consumer-orders-1"},
        {"@timestamp": "2024-05-01T10:00:09.123Z", "message": _JOINED, "clientId": "consumer-pay-2"},
        # (a client id of no group the file names: no group from it; its file names two: unattributed)
        {"@timestamp": "2024-05-01T10:00:15.123Z", "message": _JOINED, "clientId": "consumer-other-3"},
    ]  # fmt: skip
    ev, _ = _read("".join(json.dumps(r) + "\n" for r in rows))
    got = [(e["line_no"], e["group_id"]) for e in ev]
    assert got[:4] == [(1, "orders"), (2, "pay"), (3, "orders"), (4, "pay")]
    assert got[4][1].startswith("unnamed-")
