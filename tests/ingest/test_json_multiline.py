"""JSON layouts: a ``message`` with embedded newlines is one entry whose first line is the head
message and whose rest is the continuation text (as in the multi-line entries of other layouts)."""

from __future__ import annotations

import json

from tests.ingest.helpers import check_invariant, parse_text

CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
PFX = "[Consumer clientId=consumer-orders-group-1, groupId=orders-group] "
UPDATING = (
    "Updating assignment with\n"
    "\tAssigned partitions:                       [t-0, t-1]\n"
    "\tCurrent owned partitions:                  [t-0]\n"
    "\tAdded partitions (assigned - owned):       [t-1]\n"
    "\tRevoked partitions (owned - assigned):     []\n"
)
CONFIG = (
    "ConsumerConfig values: \n"
    "\tallow.auto.create.topics = true\n"
    "\tgroup.id = orders-group\n"
    "\tgroup.instance.id = null\n"
    "\tpartition.assignment.strategy = [class org.apache.kafka.clients.consumer.CooperativeStickyAssignor]\n"
)


def _json(msg: str, logger: str, ts: str = "2026-01-01T00:00:15.917Z") -> str:
    return json.dumps(
        {"@timestamp": ts, "@version": "1", "message": msg, "logger_name": logger, "level": "INFO"}
    )


def test_json_updating_assignment_is_parsed_by_its_first_line() -> None:
    ev, q, audit = parse_text(_json(PFX + UPDATING, CC) + "\n")
    assert q.num_rows == 0
    (row,) = ev.to_pylist()
    assert row["kind"] == "assignment_notified"
    assert row["dialect"] == "client.updating_assignment"
    assert row["group_id"] == "orders-group"
    assert row["client_id"] == "consumer-orders-group-1"
    assert row["partitions"] == ["t-0", "t-1"]
    assert row["message"] == PFX + "Updating assignment with"
    assert row["continuation"] == UPDATING.split("\n", 1)[1].rstrip("\n")
    assert (audit["total_lines"], audit["events"], audit["continuations"], audit["quarantined"]) == (
        1,
        1,
        0,
        0,
    )
    check_invariant(audit)


def test_json_and_log4j_updating_assignment_map_to_the_same_event() -> None:
    log4j = f"[2026-01-01 00:00:15,917] INFO {PFX}{UPDATING.rstrip()} ({CC})\n"
    ev_j, _, _ = parse_text(_json(PFX + UPDATING, CC) + "\n")
    ev_l, _, _ = parse_text(log4j)
    keys = ("kind", "dialect", "group_id", "client_id", "partitions", "ts_ms")
    assert [{k: r[k] for k in keys} for r in ev_j.to_pylist()] == [
        {k: r[k] for k in keys} for r in ev_l.to_pylist()
    ]


def test_json_empty_assignment_gives_an_empty_partition_list() -> None:
    msg = UPDATING.replace("[t-0, t-1]", "[]")
    ev, q, _ = parse_text(_json(PFX + msg, CC) + "\n")
    assert q.num_rows == 0
    assert ev.column("partitions").to_pylist() == [[]]


def test_json_config_dump_is_unrelated() -> None:
    text = "\n".join(
        [
            _json(CONFIG, "org.apache.kafka.clients.consumer.ConsumerConfig"),
            _json(
                CONFIG.replace("ConsumerConfig", "ProducerConfig"),
                "org.apache.kafka.clients.producer.ProducerConfig",
            ),
            _json(
                "AdminClientConfig values: \n\tgroup.id = orders-group\n",
                "o.a.k.clients.admin.AdminClientConfig",
            ),
        ]
    )
    ev, q, audit = parse_text(text + "\n")
    assert ev.num_rows == 0
    assert q.num_rows == 0
    assert (audit["total_lines"], audit["unrelated"]) == (3, 3)
    check_invariant(audit)


def test_json_multi_line_message_of_a_quarantined_head_keeps_its_raw_line() -> None:
    line = _json(PFX + "Detected a group thing we do not know\n\tdetail line", "com.example.App")
    ev, q, audit = parse_text(line + "\n")
    assert ev.num_rows == 0
    (row,) = q.to_pylist()
    assert row["reason"] == "group_line_not_understood"
    assert row["raw"] == line
    check_invariant(audit)


def test_json_subscription_lines_are_unrelated() -> None:
    """A member's subscription is no fact of the group protocol (the catalogue declares it unrelated): in a
    JSON record with the group prefix it is counted unrelated, like the AppInfoParser line beside it."""
    text = "\n".join(
        [
            _json(PFX + "Subscribed to topic(s): t1, t2", "org.apache.kafka.clients.consumer.KafkaConsumer"),
            _json(
                "App info kafka.consumer for consumer-orders-group-1 unregistered",
                "o.a.k.common.utils.AppInfoParser",
            ),
        ]
    )
    ev, q, audit = parse_text(text + "\n")
    assert (ev.num_rows, q.num_rows) == (0, 0)
    assert (audit["events"], audit["unrelated"]) == (0, 2)
